//! `GET /api/games/{id}/review`: a finished game step by step (the true board after each
//! command and what each player heard), for anyone once the game is over; refused before.

use axum::Json;
use axum::extract::{Path, State};
use umpire_protocol::ending::Ending;
use umpire_protocol::http::review::ReviewBody;
use umpire_protocol::side::BySide;

use crate::error::ApiError;
use crate::game::hub::seat_names;
use crate::game::review::review_steps;
use crate::http::downloads::record_of;
use crate::http::games::game_row;
use crate::http::state::AppState;

/// `GET /api/games/{id}/review`: the [`ReviewBody`]; 403 `game_not_over` while the game goes on
/// (the board and both players' announcements are what the game hides).
pub async fn review(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ReviewBody>, ApiError> {
    let row = game_row(&st, &id).await?;
    if row.status != "over" {
        return Err(ApiError::forbidden(
            "game_not_over",
            "the review (the true board and both players' announcements) is shown only after the game ends",
        ));
    }
    let record = record_of(&st, &row).await?;
    let (opening, steps) = review_steps(&record).map_err(ApiError::storage)?;
    let [white, black] = seat_names(&st.store, &row).await?;
    Ok(Json(ReviewBody {
        game: row.id.clone(),
        rules: record.rules.as_str().to_owned(),
        players: BySide { white, black },
        result: record.result.map(|r| Ending {
            score: r.score().to_owned(),
            reason: r.reason.as_str().to_owned(),
        }),
        start_fen: record.fen.clone(),
        opening,
        steps,
    }))
}
