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
    /// What a fail-soft search that returned `score` in the window (`alpha`, `beta`) proves.
    #[inline]
    pub fn of(score: Score, alpha: Score, beta: Score) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles the window (`alpha`, `beta`).
    #[inline]
    pub fn decides(self, score: Score, alpha: Score, beta: Score) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
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
    /// The best move, packed by `packed_move::pack_move` (0 = none).
    pub packed_move: u16,
    pub score: Score,
    pub static_eval: Score,
    pub depth: i32,
    pub bound: Bound,
}

/// The table's size when nobody chose one (the UCI `Hash` option's default), in MiB.
pub const DEFAULT_MB: usize = 16;

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
    /// The buckets, in segments of `SEGMENT_BUCKETS` (the last may be shorter).
    segments: Vec<ZeroedBuckets>,
    /// Buckets in all.
    len: usize,
    generation: AtomicU8,
}

/// Buckets per segment: 64 MB. Above glibc's largest `mmap` threshold (32 MB), so
/// each segment is mapped fresh (zero pages, handed out lazily) and unmapped when
/// freed; and small enough that unmapping one blocks a searching thread's page
/// faults for a millisecond or two at most (see `free_gradually`).
const SEGMENT_SHIFT: u32 = 20;
const SEGMENT_BUCKETS: usize = 1 << SEGMENT_SHIFT;

/// The table's memory: zeroed buckets, 64-byte aligned, obtained so that the OS hands
/// out the zero pages lazily (`calloc` of fresh memory maps it without writing it).
/// `alloc_zeroed` with the bucket's 64-byte alignment would instead write every byte
/// (about 1.5 s for 4 GB) before the search could start, so the block is asked for with
/// the allocator's natural alignment, 64 bytes larger, and the buckets start at the
/// first 64-byte boundary inside it.
struct ZeroedBuckets {
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    first: *const Bucket,
    len: usize,
}

// SAFETY: the buckets are atomics only; the block is owned and freed once, in `drop`.
unsafe impl Send for ZeroedBuckets {}
unsafe impl Sync for ZeroedBuckets {}

impl ZeroedBuckets {
    fn new(count: usize) -> Option<ZeroedBuckets> {
        const ALIGN: usize = std::mem::align_of::<Bucket>();
        let bytes = count
            .checked_mul(std::mem::size_of::<Bucket>())?
            .checked_add(ALIGN)?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout has a non-zero size; a null pointer (refused) is handled.
        let block = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(ALIGN);
        if offset >= ALIGN {
            // SAFETY: allocated just above with this layout.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
            return None;
        }
        // SAFETY: offset < ALIGN, so `count` buckets fit after it inside the block.
        let first = unsafe { block.as_ptr().add(offset) } as *const Bucket;
        advise_huge_pages(block.as_ptr(), bytes);
        Some(ZeroedBuckets {
            block,
            layout,
            first,
            len: count,
        })
    }
}

/// Asks Linux to back the table with 2 MB pages where it can (transparent huge
/// pages in "madvise" mode, the common default): a probe lands anywhere in the
/// table, and with 4 KB pages nearly every probe also misses the TLB. Only advice:
/// where it is refused, or elsewhere than Linux, nothing changes. (std links the C
/// library already; `madvise` is all this needs of it.)
fn advise_huge_pages(block: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        const HUGE_PAGE: usize = 2 << 20;
        unsafe extern "C" {
            fn madvise(
                addr: *mut std::ffi::c_void,
                len: usize,
                advice: std::ffi::c_int,
            ) -> std::ffi::c_int;
        }
        // The whole huge pages inside the block (madvise wants an aligned start).
        let start = block.align_offset(HUGE_PAGE);
        if start >= bytes {
            return;
        }
        let len = (bytes - start) / HUGE_PAGE * HUGE_PAGE;
        if len == 0 {
            return;
        }
        // SAFETY: [block + start, block + start + len) lies inside the block we own;
        // MADV_HUGEPAGE changes how the kernel backs it, never its contents.
        unsafe { madvise(block.add(start).cast(), len, MADV_HUGEPAGE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, bytes);
}

impl std::ops::Deref for ZeroedBuckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is 64-byte aligned and `len` zeroed buckets lie within the
        // block, which lives as long as `self`; all-zero bytes are a valid (empty)
        // bucket, since a bucket is atomics only.
        unsafe { std::slice::from_raw_parts(self.first, self.len) }
    }
}

impl Drop for ZeroedBuckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed only here.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) };
    }
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
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut segments = Vec::with_capacity(len.div_ceil(SEGMENT_BUCKETS));
        let mut left = len;
        while left > 0 {
            let count = left.min(SEGMENT_BUCKETS);
            segments.push(ZeroedBuckets::new(count)?);
            left -= count;
        }
        Some(TranspositionTable {
            segments,
            len,
            generation: AtomicU8::new(0),
        })
    }

    pub fn size_mb(&self) -> usize {
        self.len * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Gives the memory back one segment at a time with a pause after each, so that
    /// a search running meanwhile (on a new table) is never held up for long.
    pub fn free_gradually(self) {
        for segment in self.segments {
            drop(segment);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Forgets everything (`Clear Hash` when a new table cannot be had).
    pub fn clear(&self) {
        for bucket in self.segments.iter().flat_map(|s| s.iter()) {
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
        let index = ((key as u128 * self.len as u128) >> 64) as usize;
        &self.segments[index >> SEGMENT_SHIFT][index & (SEGMENT_BUCKETS - 1)]
    }

    /// Asks the CPU to bring `key`'s bucket into the cache now, so that the probe
    /// that follows (the child's, once the parent has decided how to search it)
    /// does not wait for memory. Only a hint: it changes nothing the table holds.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; it reads nothing the program sees
            // and cannot fault (SSE, part of the x86-64 baseline).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
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

    pub fn store(&self, key: u64, entry: Entry, rule: Replacement) {
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
                        && old.depth > entry.depth + rule.keep_deeper_by
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
                    old.depth - rule.age_weight * age
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
        let first = &self.segments[0];
        let sample = first.len().min(250);
        let mut used = 0;
        for bucket in &first[..sample] {
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

/// The numbers of the replacement rule (the search's tunables decide them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// An entry of an older search counts as this many plies shallower per search of age.
    pub age_weight: i32,
    /// A non-exact entry of the same position is kept when it is deeper than the new one by more than this.
    pub keep_deeper_by: i32,
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

    const RULE: Replacement = Replacement {
        age_weight: 8,
        keep_deeper_by: 3,
    };

    #[test]
    fn a_result_proves_the_bound_that_later_decides_the_same_window() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(30, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        for score in [-100, 10, 30, 50, 100] {
            assert!(Bound::of(score, 10, 50).decides(score, 10, 50), "{score}");
        }
        assert!(!Bound::Lower.decides(40, 10, 50));
        assert!(!Bound::Upper.decides(20, 10, 50));
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = entry(9, -30_500, Bound::Lower);
        tt.store(0xdead_beef_1234_5678, e, RULE);
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
        tt.store(keys[0], entry(20, 1, Bound::Exact), RULE);
        for (i, &k) in keys[1..].iter().enumerate() {
            tt.store(k, entry(1 + i as i32 % 2, 2, Bound::Upper), RULE);
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
                RULE,
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

    #[test]
    fn a_table_of_several_segments_uses_all_of_them() {
        // 80 MB: a full 64 MB segment and a shorter one.
        let tt = TranspositionTable::new(80).unwrap();
        assert_eq!(tt.segments.len(), 2);
        assert_eq!(tt.size_mb(), 80);
        let mut key = 0x9E37_79B9_7F4A_7C15u64;
        let mut keys = Vec::new();
        for depth in 0..2000 {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tt.store(key, entry(depth % 100, 5, Bound::Lower), RULE);
            keys.push(key);
        }
        let mut seen = [false; 2];
        for &k in &keys {
            let index = ((k as u128 * tt.len as u128) >> 64) as usize;
            seen[index >> SEGMENT_SHIFT] = true;
            assert!(tt.probe(k).is_some());
        }
        assert_eq!(seen, [true, true]);
        tt.free_gradually();
    }
}
