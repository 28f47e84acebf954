//! A small seeded random number generator (SplitMix64): the same seed gives the same
//! openings on every machine. Not for anything that needs unpredictability.

pub struct Rng(u64);

impl Rng {
    /// A generator for one game: `seed` is the run's, `stream` the game's number.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        // Mix once, so that nearby seeds and streams start far apart.
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`, uniform (53 bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `0..n` (`n` > 0; the bias of the modulo is negligible for small `n`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random legal move of `moves` for test playouts: a capture, when there is one,
/// with odds 1 in `capture_one_in` (so that random games reach endgames and odd
/// material), else any move. `moves` must not be empty.
#[cfg(test)]
pub fn playout_move(
    rng: &mut Rng,
    moves: &shakmaty::MoveList,
    capture_one_in: u64,
) -> shakmaty::Move {
    let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
    if !captures.is_empty() && rng.below(capture_one_in) == 0 {
        *captures[rng.below(captures.len() as u64) as usize]
    } else {
        moves[rng.below(moves.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_other_stream_other_numbers() {
        let a: Vec<u64> = (0..8).map(|_| Rng::new(7, 3).below(1000)).collect();
        let mut r = Rng::new(7, 3);
        let b: Vec<u64> = (0..8).map(|_| r.below(1000)).collect();
        let mut r = Rng::new(7, 3);
        let c: Vec<u64> = (0..8).map(|_| r.below(1000)).collect();
        assert_eq!(b, c);
        assert!(
            a.iter().all(|&x| x == a[0]),
            "a fresh generator repeats itself"
        );
        let mut other = Rng::new(7, 4);
        let d: Vec<u64> = (0..8).map(|_| other.below(1000)).collect();
        assert_ne!(b, d);
        assert!(b.iter().all(|&x| x < 1000));
    }

    #[test]
    fn unit_numbers_lie_in_zero_to_one() {
        let mut r = Rng::new(1, 2);
        let xs: Vec<f64> = (0..10_000).map(|_| r.unit()).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
    }
}
