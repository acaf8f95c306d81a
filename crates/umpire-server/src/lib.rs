//! The Umpire server: Kriegspiel over HTTP and WebSocket.
//!
//! Shaped like a lichess-style game server: each live game is one task
//! ([`game::round::Round`]) that owns the umpire and pushes each connection its own
//! projection ([`game::projection`]), the HTTP handlers and sockets are a thin layer on top
//! ([`http`]), and storage is event-sourced ([`store`]: a game is its row plus its commands;
//! restart is replay). The wire protocol is documented in `docs/PROTOCOL.md`, the server in
//! `docs/SERVER.md`.
//!
//! The modules are folders by what changes together, in layers; a module uses only those
//! below it (the test `tests/layers.rs` reads this list and checks every `crate::` path):
//!
//! layers: error < metrics < ratings < store < accounts < lobby < cluster < game < http
//!
//! - [`error`]: [`ApiError`], the refusal with a stable code that every layer answers with.
//! - [`metrics`]: the latency histograms storage, games and sockets record into.
//! - [`ratings`]: Glicko-2 ratings, time classes (the rating pools), ratings as frames show
//!   them. Pure computation, below storage: the store applies a rated game's update in the
//!   transaction that ends the game.
//! - [`store`]: everything kept, on SQLite or PostgreSQL; migrations; the group-commit writer.
//! - [`accounts`]: guests, accounts, bots, passwords, tokens and sessions.
//! - [`lobby`]: the open challenges' feed and withdrawn challenges.
//! - [`cluster`]: several nodes on one PostgreSQL database: who owns which game (advisory
//!   locks), the registry of nodes, the lobby and hand-overs through `LISTEN/NOTIFY`.
//! - [`game`]: the running games ([`game::hub`]), one live game as an actor
//!   ([`game::round`], one file per thing it does), clocks, projections, house agents and
//!   their strength.
//! - [`http`]: the router, [`AppState`], extractors, refusals, origin check, rate limits,
//!   socket buffers, and the handlers, one file per area. Nothing below uses it.
//!
//! This file wires them: options, opening storage, serving, shutting down.

#![warn(missing_docs)]

pub mod accounts;
pub mod cluster;
pub mod error;
pub mod game;
pub mod http;
pub mod lobby;
pub mod metrics;
pub mod ratings;
pub mod store;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use error::ApiError;
pub use http::router::{MAX_BODY_BYTES, router};
pub use http::state::AppState;
pub use store::Store;

/// Options of a running server.
#[derive(Clone, Debug)]
pub struct Options {
    /// How long the side to move may stay away before it loses by abandonment.
    pub abandon_after: Duration,
    /// Mark the session cookie `Secure` (the server is reached over TLS, e.g. behind a proxy).
    pub secure_cookies: bool,
    /// How long an open game (a challenge) waits for an opponent before it expires.
    pub challenge_expiry: Duration,
    /// How long an open game's creator may be gone (every game socket it opened on the
    /// challenge closed, none opened again) before the challenge is withdrawn as `abandoned`
    /// ([`game::round::CREATOR_GONE`], 30 s, by default).
    pub creator_gone: Duration,
    /// Count the guest accounts minted and the games guests create from loopback addresses
    /// per address too. Off by default: a local `umpire loadtest` makes thousands of guests
    /// and guest games from 127.0.0.1 (each guest is still limited as an account). Behind a
    /// reverse proxy on the same host every guest comes from loopback: turn it on there.
    /// (The sockets opened on finished games per address are counted for loopback under the
    /// same switch.)
    pub limit_loopback_guests: bool,
    /// Answer `GET /api/metrics` (latency histograms, commands counted). Off by default: the
    /// counts move with every command of every game, so on a quiet server a player could
    /// count the opponent's rejected attempts, which most rule sets do not let it hear. For
    /// load tests and operators' own servers.
    pub metrics: bool,
    /// Origins (`scheme://host[:port]`) besides the server's own whose pages may post to the
    /// API and open its WebSockets (a web client served from another host). Empty by default:
    /// same origin only. See [`http::origin`].
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` headers name the client
    /// (`umpire serve --trust-proxy ADDR`). Empty by default: every limit kept per address
    /// counts the TCP peer, and those headers are ignored. See [`http::peer`].
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The most connections open at once from one address
    /// ([`http::connections::MAX_CONNECTIONS_PER_ADDRESS`] by default); loopback addresses and
    /// trusted proxies are not counted unless [`Options::limit_loopback_guests`] is on
    /// (loopback).
    pub max_connections_per_address: usize,
    /// This server is one node of several on one PostgreSQL database
    /// (`umpire serve --node-id NAME`, `docs/CLUSTER.md`); `None`: the only one.
    pub node: Option<cluster::NodeOptions>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            abandon_after: game::round::ABANDON_AFTER,
            secure_cookies: false,
            challenge_expiry: game::round::CHALLENGE_EXPIRY,
            creator_gone: game::round::CREATOR_GONE,
            limit_loopback_guests: false,
            metrics: false,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
            max_connections_per_address: http::connections::MAX_CONNECTIONS_PER_ADDRESS,
            node: None,
        }
    }
}

/// Where the server keeps its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file `umpire.sqlite3` in this directory (created if missing).
    Dir(PathBuf),
    /// A database URL (`postgres://…` or `sqlite://…`).
    Url(String),
}

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Storage.
    pub database: Database,
    /// Options.
    pub options: Options,
    /// When the house agents' endgame tables are loaded: at start on a thread of their own
    /// (the default; `umpire serve --tables eager`), or at the first decision that needs
    /// each (`lazy`, for tests and small deployments).
    pub tables: umpire_ai::endgame::TableLoading,
}

/// Opens storage and rebuilds every unfinished game.
pub async fn open(database: &Database) -> Result<AppState, String> {
    open_with(database, Options::default()).await
}

/// Opens storage and rebuilds every unfinished game, with these options.
pub async fn open_with(database: &Database, options: Options) -> Result<AppState, String> {
    open_timed(database, options, store::TimeSource::System).await
}

/// Opens storage and rebuilds every unfinished game, with these options, reading the time
/// from `time` (the games' clocks and timers, and the times stored): a test turns a
/// [`store::ManualClock`] by hand and the server plays the same way every time.
pub async fn open_timed(
    database: &Database,
    options: Options,
    time: store::TimeSource,
) -> Result<AppState, String> {
    if let Some(node) = &options.node {
        node.check_database(database)?;
    }
    let mut store = match database {
        Database::Dir(dir) => Store::open_dir(dir).await?,
        Database::Url(url) => Store::connect(url).await?,
    };
    store.set_time(time);
    let hub = Arc::new(game::hub::Hub::new(store.clone()));
    hub.set_abandon_after(options.abandon_after);
    hub.set_challenge_expiry(options.challenge_expiry);
    hub.set_creator_gone(options.creator_gone);
    if let (Some(node), Database::Url(url)) = (&options.node, database) {
        let cluster = cluster::Cluster::connect(url, node.clone()).await?;
        cluster::registry::heartbeat(&cluster)
            .await
            .map_err(|e| format!("node {}: {e}", node.id))?;
        cluster::relay::spawn(&cluster, store.clone(), hub.lobby().clone(), url).await?;
        cluster.spawn_watchdog();
        hub.set_cluster(cluster.clone());
        game::adoption::spawn_adoption(Arc::downgrade(&hub), cluster);
        tracing::info!("node {}: joined the cluster", node.id);
    }
    let n = hub.recover().await?;
    tracing::info!("rebuilt {n} unfinished game(s) from storage");
    Ok(AppState {
        store,
        hub,
        options,
        logins: Arc::new(http::rate_limit::login_limiter()),
        login_failures: Arc::new(http::backoff::Backoff::default()),
        new_accounts: Arc::new(http::rate_limit::new_account_limiter()),
        player_frames: Arc::new(http::rate_limit::player_frame_limiter()),
        finished_sockets: Arc::new(http::rate_limit::finished_socket_limiter()),
        refusals: Arc::new(http::refusal_budget::RefusalBudget::new()),
        creations: Arc::new(http::rate_limit::creation_limiter()),
        guest_creations: Arc::new(http::rate_limit::guest_creation_limiter()),
        guest_accounts: Arc::new(http::rate_limit::guest_account_limiter()),
        beliefs: Arc::new(game::belief_cache::BeliefCache::default()),
        belief_streams: Arc::new(game::belief_stream::BeliefStreams::default()),
        belief_permits: Arc::new(tokio::sync::Semaphore::new(http::belief::BELIEF_AT_ONCE)),
        belief_share: Arc::new(http::address_share::AddressShare::new(
            http::belief::BELIEF_AT_ONCE_PER_ADDRESS,
        )),
    })
}

/// Serves on `listener` until `shutdown` completes, then lets every game finish the command
/// in hand and closes storage.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let limits = http::connections::Limits {
        per_address: state.options.max_connections_per_address,
        count_loopback: state.options.limit_loopback_guests,
        exempt: state.options.trusted_proxies.clone(),
    };
    // A node of a cluster drains first: its health check fails (the load balancer sends no
    // more clients), its games stop (their locks go; their clients reconnect to other nodes,
    // which take them over), then it stops serving.
    let cluster = state.hub.cluster().cloned();
    let drained = {
        let cluster = cluster.clone();
        async move {
            shutdown.await;
            if let Some(cluster) = cluster {
                cluster.drain().await;
                tokio::time::sleep(cluster::DRAIN_NOTICE).await;
            }
        }
    };
    http::connections::serve(listener, router(state.clone()), limits, drained).await;
    state.hub.shutdown(Duration::from_secs(10)).await;
    if let Some(cluster) = cluster {
        cluster.close().await;
    }
    state.store.close().await;
    Ok(())
}

/// Resolves on ctrl-c or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Runs `umpire serve`: listens, opens storage (rebuilding the unfinished games), says where
/// it listens on stdout, starts loading the house agents' endgame tables and serves until
/// ctrl-c or SIGTERM. The address is taken first, so a port in use leaves no data directory
/// behind; a cluster node with no advertised address advertises the one listened on.
pub async fn run(mut config: Config) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    if let Some(node) = config.options.node.as_mut()
        && node.advertise.is_empty()
    {
        node.advertise = format!("http://{addr}");
    }
    let state = open_with(&config.database, config.options).await?;
    // One line on stdout says where to connect (tests and scripts read it).
    say_listening(addr);
    // After that line, so that loading them does not delay it (they take a second's CPU from
    // the cache, minutes on a machine without it).
    start_tables(config.tables);
    serve(state, listener, shutdown_signal()).await
}

/// Starts loading the house agents' endgame tables as `loading` says, so that no house
/// agent's decision pays for a load or a build (issue 28 goal 3), and logs when they are in.
/// A game that reaches an ending before they are in waits for its table, as it would have
/// loaded it itself; its moves are the same either way. A stop while a table is being built
/// leaves no file behind but the finished tables (see [`umpire_ai::endgame::tables`]).
fn start_tables(loading: umpire_ai::endgame::TableLoading) {
    let config = umpire_ai::endgame::EndgameConfig::default();
    let cache = umpire_ai::endgame::tables::cache_dir();
    let Some(handle) = loading.start(config) else {
        tracing::info!("endgame tables: loaded at each one's first need (--tables lazy)");
        return;
    };
    match &cache {
        Some(dir) => tracing::info!("endgame tables: loading (cache {})", dir.display()),
        None => tracing::info!("endgame tables: building (no cache directory)"),
    }
    // Waits for the loader on a thread of its own, only to say when it is done.
    let _ = std::thread::Builder::new()
        .name("endgame-tables-log".to_owned())
        .spawn(move || {
            if let Ok((took, done)) = handle.join() {
                tracing::info!(
                    "endgame tables: ready in {:.1} s ({done})",
                    took.as_secs_f64()
                );
            }
        });
}

/// Writes the line saying where the server listens to stdout, flushed (a closed stdout is no
/// reason to stop serving).
fn say_listening(addr: SocketAddr) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "umpire serve: listening on http://{addr}");
    let _ = out.flush();
}
