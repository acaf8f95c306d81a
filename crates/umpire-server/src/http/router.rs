//! [`router`]: every route, and the layers every request passes (body limit and timeout, origin check,
//! JSON refusals).

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use crate::error::ApiError;
use crate::http::state::AppState;
use crate::http::{
    accounts, belief, challenges, chat_pages, downloads, game_socket, games, health, lobby_socket,
    metrics, origin, players, refusals, request_body, review, site,
};

pub use crate::http::request_body::MAX_BODY_BYTES;

/// The routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/guest", post(accounts::guest))
        .route("/api/register", post(accounts::register))
        .route("/api/login", post(accounts::login))
        .route("/api/logout", post(accounts::logout))
        .route("/api/me", get(accounts::me))
        .route("/api/bots", post(accounts::new_bot))
        .route(
            "/api/games",
            get(games::list_games).post(games::create_game),
        )
        .route("/api/lobby/ws", get(lobby_socket::lobby_socket))
        .route(
            "/api/games/{id}",
            get(games::get_game).delete(challenges::cancel),
        )
        .route("/api/games/{id}/join", post(games::join_game))
        .route("/api/games/{id}/decline", post(challenges::decline))
        .route("/api/games/{id}/rematch", post(games::rematch))
        .route("/api/games/{id}/ws", get(game_socket::game_socket))
        .route("/api/games/{id}/chat", get(chat_pages::chat_page))
        .route("/api/games/{id}/review", get(review::review))
        .route("/api/games/{id}/belief", get(belief::belief))
        .route("/api/metrics", get(metrics::get_metrics))
        .route("/api/health", get(health::health))
        .route("/api/leaderboard", get(players::leaderboard))
        .route("/api/players/{name}", get(players::player))
        .route("/api/players/{name}/history", get(players::history))
        .route("/games/{file}", get(downloads::download))
        .route("/games/{id}/{file}", get(downloads::player_download))
        // The web site: the app's pages (one index.html), its hashed assets and its service worker.
        .route("/", get(site::page))
        .route("/lobby", get(site::page))
        .route("/leaderboard", get(site::page))
        .route("/play/{id}", get(site::page))
        .route("/game/{id}", get(site::page))
        .route("/review/{id}", get(site::page))
        .route("/@/{name}", get(site::page))
        .route("/assets/{name}", get(site::asset))
        .route("/sw.js", get(site::service_worker))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(request_body::read_body))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            origin::check,
        ))
        .layer(axum::middleware::map_response(refusals::json_refusals))
        .with_state(state)
}
