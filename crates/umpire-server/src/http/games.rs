//! The games' handlers: create one (an open game, a direct challenge, or a game against a
//! built-in agent), list them, read one, join an open one, ask for a rematch.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use rand::RngExt;
use tokio::sync::oneshot;
use umpire_ai::AgentKind;
use umpire_protocol::clock::TimeControl as ProtocolTimeControl;
use umpire_protocol::http::game::{GameSummary, GamesQuery, NewGameRequest};
use umpire_protocol::side::{BySide, Side};
use umpire_rules::record::STANDARD_FEN;
use umpire_rules::shakmaty::Color;
use umpire_rules::{RuleSetId, Umpire};

use crate::accounts::auth;
use crate::error::ApiError;
use crate::game::clock::TimeControl;
use crate::game::round::{RoundMsg, index};
use crate::http::caller::{Caller, MaybeCaller};
use crate::http::json_body::body;
use crate::http::peer::Peer;
use crate::http::state::AppState;
use crate::ratings::time_class::TimeClass;
use crate::store::{GameRow, UserRow};

/// The JSON summary of a game: id, rule set, players, status, result, time control, whether
/// it is rated, its time class, and each seated account's rating in that rule set and class.
pub async fn summary(st: &AppState, row: &GameRow) -> Result<GameSummary, ApiError> {
    let class = TimeClass::of(row.initial_ms, row.increment_ms);
    let mut names = [String::from("?"), String::from("?")];
    let mut ratings = [None, None];
    for i in 0..2 {
        if let Some(user) = &row.users[i] {
            // Name and rating in one query, so the lobby listing costs what it did before.
            if let Some(seat) = st.store.seat(user, &row.rules, class.as_str()).await? {
                ratings[i] = crate::http::players::seat_rating(&seat, st.store.now_ms());
                names[i] = seat.name;
            }
        } else if let Some(agent) = &row.agents[i] {
            names[i] = format!("agent:{agent}");
        }
    }
    let opponent = match &row.opponent {
        Some(id) => st.store.user_by_id(id).await?.map(|u| u.name),
        None => None,
    };
    Ok(GameSummary {
        id: row.id.clone(),
        rules: row.rules.clone(),
        players: BySide::from_array(names),
        status: row.status.clone(),
        result: row.result.clone(),
        reason: row.reason.clone(),
        time_control: ProtocolTimeControl {
            initial_ms: row.initial_ms,
            increment_ms: row.increment_ms,
        },
        rated: row.rated,
        practice: row.practice,
        class: class.as_str().to_owned(),
        ratings: BySide::from_array(ratings),
        opponent,
        you: None,
        rematch_of: None,
    })
}

/// Takes one game creation from `user`'s budget (and, for a guest, from its address's);
/// `rate_limited` (429) when it is spent.
fn may_create(st: &AppState, user: &UserRow, peer: Peer) -> Result<(), ApiError> {
    let now = std::time::Instant::now();
    let refused = |what: &str| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many new games {what}: wait a little and try again"),
        )
    };
    if !st.creations.take(&user.id, now) {
        return Err(refused("from this player"));
    }
    if user.kind == "guest"
        && let Some(ip) = peer.0
        && (st.options.limit_loopback_guests || !ip.is_loopback())
        && !st.guest_creations.take(&ip.to_string(), now)
    {
        return Err(refused("from guests at this address"));
    }
    Ok(())
}

/// `POST /api/games`: a new game: `rules` (default `wild16`), `initial_ms` (default ten
/// minutes), `increment_ms` (default 0), `color` (`white`, `black`, `random`), `rated`
/// (default false: casual; guests and games against built-in agents are refused), and `agent`
/// (`random`, `guided-random`) for an instant game against a built-in agent, or `opponent`
/// (an account's name) for a direct challenge only that account may join or decline.
pub async fn create_game(
    State(st): State<AppState>,
    Caller(user): Caller,
    peer: Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<GameSummary>, ApiError> {
    let g: NewGameRequest = body(&headers, &bytes)?;
    may_create(&st, &user, peer)?;
    let rules: RuleSetId = g.rules.as_deref().unwrap_or("wild16").parse().map_err(
        |e: umpire_rules::UnknownRuleSet| ApiError::bad_request("bad_rules", e.to_string()),
    )?;
    let tc = TimeControl::checked(g.initial_ms.unwrap_or(600_000), g.increment_ms.unwrap_or(0))
        .map_err(|e| ApiError::bad_request("bad_time_control", e))?;
    let color = match g.color.as_deref().unwrap_or("random") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if rand::rng().random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(ApiError::bad_request(
                "bad_color",
                format!("{other:?} is not white, black or random"),
            ));
        }
    };
    let agent = g
        .agent
        .as_deref()
        .map(|a| a.parse::<AgentKind>())
        .transpose()
        .map_err(|e| ApiError::bad_request("bad_agent", e.to_string()))?;
    let agent = match agent {
        Some(kind) => Some(
            crate::game::strength::HouseSpec::at_level(kind, g.level)
                .map_err(|e| ApiError::bad_request("bad_level", e))?,
        ),
        None if g.level.is_some() => {
            return Err(ApiError::bad_request(
                "bad_level",
                "a level is the strength of an agent: give \"agent\" too",
            ));
        }
        None => None,
    };
    let rated = g.rated.unwrap_or(false);
    let practice = g.practice.unwrap_or(false);
    if practice && rated {
        return Err(ApiError::bad_request(
            "practice_unrated",
            "a practice game is never rated: leave out \"rated\" or \"practice\"",
        ));
    }
    if rated && user.kind == "guest" {
        return Err(ApiError::guest_unrated());
    }
    if rated && agent.is_some() {
        return Err(ApiError::bad_request(
            "agent_unrated",
            "games against built-in agents are casual: the house agents are not accounts and \
             have no rating (leave out \"rated\" or set it to false)",
        ));
    }
    let opponent = match g.opponent.as_deref() {
        Some(name) => Some(direct_opponent(&st, &user, name, rated, agent.is_some()).await?),
        None => None,
    };
    // The start position is checked as the umpire would.
    Umpire::from_fen(*rules.rules(), STANDARD_FEN)
        .map_err(|e| ApiError::bad_request("bad_fen", e.to_string()))?;
    let mut users = [None, None];
    let mut agents = [None, None];
    users[index(color)] = Some(user.id.clone());
    if let Some(kind) = agent {
        agents[index(!color)] = Some(kind.to_stored());
    }
    let row = GameRow {
        id: auth::new_id(),
        rules: rules.as_str().to_owned(),
        fen: STANDARD_FEN.to_owned(),
        users,
        agents,
        agent_seed: (rand::rng().random::<u64>() >> 1) as i64,
        initial_ms: tc.initial_ms,
        increment_ms: tc.increment_ms,
        status: if agent.is_some() { "live" } else { "open" }.to_owned(),
        result: None,
        reason: None,
        created_ms: st.store.now_ms(),
        rated,
        opponent: opponent.as_ref().map(|u| u.id.clone()),
        practice,
    };
    st.store.insert_game(&row).await?;
    st.hub.round(&row.id).await?;
    announce(&st, &row, &user, opponent.as_ref().map(|u| u.name.as_str()));
    let mut s = summary(&st, &row).await?;
    s.you = Some(color.into());
    Ok(Json(s))
}

/// The account a direct challenge is addressed to, checked: it exists, it is not the
/// challenger, no agent is asked for too, and a rated challenge is not to a guest.
async fn direct_opponent(
    st: &AppState,
    user: &UserRow,
    name: &str,
    rated: bool,
    agent: bool,
) -> Result<UserRow, ApiError> {
    if agent {
        return Err(ApiError::bad_request(
            "opponent_and_agent",
            "a game is either against a built-in agent or a challenge to a player: give \"agent\" or \"opponent\", not both",
        ));
    }
    let Some(to) = st.store.user_by_name(name).await? else {
        return Err(ApiError::not_found_code(
            "unknown_opponent",
            format!("there is no player named {name:?}"),
        ));
    };
    if to.id == user.id {
        return Err(ApiError::bad_request(
            "own_challenge",
            "you cannot challenge yourself",
        ));
    }
    if rated && to.kind == "guest" {
        return Err(ApiError::forbidden(
            "guest_unrated",
            format!("{name} is a guest: guests play casual games only (leave out \"rated\")"),
        ));
    }
    Ok(to)
}

/// Tells the lobby feeds of a new open game created by `creator` (addressed to `opponent`).
fn announce(st: &AppState, row: &GameRow, creator: &UserRow, opponent: Option<&str>) {
    if let Some(c) = crate::lobby::feed::Challenge::of(row, &creator.name, opponent) {
        st.hub
            .lobby()
            .publish(crate::lobby::feed::LobbyEvent::Added(c));
    }
}

/// `GET /api/games[?status=open|live|over]`: the newest 100 games. A direct challenge still
/// open is listed only to its creator and the player it is addressed to.
pub async fn list_games(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    if let Some(s) = q.status.as_deref()
        && !["open", "live", "over"].contains(&s)
    {
        return Err(ApiError::bad_request(
            "bad_status",
            "status is open, live or over",
        ));
    }
    let rows = st.store.games(q.status.as_deref(), 100).await?;
    let mut out = Vec::with_capacity(rows.len());
    let viewer = caller.as_ref().map(|u| u.id.as_str());
    for row in &rows {
        let private = row.status == "open"
            && row.opponent.is_some()
            && !viewer.is_some_and(|v| {
                row.opponent.as_deref() == Some(v) || row.users.iter().flatten().any(|u| u == v)
            });
        if private {
            continue;
        }
        out.push(summary(&st, row).await?);
    }
    Ok(Json(out))
}

/// The stored game `id`, or the refusal that says why there is none.
pub(crate) async fn game_row(st: &AppState, id: &str) -> Result<GameRow, ApiError> {
    match st.store.game(id).await? {
        Some(row) => Ok(row),
        None => Err(crate::lobby::challenge::missing(&st.store, id).await),
    }
}

/// `GET /api/games/{id}`.
pub async fn get_game(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameSummary>, ApiError> {
    let row = game_row(&st, &id).await?;
    Ok(Json(summary(&st, &row).await?))
}

/// `POST /api/games/{id}/join`: takes the free seat of an open game; the game starts.
pub async fn join_game(
    State(st): State<AppState>,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<GameSummary>, ApiError> {
    let handle = st.hub.round(&id).await?;
    let (reply, answer) = oneshot::channel();
    handle
        .send(RoundMsg::Join {
            user: Box::new(user),
            reply,
        })
        .await?;
    let color = answer
        .await
        .map_err(|_| crate::lobby::challenge::gone())??;
    let row = game_row(&st, &id).await?;
    let mut s = summary(&st, &row).await?;
    s.you = Some(color.into());
    Ok(Json(s))
}

/// `POST /api/games/{id}/rematch`: a player of a finished game asks for a new game with the
/// same rule set and time control and the colours swapped. Against a built-in agent the new
/// game starts at once (the same agent and strength); otherwise it is open, reserved in effect
/// for the opponent as a direct challenge (only the old opponent may join or decline it), and
/// the old game's players get a `rematch` frame naming it.
pub async fn rematch(
    State(st): State<AppState>,
    Caller(user): Caller,
    peer: Peer,
    Path(id): Path<String>,
) -> Result<Json<GameSummary>, ApiError> {
    may_create(&st, &user, peer)?;
    let old = game_row(&st, &id).await?;
    let Some(mine) = (0..2).find(|&i| old.users[i].as_deref() == Some(user.id.as_str())) else {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only a player of the game may ask for a rematch",
        ));
    };
    if old.status != "over" {
        return Err(ApiError::conflict(
            "game_not_over",
            "a rematch is asked for after the game ends",
        ));
    }
    let other = 1 - mine;
    let mut users = [None, None];
    let mut agents = [None, None];
    users[other] = Some(user.id.clone());
    agents[mine] = old.agents[other].clone();
    let live = agents[mine].is_some();
    let row = GameRow {
        id: auth::new_id(),
        rules: old.rules.clone(),
        fen: old.fen.clone(),
        users,
        agents,
        agent_seed: (rand::rng().random::<u64>() >> 1) as i64,
        initial_ms: old.initial_ms,
        increment_ms: old.increment_ms,
        status: if live { "live" } else { "open" }.to_owned(),
        result: None,
        reason: None,
        created_ms: st.store.now_ms(),
        rated: old.rated,
        practice: old.practice,
        opponent: if live { None } else { old.users[other].clone() },
    };
    st.store.insert_game(&row).await?;
    st.hub.round(&row.id).await?;
    if !live {
        let to = match &row.opponent {
            Some(id) => st.store.user_by_id(id).await?.map(|u| u.name),
            None => None,
        };
        announce(&st, &row, &user, to.as_deref());
        let frame = crate::game::projection::rematch_frame(&old.id, &row.id);
        let handle = st.hub.round(&old.id).await?;
        handle.send(RoundMsg::Notify { frame }).await?;
    }
    let mut s = summary(&st, &row).await?;
    s.you = Some(Side::from(if other == 0 {
        Color::White
    } else {
        Color::Black
    }));
    s.rematch_of = Some(old.id);
    Ok(Json(s))
}
