//! Correction histories: how far the static evaluation has been from what the search
//! found, in positions that share a feature, learned during the search and added to
//! the evaluation of the next position with that feature.
//!
//! The network misjudges some pawn structures, some piece configurations and some
//! sequences of moves the same way again and again; the search sees the error (its
//! result disagrees with the static evaluation) and records it here, by
//!
//! * the pawn structure (both sides' pawns),
//! * the minor pieces and kings,
//! * each side's pieces other than pawns (two tables: White's, Black's),
//! * the last two moves (the piece and square of each).
//!
//! Every table is kept per side to move and holds scores within ±`CORRECTION_MAX`,
//! updated with the same "gravity" rule as the move histories. A table's score at
//! full scale is worth its `corr_*_weight` centipawns (tunables in `params.rs`); the
//! correction is the sum of the four. The static evaluation that pruning rules read
//! is the network's plus this correction; the table stores the network's alone.

use super::history::{PIECE_TO, PieceTo, WrittenRows, gravity};
use super::params::Params;
use crate::score::Score;
use shakmaty::{Bitboard, Board, Color};

/// Correction scores stay within ±this.
pub const CORRECTION_MAX: i32 = 1024;
/// One update moves a score by at most this much (a quarter of the range).
const CORRECTION_MAX_BONUS: i32 = CORRECTION_MAX / 4;
/// Entries per side to move in each table keyed by a position's feature.
const ENTRIES: usize = 16_384;

/// splitmix64's finaliser: spreads a key's bits over all of it.
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// One odd multiplier for each place in a list of bitboards (random, fixed).
const PLACE_MULTIPLIERS: [u64; 6] = [
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
    0xd6e8_feb8_6659_fd93,
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
];

/// A key for a list of bitboards (their order matters): each bitboard times its
/// place's multiplier, summed, then mixed once. The products are independent of each
/// other, so a node computes its four keys in a few cycles; a chain of mixes, one per
/// bitboard, made every node wait for 18 mixes in a row.
#[inline]
fn key_of<const N: usize>(bitboards: [Bitboard; N]) -> u64 {
    let mut sum = 0u64;
    for (bb, multiplier) in bitboards.iter().zip(PLACE_MULTIPLIERS) {
        sum = sum.wrapping_add(bb.0.wrapping_mul(multiplier));
    }
    mix(sum)
}

/// The features of one position that the tables are keyed by (computed once per node,
/// read to correct its evaluation and again to update the tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    side: Color,
    pawns: u64,
    minors: u64,
    /// Indexed by colour (`Color as usize`).
    non_pawns: [u64; 2],
    /// The moves one and two plies back, where both were real moves.
    last_moves: Option<(PieceTo, PieceTo)>,
}

impl Features {
    pub fn new(board: &Board, side: Color, earlier: [Option<PieceTo>; 2]) -> Features {
        let (white, black) = (board.white(), board.black());
        let non_pawn = |us: Bitboard| {
            key_of([
                board.knights() & us,
                board.bishops() & us,
                board.rooks() & us,
                board.queens() & us,
                board.kings() & us,
            ])
        };
        Features {
            side,
            pawns: key_of([board.pawns() & white, board.pawns() & black]),
            minors: key_of([
                board.knights() & white,
                board.knights() & black,
                board.bishops() & white,
                board.bishops() & black,
                board.kings() & white,
                board.kings() & black,
            ]),
            non_pawns: [non_pawn(black), non_pawn(white)],
            last_moves: match earlier {
                [Some(last), Some(before)] => Some((before, last)),
                _ => None,
            },
        }
    }
}

#[inline]
fn slot(key: u64) -> usize {
    (key as usize) & (ENTRIES - 1)
}

/// The move histories' gravity update, on the correction's scale.
#[inline]
fn update(score: &mut i16, bonus: i32) {
    *score = gravity(*score as i32, bonus, CORRECTION_MAX) as i16;
}

/// The four tables of one search thread (1.4 MB, allocated once, cleared in place).
#[derive(PartialEq, Eq)]
pub struct CorrectionHistory {
    /// [side to move][pawn key].
    pawns: Box<[[i16; ENTRIES]; 2]>,
    /// [side to move][minor-piece key].
    minors: Box<[[i16; ENTRIES]; 2]>,
    /// [side to move][colour][that colour's non-pawn key].
    non_pawns: Box<[[[i16; ENTRIES]; 2]; 2]>,
    /// [move two plies back][last move] (the side to move is the first move's).
    last_moves: Box<[[i16; PIECE_TO]]>,
    /// The rows of `last_moves` written since the last `clear`.
    written: WrittenRows,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: Box::new([[0; ENTRIES]; 2]),
            minors: Box::new([[0; ENTRIES]; 2]),
            non_pawns: Box::new([[[0; ENTRIES]; 2]; 2]),
            last_moves: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            written: WrittenRows::default(),
        }
    }
}

impl CorrectionHistory {
    /// Forgets everything, keeping the memory.
    pub fn clear(&mut self) {
        self.pawns.as_flattened_mut().fill(0);
        self.minors.as_flattened_mut().fill(0);
        self.non_pawns.as_flattened_mut().as_flattened_mut().fill(0);
        let last_moves = &mut self.last_moves;
        self.written.clear(|row| last_moves[row].fill(0));
    }

    /// Asks the cache for the five entries of `f`, to be read by `correction` a little
    /// later (after the network's evaluation, say): the tables are too large for the
    /// first-level cache, and the node would otherwise wait on each. Only a hint: it
    /// changes nothing the tables hold.
    #[inline]
    pub fn prefetch(&self, f: &Features) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let side = f.side as usize;
            let hint = |entry: &i16| {
                // SAFETY: a prefetch only hints the cache; it reads nothing the program
                // sees and cannot fault (SSE, part of the x86-64 baseline).
                unsafe { _mm_prefetch::<_MM_HINT_T0>((entry as *const i16).cast::<i8>()) }
            };
            hint(&self.pawns[side][slot(f.pawns)]);
            hint(&self.minors[side][slot(f.minors)]);
            hint(&self.non_pawns[side][0][slot(f.non_pawns[0])]);
            hint(&self.non_pawns[side][1][slot(f.non_pawns[1])]);
            if let Some((before, last)) = f.last_moves {
                hint(&self.last_moves[before.index()][last.index()]);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = f;
    }

    /// What to add to the static evaluation of a position with features `f` (centipawns).
    pub fn correction(&self, f: &Features, params: &Params) -> Score {
        let side = f.side as usize;
        let last_moves = f.last_moves.map_or(0, |(before, last)| {
            self.last_moves[before.index()][last.index()]
        });
        let weighted = params.corr_pawn_weight * self.pawns[side][slot(f.pawns)] as i32
            + params.corr_minor_weight * self.minors[side][slot(f.minors)] as i32
            + params.corr_non_pawn_weight
                * (self.non_pawns[side][0][slot(f.non_pawns[0])] as i32
                    + self.non_pawns[side][1][slot(f.non_pawns[1])] as i32)
            + params.corr_last_moves_weight * last_moves as i32;
        weighted / CORRECTION_MAX
    }

    /// The search of a position with features `f` at `depth` found `error` centipawns
    /// more than its (corrected) static evaluation: move every table towards it, the
    /// more the deeper the search.
    pub fn update(&mut self, f: &Features, error: Score, depth: i32, params: &Params) {
        let bonus = (error * depth / params.corr_update_divisor)
            .clamp(-CORRECTION_MAX_BONUS, CORRECTION_MAX_BONUS);
        let side = f.side as usize;
        update(&mut self.pawns[side][slot(f.pawns)], bonus);
        update(&mut self.minors[side][slot(f.minors)], bonus);
        for colour in 0..2 {
            update(
                &mut self.non_pawns[side][colour][slot(f.non_pawns[colour])],
                bonus,
            );
        }
        if let Some((before, last)) = f.last_moves {
            let row = before.index();
            self.written.mark(row);
            update(&mut self.last_moves[row][last.index()], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn features(fen: &str) -> Features {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Features::new(pos.board(), pos.turn(), [None, None])
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// The start, a knight moved: same pawns, other minor and non-pawn keys.
    const KNIGHT_OUT: &str = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1";

    #[test]
    fn keys_follow_their_pieces_only() {
        let (a, b) = (features(START), features(KNIGHT_OUT));
        assert_eq!(a.pawns, b.pawns);
        assert_ne!(a.minors, b.minors);
        let (white, black) = (Color::White as usize, Color::Black as usize);
        assert_ne!(a.non_pawns[white], b.non_pawns[white]);
        assert_eq!(a.non_pawns[black], b.non_pawns[black]);
    }

    #[test]
    fn the_correction_follows_the_errors_and_stays_bounded() {
        let params = crate::search::SearchConfig::default().params;
        let mut h = CorrectionHistory::default();
        let (a, b) = (features(START), features(KNIGHT_OUT));
        assert_eq!(h.correction(&a, &params), 0);
        for _ in 0..1000 {
            h.update(&a, 300, 12, &params);
        }
        let most = params.corr_pawn_weight
            + params.corr_minor_weight
            + 2 * params.corr_non_pawn_weight
            + params.corr_last_moves_weight;
        let up = h.correction(&a, &params);
        assert!(up > 0 && up <= most, "{up}");
        // The other position shares the pawns and Black's pieces only.
        let shared = h.correction(&b, &params);
        assert!(shared > 0 && shared < up, "{shared} {up}");
        for _ in 0..1000 {
            h.update(&a, -300, 12, &params);
        }
        let down = h.correction(&a, &params);
        assert!(down < 0 && down >= -most, "{down}");
        h.clear();
        assert!(h == CorrectionHistory::default());
    }
}
