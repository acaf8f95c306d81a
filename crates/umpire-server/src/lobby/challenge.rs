//! A withdrawn challenge: its creator cancelled it, the player it was addressed to declined
//! it, or it expired. The open game is removed (it never started: no record) and leaves every
//! lobby feed; a tombstone keeps why, so that a late request hears it ([`missing`]).

use axum::http::StatusCode;

use crate::error::ApiError;
use crate::lobby::feed::Removal;
use crate::store::Store;

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
        .withdrawn(id, store.now_ms())
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
