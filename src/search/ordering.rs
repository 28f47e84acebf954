//! Move ordering: the order in which a node tries its moves decides how much
//! alpha-beta can prune. Best first: the table move, then captures and queen
//! promotions by MVV-LVA, then the two killers of this ply, then quiet moves by
//! history, then captures that lose material by static exchange (checked lazily,
//! when such a capture comes up), then underpromotions.
//!
//! Each stage is generated only when it is reached (`movegen.rs`): a cutoff on the
//! table move generates nothing, one on a capture generates no quiet move; and the
//! captures are picked by a lazy selection sort, so a cutoff costs one pass, not a
//! full sort.

use super::history::{ContinuationRow, History, PieceTo, continuation};
use super::legality::Legality;
use super::movegen;
use super::node::Mode;
use super::params::KILLER_SLOTS;
use super::see::see_ge;
use crate::packed_move::{pack_move, unpack_move_if};
use crate::position::CheckSquares;
use crate::score::MAX_PLY;
use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, Position, Role};
use std::marker::PhantomData;

/// Order scores of the stages; each stage sorts above all later ones.
const TABLE_MOVE_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 28;
const KILLER_SCORES: [i32; KILLER_SLOTS] = [1 << 27, (1 << 27) - 1];
/// The quiet move that last refuted the opponent's previous move: after the killers.
const COUNTER_MOVE_SCORE: i32 = (1 << 27) - 2;
/// Captures that lose material by static exchange: after every quiet move...
const LOSING_CAPTURE_SCORE: i32 = -(1 << 28);
/// ...and underpromotions, almost never best, after those.
const UNDERPROMOTION_SCORE: i32 = -(1 << 29);
/// A staged picker picks this many quiet moves one by one (a cutoff usually comes
/// first), then sorts the rest.
const QUIETS_PICKED_BEFORE_SORT: usize = 4;
/// A staged quiet move's score is its history times this, less its place in the
/// generated list: unique, and ties of history kept in generation order.
const QUIET_TIE_BREAK: i32 = 1024;
const _: () = assert!(
    MAX_MOVES as i32 <= QUIET_TIE_BREAK
        && 3 * super::params::HISTORY_MAX < i32::MAX / QUIET_TIE_BREAK - 1,
    "a quiet move's history (three tables) times QUIET_TIE_BREAK fits an i32"
);

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

impl OrderingSwitches {
    /// Every ordering heuristic on, as in play.
    pub const ALL_ON: OrderingSwitches = OrderingSwitches {
        mvv_lva: true,
        see_ordering: true,
        killers: true,
        history: true,
    };
}

/// A move and its order score.
#[derive(Clone, Copy)]
struct Scored {
    m: Move,
    score: i32,
}

/// Room for every move of any position: even pseudo-legal moves cannot exceed 9
/// queens', 2 rooks', 2 bishops', 2 knights' and a king's moves on an open board
/// (9·27 + 2·14 + 2·13 + 2·8 + 8 = 321) plus two castlings.
const MAX_MOVES: usize = 324;

/// Where a picker is in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    /// Captures and promotions: generated (staged picker) and scored.
    GenerateNoisy,
    Noisy,
    /// The killers and the counter move, before the other quiet moves are generated.
    Refuters,
    /// Quiet moves: generated (staged picker) and scored...
    GenerateQuiets,
    /// ...then picked best first (staged picker), one at a time...
    PickQuiets,
    /// ...or handed out in the order of the list (listed picker, sorted).
    Quiets,
    Bad,
}

/// The moves of one node, handed out best first, in stages, each prepared only when
/// reached:
///
/// 1. the table move;
/// 2. captures and queen promotions by MVV-LVA, picked one at a time; a capture that
///    loses material by static exchange is checked when it comes up and set aside;
/// 3. the two killers, then the counter move;
/// 4. the other quiet moves by history, sorted once;
/// 5. the losing captures, then underpromotions.
///
/// A *staged* picker (`staged`: an ordinary node not in check) generates nothing
/// before it must: the table move is decoded and checked for legality alone, the
/// captures are generated when the table move has not cut off, and the quiet moves
/// only after the killers and the counter move (each checked alone) have not.
/// The generators give pseudo-legal moves; the picker decides whether each is legal
/// (`legality.rs`, from the pins computed once for the node) before handing it out,
/// and checks the table move and the refuters, which may come from other positions,
/// whole; so the search sees legal moves only.
/// A *listed* picker (`listed`: the root, and nodes in check) orders a given list of
/// legal moves in the same stages.
///
/// `M`, the search's mode (`node::Mode`): in play mode every ordering heuristic is on
/// and no switch is read.
pub struct MovePicker<'a, M> {
    pos: &'a Chess,
    stage: Stage,
    /// The current stage's moves, consumed from `next`; a listed picker holds
    /// `[table move][noisy .. quiet_start][quiets ..]` from the start.
    moves: ArrayVec<Scored, MAX_MOVES>,
    next: usize,
    quiet_start: usize,
    /// Losing captures and underpromotions, for the last stage.
    bad: ArrayVec<Scored, MAX_MOVES>,
    /// The table move, when it is legal here (it comes first).
    table_move: Option<Move>,
    /// A staged picker's (its moves generated stage by stage, pseudo-legal): what it
    /// needs to tell which are legal. `None`: the legal moves were given (`listed`).
    legality: Option<Legality>,
    /// Captures and queen promotions only (quiescence).
    noisy_only: bool,
    /// The killers and the counter move, handed out before the other quiet moves.
    refuters: [Option<Move>; KILLER_SLOTS + 1],
    /// Whether the quiet moves are ordered (decided when the quiet moves are
    /// reached: not if pruning had already asked for checks only).
    order_quiets: bool,
    /// Only quiet moves that give check are still wanted (late move / futility pruning).
    skip_quiets: bool,
    /// The staged quiet moves left are checks only (those giving none were dropped).
    quiets_checks_only: bool,
    /// The staged quiet moves left are sorted (best first).
    quiets_sorted: bool,
    /// Captures are checked by static exchange when they come up, and those that
    /// lose material wait for the last stage (main search)...
    demote_losing_captures: bool,
    /// ...or are dropped (quiescence).
    drop_losing_captures: bool,
    /// Built when a move is first asked whether it gives check.
    check_squares: Option<CheckSquares>,
    /// Read through `M::on` (in play mode: not at all).
    switches: OrderingSwitches,
    mode: PhantomData<M>,
}

impl<'a, M: Mode> MovePicker<'a, M> {
    /// A picker with no moves yet: give it its moves with `staged`, `noisy` or
    /// `listed`. (Built where it stands and filled in place: the picker is a few
    /// kilobytes, and moving it would copy them at every node.)
    #[inline(always)]
    pub fn new(pos: &'a Chess, switches: OrderingSwitches) -> MovePicker<'a, M> {
        MovePicker {
            pos,
            stage: Stage::TableMove,
            moves: ArrayVec::new(),
            next: 0,
            quiet_start: 0,
            bad: ArrayVec::new(),
            table_move: None,
            legality: None,
            noisy_only: false,
            refuters: [None; KILLER_SLOTS + 1],
            order_quiets: true,
            skip_quiets: false,
            quiets_checks_only: false,
            quiets_sorted: false,
            demote_losing_captures: M::on(switches.see_ordering),
            drop_losing_captures: false,
            check_squares: None,
            switches,
            mode: PhantomData,
        }
    }

    /// Every move of an ordinary node (not the root, not in check), generated stage
    /// by stage; `packed_table_move` is the table move as the table keeps it (0: none).
    pub fn staged(&mut self, packed_table_move: u16) {
        debug_assert!(!self.pos.is_check(), "in check, the evasions are listed");
        let legality = Legality::out_of_check(self.pos);
        self.legality = Some(legality);
        let pos = self.pos;
        self.table_move = unpack_move_if(pos, packed_table_move, |m| {
            legality.is_legal_anywhere(pos, m)
        });
    }

    /// Captures and queen promotions only, most valuable victim first (quiescence,
    /// not in check), generated when first asked for. With the SEE switch on, those
    /// that lose material by static exchange are left out: they cannot improve on
    /// standing pat (safe up to the exchange's approximations: pins, checks).
    pub fn noisy(&mut self) {
        debug_assert!(!self.pos.is_check(), "in check, the evasions are listed");
        self.legality = Some(Legality::out_of_check(self.pos));
        self.noisy_only = true;
        self.drop_losing_captures = self.demote_losing_captures;
        self.demote_losing_captures = false;
        // There are no quiet moves: never ask for the hints to order them.
        self.skip_quiets = true;
    }

    /// The legal `moves` given (the root's, or the evasions of a node in check);
    /// `packed_table_move` as for `staged`.
    pub fn listed(&mut self, moves: &[Move], packed_table_move: u16) {
        if packed_table_move != 0 {
            self.table_move = moves
                .iter()
                .copied()
                .find(|&m| pack_move(m) == packed_table_move);
        }
        if let Some(m) = self.table_move {
            self.push(m, TABLE_MOVE_SCORE);
        }
        let mut quiets = ArrayVec::<Move, MAX_MOVES>::new();
        for &m in moves {
            if Some(m) == self.table_move {
                continue;
            }
            if m.promotion().is_some_and(|r| r != Role::Queen) {
                self.bad.push(Scored {
                    m,
                    score: UNDERPROMOTION_SCORE,
                });
            } else if is_quiet(m) {
                quiets.push(m);
            } else {
                self.push(m, noisy_score::<M>(self.switches, m));
            }
        }
        self.next = self.table_move.is_some() as usize;
        self.quiet_start = self.moves.len();
        for &m in &quiets {
            self.push(m, 0);
        }
    }

    /// The table move, if it is legal here (it comes first).
    pub fn table_move(&self) -> Option<Move> {
        self.table_move
    }

    /// Whether the legal move `m` of this node gives check.
    #[inline]
    pub fn gives_check(&mut self, m: Move) -> bool {
        if self.check_squares.is_none() {
            self.check_squares = CheckSquares::new(self.pos);
        }
        self.check_squares
            .is_some_and(|squares| squares.gives_check(self.pos, m))
    }

    fn push(&mut self, m: Move, score: i32) {
        self.moves.push(Scored { m, score });
    }

    /// Whether a generated (pseudo-legal) move may be handed out: a listed picker's
    /// moves are legal already, and so is generated castling (shakmaty's own list).
    #[inline]
    fn legal(&self, m: Move) -> bool {
        match &self.legality {
            None => true,
            Some(legality) => m.is_castle() || legality.is_legal(self.pos, m),
        }
    }

    /// From now on, only quiet moves that give check (pruning decided the others are
    /// not worth searching); captures and promotions still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether a quiet move is still wanted (see `skip_quiets`).
    #[inline]
    fn wanted_quiet(&mut self, m: Move) -> bool {
        !self.skip_quiets || self.gives_check(m)
    }

    /// The captures and promotions (quiescence: captures and queen promotions),
    /// scored, without the table move; underpromotions go to the last stage.
    fn generate_noisy(&mut self) {
        self.moves.clear();
        self.next = 0;
        let MovePicker {
            pos,
            moves,
            bad,
            table_move,
            noisy_only,
            switches,
            ..
        } = self;
        movegen::noisy(pos, |m| {
            if Some(m) == *table_move {
                return;
            }
            let underpromotion = m.promotion().is_some_and(|r| r != Role::Queen);
            if *noisy_only {
                // Quiescence: every capture (underpromoting ones too), and queen
                // promotions; no quiet underpromotion.
                if m.is_capture() || !underpromotion {
                    moves.push(Scored {
                        m,
                        score: noisy_score::<M>(*switches, m),
                    });
                }
            } else if underpromotion {
                bad.push(Scored {
                    m,
                    score: UNDERPROMOTION_SCORE,
                });
            } else {
                moves.push(Scored {
                    m,
                    score: noisy_score::<M>(*switches, m),
                });
            }
        });
        self.quiet_start = self.moves.len();
    }

    /// The quiet moves but the table move and the refuters already handed out,
    /// ordered by history (or in generation order where pruning wants checks only).
    fn generate_quiets(&mut self, hints: Option<&QuietHints>) {
        self.moves.clear();
        self.next = 0;
        self.quiet_start = 0;
        // These are legal moves of this position, where packed moves are unique and
        // cheaper to compare.
        let skip = [
            self.table_move,
            self.refuters[0],
            self.refuters[1],
            self.refuters[2],
        ]
        .map(|m| m.map_or(0, pack_move));
        let moves = &mut self.moves;
        movegen::quiet(self.pos, |m| {
            if !skip.contains(&pack_move(m)) {
                moves.push(Scored { m, score: 0 });
            }
        });
        let side = self.pos.turn();
        for (i, entry) in self.moves.iter_mut().enumerate() {
            let history = hints.map_or(0, |hints| hints.score(side, entry.m));
            entry.score = history * QUIET_TIE_BREAK - i as i32;
        }
    }

    /// The best quiet move not yet handed out (the scores of `generate_quiets` are
    /// unique: no tie to keep in order), swapped to the front of those left. Once
    /// only checks are wanted, the moves left that give none are dropped first.
    fn pick_quiet(&mut self) -> Option<Move> {
        if self.skip_quiets && !self.quiets_checks_only {
            self.quiets_checks_only = true;
            let mut kept = self.next;
            for i in self.next..self.moves.len() {
                let entry = self.moves[i];
                if self.gives_check(entry.m) {
                    self.moves[kept] = entry;
                    kept += 1;
                }
            }
            self.moves.truncate(kept);
        }
        if !self.quiets_sorted && self.next >= QUIETS_PICKED_BEFORE_SORT {
            // A node that has tried this many quiet moves tends to try them all: the
            // rest sorted once costs less than a pass over them for each.
            self.quiets_sorted = true;
            self.moves[self.next..].sort_unstable_by_key(|e| std::cmp::Reverse(e.score));
        }
        let left = self.moves.get(self.next..)?;
        let offset = if self.quiets_sorted {
            if left.is_empty() {
                return None;
            }
            0
        } else {
            left.iter().enumerate().max_by_key(|(_, e)| e.score)?.0
        };
        self.moves.swap(self.next, self.next + offset);
        self.next += 1;
        Some(self.moves[self.next - 1].m)
    }

    /// The best move not yet handed out; `hints` is asked for once, when the quiet
    /// moves are reached (ties keep generation order).
    pub fn next<'h>(&mut self, hints: impl Fn() -> QuietHints<'h>) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = if self.legality.is_some() {
                        Stage::GenerateNoisy
                    } else {
                        Stage::Noisy
                    };
                    if self.table_move.is_some() {
                        return self.table_move;
                    }
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy();
                    self.stage = Stage::Noisy;
                }
                Stage::Noisy => {
                    if self.next >= self.quiet_start {
                        self.reach_quiets(&hints);
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
                    // A capture that loses material waits until after the quiet moves
                    // (or is dropped), before its legality is asked: most are never
                    // reached.
                    if (self.demote_losing_captures || self.drop_losing_captures)
                        && !see_ge(self.pos, picked.m, 0)
                    {
                        if self.demote_losing_captures {
                            self.bad.push(Scored {
                                m: picked.m,
                                score: LOSING_CAPTURE_SCORE + (picked.score - CAPTURE_SCORE),
                            });
                        }
                        continue;
                    }
                    if !self.legal(picked.m) {
                        continue;
                    }
                    return Some(picked.m);
                }
                Stage::Refuters => {
                    let slot = self.next;
                    let Some(&refuter) = self.refuters.get(slot) else {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    };
                    self.next += 1;
                    let Some(m) = refuter else { continue };
                    if self.refuters[..slot].contains(&refuter)
                        || Some(m) == self.table_move
                        || !is_quiet(m)
                        || !self
                            .legality
                            .is_some_and(|legality| legality.is_legal_anywhere(self.pos, m))
                    {
                        // Not a move of this node (or handed out already): forget it,
                        // so that the quiet stage does not skip the move of this node
                        // that packs the same (another piece on the same squares).
                        self.refuters[slot] = None;
                        continue;
                    }
                    // A legal refuter that pruning no longer wants stays skipped.
                    if self.wanted_quiet(m) {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiets => {
                    let hints = if self.order_quiets && M::on(self.switches.history) {
                        Some(hints())
                    } else {
                        None
                    };
                    self.generate_quiets(hints.as_ref());
                    self.stage = Stage::PickQuiets;
                }
                Stage::PickQuiets => match self.pick_quiet() {
                    Some(m) => {
                        if self.legal(m) {
                            return Some(m);
                        }
                    }
                    None => self.reach_bad(),
                },
                Stage::Quiets => {
                    while self.next < self.moves.len() {
                        let m = self.moves[self.next].m;
                        self.next += 1;
                        if self.wanted_quiet(m) && self.legal(m) {
                            return Some(m);
                        }
                    }
                    self.reach_bad();
                }
                Stage::Bad => {
                    let m = self.bad.get(self.next)?.m;
                    self.next += 1;
                    // (Generated moves are checked only now.)
                    if !self.legal(m) {
                        continue;
                    }
                    return Some(m);
                }
            }
        }
    }

    /// The captures are done: on to the quiet moves. Unless pruning already asked for
    /// checks only, they are ordered: a staged picker first hands out the killers and
    /// the counter move, a listed one scores them above the rest.
    fn reach_quiets<'h>(&mut self, hints: &impl Fn() -> QuietHints<'h>) {
        self.order_quiets = !self.skip_quiets;
        if self.legality.is_none() {
            self.stage = Stage::Quiets;
            if self.order_quiets {
                self.score_listed_quiets(&hints());
            }
        } else if self.noisy_only {
            self.stage = Stage::Bad;
            self.next = 0;
        } else if self.order_quiets && M::on(self.switches.killers) {
            let hints = hints();
            self.refuters = [hints.killers[0], hints.killers[1], hints.counter];
            self.stage = Stage::Refuters;
            self.next = 0;
        } else {
            self.stage = Stage::GenerateQuiets;
        }
    }

    /// A listed picker's quiet moves: killers, the counter move, then by history, sorted.
    fn score_listed_quiets(&mut self, hints: &QuietHints) {
        let side = self.pos.turn();
        let killers = M::on(self.switches.killers);
        let history = M::on(self.switches.history);
        for entry in &mut self.moves[self.quiet_start..] {
            let m = entry.m;
            entry.score = if killers && hints.killers[0] == Some(m) {
                KILLER_SCORES[0]
            } else if killers && hints.killers[1] == Some(m) {
                KILLER_SCORES[1]
            } else if killers && hints.counter == Some(m) {
                COUNTER_MOVE_SCORE
            } else if history {
                hints.score(side, m)
            } else {
                0
            };
        }
        insertion_sort_descending(&mut self.moves[self.quiet_start..]);
    }

    /// The quiet moves are done: on to the losing captures, by how little they lose,
    /// then the underpromotions.
    fn reach_bad(&mut self) {
        self.stage = Stage::Bad;
        insertion_sort_descending(&mut self.bad);
        self.next = 0;
    }
}

/// The order score of a capture or queen promotion.
#[inline]
fn noisy_score<M: Mode>(switches: OrderingSwitches, m: Move) -> i32 {
    if M::on(switches.mvv_lva) {
        CAPTURE_SCORE + mvv_lva(m)
    } else {
        CAPTURE_SCORE
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
    use crate::search::node::Play;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    const ALL_ON: OrderingSwitches = OrderingSwitches::ALL_ON;

    #[test]
    fn picker_orders_table_move_then_captures_by_victim() {
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
        let mut picker = MovePicker::<Play>::new(&pos, ALL_ON);
        picker.listed(&moves, pack_move(quiet));
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
        let mut picker = MovePicker::<Play>::new(&pos, ALL_ON);
        picker.listed(&moves, pack_move(table));
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
        let mut picker = MovePicker::<Play>::new(&pos, ALL_ON);
        picker.listed(&moves, 0);
        picker.skip_quiets();
        let mut seen = Vec::new();
        while let Some(m) = picker.next(hints) {
            seen.push(m);
        }
        for m in &moves {
            let wanted = !is_quiet(*m) || crate::position::gives_check(&pos, *m);
            assert_eq!(seen.contains(m), wanted, "{m:?}");
        }
    }

    /// With the same hints, a staged picker hands out exactly what a listed picker
    /// given shakmaty's legal moves does, in the same order: over many positions,
    /// table moves, killers (legal or not), counter moves, and pruning that asks for
    /// checks only from some point on.
    #[test]
    fn staged_and_listed_pickers_agree() {
        let mut rng = crate::rng::Rng::new(7, 0);
        let suite = include_str!("../../perft/perftsuite.epd");
        let mut compared = 0;
        for line in suite.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(pos) = crate::position::parse_fen(
                line.split(';').next().unwrap(),
                shakmaty::CastlingMode::Standard,
            ) else {
                continue;
            };
            let mut children = vec![pos.clone()];
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                children.push(child);
            }
            for pos in children.iter().filter(|p| !p.is_check()) {
                let legal = pos.legal_moves();
                // Moves of other positions too: killers that are illegal here.
                let pool: Vec<Move> = children
                    .iter()
                    .flat_map(|p| p.legal_moves())
                    .filter(|&m| is_quiet(m))
                    .collect();
                let mut history = History::default();
                for &m in legal.iter().chain(&pool) {
                    history.update(pos.turn(), m, rng.below(4000) as i32 - 2000);
                }
                for round in 0..4 {
                    let pick = |rng: &mut crate::rng::Rng| -> Option<Move> {
                        (!pool.is_empty()).then(|| pool[rng.below(pool.len() as u64) as usize])
                    };
                    let killers = [pick(&mut rng), pick(&mut rng)];
                    let counter = if round == 3 {
                        killers[0]
                    } else {
                        pick(&mut rng)
                    };
                    let packed_table_move = match rng.below(3) {
                        0 => 0,
                        1 if !legal.is_empty() => {
                            pack_move(legal[rng.below(legal.len() as u64) as usize])
                        }
                        _ => rng.below(65536) as u16,
                    };
                    let skip_after = rng.below(legal.len() as u64 + 2) as usize;
                    let hints = || QuietHints {
                        killers,
                        counter,
                        history: &history,
                        continuations: [None, None],
                    };
                    let run = |mut picker: MovePicker<Play>| {
                        let mut order = Vec::new();
                        while let Some(m) = picker.next(hints) {
                            order.push(m);
                            if order.len() == skip_after {
                                picker.skip_quiets();
                            }
                        }
                        order
                    };
                    let mut listed = MovePicker::<Play>::new(pos, ALL_ON);
                    listed.listed(&legal, packed_table_move);
                    let mut staged = MovePicker::<Play>::new(pos, ALL_ON);
                    staged.staged(packed_table_move);
                    assert_eq!(run(staged), run(listed), "{line}");
                    compared += 1;
                }
                let mut quiescence = Vec::new();
                let mut picker = MovePicker::<Play>::new(pos, ALL_ON);
                picker.noisy();
                while let Some(m) = picker.next(hints_never) {
                    quiescence.push(m);
                }
                let mut wanted: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
                    .filter(|&m| see_ge(pos, m, 0))
                    .collect();
                wanted.sort_by_key(|&m| std::cmp::Reverse(mvv_lva(m)));
                assert_eq!(quiescence, wanted, "quiescence {line}");
            }
        }
        assert!(compared > 5_000, "only {compared} pickers compared");
    }

    fn hints_never<'h>() -> QuietHints<'h> {
        unreachable!("quiescence never orders quiet moves")
    }
}
