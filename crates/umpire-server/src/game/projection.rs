//! The one projection from a live game to a connection: frames built only from what that
//! connection may know.
//!
//! A player's frames are computed from the player's [`PlayerView`] (which is built only from
//! the player's [`Observation`]s, see [`umpire_rules::Outcome::observation`]) and public
//! data ([`Public`]: ids, names, clocks, a result by time). A spectator's frames are built
//! from [`spectator_observation`]: what both players hear. Every function here is pure.

use serde_json::Value;
use umpire_protocol::chat::ChatLine;
use umpire_protocol::clock::{Clocks, TimeControl};
use umpire_protocol::ending::Ending;
use umpire_protocol::error_frame::ErrorFrame;
use umpire_protocol::game::GameFrame;
use umpire_protocol::game::game_over::GameOverFrame;
use umpire_protocol::game::header::Header;
use umpire_protocol::game::pong::PongFrame;
use umpire_protocol::game::presence::Presence;
use umpire_protocol::game::relist::RelistFrame;
use umpire_protocol::game::rematch::RematchFrame;
use umpire_protocol::game::state::{PlayerState, SpectatorState, StateFrame};
use umpire_protocol::game::update::{PlayerUpdate, SpectatorUpdate, UpdateFrame};
use umpire_protocol::man::OwnMan;
pub use umpire_protocol::observation::observation_json;
use umpire_protocol::observation::{PlayerObservation, PublicObservation, heard_all};
use umpire_protocol::side::{BySide, Spectator};
pub use umpire_protocol::{OFFERED_FILTERS, PROTOCOL_VERSION};
use umpire_rules::shakmaty::{Color, Role};
use umpire_rules::{Announcement, AttemptList, Observation, Outcome, RuleSet};
use umpire_view::PlayerView;
use umpire_view::guided::guided_options;

use crate::game::clock::ClockReading;
use crate::ratings::shown_rating::{ShownRating, seat_ratings};

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
    /// Whether it is a practice game.
    pub practice: bool,
    /// The result (score, reason) when the game is over.
    pub result: Option<(&'a str, &'a str)>,
    /// Each seat's rating in a rated game (`None` for a seat that is not rated).
    pub ratings: &'a [Option<ShownRating>; 2],
    /// Who is connected, and the abandonment countdown (connections and time only).
    pub presence: Presence,
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
    serde_json::to_value(men(view)).unwrap_or_default()
}

fn men(view: &PlayerView) -> Vec<OwnMan> {
    let board = view.own_board().board();
    board
        .by_color(view.side())
        .into_iter()
        .filter_map(|sq| {
            board.role_at(sq).map(|r| OwnMan {
                square: sq.to_string(),
                man: role_name(r).to_owned(),
            })
        })
        .collect()
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

fn clocks(c: ClockReading) -> Clocks {
    Clocks {
        white_ms: c.white_ms,
        black_ms: c.black_ms,
        running: c.running.map(Into::into),
    }
}

fn result(public: &Public<'_>) -> Option<Ending> {
    public.result.map(|(score, reason)| Ending {
        score: score.to_owned(),
        reason: reason.to_owned(),
    })
}

fn header(public: &Public<'_>) -> Header {
    let (initial_ms, increment_ms) = public.time_control;
    let class = crate::ratings::time_class::TimeClass::of(initial_ms, increment_ms);
    Header {
        protocol: PROTOCOL_VERSION,
        rules: public.rules.id.as_str().to_owned(),
        players: BySide::from_array(public.names.map(str::to_owned)),
        time_control: TimeControl {
            initial_ms,
            increment_ms,
        },
        rated: public.rated,
        practice: public.practice,
        class: class.as_str().to_owned(),
        ratings: public.rated.then(|| seat_ratings(public.ratings)),
    }
}

/// The `state` frame a player gets on connecting: the transcript from observation
/// `transcript_from` on (0: the whole of it, so that a client resumes exactly after a dropped
/// connection; more: a client that holds that many already), chat, and where the player stands.
/// `chat` is the recent chat the frame carries, `chat_from` the number of its first line in the
/// game's whole chat. A `transcript_from` past the end gives an empty transcript.
pub fn player_state(
    view: &PlayerView,
    public: &Public<'_>,
    chat: &[(Color, &str)],
    chat_from: u64,
    transcript_from: u32,
) -> String {
    let (options, any_allowed) = options(view);
    let rules = view.rules();
    let state = PlayerState {
        header: header(public),
        game: public.game.to_owned(),
        you: view.side().into(),
        status: public.status.to_owned(),
        to_move: view.to_move().into(),
        plies: view.plies(),
        men: men(view),
        options,
        any_allowed,
        clocks: clocks(public.clocks),
        presence: Some(public.presence),
        result: result(public),
        opening: heard_all(rules, view.opening()),
        transcript: view
            .transcript()
            .get(transcript_from as usize..)
            .unwrap_or_default()
            .iter()
            .map(|o| PlayerObservation::new(rules, o))
            .collect(),
        transcript_from,
        chat: chat_lines(chat),
        chat_from,
        reply_to: None,
    };
    GameFrame::State(Box::new(StateFrame::Player(state))).to_text()
}

/// The `update` frame a player gets for one new observation; `reply_to` echoes the id of the
/// player's own command.
pub fn player_update(
    view: &PlayerView,
    obs: &Observation,
    public: &Public<'_>,
    reply_to: Option<u64>,
) -> String {
    let (options, any_allowed) = options(view);
    let update = PlayerUpdate {
        game: public.game.to_owned(),
        you: view.side().into(),
        status: public.status.to_owned(),
        to_move: view.to_move().into(),
        plies: view.plies(),
        men: men(view),
        options,
        any_allowed,
        clocks: clocks(public.clocks),
        result: result(public),
        // A rated game's last update carries the ratings after it (the change at the end).
        ratings: (public.rated && public.result.is_some()).then(|| seat_ratings(public.ratings)),
        observation: PlayerObservation::new(view.rules(), obs),
        reply_to,
    };
    GameFrame::Update(UpdateFrame::Player(Box::new(update))).to_text()
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

/// The opening announcements a spectator hears: those both players heard (a game started
/// from a set-up position may tell one player something the other does not hear).
pub fn public_opening(white: &[Announcement], black: &[Announcement]) -> Vec<Announcement> {
    let mut left: Vec<Announcement> = black.to_vec();
    let mut heard = Vec::new();
    for a in white {
        if let Some(i) = left.iter().position(|b| b == a) {
            left.remove(i);
            heard.push(*a);
        }
    }
    heard
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

fn public_observation(rules: &RuleSet, s: &SpectatorObservation) -> PublicObservation {
    PublicObservation {
        actor: s.actor.into(),
        moved: s.moved,
        heard: heard_all(rules, &s.heard),
    }
}

/// The `state` frame of a spectator: the public transcript from observation
/// `transcript_from` on (empty past the end), clocks, who plays.
pub fn spectator_state(
    public: &Public<'_>,
    opening: &[Announcement],
    transcript: &[SpectatorObservation],
    plies: u32,
    to_move: Color,
    transcript_from: u32,
) -> String {
    let state = SpectatorState {
        header: header(public),
        game: public.game.to_owned(),
        you: Spectator::Spectator,
        status: public.status.to_owned(),
        to_move: to_move.into(),
        plies,
        opening: heard_all(public.rules, opening),
        transcript: transcript
            .get(transcript_from as usize..)
            .unwrap_or_default()
            .iter()
            .map(|s| public_observation(public.rules, s))
            .collect(),
        transcript_from,
        clocks: clocks(public.clocks),
        presence: Some(public.presence),
        result: result(public),
    };
    GameFrame::State(Box::new(StateFrame::Spectator(state))).to_text()
}

/// The `update` frame of a spectator.
pub fn spectator_update(
    public: &Public<'_>,
    s: &SpectatorObservation,
    plies: u32,
    to_move: Color,
) -> String {
    let update = SpectatorUpdate {
        game: public.game.to_owned(),
        you: Spectator::Spectator,
        status: public.status.to_owned(),
        to_move: to_move.into(),
        plies,
        observation: public_observation(public.rules, s),
        clocks: clocks(public.clocks),
        result: result(public),
        // As the players' last update: ratings are public.
        ratings: (public.rated && public.result.is_some()).then(|| seat_ratings(public.ratings)),
    };
    GameFrame::Update(UpdateFrame::Spectator(Box::new(update))).to_text()
}

fn chat_lines(chat: &[(Color, &str)]) -> Vec<ChatLine> {
    chat.iter()
        .map(|&(side, text)| ChatLine {
            from: side.into(),
            text: text.to_owned(),
        })
        .collect()
}

/// A chat line between the players.
pub fn chat_frame(from: Color, text: &str) -> String {
    GameFrame::Chat(ChatLine {
        from: from.into(),
        text: text.to_owned(),
    })
    .to_text()
}

/// The answer to RELIST: the player's own men.
pub fn relist_frame(view: &PlayerView, reply_to: Option<u64>) -> String {
    GameFrame::Relist(RelistFrame {
        men: men(view),
        reply_to,
    })
    .to_text()
}

/// The end of a game the server declared (a flag fell, abandonment, abort), sent after the
/// umpire's announcement of it: public.
pub fn game_over_frame(public: &Public<'_>) -> String {
    GameFrame::GameOver(GameOverFrame {
        game: public.game.to_owned(),
        result: result(public),
        clocks: clocks(public.clocks),
        ratings: public.rated.then(|| seat_ratings(public.ratings)),
    })
    .to_text()
}

/// The `presence` frame: who is connected and the abandonment countdown (public).
pub fn presence_frame(presence: Presence) -> String {
    GameFrame::Presence(presence).to_text()
}

/// The answer to a client's `ping`.
pub fn pong_frame(n: u32) -> String {
    GameFrame::Pong(PongFrame { n }).to_text()
}

/// A rematch was asked for: the new game's id, to the old game's players.
pub fn rematch_frame(old: &str, new: &str) -> String {
    GameFrame::Rematch(RematchFrame {
        game: old.to_owned(),
        rematch: new.to_owned(),
    })
    .to_text()
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
    GameFrame::Error(ErrorFrame {
        code: code.to_owned(),
        message: message.to_owned(),
        reply_to,
    })
    .to_text()
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_protocol::game::state::StateFrame;
    use umpire_protocol::game::update::UpdateFrame;
    use umpire_rules::{Command, RuleSetId, Umpire};

    use crate::ratings::glicko::Rating;

    #[test]
    fn spectators_hear_of_the_opening_only_what_both_players_heard() {
        // Issue 31, item 2: spectators were given White's opening announcements.
        let white = [Announcement::PawnTries(2), Announcement::PawnTries(2)];
        let black = [Announcement::PawnTries(2), Announcement::PawnCaptures];
        assert_eq!(
            public_opening(&white, &black),
            vec![Announcement::PawnTries(2)]
        );
        assert_eq!(public_opening(&white, &[]), vec![]);
        assert_eq!(public_opening(&[], &black), vec![]);
    }

    const RATINGS: [Option<ShownRating>; 2] = [
        Some(ShownRating {
            before: Rating::NEW,
            games: 3,
            after: Some(Rating {
                rating: 1540.6,
                deviation: 300.2,
                volatility: 0.06,
            }),
        }),
        None,
    ];

    fn public<'a>(rules: &'a RuleSet, rated: bool, over: bool) -> Public<'a> {
        Public {
            game: "g1",
            rules,
            names: ["ann", "agent:random"],
            status: if over { "over" } else { "live" },
            clocks: ClockReading {
                white_ms: 59_000,
                black_ms: 60_000,
                running: (!over).then_some(Color::Black),
            },
            time_control: (60_000, 1_000),
            rated,
            practice: false,
            result: over.then_some(("0-1", "time_forfeit")),
            ratings: &RATINGS,
            presence: Presence {
                white: umpire_protocol::game::presence::SeatPresence::Connected,
                black: umpire_protocol::game::presence::SeatPresence::Gone,
                abandon_in_ms: (!over).then_some(90_000),
            },
        }
    }

    /// `text` parses as a [`GameFrame`] and writes back as the same JSON: every field the
    /// server sends is in the type, and one left out stays out.
    fn typed(text: &str) -> GameFrame {
        let frame = GameFrame::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let sent: Value = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_value(&frame).unwrap(), sent, "{text}");
        frame
    }

    /// Every frame kind the projection builds parses as its typed struct, rated or not, over
    /// or not, with and without `reply_to`.
    #[test]
    fn every_frame_parses_as_its_type() {
        let rules = *RuleSetId::ALL[0].rules();
        let mut umpire = Umpire::new(rules);
        let mut view = PlayerView::standard(rules, Color::White);
        let mut spectators = Vec::new();
        let mut last = None;
        for command in [
            Command::Attempt("e2e4".parse().unwrap()),
            Command::Attempt("e7e5".parse().unwrap()),
            Command::Attempt("e1e3".parse().unwrap()),
        ] {
            let outcome = umpire.submit(command);
            if let Some(obs) = outcome.observation(command, Color::White) {
                view.observe(&obs).unwrap();
                last = Some(obs);
            }
            spectators.extend(spectator_observation(&outcome));
        }
        let obs = last.unwrap();
        let chat = [(Color::Black, "good luck")];
        for (rated, over) in [(false, false), (true, false), (true, true), (false, true)] {
            let p = public(&rules, rated, over);
            let state = typed(&player_state(&view, &p, &chat, 0, 0));
            let GameFrame::State(state) = state else {
                panic!("not a state");
            };
            let StateFrame::Player(state) = *state else {
                panic!("not a player's state");
            };
            assert_eq!(state.transcript.len(), view.transcript().len());
            assert_eq!(state.header.ratings.is_some(), rated);
            assert_eq!(state.chat.len(), 1);
            assert_eq!(state.presence, Some(p.presence));
            assert_eq!(state.transcript_from, 0);
            // A resume from observation 2 carries the rest only; past the end, none.
            let resumed = typed(&player_state(&view, &p, &chat, 0, 2));
            let GameFrame::State(resumed) = resumed else {
                panic!("not a state");
            };
            let StateFrame::Player(resumed) = *resumed else {
                panic!("not a player's state");
            };
            assert_eq!(resumed.transcript_from, 2);
            assert_eq!(resumed.transcript[..], state.transcript[2..]);
            let StateFrame::Player(past) = (match typed(&player_state(&view, &p, &chat, 0, 99)) {
                GameFrame::State(s) => *s,
                _ => panic!("not a state"),
            }) else {
                panic!("not a player's state");
            };
            assert!(past.transcript.is_empty());
            let synced = typed(&with_reply_to(player_state(&view, &p, &[], 0, 0), Some(9)));
            assert!(
                matches!(&synced, GameFrame::State(s) if matches!(&**s, StateFrame::Player(s) if s.reply_to == Some(9)))
            );
            for reply_to in [None, Some(4)] {
                let update = typed(&player_update(&view, &obs, &p, reply_to));
                let GameFrame::Update(UpdateFrame::Player(u)) = update else {
                    panic!("not a player's update");
                };
                assert_eq!(u.reply_to, reply_to);
                assert_eq!(u.ratings.is_some(), rated && over);
                let relist = typed(&relist_frame(&view, reply_to));
                assert!(matches!(relist, GameFrame::Relist(r) if r.men.len() == 16));
                let error = typed(&error_frame("bad_move", "no", reply_to));
                assert!(matches!(error, GameFrame::Error(e) if e.reply_to == reply_to));
            }
            let sstate = typed(&spectator_state(&p, &[], &spectators, 2, Color::White, 0));
            assert!(
                matches!(sstate, GameFrame::State(s) if matches!(&*s, StateFrame::Spectator(s) if s.presence == Some(p.presence) && s.transcript.len() == spectators.len()))
            );
            let sresumed = typed(&spectator_state(&p, &[], &spectators, 2, Color::White, 1));
            assert!(
                matches!(sresumed, GameFrame::State(s) if matches!(&*s, StateFrame::Spectator(s) if s.transcript_from == 1 && s.transcript.len() == spectators.len() - 1))
            );
            let presence = typed(&presence_frame(p.presence));
            assert!(matches!(presence, GameFrame::Presence(q) if q == p.presence));
            let supdate = typed(&spectator_update(&p, &spectators[0], 1, Color::Black));
            assert!(matches!(
                supdate,
                GameFrame::Update(UpdateFrame::Spectator(u)) if u.ratings.is_some() == (rated && over)
            ));
            let over_frame = typed(&game_over_frame(&p));
            assert!(matches!(over_frame, GameFrame::GameOver(g) if g.ratings.is_some() == rated));
        }
        assert!(matches!(
            typed(&pong_frame(u32::MAX)),
            GameFrame::Pong(PongFrame { n: u32::MAX })
        ));
        assert!(matches!(
            typed(&chat_frame(Color::White, "hi")),
            GameFrame::Chat(_)
        ));
        assert!(matches!(
            typed(&rematch_frame("g1", "g2")),
            GameFrame::Rematch(r) if r.rematch == "g2"
        ));
        let withdrawn =
            crate::lobby::feed::withdrawn_frame("g1", crate::lobby::feed::Removal::Declined);
        assert!(matches!(typed(&withdrawn), GameFrame::Withdrawn(w) if w.reason == "declined"));
    }
}
