//! `tabas lab oracle`: the oracle-ordered tree, the smallest tree alpha-beta can search
//! when it always tries the best move first, on real positions.
//!
//! Knuth and Moore counted that tree for a uniform tree of width b:
//! `b^ceil(d/2) + b^floor(d/2) - 1` leaves. A real position is not uniform, so here the
//! tree is built for the position itself: at every node, alpha-beta orders the moves by
//! their exact minimax values, best first, each found beforehand by a full search of the
//! child to the same remaining depth (`ValueSearch`, the lab's exact `pvs_aspiration`).
//! The first move of every node is then its best one: every node that can be refuted
//! is refuted by its first move, and the tree searched is Knuth and Moore's minimal
//! tree of this position. It is set beside
//! * their formula for the position's own width: b = perft(k)^(1/k), the geometric mean
//!   number of legal moves over the first k = min(d, `WIDTH_PLIES`) plies (the uniform
//!   tree with as many leaves; beyond `WIDTH_PLIES` plies perft costs too much);
//! * alpha-beta with the engine's ordering (the lab's `alphabeta_killers`: captures by
//!   MVV-LVA, killers, history; no table, like the oracle) and with generation order
//!   (`alphabeta`), so that *ordering efficiency* = oracle nodes / engine-ordering nodes
//!   says how close the engine's ordering comes (100 %: perfect).
//!
//! "Best first" is what a perfect move orderer does, and the minimal tree in Knuth and
//! Moore's sense (among moves of equal value, the one leaving fewer replies goes
//! first). It is the smallest tree of any ordering to depth 2, but not always beyond:
//! where several moves refute a node, the best refutation is not always the cheapest to
//! prove (a capture that leaves the opponent fewer replies refutes as surely), so an
//! ordering that tries another refutation first can visit fewer nodes; Plaat, Schaeffer,
//! Pijls and de Bruin (1996) call that smaller proof the real minimal graph.
//! `tests/lab_exactness.rs` checks the value, the first-move cutoffs, minimality to
//! depth 2, and counts how often another ordering does better at depths 3 and 4.
//!
//! Counting is the lab's (`variants.rs`): same tree, same fail-soft alpha-beta as
//! `alphabeta`, nodes and leaves counted alike (a test checks that generation order gives
//! `alphabeta`'s counts exactly). The searches that find the values are not counted in
//! the oracle's nodes: they are its price, reported apart.

use super::variants::{self, Counts, Outcome, ValueSearch, Variant};
use super::{Command, Flags, LabPosition, default_positions, read_positions};
use crate::eval;
use crate::perft::perft;
use crate::position::Board;
use crate::score::{INFINITY, Score};
use shakmaty::{Move, MoveList, Position};
use std::collections::HashMap;
use std::path::PathBuf;

/// Depth of `tabas lab oracle` without `--depth` (docs/lab/'s figures): about four
/// minutes on one core, most of it Kiwipete's depth 7 (depth 6 takes half a minute).
pub const DEFAULT_DEPTH: u32 = 7;
/// The deepest `--depth` accepted: each oracle node searches all its children first.
pub const MAX_DEPTH: u32 = 8;
/// The plies over which the width b of the Knuth-Moore formula is measured, at most.
pub const WIDTH_PLIES: u32 = 5;

pub const USAGE: &str = "usage: tabas lab oracle [--depth N] [--epd FILE] [--csv FILE] [--svg FILE]
  the oracle-ordered (minimal) tree of each position at depths 1..N, beside Knuth and
  Moore's formula for the position's own width and alpha-beta with the engine's ordering
  --depth N   measure depths 1..N (default 7: about 4 minutes; 6 takes half a minute;
              at most 8)
  --epd FILE  positions, as for `tabas lab` (default: its four positions)
  --csv FILE  write one row per position and depth
  --svg FILE  write the chart: nodes against depth (log scale), one panel per position";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub depth: u32,
    pub epd: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

/// Parses the arguments after `lab oracle`.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut flags = Flags::new(MAX_DEPTH);
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help(USAGE));
        }
        if !flags.read(flag, &mut rest)? {
            return Err(format!("unknown lab oracle argument '{flag}'"));
        }
    }
    Ok(Command::Oracle(Options {
        depth: flags.depth.unwrap_or(DEFAULT_DEPTH),
        epd: flags.epd,
        csv: flags.csv,
        svg: flags.svg,
    }))
}

/// The positions asked for: the EPD file's, else the lab's defaults.
pub fn positions(options: &Options) -> Result<Vec<LabPosition>, String> {
    match &options.epd {
        Some(path) => read_positions(path),
        None => default_positions(),
    }
}

/// How a node's moves are ordered for `OrderedAlphaBeta`.
pub trait MoveOrder {
    /// `moves`, the legal moves of `board` with `depth` ≥ 1 plies left, in the order to
    /// search them.
    fn order(&mut self, board: &Board, depth: u32, moves: MoveList) -> Vec<Move>;
}

/// shakmaty's generation order (the lab's `alphabeta`).
pub struct GenerationOrder;

impl MoveOrder for GenerationOrder {
    fn order(&mut self, _: &Board, _: u32, moves: MoveList) -> Vec<Move> {
        moves.to_vec()
    }
}

/// Generation order backwards.
pub struct ReversedOrder;

impl MoveOrder for ReversedOrder {
    fn order(&mut self, _: &Board, _: u32, moves: MoveList) -> Vec<Move> {
        moves.iter().rev().copied().collect()
    }
}

/// The oracle: the moves by their exact minimax values, best first (ties in generation
/// order). Each value is found once per position and depth, then remembered.
#[derive(Default)]
pub struct OracleOrder {
    values: ValueSearch,
    /// (key, remaining depth) → value, for the side to move there.
    known: HashMap<(u64, u32), Score>,
}

impl OracleOrder {
    /// Nodes the searches for the values have visited so far: the oracle's price.
    pub fn price(&self) -> u64 {
        self.values.nodes()
    }

    fn value(&mut self, board: &Board, depth: u32) -> Score {
        if let Some(&value) = self.known.get(&(board.key(), depth)) {
            return value;
        }
        let value = self.values.value(board, depth);
        self.known.insert((board.key(), depth), value);
        value
    }
}

impl MoveOrder for OracleOrder {
    fn order(&mut self, board: &Board, depth: u32, moves: MoveList) -> Vec<Move> {
        let mut valued: Vec<(Score, usize, Move)> = moves
            .iter()
            .map(|&m| {
                let child = board.play(m);
                let replies = child.chess().legal_moves().len();
                (self.value(&child, depth - 1), replies, m)
            })
            .collect();
        // A child's value is the opponent's: the lowest is the best move. Among equal
        // values, the one that leaves fewer replies (cheaper to search in full); then
        // generation order (a stable sort).
        valued.sort_by_key(|&(value, replies, _)| (value, replies));
        valued.into_iter().map(|(_, _, m)| m).collect()
    }
}

/// The lab's plain fail-soft alpha-beta (`alphabeta`), with the moves in `order`'s order.
pub struct OrderedAlphaBeta<O> {
    pub order: O,
    pub counts: Counts,
    /// Nodes that searched every one of their moves (no cutoff): with best-first
    /// ordering, the principal variation and the nodes whose every move fails low. A
    /// refuted node searches one move, so these nodes' widths set the tree's size.
    pub full_nodes: u64,
    /// Their legal moves, summed: with `full_nodes`, their mean width.
    pub full_branches: u64,
}

impl<O: MoveOrder> OrderedAlphaBeta<O> {
    pub fn new(order: O) -> Self {
        OrderedAlphaBeta {
            order,
            counts: Counts::default(),
            full_nodes: 0,
            full_branches: 0,
        }
    }

    /// A fresh search of `board` to `depth`: its value and what it visited (the
    /// counters start at zero; the ordering keeps what it knows).
    pub fn run(&mut self, board: &Board, depth: u32) -> Outcome {
        self.counts = Counts::default();
        self.full_nodes = 0;
        self.full_branches = 0;
        let value = self.negamax(board, depth, -INFINITY, INFINITY, 0);
        Outcome {
            depth,
            value,
            counts: self.counts,
        }
    }

    /// The mean number of legal moves at the nodes of the last search that searched
    /// all their moves.
    pub fn full_width(&self) -> f64 {
        self.full_branches as f64 / self.full_nodes.max(1) as f64
    }

    fn negamax(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.counts.nodes += 1;
        if depth == 0 {
            self.counts.leaves += 1;
            return eval::evaluate(board.chess());
        }
        let moves = board.chess().legal_moves();
        if moves.is_empty() {
            return variants::terminal_score(board, ply);
        }
        let width = moves.len() as u64;
        let mut best = -INFINITY;
        for (i, m) in self
            .order
            .order(board, depth, moves)
            .into_iter()
            .enumerate()
        {
            let value = -self.negamax(&board.play(m), depth - 1, -beta, -alpha, ply + 1);
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                self.counts.cutoffs += 1;
                if i == 0 {
                    self.counts.first_move_cutoffs += 1;
                }
                return best;
            }
        }
        self.full_nodes += 1;
        self.full_branches += width;
        best
    }
}

/// One position at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct OracleRow {
    pub depth: u32,
    /// The width of the Knuth-Moore formula: perft(k)^(1/k), k = min(depth, `WIDTH_PLIES`).
    pub width: f64,
    pub knuth_moore_nodes: f64,
    pub knuth_moore_leaves: f64,
    pub oracle: Outcome,
    /// The mean number of legal moves at the oracle tree's nodes that searched all
    /// their moves (`OrderedAlphaBeta::full_width`).
    pub oracle_width: f64,
    /// Nodes the oracle's value searches visited for this depth (its price).
    pub oracle_price: u64,
    /// Alpha-beta with the engine's ordering (`alphabeta_killers`).
    pub engine: Outcome,
    /// Alpha-beta in generation order (`alphabeta`).
    pub generation: Outcome,
}

impl OracleRow {
    /// Oracle nodes / engine-ordering nodes: 1 is a perfect ordering.
    pub fn ordering_efficiency(&self) -> f64 {
        self.oracle.counts.nodes as f64 / self.engine.counts.nodes.max(1) as f64
    }

    /// Whether the three searches agree on the value (they must: all are exact).
    pub fn values_agree(&self) -> bool {
        self.oracle.value == self.engine.value && self.oracle.value == self.generation.value
    }
}

/// One position's rows, depth 1..=max.
#[derive(Clone, Debug)]
pub struct OracleResult {
    pub name: String,
    pub fen: String,
    pub root_moves: usize,
    pub rows: Vec<OracleRow>,
}

/// Leaves of Knuth and Moore's minimal tree of a uniform tree of (real) width `b`.
pub fn knuth_moore_leaves(b: f64, depth: u32) -> f64 {
    if depth == 0 {
        return 1.0;
    }
    b.powi(depth.div_ceil(2) as i32) + b.powi((depth / 2) as i32) - 1.0
}

/// Its nodes: level i of the minimal tree of depth d is the minimal tree of depth i.
pub fn knuth_moore_nodes(b: f64, depth: u32) -> f64 {
    (0..=depth).map(|d| knuth_moore_leaves(b, d)).sum()
}

/// The geometric mean width of `board`'s tree over its first min(depth, `WIDTH_PLIES`) plies.
pub fn geometric_width(board: &Board, depth: u32) -> f64 {
    let plies = depth.clamp(1, WIDTH_PLIES);
    (perft(board.chess(), plies) as f64).powf(1.0 / plies as f64)
}

/// Measures `position` at depths 1..=`max_depth`.
pub fn measure(position: &LabPosition, max_depth: u32) -> OracleResult {
    let board = &position.board;
    let engine = variants::run(Variant::AlphaBetaKillers, board, max_depth);
    let generation = variants::run(Variant::AlphaBeta, board, max_depth);
    // One oracle for all depths: the values it learned stay true.
    let mut oracle = OrderedAlphaBeta::new(OracleOrder::default());
    // Beyond `WIDTH_PLIES` the width stays the one measured there.
    let mut capped_width = None;
    let mut rows = Vec::new();
    for depth in 1..=max_depth {
        let width = if depth < WIDTH_PLIES {
            geometric_width(board, depth)
        } else {
            *capped_width.get_or_insert_with(|| geometric_width(board, WIDTH_PLIES))
        };
        let price_before = oracle.order.price();
        let outcome = oracle.run(board, depth);
        rows.push(OracleRow {
            depth,
            width,
            knuth_moore_nodes: knuth_moore_nodes(width, depth),
            knuth_moore_leaves: knuth_moore_leaves(width, depth),
            oracle: outcome,
            oracle_width: oracle.full_width(),
            oracle_price: oracle.order.price() - price_before,
            engine: engine[depth as usize - 1],
            generation: generation[depth as usize - 1],
        });
    }
    OracleResult {
        name: position.name.clone(),
        fen: position.fen.clone(),
        root_moves: board.chess().legal_moves().len(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::lab::parse_position;
    use crate::tools::lab::tests::args;

    fn options(text: &str) -> Options {
        match parse_args(&args(text)) {
            Ok(Command::Oracle(o)) => o,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn arguments() {
        let o = options("");
        assert_eq!(
            (o.depth, o.epd, o.csv, o.svg),
            (DEFAULT_DEPTH, None, None, None)
        );
        let o = options("--depth 3 --csv o.csv --svg o.svg --epd p.epd");
        assert_eq!(o.depth, 3);
        assert_eq!(o.csv, Some(PathBuf::from("o.csv")));
        assert_eq!(o.epd, Some(PathBuf::from("p.epd")));
        assert_eq!(
            parse_args(&args("--depth 3 --help")),
            Ok(Command::Help(USAGE))
        );
        for (text, expected) in [
            ("--depth 9", "--depth must be 1..8, not '9'"),
            ("--depth 0", "--depth must be 1..8"),
            ("--depth", "--depth needs a value"),
            ("--depth 2 --depth 3", "--depth given twice"),
            ("--svg a --svg b", "--svg given twice"),
            ("--epd", "--epd needs a value"),
            ("--positions 3", "unknown lab oracle argument '--positions'"),
        ] {
            let err = parse_args(&args(text)).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    #[test]
    fn knuth_moore_with_a_real_width() {
        assert_eq!(knuth_moore_leaves(30.0, 2), 59.0);
        assert_eq!(knuth_moore_leaves(30.0, 3), 929.0);
        assert_eq!(knuth_moore_nodes(30.0, 2), 1.0 + 30.0 + 59.0);
        assert_eq!(knuth_moore_leaves(4.0, 0), 1.0);
        // The start position: perft(2) = 400, so b = 20 at depth 2.
        assert!((geometric_width(&Board::startpos(), 2) - 20.0).abs() < 1e-9);
        assert!((geometric_width(&Board::startpos(), 9) - 4_865_609f64.powf(0.2)).abs() < 1e-6);
    }

    #[test]
    fn generation_order_counts_as_alphabeta() {
        let board = Board::startpos();
        let reference = variants::run(Variant::AlphaBeta, &board, 3);
        let mut search = OrderedAlphaBeta::new(GenerationOrder);
        for expected in reference {
            assert_eq!(search.run(&board, expected.depth), expected);
        }
    }

    #[test]
    fn the_oracle_cuts_with_its_first_move() {
        let position = parse_position(
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        )
        .unwrap();
        let result = measure(&position, 3);
        for row in &result.rows {
            assert!(row.values_agree(), "{row:?}");
            let counts = row.oracle.counts;
            assert_eq!(counts.cutoffs, counts.first_move_cutoffs, "{row:?}");
            assert!(row.oracle_price > 0);
            // Minimal to depth 2 (see tests/lab_exactness.rs); deeper, the best
            // refutation is not always the cheapest.
            if row.depth <= 2 {
                assert!(row.ordering_efficiency() <= 1.0, "{row:?}");
            }
        }
        // At depth 1 every root move is a leaf: all three count the same.
        assert_eq!(result.rows[0].oracle.counts.nodes, 49);
        assert_eq!(result.rows[0].knuth_moore_nodes, 49.0);
    }
}
