//! `GET /api/games/{id}/chat?before=N[&limit=L]`: earlier chat lines of a game, for its players
//! alone (spectators never hear the chat). A `state` frame carries only the most recent lines
//! ([`crate::game::round::chat::STATE_CHAT_LINES`]); this pages back from its `chat_from`.

use axum::Json;
use axum::extract::{Path, Query, State};
use umpire_protocol::chat::ChatLine;
use umpire_protocol::http::chat::{ChatPageBody, ChatQuery};
use umpire_rules::wire::parse_color;

use crate::error::ApiError;
use crate::game::round::chat::CHAT_PAGE_LINES;
use crate::http::caller::Caller;
use crate::http::state::AppState;

/// `GET /api/games/{id}/chat?before=N[&limit=L]`: `{"from": F, "lines": [{"from","text"}…]}`,
/// the lines numbered F, F+1, … up to N-1, oldest first. `forbidden` for anyone not seated in
/// the game.
pub async fn chat_page(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    Query(q): Query<ChatQuery>,
) -> Result<Json<ChatPageBody>, ApiError> {
    let row = st
        .store
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
    if !row
        .users
        .iter()
        .any(|u| u.as_deref() == Some(user.id.as_str()))
    {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only the players of a game read its chat",
        ));
    }
    let max = CHAT_PAGE_LINES as i64;
    let limit = match q.limit {
        None => max,
        Some(n) if (1..=max).contains(&n) => n,
        Some(n) => {
            return Err(ApiError::bad_request(
                "bad_limit",
                format!("limit {n} is not from 1 to {max}"),
            ));
        }
    };
    let before = q.before.unwrap_or(i64::MAX).max(0);
    let (from, lines) = st.store.chat_page(&id, before, limit).await?;
    // Stored sides are `white` or `black`; a line with any other is not shown.
    let lines = lines
        .into_iter()
        .filter_map(|c| {
            Some(ChatLine {
                from: parse_color(&c.side)?.into(),
                text: crate::game::round::chat::clean_stored(c.text),
            })
        })
        .collect();
    Ok(Json(ChatPageBody { from, lines }))
}
