//! Work spread over threads with a result that does not depend on how many: the
//! offline tools (`tune`, `train`, `wdl_fit`) cut their data into the same parts whatever
//! the thread count, so that a run is reproducible on any machine.

/// Work is cut into this many parts whatever the number of threads, and the parts'
/// results come back in order, so that results do not depend on the thread count.
const PARTS: usize = 64;

/// Runs `work(first index, part)` on the parts of `items` over `threads` threads;
/// the results in the parts' order.
pub(crate) fn in_chunks<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    let size = items.len().div_ceil(PARTS).max(1);
    let parts: Vec<(usize, &[T])> = items
        .chunks(size)
        .enumerate()
        .map(|(i, c)| (i * size, c))
        .collect();
    let threads = threads.clamp(1, parts.len().max(1));
    let mut results: Vec<Option<R>> = (0..parts.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (parts, work) = (&parts, &work);
                scope.spawn(move || {
                    parts
                        .iter()
                        .enumerate()
                        .skip(t)
                        .step_by(threads)
                        .map(|(i, &(first, part))| (i, work(first, part)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(done) => done.into_iter().for_each(|(i, r)| results[i] = Some(r)),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    results.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_come_back_in_order_whatever_the_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let sums = |threads| {
            in_chunks(&items, threads, |first, part| {
                (first, part.iter().sum::<u32>())
            })
        };
        let one = sums(1);
        assert_eq!(one, sums(7));
        assert_eq!(one.iter().map(|p| p.1).sum::<u32>(), 999 * 1000 / 2);
        assert_eq!(one[1].0, 1000usize.div_ceil(PARTS));
        assert!(in_chunks(&[] as &[u32], 4, |_, p| p.len()).is_empty());
    }
}
