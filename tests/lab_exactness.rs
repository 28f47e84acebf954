//! The laboratory's promise: every exact variant returns exactly minimax's value.
//!
//! Positions come from a seeded random walk of random length from the start
//! position (a tiny PRNG, so the run is reproducible with no dependency), which
//! reaches odd material, checks, promotions, mates and stalemates. Each position
//! is searched to depths 1..=3 by every variant (every `DEEP_EVERY`-th to depth 4),
//! and each exact variant's value at each depth must equal minimax's. A failure
//! names the seed, the walk number, the FEN, the variant and the depth.
//!
//! The oracle of `tabas lab oracle` (every node's moves ordered by their exact values)
//! is checked the same way: minimax's value, every cutoff by the first move, and no
//! ordering tried that visits fewer nodes where that is provable (depths 1 and 2).
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, Position};
use tabas::position::Board;
use tabas::tools::lab::oracle::{
    GenerationOrder, MoveOrder, OracleOrder, OrderedAlphaBeta, ReversedOrder,
};
use tabas::tools::lab::variants::{self, Variant};

/// Change it to explore other walks; a failure message repeats it.
const SEED: u64 = 0x7ab0_5a1f_ab1e_2024;
const POSITIONS: usize = 240;
const MAX_WALK_PLIES: u64 = 80;
const DEPTH: u32 = 3;
/// Every this many positions is also searched to depth 4.
const DEEP_EVERY: usize = 12;

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast, good enough to pick moves.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random walk of 1..=`MAX_WALK_PLIES` plies from the start position; it stops early at
/// mate or stalemate, so those positions are tested too.
fn random_position(rng: &mut SplitMix64) -> Board {
    let mut board = Board::startpos();
    for _ in 0..1 + rng.below(MAX_WALK_PLIES) {
        let moves = board.chess().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        board = board.play(m);
    }
    board
}

/// The variants that only skip parts of minimax's tree, never search a node twice.
fn prunes_only(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::AlphaBeta
            | Variant::AlphaBetaMvvLva
            | Variant::AlphaBetaKillers
            | Variant::AlphaBetaTt
    )
}

fn board_from_fen(text: &str) -> Board {
    let fen: Fen = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let pos = fen
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    Board::new(pos)
}

fn fen(board: &Board) -> String {
    Fen::from_position(board.chess(), EnPassantMode::Legal).to_string()
}

#[test]
fn exact_variants_return_the_minimax_value() {
    let mut rng = SplitMix64(SEED);
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut null_move_differs = 0;
    let mut mate_values = 0;
    for walk in 0..POSITIONS {
        let board = random_position(&mut rng);
        let depth = if walk % DEEP_EVERY == 0 {
            DEPTH + 1
        } else {
            DEPTH
        };
        let minimax = variants::run(Variant::Minimax, &board, depth);
        mate_values += minimax
            .iter()
            .filter(|o| tabas::score::is_mate(o.value))
            .count();
        for variant in Variant::ALL.into_iter().skip(1) {
            let outcomes = variants::run(variant, &board, depth);
            for (reference, outcome) in minimax.iter().zip(&outcomes) {
                assert_eq!(reference.depth, outcome.depth);
                if !variant.is_exact() {
                    null_move_differs += usize::from(outcome.value != reference.value);
                    continue;
                }
                checked += 1;
                if outcome.value != reference.value {
                    failures.push(format!(
                        "seed {SEED:#x} walk {walk} depth {}: {} = {}, minimax = {}  fen {}",
                        outcome.depth,
                        variant.name(),
                        outcome.value,
                        reference.value,
                        fen(&board)
                    ));
                }
                // Pure pruning visits part of minimax's tree. PVS may visit more (a
                // re-searched node counts twice), and iterative deepening pays for
                // its earlier iterations.
                if prunes_only(variant) && outcome.counts.nodes > reference.counts.nodes {
                    failures.push(format!(
                        "seed {SEED:#x} walk {walk} depth {}: {} visited {} nodes, minimax {}  fen {}",
                        outcome.depth,
                        variant.name(),
                        outcome.counts.nodes,
                        reference.counts.nodes,
                        fen(&board)
                    ));
                }
            }
        }
    }
    eprintln!(
        "lab exactness: {checked} (position, depth, variant) values checked, \
         {mate_values} minimax values were mates; null move differed {null_move_differs} times"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= POSITIONS * DEPTH as usize * 6);
    assert!(mate_values >= 5, "the walks should reach some mates");
}

/// Endgames where kings shuffle and pawns can go one or two squares: a position
/// recurs at different plies of one search, or in different iterations, which only
/// happens from depth 5 on (a side needs two moves to undo one). There a table
/// entry of another depth, or a mate score not converted to node-relative, would
/// change the value, so these are searched to depth 5 or 6.
const ENDGAME_STARTS: &[&str] = &[
    "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
    "8/8/1p6/p1p2k2/P1P5/1P3K2/8/8 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/8/3k4/8/8/R3K3 w Q - 0 1",
    "7k/8/5K2/6Q1/8/8/8/8 w - - 0 1",
    "8/5p2/8/4k3/8/8/2PK4/8 w - - 0 1",
];
const ENDGAME_POSITIONS: usize = 28;
const MAX_ENDGAME_WALK_PLIES: u64 = 12;
/// Leaves minimax may visit in one endgame search (it picks the depth).
const ENDGAME_LEAF_BUDGET: f64 = 1.5e6;

#[test]
fn exact_where_positions_recur_at_different_plies() {
    let mut rng = SplitMix64(SEED ^ 0xe9d);
    let mut failures = Vec::new();
    let mut deep = 0;
    for walk in 0..ENDGAME_POSITIONS {
        let start = ENDGAME_STARTS[walk % ENDGAME_STARTS.len()];
        let mut board = board_from_fen(start);
        for _ in 0..rng.below(MAX_ENDGAME_WALK_PLIES + 1) {
            let moves = board.chess().legal_moves();
            if moves.is_empty() {
                break;
            }
            board = board.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        // The deepest depth whose tree fits the budget, from the two-ply branching factor.
        let b = (tabas::perft::perft(board.chess(), 2) as f64)
            .sqrt()
            .max(1.0);
        let depth = (4..=6)
            .rev()
            .find(|&d| b.powi(d) <= ENDGAME_LEAF_BUDGET)
            .unwrap_or(4) as u32;
        deep += usize::from(depth >= 5);
        let minimax = variants::run(Variant::Minimax, &board, depth);
        for variant in Variant::ALL.into_iter().filter(|v| v.is_exact()).skip(1) {
            for (reference, outcome) in minimax.iter().zip(&variants::run(variant, &board, depth)) {
                if outcome.value != reference.value {
                    failures.push(format!(
                        "seed {SEED:#x} endgame walk {walk} depth {}: {} = {}, minimax = {}  fen {}",
                        outcome.depth,
                        variant.name(),
                        outcome.value,
                        reference.value,
                        fen(&board)
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        deep >= ENDGAME_POSITIONS / 2,
        "only {deep} searches reached depth 5"
    );
}

/// The walk itself is reproducible: the same seed, the same positions.
#[test]
fn random_walk_is_reproducible() {
    let a: Vec<u64> = {
        let mut rng = SplitMix64(SEED);
        (0..5).map(|_| random_position(&mut rng).key()).collect()
    };
    let mut rng = SplitMix64(SEED);
    let b: Vec<u64> = (0..5).map(|_| random_position(&mut rng).key()).collect();
    assert_eq!(a, b);
    assert!(a.windows(2).any(|w| w[0] != w[1]));
}

/// A seeded random order: any ordering at all.
struct ShuffledOrder(SplitMix64);

impl MoveOrder for ShuffledOrder {
    fn order(&mut self, _: &Board, _: u32, moves: shakmaty::MoveList) -> Vec<shakmaty::Move> {
        let mut moves = moves.to_vec();
        for i in (1..moves.len()).rev() {
            moves.swap(i, self.0.below(i as u64 + 1) as usize);
        }
        moves
    }
}

const ORACLE_POSITIONS: usize = 90;
/// Every this many positions is also searched to depth 4.
const ORACLE_DEEP_EVERY: usize = 10;

/// The other orderings' node counts at `depth`: generation order, reversed, two random
/// orders, and the lab's MVV-LVA and killers-and-history orderings.
fn other_orderings(board: &Board, depth: u32, seed: u64) -> [(&'static str, u64); 6] {
    let nodes = |v: Variant| {
        variants::run(v, board, depth)[depth as usize - 1]
            .counts
            .nodes
    };
    [
        (
            "generation",
            OrderedAlphaBeta::new(GenerationOrder)
                .run(board, depth)
                .counts
                .nodes,
        ),
        (
            "reversed",
            OrderedAlphaBeta::new(ReversedOrder)
                .run(board, depth)
                .counts
                .nodes,
        ),
        (
            "random 1",
            OrderedAlphaBeta::new(ShuffledOrder(SplitMix64(seed)))
                .run(board, depth)
                .counts
                .nodes,
        ),
        (
            "random 2",
            OrderedAlphaBeta::new(ShuffledOrder(SplitMix64(!seed)))
                .run(board, depth)
                .counts
                .nodes,
        ),
        ("alphabeta_mvvlva", nodes(Variant::AlphaBetaMvvLva)),
        ("alphabeta_killers", nodes(Variant::AlphaBetaKillers)),
    ]
}

/// The oracle returns minimax's value and makes every cutoff with its first move. To
/// depth 2 no ordering can visit fewer nodes (every node but the first child of the
/// root is refuted by one leaf, and the first child is the cheapest best one), and no
/// ordering tried does. From depth 3 the best refutation is not always the cheapest
/// (a capture that leaves the opponent fewer replies can refute as surely): there the
/// oracle is only checked to visit fewer nodes than each other ordering in total, and
/// how often one beat it is printed.
#[test]
fn the_oracle_is_exact_and_minimal_where_provable() {
    let mut rng = SplitMix64(SEED ^ 0x04ac1e);
    let mut failures = Vec::new();
    let mut deep_totals = [0u64; 7];
    let mut deep_cases = 0;
    let mut beaten = 0;
    for walk in 0..ORACLE_POSITIONS {
        let board = random_position(&mut rng);
        let max_depth = if walk % ORACLE_DEEP_EVERY == 0 { 4 } else { 3 };
        let minimax = variants::run(Variant::Minimax, &board, max_depth);
        let mut oracle = OrderedAlphaBeta::new(OracleOrder::default());
        for reference in &minimax {
            let depth = reference.depth;
            let outcome = oracle.run(&board, depth);
            let mut fail = |what: String| {
                failures.push(format!(
                    "walk {walk} depth {depth}: {what}  fen {}",
                    fen(&board)
                ))
            };
            if outcome.value != reference.value {
                fail(format!(
                    "oracle = {}, minimax = {}",
                    outcome.value, reference.value
                ));
            }
            if outcome.counts.first_move_cutoffs != outcome.counts.cutoffs {
                fail(format!(
                    "{:?}: a cutoff not by the first move",
                    outcome.counts
                ));
            }
            let others = other_orderings(&board, depth, SEED ^ walk as u64);
            if depth <= 2 {
                for (name, nodes) in others {
                    if nodes < outcome.counts.nodes {
                        fail(format!(
                            "{name} {nodes} nodes < oracle {}",
                            outcome.counts.nodes
                        ));
                    }
                }
            } else {
                deep_cases += 1;
                deep_totals[0] += outcome.counts.nodes;
                for (i, (_, nodes)) in others.iter().enumerate() {
                    deep_totals[i + 1] += nodes;
                }
                beaten += usize::from(others.iter().any(|&(_, n)| n < outcome.counts.nodes));
            }
        }
    }
    eprintln!(
        "lab oracle: depths 3-4, {deep_cases} searches: nodes oracle {}, generation {}, \
         reversed {}, random {} and {}, mvvlva {}, killers {}; another ordering visited \
         fewer nodes in {beaten}",
        deep_totals[0],
        deep_totals[1],
        deep_totals[2],
        deep_totals[3],
        deep_totals[4],
        deep_totals[5],
        deep_totals[6]
    );
    for (i, total) in deep_totals.iter().enumerate().skip(1) {
        if deep_totals[0] > *total {
            failures.push(format!(
                "ordering {i} visited fewer nodes in total: {total}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
