//! The shapes a weight of the evaluation comes in: one (midgame, endgame) pair, or a
//! piece-square table of them. Below both `weights.rs` (the values) and `layout.rs`
//! (where each sits in the flat list), which both use them.

/// A weight: (midgame, endgame) centipawns, from White's point of view.
pub type Pair = (i32, i32);

/// A piece-square table as `weights.rs` writes it: two boards as seen by White,
/// the first row rank 8 (a8..h8), the last rank 1 (a1..h1), the way chess books
/// print a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareTable {
    pub mg: [i32; 64],
    pub eg: [i32; 64],
}
