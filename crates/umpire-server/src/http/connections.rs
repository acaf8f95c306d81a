//! The server's connections: [`serve`] accepts them, caps them per address, gives up on
//! clients too slow to send a request, and says so clearly when the process runs out of file
//! descriptors.
//!
//! - **Per address**: at most [`crate::Options::max_connections_per_address`]
//!   ([`MAX_CONNECTIONS_PER_ADDRESS`] by default) connections from one address are open at
//!   once, WebSockets included (a socket's slot is freed when it closes); one more is closed
//!   as soon as it is accepted. An IPv6 client counts by its /64 network
//!   ([`crate::http::peer::limit_address`]). Loopback addresses are not counted unless
//!   [`crate::Options::limit_loopback_guests`] is on (a local `umpire loadtest` opens two
//!   sockets per game, thousands of games), and trusted proxies
//!   ([`crate::Options::trusted_proxies`]) never are (everyone comes through them).
//! - **Request heads**: a connection has [`HEADER_TIMEOUT`] to send a request's head, and a
//!   keep-alive connection as long between two requests (hyper's header-read timeout); then
//!   it is closed. **Bodies**: [`crate::http::request_body`] gives a request ten seconds to send
//!   its body.
//!   A WebSocket is not an HTTP request once upgraded; the game and lobby sockets bound their
//!   own queues.
//! - **Send buffers**: each connection's kernel send buffer is [`SEND_BUFFER_BYTES`].
//! - **Out of descriptors**: when `accept` fails with `EMFILE`/`ENFILE` the server gives up
//!   the one descriptor it keeps aside ([`super::descriptors::Reserve`]), takes the waiting
//!   connection, answers it `503 server_full` ([`super::descriptors::REFUSAL`]) and closes
//!   it, then takes its reserve again: every connection that comes while none is free is told
//!   so at once, and each refusal consumes one waiting connection (no spin). It logs an error
//!   line saying so (with the count of connections open) at most once every
//!   [`REFUSAL_LOG_EVERY`]. Should the reserve be lost too, it waits [`ACCEPT_PAUSE`] before
//!   it tries again, the connections waiting meanwhile staying in the kernel's backlog.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The most connections open at once from one address, by default. A household or a
/// school behind one address has a lobby feed, a game socket and a few requests per player
/// open; a bot playing many games at once one socket per game.
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 128;

/// How long a connection may take to send a request's head, and how long a keep-alive
/// connection may stay quiet between two requests.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The kernel's send buffer of each connection (Linux doubles it for its own bookkeeping).
/// Fixed rather than grown by the kernel (up to megabytes) for a client that does not read:
/// with the bounded [`outbox`](crate::game::outbox) behind it, what the server holds for one
/// connection is bounded. Frames are a few hundred bytes; a downloaded record a few tens of
/// kilobytes.
pub const SEND_BUFFER_BYTES: usize = 256 * 1024;

/// How long the server waits before accepting again after running out of file descriptors
/// with no descriptor kept aside to refuse the connection with.
pub const ACCEPT_PAUSE: Duration = Duration::from_millis(250);

/// How long a refusal waits for the connection it is to refuse.
pub const REFUSAL_WAIT: Duration = Duration::from_millis(50);

/// The least time between two log lines about connections refused for lack of descriptors.
pub const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(1);

/// Who is counted and how many connections each may have.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections per address.
    pub per_address: usize,
    /// Count loopback addresses too.
    pub count_loopback: bool,
    /// Addresses never counted (trusted proxies).
    pub exempt: Vec<IpAddr>,
}

/// The connections open per address.
#[derive(Debug, Default)]
struct Counts {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// A connection's place in [`Counts`], given back when the connection (or the WebSocket it
/// became) is dropped.
#[derive(Debug)]
struct Slot {
    counts: Arc<Counts>,
    ip: Option<IpAddr>,
    total: Arc<AtomicUsize>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.total.fetch_sub(1, Ordering::Relaxed);
        if let Some(ip) = self.ip
            && let Ok(mut open) = self.counts.open.lock()
            && let Some(n) = open.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                open.remove(&ip);
            }
        }
    }
}

/// A slot for a connection from `ip`, or `None` when that address has its fill.
fn admit(
    counts: &Arc<Counts>,
    total: &Arc<AtomicUsize>,
    ip: IpAddr,
    limits: &Limits,
) -> Option<Slot> {
    let counted = !(limits.exempt.contains(&ip) || ip.is_loopback() && !limits.count_loopback);
    // An IPv6 client counts by its /64 network, as every per-address limit does.
    let ip = crate::http::peer::limit_address(ip);
    if counted {
        let mut open = counts.open.lock().ok()?;
        let n = open.entry(ip).or_insert(0);
        if *n >= limits.per_address {
            return None;
        }
        *n += 1;
    }
    total.fetch_add(1, Ordering::Relaxed);
    Some(Slot {
        counts: counts.clone(),
        ip: counted.then_some(ip),
        total: total.clone(),
    })
}

/// A TCP stream holding its [`Slot`].
struct Counted {
    stream: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Whether an accept error means the process (or the system) has no file descriptor left:
/// `EMFILE` (24) or `ENFILE` (23), the same numbers on Linux, the BSDs and macOS.
fn out_of_descriptors(e: &io::Error) -> bool {
    cfg!(unix) && matches!(e.raw_os_error(), Some(23 | 24))
}

/// With no descriptor left: gives up the one kept aside, takes the connection waiting and
/// answers it [`super::descriptors::REFUSAL`], closes it and takes the reserve again. False
/// when nothing could be refused (no reserve, or the descriptor freed was taken meanwhile):
/// the caller then pauses.
async fn refuse_one(listener: &TcpListener, reserve: &mut super::descriptors::Reserve) -> bool {
    if !reserve.held() {
        reserve.restore();
        return false;
    }
    reserve.release();
    // The connection that made `accept` fail is waiting; should it have gone meanwhile,
    // give up soon rather than hold the loop.
    let accepted = tokio::time::timeout(REFUSAL_WAIT, listener.accept()).await;
    let refused = match accepted {
        Ok(Ok((stream, _))) => {
            // What the client sent already is read (closing with unread bytes would reset
            // the connection, and the answer could be lost); best effort, never waiting.
            let mut sink = [0u8; 4096];
            for _ in 0..4 {
                if !matches!(stream.try_read(&mut sink), Ok(n) if n > 0) {
                    break;
                }
            }
            // The answer is small enough for any send buffer.
            let _ = stream.try_write(super::descriptors::REFUSAL);
            let _ = socket2::SockRef::from(&stream).shutdown(std::net::Shutdown::Write);
            drop(stream);
            true
        }
        Ok(Err(_)) | Err(_) => false,
    };
    reserve.restore();
    refused && reserve.held()
}

/// Serves `router` on `listener` until `shutdown` completes, then lets the requests in hand
/// finish (WebSockets already upgraded go on until the games' tasks stop).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let counts = Arc::new(Counts::default());
    let total = Arc::new(AtomicUsize::new(0));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let (closed_tx, closed_rx) = tokio::sync::watch::channel(());
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT);
    tokio::pin!(shutdown);
    let mut reserve = super::descriptors::Reserve::new();
    let mut refused: u64 = 0;
    let mut last_logged: Option<std::time::Instant> = None;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, addr) = match accepted {
            Ok(x) => x,
            Err(e) if out_of_descriptors(&e) => {
                refused += 1;
                if last_logged.is_none_or(|t| t.elapsed() >= REFUSAL_LOG_EVERY) {
                    last_logged = Some(std::time::Instant::now());
                    tracing::error!(
                        "refusing connections: out of file descriptors with {} connections \
                         open ({e}; {refused} refused so far); raise the limit (ulimit -n) or \
                         lower --max-connections-per-address",
                        total.load(Ordering::Relaxed),
                    );
                }
                if !refuse_one(&listener, &mut reserve).await {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                }
                continue;
            }
            Err(e) => {
                tracing::debug!("accept: {e}");
                continue;
            }
        };
        let Some(slot) = admit(&counts, &total, addr.ip(), &limits) else {
            tracing::debug!(
                "refused a connection from {}: it has {} open",
                addr.ip(),
                limits.per_address
            );
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER_BYTES);
        let io = TokioIo::new(Counted {
            stream,
            _slot: slot,
        });
        let service = tower::ServiceExt::map_request(
            router.clone(),
            move |mut request: Request<hyper::body::Incoming>| {
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(addr));
                request.map(Body::new)
            },
        );
        let service = hyper_util::service::TowerToHyperService::new(service);
        let connection = builder.serve_connection(io, service).with_upgrades();
        let mut stop = stop_rx.clone();
        let closed = closed_rx.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let stopping = async move {
                let _ = stop.wait_for(|s| *s).await;
            };
            tokio::select! {
                _ = connection.as_mut() => {}
                () = stopping => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(closed);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(closed_rx);
    closed_tx.closed().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_gets_its_fill_and_slots_come_back() {
        let counts = Arc::new(Counts::default());
        let total = Arc::new(AtomicUsize::new(0));
        let limits = Limits {
            per_address: 2,
            count_loopback: false,
            exempt: vec!["10.0.0.1".parse().unwrap()],
        };
        let a: IpAddr = "203.0.113.9".parse().unwrap();
        let s1 = admit(&counts, &total, a, &limits).unwrap();
        let _s2 = admit(&counts, &total, a, &limits).unwrap();
        assert!(admit(&counts, &total, a, &limits).is_none());
        assert!(admit(&counts, &total, "198.51.100.7".parse().unwrap(), &limits).is_some());
        drop(s1);
        assert!(admit(&counts, &total, a, &limits).is_some());
        // Loopback (by default) and trusted proxies are not counted.
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..10)
            .filter_map(|_| admit(&counts, &total, lo, &limits))
            .collect();
        assert_eq!(held.len(), 10);
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        assert!((0..10).all(|_| admit(&counts, &total, proxy, &limits).is_some()));
    }
}
