//! `GET /api/games/{id}/belief?side=…&ply=…`: one side's belief of where the enemy men stand
//! (the overlay). Allowed to that side's own player while a practice game or a game against a
//! house agent goes on (at the moves played so far or before), and to anyone once the game is
//! over (any side, any point); refused otherwise. Computed from that side's observations only, off the async
//! threads, at most [`BELIEF_AT_ONCE`] at once server-wide and [`BELIEF_AT_ONCE_PER_ADDRESS`]
//! per address (more: 503 `busy`), and kept in a
//! small bounded cache. The belief is followed along the game: the server keeps a bounded set
//! of [`BeliefStream`]s, one per (game, side) asked lately, so the next point (a review stepped
//! forward, a live overlay after a move) costs only the observations since the last answer; a
//! point before the stream's (a review stepped back past the cache) starts a new stream.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use umpire_protocol::http::belief::{BeliefBody, BeliefQuery};
use umpire_rules::shakmaty::Color;

use crate::error::ApiError;
use crate::game::belief::plies_played;
use crate::game::belief_cache::BeliefKey;
use crate::game::belief_stream::BeliefStream;
use crate::game::round::index;
use crate::http::caller::MaybeCaller;
use crate::http::downloads::record_of;
use crate::http::games::game_row;
use crate::http::peer::Peer;
use crate::http::state::AppState;

/// Beliefs computed at once, server-wide.
pub const BELIEF_AT_ONCE: usize = 2;

/// Beliefs computed at once for one address (an IPv6 client: its /64), so that one client
/// cannot hold every [`BELIEF_AT_ONCE`] place and refuse everyone else's overlay.
pub const BELIEF_AT_ONCE_PER_ADDRESS: usize = 1;

/// `GET /api/games/{id}/belief`: the [`BeliefBody`]; 403 `forbidden` when the caller may not
/// see that side's belief, 400 `bad_ply` for a point the game has not reached, 503 `busy` when
/// [`BELIEF_AT_ONCE`] beliefs are being computed already, or one asked from the caller's
/// address.
pub async fn belief(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    peer: Peer,
    Path(id): Path<String>,
    Query(query): Query<BeliefQuery>,
) -> Result<Json<BeliefBody>, ApiError> {
    let side = Color::from(query.side);
    let row = game_row(&st, &id).await?;
    let over = row.status == "over";
    if !over {
        let own = caller
            .as_ref()
            .is_some_and(|u| row.users[index(side)].as_deref() == Some(u.id.as_str()));
        let practice = row.practice || row.agents[index(!side)].is_some();
        if row.status != "live" || !own || !practice {
            return Err(ApiError::forbidden(
                "forbidden",
                "while a game goes on, a side's belief is shown only to that side's player in a \
                 practice game or a game against a house agent; once the game is over, to \
                 everyone",
            ));
        }
    }
    let record = record_of(&st, &row).await?;
    let played = plies_played(&record);
    if query.ply.is_some_and(|p| p > played) {
        return Err(ApiError::bad_request(
            "bad_ply",
            format!("the game has reached {played} moves"),
        ));
    }
    let (observations, plies) = record.observations_until(side, query.ply);
    let key = BeliefKey {
        game: row.id.clone(),
        side,
        plies,
        observations: observations.len(),
    };
    if let Some(body) = st.beliefs.get(&key) {
        return Ok(Json(Arc::unwrap_or_clone(body)));
    }
    let Some(held) = st.belief_share.take(peer.0) else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "a belief asked from your address is being computed; ask again once it is answered",
        ));
    };
    let Ok(permit) = Arc::clone(&st.belief_permits).try_acquire_owned() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "the server is computing other beliefs; ask again in a moment",
        ));
    };
    let game = row.id.clone();
    let streams = Arc::clone(&st.belief_streams);
    let body = tokio::task::spawn_blocking(move || {
        let body = (|| {
            let mut stream = match streams.take(&game, side, observations.len()) {
                Some(stream) => stream,
                None => BeliefStream::new(&game, &record, side)?,
            };
            stream.advance(&observations)?;
            let body = stream.body(plies);
            streams.put(&game, side, stream);
            Ok::<_, String>(body)
        })();
        drop(permit);
        drop(held);
        body
    })
    .await
    .map_err(ApiError::storage)?
    .map_err(ApiError::storage)?;
    let body = Arc::new(body);
    st.beliefs.put(key, Arc::clone(&body));
    Ok(Json(Arc::unwrap_or_clone(body)))
}
