//! The ratings API: `GET /api/leaderboard`, `GET /api/players/{name}` and
//! `GET /api/players/{name}/history`.

use axum::Json;
use axum::extract::{Path, Query, State};
use umpire_protocol::http::game::SummaryRating;
use umpire_protocol::http::ratings::{
    ExactRating, GamesPlayed, HistoryBody, HistoryLine, HistoryQuery, LeaderboardBody,
    LeaderboardLine, LeaderboardQuery, PlayerBody, RatingLine,
};
use umpire_rules::RuleSetId;

use crate::error::ApiError;
use crate::http::state::AppState;
use crate::ratings::glicko::{PROVISIONAL_DEVIATION, Rating};
use crate::ratings::time_class::TimeClass;
use crate::store::{HistoryRow, RatingRow, SeatRow, UserRow};

/// The most lines a leaderboard answers.
pub const MAX_LEADERBOARD: i64 = 200;

/// The most games a history answers.
pub const MAX_HISTORY: i64 = 500;

fn exact(r: &Rating) -> ExactRating {
    ExactRating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        provisional: r.is_provisional(),
    }
}

/// A stored rating as shown at `now_ms`: its deviation grown over the idle rating periods
/// since the player's last rated game there (see [`crate::ratings::glicko::RATING_PERIOD_MS`]).
fn rating_line(r: &RatingRow, now_ms: i64) -> RatingLine {
    RatingLine {
        rating: exact(&r.rating.at(r.updated_ms, now_ms)),
        rules: r.rules.as_str().to_owned(),
        class: r.class.as_str().to_owned(),
        games: r.games,
        wins: r.wins,
        losses: r.losses,
        draws: r.draws,
        updated_ms: r.updated_ms,
    }
}

/// A seated user's rating as shown in a game summary at `now_ms`: `None` for a guest (never
/// rated), the stored rating (its deviation grown over idle rating periods) with its game
/// count for an account or bot, or a new player's 1500/350 with no games.
pub fn seat_rating(seat: &SeatRow, now_ms: i64) -> Option<SummaryRating> {
    if seat.kind == "guest" {
        return None;
    }
    let (rating, games) = seat
        .rating
        .map_or((Rating::NEW, 0), |r| (r.now(now_ms), r.games));
    Some(SummaryRating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
        provisional: rating.is_provisional(),
        games,
    })
}

fn parse_rules(rules: &str) -> Result<RuleSetId, ApiError> {
    rules.parse().map_err(|e: umpire_rules::UnknownRuleSet| {
        ApiError::bad_request("bad_rules", e.to_string())
    })
}

fn parse_class(class: &str) -> Result<TimeClass, ApiError> {
    class
        .parse()
        .map_err(|e: crate::ratings::time_class::UnknownTimeClass| {
            ApiError::bad_request("bad_class", e.to_string())
        })
}

fn parse_limit(limit: Option<i64>, default: i64, max: i64) -> Result<i64, ApiError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::bad_request(
            "bad_limit",
            format!("limit {n} is not from 1 to {max}"),
        )),
    }
}

/// `GET /api/leaderboard?rules=ID&class=CLASS[&limit=N][&provisional=true]`: the highest
/// ratings of a rule set and time class, with RD (grown over idle rating periods) and game
/// counts. Without `provisional`, a rating whose stored RD was settled but has grown past
/// [`PROVISIONAL_DEVIATION`] while its player was away is left off too (and the next one
/// takes its place).
pub async fn leaderboard(
    State(st): State<AppState>,
    Query(q): Query<LeaderboardQuery>,
) -> Result<Json<LeaderboardBody>, ApiError> {
    let rules = parse_rules(q.rules.as_deref().unwrap_or("wild16"))?;
    let class = parse_class(q.class.as_deref().unwrap_or("rapid"))?;
    let limit = parse_limit(q.limit, 50, MAX_LEADERBOARD)?;
    let provisional = q.provisional.unwrap_or(false);
    let now = st.store.now_ms();
    // The stored RD filters in SQL; the RD grown since (idle rating periods) only here, so
    // pages are read until `limit` ratings are kept or none are left.
    let mut kept = Vec::new();
    let mut offset = 0;
    loop {
        let page = st
            .store
            .leaderboard(
                rules.as_str(),
                class.as_str(),
                (!provisional).then_some(PROVISIONAL_DEVIATION),
                limit,
                offset,
            )
            .await?;
        let read = page.len() as i64;
        offset += read;
        kept.extend(page.into_iter().filter(|row| {
            provisional
                || !row
                    .rating
                    .rating
                    .at(row.rating.updated_ms, now)
                    .is_provisional()
        }));
        if kept.len() as i64 >= limit || read < limit {
            break;
        }
    }
    kept.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let players = kept
        .iter()
        .zip(1..)
        .map(|(row, rank)| LeaderboardLine {
            rank,
            name: row.name.clone(),
            kind: row.kind.clone(),
            line: rating_line(&row.rating, now),
        })
        .collect();
    Ok(Json(LeaderboardBody {
        rules: rules.as_str().to_owned(),
        class: class.as_str().to_owned(),
        provisional_deviation: PROVISIONAL_DEVIATION,
        players,
    }))
}

async fn user_named(st: &AppState, name: &str) -> Result<UserRow, ApiError> {
    st.store
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))
}

/// `GET /api/players/{name}`: a player's kind, games played, and ratings per rule set and
/// time class.
pub async fn player(
    State(st): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerBody>, ApiError> {
    let user = user_named(&st, &name).await?;
    let (played, rated) = st.store.games_played(&user.id).await?;
    let now = st.store.now_ms();
    let ratings = st
        .store
        .ratings_of(&user.id)
        .await?
        .iter()
        .map(|r| rating_line(r, now))
        .collect();
    Ok(Json(PlayerBody {
        name: user.name,
        kind: user.kind,
        games: GamesPlayed { played, rated },
        ratings,
    }))
}

fn history_line(h: &HistoryRow) -> HistoryLine {
    HistoryLine {
        game: h.game_id.clone(),
        rules: h.rules.clone(),
        class: h.class.clone(),
        opponent: h.opponent.clone(),
        score: h.score,
        before: exact(&h.before),
        after: exact(&h.after),
        change: h.after.rating - h.before.rating,
        games: h.games,
        at_ms: h.at_ms,
    }
}

/// `GET /api/players/{name}/history[?rules=ID][&class=CLASS][&limit=N]`: the player's rated
/// games, newest first, each with the rating before and after.
pub async fn history(
    State(st): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<HistoryBody>, ApiError> {
    let rules = q.rules.as_deref().map(parse_rules).transpose()?;
    let class = q.class.as_deref().map(parse_class).transpose()?;
    let limit = parse_limit(q.limit, 100, MAX_HISTORY)?;
    let user = user_named(&st, &name).await?;
    let rows = st
        .store
        .rating_history(
            &user.id,
            rules.map(|r| r.as_str()),
            class.map(|c| c.as_str()),
            limit,
        )
        .await?;
    Ok(Json(HistoryBody {
        name: user.name,
        history: rows.iter().map(history_line).collect(),
    }))
}
