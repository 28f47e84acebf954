//! The loss the tuner minimises, and its gradient, by hand.
//!
//! The evaluation is linear in its weights. For a position with trace counts
//! `c_i` and phase `φ` (the share of `MAX_PHASE`: 1 = midgame, 0 = endgame),
//! White's score is
//!
//! ```text
//! e = Σ c_i (mg_i φ + eg_i (1 − φ)) ± TEMPO          (+ with White to move)
//! ```
//!
//! not rounded (the engine truncates the blend to whole centipawns). The tempo
//! is fixed, as in the engine. A score becomes an expected result (White's, 0..1)
//! through `sigmoid(K × score)`, where `K` is fitted once, before tuning, so that
//! `sigmoid(K × e)` with the starting weights best matches the games' results
//! ([`fit_k`]); the search's score is mapped with the same `K`. (For scale:
//! K = ln 10 / 400 ≈ 0.0058 makes 400 cp a 10:1 favourite.) Each position's target
//! blends the game's result and the search's verdict:
//!
//! ```text
//! t = λ × result + (1 − λ) × sigmoid(K × search score)
//! loss = mean over positions of (sigmoid(K × e) − t)²
//! ∂loss/∂mg_i = mean of 2 (p − t) p (1 − p) K c_i φ      (p = sigmoid(K × e))
//! ∂loss/∂eg_i = mean of 2 (p − t) p (1 − p) K c_i (1 − φ)
//! ```
//!
//! Sums run over the same fixed parts of the data whatever the number of threads
//! (`parallel::in_chunks`), so a run is reproducible to the last bit.

use super::data::{Dataset, Position};
use crate::eval::{MAX_PHASE, TEMPO, layout::COUNT};
use crate::tools::parallel::in_chunks;

/// One (midgame, endgame) pair per weight of the evaluation, in the flat order of
/// `eval::layout`.
pub type Weights = Vec<[f64; 2]>;

/// `K` is searched between these (an evaluation that needs more or less is broken).
const K_RANGE: (f64, f64) = (1e-4, 0.1);
/// Golden-section steps of the `K` search: each narrows the range by 0.618.
const K_STEPS: usize = 80;

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The midgame share of position `p`'s blend.
fn midgame_share(p: &Position) -> f64 {
    p.phase as f64 / MAX_PHASE as f64
}

/// White's score of `p` with `weights`, in centipawns, tempo included.
pub fn evaluate(set: &Dataset, p: &Position, weights: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for e in set.entries_of(p) {
        let [w_mg, w_eg] = weights[e.index as usize];
        mg += w_mg * e.count as f64;
        eg += w_eg * e.count as f64;
    }
    let phi = midgame_share(p);
    let tempo = if p.white_to_move { TEMPO } else { -TEMPO };
    mg * phi + eg * (1.0 - phi) + tempo as f64
}

/// The largest midgame or endgame sum, in absolute value, of any position of `set`
/// with `weights`. The engine adds both halves packed in one `i32`
/// (`eval::sink`), so each must stay within `i16`.
pub fn largest_sum(set: &Dataset, weights: &[[f64; 2]]) -> f64 {
    let mut largest: f64 = 0.0;
    for p in &set.positions {
        let (mut mg, mut eg) = (0.0, 0.0);
        for e in set.entries_of(p) {
            mg += weights[e.index as usize][0] * e.count as f64;
            eg += weights[e.index as usize][1] * e.count as f64;
        }
        largest = largest.max(mg.abs()).max(eg.abs());
    }
    largest
}

/// Each position's target: `lambda` of the game's result, the rest the search's
/// score mapped through `sigmoid(k × score)`.
pub fn targets(set: &Dataset, k: f64, lambda: f64) -> Vec<f64> {
    set.positions
        .iter()
        .map(|p| lambda * p.result as f64 + (1.0 - lambda) * sigmoid(k * p.score as f64))
        .collect()
}

/// Mean squared error of `sigmoid(k × evaluation)` against `targets`.
pub fn loss(set: &Dataset, targets: &[f64], weights: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    let sums = in_chunks(&set.positions, threads, |first, part| {
        let mut sum = 0.0;
        for (i, p) in part.iter().enumerate() {
            let error = sigmoid(k * evaluate(set, p, weights)) - targets[first + i];
            sum += error * error;
        }
        sum
    });
    sums.iter().sum::<f64>() / set.len().max(1) as f64
}

/// The loss and its gradient with respect to every weight.
pub fn loss_and_gradient(
    set: &Dataset,
    targets: &[f64],
    weights: &[[f64; 2]],
    k: f64,
    threads: usize,
) -> (f64, Weights) {
    let n = set.len().max(1) as f64;
    let parts = in_chunks(&set.positions, threads, |first, part| {
        let mut sum = 0.0;
        let mut gradient = vec![[0.0; 2]; COUNT];
        for (i, p) in part.iter().enumerate() {
            let predicted = sigmoid(k * evaluate(set, p, weights));
            let error = predicted - targets[first + i];
            sum += error * error;
            // d(error²)/d(evaluation), averaged over the data set.
            let slope = 2.0 * error * predicted * (1.0 - predicted) * k / n;
            let phi = midgame_share(p);
            let (to_mg, to_eg) = (slope * phi, slope * (1.0 - phi));
            for e in set.entries_of(p) {
                let g = &mut gradient[e.index as usize];
                g[0] += to_mg * e.count as f64;
                g[1] += to_eg * e.count as f64;
            }
        }
        (sum, gradient)
    });
    let mut total = 0.0;
    let mut gradient = vec![[0.0; 2]; COUNT];
    for (sum, part) in parts {
        total += sum;
        for (g, p) in gradient.iter_mut().zip(&part) {
            g[0] += p[0];
            g[1] += p[1];
        }
    }
    (total / n, gradient)
}

/// The `K` for which `sigmoid(K × evaluation)` with `weights` best predicts the
/// games' results (least squares): a golden-section search over ln K.
pub fn fit_k(set: &Dataset, weights: &[[f64; 2]]) -> f64 {
    let evals: Vec<f64> = set
        .positions
        .iter()
        .map(|p| evaluate(set, p, weights))
        .collect();
    let error = |ln_k: f64| {
        let k = ln_k.exp();
        let sum: f64 = set
            .positions
            .iter()
            .zip(&evals)
            .map(|(p, e)| (sigmoid(k * e) - p.result as f64).powi(2))
            .sum();
        sum / set.len().max(1) as f64
    };
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let mut a = hi - golden * (hi - lo);
    let mut b = lo + golden * (hi - lo);
    let (mut fa, mut fb) = (error(a), error(b));
    for _ in 0..K_STEPS {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - golden * (hi - lo);
            fa = error(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + golden * (hi - lo);
            fb = error(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::Trace;
    use crate::rng::Rng;

    /// A small synthetic data set: random sparse traces (a few dozen weights each,
    /// counts −3..3), random phases, scores and results, from `seed`.
    pub(crate) fn synthetic(positions: usize, seed: u64) -> Dataset {
        let mut rng = Rng::new(seed, 0);
        let mut set = Dataset::default();
        for _ in 0..positions {
            let mut t = Trace::default();
            for _ in 0..30 {
                t.counts[rng.below(COUNT as u64) as usize] += rng.below(7) as i32 - 3;
            }
            t.phase = rng.below(MAX_PHASE as u64 + 1) as i32;
            let score = rng.below(801) as i16 - 400;
            let result = rng.below(3) as f32 / 2.0;
            set.push(&t, rng.below(2) == 0, score, result).unwrap();
        }
        set
    }

    fn random_weights(seed: u64) -> Weights {
        let mut rng = Rng::new(seed, 1);
        (0..COUNT)
            .map(|_| [rng.below(201) as f64 - 100.0, rng.below(201) as f64 - 100.0])
            .collect()
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let set = synthetic(200, 3);
        let weights = random_weights(4);
        let k = 0.006;
        let targets = targets(&set, k, 0.5);
        let (loss0, gradient) = loss_and_gradient(&set, &targets, &weights, k, 2);
        assert!((loss0 - loss(&set, &targets, &weights, k, 3)).abs() < 1e-15);
        // Central differences on the weights the data uses most, and on others.
        const H: f64 = 1e-3;
        let mut checked = 0;
        for index in (0..COUNT).step_by(7) {
            for half in 0..2 {
                let mut plus = weights.clone();
                plus[index][half] += H;
                let mut minus = weights.clone();
                minus[index][half] -= H;
                let numeric = (loss(&set, &targets, &plus, k, 1)
                    - loss(&set, &targets, &minus, k, 1))
                    / (2.0 * H);
                let analytic = gradient[index][half];
                let tolerance = 1e-4 * analytic.abs().max(1e-9);
                assert!(
                    (numeric - analytic).abs() <= tolerance,
                    "weight {index}.{half}: numeric {numeric:e}, analytic {analytic:e}"
                );
                checked += (analytic != 0.0) as usize;
            }
        }
        assert!(checked > 50, "only {checked} non-zero derivatives checked");
    }

    #[test]
    fn threads_change_nothing() {
        let set = synthetic(300, 5);
        let weights = random_weights(6);
        let targets = targets(&set, 0.005, 0.3);
        let one = loss_and_gradient(&set, &targets, &weights, 0.005, 1);
        let four = loss_and_gradient(&set, &targets, &weights, 0.005, 4);
        assert_eq!(one, four);
    }

    #[test]
    fn k_is_found_where_the_results_say() {
        // Results drawn with probability sigmoid(K_TRUE × eval): the fit finds K_TRUE.
        const K_TRUE: f64 = 0.004;
        let mut set = synthetic(4000, 8);
        let weights = random_weights(9);
        let mut rng = Rng::new(10, 0);
        for i in 0..set.len() {
            let p = set.positions[i];
            let win = sigmoid(K_TRUE * evaluate(&set, &p, &weights));
            let won = (rng.below(1_000_000) as f64) < win * 1e6;
            set.positions[i].result = if won { 1.0 } else { 0.0 };
        }
        let k = fit_k(&set, &weights);
        assert!((k - K_TRUE).abs() < K_TRUE * 0.2, "fitted {k}");
    }
}
