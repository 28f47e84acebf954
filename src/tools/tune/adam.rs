//! The optimiser: Adam (Kingma and Ba, 2015), one step per epoch on the gradient
//! of the whole training set.
//!
//! Adam scales each weight's step by the running size of its own gradient, so
//! the learning rate is in centipawns: a weight moves by about `rate` a step while
//! its gradient keeps its sign, and less as it settles. That suits an evaluation
//! whose gradients differ by orders of magnitude between a pawn's material (in
//! every position) and a queen on a8 (in a few).

use super::loss::Weights;

/// Decay of the running mean of the gradient.
const BETA1: f64 = 0.9;
/// Decay of the running mean of its square.
const BETA2: f64 = 0.999;
/// Keeps the step finite where a gradient is zero, and damps weights whose
/// gradient is tiny (the rarest features) a little. Gradients of used weights
/// are 1e-7 or more.
const EPSILON: f64 = 1e-8;

pub struct Adam {
    rate: f64,
    mean: Weights,
    square: Weights,
    steps: i32,
}

impl Adam {
    /// An optimiser for `len` weight pairs, stepping `rate` centipawns.
    pub fn new(len: usize, rate: f64) -> Adam {
        Adam {
            rate,
            mean: vec![[0.0; 2]; len],
            square: vec![[0.0; 2]; len],
            steps: 0,
        }
    }

    /// Moves `weights` one step down `gradient`.
    pub fn step(&mut self, weights: &mut Weights, gradient: &Weights) {
        self.steps += 1;
        // Bias corrections: the running means start at zero.
        let fix_mean = 1.0 - BETA1.powi(self.steps);
        let fix_square = 1.0 - BETA2.powi(self.steps);
        for (((w, g), m), v) in weights
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.mean)
            .zip(&mut self.square)
        {
            for half in 0..2 {
                m[half] = BETA1 * m[half] + (1.0 - BETA1) * g[half];
                v[half] = BETA2 * v[half] + (1.0 - BETA2) * g[half] * g[half];
                let m_hat = m[half] / fix_mean;
                let v_hat = v[half] / fix_square;
                w[half] -= self.rate * m_hat / (v_hat.sqrt() + EPSILON);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_finds_the_bottom_of_a_bowl() {
        // loss = Σ (w − target)², of very different curvatures.
        let target = [[3.0, -40.0], [250.0, 0.5]];
        let scale = [1e-6, 1.0];
        let mut w: Weights = vec![[0.0; 2]; 2];
        let mut adam = Adam::new(2, 1.0);
        for _ in 0..2000 {
            let g: Weights = (0..2)
                .map(|i| [0, 1].map(|h| 2.0 * scale[i] * (w[i][h] - target[i][h])))
                .collect();
            adam.step(&mut w, &g);
        }
        for i in 0..2 {
            for h in 0..2 {
                assert!((w[i][h] - target[i][h]).abs() < 0.5, "{:?}", w);
            }
        }
        // A weight without gradient does not move.
        let mut still: Weights = vec![[7.0, 7.0]];
        Adam::new(1, 1.0).step(&mut still, &vec![[0.0, 0.0]]);
        assert_eq!(still, vec![[7.0, 7.0]]);
    }
}
