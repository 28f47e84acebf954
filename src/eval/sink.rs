//! Where the evaluation's terms go. One generic pass over the board (`pieces.rs`,
//! `terms.rs`) reports every use of a weight to an [`WeightSink`]:
//!
//! * [`PackedSum`], the search's path, adds the weight's value at once (midgame and
//!   endgame packed in one `i32`), so it costs what hand-written sums cost;
//! * [`Trace`], the tuner's path, counts the uses of each weight instead: the
//!   evaluation is linear in the weights, so the counts and the phase are all the
//!   tuner needs to evaluate any set of weights, and the gradient.

use super::layout::{self, COUNT, DEFAULTS};
use shakmaty::{Bitboard, Color, Role};

/// A midgame and an endgame value in one `i32`: the endgame value in the high
/// half, the midgame value (two's complement) in the low half. Adding packed
/// values adds both halves at once, as long as each sum stays within `i16`:
/// material and tables stay near ±16 × 1100 at worst, the other terms are small.
pub type Packed = i32;

pub const fn pack(mg: i32, eg: i32) -> Packed {
    (eg << 16) + mg
}

pub const fn mg_of(p: Packed) -> i32 {
    p as i16 as i32
}

pub const fn eg_of(p: Packed) -> i32 {
    // The low half is signed: round the high half to undo its borrow.
    ((p + 0x8000) >> 16) as i16 as i32
}

/// Receives each use of a weight, for one side at a time: a use by Black counts
/// against White (every sum is White's minus Black's).
pub trait WeightSink {
    /// Every piece of `color` and `role` on `squares`: its material and its
    /// square's entry in the piece-square table.
    fn pieces(&mut self, color: Color, role: Role, squares: Bitboard);
    /// `count` uses of the weight at `index` (see `layout`) by `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Every weight packed, by its index in the flat list.
const PACKED: [Packed; COUNT] = {
    let mut out = [0; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = pack(DEFAULTS[i].0, DEFAULTS[i].1);
        i += 1;
    }
    out
};

/// `[colour][role][square]` → packed material plus piece-square value, signed
/// from White's point of view (Black's entries negated), by shakmaty square
/// index (a1 = 0): one lookup a piece. Colour 0 is White.
type PieceTable = [[[Packed; 64]; 6]; 2];

const fn build_piece_table() -> PieceTable {
    let mut out = [[[0; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let material = PACKED[layout::MATERIAL + role];
        let mut sq = 0;
        while sq < 64 {
            out[0][role][sq] = material + PACKED[layout::pst(role, sq)];
            // Black reads White's table mirrored vertically.
            out[1][role][sq] = -(material + PACKED[layout::pst(role, sq ^ 56)]);
            sq += 1;
        }
        role += 1;
    }
    out
}

static PIECE_TABLE: PieceTable = build_piece_table();

/// Index of a role in `Role::ALL` order (pawn 0 … king 5).
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The search's sink: White's packed score.
#[derive(Clone, Copy, Debug, Default)]
pub struct PackedSum(pub Packed);

impl WeightSink for PackedSum {
    #[inline(always)]
    fn pieces(&mut self, color: Color, role: Role, squares: Bitboard) {
        let row = &PIECE_TABLE[color.fold_wb(0, 1)][role_index(role)];
        for sq in squares {
            self.0 += row[sq.to_usize()];
        }
    }

    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let value = PACKED[index] * count;
        match color {
            Color::White => self.0 += value,
            Color::Black => self.0 -= value,
        }
    }
}

/// The tuner's sink: how often each weight was used, White's uses minus
/// Black's, and the game phase (`eval::MAX_PHASE` = all midgame, 0 = endgame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub counts: [i32; COUNT],
    pub phase: i32,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            counts: [0; COUNT],
            phase: 0,
        }
    }
}

#[cfg(test)]
impl Trace {
    /// The evaluation's midgame and endgame sums for these counts and `weights`.
    pub fn sums(&self, weights: &[(i32, i32); COUNT]) -> (i64, i64) {
        let mut mg = 0;
        let mut eg = 0;
        for (&count, &(w_mg, w_eg)) in self.counts.iter().zip(weights) {
            mg += count as i64 * w_mg as i64;
            eg += count as i64 * w_eg as i64;
        }
        (mg, eg)
    }
}

impl WeightSink for Trace {
    fn pieces(&mut self, color: Color, role: Role, squares: Bitboard) {
        let sign = color.fold_wb(1, -1);
        let r = role_index(role);
        for sq in squares {
            let white_square = color.fold_wb(sq.to_usize(), sq.to_usize() ^ 56);
            self.counts[layout::MATERIAL + r] += sign;
            self.counts[layout::pst(r, white_square)] += sign;
        }
    }

    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.counts[index] += color.fold_wb(count, -count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_both_halves() {
        for (mg, eg) in [(0, 0), (1, -1), (-1, 1), (-1084, 1084), (10000, -10000)] {
            let p = pack(mg, eg);
            assert_eq!((mg_of(p), eg_of(p)), (mg, eg));
            assert_eq!(
                (mg_of(3 * p), eg_of(3 * p)),
                (3 * mg, 3 * eg),
                "({mg}, {eg})"
            );
        }
    }
}
