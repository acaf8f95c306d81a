//! Work of one update split over threads, with results taken in the order a single thread
//! would have produced them: what a belief holds never depends on thread timing.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

/// Blocks per worker thread whose results may wait to be taken: a worker does not start a block
/// more than `DEPTH * threads` blocks ahead of the taker (the results held at once are bounded).
const DEPTH: usize = 4;

/// What the workers and the taker of [`ordered_blocks`] share, under one lock.
struct Window<R> {
    /// Blocks taken so far (every block below is done with).
    taken: usize,
    /// The results waiting to be taken, block `b` in slot `b % slots.len()`.
    slots: Vec<Option<R>>,
    /// Result buffers given back by the taker, for the workers to reuse (at most the slots'
    /// count plus the threads').
    spare: Vec<R>,
    /// Workers still running (one that panicked counts as gone).
    running: usize,
    /// Set once no further result will be taken.
    stopped: bool,
}

/// Counts a worker as gone when it ends, by returning or by a panic, so that the taker never
/// waits for a result nobody will make.
struct Leaving<'a, R> {
    window: &'a Mutex<Window<R>>,
    ready: &'a Condvar,
}

impl<R> Drop for Leaving<'_, R> {
    fn drop(&mut self) {
        let mut w = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        w.running -= 1;
        drop(w);
        self.ready.notify_all();
    }
}

/// Runs `work` on consecutive blocks of `items` (of `block` items each) over `threads` worker
/// threads and hands each block's result to `take` in block order, on the calling thread. A
/// worker takes the next block not yet started whenever it is free (so blocks of unequal cost
/// keep every thread busy), at most `DEPTH * threads` blocks ahead of the taker. `take` returns
/// whether to go on; once it says no, no further result is taken and the workers stop at their
/// next block. `work` receives a result buffer that may hold an earlier block's result, to be
/// cleared (buffers are recycled, so a long run allocates only a few). With one thread no thread
/// is started: each block is made and taken in turn on the calling thread.
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
    if threads <= 1 {
        let mut r = R::default();
        for chunk in items.chunks(block) {
            work(chunk, &mut r);
            if !take(&mut r) {
                break;
            }
        }
        return;
    }
    let blocks = items.len().div_ceil(block);
    let ahead = DEPTH * threads;
    let next = AtomicUsize::new(0);
    let window = Mutex::new(Window {
        taken: 0,
        slots: (0..ahead).map(|_| None).collect(),
        spare: Vec::new(),
        running: threads,
        stopped: false,
    });
    // `ready`: a result was placed or a worker left (the taker waits on it); `room`: a block
    // was taken or the run stopped (workers ahead of the window wait on it).
    let (ready, room) = (Condvar::new(), Condvar::new());
    let lock = || window.lock().unwrap_or_else(PoisonError::into_inner);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (work, next, window, ready, room) = (&work, &next, &window, &ready, &room);
            scope.spawn(move || {
                let _leaving = Leaving { window, ready };
                let lock = || window.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= blocks {
                        break;
                    }
                    let mut w = lock();
                    while !w.stopped && b >= w.taken + ahead {
                        w = room.wait(w).unwrap_or_else(PoisonError::into_inner);
                    }
                    if w.stopped {
                        break;
                    }
                    let mut r = w.spare.pop().unwrap_or_default();
                    drop(w);
                    let end = ((b + 1) * block).min(items.len());
                    work(&items[b * block..end], &mut r);
                    let mut w = lock();
                    if w.stopped {
                        break;
                    }
                    w.slots[b % ahead] = Some(r);
                    drop(w);
                    ready.notify_all();
                }
            });
        }
        for b in 0..blocks {
            let mut w = lock();
            let found = loop {
                if let Some(r) = w.slots[b % ahead].take() {
                    break Some(r);
                }
                if w.running == 0 {
                    // Every worker is gone and the block was never made (one panicked): the
                    // scope passes its panic on.
                    break None;
                }
                w = ready.wait(w).unwrap_or_else(PoisonError::into_inner);
            };
            drop(w);
            let Some(mut r) = found else { break };
            let go = take(&mut r);
            let mut w = lock();
            w.taken = b + 1;
            w.spare.push(r);
            drop(w);
            room.notify_all();
            if !go {
                break;
            }
        }
        lock().stopped = true;
        room.notify_all();
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
    fn blocks_of_unequal_cost_are_still_taken_in_order() {
        // Every third block sleeps, so later blocks finish first on the other threads.
        let items: Vec<u32> = (0..300).collect();
        for threads in [2, 3, 8] {
            let mut seen = Vec::new();
            ordered_blocks(
                &items,
                5,
                threads,
                |block: &[u32], out: &mut Vec<u32>| {
                    if block[0].is_multiple_of(15) {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    out.clear();
                    out.extend_from_slice(block);
                },
                |r| {
                    seen.extend_from_slice(r);
                    true
                },
            );
            assert_eq!(seen, items, "{threads} threads");
        }
        // More threads than blocks, and no blocks at all.
        let mut seen = Vec::new();
        ordered_blocks(
            &items[..3],
            2,
            8,
            |b: &[u32], o: &mut Vec<u32>| *o = b.to_vec(),
            |r| {
                seen.extend_from_slice(r);
                true
            },
        );
        assert_eq!(seen, vec![0, 1, 2]);
        ordered_blocks(
            &items[..0],
            2,
            2,
            |_: &[u32], _: &mut Vec<u32>| {},
            |_| panic!("no block"),
        );
    }

    #[test]
    fn a_worker_that_panics_is_passed_on_not_waited_for() {
        let items: Vec<u32> = (0..100).collect();
        let mut taken = 0;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ordered_blocks(
                &items,
                10,
                2,
                |block: &[u32], out: &mut Vec<u32>| {
                    assert!(block[0] != 30, "block 3 fails");
                    *out = block.to_vec();
                },
                |_| {
                    taken += 1;
                    true
                },
            );
        }));
        assert!(run.is_err());
        assert_eq!(
            taken, 3,
            "the blocks before the failed one are taken, no later one"
        );
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
