//! The network in floating point, as the trainer fits it: 768 inputs a
//! perspective → `hidden` SCReLU units (CReLU for a measurement: `Activation`) (one weight matrix for both perspectives)
//! → one output from both perspectives' units, the side to move's first, with
//! the output weights of the position's bucket of material
//! ([`crate::nnue::output_bucket`]; the number of pieces is the number of active
//! features of a perspective).
//!
//! Its forward pass, its loss on packed positions and the loss's gradient. Each
//! inner loop runs over one contiguous row of `hidden` numbers, so that the
//! compiler turns it into vector instructions; sums across a row are kept in
//! `LANES` partial sums, in a fixed order, for the same reason.

use super::data::{MAX_PIECES, Packed, features_of, sigmoid};
use super::wide::wide_fn;
use crate::nnue::output_bucket;
use crate::nnue::{INPUTS as FEATURES, InputLayout, SCALE};
use crate::rng::Rng;
use shakmaty::Chess;

/// Hidden sizes are multiples of this: whole vector registers for the engine and the
/// trainer (`quant::MIN_HIDDEN..=quant::MAX_HIDDEN` bounds them).
pub const HIDDEN_STEP: usize = 8;
/// Partial sums of a row reduction: the hidden size is a multiple of it.
const LANES: usize = HIDDEN_STEP;
/// Hidden units accumulated at once, in registers (8 AVX2 vectors).
const BLOCK: usize = 64;
/// Rows of the weight matrix, as bits of a mask of the rows a gradient touched.
const ROW_WORDS: usize = FEATURES / 64;
/// The random generator's stream of the initial weights.
const INIT_STREAM: u64 = u64::MAX - 3;
/// About this many features are active in a middlegame position: the initial
/// input weights are uniform in ±1/√`TYPICAL_ACTIVE`, so that an accumulator
/// starts with a spread of about ½ — inside SCReLU's live range [0, 1] for most
/// units, neither dead nor saturated.
const TYPICAL_ACTIVE: f32 = 32.0;

/// The float network. Weight layout as in the net file: `w[f * hidden + h]` is the
/// weight from feature `f` to unit `h`; bucket `k`'s output weights are
/// `v[2k·hidden..2(k+1)·hidden]`, the side to move's units first, and its bias
/// is `c0[k]`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub hidden: usize,
    /// How the net reads the board (`--inputs`; the file says it).
    pub layout: InputLayout,
    pub activation: Activation,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
    pub v: Vec<f32>,
    pub c0: Vec<f32>,
}

/// The hidden units' activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Squared clipped ReLU, `clamp(x, 0, 1)²`: smooth enough to learn with, and
    /// exact in integers (`clamp(acc, 0, QA)²`) in the engine. The engine's.
    SCReLU,
    /// Clipped ReLU, `clamp(x, 0, 1)`: the older choice, for measuring against
    /// SCReLU (the engine does not evaluate it, so no net file is written).
    CReLU,
}

impl Activation {
    /// The unit's output for input `x`.
    #[inline(always)]
    fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::SCReLU => c * c,
            Activation::CReLU => c,
        }
    }

    /// The unit's slope at `x` (0 where it is flat).
    #[inline(always)]
    fn slope(self, x: f32) -> f32 {
        if !(0.0..1.0).contains(&x) {
            return 0.0;
        }
        match self {
            Activation::SCReLU => 2.0 * x,
            Activation::CReLU => 1.0,
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Activation::SCReLU => "screlu",
            Activation::CReLU => "crelu",
        }
    }
}

impl FloatNet {
    /// A network with `hidden` units and `buckets` output buckets, initialised
    /// from `seed`: input weights uniform in ±1/√`TYPICAL_ACTIVE`, output weights
    /// uniform in ±1/√(2·hidden) (the usual scale for that many inputs: the first
    /// evaluations are tens of centipawns, not thousands), biases zero.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed, INIT_STREAM);
        let mut uniform = |limit: f32| {
            // 24 random bits: every value an f32 in [0, 1) can hold evenly spaced.
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * limit
        };
        let input = 1.0 / TYPICAL_ACTIVE.sqrt();
        let output = 1.0 / (2.0 * hidden as f32).sqrt();
        FloatNet {
            hidden,
            layout: InputLayout::Plain,
            activation: Activation::SCReLU,
            w: (0..FEATURES * hidden).map(|_| uniform(input)).collect(),
            b: vec![0.0; hidden],
            v: (0..buckets * 2 * hidden).map(|_| uniform(output)).collect(),
            c0: vec![0.0; buckets],
        }
    }

    /// This net with `hidden` units, its own first (the same input weights, biases
    /// and output weights) and the rest new: input weights random from `seed` as in
    /// [`FloatNet::new`], biases and output weights zero. The wider net evaluates
    /// every position as this one does; training then gives the new units their
    /// part (their output weights move first, their input weights as soon as those
    /// are not zero). How a wider net starts from a narrower one's training.
    pub fn widen(&self, hidden: usize, seed: u64) -> Result<FloatNet, String> {
        if hidden < self.hidden {
            return Err(format!(
                "a net of {} units widens to as many or more, not {hidden}",
                self.hidden
            ));
        }
        let old = self.hidden;
        let mut wide = FloatNet::new(hidden, self.buckets(), seed);
        wide.activation = self.activation;
        wide.layout = self.layout;
        for (wide_row, row) in wide.w.chunks_mut(hidden).zip(self.w.chunks(old)) {
            wide_row[..old].copy_from_slice(row);
        }
        wide.b[..old].copy_from_slice(&self.b);
        wide.v.fill(0.0);
        // Each bucket's output weights: the side to move's units, then the other's.
        for (wide_half, half) in wide.v.chunks_mut(hidden).zip(self.v.chunks(old)) {
            wide_half[..old].copy_from_slice(half);
        }
        wide.c0.copy_from_slice(&self.c0);
        Ok(wide)
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.c0.len()
    }

    /// The output bucket of a position with `pieces` pieces.
    #[inline]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets())
    }

    /// The evaluation of `pos` in centipawns, side to move's view.
    pub fn evaluate_cp(&self, pos: &Chess) -> f32 {
        let (ours, theirs) = features_of(pos, self.layout);
        self.evaluate_features(&ours, &theirs)
    }

    /// The evaluation in centipawns from the side to move's (`ours`) and the other
    /// side's (`theirs`) active features.
    pub fn evaluate_features(&self, ours: &[u16], theirs: &[u16]) -> f32 {
        let (mut acc_ours, mut acc_theirs) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.accumulate(ours, &mut acc_ours);
        self.accumulate(theirs, &mut acc_theirs);
        self.output(&acc_ours, &acc_theirs, self.bucket(ours.len())) * SCALE as f32
    }

    /// `acc` = the hidden layer's input for the active `features`.
    #[inline(always)]
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let n = self.hidden;
        // A block of `BLOCK` units at a time, held in registers over all the
        // features (the same additions in the same order as a row at a time).
        let blocks = n / BLOCK * BLOCK;
        for start in (0..blocks).step_by(BLOCK) {
            let mut block: [f32; BLOCK] = self.b[start..start + BLOCK].try_into().unwrap();
            for &f in features {
                let at = f as usize * n + start;
                let row: &[f32; BLOCK] = self.w[at..at + BLOCK].try_into().unwrap();
                for (a, w) in block.iter_mut().zip(row) {
                    *a += w;
                }
            }
            acc[start..start + BLOCK].copy_from_slice(&block);
        }
        acc[blocks..].copy_from_slice(&self.b[blocks..]);
        for &f in features {
            let row = &self.w[f as usize * n + blocks..(f as usize + 1) * n];
            for (a, w) in acc[blocks..].iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// Output bucket `bucket`'s weights: the side to move's half, the other's.
    #[inline(always)]
    fn output_weights(&self, bucket: usize) -> (&[f32], &[f32]) {
        let n = self.hidden;
        self.v[2 * n * bucket..2 * n * (bucket + 1)].split_at(n)
    }

    /// The output (before ×SCALE) from both perspectives' accumulators, through
    /// output bucket `bucket`.
    #[inline(always)]
    fn output(&self, ours: &[f32], theirs: &[f32], bucket: usize) -> f32 {
        // The match outside the loops keeps each loop a vector loop.
        match self.activation {
            Activation::SCReLU => self.output_with(Activation::SCReLU, ours, theirs, bucket),
            Activation::CReLU => self.output_with(Activation::CReLU, ours, theirs, bucket),
        }
    }

    #[inline(always)]
    fn output_with(&self, act: Activation, ours: &[f32], theirs: &[f32], bucket: usize) -> f32 {
        let (v_ours, v_theirs) = self.output_weights(bucket);
        let mut lanes = [0.0f32; LANES];
        for (acc, v) in [(ours, v_ours), (theirs, v_theirs)] {
            for (a, v) in acc.chunks_exact(LANES).zip(v.chunks_exact(LANES)) {
                for i in 0..LANES {
                    lanes[i] += act.apply(a[i]) * v[i];
                }
            }
        }
        lanes.iter().sum::<f32>() + self.c0[bucket]
    }
}

/// A gradient of the network's parameters, with the rows of `w` it touched (all
/// other rows are zero), so that clearing and adding skip the rest.
#[derive(Clone, Debug)]
pub struct Gradient {
    pub w: Vec<f32>,
    pub b: Vec<f32>,
    pub v: Vec<f32>,
    pub c0: Vec<f32>,
    touched: [u64; ROW_WORDS],
}

impl Gradient {
    pub fn new(hidden: usize, buckets: usize) -> Gradient {
        Gradient {
            w: vec![0.0; FEATURES * hidden],
            b: vec![0.0; hidden],
            v: vec![0.0; buckets * 2 * hidden],
            c0: vec![0.0; buckets],
            touched: [0; ROW_WORDS],
        }
    }

    fn hidden(&self) -> usize {
        self.b.len()
    }

    fn rows(&self) -> impl Iterator<Item = usize> + use<> {
        let touched = self.touched;
        (0..FEATURES).filter(move |&f| touched[f / 64] >> (f % 64) & 1 != 0)
    }

    /// All zero again.
    pub fn clear(&mut self) {
        let n = self.hidden();
        for f in self.rows() {
            self.w[f * n..(f + 1) * n].fill(0.0);
        }
        self.touched = [0; ROW_WORDS];
        self.b.fill(0.0);
        self.v.fill(0.0);
        self.c0.fill(0.0);
    }

    /// `self += other`, element by element.
    pub fn add(&mut self, other: &Gradient) {
        add_gradients(self, other)
    }

    #[inline(always)]
    fn add_here(&mut self, other: &Gradient) {
        let n = self.hidden();
        for f in other.rows() {
            let row = f * n..(f + 1) * n;
            for (s, o) in self.w[row.clone()].iter_mut().zip(&other.w[row]) {
                *s += o;
            }
        }
        for (s, o) in self.touched.iter_mut().zip(&other.touched) {
            *s |= o;
        }
        for (s, o) in self.b.iter_mut().zip(&other.b) {
            *s += o;
        }
        for (s, o) in self
            .v
            .iter_mut()
            .chain(&mut self.c0)
            .zip(other.v.iter().chain(&other.c0))
        {
            *s += o;
        }
    }

    #[inline(always)]
    fn add_row(&mut self, feature: usize, delta: &[f32]) {
        let n = delta.len();
        self.touched[feature / 64] |= 1 << (feature % 64);
        for (g, d) in self.w[feature * n..(feature + 1) * n].iter_mut().zip(delta) {
            *g += d;
        }
    }
}

/// One thread's working memory: a chunk's gradient and the per-position rows.
pub struct Workspace {
    pub gradient: Gradient,
    acc_ours: Vec<f32>,
    acc_theirs: Vec<f32>,
    delta_ours: Vec<f32>,
    delta_theirs: Vec<f32>,
}

impl Workspace {
    pub fn new(hidden: usize, buckets: usize) -> Workspace {
        Workspace {
            gradient: Gradient::new(hidden, buckets),
            acc_ours: vec![0.0; hidden],
            acc_theirs: vec![0.0; hidden],
            delta_ours: vec![0.0; hidden],
            delta_theirs: vec![0.0; hidden],
        }
    }
}

/// The prediction (`sigmoid(output)`) for a position's active features, with
/// the accumulators left in `ws`.
#[inline(always)]
fn predict(net: &FloatNet, ours: &[u16], theirs: &[u16], ws: &mut Workspace) -> f32 {
    net.accumulate(ours, &mut ws.acc_ours);
    net.accumulate(theirs, &mut ws.acc_theirs);
    sigmoid(net.output(&ws.acc_ours, &ws.acc_theirs, net.bucket(ours.len())))
}

wide_fn!(
    /// The summed loss, (prediction − target)², of `positions` (f64: millions of
    /// small terms).
    pub fn loss_sum(net: &FloatNet, positions: &[Packed], lambda: f32) -> f64 = loss_sum_here
);

#[inline(always)]
fn loss_sum_here(net: &FloatNet, positions: &[Packed], lambda: f32) -> f64 {
    // Only the forward pass: no gradient to hold.
    let mut ws = Workspace {
        gradient: Gradient::new(0, 0),
        acc_ours: vec![0.0; net.hidden],
        acc_theirs: vec![0.0; net.hidden],
        delta_ours: Vec::new(),
        delta_theirs: Vec::new(),
    };
    let (mut ours, mut theirs) = ([0u16; MAX_PIECES], [0u16; MAX_PIECES]);
    let mut loss = 0.0;
    for p in positions {
        let count = p.features(net.layout, &mut ours, &mut theirs);
        let error = predict(net, &ours[..count], &theirs[..count], &mut ws) - p.target(lambda);
        loss += (error * error) as f64;
    }
    loss
}

wide_fn!(
    /// Adds `scale` × the gradient of the loss of each of `positions` to
    /// `ws.gradient`, in the positions' order; returns the summed loss.
    pub fn add_gradient(
        net: &FloatNet,
        positions: &[Packed],
        lambda: f32,
        scale: f32,
        ws: &mut Workspace,
    ) -> f64 = add_gradient_here
);

wide_fn!(
    /// `total += other`, element by element.
    fn add_gradients(total: &mut Gradient, other: &Gradient) = Gradient::add_here
);

#[inline(always)]
fn add_gradient_here(
    net: &FloatNet,
    positions: &[Packed],
    lambda: f32,
    scale: f32,
    ws: &mut Workspace,
) -> f64 {
    let n = net.hidden;
    let mut loss = 0.0f64;
    let (mut ours, mut theirs) = ([0u16; MAX_PIECES], [0u16; MAX_PIECES]);
    for p in positions {
        let count = p.features(net.layout, &mut ours, &mut theirs);
        let (ours, theirs) = (&ours[..count], &theirs[..count]);
        let prediction = predict(net, ours, theirs, ws);
        let error = prediction - p.target(lambda);
        loss += (error * error) as f64;
        // d loss / d output: through the square and the sigmoid.
        let g = 2.0 * error * prediction * (1.0 - prediction) * scale;
        let bucket = net.bucket(ours.len());
        ws.gradient.c0[bucket] += g;
        let (v_ours, v_theirs) = net.output_weights(bucket);
        let (gv_ours, gv_theirs) =
            ws.gradient.v[2 * n * bucket..2 * n * (bucket + 1)].split_at_mut(n);
        let act = net.activation;
        for (acc, v, gv, delta) in [
            (&ws.acc_ours, v_ours, gv_ours, &mut ws.delta_ours),
            (&ws.acc_theirs, v_theirs, gv_theirs, &mut ws.delta_theirs),
        ] {
            // The match outside the loop keeps it a vector loop.
            match act {
                Activation::SCReLU => backprop_row(Activation::SCReLU, g, acc, v, gv, delta),
                Activation::CReLU => backprop_row(Activation::CReLU, g, acc, v, gv, delta),
            }
        }
        for ((b, d), e) in ws
            .gradient
            .b
            .iter_mut()
            .zip(&ws.delta_ours)
            .zip(&ws.delta_theirs)
        {
            *b += d + e;
        }
        for &f in ours {
            ws.gradient.add_row(f as usize, &ws.delta_ours);
        }
        for &f in theirs {
            ws.gradient.add_row(f as usize, &ws.delta_theirs);
        }
    }
    loss
}

/// One perspective's share of a position's gradient: the output weights' (`gv`)
/// and the hidden units' inputs' (`delta`), for d loss / d output `g`.
#[inline(always)]
fn backprop_row(
    act: Activation,
    g: f32,
    acc: &[f32],
    v: &[f32],
    gv: &mut [f32],
    delta: &mut [f32],
) {
    for (((&a, &v), gv), d) in acc.iter().zip(v).zip(gv.iter_mut()).zip(delta.iter_mut()) {
        *gv += g * act.apply(a);
        *d = g * v * act.slope(a);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tools::datagen::format::GameResult;
    use shakmaty::Position;

    /// Positions from random playouts (captures favoured, to reach endgames and
    /// material imbalances).
    pub(crate) fn playout_positions(count: usize, seed: u64) -> Vec<Chess> {
        let mut out = Vec::new();
        let mut game = 0;
        while out.len() < count {
            let mut rng = Rng::new(seed, game);
            let mut p = Chess::default();
            for ply in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = crate::rng::playout_move(&mut rng, &moves, 2);
                p.play_unchecked(m);
                if ply % 7 == 6 && out.len() < count {
                    out.push(p.clone());
                }
            }
            game += 1;
        }
        out
    }

    #[test]
    fn a_widened_net_evaluates_as_the_narrow_one() {
        let narrow = FloatNet::new(16, 8, 5);
        let wide = narrow.widen(40, 6).unwrap();
        assert_eq!((wide.hidden, wide.buckets()), (40, 8));
        for p in playout_positions(40, 3) {
            let (n, w) = (narrow.evaluate_cp(&p), wide.evaluate_cp(&p));
            assert!((n - w).abs() <= 1e-3 * n.abs().max(1.0), "{n} {w}");
        }
        // The new units are live (random input weights), only their output is off.
        let new_inputs = wide.w.chunks(40).map(|row| &row[16..]);
        assert!(new_inputs.flatten().any(|&x| x != 0.0));
        assert_eq!(
            narrow.widen(16, 6).unwrap(),
            narrow,
            "to the same width: the same net"
        );
        assert!(narrow.widen(8, 6).unwrap_err().contains("16 units"));
    }

    #[test]
    fn the_colour_flipped_position_evaluates_the_same() {
        let net = FloatNet::new(32, 8, 5);
        for p in playout_positions(40, 1) {
            let m = crate::position::mirrored(&p);
            let (a, b) = (net.evaluate_cp(&p), net.evaluate_cp(&m));
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        // And not the same when only the side to move changes: the perspectives
        // have their own output weights.
        let start = Chess::default();
        let swapped = start
            .clone()
            .swap_turn()
            .unwrap_or_else(|_| unreachable!("no check in the start position"));
        assert_ne!(net.evaluate_cp(&start), net.evaluate_cp(&swapped));
    }

    /// The floats' bits: equal means the same to the last bit.
    pub(crate) fn bits(xs: &[f32]) -> Vec<u32> {
        xs.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_accumulator_by_blocks_adds_as_row_by_row() {
        // Two whole blocks and a part of one.
        let hidden = 2 * BLOCK + 8;
        let net = FloatNet::new(hidden, 1, 9);
        for pos in playout_positions(20, 11) {
            let (ours, _) = features_of(&pos, net.layout);
            let mut expected = net.b.clone();
            for &f in &ours {
                for (a, w) in expected.iter_mut().zip(&net.w[f as usize * hidden..]) {
                    *a += w;
                }
            }
            let mut acc = vec![0.0; hidden];
            net.accumulate(&ours, &mut acc);
            assert_eq!(bits(&acc), bits(&expected));
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_copies_compute_the_same_bits() {
        if !crate::cpu::avx2_to_test() {
            return;
        }
        let (hidden, buckets) = (64, 8);
        let mut net = FloatNet::new(hidden, buckets, 5);
        net.v.iter_mut().for_each(|v| *v *= 4.0);
        let positions: Vec<Packed> = playout_positions(300, 7)
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let result = [GameResult::WhiteWon, GameResult::Draw, GameResult::BlackWon][i % 3];
                Packed::new(p, (i as i16 % 40 - 20) * 17, result).unwrap()
            })
            .collect();
        let scale = 1.0 / positions.len() as f32;
        // `add_gradient` and the others run the AVX2 copy on this CPU; the `_here`
        // bodies, inlined into this test, the portable code.
        let (mut wide, mut plain) = (
            Workspace::new(hidden, buckets),
            Workspace::new(hidden, buckets),
        );
        let wide_loss = add_gradient(&net, &positions, 0.3, scale, &mut wide);
        let plain_loss = add_gradient_here(&net, &positions, 0.3, scale, &mut plain);
        assert_eq!(wide_loss.to_bits(), plain_loss.to_bits());
        let (wide, plain) = (wide.gradient, plain.gradient);
        for (w, p) in [
            (&wide.w, &plain.w),
            (&wide.b, &plain.b),
            (&wide.v, &plain.v),
            (&wide.c0, &plain.c0),
        ] {
            assert!(w.iter().any(|&x| x != 0.0));
            assert_eq!(bits(w), bits(p));
        }
        assert_eq!(
            loss_sum(&net, &positions, 0.3).to_bits(),
            loss_sum_here(&net, &positions, 0.3).to_bits()
        );
        let (mut wide_sum, mut plain_sum) = (plain.clone(), plain.clone());
        wide_sum.add(&wide);
        plain_sum.add_here(&wide);
        assert_eq!(bits(&wide_sum.w), bits(&plain_sum.w));
        assert_eq!(bits(&wide_sum.v), bits(&plain_sum.v));
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for activation in [Activation::SCReLU, Activation::CReLU] {
            gradient_matches_finite_differences(activation);
        }
    }

    fn gradient_matches_finite_differences(activation: Activation) {
        let mut net = FloatNet::new(8, 2, 2);
        net.activation = activation;
        // Larger output weights than at the start, so that every part matters.
        net.v.iter_mut().for_each(|v| *v *= 4.0);
        net.c0 = vec![0.1, -0.2];
        let positions: Vec<Packed> = playout_positions(12, 3)
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let result = [GameResult::WhiteWon, GameResult::Draw][i % 2];
                Packed::new(p, (i as i16 - 6) * 45, result).unwrap()
            })
            .collect();
        let lambda = 0.3;
        let scale = 1.0 / positions.len() as f32;
        let mut ws = Workspace::new(8, 2);
        add_gradient(&net, &positions, lambda, scale, &mut ws);
        let analytic = ws.gradient;
        let mean_loss = |net: &FloatNet| loss_sum(net, &positions, lambda) / positions.len() as f64;

        // Central differences; each parameter reached through a closure.
        const STEP: f32 = 1e-3;
        let check = |name: &str, get: &dyn Fn(&mut FloatNet) -> &mut f32, expected: f32| {
            let (mut up, mut down) = (net.clone(), net.clone());
            *get(&mut up) += STEP;
            *get(&mut down) -= STEP;
            let numeric = (mean_loss(&up) - mean_loss(&down)) / (2.0 * STEP as f64);
            let expected = expected as f64;
            assert!(
                (numeric - expected).abs() <= 0.02 * expected.abs() + 1e-6,
                "{activation:?} {name}: numeric {numeric}, analytic {expected}"
            );
            expected.abs()
        };
        let (mut ours, mut theirs) = ([0; MAX_PIECES], [0; MAX_PIECES]);
        positions[0].features(net.layout, &mut ours, &mut theirs);
        let mut sizes = Vec::new();
        // Both output buckets (up to 17 pieces, from 18) occur in the positions.
        let buckets: Vec<usize> = positions
            .iter()
            .map(|p| net.bucket(p.features(net.layout, &mut ours.clone(), &mut theirs.clone())))
            .collect();
        assert!(buckets.contains(&0) && buckets.contains(&1), "{buckets:?}");
        for k in 0..2 {
            sizes.push(check("c0", &|n| &mut n.c0[k], analytic.c0[k]));
        }
        for h in [0, 3, 7] {
            sizes.push(check("b", &|n| &mut n.b[h], analytic.b[h]));
            for k in [0, 16] {
                let (us, them) = (k + h, k + 8 + h);
                sizes.push(check("v ours", &|n| &mut n.v[us], analytic.v[us]));
                sizes.push(check("v theirs", &|n| &mut n.v[them], analytic.v[them]));
            }
            for f in [ours[0], ours[5], theirs[2]] {
                let i = f as usize * 8 + h;
                sizes.push(check("w", &|n| &mut n.w[i], analytic.w[i]));
            }
        }
        // The comparisons were not all of zeros.
        assert!(
            sizes.iter().filter(|&&s| s > 1e-4).count() > 10,
            "{sizes:?}"
        );
    }
}
