//! The one projection from a live game to a connection: frames built only from what that
//! connection may know.
//!
//! A player's frames are computed from the player's [`PlayerView`] (which is built only from
//! the player's [`Observation`]s, see [`umpire_rules::Outcome::observation`]) and public
//! data ([`Public`]: ids, names, clocks, a result by time). A spectator's frames are built
//! from [`spectator_observation`]: what both players hear. Every function here is pure.

use serde_json::Value;
use umpire_rules::shakmaty::{Color, Role};
use umpire_rules::wire::color_name;
use umpire_rules::{Announcement, AttemptList, Observation, Outcome, RuleSet};
use umpire_view::PlayerView;
use umpire_view::guided::guided_options;

pub use umpire_protocol::observation::observation_json;
use umpire_protocol::observation::{HeardJson, heard};
pub use umpire_protocol::{OFFERED_FILTERS, PROTOCOL_VERSION};

use crate::game::clock::ClockReading;
use crate::ratings::shown_rating::{ShownRating, ratings_json};
use crate::ratings::time_class::TimeClass;

/// Public facts about a game: who plays, the clocks, the result, and in a rated game the
/// players' ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Public<'a> {
    /// Game id.
    pub game: &'a str,
    /// Rule set.
    pub rules: &'a RuleSet,
    /// Display names of White and Black.
    pub names: [&'a str; 2],
    /// `open`, `live` or `over`.
    pub status: &'a str,
    /// The clocks now.
    pub clocks: ClockReading,
    /// Initial clock and increment, milliseconds.
    pub time_control: (i64, i64),
    /// Whether the game is rated.
    pub rated: bool,
    /// The result (score, reason) when the game is over.
    pub result: Option<(&'a str, &'a str)>,
    /// Each seat's rating in a rated game (`None` for a seat that is not rated).
    pub ratings: &'a [Option<ShownRating>; 2],
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The player's own men, as the umpire holds them (RELIST): `[{"square":"e2","man":"pawn"},…]`
/// in square order.
pub fn own_men(view: &PlayerView) -> Value {
    let board = view.own_board().board();
    let men: Vec<Value> = board
        .by_color(view.side())
        .into_iter()
        .filter_map(|sq| {
            board
                .role_at(sq)
                .map(|r| serde_json::json!({"square": sq.to_string(), "man": role_name(r)}))
        })
        .collect();
    Value::Array(men)
}

/// The attempts the guided space still offers the player (sorted UCI) and whether "Any?" may
/// be asked; empty when it is not the player's turn.
pub fn options(view: &PlayerView) -> (Vec<String>, bool) {
    if view.result().is_some() {
        return (Vec::new(), false);
    }
    let mut list = AttemptList::new();
    let any = guided_options(view, &OFFERED_FILTERS, &mut list);
    let mut out: Vec<String> = list.iter().map(|a| a.to_string()).collect();
    out.sort();
    (out, any)
}

fn clocks_json(c: ClockReading) -> Value {
    serde_json::json!({
        "white_ms": c.white_ms,
        "black_ms": c.black_ms,
        "running": c.running.map(color_name),
    })
}

fn result_json(public: &Public<'_>) -> Value {
    match public.result {
        Some((score, reason)) => serde_json::json!({"score": score, "reason": reason}),
        None => Value::Null,
    }
}

/// The part of every player frame that says where the player stands now.
fn player_now(view: &PlayerView, public: &Public<'_>) -> serde_json::Map<String, Value> {
    let (opts, any) = options(view);
    let mut m = serde_json::Map::new();
    m.insert("game".into(), public.game.into());
    m.insert("you".into(), color_name(view.side()).into());
    m.insert("status".into(), public.status.into());
    m.insert("to_move".into(), color_name(view.to_move()).into());
    m.insert("plies".into(), view.plies().into());
    m.insert("men".into(), own_men(view));
    m.insert("options".into(), opts.into());
    m.insert("any_allowed".into(), any.into());
    m.insert("clocks".into(), clocks_json(public.clocks));
    m.insert("result".into(), result_json(public));
    // A rated game's last update carries the ratings after it (the change at the end).
    if public.rated && public.result.is_some() {
        m.insert("ratings".into(), ratings_json(public.ratings));
    }
    m
}

fn header(public: &Public<'_>) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("protocol".into(), PROTOCOL_VERSION.into());
    m.insert("rules".into(), public.rules.id.as_str().into());
    m.insert(
        "players".into(),
        serde_json::json!({"white": public.names[0], "black": public.names[1]}),
    );
    m.insert(
        "time_control".into(),
        serde_json::json!({"initial_ms": public.time_control.0, "increment_ms": public.time_control.1}),
    );
    m.insert("rated".into(), public.rated.into());
    if public.rated {
        m.insert("ratings".into(), ratings_json(public.ratings));
    }
    let class = TimeClass::of(public.time_control.0, public.time_control.1);
    m.insert("class".into(), class.as_str().into());
    m
}

/// The `state` frame a player gets on connecting: the whole transcript (so that a client
/// resumes exactly after a dropped connection), chat, and where the player stands.
pub fn player_state(view: &PlayerView, public: &Public<'_>, chat: &[(Color, &str)]) -> String {
    let mut m = header(public);
    m.extend(player_now(view, public));
    let rules = view.rules();
    let opening: Vec<HeardJson> = view.opening().iter().map(|&a| heard(rules, a)).collect();
    m.insert(
        "opening".into(),
        serde_json::to_value(opening).unwrap_or_default(),
    );
    let transcript: Vec<Value> = view
        .transcript()
        .iter()
        .map(|o| observation_json(rules, o))
        .collect();
    m.insert("transcript".into(), transcript.into());
    m.insert("chat".into(), chat_json(chat));
    frame("state", m)
}

/// The `update` frame a player gets for one new observation; `reply_to` echoes the id of the
/// player's own command.
pub fn player_update(
    view: &PlayerView,
    obs: &Observation,
    public: &Public<'_>,
    reply_to: Option<u64>,
) -> String {
    let mut m = player_now(view, public);
    m.insert("observation".into(), observation_json(view.rules(), obs));
    if let Some(id) = reply_to {
        m.insert("reply_to".into(), id.into());
    }
    frame("update", m)
}

/// What a spectator learns from one outcome: the announcements both players hear, and whether a
/// move was played; `None` when that is nothing (an attempt that one player alone heard about).
pub fn spectator_observation(outcome: &Outcome) -> Option<SpectatorObservation> {
    let mut heard = Vec::new();
    for a in outcome.heard_by(Color::White) {
        if outcome.heard_by(Color::Black).any(|b| b == a) {
            heard.push(a);
        }
    }
    if heard.is_empty() && !outcome.is_accepted() {
        return None;
    }
    Some(SpectatorObservation {
        actor: outcome.side,
        moved: outcome.is_accepted(),
        heard,
    })
}

/// What a spectator learns from one outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpectatorObservation {
    /// Who acted.
    pub actor: Color,
    /// Whether a move was played.
    pub moved: bool,
    /// What both players heard.
    pub heard: Vec<Announcement>,
}

fn spectator_json(rules: &RuleSet, s: &SpectatorObservation) -> Value {
    let heard: Vec<HeardJson> = s.heard.iter().map(|&a| heard(rules, a)).collect();
    serde_json::json!({"actor": color_name(s.actor), "moved": s.moved, "heard": heard})
}

/// The `state` frame of a spectator: the public transcript, clocks, who plays.
pub fn spectator_state(
    public: &Public<'_>,
    opening: &[Announcement],
    transcript: &[SpectatorObservation],
    plies: u32,
    to_move: Color,
) -> String {
    let mut m = header(public);
    m.insert("game".into(), public.game.into());
    m.insert("you".into(), "spectator".into());
    m.insert("status".into(), public.status.into());
    m.insert("to_move".into(), color_name(to_move).into());
    m.insert("plies".into(), plies.into());
    let opening: Vec<HeardJson> = opening.iter().map(|&a| heard(public.rules, a)).collect();
    m.insert(
        "opening".into(),
        serde_json::to_value(opening).unwrap_or_default(),
    );
    let t: Vec<Value> = transcript
        .iter()
        .map(|s| spectator_json(public.rules, s))
        .collect();
    m.insert("transcript".into(), t.into());
    m.insert("clocks".into(), clocks_json(public.clocks));
    m.insert("result".into(), result_json(public));
    frame("state", m)
}

/// The `update` frame of a spectator.
pub fn spectator_update(
    public: &Public<'_>,
    s: &SpectatorObservation,
    plies: u32,
    to_move: Color,
) -> String {
    let mut m = serde_json::Map::new();
    m.insert("game".into(), public.game.into());
    m.insert("you".into(), "spectator".into());
    m.insert("status".into(), public.status.into());
    m.insert("to_move".into(), color_name(to_move).into());
    m.insert("plies".into(), plies.into());
    m.insert("observation".into(), spectator_json(public.rules, s));
    m.insert("clocks".into(), clocks_json(public.clocks));
    m.insert("result".into(), result_json(public));
    frame("update", m)
}

fn chat_json(chat: &[(Color, &str)]) -> Value {
    Value::Array(
        chat.iter()
            .map(|(side, text)| serde_json::json!({"from": color_name(*side), "text": text}))
            .collect(),
    )
}

/// A chat line between the players.
pub fn chat_frame(from: Color, text: &str) -> String {
    let mut m = serde_json::Map::new();
    m.insert("from".into(), color_name(from).into());
    m.insert("text".into(), text.into());
    frame("chat", m)
}

/// The answer to RELIST: the player's own men.
pub fn relist_frame(view: &PlayerView, reply_to: Option<u64>) -> String {
    let mut m = serde_json::Map::new();
    m.insert("men".into(), own_men(view));
    if let Some(id) = reply_to {
        m.insert("reply_to".into(), id.into());
    }
    frame("relist", m)
}

/// The end of a game the server declared (a flag fell, abandonment, abort), sent after the
/// umpire's announcement of it: public.
pub fn game_over_frame(public: &Public<'_>) -> String {
    let mut m = serde_json::Map::new();
    m.insert("game".into(), public.game.into());
    m.insert("result".into(), result_json(public));
    m.insert("clocks".into(), clocks_json(public.clocks));
    if public.rated {
        m.insert("ratings".into(), ratings_json(public.ratings));
    }
    frame("game_over", m)
}

/// A rematch was asked for: the new game's id, to the old game's players.
pub fn rematch_frame(old: &str, new: &str) -> String {
    let mut m = serde_json::Map::new();
    m.insert("game".into(), old.into());
    m.insert("rematch".into(), new.into());
    frame("rematch", m)
}

/// `frame` with `reply_to` added (the answer to a client's `sync`).
pub fn with_reply_to(frame: String, reply_to: Option<u64>) -> String {
    let Some(id) = reply_to else {
        return frame;
    };
    match serde_json::from_str::<Value>(&frame) {
        Ok(Value::Object(mut m)) => {
            m.insert("reply_to".into(), id.into());
            Value::Object(m).to_string()
        }
        _ => frame,
    }
}

/// A refusal sent to one connection.
pub fn error_frame(code: &str, message: &str, reply_to: Option<u64>) -> String {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), code.into());
    m.insert("message".into(), message.into());
    if let Some(id) = reply_to {
        m.insert("reply_to".into(), id.into());
    }
    frame("error", m)
}

fn frame(kind: &str, body: serde_json::Map<String, Value>) -> String {
    let mut m = serde_json::Map::new();
    m.insert("type".into(), kind.into());
    m.extend(body);
    Value::Object(m).to_string()
}
