//! The ratings API: `GET /api/leaderboard`, `GET /api/players/{name}` and
//! `GET /api/players/{name}/history`.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};
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

fn rating_json(r: &Rating) -> Value {
    json!({
        "rating": r.rating,
        "deviation": r.deviation,
        "volatility": r.volatility,
        "provisional": r.is_provisional(),
    })
}

/// A stored rating as shown at `now_ms`: its deviation grown over the idle rating periods
/// since the player's last rated game there (see [`crate::ratings::glicko::RATING_PERIOD_MS`]).
fn rating_row_json(r: &RatingRow, now_ms: i64) -> Value {
    let mut v = rating_json(&r.rating.at(r.updated_ms, now_ms));
    v["rules"] = r.rules.as_str().into();
    v["class"] = r.class.as_str().into();
    v["games"] = r.games.into();
    v["wins"] = r.wins.into();
    v["losses"] = r.losses.into();
    v["draws"] = r.draws.into();
    v["updated_ms"] = r.updated_ms.into();
    v
}

/// A seated user's rating as shown in a game summary at `now_ms`: `null` for a guest (never
/// rated), the stored rating (its deviation grown over idle rating periods) with its game
/// count for an account or bot, or a new player's 1500/350 with no games.
pub fn seat_rating_json(seat: &SeatRow, now_ms: i64) -> Value {
    if seat.kind == "guest" {
        return Value::Null;
    }
    let (rating, games) = seat
        .rating
        .map_or((Rating::NEW, 0), |r| (r.now(now_ms), r.games));
    let mut v = rating_json(&rating);
    v["games"] = games.into();
    v
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

/// The query of `GET /api/leaderboard`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// Rule set (default `wild16`, the default of new games).
    pub rules: Option<String>,
    /// Time class (default `rapid`, the class of the default ten-minute game).
    pub class: Option<String>,
    /// How many lines (default 50, at most [`MAX_LEADERBOARD`]).
    pub limit: Option<i64>,
    /// Include provisional ratings (RD above 110), marked as such (default false).
    pub provisional: Option<bool>,
}

/// `GET /api/leaderboard?rules=ID&class=CLASS[&limit=N][&provisional=true]`: the highest
/// ratings of a rule set and time class, with RD (grown over idle rating periods) and game
/// counts. Without `provisional`, a rating whose stored RD was settled but has grown past
/// [`PROVISIONAL_DEVIATION`] while its player was away is left off too (and the next one
/// takes its place).
pub async fn leaderboard(
    State(st): State<AppState>,
    Query(q): Query<LeaderboardQuery>,
) -> Result<Json<Value>, ApiError> {
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
    let players: Vec<Value> = kept
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut v = rating_row_json(&row.rating, now);
            v["rank"] = (i + 1).into();
            v["name"] = row.name.as_str().into();
            v["kind"] = row.kind.as_str().into();
            v
        })
        .collect();
    Ok(Json(json!({
        "rules": rules.as_str(),
        "class": class.as_str(),
        "provisional_deviation": PROVISIONAL_DEVIATION,
        "players": players,
    })))
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
) -> Result<Json<Value>, ApiError> {
    let user = user_named(&st, &name).await?;
    let (played, rated) = st.store.games_played(&user.id).await?;
    let ratings: Vec<Value> = st
        .store
        .ratings_of(&user.id)
        .await?
        .iter()
        .map(|r| rating_row_json(r, st.store.now_ms()))
        .collect();
    Ok(Json(json!({
        "name": user.name,
        "kind": user.kind,
        "games": {"played": played, "rated": rated},
        "ratings": ratings,
    })))
}

/// The query of `GET /api/players/{name}/history`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    /// Only this rule set.
    pub rules: Option<String>,
    /// Only this time class.
    pub class: Option<String>,
    /// How many games (default 100, at most [`MAX_HISTORY`]).
    pub limit: Option<i64>,
}

fn history_json(h: &HistoryRow) -> Value {
    json!({
        "game": h.game_id,
        "rules": h.rules,
        "class": h.class,
        "opponent": h.opponent,
        "score": h.score,
        "before": rating_json(&h.before),
        "after": rating_json(&h.after),
        "change": h.after.rating - h.before.rating,
        "games": h.games,
        "at_ms": h.at_ms,
    })
}

/// `GET /api/players/{name}/history[?rules=ID][&class=CLASS][&limit=N]`: the player's rated
/// games, newest first, each with the rating before and after.
pub async fn history(
    State(st): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<Value>, ApiError> {
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
    Ok(Json(json!({
        "name": user.name,
        "history": rows.iter().map(history_json).collect::<Vec<_>>(),
    })))
}
