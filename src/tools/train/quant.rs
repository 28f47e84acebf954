//! The net file, the contract with the engine: the float network rounded to
//! integers, and a reference of the engine's integer evaluation, against which
//! the float network is checked.
//!
//! ```text
//! 8 bytes  magic b"TABASNN3"
//! u32      N (hidden size)      u32  QA (255)      u32  QB (64)      u32  SCALE (400)
//! u32      K (output buckets, 1..=8)
//! u32      the input layout: 0 plain, 1 king-mirrored (`crate::nnue::InputLayout`)
//! i16 × 768·N   round(W · QA), feature-major (W[f*N + h])
//! i16 × N       round(b · QA)
//! i16 × K·2N    round(V · QB), bucket by bucket: the side to move's half, then
//!               the other side's
//! i32 × K       round(c0 · QA · QB), bucket by bucket
//! ```
//!
//! All little-endian (`crate::nnue::Header` reads and writes the header; a
//! `TABASNN2` file is the same without the layout, a plain net). The engine evaluates, in integers, with `k` the output
//! bucket of the position's number of pieces (`crate::nnue::output_bucket`):
//! `acc = b + Σ W` per perspective, `s = Σ clamp(acc_us, 0, QA)² · V[2kN + h] +
//! Σ clamp(acc_them, 0, QA)² · V[2kN + N + h]`, `out = s / QA + c0[k]`, and
//! `eval = out · SCALE / (QA · QB)` centipawns.

use super::data::features_of;
use super::net::FloatNet;
use shakmaty::Chess;

// The file's constants are the engine's (`src/nnue/mod.rs`), which also bounds
// the integer sums: the engine's loader refuses an output bucket whose `i32` sum
// could overflow (never near for a trained net); `QuantNet` sums in `i64` for any size.
use crate::nnue::output_bucket;
use crate::nnue::{Header, InputLayout};
pub use crate::nnue::{INPUTS as FEATURES, MAGIC, MAX_OUTPUT_BUCKETS, QA, QB, SCALE};
/// The hidden sizes a file may hold: multiples of `HIDDEN_STEP` (whole vector
/// registers for the engine and the trainer) in `MIN_HIDDEN..=MAX_HIDDEN`.
pub const MIN_HIDDEN: usize = 8;
pub const MAX_HIDDEN: usize = 1024;
pub use super::net::HIDDEN_STEP;

/// The network as the engine holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    pub hidden: usize,
    pub layout: InputLayout,
    pub w: Vec<i16>,
    pub b: Vec<i16>,
    pub v: Vec<i16>,
    /// One bias per output bucket.
    pub c0: Vec<i32>,
}

/// `x · unit`, rounded to the nearest integer (halves away from zero) and held
/// within `i16` (the trainer's clip keeps it there anyway).
fn to_i16(x: f32, unit: i32) -> i16 {
    (x * unit as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

impl QuantNet {
    pub fn from_float(net: &FloatNet) -> QuantNet {
        QuantNet {
            hidden: net.hidden,
            layout: net.layout,
            w: net.w.iter().map(|&x| to_i16(x, QA)).collect(),
            b: net.b.iter().map(|&x| to_i16(x, QA)).collect(),
            v: net.v.iter().map(|&x| to_i16(x, QB)).collect(),
            c0: net
                .c0
                .iter()
                .map(|&c| {
                    (c as f64 * (QA * QB) as f64)
                        .round()
                        .clamp(i32::MIN as f64, i32::MAX as f64) as i32
                })
                .collect(),
        }
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.c0.len()
    }

    /// The net file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Header::new(self.hidden, self.layout, self.buckets()).to_bytes();
        out.reserve(file_len(self.hidden, self.buckets()) - out.len());
        for x in self.w.iter().chain(&self.b).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for c in &self.c0 {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out
    }

    /// Reads a net file (also one of the format before layouts, `TABASNN2`); an
    /// error that says what is wrong with it otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet, String> {
        let header = Header::read(bytes)?;
        let (hidden, buckets) = (header.hidden, header.buckets);
        if !(MIN_HIDDEN..=MAX_HIDDEN).contains(&hidden) || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(format!(
                "hidden size {hidden} is not a multiple of {HIDDEN_STEP} in {MIN_HIDDEN}..={MAX_HIDDEN}"
            ));
        }
        let expected = header.len + body_len(hidden, buckets);
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, but a net of {hidden} hidden units and {buckets} output buckets \
                 takes {expected}",
                bytes.len(),
            ));
        }
        let biases = bytes.len() - 4 * buckets;
        let mut i16s = bytes[header.len..biases]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| i16s.by_ref().take(n).collect::<Vec<i16>>();
        let (w, b, v) = (
            take(FEATURES * hidden),
            take(hidden),
            take(buckets * 2 * hidden),
        );
        Ok(QuantNet {
            hidden,
            layout: header.layout,
            w,
            b,
            v,
            c0: bytes[biases..]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        })
    }

    /// The hidden layer's input for the active features, as the engine adds it
    /// (kept in `i32` here, so that a test can see whether it leaves `i16`).
    pub fn accumulator(&self, features: &[u16]) -> Vec<i32> {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.b.iter().map(|&b| b as i32).collect();
        for &f in features {
            for (a, &w) in acc
                .iter_mut()
                .zip(&self.w[f as usize * n..(f as usize + 1) * n])
            {
                *a += w as i32;
            }
        }
        acc
    }

    /// The engine's evaluation of `pos`, centipawns, side to move's view.
    pub fn evaluate_cp(&self, pos: &Chess) -> i32 {
        let (ours, theirs) = features_of(pos, self.layout);
        self.evaluate_features(&ours, &theirs)
    }

    /// The engine's evaluation from the side to move's (`ours`) and the other
    /// side's (`theirs`) active features.
    pub fn evaluate_features(&self, ours: &[u16], theirs: &[u16]) -> i32 {
        (self.output(ours, theirs) * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The engine's output before its scaling to centipawns, in units of
    /// 1/(QA·QB) (an `i64` here; the engine's sum must not overflow either).
    fn output(&self, ours: &[u16], theirs: &[u16]) -> i64 {
        let (us, them) = (self.accumulator(ours), self.accumulator(theirs));
        let (n, bucket) = (self.hidden, output_bucket(ours.len(), self.buckets()));
        let (v_us, v_them) = self.v[2 * n * bucket..2 * n * (bucket + 1)].split_at(n);
        let mut sum: i64 = 0;
        for (acc, v) in [(&us, v_us), (&them, v_them)] {
            for (&a, &v) in acc.iter().zip(v) {
                let c = a.clamp(0, QA) as i64;
                sum += c * c * v as i64;
            }
        }
        sum / QA as i64 + self.c0[bucket] as i64
    }
}

/// The length of the file of a net with `hidden` units and `buckets` output buckets.
pub fn file_len(hidden: usize, buckets: usize) -> usize {
    Header::new(hidden, InputLayout::Plain, buckets).len + body_len(hidden, buckets)
}

/// The length of the weights and biases of a net with `hidden` units and `buckets`
/// output buckets (the file after its header).
fn body_len(hidden: usize, buckets: usize) -> usize {
    2 * (FEATURES * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

impl FloatNet {
    /// Moves each output weight to the nearest value the net file holds exactly
    /// (a multiple of 1/QB), so that rounding it for the file changes nothing.
    pub fn snap_output_weights(&mut self) {
        for v in &mut self.v {
            *v = (*v * QB as f32)
                .round()
                .clamp(-(i8::MAX as f32), i8::MAX as f32)
                / QB as f32;
        }
    }

    /// The net file of this network (quantised).
    pub fn to_bytes(&self) -> Vec<u8> {
        QuantNet::from_float(self).to_bytes()
    }

    /// The float network a net file holds (each integer over its unit): where
    /// `tabas train --init` starts. Quantised again it is the same file, bit for bit.
    pub fn from_quant(q: &QuantNet) -> FloatNet {
        let over = |unit: i32| move |&x: &i16| x as f32 / unit as f32;
        FloatNet {
            hidden: q.hidden,
            layout: q.layout,
            activation: super::Activation::SCReLU,
            w: q.w.iter().map(over(QA)).collect(),
            b: q.b.iter().map(over(QA)).collect(),
            v: q.v.iter().map(over(QB)).collect(),
            c0: q
                .c0
                .iter()
                .map(|&c| (c as f64 / (QA * QB) as f64) as f32)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::train::net::tests::playout_positions;

    #[test]
    fn the_file_has_the_contracts_layout_and_reads_back() {
        let mut net = FloatNet::new(8, 2, 3);
        net.w[0] = 0.5; // 127.5 → 128
        net.w[1] = -0.5; // → −128
        net.w[8 * 5 + 2] = 1.98; // feature 5, unit 2: 504.9 → 505
        net.b[7] = -0.1; // → −25.5 → −26
        net.v[0] = 1.0; // → 64
        net.v[15] = -1.98; // → −126.72 → −127
        net.v[16 + 3] = 0.5; // bucket 1, unit 3 of the side to move: 32
        net.c0 = vec![0.25, -0.5]; // → 4080, −8160
        net.layout = InputLayout::KingMirrored;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 8 + 24 + 2 * (768 * 8 + 8 + 2 * 16) + 2 * 4);
        assert_eq!(bytes.len(), file_len(8, 2));
        assert_eq!(&bytes[..8], b"TABASNN3");
        assert_eq!(
            &bytes[8..32],
            &[
                8, 0, 0, 0, 255, 0, 0, 0, 64, 0, 0, 0, 144, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0
            ]
        );
        let i16_at = |i: usize| i16::from_le_bytes([bytes[32 + 2 * i], bytes[33 + 2 * i]]);
        assert_eq!((i16_at(0), i16_at(1), i16_at(42)), (128, -128, 505));
        let b = 768 * 8;
        assert_eq!(i16_at(b + 7), -26);
        assert_eq!((i16_at(b + 8), i16_at(b + 8 + 15)), (64, -127));
        assert_eq!(i16_at(b + 8 + 16 + 3), 32);
        let end = bytes.len();
        assert_eq!(&bytes[end - 8..end - 4], &4080i32.to_le_bytes());
        assert_eq!(&bytes[end - 4..], &(-8160i32).to_le_bytes());

        let q = QuantNet::from_bytes(&bytes).unwrap();
        assert_eq!(q, QuantNet::from_float(&net));
        assert_eq!(q.layout, InputLayout::KingMirrored);
        assert_eq!(q.to_bytes(), bytes);
        // The format before layouts: the same without the layout's word, a plain net.
        let mut older = b"TABASNN2".to_vec();
        older.extend_from_slice(&bytes[8..28]);
        older.extend_from_slice(&bytes[32..]);
        let plain = QuantNet::from_bytes(&older).unwrap();
        assert_eq!(plain.layout, InputLayout::Plain);
        assert_eq!(
            (plain.w, plain.v, plain.c0),
            (q.w.clone(), q.v.clone(), q.c0.clone())
        );
        let mut unknown = bytes.clone();
        unknown[28] = 5;
        assert!(
            QuantNet::from_bytes(&unknown)
                .unwrap_err()
                .contains("input layout 5")
        );

        // Damaged files: errors, not panics.
        assert!(QuantNet::from_bytes(b"").is_err());
        assert!(QuantNet::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut other = bytes.clone();
        other[12] = 254;
        assert!(QuantNet::from_bytes(&other).unwrap_err().contains("QA"));
        let mut odd = bytes.clone();
        odd[8] = 12;
        assert!(QuantNet::from_bytes(&odd).is_err());
        for buckets in [0, 3, 9] {
            let mut other = bytes.clone();
            other[24] = buckets;
            assert!(QuantNet::from_bytes(&other).is_err(), "{buckets} buckets");
        }
        let mut magic = bytes;
        magic[0] = b'X';
        assert!(QuantNet::from_bytes(&magic).unwrap_err().contains("magic"));
    }

    #[test]
    fn a_net_file_read_as_floats_is_the_same_file() {
        // The built-in net, and a random one with every value the file can hold.
        let mut random = FloatNet::new(16, 8, 11);
        random.v.iter_mut().for_each(|v| *v *= 300.0);
        random.c0 = vec![1e3, -1e3, 0.5, -7.0, 0.0, 1.0 / 17.0, 40.0, -0.001];
        let built_in = include_bytes!("../../nnue/default.nnue");
        for bytes in [built_in.to_vec(), random.to_bytes()] {
            let q = QuantNet::from_bytes(&bytes).unwrap();
            let float = FloatNet::from_quant(&q);
            if bytes.starts_with(MAGIC) {
                assert_eq!(float.to_bytes(), bytes);
            } else {
                // The built-in file is of the format before layouts: written again,
                // it is this format's file of the same plain net.
                assert_eq!(q.layout, InputLayout::Plain);
                assert_eq!(QuantNet::from_bytes(&float.to_bytes()).unwrap(), q);
            }
            // Its float evaluation is the file's, up to the engine's truncations.
            for p in playout_positions(20, 7) {
                let (f, i) = (float.evaluate_cp(&p), q.evaluate_cp(&p));
                assert!((f - i as f32).abs() <= 1.001, "{f} {i}");
            }
        }
    }

    #[test]
    fn the_integer_evaluation_follows_the_float_one() {
        // A net whose weights are exact in integers: only the engine's divisions
        // (truncating) differ from the float evaluation.
        let mut exact = FloatNet::new(16, 8, 8);
        exact
            .w
            .iter_mut()
            .for_each(|w| *w = (*w * QA as f32).round() / QA as f32);
        exact
            .v
            .iter_mut()
            .for_each(|v| *v = (*v * 6.0 * QB as f32).round() / QB as f32);
        exact.c0.fill(13.0 / (QA * QB) as f32);
        // A random net with large output weights: rounding the input weights moves
        // each accumulator by about 1/255, rounding an output weight moves it by up
        // to 1/128, and 128 units add that up to several centipawns.
        let mut rough = FloatNet::new(64, 8, 9);
        rough.v.iter_mut().for_each(|v| *v *= 6.0);
        let positions = playout_positions(60, 4);
        // (net, largest difference, largest mean difference), centipawns.
        for (net, most, mean) in [(&exact, 1.001, 0.75), (&rough, 20.0, 6.0)] {
            let q = QuantNet::from_bytes(&net.to_bytes()).unwrap();
            let mut total = 0.0;
            for p in &positions {
                let (float, int) = (net.evaluate_cp(p), q.evaluate_cp(p));
                assert!((float - int as f32).abs() <= most, "{float} {int}");
                total += (float - int as f32).abs();
                let (ours, theirs) = features_of(p, q.layout);
                for features in [ours, theirs] {
                    let acc = q.accumulator(&features);
                    assert!(acc.iter().all(|a| a.abs() <= i16::MAX as i32));
                }
            }
            let average = total / positions.len() as f32;
            assert!(average <= mean, "{average}");
        }
    }
}
