//! [`Lobby`]: the open challenges as a stream of events (a challenge added, a challenge
//! removed), fanned out to every lobby feed by a bounded broadcast channel, and the frames of
//! the feed (`docs/PROTOCOL.md`, "The lobby feed").
//!
//! A challenge carries only what its creator chose (rule set, time control, rated or casual,
//! colour) and who is involved: never anything of a running game. A direct challenge (one
//! addressed to a named account) is shown only to its creator and to that account.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;
use umpire_protocol::clock::TimeControl;
use umpire_protocol::game::GameFrame;
use umpire_protocol::game::withdrawn::WithdrawnFrame;
use umpire_protocol::lobby::challenge::ChallengeJson;
use umpire_protocol::lobby::{AddedFrame, LobbyFrame, LobbySnapshot, RemovedFrame};
use umpire_protocol::side::Side;

use crate::ratings::time_class::TimeClass;
use crate::store::GameRow;

/// How many lobby events wait for the slowest feed before it is dropped (it lagged).
pub const EVENT_QUEUE: usize = 1024;

/// The version of the lobby feed's frames.
pub const LOBBY_PROTOCOL: u32 = umpire_protocol::lobby::LOBBY_PROTOCOL;

/// An open game waiting for an opponent, as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// The game's id.
    pub id: String,
    /// The creator's user id (not sent).
    pub creator_id: String,
    /// The creator's name.
    pub creator: String,
    /// The creator's colour: `white` or `black`.
    pub creator_color: &'static str,
    /// A direct challenge: the addressee's user id (not sent) and name.
    pub opponent: Option<(String, String)>,
    /// Rule-set identifier.
    pub rules: String,
    /// Initial clock, ms.
    pub initial_ms: i64,
    /// Increment, ms.
    pub increment_ms: i64,
    /// Rated or casual.
    pub rated: bool,
    /// A practice game.
    pub practice: bool,
}

impl Challenge {
    /// The challenge of an open game whose creator is `creator` (name) and whose addressee,
    /// if any, is named `opponent`; `None` if the row is not an open game with one seated user.
    pub fn of(row: &GameRow, creator: &str, opponent: Option<&str>) -> Option<Challenge> {
        if row.status != "open" {
            return None;
        }
        let seat = (0..2).find(|&i| row.users[i].is_some())?;
        let opponent = match (&row.opponent, opponent) {
            (Some(id), Some(name)) => Some((id.clone(), name.to_owned())),
            (None, _) => None,
            (Some(_), None) => return None,
        };
        Some(Challenge {
            id: row.id.clone(),
            creator_id: row.users[seat].clone()?,
            creator: creator.to_owned(),
            creator_color: ["white", "black"][seat],
            opponent,
            rules: row.rules.clone(),
            initial_ms: row.initial_ms,
            increment_ms: row.increment_ms,
            rated: row.rated,
            practice: row.practice,
        })
    }

    /// Whether the user `viewer` (a user id; `None` for an anonymous feed) sees it: everyone
    /// sees an open challenge; a direct one only its creator and its addressee.
    pub fn visible_to(&self, viewer: Option<&str>) -> bool {
        match &self.opponent {
            None => true,
            Some((to, _)) => viewer.is_some_and(|v| v == to || v == self.creator_id),
        }
    }

    /// The challenge as the feed shows it.
    pub fn wire(&self) -> ChallengeJson {
        ChallengeJson {
            id: self.id.clone(),
            creator: self.creator.clone(),
            creator_color: if self.creator_color == "black" {
                Side::Black
            } else {
                Side::White
            },
            opponent: self.opponent.as_ref().map(|(_, name)| name.clone()),
            rules: self.rules.clone(),
            time_control: TimeControl {
                initial_ms: self.initial_ms,
                increment_ms: self.increment_ms,
            },
            rated: self.rated,
            practice: self.practice,
            class: TimeClass::of(self.initial_ms, self.increment_ms)
                .as_str()
                .to_owned(),
        }
    }

    /// The challenge's JSON in the feed.
    pub fn json(&self) -> Value {
        serde_json::to_value(self.wire()).unwrap_or_default()
    }
}

/// Why a challenge left the lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Someone took the free seat: the game started.
    Joined,
    /// Its creator withdrew it.
    Cancelled,
    /// Its addressee refused it.
    Declined,
    /// Nobody took it in time.
    Expired,
    /// Its creator was gone: the creator's last game socket on it closed and none opened
    /// again within [`CREATOR_GONE`](crate::game::round::CREATOR_GONE).
    Abandoned,
}

impl Removal {
    /// The reason of a word in frames (and in storage).
    pub fn parse(word: &str) -> Option<Removal> {
        [
            Removal::Joined,
            Removal::Cancelled,
            Removal::Declined,
            Removal::Expired,
            Removal::Abandoned,
        ]
        .into_iter()
        .find(|r| r.as_str() == word)
    }

    /// The stable error code of a request about a challenge withdrawn for this reason.
    pub const fn gone_code(self) -> &'static str {
        match self {
            Removal::Joined => "game_not_open",
            Removal::Cancelled => "challenge_cancelled",
            Removal::Declined => "challenge_declined",
            Removal::Expired => "challenge_expired",
            Removal::Abandoned => "challenge_abandoned",
        }
    }

    /// The reason's word in frames.
    pub const fn as_str(self) -> &'static str {
        match self {
            Removal::Joined => "joined",
            Removal::Cancelled => "cancelled",
            Removal::Declined => "declined",
            Removal::Expired => "expired",
            Removal::Abandoned => "abandoned",
        }
    }
}

/// A change of the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyEvent {
    /// A challenge was opened.
    Added(Challenge),
    /// A challenge left the lobby.
    Removed {
        /// The game's id.
        id: String,
        /// Why.
        reason: Removal,
    },
}

/// The lobby's event channel, shared by the API (new challenges) and the game tasks (joins,
/// withdrawals, expiry).
#[derive(Clone, Debug)]
pub struct Lobby {
    tx: broadcast::Sender<Arc<LobbyEvent>>,
    /// Where events made on this node also go, to be told to the other nodes of a cluster
    /// (`crate::cluster::relay`); unset on a single server.
    relay: Arc<std::sync::OnceLock<tokio::sync::mpsc::Sender<Arc<LobbyEvent>>>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new()
    }
}

impl Lobby {
    /// A lobby with no feed.
    pub fn new() -> Lobby {
        let (tx, _) = broadcast::channel(EVENT_QUEUE);
        Lobby {
            tx,
            relay: Arc::default(),
        }
    }

    /// Tells every feed (none listening is fine), and the other nodes of a cluster.
    pub fn publish(&self, event: LobbyEvent) {
        let event = Arc::new(event);
        if let Some(relay) = self.relay.get()
            && relay.try_send(event.clone()).is_err()
        {
            tracing::warn!("lobby relay full: an event is not told to the other nodes");
        }
        let _ = self.tx.send(event);
    }

    /// Tells this node's feeds only (an event heard from another node).
    pub fn publish_local(&self, event: LobbyEvent) {
        let _ = self.tx.send(Arc::new(event));
    }

    /// Sends every event published on this node to `relay` too (once; later calls are
    /// ignored). A full relay drops the event for the other nodes (logged).
    pub fn relay_to(&self, relay: tokio::sync::mpsc::Sender<Arc<LobbyEvent>>) {
        let _ = self.relay.set(relay);
    }

    /// A receiver of every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<LobbyEvent>> {
        self.tx.subscribe()
    }
}

/// The first frame of a feed: every challenge the viewer sees now.
pub fn snapshot_frame(you: Option<&str>, challenges: &[Challenge]) -> String {
    LobbyFrame::Lobby(LobbySnapshot {
        protocol: LOBBY_PROTOCOL,
        you: you.map(str::to_owned),
        challenges: challenges.iter().map(Challenge::wire).collect(),
    })
    .to_text()
}

/// A challenge was opened.
pub fn added_frame(challenge: &Challenge) -> String {
    LobbyFrame::Added(AddedFrame {
        challenge: challenge.wire(),
    })
    .to_text()
}

/// A challenge left the lobby.
pub fn removed_frame(id: &str, reason: Removal) -> String {
    LobbyFrame::Removed(RemovedFrame {
        game: id.to_owned(),
        reason: reason.as_str().to_owned(),
    })
    .to_text()
}

/// To the connections of an open game that was withdrawn or expired: there is no game.
pub fn withdrawn_frame(id: &str, reason: Removal) -> String {
    GameFrame::Withdrawn(WithdrawnFrame {
        game: id.to_owned(),
        reason: reason.as_str().to_owned(),
    })
    .to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(opponent: Option<&str>) -> GameRow {
        GameRow {
            id: "g1".into(),
            rules: "wild16".into(),
            fen: umpire_rules::record::STANDARD_FEN.into(),
            users: [None, Some("u-ann".into())],
            agents: [None, None],
            agent_seed: 1,
            initial_ms: 180_000,
            increment_ms: 2_000,
            status: "open".into(),
            result: None,
            reason: None,
            created_ms: 0,
            rated: true,
            practice: false,
            opponent: opponent.map(str::to_owned),
        }
    }

    #[test]
    fn an_open_challenge_is_seen_by_all_a_direct_one_by_two() {
        let open = Challenge::of(&row(None), "ann", None).unwrap();
        assert!(open.visible_to(None));
        assert!(open.visible_to(Some("u-zed")));
        let direct = Challenge::of(&row(Some("u-bob")), "ann", Some("bob")).unwrap();
        assert!(!direct.visible_to(None));
        assert!(!direct.visible_to(Some("u-zed")));
        assert!(direct.visible_to(Some("u-bob")));
        assert!(direct.visible_to(Some("u-ann")));
    }

    #[test]
    fn a_challenge_says_whether_it_is_a_practice_game() {
        let mut practice = row(None);
        practice.rated = false;
        practice.practice = true;
        let wire = Challenge::of(&practice, "ann", None).unwrap().wire();
        assert!(wire.practice && !wire.rated);
        let wire = Challenge::of(&row(None), "ann", None).unwrap().wire();
        assert!(!wire.practice);
    }

    /// Every frame of the feed parses as its typed struct and writes back as the same JSON.
    #[test]
    fn every_feed_frame_parses_as_its_type() {
        let open = Challenge::of(&row(None), "ann", None).unwrap();
        let direct = Challenge::of(&row(Some("u-bob")), "ann", Some("bob")).unwrap();
        let frames = [
            snapshot_frame(Some("bob"), &[open.clone(), direct.clone()]),
            snapshot_frame(None, &[]),
            added_frame(&direct),
            removed_frame("g1", Removal::Expired),
            umpire_protocol::game::GameFrame::Error(umpire_protocol::error_frame::ErrorFrame {
                code: "lagged".to_owned(),
                message: "read faster".to_owned(),
                reply_to: None,
            })
            .to_text(),
        ];
        for text in &frames {
            let frame = LobbyFrame::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
            let sent: Value = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_value(&frame).unwrap(), sent, "{text}");
        }
        let LobbyFrame::Lobby(snapshot) = LobbyFrame::parse(&frames[0]).unwrap() else {
            panic!("not a snapshot");
        };
        assert_eq!(snapshot.challenges, [open.wire(), direct.wire()]);
        assert_eq!(snapshot.you.as_deref(), Some("bob"));
    }

    #[test]
    fn the_json_names_people_not_ids() {
        let c = Challenge::of(&row(Some("u-bob")), "ann", Some("bob")).unwrap();
        let v = c.json();
        assert_eq!(v["creator"], "ann");
        assert_eq!(v["creator_color"], "black");
        assert_eq!(v["opponent"], "bob");
        assert_eq!(v["class"], "blitz");
        assert_eq!(v["time_control"]["increment_ms"], 2_000);
        let text = v.to_string();
        assert!(!text.contains("u-bob") && !text.contains("u-ann"), "{text}");
    }

    #[test]
    fn only_open_games_are_challenges() {
        let mut r = row(None);
        r.status = "live".into();
        assert!(Challenge::of(&r, "ann", None).is_none());
        // A direct challenge whose addressee has no name is not shown.
        assert!(Challenge::of(&row(Some("u-bob")), "ann", None).is_none());
    }
}
