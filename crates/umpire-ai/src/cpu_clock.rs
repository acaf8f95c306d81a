//! [`thread_cpu_us`]: the CPU time of the calling thread, so that decision times can be measured
//! apart from the machine's load (a wall clock on a shared two-core machine counts the time the
//! thread waited for a core).

/// The CPU time the calling thread has used, in microseconds (`None` where the platform gives
/// none).
#[cfg(unix)]
pub fn thread_cpu_us() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the valid pointer it is given and
    // reads nothing else; CLOCK_THREAD_CPUTIME_ID is a clock every supported Unix has.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u64::try_from(ts.tv_nsec).ok()?;
    Some(secs.saturating_mul(1_000_000).saturating_add(nanos / 1000))
}

/// The CPU time the calling thread has used: never known on this platform.
#[cfg(not(unix))]
pub fn thread_cpu_us() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_clock_moves_with_work_only() {
        let Some(before) = thread_cpu_us() else {
            return;
        };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let after = thread_cpu_us().unwrap();
        assert!(after > before, "{x}");
    }
}
