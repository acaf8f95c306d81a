//! The Umpire server: Kriegspiel over HTTP and WebSocket.
//!
//! Shaped like a lichess-style game server: the lobby and players are HTTP handlers
//! ([`api`]), each live game is one task ([`round::Round`]) that owns the umpire and pushes
//! each connection its own projection ([`projection`]), and storage is event-sourced
//! ([`store`]: a game is its row plus its commands; restart is replay). The wire protocol is
//! documented in `docs/PROTOCOL.md`, the server in `docs/SERVER.md`.

#![warn(missing_docs)]

pub mod api;
pub mod auth;
pub mod challenge;
pub mod clock;
pub mod error;
pub mod house_agent;
pub mod hub;
pub mod latency;
pub mod lobby;
pub mod lobby_ws;
pub mod metrics;
mod migrations;
pub mod origin;
pub mod peer;
pub mod players;
pub mod projection;
pub mod rate_limit;
pub mod rating;
pub mod round;
pub mod shown_rating;
pub mod socket_buffers;
pub mod store;
pub mod strength;
pub mod time_class;
pub mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use error::ApiError;
pub use store::Store;

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Storage.
    pub store: Store,
    /// The running games.
    pub hub: Arc<hub::Hub>,
    /// Server options.
    pub options: Options,
    /// Log-in tries per account name.
    pub logins: Arc<rate_limit::Limiter>,
    /// Games created (challenges, games against agents, rematches) per account.
    pub creations: Arc<rate_limit::Limiter>,
    /// Games created by guests per IP address (a guest costs nothing to make).
    pub guest_creations: Arc<rate_limit::Limiter>,
    /// Guest accounts minted per IP address.
    pub guest_accounts: Arc<rate_limit::Limiter>,
}

/// Options of a running server.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How long the side to move may stay away before it loses by abandonment.
    pub abandon_after: Duration,
    /// Mark the session cookie `Secure` (the server is reached over TLS, e.g. behind a proxy).
    pub secure_cookies: bool,
    /// How long an open game (a challenge) waits for an opponent before it expires.
    pub challenge_expiry: Duration,
    /// Count the guest accounts minted and the games guests create from loopback addresses
    /// per address too. Off by default: a local `umpire loadtest` makes thousands of guests
    /// and guest games from 127.0.0.1 (each guest is still limited as an account). Behind a
    /// reverse proxy on the same host every guest comes from loopback: turn it on there.
    pub limit_loopback_guests: bool,
    /// Answer `GET /api/metrics` (latency histograms, commands counted). Off by default: the
    /// counts move with every command of every game, so on a quiet server a player could
    /// count the opponent's rejected attempts, which most rule sets do not let it hear. For
    /// load tests and operators' own servers.
    pub metrics: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            abandon_after: round::ABANDON_AFTER,
            secure_cookies: false,
            challenge_expiry: round::CHALLENGE_EXPIRY,
            limit_loopback_guests: false,
            metrics: false,
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
}

/// The largest request body accepted, in bytes; a larger one is refused with 413
/// `body_too_large`.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/guest", post(api::guest))
        .route("/api/register", post(api::register))
        .route("/api/login", post(api::login))
        .route("/api/logout", post(api::logout))
        .route("/api/me", get(api::me))
        .route("/api/bots", post(api::new_bot))
        .route("/api/games", get(api::list_games).post(api::create_game))
        .route("/api/lobby/ws", get(lobby_ws::lobby_socket))
        .route(
            "/api/games/{id}",
            get(api::get_game).delete(challenge::cancel),
        )
        .route("/api/games/{id}/join", post(api::join_game))
        .route("/api/games/{id}/decline", post(challenge::decline))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/ws", get(ws::game_socket))
        .route("/api/metrics", get(metrics::get_metrics))
        .route("/api/leaderboard", get(players::leaderboard))
        .route("/api/players/{name}", get(players::player))
        .route("/api/players/{name}/history", get(players::history))
        .route("/games/{file}", get(api::download))
        .route("/games/{id}/{file}", get(api::player_download))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(origin::check))
        .layer(axum::middleware::map_response(error::json_refusals))
        .with_state(state)
}

/// Opens storage and rebuilds every unfinished game.
pub async fn open(database: &Database) -> Result<AppState, String> {
    open_with(database, Options::default()).await
}

/// Opens storage and rebuilds every unfinished game, with these options.
pub async fn open_with(database: &Database, options: Options) -> Result<AppState, String> {
    let store = match database {
        Database::Dir(dir) => Store::open_dir(dir).await?,
        Database::Url(url) => Store::connect(url).await?,
    };
    let hub = Arc::new(hub::Hub::new(store.clone()));
    hub.set_abandon_after(options.abandon_after);
    hub.set_challenge_expiry(options.challenge_expiry);
    let n = hub.recover().await?;
    tracing::info!("rebuilt {n} unfinished game(s) from storage");
    Ok(AppState {
        store,
        hub,
        options,
        logins: Arc::new(rate_limit::login_limiter()),
        creations: Arc::new(rate_limit::creation_limiter()),
        guest_creations: Arc::new(rate_limit::guest_creation_limiter()),
        guest_accounts: Arc::new(rate_limit::guest_account_limiter()),
    })
}

/// Serves on `listener` until `shutdown` completes, then lets every game finish the command
/// in hand and closes storage.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let app = router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|e| format!("server: {e}"))?;
    state.hub.shutdown(Duration::from_secs(10)).await;
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

/// Runs `umpire serve`: opens storage, listens, serves until ctrl-c or SIGTERM.
pub async fn run(config: Config) -> Result<(), String> {
    let state = open_with(&config.database, config.options).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // One line on stdout says where to connect (tests and scripts read it).
    println!("umpire serve: listening on http://{addr}");
    serve(state, listener, shutdown_signal()).await
}
