//! `GET /api/games/{id}/chat?before=N[&limit=L]`: earlier chat lines of a game, for its players
//! alone (spectators never hear the chat). A `state` frame carries only the most recent lines
//! ([`crate::game::round::chat::STATE_CHAT_LINES`]); this pages back from its `chat_from`.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::game::round::chat::CHAT_PAGE_LINES;
use crate::http::caller::Caller;
use crate::http::state::AppState;

/// The query of a chat page.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatQuery {
    /// The lines before this number (from 0); all the latest when absent.
    pub before: Option<i64>,
    /// How many lines (default and most [`CHAT_PAGE_LINES`]).
    pub limit: Option<i64>,
}

/// `GET /api/games/{id}/chat?before=N[&limit=L]`: `{"from": F, "lines": [{"from","text"}…]}`,
/// the lines numbered F, F+1, … up to N-1, oldest first. `forbidden` for anyone not seated in
/// the game.
pub async fn chat_page(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
    Query(q): Query<ChatQuery>,
) -> Result<Json<Value>, ApiError> {
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
    let lines: Vec<Value> = lines
        .into_iter()
        .map(|c| {
            json!({
                "from": c.side,
                "text": crate::game::round::chat::clean_stored(c.text),
            })
        })
        .collect();
    Ok(Json(json!({"from": from, "lines": lines})))
}
