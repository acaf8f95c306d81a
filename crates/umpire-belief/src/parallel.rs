//! Work of one update split over threads, with results taken in the order a single thread
//! would have produced them: what a belief holds never depends on thread timing.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Results of one block a worker may run ahead by before the taker catches up.
const DEPTH: usize = 4;

/// Runs `work` on consecutive blocks of `items` (of `block` items each) over `threads` worker
/// threads (block `b` on worker `b % threads`) and hands each block's result to `take` in block
/// order, on the calling thread. `take` returns whether to go on; once it says no, no further
/// result is taken and the workers stop at their next block. `work` receives a result buffer
/// that may hold an earlier block's result, to be cleared (buffers are recycled, so a long run
/// allocates only a few).
pub(crate) fn ordered_blocks<T, R>(
    items: &[T],
    block: usize,
    threads: usize,
    work: impl Fn(&[T], &mut R) + Sync,
    mut take: impl FnMut(&mut R) -> bool,
) where
    T: Sync,
    R: Send + Default,
{
    let block = block.max(1);
    let threads = threads.max(1);
    let blocks = items.len().div_ceil(block);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut results = Vec::with_capacity(threads);
        let mut returns = Vec::with_capacity(threads);
        for t in 0..threads {
            let (tx, rx) = mpsc::sync_channel::<R>(DEPTH);
            let (back_tx, back_rx) = mpsc::channel::<R>();
            results.push(rx);
            returns.push(back_tx);
            let (work, stop) = (&work, &stop);
            scope.spawn(move || {
                let mut b = t;
                while b < blocks && !stop.load(Ordering::Relaxed) {
                    let mut r = back_rx.try_recv().unwrap_or_default();
                    let end = ((b + 1) * block).min(items.len());
                    work(&items[b * block..end], &mut r);
                    if tx.send(r).is_err() {
                        break;
                    }
                    b += threads;
                }
            });
        }
        for b in 0..blocks {
            let Ok(mut r) = results[b % threads].recv() else {
                break;
            };
            let go = take(&mut r);
            // The worker may have finished: a buffer it does not take back is dropped.
            let _ = returns[b % threads].send(r);
            if !go {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        // Unblocks workers waiting to hand over a result nobody will take.
        drop(results);
    });
}

/// Splits `items` into `threads` consecutive chunks of nearly equal length, runs `work` on each
/// (the first on the calling thread; each may rearrange its own chunk) and returns the results
/// in chunk order.
pub(crate) fn map_chunks<T, R>(
    items: &mut [T],
    threads: usize,
    work: impl Fn(&mut [T]) -> R + Sync,
) -> Vec<R>
where
    T: Send,
    R: Send,
{
    let threads = threads.clamp(1, items.len().max(1));
    let size = items.len().div_ceil(threads).max(1);
    let mut chunks = items.chunks_mut(size);
    let first = chunks.next().unwrap_or(&mut []);
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = chunks.map(|c| scope.spawn(move || work(c))).collect();
        let mut out = Vec::with_capacity(handles.len() + 1);
        out.push(work(first));
        for h in handles {
            match h.join() {
                Ok(r) => out.push(r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// Splits `0..len` into `threads` consecutive ranges of nearly equal length, runs `work` on
/// each (the first on the calling thread, the others on one scoped thread each) and returns the
/// results in range order. With one thread (or nothing to split) no thread is started.
pub(crate) fn map_ranges<R>(
    len: usize,
    threads: usize,
    work: impl Fn(Range<usize>) -> R + Sync,
) -> Vec<R>
where
    R: Send,
{
    let threads = threads.clamp(1, len.max(1));
    if threads == 1 {
        return vec![work(0..len)];
    }
    let size = len.div_ceil(threads);
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (1..threads)
            .map(|t| {
                let range = (t * size).min(len)..((t + 1) * size).min(len);
                scope.spawn(move || work(range))
            })
            .collect();
        let mut out = Vec::with_capacity(threads);
        out.push(work(0..size.min(len)));
        for h in handles {
            match h.join() {
                Ok(r) => out.push(r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_taken_in_order_whatever_the_threads() {
        let items: Vec<u32> = (0..1000).collect();
        for threads in 1..=3 {
            let mut seen = Vec::new();
            ordered_blocks(
                &items,
                7,
                threads,
                |block: &[u32], out: &mut Vec<u32>| {
                    out.clear();
                    out.extend(block.iter().map(|x| x * 2));
                },
                |r| {
                    seen.extend_from_slice(r);
                    true
                },
            );
            let want: Vec<u32> = items.iter().map(|x| x * 2).collect();
            assert_eq!(seen, want, "{threads} threads");
        }
    }

    #[test]
    fn taking_stops_when_asked() {
        let items: Vec<u32> = (0..1000).collect();
        let mut taken = 0;
        ordered_blocks(
            &items,
            10,
            2,
            |block: &[u32], out: &mut Vec<u32>| {
                out.clear();
                out.extend_from_slice(block);
            },
            |r| {
                taken += r.len();
                taken < 55
            },
        );
        // Blocks 0..5 (60 items) are taken; the sixth says stop.
        assert_eq!(taken, 60);
    }

    #[test]
    fn chunks_come_back_in_order() {
        let mut items: Vec<u64> = (0..101).collect();
        for threads in [1, 2, 3, 200] {
            let parts = map_chunks(&mut items, threads, |c: &mut [u64]| c.to_vec());
            assert_eq!(
                parts.concat(),
                (0..101).collect::<Vec<u64>>(),
                "{threads} threads"
            );
        }
        // Each chunk may rearrange itself.
        map_chunks(&mut items, 2, |c: &mut [u64]| c.reverse());
        assert_eq!(items[0], 50);
        assert_eq!(items[100], 51);
        let mut empty: [u64; 0] = [];
        assert_eq!(map_chunks(&mut empty, 2, |c: &mut [u64]| c.len()), vec![0]);
    }

    #[test]
    fn ranges_cover_everything_once_in_order() {
        for len in [0, 1, 2, 7, 100, 101] {
            for threads in [1, 2, 3, 200] {
                let parts = map_ranges(len, threads, |r| r.collect::<Vec<usize>>());
                assert_eq!(
                    parts.concat(),
                    (0..len).collect::<Vec<usize>>(),
                    "{len} items, {threads} threads"
                );
                assert!(
                    parts.len() <= threads.max(1),
                    "{len} items, {threads} threads"
                );
            }
        }
        // The ranges are nearly equal: at most one more item per range than the ceiling share.
        let lens: Vec<usize> = map_ranges(101, 3, |r| r.len());
        assert_eq!(lens, vec![34, 34, 33]);
    }
}
