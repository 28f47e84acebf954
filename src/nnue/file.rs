//! The network file: its format (`src/tools/train/`'s contract: the trainer writes
//! it, its round trip is tested there), its loader, and the bounds the loader checks
//! so that the integer arithmetic cannot overflow.

use super::{HIDDEN, INPUTS, InputLayout, Network, QA, QB, SCALE};

/// The file's first bytes: this format, whose header ends with the input layout.
pub const MAGIC: &[u8; 8] = b"TABASNN3";
/// The format before input layouts (its nets are [`InputLayout::Plain`]), still read.
pub const MAGIC_PLAIN_ONLY: &[u8; 8] = b"TABASNN2";
/// The most output buckets a file may hold.
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// The largest hidden weight or bias a file may hold: a bias plus 32 pieces'
/// weights then stays within `i16`, so an accumulator cannot overflow.
pub(super) const MAX_HIDDEN_WEIGHT: i32 = i16::MAX as i32 / 33;
/// The largest output weight: `clamp(acc) * weight` then fits in `i16`, the
/// product the evaluation takes before widening (see [`Network::evaluate`]).
pub(super) const MAX_OUTPUT_WEIGHT: i32 = i16::MAX as i32 / QA;
/// The largest sum of one output bucket's weights' magnitudes (both halves): the
/// output sum, Σ clamp(acc)² · weight, and every partial sum of it, are then at most
/// QA² times this, within `i32`. Checked per file: every weight at its bound fits
/// only up to 128 hidden units, while trained nets stay far below it (about a tenth
/// for the nets of docs/network/), so a build with more units (`HIDDEN`) loads them.
pub(super) const MAX_OUTPUT_WEIGHT_SUM: i64 = i32::MAX as i64 / (QA as i64 * QA as i64);

/// What a net file's header says: magic, then `u32`s: hidden units, QA, QB, SCALE,
/// output buckets and (from `TABASNN3`) the input layout's code. The engine's
/// loader and the trainer's both read it here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub hidden: usize,
    pub layout: InputLayout,
    pub buckets: usize,
    /// The header's length in bytes (the weights follow).
    pub len: usize,
}

impl Header {
    /// A header of this format for a net of `hidden` units, `layout` and `buckets`.
    pub fn new(hidden: usize, layout: InputLayout, buckets: usize) -> Header {
        Header {
            hidden,
            layout,
            buckets,
            len: MAGIC.len() + 6 * 4,
        }
    }

    /// The header's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        let numbers = [
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            self.buckets as u32,
            self.layout.code(),
        ];
        for n in numbers {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        bytes
    }

    /// Reads the header at the start of `bytes`, checking the numbers every build
    /// shares (the scales, the buckets' range, a known layout); the hidden size is
    /// the reader's to check.
    pub fn read(bytes: &[u8]) -> Result<Header, String> {
        let mut reader = Reader { bytes, at: 0 };
        let magic = reader.take(MAGIC.len())?;
        if magic == b"TABASNN1" {
            return Err(
                "an older network format (TABASNN1, before output buckets): train it again"
                    .to_string(),
            );
        }
        if magic != MAGIC && magic != MAGIC_PLAIN_ONLY {
            return Err("not a Tabas network file (bad magic)".to_string());
        }
        let hidden = reader.u32()? as usize;
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
        let layout = if magic == MAGIC_PLAIN_ONLY {
            InputLayout::Plain
        } else {
            let code = reader.u32()?;
            InputLayout::from_code(code).ok_or_else(|| {
                let known: Vec<String> = InputLayout::ALL
                    .iter()
                    .map(|l| format!("{} {}", l.code(), l.name()))
                    .collect();
                format!(
                    "the network's input layout {code} is unknown to this build (it reads {})",
                    known.join(", ")
                )
            })?
        };
        Ok(Header {
            hidden,
            layout,
            buckets,
            len: reader.at,
        })
    }
}

impl Network {
    /// Reads a network file (`src/tools/train/`'s format); an error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let header = Header::read(bytes)?;
        let mut reader = Reader {
            bytes,
            at: header.len,
        };
        let (hidden, buckets) = (header.hidden, header.buckets);
        if hidden != HIDDEN {
            return Err(format!(
                "the network has {hidden} hidden neurons; this build takes {HIDDEN}"
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
            layout: header.layout,
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

#[cfg(test)]
mod tests {
    use super::super::tests::{HEADER, TEST_BUCKETS, random_network_bytes};
    use super::*;

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
    fn a_missing_file_is_an_error() {
        let e = load_file("/no/such/dir/net.nnue").unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
