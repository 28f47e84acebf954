//! What lives as long as a search thread (`ThreadData`): the tables the search
//! learns in (histories, counter moves, killers), its stack, and its working memory
//! (the PV table, the key list, the root's moves, the reduction table, the network's
//! sums along the path). The thread pool allocates one per thread, once, and keeps it
//! where it is: a search borrows it (`Searcher::new`), and each `go` clears it in
//! place (`clear`): the continuation history alone is 2.4 MB, too much to allocate
//! per search.
//!
//! The search's two other kinds of state live elsewhere: what all threads of a
//! search share (table, stop flag, node counts, tablebases) in `SharedContext`
//! (`mod.rs`), and what one search needs (its limits, clock, node count, what it
//! has shown) in the `Searcher` itself.

use super::correction::CorrectionHistory;
use super::history::{ContinuationHistory, CounterMoves, History};
use super::ordering::Killers;
use super::params::{ParamValues, Reductions};
use super::root::RootMoves;
use super::stack::Stack;
use crate::nnue::AccumulatorStack;
use crate::score::MAX_PLY;
use shakmaty::Move;

/// The line found below each ply: row `p` holds the line from ply `p` (its length
/// is the searcher's `pv_len[p]`).
pub(super) type PvTable = [[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1];

/// One search thread's tables, kept between searches (see the module's comment).
/// A `Searcher` borrows it for one search.
pub struct ThreadData {
    pub(super) stack: Stack,
    pub(super) killers: Killers,
    pub(super) history: Box<History>,
    pub(super) continuation: ContinuationHistory,
    pub(super) counters: CounterMoves,
    pub(super) correction: Box<CorrectionHistory>,
    /// A function of the `lmr_*` numbers only: not cleared, brought up to date by each
    /// search (`Reductions::update`).
    pub(super) reductions: Reductions,
    /// The network's sums along the search path: each search sets its root first, so
    /// nothing to clear.
    pub(super) accumulators: Box<AccumulatorStack>,
    /// Only its capacity carries over: each search fills it with its game's keys.
    pub(super) keys: Vec<u64>,
    pub(super) pv: Box<PvTable>,
    /// The length of each row of `pv`.
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Filled by each search (capacity reused).
    pub(super) root_order: Vec<Move>,
    pub(super) root_moves: RootMoves,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            stack: Stack::default(),
            killers: Killers::default(),
            history: Box::default(),
            continuation: ContinuationHistory::default(),
            counters: CounterMoves::default(),
            correction: Box::default(),
            reductions: Reductions::new(&ParamValues::DEFAULT),
            accumulators: Box::default(),
            keys: Vec::new(),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_order: Vec::new(),
            root_moves: RootMoves::default(),
        }
    }
}

impl ThreadData {
    /// Forgets everything the last search learned: the state becomes equal to a fresh
    /// one, but in the memory it has (nothing is allocated). Every `go` starts from
    /// here; only self-play's `--keep-histories` keeps them through a game
    /// (`clear_but_histories`).
    pub fn clear(&mut self) {
        self.clear_but_histories();
        self.history.clear();
        self.continuation.clear();
        self.counters.clear();
        self.correction.clear();
    }

    /// Forgets the last search's path (stack, killers, PV, root moves) but keeps what
    /// it learned about moves and positions (the histories, counter moves and
    /// corrections), for a next search in the same game: self-play's
    /// `--keep-histories`.
    pub fn clear_but_histories(&mut self) {
        self.stack.clear();
        self.killers = Killers::default();
        self.keys.clear();
        self.pv.as_flattened_mut().fill(None);
        self.pv_len = [0; MAX_PLY + 1];
        self.root_order.clear();
        self.root_moves.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Control, Limits, SearchConfig, SearchResult, Searcher, SharedContext};
    use super::*;
    use crate::position::Board;
    use crate::search::history::PieceTo;
    use crate::tt::TranspositionTable;
    use shakmaty::{CastlingMode, Chess, Color, Position};

    /// Whether two states are equal in everything a search reads (killers compared
    /// ply by ply: `Killers` has no `PartialEq`).
    fn same(a: &ThreadData, b: &ThreadData) -> bool {
        (0..=MAX_PLY).all(|ply| a.killers.get(ply) == b.killers.get(ply))
            && a.stack == b.stack
            && a.history == b.history
            && a.continuation == b.continuation
            && a.counters == b.counters
            && a.correction == b.correction
            && a.reductions == b.reductions
            && a.keys == b.keys
            && a.pv == b.pv
            && a.pv_len == b.pv_len
            && a.root_order == b.root_order
            && a.root_moves == b.root_moves
    }

    fn board(fen: &str) -> Board {
        Board::new(crate::position::parse_fen(fen, CastlingMode::Standard).unwrap())
    }

    /// Searches `fen` to depth 6 with `thread`'s data and a cleared table.
    fn search(fen: &str, thread: &mut ThreadData) -> SearchResult {
        let tt = TranspositionTable::new(1).unwrap();
        let control = Control::new(false);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let config = SearchConfig::default();
        let shared = SharedContext::alone(&tt, &control);
        Searcher::new(shared, thread, config, limits, 0).search(
            &board(fen),
            &[1, 2, 3],
            &mut |_| {},
        )
    }

    const MIDDLEGAME: &str = "r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - 0 1";
    const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

    #[test]
    fn a_cleared_state_equals_a_fresh_one() {
        let mut thread = ThreadData::default();
        search(MIDDLEGAME, &mut thread);
        assert!(
            !same(&thread, &ThreadData::default()),
            "the search left traces"
        );
        let e4 = PieceTo::new(Color::White, Chess::default().legal_moves()[0]);
        let memory = |s: &ThreadData| {
            (
                s.continuation.row(e4).as_ptr(),
                &*s.history as *const History,
                s.pv.as_ptr(),
                s.keys.as_ptr(),
            )
        };
        let before = memory(&thread);
        thread.clear();
        assert!(same(&thread, &ThreadData::default()));
        assert_eq!(memory(&thread), before, "cleared where it was");
    }

    #[test]
    fn a_search_with_a_cleared_state_is_a_fresh_search() {
        let fresh = search(ENDGAME, &mut ThreadData::default());
        let mut used = ThreadData::default();
        search(MIDDLEGAME, &mut used);
        used.clear();
        assert_eq!(search(ENDGAME, &mut used), fresh);
    }
}
