//! Finished games as files: the referee's record (`/games/{id}.json`, `.pgn`) and each
//! player's filtered view (`/games/{id}/{white|black}.pgn`).

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use umpire_rules::EndReason;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

use crate::error::ApiError;
use crate::game::hub::seat_names;
use crate::game::round::{self, index};
use crate::http::caller::MaybeCaller;
use crate::http::games::game_row;
use crate::http::state::AppState;
use crate::store::GameRow;

/// The record of a stored game, with the players' names as tags.
pub async fn record_of(st: &AppState, row: &GameRow) -> Result<Record, ApiError> {
    let commands = st.store.commands(&row.id).await?;
    let replayed = round::replay(row, &commands).map_err(ApiError::storage)?;
    let mut record = replayed.game.into_record();
    let names = seat_names(&st.store, row).await?;
    let _ = record.tags.set("White", &names[0]);
    let _ = record.tags.set("Black", &names[1]);
    let _ = record
        .tags
        .set("Site", &format!("umpire-server game {}", row.id));
    // The record carries the result of an end the server declared (the umpire judged it);
    // PGN readers that know only the standard tags learn it from `Termination` too.
    if let Some(result) = record.result {
        let termination = match result.reason {
            EndReason::TimeForfeit => Some(format!("time forfeit {}", result.score())),
            EndReason::Abandonment => Some(format!("abandoned {}", result.score())),
            EndReason::Aborted => Some("aborted".to_owned()),
            _ => None,
        };
        if let Some(t) = termination {
            let _ = record.tags.set("Termination", &t);
        }
    }
    Ok(record)
}

fn text(content_type: &'static str, body: String) -> Response {
    ([(CONTENT_TYPE, content_type)], body).into_response()
}

/// `GET /games/{id}.json` and `/games/{id}.pgn`: the referee's record, once the game is over.
pub async fn download(
    State(st): State<AppState>,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    let (id, ext) = file
        .rsplit_once('.')
        .ok_or_else(|| ApiError::not_found("ask for ID.json or ID.pgn"))?;
    let row = game_row(&st, id).await?;
    if row.status != "over" {
        return Err(ApiError::forbidden(
            "game_not_over",
            "the referee's record is shown only after the game ends",
        ));
    }
    let record = record_of(&st, &row).await?;
    match ext {
        "json" => Ok(text("application/json", record.to_json_pretty())),
        "pgn" => Ok(text(
            "application/x-chess-pgn",
            record.to_pgn().map_err(ApiError::storage)?,
        )),
        _ => Err(ApiError::not_found("ask for ID.json or ID.pgn")),
    }
}

/// `GET /games/{id}/{white|black}.pgn`: one player's filtered view: to that player at any
/// time, to everyone after the end.
pub async fn player_download(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path((id, file)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let side = match file.as_str() {
        "white.pgn" => Color::White,
        "black.pgn" => Color::Black,
        _ => return Err(ApiError::not_found("ask for white.pgn or black.pgn")),
    };
    let row = game_row(&st, &id).await?;
    let own = caller
        .as_ref()
        .is_some_and(|u| row.users[index(side)].as_deref() == Some(u.id.as_str()));
    if row.status != "over" && !own {
        return Err(ApiError::forbidden(
            "not_your_view",
            "a player's view is shown only to that player until the game ends",
        ));
    }
    let record = record_of(&st, &row).await?;
    Ok(text(
        "application/x-chess-pgn",
        record.player_pgn(side).map_err(ApiError::storage)?,
    ))
}
