//! Move ordering: the order in which a node tries its moves decides how much
//! alpha-beta can prune. Best first: the table's move, then captures and queen
//! promotions by MVV-LVA, then the two killers of this ply, then quiet moves by
//! history, then captures that lose material by static exchange (checked lazily,
//! when such a capture comes up), then underpromotions.
//!
//! shakmaty generates all legal moves at once (and legality is the expensive part),
//! so the stages are a scoring of one list and a lazy selection sort over it:
//! a cutoff on the first move costs one pass, not a full sort.

use super::history::{ContinuationRow, History, PieceTo, continuation};
use super::params::KILLER_SLOTS;
use super::see::see_ge;
use crate::score::MAX_PLY;
use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

/// Order scores of the stages; each stage sorts above all later ones.
const TT_MOVE_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 28;
const KILLER_SCORES: [i32; KILLER_SLOTS] = [1 << 27, (1 << 27) - 1];
/// The quiet move that last refuted the opponent's previous move: after the killers.
const COUNTER_MOVE_SCORE: i32 = (1 << 27) - 2;
/// Captures that lose material by static exchange: after every quiet move...
const LOSING_CAPTURE_SCORE: i32 = -(1 << 28);
/// ...and underpromotions, almost never best, after those.
const UNDERPROMOTION_SCORE: i32 = -(1 << 29);

/// A move in 16 bits for the transposition table: from (6) | to (6) | promotion (3).
pub fn pack_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promotion = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promotion << 12)
}

/// Whether a move is "quiet": not a capture, not a promotion (killers and history apply).
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// Most valuable victim first, then least valuable attacker: `QxP` after `PxQ`.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, role_rank);
    let promotion = m.promotion().map_or(0, role_rank);
    (victim + promotion) * 8 - role_rank(m.role())
}

fn role_rank(r: Role) -> i32 {
    match r {
        Role::Pawn => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::Rook => 4,
        Role::Queen => 5,
        Role::King => 6,
    }
}

/// Two killer moves per ply: quiet moves that caused a beta cutoff at that ply.
pub struct Killers {
    slots: [[Option<Move>; KILLER_SLOTS]; MAX_PLY + 1],
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            slots: [[None; KILLER_SLOTS]; MAX_PLY + 1],
        }
    }
}

impl Killers {
    pub fn get(&self, ply: usize) -> &[Option<Move>; KILLER_SLOTS] {
        &self.slots[ply]
    }

    pub fn add(&mut self, ply: usize, m: Move) {
        let s = &mut self.slots[ply];
        if s[0] != Some(m) {
            s[1] = s[0];
            s[0] = Some(m);
        }
    }
}

/// What a node knows about its quiet moves: killers, the counter move to the
/// previous move, and the history tables (with the continuation rows of the moves
/// one and two plies back).
pub struct QuietHints<'h> {
    pub killers: [Option<Move>; KILLER_SLOTS],
    pub counter: Option<Move>,
    pub history: &'h History,
    pub continuations: [Option<&'h ContinuationRow>; 2],
}

impl<'h> QuietHints<'h> {
    /// No killers, no counter move, no continuations: the butterfly history only.
    pub fn history_only(history: &'h History) -> QuietHints<'h> {
        QuietHints {
            killers: [None; KILLER_SLOTS],
            counter: None,
            history,
            continuations: [None, None],
        }
    }

    /// Whether `m` is a killer or the counter move: it refuted something like this before.
    #[inline]
    pub fn is_refuter(&self, m: Move) -> bool {
        self.killers.contains(&Some(m)) || self.counter == Some(m)
    }

    /// The history score of a quiet move: butterfly plus both continuations.
    #[inline]
    pub fn score(&self, side: Color, m: Move) -> i32 {
        let now = PieceTo::new(side, m);
        self.history.get(side, m)
            + continuation(self.continuations[0], now)
            + continuation(self.continuations[1], now)
    }
}

/// Which ordering heuristics are on (measurement switches).
#[derive(Clone, Copy)]
pub struct OrderingSwitches {
    pub mvv_lva: bool,
    /// Captures losing material by static exchange after the quiet moves.
    pub see_ordering: bool,
    pub killers: bool,
    pub history: bool,
}

/// The moves of one node with their order scores, handed out best first.
pub struct MovePicker<'a> {
    pos: &'a Chess,
    moves: MoveList,
    scores: ArrayVec<i32, 256>,
    next: usize,
    /// Captures are checked by static exchange when they come up (main search only).
    demote_losing_captures: bool,
}

impl<'a> MovePicker<'a> {
    pub fn new(
        pos: &'a Chess,
        moves: MoveList,
        tt_move: u16,
        hints: &QuietHints,
        switches: OrderingSwitches,
    ) -> MovePicker<'a> {
        let killers = &hints.killers;
        let side = pos.turn();
        let mut scores = ArrayVec::new();
        for &m in &moves {
            let score = if tt_move != 0 && pack_move(m) == tt_move {
                TT_MOVE_SCORE
            } else if m.promotion().is_some_and(|r| r != Role::Queen) {
                UNDERPROMOTION_SCORE
            } else if !is_quiet(m) {
                if switches.mvv_lva {
                    CAPTURE_SCORE + mvv_lva(m)
                } else {
                    0
                }
            } else if switches.killers && killers[0] == Some(m) {
                KILLER_SCORES[0]
            } else if switches.killers && killers[1] == Some(m) {
                KILLER_SCORES[1]
            } else if switches.killers && hints.counter == Some(m) {
                COUNTER_MOVE_SCORE
            } else if switches.history {
                hints.score(side, m)
            } else {
                0
            };
            scores.push(score);
        }
        MovePicker {
            pos,
            moves,
            scores,
            next: 0,
            demote_losing_captures: switches.see_ordering,
        }
    }

    /// Captures and queen promotions only, most valuable victim first (quiescence).
    pub fn noisy(
        pos: &'a Chess,
        mut moves: MoveList,
        switches: OrderingSwitches,
    ) -> MovePicker<'a> {
        moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        let scores = moves
            .iter()
            .map(|&m| if switches.mvv_lva { mvv_lva(m) } else { 0 })
            .collect();
        MovePicker {
            pos,
            moves,
            scores,
            next: 0,
            demote_losing_captures: false,
        }
    }

    /// The best-scored move not yet returned (stable: ties keep generation order).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Move> {
        loop {
            if self.next >= self.moves.len() {
                return None;
            }
            let mut best = self.next;
            for i in self.next + 1..self.moves.len() {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            let (m, score) = (self.moves[best], self.scores[best]);
            // A capture that loses material waits until after the quiet moves.
            if self.demote_losing_captures
                && (CAPTURE_SCORE..TT_MOVE_SCORE).contains(&score)
                && !see_ge(self.pos, m, 0)
            {
                self.scores[best] = LOSING_CAPTURE_SCORE + (score - CAPTURE_SCORE);
                continue;
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            self.next += 1;
            return Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::History;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    const ALL_ON: OrderingSwitches = OrderingSwitches {
        mvv_lva: true,
        see_ordering: true,
        killers: true,
        history: true,
    };

    #[test]
    fn pack_move_is_unique_per_position() {
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let mut packed: Vec<u16> = moves.iter().map(|&m| pack_move(m)).collect();
        packed.sort();
        packed.dedup();
        assert_eq!(packed.len(), moves.len());
    }

    #[test]
    fn picker_orders_tt_move_then_captures_by_victim() {
        // White can take a queen with a pawn or with the rook, and a pawn with the queen.
        let pos: Chess = "4k3/8/8/3q4/4P3/8/1p6/RQ2K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let quiet = *moves.iter().find(|m| is_quiet(**m)).unwrap();
        let mut picker = MovePicker::new(
            &pos,
            moves,
            pack_move(quiet),
            &QuietHints::history_only(&History::default()),
            ALL_ON,
        );
        assert_eq!(picker.next(), Some(quiet), "table move first");
        let second = picker.next().unwrap();
        assert_eq!(second.capture(), Some(Role::Queen));
        assert_eq!(second.role(), Role::Pawn, "least valuable attacker first");
        let third = picker.next().unwrap();
        assert!(third.is_capture());
    }
}
