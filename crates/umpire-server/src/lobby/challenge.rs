//! Withdrawing a challenge: its creator cancels it (`DELETE /api/games/{id}`), the player it
//! is addressed to declines it (`POST /api/games/{id}/decline`). Either way the open game is
//! removed (it never started: no record) and leaves every lobby feed; a tombstone keeps why,
//! so that a late request hears it ([`missing`]).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::lobby::Removal;
use crate::round::RoundMsg;
use crate::store::{Store, UserRow, now_ms};

/// The refusal about a game `id` that is not stored: if it was a challenge withdrawn within
/// the last day ([`WITHDRAWN_KEEP_MS`](crate::store::WITHDRAWN_KEEP_MS)), 410 with the reason's code (`challenge_declined`,
/// `challenge_cancelled`, `challenge_expired`); otherwise 404 `not_found`.
pub async fn missing(store: &Store, id: &str) -> ApiError {
    match withdrawal(store, id).await {
        Ok(Some(why)) => ApiError::new(
            StatusCode::GONE,
            why.gone_code(),
            format!(
                "game {id:?} was a challenge that was {}: there is no game",
                why.as_str()
            ),
        ),
        Ok(None) => ApiError::not_found(format!("no game {id:?}")),
        Err(e) => e,
    }
}

/// Why the challenge `id` was withdrawn, if its tombstone is still kept.
pub async fn withdrawal(store: &Store, id: &str) -> Result<Option<Removal>, ApiError> {
    Ok(store
        .withdrawn(id, now_ms())
        .await?
        .and_then(|w| Removal::parse(&w.reason)))
}

/// The refusal when a game's task ended before it answered (the game was just withdrawn, or
/// the server is stopping).
pub fn gone() -> ApiError {
    ApiError::conflict(
        "game_not_open",
        "this game is not waiting for a player any more",
    )
}

async fn withdraw(
    st: &AppState,
    user: UserRow,
    id: &str,
    why: Removal,
) -> Result<Json<Value>, ApiError> {
    let handle = st.hub.round(id).await?;
    let (reply, answer) = oneshot::channel();
    handle
        .send(RoundMsg::Withdraw {
            user: Box::new(user),
            why,
            reply,
        })
        .await?;
    answer.await.map_err(|_| gone())??;
    Ok(Json(json!({"id": id, "removed": why.as_str()})))
}

/// `DELETE /api/games/{id}`: the creator withdraws its open game.
pub async fn cancel(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    withdraw(&st, user, &id, Removal::Cancelled).await
}

/// `POST /api/games/{id}/decline`: the player a direct challenge is addressed to refuses it.
pub async fn decline(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    withdraw(&st, user, &id, Removal::Declined).await
}
