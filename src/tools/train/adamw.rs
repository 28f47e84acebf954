//! The optimiser: AdamW (Loshchilov and Hutter, 2019), one step a mini-batch.
//!
//! Adam scales each parameter's step by the running size of its own gradient, which
//! suits a sparse input layer: the weights of a rook on a2 see a gradient in few
//! batches, a king's in all. Weight decay is decoupled (a shrink of the weight, not
//! a term of the gradient) and left off the biases, whose size costs nothing. After
//! each step the weights are clipped to `CLIP`, so that the quantised net fits its
//! integers (see `quant`).

use super::net::{FloatNet, Gradient};
use super::wide::wide_fn;

/// Decay of the running mean of the gradient.
const BETA1: f64 = 0.9;
/// Decay of the running mean of its square.
const BETA2: f64 = 0.999;
/// Keeps the step finite where a gradient is zero.
const EPSILON: f32 = 1e-8;
/// The largest weight or bias (input and output layers). ×QB (64) it is 126.7, so
/// a quantised output weight fits in ±127; ×QA (255) it is 505, so an accumulator
/// (a bias and at most 32 weights: 33 × 505 = 16665) fits in an `i16`.
pub const CLIP: f32 = 1.98;

/// The running means of one parameter tensor's gradient and squared gradient.
struct Moments {
    mean: Vec<f32>,
    square: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Moments {
        Moments {
            mean: vec![0.0; len],
            square: vec![0.0; len],
        }
    }
}

pub struct AdamW {
    w: Moments,
    b: Moments,
    v: Moments,
    c0: Moments,
    steps: i32,
    /// The output weights stay where they are (see [`AdamW::freeze_output`]).
    output_frozen: bool,
}

/// One step's numbers, shared by all tensors.
#[derive(Clone, Copy)]
struct Step {
    rate: f32,
    /// Bias corrections: the running means start at zero.
    fix_mean: f32,
    fix_square: f32,
}

impl AdamW {
    pub fn new(net: &FloatNet) -> AdamW {
        AdamW {
            w: Moments::new(net.w.len()),
            b: Moments::new(net.b.len()),
            v: Moments::new(net.v.len()),
            c0: Moments::new(net.c0.len()),
            steps: 0,
            output_frozen: false,
        }
    }

    /// Steps from now on leave the output weights `v` as they are.
    pub fn freeze_output(&mut self) {
        self.output_frozen = true;
    }

    /// Moves `net` one step down `gradient` at learning rate `rate`, shrinking the
    /// weights (not the biases) by `rate × decay` of themselves.
    pub fn step(&mut self, net: &mut FloatNet, gradient: &Gradient, rate: f32, decay: f32) {
        adamw_step(self, net, gradient, rate, decay)
    }

    #[inline(always)]
    fn step_here(&mut self, net: &mut FloatNet, gradient: &Gradient, rate: f32, decay: f32) {
        self.steps += 1;
        let s = Step {
            rate,
            fix_mean: (1.0 - BETA1.powi(self.steps)) as f32,
            fix_square: (1.0 - BETA2.powi(self.steps)) as f32,
        };
        update(&mut net.w, &gradient.w, &mut self.w, s, decay, CLIP);
        update(&mut net.b, &gradient.b, &mut self.b, s, 0.0, CLIP);
        if !self.output_frozen {
            update(&mut net.v, &gradient.v, &mut self.v, s, decay, CLIP);
        }
        // The output biases are i32 in the net file: no limit needed.
        update(
            &mut net.c0,
            &gradient.c0,
            &mut self.c0,
            s,
            0.0,
            f32::INFINITY,
        );
    }
}

wide_fn!(
    /// [`AdamW::step`].
    fn adamw_step(
        adam: &mut AdamW,
        net: &mut FloatNet,
        gradient: &Gradient,
        rate: f32,
        decay: f32,
    ) = AdamW::step_here
);

/// One AdamW step of one tensor, clipped to ±`clip`.
#[inline(always)]
fn update(params: &mut [f32], grad: &[f32], m: &mut Moments, s: Step, decay: f32, clip: f32) {
    let (b1, b2) = (BETA1 as f32, BETA2 as f32);
    for (((p, &g), mean), square) in params
        .iter_mut()
        .zip(grad)
        .zip(&mut m.mean)
        .zip(&mut m.square)
    {
        *mean = b1 * *mean + (1.0 - b1) * g;
        *square = b2 * *square + (1.0 - b2) * g * g;
        let adam = (*mean / s.fix_mean) / ((*square / s.fix_square).sqrt() + EPSILON);
        *p = (*p - s.rate * (adam + decay * *p)).clamp(-clip, clip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_finds_the_bottom_of_a_bowl_within_the_clip() {
        // loss = Σ (p − target)² over the output weights; one target past the clip.
        let mut net = FloatNet::new(8, 1, 1);
        let targets: Vec<f32> = (0..16).map(|i| i as f32 / 8.0 - 1.0).collect();
        let mut far = targets.clone();
        far[0] = -5.0;
        let mut adam = AdamW::new(&net);
        let mut g = Gradient::new(8, 1);
        for _ in 0..3000 {
            for ((g, p), t) in g.v.iter_mut().zip(&net.v).zip(&far) {
                *g = 2.0 * (p - t);
            }
            adam.step(&mut net, &g, 0.01, 0.0);
        }
        assert_eq!(net.v[0], -CLIP);
        for (p, t) in net.v.iter().zip(&targets).skip(1) {
            assert!((p - t).abs() < 0.02, "{p} {t}");
        }
        // Without gradient only the weights decay, not the biases.
        let before = net.clone();
        net.b.fill(0.5);
        adam.step(&mut net, &Gradient::new(8, 1), 0.1, 0.5);
        assert!(net.b.iter().all(|&b| b == 0.5));
        assert!(net.w[0].abs() < before.w[0].abs() || before.w[0] == 0.0);
        // Frozen output weights do not move, the rest still does.
        adam.freeze_output();
        let (v, c0) = (net.v.clone(), net.c0[0]);
        let mut g = Gradient::new(8, 1);
        g.v.fill(1.0);
        g.c0[0] = 1.0;
        adam.step(&mut net, &g, 0.1, 0.5);
        assert_eq!(net.v, v);
        assert!(net.c0[0] < c0);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_copy_steps_to_the_same_bits() {
        use crate::tools::train::net::tests::bits;
        if !crate::cpu::avx2_to_test() {
            return;
        }
        let net = FloatNet::new(64, 8, 3);
        let (mut wide_net, mut plain_net) = (net.clone(), net.clone());
        let (mut wide, mut plain) = (AdamW::new(&net), AdamW::new(&net));
        let mut g = Gradient::new(64, 8);
        for step in 0..5 {
            // A gradient of every sign and size, changing from step to step.
            for (i, x) in g.w.iter_mut().chain(&mut g.b).chain(&mut g.v).enumerate() {
                *x = ((i * 7919 + step * 104_729) % 2001) as f32 / 1000.0 - 1.0;
            }
            // `step` runs the AVX2 copy on this CPU; `step_here`, inlined into this
            // test, the portable code.
            wide.step(&mut wide_net, &g, 0.01, 0.1);
            plain.step_here(&mut plain_net, &g, 0.01, 0.1);
        }
        assert_ne!(bits(&wide_net.w), bits(&net.w));
        for (w, p) in [
            (&wide_net.w, &plain_net.w),
            (&wide_net.b, &plain_net.b),
            (&wide_net.v, &plain_net.v),
            (&wide_net.c0, &plain_net.c0),
        ] {
            assert_eq!(bits(w), bits(p));
        }
    }
}
