//! The search: iterative deepening over a fail-soft negamax alpha-beta (PVS) search.
//!
//! * `mod.rs` (here): limits, switches, iterative deepening
//!   with aspiration windows, and reporting;
//! * `control.rs`: the stop flag and the ponder state, shared with the UCI thread;
//! * `alphabeta.rs`: the negamax node, step by step;
//! * `quiescence.rs`: captures until the position is quiet;
//! * `history.rs`: butterfly and continuation histories, counter moves;
//! * `node.rs`: the kinds of node (root, PV, non-PV) as types;
//! * `ordering.rs`: move ordering (table move, MVV-LVA, killers, history);
//! * `see.rs`: static exchange evaluation (does a capture lose material?);
//! * `stack.rs`: one frame per ply (how it was reached, static eval, excluded move);
//! * `params.rs`: every tuneable number.

mod alphabeta;
mod control;
pub(crate) mod history;
mod node;
pub(crate) mod ordering;
pub mod params;
mod quiescence;
pub(crate) mod see;
mod stack;

use crate::position::Board;
use crate::score::{self, INFINITY, MAX_PLY, Score};
use crate::time::{Clock, Policy, Progress, TimeManager};
use crate::tt::TranspositionTable;
use history::{ContinuationHistory, CounterMoves, History};
use node::Root;
use ordering::{Killers, OrderingSwitches};
use params::*;
use shakmaty::{Move, Position};
use stack::Stack;

pub use control::Control;
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
    pub depth: i32,
    pub seldepth: usize,
    pub score: Score,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What the search answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
}

/// One search's state. Create one per `go` (or keep one across `go`s to keep history).
pub struct Searcher<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    config: SearchConfig,
    limits: Limits,
    time: Option<TimeManager>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Set once depth 1 has completed.
    first_iteration_done: bool,
    stack: Stack,
    killers: Killers,
    history: Box<History>,
    continuation: ContinuationHistory,
    counters: CounterMoves,
    reductions: Reductions,
    /// Keys of the positions before the current node: game history, then the search path.
    keys: Vec<u64>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The root's moves, restricted by `searchmoves`.
    root_moves: Vec<Move>,
    /// Nodes spent below each root move (same order) in the current iteration.
    root_effort: Vec<u64>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a Control,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
    ) -> Searcher<'a> {
        let policy = if config.adaptive_time {
            Policy::Adaptive
        } else {
            Policy::Simple
        };
        let time = if limits.infinite {
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
            nodes: 0,
            seldepth: 0,
            stopped: false,
            first_iteration_done: false,
            stack: Stack::default(),
            killers: Killers::default(),
            history: Box::default(),
            continuation: ContinuationHistory::default(),
            counters: CounterMoves::default(),
            reductions: Reductions::new(&config.params),
            keys: Vec::new(),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            root_effort: Vec::new(),
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

    /// Searches `root` (reached after the positions whose keys are `history`) and
    /// reports each iteration through `report`.
    pub fn search(
        &mut self,
        root: &Board,
        history: &[u64],
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.tt.new_search();
        let legal = root.chess().legal_moves();
        self.root_moves = legal
            .iter()
            .copied()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
            .collect();
        if self.root_moves.is_empty() {
            // `searchmoves` with no legal move in it: search everything rather than nothing.
            self.root_moves = legal.to_vec();
        }
        let mut result = SearchResult {
            best: self.root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if self.root_moves.is_empty() {
            result.score = if root.in_check() {
                score::mated_in(0)
            } else {
                score::DRAW
            };
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH.min(MAX_PLY as i32 - 1));
        let mut score = 0;
        // Completed iterations' scores, and how long the best move has stayed the same.
        let mut scores: Vec<Score> = Vec::new();
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.root_effort.clear();
            self.root_effort.resize(self.root_moves.len(), 0);
            let nodes_before = self.nodes;
            score = self.aspiration(root, depth, score, report);
            // The root takes only moves whose search completed, so even an interrupted
            // iteration's line is a fully searched one, at least as good as the last.
            let previous_best = result.best;
            if let Some(best) = self.pv[0][0] {
                result.best = Some(best);
                result.ponder = if self.pv_len[0] > 1 {
                    self.pv[0][1]
                } else {
                    None
                };
            }
            if self.stopped {
                break;
            }
            result.score = score;
            result.depth = depth;
            self.first_iteration_done = true;
            scores.push(score);
            if depth > 1 && result.best == previous_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            if self.root_moves.len() == 1
                && let Some(time) = &mut self.time
            {
                // One legal move: answer now (also right after a `ponderhit`).
                time.answer_now();
            }
            let progress = Progress {
                stable_iterations,
                score_drop: score_drop(&scores),
                best_move_effort: self.best_move_effort(result.best, self.nodes - nodes_before),
            };
            if self.iteration_limit_reached(score, &progress) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration, with a window around the last score that widens until the
    /// score falls inside it.
    fn aspiration(
        &mut self,
        root: &Board,
        depth: i32,
        previous: Score,
        report: &mut dyn FnMut(&Report),
    ) -> Score {
        let params = self.config.params;
        let use_window = self.config.aspiration
            && depth >= params.aspiration_min_depth
            && !score::is_mate(previous);
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
            let score = self.negamax::<Root>(root, depth, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            let bound = if score <= alpha {
                ScoreBound::Upper
            } else if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            self.report(depth, score, bound, report);
            match bound {
                ScoreBound::Exact => return score,
                ScoreBound::Upper => {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                }
                ScoreBound::Lower => {
                    beta = (score + delta).min(INFINITY);
                }
            }
            delta += delta * params.aspiration_widening / 100;
            if score::is_mate(score) || delta > params.aspiration_give_up {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report(&self, depth: i32, score: Score, bound: ScoreBound, report: &mut dyn FnMut(&Report)) {
        let pv = self.pv[0][..self.pv_len[0]]
            .iter()
            .map_while(|m| *m)
            .collect();
        report(&Report {
            depth,
            seldepth: self.seldepth,
            score,
            bound,
            nodes: self.nodes,
            time: self.control.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        });
    }

    /// Share of an iteration's `total` root nodes that went below `best`.
    fn best_move_effort(&self, best: Option<Move>, total: u64) -> f64 {
        let index = best.and_then(|b| self.root_moves.iter().position(|&m| m == b));
        match index {
            Some(i) if total > 0 => self.root_effort[i] as f64 / total as f64,
            _ => 0.0,
        }
    }

    /// Books the nodes spent below one root move.
    pub(super) fn add_root_effort(&mut self, m: Move, nodes: u64) {
        if let Some(i) = self.root_moves.iter().position(|&r| r == m) {
            self.root_effort[i] += nodes;
        }
    }

    /// After a completed iteration: is there a reason not to start the next one?
    fn iteration_limit_reached(&self, score: Score, progress: &Progress) -> bool {
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
        if self.limits.infinite || self.control.is_pondering() {
            return false;
        }
        self.time
            .is_some_and(|t| self.control.clock_elapsed() >= t.soft(progress))
    }

    /// Counts a node and, every few thousand, looks at the stop flag and the clock.
    #[inline]
    fn visit_node(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.limits.nodes.is_some_and(|limit| self.nodes >= limit) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY_NODES) || self.control.is_stopped() {
            // The clock never interrupts the first iteration: it is what makes the move
            // a searched one, and takes well under a millisecond.
            let out_of_time = self.first_iteration_done
                && self.time.is_some_and(|t| {
                    !self.control.is_pondering() && self.control.clock_elapsed() >= t.hard()
                });
            if self.control.is_stopped() || out_of_time {
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }
}

/// How much the score fell over the last iterations (compared with two iterations
/// back, so that odd and even depths are compared with their own kind).
fn score_drop(scores: &[Score]) -> i32 {
    match scores {
        [.., before, _, now] if !score::is_mate(*before) && !score::is_mate(*now) => before - now,
        _ => 0,
    }
}
