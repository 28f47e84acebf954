//! The network's arithmetic: the hidden layer's sums of a position from scratch
//! (`refresh`) and after a move (`update_into`, AVX2 where the CPU has it), and the
//! output layer's evaluation (SCReLU, one weighted sum per output bucket).

#[cfg(target_arch = "x86_64")]
use super::simd;
use super::{Accumulator, Delta, HIDDEN, MAX_EVAL, Network, QA, QB, SCALE};
use super::{bare_king, feature, output_bucket};
use crate::score::Score;
use shakmaty::{Board, Color, Piece, Square};

impl Network {
    /// The accumulator of `board`, summed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        // Indexed by `Color as usize`, as the halves are.
        let mut mirrored = [false; 2];
        for c in Color::ALL {
            mirrored[c as usize] = self.layout.mirrors(board.king_of(c));
        }
        let mut acc = Accumulator {
            halves: [self.feature_bias; 2],
            mirrored,
        };
        for (square, piece) in board {
            for perspective in Color::ALL {
                let mirror = mirrored[perspective as usize];
                let column = &self.feature_weights[feature(perspective, piece, square, mirror)];
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
    /// before (written in place: no accumulator is built and then copied). Each view
    /// stays as mirrored as it was: a king move that changes that is refreshed
    /// instead (`AccumulatorStack`).
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
    pub(super) fn update_portable(
        &self,
        before: &Accumulator,
        delta: &Delta,
        after: &mut Accumulator,
    ) {
        after.mirrored = before.mirrored;
        for perspective in Color::ALL {
            let mirror = before.mirrored[perspective as usize];
            let column = |(piece, square): (Piece, Square)| -> &[i16; HIDDEN] {
                &self.feature_weights[feature(perspective, piece, square, mirror)]
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
        let bucket = output_bucket(pieces, self.output_buckets());
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
}

/// The output layer's weighted sum before the bias: SCReLU of each neuron of
/// `halves` (the side to move's, then the other's) times its weight in `weights`.
/// For any CPU, and the reference for the AVX2 version.
#[inline(always)]
pub(super) fn screlu_sum(halves: [&[i16; HIDDEN]; 2], weights: &[[i16; HIDDEN]; 2]) -> i32 {
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
