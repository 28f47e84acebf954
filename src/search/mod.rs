//! The search: iterative deepening over a fail-soft negamax alpha-beta (PVS) search.
//!
//! * `mod.rs` (here): what a search is asked (`Limits`), the developer switches, what
//!   it reports and answers, and the `Searcher` itself: one thread's search state,
//!   its constructors, and the small steps every node takes (counting the node and
//!   watching the clock, evaluating, entering a child, writing the table, keeping
//!   the PV);
//! * `iterate.rs`: iterative deepening with aspiration windows, reporting, and when to
//!   stop (the clock, nodes, a mate found);
//! * `control.rs`: the stop flag and the ponder state, shared with the UCI thread;
//! * `alphabeta.rs`: the negamax node, step by step;
//! * `quiescence.rs`: captures until the position is quiet;
//! * `repetition.rs`: repetitions in the tree and in the game;
//! * `history.rs`: butterfly and continuation histories, counter moves;
//! * `correction.rs`: correction histories (the static evaluation's learned errors);
//! * `node.rs`: the kinds of node (root, PV, non-PV) as types, and the search's two
//!   modes (play: no developer switch read; dev: each read);
//! * `ordering.rs`: move ordering (table move, MVV-LVA, killers, history), stage by stage;
//! * `movegen.rs`: the moves of one stage (captures and promotions, or quiet moves);
//! * `legality.rs`: which generated moves (and table moves, killers) are legal, from
//!   the pins and checks computed once per node;
//! * `picker_perft.rs`: perft through the move picker, to prove the two above;
//! * `mate_line.rs`: a reported mate's line completed to the mate;
//! * `see.rs`: static exchange evaluation (does a capture lose material?);
//! * `stack.rs`: one frame per ply (how it was reached, static eval, excluded move);
//! * `thread_data.rs`: what lives as long as a search thread (histories, stack, PV
//!   table…: `ThreadData`), owned by the thread pool and cleared in place per `go`;
//! * `root.rs`: the root moves, ranked, with their scores and lines (MultiPV), and the
//!   root's side of the search (its move list, the tablebases' ranking);
//! * `threads.rs`: Lazy SMP: the search threads and what they share;
//! * `strength.rs`: playing below full strength (`UCI_LimitStrength`): a node budget
//!   and a human choice among the best lines, both outside the tree search;
//! * `crate::params` (src/params.rs, re-exported here as `params`): every tuneable number.

mod alphabeta;
mod control;
mod correction;
pub(crate) mod history;
mod iterate;
mod legality;
mod mate_line;
mod movegen;
mod node;
pub(crate) mod ordering;
pub use crate::params;
mod picker_perft;
mod quiescence;
mod repetition;
mod root;
pub(crate) mod see;
mod stack;
pub mod strength;
mod thread_data;
pub mod threads;

use crate::packed_move::pack_move;
use crate::position::Board;
use crate::score::{self, Score};
use crate::tablebase::Tablebases;
use crate::time::{Clock, Policy, TimeManager};
use crate::tt::{Bound, Entry, TranspositionTable};
use node::Mode;
use ordering::OrderingSwitches;
use params::*;
use shakmaty::{Move, Position};
use strength::{Strength, Weakening};
use threads::ThreadGroup;

pub use control::Control;
pub use picker_perft::picker_perft;
use std::time::Duration;
pub use thread_data::ThreadData;

/// Declares the developer switches once: each turns one part of the search off for
/// measurement (UCI options `Debug_*`, hidden unless `tabas --dev`; all on in play).
///
/// They cost nothing in play. The search is compiled in two modes (`node::Mode`), from
/// the same source: in *play* mode, chosen when every switch is on
/// (`SearchConfig::all_switches_on`), a rule's `M::on(self.config.lmr)` is the
/// constant `true` and no switch is read; in *dev* mode (`tabas lab`, `--dev`) each is
/// read where its rule stands. The root picks the mode once per search of the root
/// (`Searcher::search_root`). Two switches are read outside the tree, where a read
/// costs nothing: `aspiration` once per search of the root, `adaptive_time` once per
/// `go`.
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

            /// Every switch on: the search need not read them (play mode).
            pub fn all_switches_on(&self) -> bool {
                true $( && self.$field )*
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
    /// Razoring: fail low at shallow depth when quiescence confirms a hopeless eval.
    razoring => "Debug_Razoring",
    /// ProbCut: fail high when a capture beats beta by a margin in a shallower search.
    probcut => "Debug_ProbCut",
    /// Adaptive time management (off: the fixed share of the first version).
    adaptive_time => "Debug_TimeManager",
}

/// A soft node limit's hard limit unless told otherwise: `tabas datagen`'s
/// `--hard-nodes` default and `Debug_DatagenNodes`'s.
pub const HARD_NODES_PER_SOFT: u64 = 4;

/// How `go nodes N` is read (`Debug_DatagenNodes`, for matches of datagen's searches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NodesMode {
    /// The UCI meaning: at most N nodes (the default).
    #[default]
    Hard,
    /// As `tabas datagen --nodes N --fixed-nodes` reads it: no new iteration after N
    /// nodes, at most `HARD_NODES_PER_SOFT` × N.
    Soft,
    /// As `tabas datagen --nodes N` reads it (its default): the soft limit scaled after
    /// each iteration as a clock's soft limit is.
    Managed,
}

impl NodesMode {
    pub const ALL: [NodesMode; 3] = [NodesMode::Hard, NodesMode::Soft, NodesMode::Managed];

    /// The option's value naming this mode.
    pub fn name(self) -> &'static str {
        match self {
            NodesMode::Hard => "hard",
            NodesMode::Soft => "soft",
            NodesMode::Managed => "managed",
        }
    }

    /// The mode named `name`, case-insensitively.
    pub fn from_name(name: &str) -> Option<NodesMode> {
        NodesMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }

    /// Sets `limits`' node limits (hard, soft, managed or not) for `go nodes N` read in
    /// this mode.
    pub fn apply(self, limits: &mut Limits, nodes: u64) {
        limits.nodes = Some(match self {
            NodesMode::Hard => nodes,
            NodesMode::Soft | NodesMode::Managed => nodes.saturating_mul(HARD_NODES_PER_SOFT),
        });
        limits.soft_nodes = (self != NodesMode::Hard).then_some(nodes);
        limits.managed_soft_nodes = self == NodesMode::Managed;
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// No new iteration starts once this many nodes are spent (self-play data).
    pub soft_nodes: Option<u64>,
    /// `soft_nodes` scales after each iteration as a clock's soft limit does (stable
    /// best move, falling score, effort on the best move), up to `nodes`.
    pub managed_soft_nodes: bool,
    /// Search for a mate in at most this many moves.
    pub mate: Option<u32>,
    pub clock: Clock,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// How many best lines to find and report (MultiPV); 0 counts as 1.
    pub multipv: usize,
    /// Play below full strength (`UCI_LimitStrength`); `None`: full strength.
    pub strength: Option<Strength>,
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
    /// The main thread's beta cutoffs so far (not shown in `info`: for `tabas lab`).
    pub cutoffs: Cutoffs,
}

/// Beta cutoffs made by a move in the main search (quiescence's are not counted):
/// how often the first move searched already refuted the node, the move ordering's
/// quality. Counting costs an increment where a cutoff happens anyway.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cutoffs {
    /// Nodes that failed high on one of their moves.
    pub all: u64,
    /// Of those, the ones where it was the first move searched.
    pub first_move: u64,
}

impl Cutoffs {
    /// The share of cutoffs made by the first move, in percent (`None`: no cutoff yet).
    pub fn first_move_percent(&self) -> Option<f64> {
        (self.all > 0).then(|| 100.0 * self.first_move as f64 / self.all as f64)
    }
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

/// What all threads of one search share: the transposition table, the stop flag, the
/// group's node counts (Lazy SMP) and the tablebases. Copied into each thread's
/// `Searcher`; everything it points to outlives the search.
#[derive(Clone, Copy)]
pub struct SharedContext<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    /// The threads of the search (`None`: one thread alone: bench, self-play, tests).
    pub group: Option<&'a ThreadGroup>,
    /// Syzygy tables (none for bench and self-play).
    pub tablebases: Option<&'a Tablebases>,
}

impl<'a> SharedContext<'a> {
    /// One thread alone, without tablebases.
    pub fn alone(tt: &'a TranspositionTable, control: &'a Control) -> SharedContext<'a> {
        SharedContext {
            tt,
            control,
            group: None,
            tablebases: None,
        }
    }
}

/// One thread's search of one `go`: the per-search context. It borrows what lives as
/// long as the thread (`ThreadData`, owned by the pool) and what all threads share
/// (`SharedContext`), and holds what this one search needs: its limits and clock, its
/// node count, what it has shown. Alone or as thread `id` of a group, where thread 0
/// is the main thread: the only one that reports, watches the clock, and whose result
/// counts.
pub struct Searcher<'a> {
    shared: SharedContext<'a>,
    thread: &'a mut ThreadData,
    config: SearchConfig,
    limits: Limits,
    time: Option<TimeManager>,
    id: usize,
    nodes: u64,
    /// The other threads' nodes, as last read (for `go nodes`).
    other_nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Set once depth 1 has completed.
    first_iteration_done: bool,
    /// The MultiPV line being searched: the moves ranked before it are left out.
    pv_index: usize,
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
    /// Beta cutoffs counted for the laboratory (`Report::cutoffs`).
    cutoffs: Cutoffs,
    /// The search reads the developer switches (dev mode): some switch is off.
    reads_switches: bool,
    /// Playing below full strength: the plan and the lines to choose from.
    weakening: Option<Weakening>,
    /// The position searched (set by `search`), for completing mate lines.
    root: Option<Board>,
    /// 0, or how many searches this one completes a mate line for (`mate_line.rs`).
    mate_line_nesting: u8,
}

impl<'a> Searcher<'a> {
    /// Thread `id`'s search (0: the main thread, or a thread alone) in `thread`'s
    /// data, which the caller has cleared or not (a search works from whatever the
    /// histories hold). Helpers (`id` > 0) never look at the clock.
    pub fn new(
        shared: SharedContext<'a>,
        thread: &'a mut ThreadData,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
    ) -> Searcher<'a> {
        Searcher::thread_of(shared, 0, thread, config, limits, move_overhead_ms)
    }

    /// Thread `id` of the group in `shared` (see `new`).
    pub fn thread_of(
        shared: SharedContext<'a>,
        id: usize,
        thread: &'a mut ThreadData,
        config: SearchConfig,
        limits: Limits,
        move_overhead_ms: u64,
    ) -> Searcher<'a> {
        // (Read once per `go`, outside the tree: this switch costs nothing in play.)
        let policy = if config.adaptive_time {
            Policy::Adaptive
        } else {
            Policy::Simple
        };
        let time = if limits.infinite || id != 0 {
            None
        } else {
            TimeManager::new(&limits.clock, move_overhead_ms, policy, &config.params)
        };
        // Every thread makes the same plan, so that all stop at the same node count.
        let weakening = limits.strength.map(|s| {
            let move_time = strength::move_time(
                &limits.clock,
                move_overhead_ms,
                limits.infinite,
                &config.params,
            );
            Weakening::new(s, move_time)
        });
        thread.reductions.update(&config.params);
        Searcher {
            shared,
            thread,
            config,
            limits,
            time,
            id,
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            stopped: false,
            first_iteration_done: false,
            pv_index: 0,
            probe_in_tree: false,
            root_tb_score: None,
            shown: None,
            extra_lines_until: None,
            several_lines: false,
            announce: None,
            cutoffs: Cutoffs::default(),
            reads_switches: !config.all_switches_on(),
            weakening,
            root: None,
            mate_line_nesting: 0,
        }
    }

    /// Tells `announce` each root move as the main thread starts it, once the search
    /// has run `CURRENT_MOVE_AFTER` (UCI `currmove`).
    pub fn announce_current_moves(&mut self, announce: &'a dyn Fn(CurrentMove)) {
        self.announce = Some(announce);
    }

    /// Nodes of all threads (this one's exact, the others' as last published).
    fn total_nodes(&self) -> u64 {
        match self.shared.group {
            Some(group) => {
                group.publish(self.id, self.nodes);
                group.total()
            }
            None => self.nodes,
        }
    }

    /// The ordering heuristics that are on (the picker reads them in dev mode only).
    fn ordering_switches(&self) -> OrderingSwitches {
        OrderingSwitches {
            mvv_lva: self.config.mvv_lva,
            see_ordering: self.config.see,
            killers: self.config.killers,
            history: self.config.history,
        }
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
        if self.nodes.is_multiple_of(CHECK_EVERY_NODES) || self.shared.control.is_stopped() {
            if let Some(group) = self.shared.group {
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
                !self.shared.control.is_pondering()
                    && (self.shared.control.elapsed() >= t.hard()
                        || self
                            .extra_lines_until
                            .is_some_and(|end| self.shared.control.elapsed() >= end))
            });
            if self.first_iteration_done && (self.shared.control.is_stopped() || out_of_time) {
                self.stopped = true;
            }
        }
    }

    /// The features the correction histories key the node at `ply` (`board`) by, their
    /// entries already asked of the cache (none with the switch off). Called before the
    /// network's evaluation so that the two overlap; `correction` reads the entries.
    #[inline(always)]
    fn correction_features<M: Mode>(
        &self,
        board: &Board,
        ply: usize,
    ) -> Option<correction::Features> {
        M::on(self.config.correction).then(|| self.correction_keys(board, ply))
    }

    /// `correction_features` with the switch on. (Not generic: compiled once per mode,
    /// it no longer inlined `Features::new`, at 0.17 % more instructions in `bench`.)
    #[inline]
    fn correction_keys(&self, board: &Board, ply: usize) -> correction::Features {
        let features = correction::Features::new(
            board.chess().board(),
            board.turn(),
            self.thread.stack.earlier_moves(ply),
        );
        self.thread.correction.prefetch(&features);
        features
    }

    /// What the correction histories add to the static evaluation of a node with
    /// `features` (nothing without them).
    #[inline]
    fn correction(&self, features: Option<&correction::Features>) -> Score {
        features.map_or(0, |f| {
            self.thread.correction.correction(f, &self.config.params)
        })
    }

    /// The static evaluation of `board`, the position at `ply` on the current path,
    /// for the side to move.
    #[inline]
    fn evaluate(&mut self, board: &Board, ply: usize) -> Score {
        match board.network() {
            Some(network) => network.score(
                self.thread.accumulators.get(network, ply),
                board.chess().board(),
                board.turn(),
            ),
            None => crate::eval::evaluate(board.chess()),
        }
    }

    /// Asks the memory for the table bucket of the child after `m` of `board` as soon
    /// as the move is picked (before it is judged or made), and gives that child's key
    /// as far as the moved pieces tell it (for `Board::play_from_key`). A move that
    /// changes castling rights or en passant keys its child elsewhere: that rare probe
    /// waits for memory.
    #[inline]
    fn prefetch_child(&self, board: &Board, m: Move) -> u64 {
        let key = board.key_soon_after(m);
        self.shared.tt.prefetch(key);
        key
    }

    /// `child`, the position at `ply`, is its parent's after `m` (for the network's
    /// sums).
    #[inline]
    fn entered(&mut self, child: &Board, ply: usize, us: shakmaty::Color, m: Move) {
        if let Some(network) = child.network() {
            self.thread
                .accumulators
                .push_move(ply, us, m, network, child.chess().board());
        }
    }

    /// Writes the node at `ply` (`board`) into the table: what a search `depth` plies
    /// deep proved (`score` as a `bound`; mates are kept relative to the node), its best
    /// move (none: a move stored for the position stays), and the network's static
    /// evaluation `raw_eval` (so that a later visit need not compute it; 0 in check).
    #[inline]
    #[allow(clippy::too_many_arguments)] // each is a field of the entry
    fn store(
        &self,
        board: &Board,
        ply: usize,
        depth: i32,
        score: Score,
        bound: Bound,
        best_move: Option<Move>,
        raw_eval: Score,
    ) {
        self.shared.tt.store(
            board.key(),
            Entry {
                packed_move: best_move.map_or(0, pack_move),
                score: score::to_tt(score, ply),
                static_eval: raw_eval,
                depth,
                bound,
            },
            self.config.params.replacement(),
        );
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.thread.pv[ply][0] = Some(m);
        let child_len = self.thread.pv_len[ply + 1];
        for i in 0..child_len {
            self.thread.pv[ply][i + 1] = self.thread.pv[ply + 1][i];
        }
        self.thread.pv_len[ply] = child_len + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    #[test]
    fn one_switch_off_makes_the_search_read_them() {
        assert!(SearchConfig::default().all_switches_on());
        for option in SWITCH_OPTIONS {
            let mut config = SearchConfig::default();
            *config.switch_mut(option).unwrap() = false;
            assert!(!config.all_switches_on(), "{option}");
        }
    }

    /// The search that reads the switches (dev mode), with every switch on, is the
    /// search of play: the same tree, node for node, the same lines and moves.
    #[test]
    fn dev_mode_with_every_switch_on_searches_the_play_tree() {
        let config = SearchConfig::default();
        let search = |board: &Board, reads_switches: bool| {
            let tt = TranspositionTable::new(bench::BENCH_HASH_MB).unwrap();
            let control = Control::new(false);
            let limits = Limits {
                depth: Some(bench::DEFAULT_DEPTH),
                ..Limits::default()
            };
            let mut thread = ThreadData::default();
            let shared = SharedContext::alone(&tt, &control);
            let mut searcher = Searcher::new(shared, &mut thread, config, limits, 0);
            assert!(!searcher.reads_switches, "every switch is on: play mode");
            searcher.reads_switches = reads_switches;
            let mut reports = Vec::new();
            let result = searcher.search(board, &[], &mut |r| {
                reports.push((r.depth, r.score, r.bound, r.nodes, r.pv.clone(), r.cutoffs))
            });
            (result, reports)
        };
        for fen in bench::POSITIONS.iter().step_by(5) {
            let pos = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let board = Board::with_network(pos, crate::nnue::embedded());
            let play = search(&board, false);
            assert!(play.0.nodes > 0 && play.0.best.is_some(), "{fen}");
            assert_eq!(play, search(&board, true), "{fen}");
        }
    }

    #[test]
    fn reports_count_the_cutoffs_so_far() {
        let tt = TranspositionTable::new(1).unwrap();
        let control = Control::new(false);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut thread = ThreadData::default();
        let shared = SharedContext::alone(&tt, &control);
        let mut searcher = Searcher::new(shared, &mut thread, SearchConfig::default(), limits, 0);
        let mut seen = Vec::new();
        searcher.search(&Board::startpos(), &[], &mut |r| seen.push(r.cutoffs));
        assert!(seen.windows(2).all(|w| w[0].all <= w[1].all));
        let last = *seen.last().unwrap();
        assert!(last.first_move <= last.all && last.all > 0);
        // Even a plain ordering makes most cutoffs with its first move.
        assert!(last.first_move_percent().unwrap() > 50.0);
        assert_eq!(Cutoffs::default().first_move_percent(), None);
    }

    /// `Debug_DatagenNodes`: `go nodes N` as UCI means it, or as `tabas datagen --nodes N`
    /// reads it with `--fixed-nodes` (soft N, hard 4 N) and by default (managed).
    #[test]
    fn nodes_modes_read_a_node_count_as_datagen_does() {
        let read = |mode: NodesMode, n: u64| {
            let mut limits = Limits::default();
            mode.apply(&mut limits, n);
            (limits.nodes, limits.soft_nodes, limits.managed_soft_nodes)
        };
        assert_eq!(read(NodesMode::Hard, 5000), (Some(5000), None, false));
        assert_eq!(
            read(NodesMode::Soft, 5000),
            (Some(20000), Some(5000), false)
        );
        assert_eq!(
            read(NodesMode::Managed, 5000),
            (Some(20000), Some(5000), true)
        );
        assert_eq!(
            read(NodesMode::Soft, u64::MAX),
            (Some(u64::MAX), Some(u64::MAX), false)
        );
        for mode in NodesMode::ALL {
            assert_eq!(
                NodesMode::from_name(&mode.name().to_uppercase()),
                Some(mode)
            );
        }
        assert_eq!(NodesMode::from_name("fixed"), None);
        assert_eq!(NodesMode::default(), NodesMode::Hard);
    }
}
