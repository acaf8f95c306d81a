//! Withdrawing a challenge: its creator cancels it (`DELETE /api/games/{id}`), the player it
//! is addressed to declines it (`POST /api/games/{id}/decline`); the game's task checks who
//! may and removes it.

use axum::Json;
use axum::extract::{Path, State};
use tokio::sync::oneshot;
use umpire_protocol::http::game::RemovedBody;

use crate::error::ApiError;
use crate::game::round::RoundMsg;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::lobby::challenge::gone;
use crate::lobby::feed::Removal;
use crate::store::UserRow;

async fn withdraw(
    st: &AppState,
    user: UserRow,
    id: &str,
    why: Removal,
) -> Result<Json<RemovedBody>, ApiError> {
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
    Ok(Json(RemovedBody {
        id: id.to_owned(),
        removed: why.as_str().to_owned(),
    }))
}

/// `DELETE /api/games/{id}`: the creator withdraws its open game.
pub async fn cancel(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<RemovedBody>, ApiError> {
    withdraw(&st, user, &id, Removal::Cancelled).await
}

/// `POST /api/games/{id}/decline`: the player a direct challenge is addressed to refuses it.
pub async fn decline(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<RemovedBody>, ApiError> {
    withdraw(&st, user, &id, Removal::Declined).await
}
