//! AVX2 versions of the network's hot loops: [`Network::update`] and the output
//! layer's sum in [`Network::evaluate`]. The callers in `mod.rs` take them where
//! the CPU has AVX2, so the default binary stays portable across x86-64 CPUs.
//!
//! They must give the portable code's results bit for bit (the search depends on
//! every centipawn): the tests below compare the two on random and extreme inputs.
//! All sums are in wrapping integer arithmetic, like the portable code in a
//! release build, and the loader's bounds keep them from wrapping at all.

use super::{Accumulator, Delta, HIDDEN, Network, QA, feature};
use shakmaty::{Color, Piece, Square};
use std::arch::x86_64::*;

/// i16 lanes in a 256-bit vector.
const LANES: usize = 16;
/// Vectors in one half of an accumulator.
const VECTORS: usize = HIDDEN / LANES;
const _: () = assert!(HIDDEN.is_multiple_of(LANES));

/// One half of an accumulator, or one column of weights.
type Column = [i16; HIDDEN];

/// `column` as its 256-bit pieces.
#[inline(always)]
fn pieces(column: &Column) -> &[[i16; LANES]; VECTORS] {
    column
        .as_chunks::<LANES>()
        .0
        .try_into()
        .expect("HIDDEN / LANES pieces")
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(lanes: &[i16; LANES]) -> __m256i {
    // SAFETY: `lanes` is 32 readable bytes, and `loadu` takes any alignment.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(lanes: &mut [i16; LANES], v: __m256i) {
    // SAFETY: `lanes` is 32 writable bytes, and `storeu` takes any alignment.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) }
}

/// `new = old + Σ added − Σ removed`, lane by lane (i16, wrapping), one vector at a
/// time: a vector is loaded, summed and stored before the next, so that no sum waits
/// in memory (a half of 16 vectors, held whole, would fill every AVX2 register and
/// spill). The shapes of ordinary moves, captures and castling each get a loop of
/// their own, without the column count in it.
#[inline]
#[target_feature(enable = "avx2")]
fn add_sub(old: &Column, added: &[&Column], removed: &[&Column], new: &mut Column) {
    let old = pieces(old);
    let (new, _) = new.as_chunks_mut::<LANES>();
    let add = |s: __m256i, c: &Column, i: usize| _mm256_add_epi16(s, load(&pieces(c)[i]));
    let sub = |s: __m256i, c: &Column, i: usize| _mm256_sub_epi16(s, load(&pieces(c)[i]));
    match (added, removed) {
        ([a], [r]) => {
            for (i, n) in new.iter_mut().enumerate() {
                store(n, sub(add(load(&old[i]), a, i), r, i));
            }
        }
        ([a], [r1, r2]) => {
            for (i, n) in new.iter_mut().enumerate() {
                store(n, sub(sub(add(load(&old[i]), a, i), r1, i), r2, i));
            }
        }
        ([a1, a2], [r1, r2]) => {
            for (i, n) in new.iter_mut().enumerate() {
                store(
                    n,
                    sub(sub(add(add(load(&old[i]), a1, i), a2, i), r1, i), r2, i),
                );
            }
        }
        _ => {
            for (i, n) in new.iter_mut().enumerate() {
                let mut s = load(&old[i]);
                for column in added {
                    s = add(s, column, i);
                }
                for column in removed {
                    s = sub(s, column, i);
                }
                store(n, s);
            }
        }
    }
}

impl Network {
    /// [`Network::update_into`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn update_avx2(&self, before: &Accumulator, delta: &Delta, after: &mut Accumulator) {
        after.mirrored = before.mirrored;
        for perspective in Color::ALL {
            let mirror = before.mirrored[perspective as usize];
            let column = |(piece, square): (Piece, Square)| -> &Column {
                &self.feature_weights[feature(perspective, piece, square, mirror)]
            };
            // (An unused entry of `added` or `removed` is a real piece and square:
            // its column exists, and is left out by the lengths.)
            let added = delta.added.map(column);
            let removed = delta.removed.map(column);
            add_sub(
                &before.halves[perspective as usize],
                &added[..delta.added_len as usize],
                &removed[..delta.removed_len as usize],
                &mut after.halves[perspective as usize],
            );
        }
    }
}

/// [`super::screlu_sum`] with AVX2: 16 neurons at a time, as
/// `madd(mullo(c, w), c)`. `mullo` keeps the low 16 bits of `c · w`, the
/// portable code's i16 product; `madd` widens `(c · w) · c` to i32 and adds
/// neighbouring lanes, exactly (0 ≤ c ≤ 255). Same terms, added in another order: with wrapping
/// (or, within the loader's bounds, no overflow at all) the same sum.
#[target_feature(enable = "avx2")]
pub(super) fn screlu_sum(halves: [&Column; 2], weights: &[Column; 2]) -> i32 {
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (half, weights) in halves.into_iter().zip(weights) {
        for (a, w) in pieces(half).iter().zip(pieces(weights)) {
            let c = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
            let terms = _mm256_madd_epi16(_mm256_mullo_epi16(c, load(w)), c);
            sum = _mm256_add_epi32(sum, terms);
        }
    }
    // The 8 lanes of `sum` into one.
    let four = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let two = _mm_add_epi32(four, _mm_unpackhi_epi64(four, four));
    let one = _mm_add_epi32(two, _mm_shuffle_epi32::<0b01>(two));
    _mm_cvtsi128_si32(one)
}

#[cfg(test)]
mod tests {
    use super::super::{INPUTS, InputLayout, MAX_HIDDEN_WEIGHT, MAX_OUTPUT_WEIGHT};
    use super::*;
    use crate::cpu::avx2_to_test as avx2;
    use crate::rng::Rng;
    use shakmaty::Role;

    /// A number in `-max..=max`, at either end one time in eight.
    fn draw(rng: &mut Rng, max: i32) -> i16 {
        let v = match rng.below(8) {
            0 => max,
            1 => -max,
            _ => rng.below(2 * max as u64 + 1) as i32 - max,
        };
        v as i16
    }

    /// Any i16, with the interesting values of the clamp and of i16 often.
    fn any_i16(rng: &mut Rng) -> i16 {
        const SPECIAL: [i16; 10] = [i16::MIN, i16::MAX, -256, -1, 0, 1, 254, 255, 256, 300];
        match rng.below(4) {
            0 => SPECIAL[rng.below(SPECIAL.len() as u64) as usize],
            1 => rng.below(600) as i16 - 200,
            _ => rng.next_u64() as i16,
        }
    }

    fn column(rng: &mut Rng, mut f: impl FnMut(&mut Rng) -> i16) -> Column {
        std::array::from_fn(|_| f(rng))
    }

    #[test]
    fn the_avx2_output_sum_is_the_portable_one() {
        if !avx2() {
            return;
        }
        let mut rng = Rng::new(11, 0);
        for round in 0..20_000 {
            let mut halves = [column(&mut rng, any_i16), column(&mut rng, any_i16)];
            if round % 10 == 0 {
                // Every neuron at the clamp's top: the largest terms.
                halves = [[i16::MAX; HIDDEN], [QA as i16; HIDDEN]];
            }
            let weights = [
                column(&mut rng, |r| draw(r, MAX_OUTPUT_WEIGHT)),
                column(&mut rng, |r| draw(r, MAX_OUTPUT_WEIGHT)),
            ];
            let halves = [&halves[0], &halves[1]];
            // SAFETY: the CPU was found to support AVX2.
            let fast = unsafe { screlu_sum(halves, &weights) };
            assert_eq!(fast, super::super::screlu_sum(halves, &weights));
        }
    }

    #[test]
    fn the_avx2_output_sum_wraps_as_a_release_build() {
        // Beyond the loader's bounds the portable code would overflow, which a
        // release build wraps: so does the AVX2 code, product and sum alike.
        if !avx2() {
            return;
        }
        let mut rng = Rng::new(12, 0);
        for _ in 0..5_000 {
            let halves = [column(&mut rng, any_i16), column(&mut rng, any_i16)];
            let weights = [column(&mut rng, any_i16), column(&mut rng, any_i16)];
            let mut wrapped: i32 = 0;
            for (half, weights) in halves.iter().zip(&weights) {
                for (&a, &w) in half.iter().zip(weights) {
                    let c = a.clamp(0, QA as i16);
                    wrapped = wrapped.wrapping_add((c.wrapping_mul(w) as i32) * c as i32);
                }
            }
            // SAFETY: the CPU was found to support AVX2.
            let fast = unsafe { screlu_sum([&halves[0], &halves[1]], &weights) };
            assert_eq!(fast, wrapped);
        }
    }

    /// A network whose hidden weights are random up to the loader's bound, the
    /// bound itself often.
    fn extreme_network(seed: u64) -> Network {
        let mut rng = Rng::new(seed, 0);
        Network {
            layout: InputLayout::KingMirrored,
            feature_weights: (0..INPUTS)
                .map(|_| column(&mut rng, |r| draw(r, MAX_HIDDEN_WEIGHT)))
                .collect(),
            feature_bias: [0; HIDDEN],
            output_weights: vec![[[0; HIDDEN]; 2]],
            output_bias: vec![0],
        }
    }

    fn random_delta(rng: &mut Rng) -> Delta {
        let piece_square = |rng: &mut Rng| {
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let role = Role::ALL[rng.below(6) as usize];
            let square = Square::new(rng.below(64) as u32);
            (Piece { color, role }, square)
        };
        // A quiet move, a capture, castling, and a drop (no removed piece).
        let (added_len, removed_len) = [(1, 1), (1, 2), (2, 2), (1, 0)][rng.below(4) as usize];
        Delta {
            added: [piece_square(rng), piece_square(rng)],
            removed: [piece_square(rng), piece_square(rng)],
            added_len,
            removed_len,
        }
    }

    #[test]
    fn the_avx2_update_is_the_portable_one() {
        if !avx2() {
            return;
        }
        let mut rng = Rng::new(13, 0);
        // Room for four weights either way: a move changes at most four columns,
        // and the portable code, overflow-checked in tests, checks every step.
        let bound = i16::MAX as i32 - 4 * MAX_HIDDEN_WEIGHT;
        for seed in 0..4 {
            let net = extreme_network(seed);
            for _ in 0..5_000 {
                let before = Accumulator {
                    halves: [
                        column(&mut rng, |r| draw(r, bound)),
                        column(&mut rng, |r| draw(r, bound)),
                    ],
                    // Mirrored views too (a king-mirrored net's).
                    mirrored: [rng.below(2) == 0, rng.below(2) == 0],
                };
                let delta = random_delta(&mut rng);
                let mut portable = Accumulator::default();
                net.update_portable(&before, &delta, &mut portable);
                let mut fast = Accumulator::default();
                // SAFETY: the CPU was found to support AVX2.
                unsafe { net.update_avx2(&before, &delta, &mut fast) };
                assert_eq!(fast, portable, "{delta:?}");
                assert_eq!(net.update(&before, &delta), portable);
            }
        }
    }

    #[test]
    fn the_avx2_update_wraps_as_a_release_build() {
        if !avx2() {
            return;
        }
        let mut rng = Rng::new(14, 0);
        let mut net = extreme_network(5);
        for column in &mut net.feature_weights {
            *column = [0; HIDDEN].map(|_| rng.next_u64() as i16);
        }
        for _ in 0..5_000 {
            let before = Accumulator {
                halves: [column(&mut rng, any_i16), column(&mut rng, any_i16)],
                mirrored: [rng.below(2) == 0, rng.below(2) == 0],
            };
            let delta = random_delta(&mut rng);
            let mut wrapped = before;
            for perspective in Color::ALL {
                let mirror = before.mirrored[perspective as usize];
                let half = &mut wrapped.halves[perspective as usize];
                let weights = |(piece, square)| {
                    &net.feature_weights[feature(perspective, piece, square, mirror)]
                };
                for &a in &delta.added[..delta.added_len as usize] {
                    for (n, w) in half.iter_mut().zip(weights(a)) {
                        *n = n.wrapping_add(*w);
                    }
                }
                for &r in &delta.removed[..delta.removed_len as usize] {
                    for (n, w) in half.iter_mut().zip(weights(r)) {
                        *n = n.wrapping_sub(*w);
                    }
                }
            }
            let mut fast = Accumulator::default();
            // SAFETY: the CPU was found to support AVX2.
            unsafe { net.update_avx2(&before, &delta, &mut fast) };
            assert_eq!(fast, wrapped, "{delta:?}");
        }
    }
}
