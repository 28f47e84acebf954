//! What the search learns about quiet moves as it goes, for ordering them:
//!
//! * butterfly history (side, from, to): how often the move caused a cutoff anywhere;
//! * continuation history (previous move's piece and square → this move's piece and
//!   square), one and two plies back: how good the move is as an answer to, or a
//!   follow-up of, a particular move;
//! * counter moves: the last quiet move that refuted each (piece, square) move.
//!
//! Every table uses the same "gravity" update, which keeps scores within
//! ±`HISTORY_MAX`: a bonus moves a score towards the bound by a share of the distance.

use super::params::HISTORY_MAX;
use shakmaty::{Color, Move};

/// The gravity update: `score` rewarded (positive `bonus`) or punished, staying within
/// ±`max`: it moves towards the bound by a share of the distance. The correction
/// histories (`correction.rs`) use it too, on their own scale.
#[inline]
pub(super) fn gravity(score: i32, bonus: i32, max: i32) -> i32 {
    let bonus = bonus.clamp(-max, max);
    score + bonus - score * bonus.abs() / max
}

/// Which rows of a table with one row per (piece, square) were written since it was
/// last cleared, one bit each: a short search (a self-play move) writes a fraction of
/// the 768 rows, and clearing zeroes only those.
#[derive(Default, PartialEq, Eq)]
pub(super) struct WrittenRows([u64; PIECE_TO / 64]);

impl WrittenRows {
    #[inline]
    pub fn mark(&mut self, row: usize) {
        self.0[row / 64] |= 1 << (row % 64);
    }

    /// Calls `clear_row` on every marked row, once, and forgets the marks.
    pub fn clear(&mut self, mut clear_row: impl FnMut(usize)) {
        for (word, bits) in self.0.iter_mut().enumerate() {
            let mut rows = std::mem::take(bits);
            while rows != 0 {
                clear_row(word * 64 + rows.trailing_zeros() as usize);
                rows &= rows - 1;
            }
        }
    }
}

/// A move's piece (colour and role) and destination square, as an index 0..768.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub fn new(side: Color, m: Move) -> PieceTo {
        let piece = side as usize * 6 + (m.role() as usize - 1);
        PieceTo((piece * 64 + m.to() as usize) as u16)
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

pub(super) const PIECE_TO: usize = 12 * 64;

/// Butterfly history: how often a quiet move (by side, from, to) caused a cutoff,
/// weighted by depth and kept bounded by the "gravity" update.
#[derive(PartialEq, Eq)]
pub struct History {
    table: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl History {
    /// Forgets everything, keeping the table's memory (a new search starts from zero).
    pub fn clear(&mut self) {
        self.table.as_flattened_mut().as_flattened_mut().fill(0);
    }

    fn slot(&mut self, side: Color, m: Move) -> &mut i32 {
        let from = m.from().map_or(0, |s| s as usize);
        &mut self.table[side as usize][from][m.to() as usize]
    }

    pub fn get(&self, side: Color, m: Move) -> i32 {
        let from = m.from().map_or(0, |s| s as usize);
        self.table[side as usize][from][m.to() as usize]
    }

    /// Rewards (positive `bonus`) or punishes a move; values stay within ±HISTORY_MAX.
    pub fn update(&mut self, side: Color, m: Move, bonus: i32) {
        let slot = self.slot(side, m);
        *slot = gravity(*slot, bonus, HISTORY_MAX);
    }
}

/// The continuation scores of every move after one particular (piece, square) move.
pub type ContinuationRow = [i32; PIECE_TO];

/// Continuation history: for each (piece, square) of an earlier move, the score of
/// each (piece, square) that followed it. Shared by the one- and two-ply lookups.
#[derive(PartialEq, Eq)]
pub struct ContinuationHistory {
    table: Box<[ContinuationRow]>,
    /// The rows written since the last `clear`.
    written: WrittenRows,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            table: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            written: WrittenRows::default(),
        }
    }
}

impl ContinuationHistory {
    /// Forgets everything, keeping the table's memory (2.4 MB: not reallocated per search).
    pub fn clear(&mut self) {
        let table = &mut self.table;
        self.written.clear(|row| table[row].fill(0));
    }

    /// The scores of the moves that follow `earlier`.
    #[inline]
    pub fn row(&self, earlier: PieceTo) -> &ContinuationRow {
        &self.table[earlier.index()]
    }

    pub fn update(&mut self, earlier: PieceTo, now: PieceTo, bonus: i32) {
        let row = earlier.index();
        self.written.mark(row);
        let score = &mut self.table[row][now.index()];
        *score = gravity(*score, bonus, HISTORY_MAX);
    }
}

/// A row's score for `now` (0 without an earlier move).
#[inline]
pub fn continuation(row: Option<&ContinuationRow>, now: PieceTo) -> i32 {
    row.map_or(0, |r| r[now.index()])
}

/// The last quiet move that refuted each (piece, square) move.
#[derive(PartialEq, Eq)]
pub struct CounterMoves {
    table: Box<[Option<Move>]>,
}

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves {
            table: vec![None; PIECE_TO].into_boxed_slice(),
        }
    }
}

impl CounterMoves {
    /// Forgets every counter move, keeping the table's memory.
    pub fn clear(&mut self) {
        self.table.fill(None);
    }

    pub fn get(&self, previous: PieceTo) -> Option<Move> {
        self.table[previous.index()]
    }

    pub fn set(&mut self, previous: PieceTo, m: Move) {
        self.table[previous.index()] = Some(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn history_stays_bounded() {
        let mut h = History::default();
        let m = Chess::default().legal_moves()[0];
        for _ in 0..10_000 {
            h.update(Color::White, m, 10_000);
        }
        assert!(h.get(Color::White, m) <= HISTORY_MAX);
        for _ in 0..10_000 {
            h.update(Color::White, m, -10_000);
        }
        assert!(h.get(Color::White, m) >= -HISTORY_MAX);
    }

    #[test]
    fn continuation_scores_depend_on_the_earlier_move() {
        let moves = Chess::default().legal_moves();
        let (a, b, c) = (
            PieceTo::new(Color::White, moves[0]),
            PieceTo::new(Color::White, moves[1]),
            PieceTo::new(Color::Black, moves[2]),
        );
        assert_ne!(a, PieceTo::new(Color::Black, moves[0]), "colour counts");
        let mut h = ContinuationHistory::default();
        for _ in 0..1000 {
            h.update(a, c, 5000);
        }
        assert!(continuation(Some(h.row(a)), c) > 0);
        assert!(continuation(Some(h.row(a)), c) <= HISTORY_MAX);
        assert_eq!(continuation(Some(h.row(b)), c), 0);
        assert_eq!(continuation(None, c), 0);
    }

    #[test]
    fn cleared_tables_equal_fresh_ones() {
        let moves = Chess::default().legal_moves();
        let (a, b) = (
            PieceTo::new(Color::White, moves[0]),
            PieceTo::new(Color::Black, moves[1]),
        );
        let mut h = History::default();
        let mut c = ContinuationHistory::default();
        let mut k = CounterMoves::default();
        h.update(Color::Black, moves[3], 400);
        // Rows in different words of the written-rows bits, and the last row.
        let last = PieceTo((PIECE_TO - 1) as u16);
        for (earlier, now) in [(a, b), (b, a), (last, a), (a, last)] {
            c.update(earlier, now, 400);
        }
        k.set(a, moves[2]);
        assert!(h != History::default() && c != ContinuationHistory::default());
        assert!(k != CounterMoves::default());
        h.clear();
        c.clear();
        k.clear();
        assert!(h == History::default());
        assert!(c == ContinuationHistory::default());
        assert!(k == CounterMoves::default());
    }
}
