//! The search: iterative deepening over a fail-soft negamax alpha-beta (PVS) search.
//!
//! * `mod.rs` (here): limits, switches, iterative deepening
//!   with aspiration windows, and reporting;
//! * `control.rs`: the stop flag and the ponder state, shared with the UCI thread;
//! * `alphabeta.rs`: the negamax node, step by step;
//! * `quiescence.rs`: captures until the position is quiet;
//! * `history.rs`: butterfly and continuation histories, counter moves;
//! * `correction.rs`: correction histories (the static evaluation's learned errors);
//! * `node.rs`: the kinds of node (root, PV, non-PV) as types;
//! * `ordering.rs`: move ordering (table move, MVV-LVA, killers, history), stage by stage;
//! * `movegen.rs`: the moves of one stage (captures and promotions, or quiet moves);
//! * `see.rs`: static exchange evaluation (does a capture lose material?);
//! * `stack.rs`: one frame per ply (how it was reached, static eval, excluded move);
//! * `state.rs`: what a thread keeps between searches (tables, cleared in place);
//! * `root.rs`: the root moves, ranked, with their scores and lines (MultiPV);
//! * `threads.rs`: Lazy SMP: the search threads and what they share;
//! * `params.rs`: every tuneable number.

mod alphabeta;
mod control;
mod correction;
pub(crate) mod history;
mod movegen;
mod node;
pub(crate) mod ordering;
pub mod params;
mod quiescence;
mod root;
pub(crate) mod see;
mod stack;
mod state;
pub mod threads;

use crate::nnue::AccumulatorStack;
use crate::position::Board;
use crate::score::{self, INFINITY, MAX_PLY, Score};
use crate::tablebase::Tablebases;
use crate::time::{Clock, Policy, Progress, TimeManager};
use crate::tt::TranspositionTable;
use correction::CorrectionHistory;
use history::{ContinuationHistory, CounterMoves, History};
use node::Root;
use ordering::{Killers, OrderingSwitches};
use params::*;
use root::RootMoves;
use shakmaty::{Move, Position};
use stack::Stack;
use state::PvTable;
use threads::{Member, ThreadGroup};

pub use control::Control;
pub use state::ThreadState;
use std::time::Duration;

/// Declares the developer switches once: each turns one part of the search off for
/// measurement (UCI options `Debug_*`, hidden unless `tabas --dev`; all on in play).
macro_rules! switches {
    ($( $(#[doc = $doc:literal])* $field:ident => $option:literal, )*) => {
        /// How a search is configured: the developer switches and the tuneable numbers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchConfig {
            $( $(#[doc = $doc])* pub $field: bool, )*
            pub params: Params,
        }

        impl Default for SearchConfig {
            fn default() -> Self {
                SearchConfig { $( $field: true, )* params: Params::default() }
            }
        }

        /// The UCI names of the developer switches.
        pub const SWITCH_OPTIONS: &[&str] = &[$( $option ),*];

        impl SearchConfig {
            /// The switch whose UCI name is `option` (case-insensitive).
            pub fn switch_mut(&mut self, option: &str) -> Option<&mut bool> {
                $( if option.eq_ignore_ascii_case($option) { return Some(&mut self.$field); } )*
                None
            }
        }
    };
}

switches! {
    aspiration => "Debug_Aspiration",
    pvs => "Debug_PVS",
    tt_cutoffs => "Debug_TTCutoffs",
    killers => "Debug_Killers",
    history => "Debug_History",
    mvv_lva => "Debug_MVVLVA",
    null_move => "Debug_NullMove",
    quiescence => "Debug_Quiescence",
    /// Table probes, cutoffs and stores in quiescence.
    quiescence_tt => "Debug_QuiescenceTT",
    lmr => "Debug_LMR",
    reverse_futility => "Debug_ReverseFutility",
    late_move_pruning => "Debug_LateMovePruning",
    futility => "Debug_Futility",
    /// Singular extensions (with multi-cut and the negative extension).
    singular => "Debug_Singular",
    /// Internal iterative reduction: one ply less where the table has no move.
    iir => "Debug_IIR",
    /// Static exchange: losing captures ordered last, pruned in quiescence and at low depth.
    see => "Debug_SEE",
    /// Correction histories: the static evaluation corrected by the errors the search
    /// found in positions with the same pawns, pieces or last moves.
    correction => "Debug_Correction",
    /// Adaptive time management (off: the fixed share of the first version).
    adaptive_time => "Debug_TimeManager",
}

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// No new iteration starts once this many nodes are spent (self-play data).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in at most this many moves.
    pub mate: Option<u32>,
    pub clock: Clock,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// How many best lines to find and report (MultiPV); 0 counts as 1.
    pub multipv: usize,
}

/// Whether a reported score is exact or a bound (aspiration fail high / low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One line of progress (UCI `info`).
#[derive(Clone, Debug)]
pub struct Report {
    /// Which line (1 = the best; MultiPV).
    pub multipv: usize,
    pub depth: i32,
    pub seldepth: usize,
    pub score: Score,
    pub bound: ScoreBound,
    /// Nodes of all threads.
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads.
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// The root move the main thread is searching now (UCI `info currmove`), for GUIs
/// that show it during a long search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMove {
    pub depth: i32,
    pub mv: Move,
    /// 1 for the first move searched in this iteration (and line).
    pub number: usize,
}

/// Searches shorter than this announce no current move (as Stockfish: 3 s).
pub const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);

/// What the search answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    /// Nodes of all threads.
    pub nodes: u64,
}

/// One thread's search. Alone (`new`: bench, self-play) or as thread `id` of a group
/// (`in_group`: the engine's Lazy SMP), where thread 0 is the main thread: the only
/// one that reports, watches the clock, and whose result counts.
pub struct Searcher<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    config: SearchConfig,
    limits: Limits,
    time: Option<TimeManager>,
    group: Option<&'a ThreadGroup>,
    id: usize,
    nodes: u64,
    /// The other threads' nodes, as last read (for `go nodes`).
    other_nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Set once depth 1 has completed.
    first_iteration_done: bool,
    stack: Stack,
    killers: Killers,
    history: Box<History>,
    continuation: ContinuationHistory,
    counters: CounterMoves,
    correction: Box<CorrectionHistory>,
    reductions: Reductions,
    /// The network's sums along the current path (unused with the hand-written evaluation).
    accumulators: Box<AccumulatorStack>,
    /// Keys of the positions before the current node: game history, then the search path.
    keys: Vec<u64>,
    pv: Box<PvTable>,
    pv_len: [usize; MAX_PLY + 1],
    /// The root's moves, restricted by `searchmoves`, in generation order (the order
    /// the root's move picker starts from).
    root_order: Vec<Move>,
    /// The same moves ranked, with their scores and lines.
    root_moves: RootMoves,
    /// The MultiPV line being searched: the moves ranked before it are left out.
    pv_index: usize,
    /// Syzygy tables (none for bench and self-play).
    tablebases: Option<&'a Tablebases>,
    /// Probe the tables inside the tree (not when the root's probe already ranked the
    /// moves by DTZ, or the root is not won: see `tablebase.rs`).
    probe_in_tree: bool,
    /// The root moves' tablebase score, reported unless the search proves a mate.
    root_tb_score: Option<Score>,
    /// The first move and the bound of the last line 1 reported: the move a GUI shows
    /// as the one about to be played.
    shown: Option<(Move, ScoreBound)>,
    /// MultiPV in a timed search: when the lines after the first must end (the time
    /// the last completed iteration allowed), so that extra lines cost no clock.
    extra_lines_until: Option<Duration>,
    /// More than one line is searched (MultiPV).
    several_lines: bool,
    /// Told each root move as the main thread starts it, once the search has run
    /// `CURRENT_MOVE_AFTER` (none: nobody listens).
    announce: Option<&'a dyn Fn(CurrentMove)>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a Control,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
    ) -> Searcher<'a> {
        Searcher::with_state(
            tt,
            control,
            config,
            limits,
            move_overhead_ms,
            None,
            ThreadState::default(),
        )
    }

    /// One thread of a group (`member`), with the thread's own state (give it back
    /// with `into_state`). Helpers (`id` > 0) never look at the clock.
    pub fn in_group(
        tt: &'a TranspositionTable,
        control: &'a Control,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
        member: Member<'a>,
        state: ThreadState,
    ) -> Searcher<'a> {
        Searcher::with_state(
            tt,
            control,
            config,
            limits,
            move_overhead_ms,
            Some(member),
            state,
        )
    }

    /// A searcher with a thread's own `state` (give it back with `into_state`), alone
    /// (`member`: `None`) or as a thread of a group.
    pub fn with_state(
        tt: &'a TranspositionTable,
        control: &'a Control,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
        member: Option<Member<'a>>,
        state: ThreadState,
    ) -> Searcher<'a> {
        let group = member.map(|m| m.group);
        let id = member.map_or(0, |m| m.id);
        let policy = if config.adaptive_time {
            Policy::Adaptive
        } else {
            Policy::Simple
        };
        let time = if limits.infinite || id != 0 {
            None
        } else {
            TimeManager::new(&limits.clock, move_overhead_ms, policy)
        };
        Searcher {
            tt,
            control,
            config,
            limits,
            time,
            group,
            id,
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            stopped: false,
            first_iteration_done: false,
            stack: state.stack,
            killers: state.killers,
            history: state.history,
            continuation: state.continuation,
            counters: state.counters,
            correction: state.correction,
            reductions: {
                let mut reductions = state.reductions;
                reductions.update(&config.params);
                reductions
            },
            accumulators: state.accumulators,
            keys: state.keys,
            pv: state.pv,
            pv_len: [0; MAX_PLY + 1],
            root_order: state.root_order,
            root_moves: state.root_moves,
            pv_index: 0,
            tablebases: None,
            probe_in_tree: false,
            root_tb_score: None,
            shown: None,
            extra_lines_until: None,
            several_lines: false,
            announce: None,
        }
    }

    /// Tells `announce` each root move as the main thread starts it, once the search
    /// has run `CURRENT_MOVE_AFTER` (UCI `currmove`).
    pub fn announce_current_moves(&mut self, announce: &'a dyn Fn(CurrentMove)) {
        self.announce = Some(announce);
    }

    /// At the root, before `m` is searched as the `number`-th move of this line.
    pub(super) fn starting_root_move(&self, m: Move, number: usize, depth: i32) {
        if let Some(announce) = self.announce
            && self.id == 0
            && self.control.elapsed() >= CURRENT_MOVE_AFTER
        {
            announce(CurrentMove {
                depth,
                mv: m,
                number,
            });
        }
    }

    /// Probes `tablebases` at the root and in the tree.
    pub fn use_tablebases(&mut self, tablebases: &'a Tablebases) {
        self.tablebases = Some(tablebases);
    }

    /// The thread's state, to keep for its next search.
    pub fn into_state(self) -> ThreadState {
        ThreadState {
            stack: self.stack,
            killers: self.killers,
            history: self.history,
            continuation: self.continuation,
            counters: self.counters,
            correction: self.correction,
            reductions: self.reductions,
            accumulators: self.accumulators,
            keys: self.keys,
            pv: self.pv,
            root_order: self.root_order,
            root_moves: self.root_moves,
        }
    }

    /// Nodes of all threads (this one's exact, the others' as last published).
    fn total_nodes(&self) -> u64 {
        match self.group {
            Some(group) => {
                group.publish(self.id, self.nodes);
                group.total()
            }
            None => self.nodes,
        }
    }

    fn ordering_switches(&self) -> OrderingSwitches {
        OrderingSwitches {
            mvv_lva: self.config.mvv_lva,
            see_ordering: self.config.see,
            killers: self.config.killers,
            history: self.config.history,
        }
    }

    /// Searches `root` (reached after the positions whose keys are `game_keys`) and
    /// reports each iteration through `report` (only the main thread reports).
    pub fn search(
        &mut self,
        root: &Board,
        game_keys: &[u64],
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        if self.group.is_none() {
            // A group's table starts its new search once, before the threads start.
            self.tt.new_search();
        }
        let legal = root.chess().legal_moves();
        let searchmoves = &self.limits.searchmoves;
        self.root_order.clear();
        self.root_order.extend(
            legal
                .iter()
                .filter(|m| searchmoves.is_empty() || searchmoves.contains(m)),
        );
        if self.root_order.is_empty() {
            // `searchmoves` with no legal move in it: search everything rather than nothing.
            self.root_order.extend_from_slice(&legal);
        }
        if let Some(network) = root.network() {
            self.accumulators.set_root(network, root.chess().board());
        }
        self.probe_tablebases_at_root(root, game_keys);
        self.root_moves.reset(self.root_order.iter().copied());
        let mut result = SearchResult {
            best: self.root_order.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if self.root_order.is_empty() {
            result.score = if root.in_check() {
                score::mated_in(0)
            } else {
                score::DRAW
            };
            // No move to show, but the result: `info depth 0 score mate 0` (checkmate)
            // or `score cp 0` (stalemate) before `bestmove (none)`, as Stockfish.
            self.report(0, 0, result.score, ScoreBound::Exact, report);
            return result;
        }
        let lines = self.limits.multipv.clamp(1, self.root_moves.len());
        self.several_lines = lines > 1;
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH.min(MAX_PLY as i32 - 1));
        // Completed iterations' scores, and how long the best move has stayed the same.
        let mut scores: Vec<Score> = Vec::new();
        let mut stable_iterations = 0;
        // The iteration that the best move's line comes from.
        let mut line_depth = 0;
        // How the last completed iteration went (for the clock), and its first line's move.
        let mut last_progress: Option<Progress> = None;
        let mut previous_first_move = None;
        for depth in 1..=max_depth {
            if threads::helper_skips(self.id, depth, game_keys.len() as u32) {
                continue;
            }
            self.seldepth = 0;
            self.root_moves.start_iteration();
            let nodes_before = self.nodes;
            // Nodes of the first line's search: the best move's share of them says how
            // settled the search is, however many lines follow.
            let mut first_line_nodes = 0;
            // The first line's best move, its score and nodes: what the clock judges the
            // iteration by (with MultiPV, the exact scores of close lines reorder them
            // often, which is no reason to think longer).
            let mut first_line = None;
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.aspiration(root, depth, lines, report);
                if pv_index == 0 {
                    first_line_nodes = self.nodes - nodes_before;
                    first_line = self.root_moves.get(0).map(|r| (r.mv, r.score, r.nodes));
                }
                if self.stopped {
                    break;
                }
                // MultiPV does not stretch a timed move: past the time the last completed
                // iteration allowed, the iteration ends with the lines it has (the first,
                // the move played, is complete), even in the middle of a line.
                if pv_index + 1 < lines
                    && let Some(progress) = &last_progress
                    && let Some(soft) = self.soft_time(progress)
                {
                    if self.control.elapsed() >= soft {
                        self.stopped = true;
                        break;
                    }
                    self.extra_lines_until = Some(soft);
                }
            }
            self.extra_lines_until = None;
            self.pv_index = 0;
            if lines > 1 && !self.stopped {
                self.root_moves.rank_lines(lines);
                self.report_lines(depth, lines, report);
            }
            // The root takes only moves whose search completed, so even an interrupted
            // iteration's line is a fully searched one, at least as good as the last.
            let best = self.root_moves.get(0).expect("a root move");
            if !best.pv.is_empty() {
                result.best = Some(best.mv);
                result.ponder = best.pv.get(1).copied();
                // (A move not searched again in an interrupted iteration keeps the
                // line and score of the last one.)
                if best.score > -INFINITY {
                    line_depth = depth;
                }
            }
            if self.stopped {
                break;
            }
            let score = best.score;
            result.score = self.tablebase_score(score).unwrap_or(score);
            result.depth = depth;
            self.first_iteration_done = true;
            let (first_move, first_score, best_nodes) =
                first_line.unwrap_or((best.mv, score, best.nodes));
            scores.push(first_score);
            if depth > 1 && Some(first_move) == previous_first_move {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            previous_first_move = Some(first_move);
            if self.root_moves.len() == 1
                && let Some(time) = &mut self.time
            {
                // One legal move: answer now (also right after a `ponderhit`).
                time.answer_now();
            }
            let progress = Progress {
                stable_iterations,
                score_drop: score_drop(&scores),
                best_move_effort: if first_line_nodes > 0 {
                    best_nodes as f64 / first_line_nodes as f64
                } else {
                    0.0
                },
            };
            if self.iteration_limit_reached(score, &progress) {
                break;
            }
            last_progress = Some(progress);
        }
        self.show_the_move_played(result.best, line_depth, report);
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            result.ponder = self.ponder_from_table(root, best);
        }
        result.nodes = self.total_nodes();
        result
    }

    /// A line one move long has no move to ponder on: the table's move for the
    /// position after `best`, if it holds one and it is legal there (the slot may
    /// hold another position's entry). Reads the table only: the search is unchanged.
    fn ponder_from_table(&self, root: &Board, best: Move) -> Option<Move> {
        let child = root.play(best);
        let entry = self.tt.probe(child.key())?;
        ordering::unpack_move(child.chess(), entry.packed_move)
    }

    /// The move played is the move shown: if the last line 1 reported was not the
    /// exact line of `best` (an interrupted iteration found a better move, or its last
    /// report was an aspiration bound), reports `best`'s line now, before the answer.
    fn show_the_move_played(
        &mut self,
        best: Option<Move>,
        depth: i32,
        report: &mut dyn FnMut(&Report),
    ) {
        let Some(best) = best else { return };
        if self.id != 0 || self.shown == Some((best, ScoreBound::Exact)) {
            return;
        }
        let Some(line) = self
            .root_moves
            .get(0)
            .filter(|r| r.mv == best && !r.pv.is_empty())
        else {
            return;
        };
        let score = if line.score > -INFINITY {
            line.score
        } else {
            line.previous_score
        };
        self.report(depth.max(1), 0, score, ScoreBound::Exact, report);
    }

    /// One search of the root for the line `pv_index`, with a window around the line's
    /// last score that widens until the score falls inside it. With one line, each
    /// result is reported (bounds too); with several, the caller reports them all.
    fn aspiration(
        &mut self,
        root: &Board,
        depth: i32,
        lines: usize,
        report: &mut dyn FnMut(&Report),
    ) {
        let params = self.config.params;
        let previous = self
            .root_moves
            .get(self.pv_index)
            .map_or(0, |r| r.previous_score);
        let use_window = self.config.aspiration
            && depth >= params.aspiration_min_depth
            && !score::is_decisive(previous);
        let mut delta = params.aspiration_delta;
        let (mut alpha, mut beta) = if use_window {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            self.root_moves.start_search(self.pv_index);
            let score = self.negamax::<Root>(root, depth, alpha, beta, 0);
            // Also after a stop: the moves whose search completed count.
            self.root_moves.rank_from(self.pv_index);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                ScoreBound::Upper
            } else if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            if lines == 1 {
                self.report(depth, 0, score, bound, report);
            }
            match bound {
                ScoreBound::Exact => return,
                ScoreBound::Upper => {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                }
                ScoreBound::Lower => {
                    beta = (score + delta).min(INFINITY);
                }
            }
            delta += delta * params.aspiration_widening / 100;
            if score::is_decisive(score) || delta > params.aspiration_give_up {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Reports the line ranked `rank` (0 = best) with `score`.
    fn report(
        &mut self,
        depth: i32,
        rank: usize,
        score: Score,
        bound: ScoreBound,
        report: &mut dyn FnMut(&Report),
    ) {
        if self.id != 0 {
            return;
        }
        let pv = self
            .root_moves
            .get(rank)
            .map_or_else(Vec::new, |r| r.pv.clone());
        let (score, bound) = match self.tablebase_score(score) {
            Some(tb) => (tb, ScoreBound::Exact),
            None => (score, bound),
        };
        if rank == 0 {
            self.shown = pv.first().map(|&m| (m, bound));
        }
        report(&Report {
            multipv: rank + 1,
            depth,
            seldepth: self.seldepth,
            score,
            bound,
            tbhits: self.tablebases.map_or(0, |t| t.hits()),
            nodes: self.total_nodes(),
            time: self.control.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        });
    }

    /// After a MultiPV iteration: every line, best first.
    fn report_lines(&mut self, depth: i32, lines: usize, report: &mut dyn FnMut(&Report)) {
        for rank in 0..lines {
            let score = self.root_moves.get(rank).map_or(0, |r| r.score);
            self.report(depth, rank, score, ScoreBound::Exact, report);
        }
    }

    /// Before the first iteration: where the root is in the tables, only the moves
    /// that keep its best result stay (see `tablebase.rs` for the rules).
    fn probe_tablebases_at_root(&mut self, root: &Board, game_keys: &[u64]) {
        self.root_tb_score = None;
        self.probe_in_tree = false;
        let Some(tablebases) = self.tablebases else {
            return;
        };
        self.probe_in_tree = tablebases.cardinality() > 0;
        let repeated = repeated_since_zeroing(root, game_keys);
        let Some(probe) = tablebases.probe_root(root.chess(), &self.root_order, repeated) else {
            return;
        };
        let kept = probe.kept();
        self.root_order.retain(|m| kept.iter().any(|k| k.mv == *m));
        self.root_tb_score = Some(kept[0].score);
        let won = matches!(kept[0].wdl, crate::tablebase::Wdl::Win);
        self.probe_in_tree = !probe.by_dtz && won;
    }

    /// The score to report instead of the search's `score`: the tables' result for the
    /// root, which they know better than the search, unless the search proved a mate.
    fn tablebase_score(&self, score: Score) -> Option<Score> {
        self.root_tb_score.filter(|_| !score::is_mate(score))
    }

    /// At the root: `nodes` were spent below `m`.
    pub(super) fn book_root_nodes(&mut self, m: Move, nodes: u64) {
        if let Some(record) = self.root_moves.find_mut(m) {
            record.nodes += nodes;
        }
    }

    /// At the root, `m` raised alpha to `score`: it is the line's move for now, with
    /// the line just found (`update_pv` has put it in row 0).
    pub(super) fn root_line_found(&mut self, m: Move, score: Score) {
        if let Some(record) = self.root_moves.find_mut(m) {
            record.score = score;
            record.pv.clear();
            record
                .pv
                .extend(self.pv[0][..self.pv_len[0]].iter().map_while(|m| *m));
        }
    }

    /// The root's moves for the current line: all but those of the lines before it.
    pub(super) fn root_move_list(&self) -> shakmaty::MoveList {
        self.root_order
            .iter()
            .copied()
            .filter(|&m| !self.root_moves.is_ranked_before(m, self.pv_index))
            .collect()
    }

    /// After a completed iteration: is there a reason not to start the next one?
    fn iteration_limit_reached(&self, score: Score, progress: &Progress) -> bool {
        if self.id != 0 {
            return false; // a helper searches until the main thread ends the search
        }
        if let Some(mate) = self.limits.mate
            && score > 0
            && score::is_mate(score)
            && score::mate_moves(score) <= mate as i32
        {
            return true;
        }
        if self.limits.soft_nodes.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        self.soft_time(progress)
            .is_some_and(|soft| self.control.elapsed() >= soft)
    }

    /// When the main thread's clock says to start nothing more, after an iteration
    /// that went as `progress` says (none in an infinite search or while pondering).
    fn soft_time(&self, progress: &Progress) -> Option<Duration> {
        if self.id != 0 || self.limits.infinite || self.control.is_pondering() {
            return None;
        }
        self.time.map(|t| {
            if self.several_lines {
                t.soft_for_several_lines(progress.score_drop)
            } else {
                t.soft(progress)
            }
        })
    }

    /// Counts a node, reads the stop flag (a `stop` must end the search at once) and,
    /// every `CHECK_EVERY_NODES`, the clock and the other threads.
    #[inline]
    fn visit_node(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        // Neither `stop` nor a node limit interrupts the first iteration (see below).
        if self.first_iteration_done
            && self
                .limits
                .nodes
                .is_some_and(|limit| self.nodes + self.other_nodes >= limit)
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY_NODES) || self.control.is_stopped() {
            if let Some(group) = self.group {
                group.publish(self.id, self.nodes);
                self.other_nodes = group.total() - self.nodes;
                if group.is_over() {
                    self.stopped = true;
                }
            }
            // Nothing interrupts the first iteration, neither the clock nor `stop`: it
            // is what makes the answer a searched move with its line, and it takes well
            // under a millisecond.
            let out_of_time = self.time.is_some_and(|t| {
                !self.control.is_pondering()
                    && (self.control.elapsed() >= t.hard()
                        || self
                            .extra_lines_until
                            .is_some_and(|end| self.control.elapsed() >= end))
            });
            if self.first_iteration_done && (self.control.is_stopped() || out_of_time) {
                self.stopped = true;
            }
        }
    }

    /// True when the current node's position occurred before, within the reversible
    /// moves (twofold repetition counts as a draw, in the tree and against the game).
    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let reach = (halfmoves as usize).min(n);
        let mut back = 2;
        while back <= reach {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// What the correction histories know of the node at `ply` (`board`): its
    /// features and the correction they add to its static evaluation (none with the
    /// switch off).
    fn correction(&self, board: &Board, ply: usize) -> (Option<correction::Features>, Score) {
        if !self.config.correction {
            return (None, 0);
        }
        let features = correction::Features::new(
            board.chess().board(),
            board.turn(),
            self.stack.earlier_moves(ply),
        );
        let value = self.correction.correction(&features, &self.config.params);
        (Some(features), value)
    }

    /// The static evaluation of `board`, the position at `ply` on the current path,
    /// for the side to move.
    #[inline]
    fn evaluate(&mut self, board: &Board, ply: usize) -> Score {
        match board.network() {
            Some(network) => {
                let pieces = board.chess().board().occupied().count();
                network.evaluate(self.accumulators.get(network, ply), board.turn(), pieces)
            }
            None => crate::eval::evaluate(board.chess()),
        }
    }

    /// `child`, the position at `ply`, is its parent's after `m` (for the network's
    /// sums) and its table bucket is wanted soon.
    #[inline]
    fn entered(&mut self, child: &Board, ply: usize, us: shakmaty::Color, m: Move) {
        self.tt.prefetch(child.key());
        if child.network().is_some() {
            self.accumulators.push_move(ply, us, m);
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }
}

/// Whether a position has occurred twice since the last capture or pawn move, in the
/// game that led to `root` (`game_keys`: the keys before it).
fn repeated_since_zeroing(root: &Board, game_keys: &[u64]) -> bool {
    let reach = (root.halfmoves() as usize).min(game_keys.len());
    let mut seen: Vec<u64> = game_keys[game_keys.len() - reach..].to_vec();
    seen.push(root.key());
    seen.sort_unstable();
    seen.windows(2).any(|w| w[0] == w[1])
}

/// How much the score fell over the last iterations (compared with two iterations
/// back, so that odd and even depths are compared with their own kind).
fn score_drop(scores: &[Score]) -> i32 {
    match scores {
        [.., before, _, now] if !score::is_decisive(*before) && !score::is_decisive(*now) => {
            before - now
        }
        _ => 0,
    }
}
