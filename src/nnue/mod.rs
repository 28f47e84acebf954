//! The neural network evaluation (NNUE): (768 → HIDDEN) × 2 → 1, trained from
//! Tabas's own games by `tabas train` (`src/tools/train/`).
//!
//! * Inputs: one feature per (piece colour relative to the perspective, role,
//!   square), the squares mirrored vertically for Black's perspective ([`feature`]).
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

use crate::score::Score;
use crate::special_moves::{castling_destinations, en_passant_victim};
use shakmaty::{Board, Color, Move, Piece, Role, Square};
use std::sync::OnceLock;

pub mod bare_king;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stack;

pub use stack::AccumulatorStack;

/// Neurons in the hidden layer, per perspective (the file must match).
pub const HIDDEN: usize = 256;
/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden-layer quantisation: a weight of 1.0 is stored as 255.
pub const QA: i32 = 255;
/// Output-layer quantisation: a weight of 1.0 is stored as 64.
pub const QB: i32 = 64;
/// The network's output unit, in centipawns.
pub const SCALE: i32 = 400;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TABASNN2";
/// The most output buckets a file may hold.
pub const MAX_OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included) when the
/// net has `buckets` of them: equal slices of 2..=32 pieces, the fewest first.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(2, 32) - 2) * buckets / 31
}

/// The largest hidden weight or bias a file may hold: a bias plus 32 pieces'
/// weights then stays within `i16`, so an accumulator cannot overflow.
const MAX_HIDDEN_WEIGHT: i32 = i16::MAX as i32 / 33;
/// The largest output weight: `clamp(acc) * weight` then fits in `i16`, the
/// product the evaluation takes before widening (see [`Network::evaluate`]).
const MAX_OUTPUT_WEIGHT: i32 = i16::MAX as i32 / QA;
/// The largest sum of one output bucket's weights' magnitudes (both halves): the
/// output sum, Σ clamp(acc)² · weight, and every partial sum of it, are then at most
/// QA² times this, within `i32`. Checked per file: every weight at its bound fits
/// only up to 128 hidden units, while trained nets stay far below it (about a tenth
/// for the nets of docs/network/), so a build with more units (`HIDDEN`) loads them.
const MAX_OUTPUT_WEIGHT_SUM: i64 = i32::MAX as i64 / (QA as i64 * QA as i64);
/// Evaluations are kept inside this, well short of tablebase and mate scores.
pub const MAX_EVAL: Score = 20_000;

/// A trained network, in the integers the engine computes with.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// `feature_weights[f][h]`: feature `f`'s weight into neuron `h`.
    feature_weights: Vec<[i16; HIDDEN]>,
    feature_bias: [i16; HIDDEN],
    /// Per output bucket: the side to move's half, then the other side's.
    output_weights: Vec<[[i16; HIDDEN]; 2]>,
    /// Per output bucket, scaled by `QA · QB`.
    output_bias: Vec<i32>,
}

/// The hidden layer's sums of one position, for White's and Black's view
/// (indexed by `Color as usize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    halves: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            halves: [[0; HIDDEN]; 2],
        }
    }
}

/// The input feature of `piece` on `square`, seen from `perspective`'s side:
/// own pieces first, and the board turned so that each side plays "up".
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    feature_from_codes(
        perspective == Color::Black,
        piece.color == Color::Black,
        piece.role as usize,
        square as usize,
    )
}

/// [`feature`] on plain numbers (`role` 1..=6 as `Role`, `square` 0..64 as
/// `Square`), for the trainer's packed positions. The one definition of the
/// inputs, shared by the engine and `src/tools/train/`.
#[inline]
pub fn feature_from_codes(
    black_view: bool,
    black_piece: bool,
    role: usize,
    square: usize,
) -> usize {
    let relative = if black_view == black_piece {
        0
    } else {
        INPUTS / 2
    };
    let square = if black_view { square ^ 56 } else { square };
    relative + (role - 1) * 64 + square
}

/// The pieces a move takes off and puts on the board, found before it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    removed: [(Piece, Square); 2],
    added: [(Piece, Square); 2],
    /// How many of `removed` (1 or 2) and `added` (1 or 2) are used.
    removed_len: u8,
    added_len: u8,
}

impl Delta {
    /// Nothing changes (a null move).
    pub const NONE: Delta = Delta {
        removed: [(
            Piece {
                color: Color::White,
                role: Role::King,
            },
            Square::A1,
        ); 2],
        added: [(
            Piece {
                color: Color::White,
                role: Role::King,
            },
            Square::A1,
        ); 2],
        removed_len: 0,
        added_len: 0,
    };

    /// What the legal move `m` changes, where `us` is to move.
    pub fn of(us: Color, m: Move) -> Delta {
        let piece = |role| Piece { color: us, role };
        let none = (piece(Role::King), Square::A1);
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let moved = (piece(role), from);
                let landed = (piece(promotion.unwrap_or(role)), to);
                match capture {
                    Some(taken) => Delta {
                        removed: [
                            moved,
                            (
                                Piece {
                                    color: !us,
                                    role: taken,
                                },
                                to,
                            ),
                        ],
                        added: [landed, none],
                        removed_len: 2,
                        added_len: 1,
                    },
                    None => Delta {
                        removed: [moved, none],
                        added: [landed, none],
                        removed_len: 1,
                        added_len: 1,
                    },
                }
            }
            Move::EnPassant { from, to } => {
                let pawn = piece(Role::Pawn);
                let taken = en_passant_victim(from, to);
                Delta {
                    removed: [
                        (pawn, from),
                        (
                            Piece {
                                color: !us,
                                role: Role::Pawn,
                            },
                            taken,
                        ),
                    ],
                    added: [(pawn, to), none],
                    removed_len: 2,
                    added_len: 1,
                }
            }
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castling_destinations(us, king, rook);
                Delta {
                    removed: [(piece(Role::King), king), (piece(Role::Rook), rook)],
                    added: [(piece(Role::King), king_to), (piece(Role::Rook), rook_to)],
                    removed_len: 2,
                    added_len: 2,
                }
            }
            Move::Put { role, to } => {
                debug_assert!(false, "no drops in chess");
                Delta {
                    removed: [none, none],
                    added: [(piece(role), to), none],
                    removed_len: 0,
                    added_len: 1,
                }
            }
        }
    }
}

impl Network {
    /// The accumulator of `board`, summed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            halves: [self.feature_bias; 2],
        };
        for (square, piece) in board {
            for perspective in Color::ALL {
                let column = &self.feature_weights[feature(perspective, piece, square)];
                for (a, w) in acc.halves[perspective as usize].iter_mut().zip(column) {
                    *a += w;
                }
            }
        }
        acc
    }

    /// The accumulator after a move that changes `delta`, from the one before.
    #[cfg(test)]
    pub fn update(&self, before: &Accumulator, delta: &Delta) -> Accumulator {
        let mut after = Accumulator::default();
        self.update_into(before, delta, &mut after);
        after
    }

    /// `after` becomes the accumulator after a move that changes `delta`, from the one
    /// before (written in place: no accumulator is built and then copied).
    #[inline]
    pub fn update_into(&self, before: &Accumulator, delta: &Delta, after: &mut Accumulator) {
        // The default x86-64 target stops at SSE2 (8 lanes of i16 a vector);
        // where the CPU has AVX2, the sums are done 16 lanes at a time.
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU was found to support AVX2.
            return unsafe { self.update_avx2(before, delta, after) };
        }
        self.update_portable(before, delta, after)
    }

    /// [`Network::update_into`] for any CPU, and the reference for the AVX2 version.
    #[inline(always)]
    fn update_portable(&self, before: &Accumulator, delta: &Delta, after: &mut Accumulator) {
        for perspective in Color::ALL {
            let column = |(piece, square): (Piece, Square)| -> &[i16; HIDDEN] {
                &self.feature_weights[feature(perspective, piece, square)]
            };
            let old = &before.halves[perspective as usize];
            let new = &mut after.halves[perspective as usize];
            let add = column(delta.added[0]);
            let sub = column(delta.removed[0]);
            // One pass per shape, so that each loop is a straight vector sum.
            match (delta.added_len, delta.removed_len) {
                (1, 1) => {
                    for h in 0..HIDDEN {
                        new[h] = old[h] + add[h] - sub[h];
                    }
                }
                (1, 2) => {
                    let sub2 = column(delta.removed[1]);
                    for h in 0..HIDDEN {
                        new[h] = old[h] + add[h] - sub[h] - sub2[h];
                    }
                }
                (2, 2) => {
                    let (add2, sub2) = (column(delta.added[1]), column(delta.removed[1]));
                    for h in 0..HIDDEN {
                        new[h] = old[h] + add[h] + add2[h] - sub[h] - sub2[h];
                    }
                }
                _ => {
                    *new = *old;
                    for &a in &delta.added[..delta.added_len as usize] {
                        for (n, w) in new.iter_mut().zip(column(a)) {
                            *n += w;
                        }
                    }
                    for &r in &delta.removed[..delta.removed_len as usize] {
                        for (n, w) in new.iter_mut().zip(column(r)) {
                            *n -= w;
                        }
                    }
                }
            }
        }
    }

    /// The engine's evaluation of `board` in centipawns for `to_move`, from its
    /// accumulator: the network's, with `bare_king`'s gradient where it applies.
    #[inline]
    pub fn score(&self, acc: &Accumulator, board: &Board, to_move: Color) -> Score {
        let network = self.evaluate(acc, to_move, board.occupied().count());
        bare_king::adjust(board, to_move, network)
    }

    /// The network's evaluation in centipawns for `to_move`, from the position's
    /// accumulator and its number of pieces.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, to_move: Color, pieces: usize) -> Score {
        let bucket = output_bucket(pieces, self.output_bias.len());
        let halves = [
            &acc.halves[to_move as usize],
            &acc.halves[(!to_move) as usize],
        ];
        let weights = &self.output_weights[bucket];
        // Left to itself, the compiler does this with 128-bit vectors even when
        // AVX2 is enabled: the AVX2 version is written with intrinsics.
        #[cfg(target_arch = "x86_64")]
        let sum = if has_avx2() {
            // SAFETY: the CPU was found to support AVX2.
            unsafe { simd::screlu_sum(halves, weights) }
        } else {
            screlu_sum(halves, weights)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let sum = screlu_sum(halves, weights);
        let out = sum / QA + self.output_bias[bucket];
        // In i64: `out` may be as large as the loader's bounds allow (a file's
        // extreme output bias, or every weight at its bound), and × SCALE would
        // overflow i32 there.
        ((out as i64 * SCALE as i64) / (QA * QB) as i64).clamp(-MAX_EVAL as i64, MAX_EVAL as i64)
            as Score
    }

    /// Reads a network file (`src/tools/train/`'s format); an error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut reader = Reader { bytes, at: 0 };
        let magic = reader.take(MAGIC.len())?;
        if magic == b"TABASNN1" {
            return Err(
                "an older network format (TABASNN1, before output buckets): train it again"
                    .to_string(),
            );
        }
        if magic != MAGIC {
            return Err("not a Tabas network file (bad magic)".to_string());
        }
        let hidden = reader.u32()?;
        if hidden as usize != HIDDEN {
            return Err(format!(
                "the network has {hidden} hidden neurons; this build takes {HIDDEN}"
            ));
        }
        for (name, expected) in [("QA", QA), ("QB", QB), ("SCALE", SCALE)] {
            let found = reader.u32()?;
            if found != expected as u32 {
                return Err(format!("the network's {name} is {found}, not {expected}"));
            }
        }
        let buckets = reader.u32()? as usize;
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(format!(
                "the network has {buckets} output buckets, not 1..={MAX_OUTPUT_BUCKETS}"
            ));
        }
        let bounded = |name: &str, max: i32, v: i16| -> Result<i16, String> {
            if (v as i32).abs() > max {
                Err(format!("a {name} of {v} is beyond ±{max}"))
            } else {
                Ok(v)
            }
        };
        let mut feature_weights = vec![[0i16; HIDDEN]; INPUTS];
        for column in &mut feature_weights {
            for w in column.iter_mut() {
                *w = bounded("hidden weight", MAX_HIDDEN_WEIGHT, reader.i16()?)?;
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for b in &mut feature_bias {
            *b = bounded("hidden bias", MAX_HIDDEN_WEIGHT, reader.i16()?)?;
        }
        let mut output_weights = vec![[[0i16; HIDDEN]; 2]; buckets];
        for half in output_weights.iter_mut().flatten() {
            for w in half.iter_mut() {
                *w = bounded("output weight", MAX_OUTPUT_WEIGHT, reader.i16()?)?;
            }
        }
        for (k, bucket) in output_weights.iter().enumerate() {
            check_output_bucket(k, bucket.iter().flatten())?;
        }
        let mut output_bias = vec![0; buckets];
        for bias in &mut output_bias {
            *bias = reader.i32()?;
            // (Bounded so that `sum / QA + bias` cannot overflow.)
            if bias.abs() > i32::MAX / 4 {
                return Err(format!("an output bias of {bias} is out of range"));
            }
        }
        if reader.at != bytes.len() {
            return Err(format!(
                "{} bytes after the network's end",
                bytes.len() - reader.at
            ));
        }
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }
}

/// Refuses output bucket `k` when its weights' magnitudes add up to more than
/// `MAX_OUTPUT_WEIGHT_SUM` (its output sum could overflow `i32`).
fn check_output_bucket<'a>(k: usize, weights: impl Iterator<Item = &'a i16>) -> Result<(), String> {
    let sum: i64 = weights.map(|&w| (w as i64).abs()).sum();
    if sum > MAX_OUTPUT_WEIGHT_SUM {
        return Err(format!(
            "output bucket {k}'s weights add up to {sum} in magnitude, beyond \
             {MAX_OUTPUT_WEIGHT_SUM}: its sum could overflow"
        ));
    }
    Ok(())
}

/// The output layer's weighted sum before the bias: SCReLU of each neuron of
/// `halves` (the side to move's, then the other's) times its weight in `weights`.
/// For any CPU, and the reference for the AVX2 version.
#[inline(always)]
fn screlu_sum(halves: [&[i16; HIDDEN]; 2], weights: &[[i16; HIDDEN]; 2]) -> i32 {
    let mut sum: i32 = 0;
    for (half, weights) in halves.into_iter().zip(weights) {
        for (&a, &w) in half.iter().zip(weights) {
            // SCReLU: clamp(a)² · w, as (clamp(a) · w) · clamp(a). The first
            // product fits in i16 (the loader bounds w), the second is widened.
            let c = a.clamp(0, QA as i16);
            sum += (c * w) as i32 * c as i32;
        }
    }
    sum
}

/// Whether the CPU has AVX2. `is_x86_feature_detected!` keeps its answer in a
/// static after the first call: each call is a load and a bit test (and a
/// constant `true` in a build for a CPU with AVX2, `make native`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Little-endian numbers from a byte slice, with an error at its end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or_else(|| format!("the network file ends early (at byte {})", self.at))?;
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn i16(&mut self) -> Result<i16, String> {
        Ok(i16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }
}

/// Loads a network file and keeps it for the rest of the process (boards point
/// at their network; a GUI loads a net a handful of times at most).
pub fn load_file(path: &str) -> Result<&'static Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("'{path}': {e}"))?;
    Ok(Box::leak(Box::new(net)))
}

/// The network built into the binary, if this build has one.
pub fn embedded() -> Option<&'static Network> {
    static EMBEDDED: OnceLock<Option<Network>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            EMBEDDED_BYTES.map(|bytes| {
                Network::from_bytes(bytes).expect("the embedded network is checked by a test")
            })
        })
        .as_ref()
}

/// The built-in network's name, as the `EvalFile` option shows it: `tabas-` and 32 bits
/// of a hash (FNV-1a) of its file, so that the name changes with the network, as
/// Stockfish's `nn-….nnue` does. No file of that name is read: the name stands for the
/// network inside the binary. `None` in a build without one.
pub fn embedded_name() -> Option<&'static str> {
    static NAME: OnceLock<Option<String>> = OnceLock::new();
    NAME.get_or_init(|| {
        EMBEDDED_BYTES.map(|bytes| {
            let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
            format!("tabas-{:08x}.nnue", hash >> 32)
        })
    })
    .as_deref()
}

/// The default network's file, in the binary: how it was made is in docs/network/
/// ("The network"). `None` here builds an engine without one (the hand-written
/// evaluation plays, and `Use NNUE` starts false).
#[cfg(not(tabas_evalfile))]
const EMBEDDED_BYTES: Option<&[u8]> = Some(include_bytes!("default.nnue"));
/// A build with `TABAS_EVALFILE` set (`make EVALFILE=…`, see `build.rs`) embeds that
/// file instead; the Makefile checks that this engine loads it before building.
#[cfg(tabas_evalfile)]
const EMBEDDED_BYTES: Option<&[u8]> = Some(include_bytes!(env!("TABAS_EVALFILE_PATH")));

/// The embedded file's hidden size (the little-endian `u32` after the magic) is the
/// build's `HIDDEN`, checked when compiling: a build with another width and the old
/// file fails here, not with a panic at every start.
const _: () = if let Some(bytes) = EMBEDDED_BYTES {
    let offset = MAGIC.len();
    assert!(
        bytes.len() >= offset + 4
            && u32::from_le_bytes([
                bytes[offset],
                bytes[offset + 1],
                bytes[offset + 2],
                bytes[offset + 3],
            ]) as usize
                == HIDDEN,
        "the embedded network's hidden size is not HIDDEN (src/nnue/mod.rs)"
    );
};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::position::{Board, parse_fen};
    use crate::rng::Rng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, Position as _};

    /// Output buckets of the test networks.
    const TEST_BUCKETS: usize = 8;
    /// The header: magic, hidden size, QA, QB, SCALE, buckets.
    const HEADER: usize = MAGIC.len() + 5 * 4;

    /// A network file with seeded random weights inside the loader's bounds.
    pub(crate) fn random_network_bytes(seed: u64) -> Vec<u8> {
        let mut rng = Rng::new(seed, 0);
        let mut draw = |max: i32| rng.below(2 * max as u64 + 1) as i32 - max;
        let mut bytes = MAGIC.to_vec();
        for n in [
            HIDDEN,
            QA as usize,
            QB as usize,
            SCALE as usize,
            TEST_BUCKETS,
        ] {
            let n = n as u32;
            bytes.extend_from_slice(&n.to_le_bytes());
        }
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
        Box::leak(Box::new(
            Network::from_bytes(&random_network_bytes(seed)).unwrap(),
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
            stack.push_move(ply + 1, board.turn(), m);
            n += walk(&board.play(m), net, stack, ply + 1, depth - 1);
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
        let net = random_network(1);
        let mut boards = 0;
        for pos in crate::position::perft_suite_positions(40) {
            let mut stack = AccumulatorStack::default();
            stack.set_root(net, pos.board());
            boards += walk(&Board::with_network(pos, Some(net)), net, &mut stack, 0, 2);
        }
        // Castling (both modes), en passant, promotions and captures all occur there.
        assert!(boards > 20_000, "only {boards} boards");
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
    fn feature_indices_by_hand() {
        use Color::{Black, White};
        let f = |view, color, role, square| feature(view, Piece { color, role }, square);
        // White's view: own pieces first, squares as they are.
        assert_eq!(f(White, White, Role::Pawn, Square::E2), 12);
        assert_eq!(f(White, White, Role::Knight, Square::G1), 64 + 6);
        assert_eq!(f(White, Black, Role::King, Square::E8), 384 + 5 * 64 + 60);
        // Black's view: Black's pieces are its own, the board is flipped (e8 → e1).
        assert_eq!(f(Black, Black, Role::King, Square::E8), 5 * 64 + 4);
        assert_eq!(f(Black, White, Role::Knight, Square::G1), 384 + 64 + 62);
        assert_eq!(f(Black, Black, Role::Queen, Square::A1), 4 * 64 + 56);
        // Every feature is used once: 2 colours × 6 roles × 64 squares, either view.
        for view in [White, Black] {
            let mut seen = vec![false; INPUTS];
            for color in [White, Black] {
                for role in Role::ALL {
                    for square in Square::ALL {
                        let i = f(view, color, role, square);
                        assert!(!seen[i], "{i}");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
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
        let king_e1 = feature(Color::White, Color::White.king(), Square::E1);
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
    fn bad_files_are_refused_with_a_reason() {
        let good = random_network_bytes(4);
        assert!(Network::from_bytes(&good).is_ok());
        let refused = |bytes: &[u8], why: &str| {
            let e = Network::from_bytes(bytes).unwrap_err();
            assert!(e.contains(why), "{e}");
        };
        refused(b"", "ends early");
        refused(b"NOTANETWORKFILE.", "magic");
        refused(&good[..good.len() - 1], "ends early");
        let mut longer = good.clone();
        longer.push(0);
        refused(&longer, "after the network's end");
        let mut wrong_size = good.clone();
        wrong_size[8..12].copy_from_slice(&64u32.to_le_bytes());
        refused(&wrong_size, "hidden neurons");
        let mut wrong_qa = good.clone();
        wrong_qa[12..16].copy_from_slice(&127u32.to_le_bytes());
        refused(&wrong_qa, "QA");
        for buckets in [0u32, 9] {
            let mut wrong_buckets = good.clone();
            wrong_buckets[24..28].copy_from_slice(&buckets.to_le_bytes());
            refused(&wrong_buckets, "output buckets");
        }
        let mut older = good.clone();
        older[..8].copy_from_slice(b"TABASNN1");
        refused(&older, "older network format");
        let mut big_weight = good.clone();
        big_weight[HEADER..HEADER + 2].copy_from_slice(&2000i16.to_le_bytes());
        refused(&big_weight, "hidden weight");
        let mut big_output = good.clone();
        let at = good.len() - 4 * TEST_BUCKETS - 2;
        big_output[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        refused(&big_output, "output weight");
    }

    #[test]
    fn an_output_bucket_whose_sum_could_overflow_is_refused() {
        // Every weight at its bound: within the sum's bound up to 128 units (the
        // built-in size), beyond it from 130 (a build with a larger `HIDDEN`).
        let full = |units: usize| vec![MAX_OUTPUT_WEIGHT as i16; 2 * units];
        assert!(check_output_bucket(0, full(128).iter()).is_ok());
        let e = check_output_bucket(3, full(130).iter()).unwrap_err();
        assert!(
            e.contains("output bucket 3's weights add up to 33280"),
            "{e}"
        );
        let mixed: Vec<i16> = full(130)
            .iter()
            .enumerate()
            .map(|(i, &w)| if i % 2 == 0 { w } else { -w })
            .collect();
        assert!(
            check_output_bucket(3, mixed.iter()).is_err(),
            "magnitudes, not the signed sum"
        );
        // The worst case the check allows does fit in i32.
        assert!(MAX_OUTPUT_WEIGHT_SUM * (QA as i64) * (QA as i64) <= i32::MAX as i64);
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

    #[test]
    fn the_built_in_network_loads_if_there_is_one() {
        assert_eq!(embedded().is_some(), EMBEDDED_BYTES.is_some());
        assert_eq!(embedded_name().is_some(), EMBEDDED_BYTES.is_some());
        if let Some(name) = embedded_name() {
            assert!(
                name.starts_with("tabas-") && name.ends_with(".nnue") && name.len() == 19,
                "{name}"
            );
        }
    }

    #[test]
    fn a_missing_file_is_an_error() {
        let e = load_file("/no/such/dir/net.nnue").unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
