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
use crate::position::gives_check;
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
    /// Off: captures in generation order (still before the quiet moves).
    pub mvv_lva: bool,
    /// Captures losing material by static exchange after the quiet moves.
    pub see_ordering: bool,
    pub killers: bool,
    pub history: bool,
}

/// A move and its order score.
#[derive(Clone, Copy)]
struct Scored {
    m: Move,
    score: i32,
}

/// Where a picker is in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    Noisy,
    Quiets,
    Bad,
}

/// The moves of one node, handed out best first, in stages, each prepared only when
/// reached (a cutoff on the table move scores nothing, one on a capture scores no
/// quiet move):
///
/// 1. the table's move;
/// 2. captures and queen promotions by MVV-LVA, picked one at a time; a capture that
///    loses material by static exchange is checked when it comes up and set aside;
/// 3. quiet moves: killers, the counter move, then by history, sorted once;
/// 4. the losing captures, then underpromotions.
pub struct MovePicker<'a> {
    pos: &'a Chess,
    stage: Stage,
    /// `[table move][noisy .. quiet_start][quiets ..]`, consumed from `next`.
    moves: ArrayVec<Scored, 256>,
    next: usize,
    quiet_start: usize,
    /// Losing captures and underpromotions, for the last stage.
    bad: ArrayVec<Scored, 256>,
    /// The table's move, when it is among the moves (then the first entry).
    table_move: Option<Move>,
    /// Only quiet moves that give check are still wanted (late move / futility pruning).
    skip_quiets: bool,
    /// Captures are checked by static exchange when they come up (main search only).
    demote_losing_captures: bool,
    switches: OrderingSwitches,
}

impl<'a> MovePicker<'a> {
    /// A picker with no moves yet, starting at the captures.
    fn empty(pos: &'a Chess, switches: OrderingSwitches, demote: bool) -> MovePicker<'a> {
        MovePicker {
            pos,
            stage: Stage::Noisy,
            moves: ArrayVec::new(),
            next: 0,
            quiet_start: 0,
            bad: ArrayVec::new(),
            table_move: None,
            skip_quiets: false,
            demote_losing_captures: demote,
            switches,
        }
    }

    /// All moves (main search, and evasions in quiescence).
    pub fn new(
        pos: &'a Chess,
        moves: MoveList,
        tt_move: u16,
        switches: OrderingSwitches,
    ) -> MovePicker<'a> {
        let mut picker = MovePicker::empty(pos, switches, switches.see_ordering);
        if tt_move != 0
            && let Some(&m) = moves.iter().find(|&&m| pack_move(m) == tt_move)
        {
            picker.push(m, TT_MOVE_SCORE);
            picker.table_move = Some(m);
            picker.stage = Stage::TableMove;
        }
        let mut quiets = ArrayVec::<Move, 256>::new();
        for &m in &moves {
            if Some(m) == picker.table_move {
                continue;
            }
            if m.promotion().is_some_and(|r| r != Role::Queen) {
                picker.bad.push(Scored {
                    m,
                    score: UNDERPROMOTION_SCORE,
                });
            } else if is_quiet(m) {
                quiets.push(m);
            } else {
                picker.push(m, picker.noisy_score(m));
            }
        }
        picker.quiet_start = picker.moves.len();
        for m in quiets {
            picker.push(m, 0);
        }
        picker
    }

    /// Captures and queen promotions only, most valuable victim first (quiescence).
    pub fn noisy(pos: &'a Chess, moves: MoveList, switches: OrderingSwitches) -> MovePicker<'a> {
        let mut picker = MovePicker::empty(pos, switches, false);
        for &m in &moves {
            if m.is_capture() || m.promotion() == Some(Role::Queen) {
                picker.push(m, picker.noisy_score(m));
            }
        }
        picker.quiet_start = picker.moves.len();
        // There are none: never ask for the hints to score them.
        picker.skip_quiets = true;
        picker
    }

    /// The table's move, if it is legal here (it comes first).
    pub fn table_move(&self) -> Option<Move> {
        self.table_move
    }

    fn push(&mut self, m: Move, score: i32) {
        self.moves.push(Scored { m, score });
    }

    fn noisy_score(&self, m: Move) -> i32 {
        if self.switches.mvv_lva {
            CAPTURE_SCORE + mvv_lva(m)
        } else {
            CAPTURE_SCORE
        }
    }

    /// From now on, only quiet moves that give check (pruning decided the others are
    /// not worth searching); captures and promotions still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The best move not yet handed out; `hints` is asked for once, when the quiet
    /// moves are reached (ties keep generation order).
    pub fn next<'h>(&mut self, hints: impl Fn() -> QuietHints<'h>) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Noisy;
                    self.next = 1;
                    return self.table_move;
                }
                Stage::Noisy => {
                    if self.next >= self.quiet_start {
                        self.stage = Stage::Quiets;
                        if !self.skip_quiets {
                            self.score_quiets(&hints());
                        }
                        continue;
                    }
                    let mut best = self.next;
                    for i in self.next + 1..self.quiet_start {
                        if self.moves[i].score > self.moves[best].score {
                            best = i;
                        }
                    }
                    // Selection keeps the picked ones in order; shifting keeps ties stable.
                    let picked = self.moves[best];
                    self.moves[self.next..=best].rotate_right(1);
                    self.next += 1;
                    // A capture that loses material waits until after the quiet moves.
                    if self.demote_losing_captures && !see_ge(self.pos, picked.m, 0) {
                        self.bad.push(Scored {
                            m: picked.m,
                            score: LOSING_CAPTURE_SCORE + (picked.score - CAPTURE_SCORE),
                        });
                        continue;
                    }
                    return Some(picked.m);
                }
                Stage::Quiets => {
                    while self.next < self.moves.len() {
                        let m = self.moves[self.next].m;
                        self.next += 1;
                        if !self.skip_quiets || gives_check(self.pos, m) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::Bad;
                    // Losing captures by how little they lose, then underpromotions.
                    insertion_sort_descending(&mut self.bad);
                    self.next = 0;
                }
                Stage::Bad => {
                    let m = self.bad.get(self.next)?.m;
                    self.next += 1;
                    return Some(m);
                }
            }
        }
    }

    /// Scores the quiet moves and sorts them, best first.
    fn score_quiets(&mut self, hints: &QuietHints) {
        let side = self.pos.turn();
        let s = self.switches;
        for entry in &mut self.moves[self.quiet_start..] {
            let m = entry.m;
            entry.score = if s.killers && hints.killers[0] == Some(m) {
                KILLER_SCORES[0]
            } else if s.killers && hints.killers[1] == Some(m) {
                KILLER_SCORES[1]
            } else if s.killers && hints.counter == Some(m) {
                COUNTER_MOVE_SCORE
            } else if s.history {
                hints.score(side, m)
            } else {
                0
            };
        }
        insertion_sort_descending(&mut self.moves[self.quiet_start..]);
    }
}

/// Stable, in place, no allocation; fast on the short, mostly tied lists of one node.
fn insertion_sort_descending(entries: &mut [Scored]) {
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && entries[j - 1].score < e.score {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
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
        let history = History::default();
        let hints = || QuietHints::history_only(&history);
        let mut picker = MovePicker::new(&pos, moves, pack_move(quiet), ALL_ON);
        assert_eq!(picker.next(hints), Some(quiet), "table move first");
        let second = picker.next(hints).unwrap();
        assert_eq!(second.capture(), Some(Role::Queen));
        assert_eq!(second.role(), Role::Pawn, "least valuable attacker first");
        let third = picker.next(hints).unwrap();
        assert!(third.is_capture());
    }

    /// Every legal move comes exactly once, in the stage order: table move, winning
    /// captures, killer, quiet moves by history, losing captures, underpromotions.
    #[test]
    fn picker_hands_out_every_move_once_in_stage_order() {
        // bxa8=Q wins most, Rxh6 loses the rook to the g7 pawn, b7 can underpromote
        // on b8 and on a8, and there are many quiet moves.
        let pos: Chess = "r3k3/1P3bp1/7p/3q4/8/8/8/R2QK2R w K - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let find = |uci: &str| {
            *moves
                .iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
                .unwrap()
        };
        let (table, killer, good_quiet) = (find("e1g1"), find("h1h4"), find("a1a7"));
        let mut history = History::default();
        history.update(Color::White, good_quiet, 5000);
        let hints = || QuietHints {
            killers: [Some(killer), None],
            counter: None,
            history: &history,
            continuations: [None, None],
        };
        let mut picker = MovePicker::new(&pos, moves.clone(), pack_move(table), ALL_ON);
        let mut order = Vec::new();
        while let Some(m) = picker.next(hints) {
            order.push(m);
        }
        assert_eq!(order.len(), moves.len(), "each move once");
        let mut sorted: Vec<u16> = order.iter().map(|&m| pack_move(m)).collect();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len(), "no move twice");
        assert_eq!(order[0], table);
        assert_eq!(
            order[1],
            find("b7a8q"),
            "most valuable victim plus promotion"
        );
        let at = |m: Move| order.iter().position(|&o| o == m).unwrap();
        assert!(at(killer) < at(good_quiet), "killer before history");
        let first_quiet = 1 + order[1..].iter().position(|&m| is_quiet(m)).unwrap();
        assert!(order[1..first_quiet].iter().all(|m| !is_quiet(*m)));
        let underpromotions: Vec<usize> = order
            .iter()
            .enumerate()
            .filter(|(_, m)| m.promotion().is_some_and(|r| r != Role::Queen))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(underpromotions.len(), 6, "b8 and bxa8, to N/B/R each");
        assert!(
            underpromotions.iter().all(|&i| i >= order.len() - 6),
            "last"
        );
        // A losing capture comes after every quiet move.
        let last_quiet = order.iter().rposition(|&m| is_quiet(m)).unwrap();
        assert!(at(find("h1h6")) > last_quiet, "Rxh6 loses the rook");
        for (i, m) in order.iter().enumerate() {
            if m.is_capture() && !see_ge(&pos, *m, 0) {
                assert!(i > last_quiet, "{m:?} loses material but came early");
            }
        }
    }

    #[test]
    fn skipping_quiets_keeps_checks_and_captures() {
        let pos: Chess = "4k3/8/8/3q4/8/8/8/R2QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let history = History::default();
        let hints = || QuietHints::history_only(&history);
        let mut picker = MovePicker::new(&pos, moves.clone(), 0, ALL_ON);
        picker.skip_quiets();
        let mut seen = Vec::new();
        while let Some(m) = picker.next(hints) {
            seen.push(m);
        }
        for m in &moves {
            let wanted = !is_quiet(*m) || gives_check(&pos, *m);
            assert_eq!(seen.contains(m), wanted, "{m:?}");
        }
    }
}
