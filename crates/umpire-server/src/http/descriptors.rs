//! File descriptors: every connection is one, and they are what a busy server runs out of
//! first (issue 27: a game holds two sockets on the server, one per player, and the process's
//! limit is often far below what memory allows).
//!
//! - [`raise_limit`] lifts the process's soft `RLIMIT_NOFILE` to its hard limit (allowed
//!   without privileges); `umpire serve` and `umpire loadtest` do so at start, and the server
//!   logs the capacity the limit implies ([`DescriptorLimit::games`]).
//! - [`Reserve`] keeps one descriptor aside, so that when `accept` fails for lack of
//!   descriptors the server can still take the waiting connection and tell it so (an HTTP
//!   `503` that says why, [`REFUSAL`]) rather than leave it waiting in the backlog
//!   (`http/connections.rs`).

use std::io;

/// Descriptors left aside from the games' sockets: storage (the SQLite files and their
/// journal, or PostgreSQL's pool, lock and `LISTEN` connections), the listener, the runtime's
/// own, the standard streams, a few lobby feeds and HTTP requests.
pub const RESERVED: u64 = 64;

/// The answer to a connection refused for lack of descriptors.
pub const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: application/json\r\ncontent-length: 91\r\nretry-after: 1\r\n\
connection: close\r\n\r\n\
{\"error\":\"server_full\",\"message\":\"the server has no file descriptor left; try again later\"}";

/// The process's open-files limit, after [`raise_limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescriptorLimit {
    /// The soft limit in force (what `accept` runs into).
    pub soft: u64,
    /// The hard limit (the most the soft one may be raised to without privileges).
    pub hard: u64,
    /// The soft limit before it was raised, when it was.
    pub raised_from: Option<u64>,
}

impl DescriptorLimit {
    /// About how many live games the limit leaves room for, both players connected (two
    /// sockets each), after [`RESERVED`]; spectators and lobby feeds take one each more.
    pub fn games(&self) -> u64 {
        self.soft.saturating_sub(RESERVED) / 2
    }

    /// One line saying the limit and what it implies, for the log.
    pub fn describe(&self) -> String {
        let how = match self.raised_from {
            Some(from) => format!("raised from {from} to the hard limit {}", self.soft),
            None if self.soft >= self.hard => format!("{} (the hard limit)", self.soft),
            None => format!(
                "{} (the hard limit {} could not be reached)",
                self.soft, self.hard
            ),
        };
        format!(
            "open-files limit {how}: room for about {} live games with both players connected \
             (two sockets each; {RESERVED} kept for storage and requests)",
            self.games()
        )
    }
}

/// Raises the soft `RLIMIT_NOFILE` of this process to its hard limit, and says what is in
/// force after. An unlimited hard limit is not asked for as such (Linux refuses more than
/// `fs.nr_open`): the soft one then goes as high as the kernel takes.
#[cfg(unix)]
pub fn raise_limit() -> io::Result<DescriptorLimit> {
    let (soft, hard) = current()?;
    if soft >= hard {
        return Ok(DescriptorLimit {
            soft,
            hard,
            raised_from: None,
        });
    }
    let mut target = hard;
    // `RLIM_INFINITY` or more than the kernel allows: halve the step until it is taken.
    while target > soft {
        if set_soft(target, hard).is_ok() {
            let (now, hard) = current()?;
            return Ok(DescriptorLimit {
                soft: now,
                hard,
                raised_from: Some(soft),
            });
        }
        target = soft + (target - soft) / 2;
    }
    Ok(DescriptorLimit {
        soft,
        hard,
        raised_from: None,
    })
}

/// Where there is no `RLIMIT_NOFILE`: nothing to raise.
#[cfg(not(unix))]
pub fn raise_limit() -> io::Result<DescriptorLimit> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "no open-files limit on this system",
    ))
}

/// The soft and hard `RLIMIT_NOFILE`.
#[cfg(unix)]
// `rlim_t` is `u64` on Linux, not on every Unix.
#[allow(clippy::unnecessary_cast)]
fn current() -> io::Result<(u64, u64)> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the limit into the struct it is given, which lives here.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((limit.rlim_cur as u64, limit.rlim_max as u64))
}

/// Sets the soft `RLIMIT_NOFILE` to `soft`, the hard one left at `hard`.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)]
fn set_soft(soft: u64, hard: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: `setrlimit` reads the struct it is given, which lives here.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// One descriptor kept open aside (on `/dev/null`), given up for a moment to take and
/// refuse a connection when the process has none left.
#[derive(Debug)]
pub struct Reserve {
    file: Option<std::fs::File>,
}

impl Reserve {
    /// Takes the reserved descriptor (none where `/dev/null` cannot be opened: the refusal
    /// then falls back to leaving connections in the backlog).
    pub fn new() -> Reserve {
        Reserve {
            file: std::fs::File::open("/dev/null").ok(),
        }
    }

    /// Whether a descriptor is held aside.
    pub fn held(&self) -> bool {
        self.file.is_some()
    }

    /// Gives the reserved descriptor up (so that one `accept` can succeed).
    pub fn release(&mut self) {
        self.file = None;
    }

    /// Takes a descriptor aside again, once the refused connection is closed.
    pub fn restore(&mut self) {
        if self.file.is_none() {
            self.file = std::fs::File::open("/dev/null").ok();
        }
    }
}

impl Default for Reserve {
    fn default() -> Self {
        Reserve::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_whole_http_answer() {
        let text = std::str::from_utf8(REFUSAL).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "));
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(length, body.len(), "{body}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"], "server_full");
    }

    #[test]
    fn the_capacity_counts_two_sockets_a_game_after_the_reserve() {
        let limit = DescriptorLimit {
            soft: 20_000,
            hard: 20_000,
            raised_from: Some(1024),
        };
        assert_eq!(limit.games(), (20_000 - RESERVED) / 2);
        let line = limit.describe();
        assert!(line.contains("raised from 1024"), "{line}");
        assert!(line.contains(&limit.games().to_string()), "{line}");
        let tiny = DescriptorLimit {
            soft: 10,
            hard: 10,
            raised_from: None,
        };
        assert_eq!(tiny.games(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn raising_leaves_the_soft_limit_at_the_hard_one() {
        let limit = raise_limit().unwrap();
        assert!(limit.soft <= limit.hard);
        assert_eq!(current().unwrap().0, limit.soft);
    }

    #[test]
    fn the_reserve_is_given_up_and_taken_again() {
        let mut r = Reserve::new();
        assert!(r.held());
        r.release();
        assert!(!r.held());
        r.restore();
        assert!(r.held());
    }
}
