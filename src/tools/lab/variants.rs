//! The searches of the laboratory: plain minimax, and alpha-beta with one
//! enhancement added at a time.
//!
//! Every variant searches the same tree: the legal-move tree cut at a fixed depth,
//! scored by `eval::evaluate` (side to move) at the horizon, with mate and
//! stalemate scored at interior nodes, no quiescence, no check extension and no
//! repetition or fifty-move draws (path-dependent values would make a position's
//! value depend on how it was reached, and transposition cutoffs inexact).
//! On that tree a position's value at a given remaining depth is a pure function
//! of the position, so every variant except null move must return exactly
//! minimax's value; `tests/lab_exactness.rs` checks it on random positions.
//!
//! Counting conventions:
//! * a node is every position the search entered, the root and null-move children included;
//! * a leaf is a node scored by the static evaluation at the horizon (depth 0);
//!   a mate or stalemate before the horizon is a node but not a leaf, so minimax's
//!   leaves at depth d are exactly perft(d);
//! * the iterative-deepening variants (`pvs_aspiration`, `pvs_null_move`) report
//!   for depth d the whole run of iterations 1..=d, which is what an engine pays.

use crate::eval;
use crate::position::Board;
use crate::score::{self, DRAW, INFINITY, Score};
use crate::search::history::History;
use crate::search::ordering::{Killers, is_quiet, mvv_lva};
use crate::search::params::ParamValues;
use crate::tt::Bound;
use shakmaty::{Move, MoveList, Position};
use std::cmp::Reverse;
use std::collections::HashMap;

/// The searches compared, each one adding one idea to the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Negamax over the whole tree: the reference value and node count.
    Minimax,
    /// Fail-soft alpha-beta, moves in shakmaty's generation order.
    AlphaBeta,
    /// + captures and promotions first, most valuable victim / least valuable attacker.
    AlphaBetaMvvLva,
    /// + killer moves (two per ply) and history for quiet moves.
    AlphaBetaKillers,
    /// + transposition table: its move first, cutoffs from entries of the same depth.
    AlphaBetaTt,
    /// + principal variation search: null-window scouts, re-searched when they fail high.
    Pvs,
    /// + iterative deepening with aspiration windows (counts: the whole run 1..=d).
    PvsAspiration,
    /// + null-move pruning (not exact: it may change the value).
    PvsNullMove,
}

impl Variant {
    pub const ALL: [Variant; 8] = [
        Variant::Minimax,
        Variant::AlphaBeta,
        Variant::AlphaBetaMvvLva,
        Variant::AlphaBetaKillers,
        Variant::AlphaBetaTt,
        Variant::Pvs,
        Variant::PvsAspiration,
        Variant::PvsNullMove,
    ];

    /// The name in tables, the CSV and the chart.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Minimax => "minimax",
            Variant::AlphaBeta => "alphabeta",
            Variant::AlphaBetaMvvLva => "alphabeta_mvvlva",
            Variant::AlphaBetaKillers => "alphabeta_killers",
            Variant::AlphaBetaTt => "alphabeta_tt",
            Variant::Pvs => "pvs",
            Variant::PvsAspiration => "pvs_aspiration",
            Variant::PvsNullMove => "pvs_null_move",
        }
    }

    /// Whether the variant must return minimax's value (all but null move).
    pub fn is_exact(self) -> bool {
        self != Variant::PvsNullMove
    }

    /// Whether the counts for depth d are a whole iterative-deepening run 1..=d.
    pub fn is_iterative(self) -> bool {
        self.features().iterative_deepening
    }

    /// The enhancements on: each variant has those of the one before it, plus one
    /// (the declaration order of the enum is the order of `ALL`).
    fn features(self) -> Features {
        let from = |first: Variant| self as usize >= first as usize;
        Features {
            mvv_lva: from(Variant::AlphaBetaMvvLva),
            killers_and_history: from(Variant::AlphaBetaKillers),
            table: from(Variant::AlphaBetaTt),
            pvs: from(Variant::Pvs),
            iterative_deepening: from(Variant::PvsAspiration),
            null_move: from(Variant::PvsNullMove),
        }
    }
}

/// The switches of the alpha-beta search (minimax has its own function).
#[derive(Clone, Copy, Debug, Default)]
struct Features {
    mvv_lva: bool,
    killers_and_history: bool,
    table: bool,
    pvs: bool,
    /// Iterative deepening with aspiration windows around the previous iteration's value.
    iterative_deepening: bool,
    null_move: bool,
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions entered: interior nodes and leaves.
    pub nodes: u64,
    /// Positions scored by the static evaluation at the horizon.
    pub leaves: u64,
    /// Beta cutoffs made by a move (not by the table or a null move).
    pub cutoffs: u64,
    /// Of those, the ones made by the first move searched: ordering quality.
    pub first_move_cutoffs: u64,
    /// Nodes answered by a table entry without searching.
    pub table_cutoffs: u64,
    /// Nodes pruned because passing already failed high.
    pub null_move_cutoffs: u64,
    /// PVS scouts that failed high and were searched again with the full window.
    pub pvs_re_searches: u64,
    /// Root searches repeated because the value fell outside the aspiration window.
    pub aspiration_re_searches: u64,
}

impl Counts {
    /// The share of move cutoffs made by the first move, in percent (`None`: no cutoff).
    pub fn first_move_cutoff_percent(&self) -> Option<f64> {
        (self.cutoffs > 0).then(|| 100.0 * self.first_move_cutoffs as f64 / self.cutoffs as f64)
    }

    fn add(&mut self, other: &Counts) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.table_cutoffs += other.table_cutoffs;
        self.null_move_cutoffs += other.null_move_cutoffs;
        self.pvs_re_searches += other.pvs_re_searches;
        self.aspiration_re_searches += other.aspiration_re_searches;
    }
}

/// One variant's result at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub depth: u32,
    /// The root's value, side to move's point of view.
    pub value: Score,
    pub counts: Counts,
}

/// Runs `variant` on `board` at every depth 1..=`max_depth`.
///
/// The fixed-depth variants start afresh at each depth (empty table, no killers);
/// the iterative ones run once, and depth d's outcome is the run up to iteration d.
pub fn run(variant: Variant, board: &Board, max_depth: u32) -> Vec<Outcome> {
    match variant {
        Variant::Minimax => (1..=max_depth)
            .map(|depth| {
                let mut counts = Counts::default();
                let value = minimax(board, depth, 0, &mut counts);
                Outcome {
                    depth,
                    value,
                    counts,
                }
            })
            .collect(),
        _ if variant.is_iterative() => {
            VariantSearcher::new(variant.features()).iterate(board, max_depth)
        }
        _ => (1..=max_depth)
            .map(|depth| {
                let mut searcher = VariantSearcher::new(variant.features());
                let value = searcher.negamax(board, depth as i32, -INFINITY, INFINITY, 0, true);
                Outcome {
                    depth,
                    value,
                    counts: searcher.counts,
                }
            })
            .collect(),
    }
}

/// Exact values of positions on the lab's tree, for the studies that need them (the
/// oracle's move ordering): the `pvs_aspiration` search, one searcher kept from call
/// to call, so that its table, killers and history serve the next question.
pub struct ValueSearch {
    searcher: VariantSearcher,
    /// What all the searches so far visited.
    total: Counts,
}

/// Table entries a `ValueSearch` keeps before it starts an empty table (about
/// 40 bytes each): forgetting costs time, never exactness.
const VALUE_TABLE_LIMIT: usize = 1 << 22;

impl Default for ValueSearch {
    fn default() -> Self {
        ValueSearch {
            searcher: VariantSearcher::new(Variant::PvsAspiration.features()),
            total: Counts::default(),
        }
    }
}

impl ValueSearch {
    /// Minimax's value of `board` searched `depth` plies, for its side to move (mate
    /// distances counted from `board`).
    pub fn value(&mut self, board: &Board, depth: u32) -> Score {
        if depth == 0 {
            self.total.nodes += 1;
            self.total.leaves += 1;
            return eval::evaluate(board.chess());
        }
        if self.searcher.table.len() > VALUE_TABLE_LIMIT {
            self.searcher.table.clear();
        }
        let outcome = *self
            .searcher
            .iterate(board, depth)
            .last()
            .expect("depth >= 1");
        self.total.add(&outcome.counts);
        outcome.value
    }

    /// Nodes visited by all the searches so far.
    pub fn nodes(&self) -> u64 {
        self.total.nodes
    }
}

/// The score of a node without legal moves: mated, or stalemate.
pub(super) fn terminal_score(board: &Board, ply: usize) -> Score {
    if board.in_check() {
        score::mated_in(ply)
    } else {
        DRAW
    }
}

/// Plain negamax: every node of the tree, no pruning. The reference value.
fn minimax(board: &Board, depth: u32, ply: usize, counts: &mut Counts) -> Score {
    counts.nodes += 1;
    if depth == 0 {
        counts.leaves += 1;
        return eval::evaluate(board.chess());
    }
    let moves = board.chess().legal_moves();
    if moves.is_empty() {
        return terminal_score(board, ply);
    }
    let mut best = -INFINITY;
    for &m in &moves {
        best = best.max(-minimax(&board.play(m), depth - 1, ply + 1, counts));
    }
    best
}

/// Move-order scores, one band per stage; each band sorts above all later ones.
const TABLE_MOVE_ORDER: i32 = 1 << 30;
const CAPTURE_ORDER: i32 = 1 << 28;
/// Minus the killer's slot: the most recent killer first.
const KILLER_ORDER: i32 = 1 << 27;

/// What the lab's transposition table keeps about a position.
#[derive(Clone, Copy, Debug)]
struct TableEntry {
    /// The remaining depth it was searched to.
    depth: i32,
    /// Node-relative (mate distances counted from this node, `score::to_tt`).
    score: Score,
    bound: Bound,
    best_move: Option<Move>,
}

/// What the table says of a node: its value, or at most a move to try first.
enum Probe {
    Cutoff(Score),
    Move(Option<Move>),
}

/// The alpha-beta search with its enhancements switched by `features`.
struct VariantSearcher {
    features: Features,
    counts: Counts,
    killers: Killers,
    history: History,
    /// A plain map keyed by the Zobrist key, always replacing: clarity over speed.
    table: HashMap<u64, TableEntry>,
}

impl VariantSearcher {
    fn new(features: Features) -> VariantSearcher {
        VariantSearcher {
            features,
            counts: Counts::default(),
            killers: Killers::default(),
            history: History::default(),
            table: HashMap::new(),
        }
    }

    /// Iterative deepening 1..=`max_depth` with aspiration windows; the table,
    /// killers and history carry over from one iteration to the next.
    fn iterate(&mut self, root: &Board, max_depth: u32) -> Vec<Outcome> {
        let mut outcomes = Vec::new();
        let mut previous = None;
        let mut total = Counts::default();
        for depth in 1..=max_depth {
            self.counts = Counts::default();
            let value = self.aspiration(root, depth as i32, previous);
            total.add(&self.counts);
            outcomes.push(Outcome {
                depth,
                value,
                counts: total,
            });
            previous = Some(value);
        }
        outcomes
    }

    /// One iteration, in a window around the previous value that widens until the
    /// value falls strictly inside it (then it is exact). The same rule as the
    /// engine's, except that it starts at depth 2, not `ASPIRATION_MIN_DEPTH`:
    /// the lab's depths are too shallow for the engine's threshold.
    fn aspiration(&mut self, root: &Board, depth: i32, previous: Option<Score>) -> Score {
        let mut delta = ParamValues::DEFAULT.aspiration_delta;
        let (mut alpha, mut beta) = match previous {
            Some(p) if !score::is_mate(p) => {
                ((p - delta).max(-INFINITY), (p + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let value = self.negamax(root, depth, alpha, beta, 0, true);
            if value <= alpha {
                // Fail low: an upper bound only; lower the window.
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITY);
            } else if value >= beta {
                // Fail high: a lower bound only; raise the window.
                beta = (value + delta).min(INFINITY);
            } else {
                return value;
            }
            self.counts.aspiration_re_searches += 1;
            delta += delta / 2;
            if score::is_mate(value) || delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Fail-soft negamax alpha-beta: the value of `board` searched `depth` plies,
    /// exact when it falls inside (`alpha`, `beta`), otherwise a bound on the far side.
    /// `null_allowed`: the move into this node was not a null move.
    ///
    /// The node's recipe; the longer steps are the methods below, in the same order.
    fn negamax(
        &mut self,
        board: &Board,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        null_allowed: bool,
    ) -> Score {
        self.counts.nodes += 1;

        // Step 1. Horizon: the static evaluation, no quiescence, so that every
        // variant searches minimax's tree and the values compare.
        if depth <= 0 {
            self.counts.leaves += 1;
            return eval::evaluate(board.chess());
        }

        // Step 2. Transposition table (alphabeta_tt on): the stored move, or the value.
        let table_move = match self.probe_table(board, depth, alpha, beta, ply) {
            Probe::Cutoff(value) => return value,
            Probe::Move(m) => m,
        };

        // Step 3. Mate and stalemate, scored the same in every variant.
        let moves = board.chess().legal_moves();
        if moves.is_empty() {
            return terminal_score(board, ply);
        }

        // Step 4. Null-move pruning (pvs_null_move on).
        if null_allowed && let Some(value) = self.null_move(board, depth, alpha, beta, ply) {
            return value;
        }

        // Step 5. The moves, in the order the enabled heuristics give.
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for (i, m) in self
            .order(board, moves, ply, table_move)
            .into_iter()
            .enumerate()
        {
            let value = self.search_move(board, m, i, depth, alpha, beta, ply);
            if value > best {
                best = value;
                best_move = Some(m);
            }
            alpha = alpha.max(value);

            // Step 5b. Beta cutoff: the opponent already has a better choice than this
            // node, so the remaining moves cannot change the root's value (Knuth-Moore).
            if alpha >= beta {
                self.cutoff(board, m, i, depth, ply);
                break;
            }
        }

        // Step 6. Remember the result, with the side of the window it lies on.
        if self.features.table {
            let entry = TableEntry {
                depth,
                score: score::to_tt(best, ply),
                bound: Bound::of(best, original_alpha, beta),
                best_move,
            };
            self.table.insert(board.key(), entry);
        }
        best
    }

    /// Step 2: the stored move is tried first, and an entry can answer the node
    /// without a search.
    fn probe_table(
        &mut self,
        board: &Board,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Probe {
        if !self.features.table {
            return Probe::Move(None);
        }
        let Some(entry) = self.table.get(&board.key()) else {
            return Probe::Move(None);
        };
        let value = score::from_tt(entry.score, ply);
        // Safe: the entry is this position's value at exactly this remaining depth
        // (with no path-dependent draws, the same tree), and its bound decides this
        // window. A deeper entry is a deeper tree's value, not minimax's: only ordering.
        // The root always searches: its value is what is measured.
        if ply > 0 && entry.depth == depth && entry.bound.decides(value, alpha, beta) {
            self.counts.table_cutoffs += 1;
            return Probe::Cutoff(value);
        }
        Probe::Move(entry.best_move)
    }

    /// Step 4: if the side to move could pass and a reduced search still fails high,
    /// assume a real move fails high too (the node's value, or `None` to search it).
    /// NOT exact: wrong in zugzwang, and the reduced search may miss a threat.
    /// The guards are the engine's: never in check (passing would be illegal), never
    /// twice in a row (the caller's `null_allowed`), never at the root or a PV node
    /// (exact values wanted there), never with pawns and king only (zugzwang's home),
    /// only when the static evaluation already reaches beta, and only from the search's
    /// `null_move_min_depth` on.
    fn null_move(
        &mut self,
        board: &Board,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        let pv_node = beta - alpha > 1;
        if !self.features.null_move
            || ply == 0
            || pv_node
            || depth < ParamValues::DEFAULT.null_move_min_depth
            || board.in_check()
            || !board.has_non_pawn_material()
            || eval::evaluate(board.chess()) < beta
        {
            return None;
        }
        let passed = board.play_null()?;
        let reduced = (depth - 1 - ParamValues::DEFAULT.null_move_reduction(depth)).max(0);
        let value = -self.negamax(&passed, reduced, -beta, -beta + 1, ply + 1, false);
        if value < beta {
            return None;
        }
        self.counts.null_move_cutoffs += 1;
        // A mate found after passing is not proven: claim only beta.
        Some(if score::is_mate(value) { beta } else { value })
    }

    /// Step 5a: the value of move `m`, the `i`-th tried (from 0). After the first
    /// move, PVS (pvs on) only proves that a move is no better than alpha, with a null
    /// window (cheaper: more cutoffs). Safe: a scout that fails low is an upper bound
    /// <= alpha, all that is needed; one that lands inside the window is searched
    /// again in full.
    #[allow(clippy::too_many_arguments)] // the node's window and place, as negamax's
    fn search_move(
        &mut self,
        board: &Board,
        m: Move,
        i: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let child = board.play(m);
        if i == 0 || !self.features.pvs {
            return -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
        }
        let scout = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
        if alpha < scout && scout < beta {
            self.counts.pvs_re_searches += 1;
            -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true)
        } else {
            scout
        }
    }

    /// Step 5b's bookkeeping: the cutoff counted, and with killers and history
    /// (alphabeta_killers on), a quiet move that refuted one position remembered: it
    /// often refutes its siblings too. Ordering only: always safe.
    fn cutoff(&mut self, board: &Board, m: Move, i: usize, depth: i32, ply: usize) {
        self.counts.cutoffs += 1;
        if i == 0 {
            self.counts.first_move_cutoffs += 1;
        }
        if self.features.killers_and_history && is_quiet(m) {
            self.killers.add(ply, m);
            self.history.update(board.turn(), m, depth * depth);
        }
    }

    /// The moves best first for the enabled heuristics; with none, generation order.
    /// The sort is stable: within a stage, moves keep generation order.
    fn order(
        &self,
        board: &Board,
        moves: MoveList,
        ply: usize,
        table_move: Option<Move>,
    ) -> Vec<Move> {
        let f = self.features;
        let killers = self.killers.get(ply);
        let order_score = |m: Move| -> i32 {
            if f.table && table_move == Some(m) {
                TABLE_MOVE_ORDER
            } else if f.mvv_lva && !is_quiet(m) {
                CAPTURE_ORDER + mvv_lva(m)
            } else if let Some(slot) = killers
                .iter()
                .position(|&k| f.killers_and_history && k == Some(m))
            {
                KILLER_ORDER - slot as i32
            } else if f.killers_and_history && is_quiet(m) {
                self.history.get(board.turn(), m)
            } else {
                0
            }
        };
        let mut scored: Vec<(i32, Move)> = moves.iter().map(|&m| (order_score(m), m)).collect();
        scored.sort_by_key(|&(s, _)| Reverse(s));
        scored.into_iter().map(|(_, m)| m).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    /// A position from a FEN known to be valid.
    fn chess(fen: &str) -> shakmaty::Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn each_variant_adds_one_feature() {
        let count = |v: Variant| {
            let f = v.features();
            [
                f.mvv_lva,
                f.killers_and_history,
                f.table,
                f.pvs,
                f.iterative_deepening,
                f.null_move,
            ]
            .iter()
            .filter(|&&on| on)
            .count()
        };
        for (i, &v) in Variant::ALL.iter().enumerate() {
            assert_eq!(v as usize, i, "ALL is in declaration order");
            assert_eq!(count(v), i.saturating_sub(1), "{}", v.name());
        }
        assert!(Variant::PvsAspiration.is_iterative() && !Variant::Pvs.is_iterative());
    }

    #[test]
    fn minimax_leaves_are_perft() {
        let board = Board::startpos();
        for outcome in run(Variant::Minimax, &board, 3) {
            assert_eq!(outcome.counts.leaves, perft(board.chess(), outcome.depth));
        }
        let nodes: u64 = (0..=3).map(|d| perft(board.chess(), d)).sum();
        assert_eq!(run(Variant::Minimax, &board, 3)[2].counts.nodes, nodes);
    }

    #[test]
    fn mate_and_stalemate_at_the_root() {
        let mated = chess("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let stalemate = chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        for (pos, expected) in [(mated, score::mated_in(0)), (stalemate, DRAW)] {
            for v in Variant::ALL {
                let outcome = run(v, &Board::new(pos.clone()), 2)[1];
                assert_eq!(outcome.value, expected, "{}", v.name());
            }
        }
    }

    #[test]
    fn finds_mate_in_one_in_every_variant() {
        // White mates with Qh5xf7 (Scholar's mate).
        let pos = chess("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        for v in Variant::ALL {
            let outcomes = run(v, &Board::new(pos.clone()), 3);
            assert_eq!(outcomes[1].value, score::mate_in(1), "{} depth 2", v.name());
            assert_eq!(outcomes[2].value, score::mate_in(1), "{} depth 3", v.name());
        }
    }

    /// Within a lab search a mate score is never read back at another ply before
    /// depth 6 or so (a position needs four plies to recur), so the random tests
    /// cannot see a missing `to_tt`/`from_tt`: probe at another ply directly.
    #[test]
    fn table_entries_keep_mate_distance_across_plies() {
        let pos = chess("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        let board = Board::new(pos);
        let mut searcher = VariantSearcher::new(Variant::AlphaBetaTt.features());
        let at_root = searcher.negamax(&board, 2, -INFINITY, INFINITY, 0, true);
        assert_eq!(at_root, score::mate_in(1));
        let from_table = searcher.negamax(&board, 2, -INFINITY, INFINITY, 2, true);
        assert_eq!(searcher.counts.table_cutoffs, 1, "answered by the table");
        let fresh = VariantSearcher::new(Variant::AlphaBetaTt.features())
            .negamax(&board, 2, -INFINITY, INFINITY, 2, true);
        assert_eq!(from_table, fresh);
        assert_eq!(from_table, score::mate_in(3));
    }

    #[test]
    fn iterative_counts_accumulate() {
        let board = Board::startpos();
        let outcomes = run(Variant::PvsAspiration, &board, 3);
        assert!(
            outcomes
                .windows(2)
                .all(|w| w[1].counts.nodes > w[0].counts.nodes)
        );
    }
}
