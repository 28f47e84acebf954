//! The transposition table: what earlier searches learned about a position.
//!
//! Buckets of four 16-byte entries fill a 64-byte cache line. Each entry is two
//! atomic words: the packed data, and the Zobrist key xor-ed with that data
//! ("lockless hashing", Hyatt and Mann): a torn or foreign entry fails the key
//! check instead of returning garbage, so threads may share the table without locks.
//!
//! Data layout (64 bits): move (16) | score (16) | static eval (16) | depth (8) | age (6) + bound (2).
//! Mate scores are stored relative to the node (`score::to_tt`), the caller converts.

use crate::score::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

impl Bound {
    fn to_bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// What a probe returns: score already as stored (node-relative mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move, packed by `search::ordering::pack_move` (0 = none).
    pub packed_move: u16,
    pub score: Score,
    pub static_eval: Score,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Generations are 6 bits: they wrap, and age is measured modulo 64.
const AGE_MASK: u8 = 0x3f;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

fn pack(e: &Entry, generation: u8) -> u64 {
    (e.packed_move as u64)
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.static_eval as i16 as u16 as u64) << 32)
        | ((e.depth.clamp(0, 255) as u64) << 48)
        | (((generation & AGE_MASK) as u64) << 58)
        | (e.bound.to_bits() << 56)
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = Bound::from_bits(data >> 56)?;
    Some(Entry {
        packed_move: data as u16,
        score: (data >> 16) as u16 as i16 as Score,
        static_eval: (data >> 32) as u16 as i16 as Score,
        depth: ((data >> 48) & 0xff) as i32,
        bound,
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 58) as u8) & AGE_MASK
}

impl TranspositionTable {
    /// A table of at most `mb` mebibytes (at least one bucket).
    /// Returns `None` when the memory cannot be had, so the caller keeps its old table.
    pub fn new(mb: usize) -> Option<TranspositionTable> {
        let bytes = mb.checked_mul(1024 * 1024)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let layout = std::alloc::Layout::array::<Bucket>(count).ok()?;
        // SAFETY: a bucket is atomics only, for which all-zero bytes are a valid
        // (empty) value; the pointer is checked, and `Box` frees it with the same layout.
        // Zeroed allocation lets the OS hand out pages lazily, so a large table
        // costs nothing until used, and a request the OS refuses returns null here.
        let buckets = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Bucket;
            if ptr.is_null() {
                return None;
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
        };
        Some(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets everything (`ucinewgame`, `Clear Hash`).
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per `go`: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & AGE_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table length.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Prefetch-free probe: the entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a deeper bound's move when the new entry has none,
                // and keep a much deeper non-exact entry over a shallow one.
                let old = unpack(data);
                let mut entry = entry;
                if let Some(old) = old {
                    if entry.packed_move == 0 {
                        entry.packed_move = old.packed_move;
                    }
                    if entry.bound != Bound::Exact
                        && old.depth > entry.depth + 3
                        && age_of(data) == generation
                    {
                        return;
                    }
                }
                write(slot, key, &entry, generation);
                return;
            }
            // Replace the entry worth least: empty, then old, then shallow.
            let worth = match unpack(data) {
                None => i32::MIN,
                Some(old) => {
                    let age = (generation.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
                    old.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(victim, key, &entry, generation);
    }

    /// Permille of entries written during the current search, sampled (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if unpack(data).is_some() && age_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
    }
}

fn write(slot: &Slot, key: u64, entry: &Entry, generation: u8) {
    let data = pack(entry, generation);
    slot.data.store(data, Ordering::Relaxed);
    slot.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: i32, score: Score, bound: Bound) -> Entry {
        Entry {
            packed_move: 0x1234,
            score,
            static_eval: -77,
            depth,
            bound,
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = entry(9, -30_500, Bound::Lower);
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0xdead_beef_1234_5679), None);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef_1234_5678), None);
    }

    #[test]
    fn bucket_keeps_deep_entries_over_shallow_ones() {
        let tt = TranspositionTable::new(1).unwrap();
        // Keys that share a bucket: same high bits select the bucket.
        let keys: Vec<u64> = (0..6u64).map(|i| 0x8000_0000_0000_0000 | i).collect();
        tt.store(keys[0], entry(20, 1, Bound::Exact));
        for (i, &k) in keys[1..].iter().enumerate() {
            tt.store(k, entry(1 + i as i32 % 2, 2, Bound::Upper));
        }
        assert_eq!(tt.probe(keys[0]).map(|e| e.depth), Some(20));
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                entry(1, 0, Bound::Exact),
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn absurd_size_is_refused_not_fatal() {
        assert!(TranspositionTable::new(usize::MAX / 2).is_none());
    }
}
