//! [`run`]: the small pool that computes password hashes.
//!
//! An argon2id hash (the crate's default parameters) takes 19 MiB and tens of milliseconds of a
//! core. Run on the runtime's blocking threads, a burst of registrations or log-ins computes
//! as many at once as there are requests (up to hundreds of threads, each allocator arena then
//! keeping its 19 MiB), so 128 concurrent registrations once held 3.2 GB. Here they run on
//! [`HASHING_THREADS`] threads of their own, started once and kept, so at most that many
//! hashes are in memory at a time and the same few arenas are reused (and trimmed after each
//! hash, so that the memory goes back to the system); at most
//! [`MAX_WAITING`] more wait in a queue, and past that a request is refused with 503 `busy`
//! (nothing is computed). One address holds at most [`MAX_PER_ADDRESS`] of those places at a
//! time (running or waiting), so that filling the queue, which refuses everyone's log-in,
//! takes many addresses and not one.

use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use axum::http::StatusCode;

use crate::error::ApiError;

/// Threads computing hashes: at most this many hashes (19 MiB each) at once.
pub const HASHING_THREADS: usize = 2;

/// Hashes waiting for a thread at most; one more is refused with `busy`.
pub const MAX_WAITING: usize = 32;

/// Hashes one address may have in the pool at once, running or waiting; one more from it is
/// refused with `busy` while others still get in.
pub const MAX_PER_ADDRESS: usize = 4;

type Job = Box<dyn FnOnce() + Send>;

/// The hashes each address has in the pool; an address leaves the map when its count is 0,
/// so it holds at most [`HASHING_THREADS`] + [`MAX_WAITING`] addresses.
fn shares() -> &'static Mutex<HashMap<String, usize>> {
    static SHARES: OnceLock<Mutex<HashMap<String, usize>>> = OnceLock::new();
    SHARES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// One place of an address in the pool, given back when the job that holds it is dropped
/// (computed, or refused by the queue).
struct Share(String);

impl Share {
    fn take(address: &str) -> Option<Share> {
        let mut map = shares().lock().unwrap_or_else(PoisonError::into_inner);
        let held = map.entry(address.to_owned()).or_insert(0);
        if *held >= MAX_PER_ADDRESS {
            return None;
        }
        *held += 1;
        Some(Share(address.to_owned()))
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut map = shares().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = map.get_mut(&self.0) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                map.remove(&self.0);
            }
        }
    }
}

fn busy(message: &'static str) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message)
}

fn queue() -> &'static SyncSender<Job> {
    static QUEUE: OnceLock<SyncSender<Job>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::sync_channel::<Job>(MAX_WAITING);
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..HASHING_THREADS {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("umpire-hash-{n}"))
                .spawn(move || work(&rx));
            if let Err(e) = spawned {
                tracing::error!("cannot start a password-hashing thread: {e}");
            }
        }
        tx
    })
}

fn work(rx: &Mutex<Receiver<Job>>) {
    loop {
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        // A job that panics loses its answer (the caller hears `internal`), not the thread.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        return_memory();
    }
}

/// Gives the memory freed by the hash just computed back to the system. glibc's allocator
/// keeps a thread's freed heap memory for reuse, and the 19 MiB blocks of successive hashes
/// do not land in the same place: with two threads, 34 hashes left the server holding
/// 377 MiB (`docs/BENCHMARKS.md`, "Password hashing and memory"). Elsewhere nothing is done.
fn return_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer and only releases memory the allocator holds
    // free; it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Runs `f` on the hashing pool for a request from `address`; `busy` (503) when
/// [`MAX_WAITING`] jobs already wait, or when that address already has [`MAX_PER_ADDRESS`]
/// in the pool.
pub async fn run<T: Send + 'static>(
    address: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let share = Share::take(address).ok_or_else(|| {
        busy("this address is checking too many passwords at once: try again in a moment")
    })?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(f());
        drop(share);
    });
    match queue().try_send(job) {
        Ok(()) => {}
        Err(TrySendError::Full(_)) => {
            return Err(busy(
                "the server is checking too many passwords at once: try again in a moment",
            ));
        }
        Err(TrySendError::Disconnected(_)) => {
            return Err(ApiError::storage("the password-hashing threads are gone"));
        }
    }
    rx.await
        .map_err(|_| ApiError::storage("a password hash failed"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The pool is one for the process: its tests take turns.
    static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_pool_hashes_at_once_and_a_full_queue_is_refused() {
        let _alone = ALONE.lock().await;
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (release, gate) = mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        let jobs = HASHING_THREADS + MAX_WAITING + 5;
        let mut busy = 0;
        // Every job waits at the gate: the threads are held and the queue fills.
        for n in 0..jobs {
            let (running, most, gate) = (running.clone(), most.clone(), gate.clone());
            let submitted = run(&format!("10.0.0.{n}"), move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let _ = gate.lock().map(|g| g.recv());
                running.fetch_sub(1, Ordering::SeqCst);
            })
            .now_or_never();
            if let Some(Err(e)) = submitted {
                assert_eq!(e.code, "busy");
                busy += 1;
            }
        }
        assert!(
            busy >= jobs - HASHING_THREADS - MAX_WAITING,
            "{busy} refused"
        );
        for _ in 0..jobs {
            let _ = release.send(());
        }
        // A last job runs once there is room in the queue again.
        while run("10.0.1.1", || ()).await.is_err() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        while running.load(Ordering::SeqCst) > 0 {
            tokio::task::yield_now().await;
        }
        assert!(most.load(Ordering::SeqCst) <= HASHING_THREADS);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_address_holds_at_most_its_share_of_the_pool() {
        let _alone = ALONE.lock().await;
        let (release, gate) = mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        let hold = |gate: &Arc<Mutex<Receiver<()>>>| {
            let gate = gate.clone();
            move || {
                let _ = gate.lock().map(|g| g.recv());
            }
        };
        // Each call is polled once: it takes its place in the pool (the job keeps it) or is
        // refused at once.
        let mut refused = Vec::new();
        for _ in 0..MAX_PER_ADDRESS + 3 {
            if let Some(Err(e)) = run("192.0.2.7", hold(&gate)).now_or_never() {
                refused.push(e.message);
            }
        }
        // Another address still gets in while the first one is at its share.
        let other = run("192.0.2.8", hold(&gate)).now_or_never();
        for _ in 0..MAX_PER_ADDRESS + 1 {
            let _ = release.send(());
        }
        assert!(
            !matches!(other, Some(Err(_))),
            "the other address was refused"
        );
        assert_eq!(refused.len(), 3, "refused: {refused:?}");
        assert!(refused.iter().all(|m| m.contains("this address")));
        // The places are given back once the jobs are done: the address gets in again.
        while run("192.0.2.7", || ()).await.is_err() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
}
