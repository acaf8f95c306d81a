//! `umpire serve`: runs the server of the `umpire-server` crate.

use std::net::SocketAddr;
use std::path::PathBuf;

use umpire_server::{Config, Database};

use crate::console::stdout::say;

/// Arguments of `umpire serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on, as IP:PORT (127.0.0.1:8080; 0.0.0.0:8080 for every interface;
    /// port 0 for any free port).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080", value_parser = listen_address)]
    listen: SocketAddr,
    /// Data directory: the SQLite database `umpire.sqlite3` lives here (created if missing).
    #[arg(long, default_value = "umpire-data")]
    data: PathBuf,
    /// Use this database instead of the data directory (postgres://USER@HOST/DB or sqlite://FILE).
    #[arg(long)]
    database: Option<String>,
    /// Seconds the side to move may stay disconnected before it loses by abandonment (the game
    /// is aborted instead if both sides have not moved yet); correspondence games never are.
    #[arg(long, default_value_t = 120)]
    abandon_seconds: u64,
    /// Mark the session cookie Secure (when the server is reached over TLS, e.g. behind a
    /// reverse proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// Seconds an open game (a challenge) waits for an opponent before it expires.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    challenge_expiry_seconds: u64,
    /// Count the guests made and the games guests create from loopback addresses per address
    /// too (behind a reverse proxy on the same host; off so that a local `umpire loadtest` may
    /// make thousands of guests and guest games).
    #[arg(long)]
    limit_loopback_guests: bool,
    /// Answer `GET /api/metrics` (latency histograms; for load tests). Off by default: its
    /// counts move with every command of every game, so a player on a quiet server could count
    /// the opponent's rejected attempts.
    #[arg(long)]
    metrics: bool,
    /// A reverse proxy whose X-Forwarded-For / Forwarded headers name the client (repeat for
    /// several). Without it those headers are ignored and every limit kept per address counts
    /// the TCP peer.
    #[arg(long = "trust-proxy", value_name = "ADDR")]
    trust_proxy: Vec<std::net::IpAddr>,
    /// An origin (scheme://host[:port]) besides the server's own whose pages may post to the
    /// API and open its WebSockets (repeat for several).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// The most connections open at once from one address (loopback and trusted proxies not
    /// counted unless --limit-loopback-guests).
    #[arg(long, default_value_t = umpire_server::http::connections::MAX_CONNECTIONS_PER_ADDRESS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_connections_per_address: u64,
    /// Run as node NAME of a cluster: several `umpire serve` on one PostgreSQL database behind
    /// a load balancer (docs/CLUSTER.md). Needs --database postgres://…; refused on SQLite.
    #[arg(long, value_name = "NAME")]
    node_id: Option<String>,
    /// With --node-id: the URL other nodes and operators reach this node at (kept in the
    /// database's `nodes` table); by default http:// and the address listened on.
    #[arg(long, value_name = "URL", requires = "node_id")]
    advertise: Option<String>,
    /// When the house agents' endgame tables (about 200 MB) are loaded: `eager` at start on a
    /// thread of their own, built and cached on first use on a machine (KBNK about 31 s), so
    /// that no decision pays for a load; `lazy` at the first decision that needs each (tests,
    /// small deployments). Default: $UMPIRE_TABLES, else eager.
    #[arg(long, value_name = "eager|lazy")]
    tables: Option<umpire_ai::endgame::TableLoading>,
}

/// Reads `--listen`: an IP address and a port, saying the expected form when it is not one
/// (a bare port such as `8080` is the usual slip).
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    text.parse::<SocketAddr>().map_err(|_| {
        let example = if text.parse::<u16>().is_ok() {
            format!(" (for port {text} on this machine only: 127.0.0.1:{text})")
        } else {
            String::new()
        };
        format!("{text:?} is not IP:PORT{example}; e.g. 127.0.0.1:8080, or 0.0.0.0:8080 for every interface")
    })
}

/// Runs the server until ctrl-c or SIGTERM ([`umpire_server::run`], the one way to start it:
/// the address is taken before anything is created, so a port in use leaves no data directory
/// behind), and a stop says that it was clean.
pub fn run(args: ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    // Every connection is a descriptor: take all the process may have, and say what it
    // allows (docs/SERVER.md, "Capacity").
    match umpire_server::http::descriptors::raise_limit() {
        Ok(limit) => tracing::info!("{}", limit.describe()),
        Err(e) => tracing::warn!("the open-files limit could not be read: {e}"),
    }
    let database = match args.database {
        Some(url) => Database::Url(url),
        None => Database::Dir(args.data),
    };
    let node = match &args.node_id {
        Some(id) => {
            // Empty: the address listened on, once known (the port may be 0).
            let advertise = args.advertise.clone().unwrap_or_default();
            let node = umpire_server::cluster::NodeOptions::new(id, &advertise)?;
            // Refused before anything is created or listened on.
            node.check_database(&database)?;
            Some(node)
        }
        None => None,
    };
    let tables = umpire_ai::endgame::TableLoading::from_option_or_env(args.tables)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let config = Config {
        listen: args.listen,
        database,
        options: umpire_server::Options {
            abandon_after: std::time::Duration::from_secs(args.abandon_seconds),
            secure_cookies: args.secure_cookies,
            challenge_expiry: std::time::Duration::from_secs(args.challenge_expiry_seconds),
            creator_gone: umpire_server::game::round::CREATOR_GONE,
            limit_loopback_guests: args.limit_loopback_guests,
            metrics: args.metrics,
            allowed_origins: args.allow_origin,
            trusted_proxies: args.trust_proxy,
            max_connections_per_address: usize::try_from(args.max_connections_per_address)
                .unwrap_or(usize::MAX),
            node,
        },
        tables,
    };
    runtime.block_on(umpire_server::run(config))?;
    say!(
        "umpire serve: stopped cleanly; unfinished games are stored and resume at the next start."
    );
    Ok(())
}
