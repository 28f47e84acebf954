//! The neural network evaluation (NNUE): (768 → HIDDEN) × 2 → 1, trained from
//! Tabas's own games by `tabas train` (`src/tools/train/`).
//!
//! * Inputs: one feature per (piece colour relative to the perspective, role,
//!   square), the squares mirrored vertically for Black's perspective ([`feature`]);
//!   for a king-mirrored net also left to right when the perspective's own king
//!   stands on files e–h ([`InputLayout`], which the file names).
//! * Hidden layer: one weight matrix shared by both perspectives. Each position
//!   has the layer's sums for White's and Black's view (its [`Accumulator`]); the
//!   search keeps them along its path ([`AccumulatorStack`]), updated from the
//!   parent's when a position is evaluated: a move changes two to four features.
//! * Output: SCReLU (clamp to [0, 1], squared) of the side to move's half then
//!   the other half, one weighted sum, times 400 for centipawns. The output layer
//!   has one set of weights per bucket of material ([`output_bucket`]): an
//!   endgame's units mean something else than an opening's.
//!
//! Integers throughout: hidden weights scaled by `QA`, output weights by `QB`.
//! The file format is `src/tools/train/`'s contract (its round trip, a trained net
//! evaluating here as the trainer says, is tested there); [`Network::from_bytes`]
//! checks every number that the integer arithmetic depends on.
//!
//! The module's files, one concern each:
//! * `mod.rs` (here): the sizes and scales, the `Network` and its `Accumulator`;
//! * `features.rs`: the inputs (which feature a piece on a square is) and what a
//!   move changes (`Delta`);
//! * `inference.rs`: the sums (from scratch and after a move) and the output;
//! * `simd.rs`: the same sums with AVX2, where the CPU has it;
//! * `stack.rs`: the sums along the search's path (`AccumulatorStack`);
//! * `file.rs`: the file format, its loader and its checks (`Network::from_bytes`);
//! * `embedded.rs`: the network built into the binary and its name;
//! * `bare_king.rs`: the gradient added where one side has only its king.

use crate::score::Score;

pub mod bare_king;
mod embedded;
mod features;
mod file;
mod inference;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stack;

pub use embedded::{embedded, embedded_name};
pub use features::{Delta, InputLayout, feature, feature_from_codes, mirror_feature};
pub use file::{Header, MAGIC, MAGIC_PLAIN_ONLY, MAX_OUTPUT_BUCKETS, load_file};
#[cfg(test)]
use file::{MAX_HIDDEN_WEIGHT, MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT_SUM};
#[cfg(all(test, target_arch = "x86_64"))]
use inference::screlu_sum;
pub use stack::AccumulatorStack;

/// Neurons in the hidden layer, per perspective (the file must match).
pub const HIDDEN: usize = 384;
/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden-layer quantisation: a weight of 1.0 is stored as 255.
pub const QA: i32 = 255;
/// Output-layer quantisation: a weight of 1.0 is stored as 64.
pub const QB: i32 = 64;
/// The network's output unit, in centipawns.
pub const SCALE: i32 = 400;

/// The output bucket of a position with `pieces` pieces (kings included) when the
/// net has `buckets` of them: equal slices of 2..=32 pieces, the fewest first.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(2, 32) - 2) * buckets / 31
}

/// Evaluations are kept inside this, well short of tablebase and mate scores.
pub const MAX_EVAL: Score = 20_000;

/// A trained network, in the integers the engine computes with.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// How it reads the board.
    layout: InputLayout,
    /// `feature_weights[f][h]`: feature `f`'s weight into neuron `h`.
    feature_weights: Vec<[i16; HIDDEN]>,
    feature_bias: [i16; HIDDEN],
    /// Per output bucket: the side to move's half, then the other side's.
    output_weights: Vec<[[i16; HIDDEN]; 2]>,
    /// Per output bucket, scaled by `QA · QB`.
    output_bias: Vec<i32>,
}

impl Network {
    /// How the network reads the board (its file says).
    pub fn layout(&self) -> InputLayout {
        self.layout
    }

    /// How many output buckets the file has (1..=`MAX_OUTPUT_BUCKETS`).
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }
}

/// The hidden layer's sums of one position, for White's and Black's view
/// (indexed by `Color as usize`), and whether each view is mirrored
/// ([`InputLayout::KingMirrored`]; never for a plain net).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    halves: [[i16; HIDDEN]; 2],
    mirrored: [bool; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            halves: [[0; HIDDEN]; 2],
            mirrored: [false; 2],
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::position::{Board, parse_fen};
    use crate::rng::Rng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, Position as _};
    use shakmaty::{Color, Square};

    /// Output buckets of the test networks.
    pub(super) const TEST_BUCKETS: usize = 8;
    /// The header: magic, hidden size, QA, QB, SCALE, buckets, layout.
    pub(super) const HEADER: usize = MAGIC.len() + 6 * 4;

    /// A network file with seeded random weights inside the loader's bounds.
    pub(crate) fn random_network_bytes(seed: u64) -> Vec<u8> {
        random_network_bytes_in(seed, InputLayout::Plain)
    }

    /// [`random_network_bytes`] for a net of input layout `layout`.
    pub(crate) fn random_network_bytes_in(seed: u64, layout: InputLayout) -> Vec<u8> {
        let mut rng = Rng::new(seed, 0);
        let mut draw = |max: i32| rng.below(2 * max as u64 + 1) as i32 - max;
        let mut bytes = Header::new(HIDDEN, layout, TEST_BUCKETS).to_bytes();
        assert_eq!(bytes.len(), HEADER);
        for _ in 0..INPUTS * HIDDEN {
            bytes.extend_from_slice(&(draw(60) as i16).to_le_bytes());
        }
        for _ in 0..HIDDEN {
            bytes.extend_from_slice(&(draw(60) as i16 + 60).to_le_bytes());
        }
        // At most the bound, and small enough for a bucket's sum to pass for any
        // `HIDDEN` (the same draws as ever at 128 units).
        let output_max =
            MAX_OUTPUT_WEIGHT.min((MAX_OUTPUT_WEIGHT_SUM / (2 * HIDDEN as i64)) as i32);
        for _ in 0..TEST_BUCKETS * 2 * HIDDEN {
            bytes.extend_from_slice(&(draw(output_max) as i16).to_le_bytes());
        }
        for _ in 0..TEST_BUCKETS {
            bytes.extend_from_slice(&(draw(5000)).to_le_bytes());
        }
        bytes
    }

    fn random_network(seed: u64) -> &'static Network {
        random_network_in(seed, InputLayout::Plain)
    }

    fn random_network_in(seed: u64, layout: InputLayout) -> &'static Network {
        Box::leak(Box::new(
            Network::from_bytes(&random_network_bytes_in(seed, layout)).unwrap(),
        ))
    }

    /// Every board `depth` plies below `board` (at `ply` of `stack`'s path) gets
    /// from the stack the sums a refresh gives: evaluated in a varying order (some
    /// boards only after their children, some never), as the search does.
    fn walk(
        board: &Board,
        net: &Network,
        stack: &mut AccumulatorStack,
        ply: usize,
        depth: u32,
    ) -> u64 {
        let check = |stack: &mut AccumulatorStack| {
            assert_eq!(
                stack.get(net, ply),
                &net.refresh(board.chess().board()),
                "{}",
                Fen::from_position(board.chess(), EnPassantMode::Legal)
            );
        };
        let early = board.key().is_multiple_of(3);
        if early || depth == 0 {
            check(stack);
        }
        if depth == 0 {
            return 1;
        }
        let mut n = 1;
        for m in board.chess().legal_moves() {
            let child = board.play(m);
            stack.push_move(ply + 1, board.turn(), m, net, child.chess().board());
            n += walk(&child, net, stack, ply + 1, depth - 1);
        }
        if let Some(null) = board.play_null() {
            stack.push_null(ply + 1);
            n += walk(&null, net, stack, ply + 1, depth.min(1) - 1);
        }
        if board.key() % 3 == 1 {
            check(stack);
        }
        n
    }
    #[test]
    fn incremental_updates_match_a_refresh() {
        for layout in InputLayout::ALL {
            let net = random_network_in(1, layout);
            let mut boards = 0;
            for pos in crate::position::perft_suite_positions(40) {
                let mut stack = AccumulatorStack::default();
                stack.set_root(net, pos.board());
                boards += walk(&Board::with_network(pos, Some(net)), net, &mut stack, 0, 2);
            }
            // Castling (both modes), en passant, promotions, captures and kings
            // crossing between the d- and e-files all occur there.
            assert!(boards > 20_000, "only {boards} boards");
        }
    }

    #[test]
    fn a_king_mirrored_net_sees_a_position_as_its_mirror_image() {
        // A king-mirrored net evaluates a position without castling rights and its
        // mirror image (files a↔h) exactly alike: every view is mirrored to the
        // same king-on-a–d board. A plain net does not (its weights are random).
        let (mirrored, plain) = (
            random_network_in(7, InputLayout::KingMirrored),
            random_network_in(7, InputLayout::Plain),
        );
        let mut plain_differs = false;
        for p in crate::eval::tests::sample_positions() {
            if p.castles().any() {
                continue;
            }
            let image = crate::position::horizontal_mirror(&p);
            let eval =
                |net, pos: &shakmaty::Chess| Board::with_network(pos.clone(), Some(net)).evaluate();
            assert_eq!(
                eval(mirrored, &p),
                eval(mirrored, &image),
                "{}",
                Fen::from_position(&p, EnPassantMode::Legal)
            );
            plain_differs |= eval(plain, &p) != eval(plain, &image);
        }
        assert!(plain_differs);
    }

    #[test]
    fn mirrored_positions_evaluate_the_same() {
        let net = random_network(2);
        for p in crate::eval::tests::sample_positions() {
            let m = crate::position::mirrored(&p);
            let a = Board::with_network(p.clone(), Some(net)).evaluate();
            let b = Board::with_network(m, Some(net)).evaluate();
            assert_eq!(a, b, "{}", Fen::from_position(&p, EnPassantMode::Legal));
        }
    }

    #[test]
    fn evaluation_by_hand_on_a_small_case() {
        // Only neuron 0 is used: one white king's weight and the output weights.
        let mut bytes = random_network_bytes(3);
        bytes[HEADER..].fill(0);
        let put = |bytes: &mut Vec<u8>, at: usize, v: i16| {
            bytes[at..at + 2].copy_from_slice(&v.to_le_bytes())
        };
        let king_e1 = feature(Color::White, Color::White.king(), Square::E1, false);
        put(&mut bytes, HEADER + 2 * (king_e1 * HIDDEN), 200);
        let outputs = HEADER + 2 * (INPUTS * HIDDEN + HIDDEN);
        // Bucket 0 (2 to 5 pieces) and bucket 7 (30 to 32 pieces), unit 0 of the
        // side to move's half.
        put(&mut bytes, outputs, 100);
        put(&mut bytes, outputs + 2 * (7 * 2 * HIDDEN), -50);
        let net = Network::from_bytes(&bytes).unwrap();
        // (The black king on d8: on e8 it would be Black's own "king on e1".)
        let pos = parse_fen("3k4/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
        let acc = net.refresh(pos.board());
        // White to move: 200² · 100 / QA = 15686 (truncated), · 400 / (QA · QB).
        assert_eq!(
            net.evaluate(&acc, Color::White, 2),
            15686 * 400 / (255 * 64)
        );
        // The same sums read through bucket 7's weights: −50 instead of 100.
        assert_eq!(
            net.evaluate(&acc, Color::White, 32),
            -(15686 / 2) * 400 / (255 * 64)
        );
        // Buckets 1 to 6 have no weights: zero.
        assert_eq!(net.evaluate(&acc, Color::White, 16), 0);
        // Black to move: Black's half holds the black king, whose feature is unset.
        assert_eq!(net.evaluate(&acc, Color::Black, 2), 0);
    }

    #[test]
    fn output_buckets_split_the_material_evenly() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 1), 0);
        let eight: Vec<usize> = (0..=32).map(|p| output_bucket(p, 8)).collect();
        // 0 to 5 pieces, then about four pieces a bucket, 30 to 32 pieces last.
        assert_eq!(&eight[..6], &[0; 6]);
        assert_eq!((eight[6], eight[29], eight[30], eight[32]), (1, 6, 7, 7));
        assert!(eight.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            assert_eq!(output_bucket(40, buckets), buckets - 1);
        }
    }

    #[test]
    fn extreme_output_biases_evaluate_without_overflow() {
        // The largest bias the loader takes: the evaluation saturates at ±MAX_EVAL
        // (a panic in a build with overflow checks, a wrapped score without).
        let board = Board::new(shakmaty::Chess::default());
        for (bias, expected) in [(i32::MAX / 4, MAX_EVAL), (-(i32::MAX / 4), -MAX_EVAL)] {
            let mut bytes = random_network_bytes(6);
            for k in 0..TEST_BUCKETS {
                let at = bytes.len() - 4 * (TEST_BUCKETS - k);
                bytes[at..at + 4].copy_from_slice(&bias.to_le_bytes());
            }
            let net = Network::from_bytes(&bytes).unwrap();
            let acc = net.refresh(board.chess().board());
            assert_eq!(
                net.evaluate(&acc, Color::White, 32),
                expected,
                "bias {bias}"
            );
        }
    }
}
