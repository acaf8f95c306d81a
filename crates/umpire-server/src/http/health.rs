//! `GET /api/health`: whether this server takes games, for a load balancer's health checks
//! (`deploy/haproxy.cfg`): `200 ok`, or `503 draining` once a node of a cluster drains
//! (`docs/CLUSTER.md`). It says nothing of any game.

use axum::extract::State;
use axum::http::StatusCode;

use crate::http::state::AppState;

/// Answers the health check.
pub async fn health(State(st): State<AppState>) -> (StatusCode, &'static str) {
    match st.hub.cluster() {
        Some(cluster) if cluster.draining() => (StatusCode::SERVICE_UNAVAILABLE, "draining\n"),
        _ => (StatusCode::OK, "ok\n"),
    }
}
