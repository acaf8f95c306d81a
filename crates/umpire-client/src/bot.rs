//! `umpire bot`: a built-in agent (or `cmd:PROGRAM`) as a remote bot account that creates
//! games or takes challenges, several at once.
//!
//! A bot that takes challenges listens to the lobby feed (`GET /api/lobby/ws`) instead of
//! polling: [`Offers`] keeps the challenges it may take as the feed tells them (those
//! addressed to the bot by name first, then open ones, oldest first). When the feed drops (the
//! server restarts, or closes a feed that fell behind with `lagged`) the bot connects again
//! with a growing pause, and the new snapshot replaces what it knew; games in play go on. A
//! game whose socket drops is resumed by [`crate::remote::play`], which opens it again.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::task::JoinSet;
use umpire_ai::AgentSpec;
use umpire_protocol::lobby::LobbyFrame;
use umpire_protocol::lobby::challenge::ChallengeJson;

use crate::client::{Client, GameSocket};
use crate::remote::{PlayStats, play};

/// The first pause before connecting the feed again; it doubles up to [`LAST_RETRY`].
pub const FIRST_RETRY: Duration = Duration::from_millis(250);

/// The longest pause between two tries to connect the feed.
pub const LAST_RETRY: Duration = Duration::from_secs(8);

/// How long a bot waits before creating a game again after `rate_limited`.
const CREATE_RETRY: Duration = Duration::from_secs(2);

/// What `umpire bot` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotPlan {
    /// The agent.
    pub agent: AgentSpec,
    /// Games to play before returning.
    pub games: usize,
    /// Games played at once (at least one).
    pub parallel: usize,
    /// Create each game under this rule set and wait for an opponent, instead of taking
    /// challenges.
    pub create: Option<String>,
    /// Created games are rated.
    pub rated: bool,
    /// Seed of the agent in the first game; game `n` (from 0) uses `seed + n`.
    pub seed: u64,
}

/// What a lobby feed frame means to the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedSays {
    /// Something changed (or nothing that matters).
    Noted,
    /// A fresh snapshot came: the feed is healthy.
    Snapshot,
    /// The server closes this feed (it fell behind: `lagged`): connect again.
    Reconnect(String),
}

/// The challenges a bot may take, as its lobby feed tells them: oldest first, each with
/// whether it is addressed to the bot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    me: String,
    open: Vec<(String, bool)>,
}

impl Offers {
    /// No challenge known yet, for the bot named `me`.
    pub fn new(me: &str) -> Offers {
        Offers {
            me: me.to_owned(),
            open: Vec::new(),
        }
    }

    /// Whether the bot may take `challenge`, and if so whether it is addressed to the bot: not
    /// its own, and open to anyone or to the bot.
    fn takes(&self, challenge: &ChallengeJson) -> Option<(String, bool)> {
        if challenge.creator == self.me {
            return None;
        }
        match &challenge.opponent {
            None => Some((challenge.id.clone(), false)),
            Some(to) if *to == self.me => Some((challenge.id.clone(), true)),
            Some(_) => None,
        }
    }

    /// Takes one frame of the feed (a frame that does not read as one is passed over).
    pub fn take(&mut self, frame: &Value) -> FeedSays {
        match LobbyFrame::deserialize(frame) {
            Ok(frame) => self.take_frame(frame),
            Err(_) => FeedSays::Noted,
        }
    }

    /// Takes one typed frame of the feed.
    pub fn take_frame(&mut self, frame: LobbyFrame) -> FeedSays {
        match frame {
            LobbyFrame::Lobby(snapshot) => {
                // The snapshot lists the newest first.
                self.open = snapshot
                    .challenges
                    .iter()
                    .rev()
                    .filter_map(|c| self.takes(c))
                    .collect();
                FeedSays::Snapshot
            }
            LobbyFrame::Added(added) => {
                if let Some(c) = self.takes(&added.challenge)
                    && !self.open.iter().any(|(id, _)| *id == c.0)
                {
                    self.open.push(c);
                }
                FeedSays::Noted
            }
            LobbyFrame::Removed(removed) => {
                self.open.retain(|(id, _)| *id != removed.game);
                FeedSays::Noted
            }
            LobbyFrame::Error(e) if e.code == "lagged" => FeedSays::Reconnect(e.message),
            LobbyFrame::Error(_) => FeedSays::Noted,
        }
    }

    /// The challenge to try next, forgotten here (tried once): the oldest addressed to the
    /// bot, else the oldest open one.
    pub fn pick(&mut self) -> Option<String> {
        let i = self
            .open
            .iter()
            .position(|(_, to_me)| *to_me)
            .or(if self.open.is_empty() { None } else { Some(0) })?;
        Some(self.open.remove(i).0)
    }

    /// How many challenges the bot may still try.
    pub fn len(&self) -> usize {
        self.open.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }
}

/// The next frame of the feed, or never if there is none.
async fn next_frame(feed: &mut Option<GameSocket>) -> Result<Value, String> {
    match feed {
        Some(f) => f.next().await,
        None => std::future::pending().await,
    }
}

/// One game played to its end: its id and result (`null` if it could not be played out).
async fn play_one(client: Client, id: String, agent: AgentSpec, seed: u64) -> (String, Value) {
    let mut stats = PlayStats::default();
    match play(&client, &id, &agent, seed, None, &mut stats).await {
        Ok(ended) => (id, ended.result),
        Err(e) => {
            tracing::warn!("game {id}: {e}");
            (id, Value::Null)
        }
    }
}

/// Creates a game under `rules`, waiting and trying again while the server says
/// `rate_limited`.
async fn create(client: &Client, rules: &str, rated: bool) -> Result<String, String> {
    loop {
        let answer = client
            .request(
                "POST",
                "/api/games",
                Some(&json!({"rules": rules, "rated": rated})),
            )
            .await?;
        if answer.code() == Some("rate_limited") {
            tokio::time::sleep(CREATE_RETRY).await;
            continue;
        }
        return answer.ok()?["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| "no game id".to_owned());
    }
}

/// Runs the bot: plays `plan.games` games, at most `plan.parallel` at once, creating them
/// (`plan.create`) or taking challenges from the lobby feed. Calls `ended` with each game's id
/// and result (`null` for a game that could not be played out) as it ends, and returns them
/// all, in the order they ended.
pub async fn run_bot(
    client: &Client,
    plan: &BotPlan,
    mut ended: impl FnMut(&str, &Value),
) -> Result<Vec<(String, Value)>, String> {
    let parallel = plan.parallel.max(1);
    let mut playing: JoinSet<Result<(String, Value), String>> = JoinSet::new();
    let mut out = Vec::with_capacity(plan.games);
    let mut started = 0usize;
    let spawn = |playing: &mut JoinSet<_>, id: Option<String>, n: usize| {
        let (client, agent) = (client.clone(), plan.agent.clone());
        let seed = plan.seed.wrapping_add(n as u64);
        let (rules, rated) = (plan.create.clone(), plan.rated);
        playing.spawn(async move {
            let id = match (id, rules) {
                (Some(id), _) => id,
                (None, Some(rules)) => create(&client, &rules, rated).await?,
                (None, None) => return Err("no game to play".to_owned()),
            };
            Ok(play_one(client, id, agent, seed).await)
        });
    };
    if plan.create.is_some() {
        while out.len() < plan.games {
            while started < plan.games && playing.len() < parallel {
                spawn(&mut playing, None, started);
                started += 1;
            }
            match playing.join_next().await {
                Some(done) => {
                    let (id, result) = done.map_err(|e| e.to_string())??;
                    ended(&id, &result);
                    out.push((id, result));
                }
                None => break,
            }
        }
        return Ok(out);
    }
    let me = client.request("GET", "/api/me", None).await?.ok()?["user"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut offers = Offers::new(&me);
    let mut feed: Option<GameSocket> = None;
    let mut retry = FIRST_RETRY;
    let mut retry_at = tokio::time::Instant::now();
    while out.len() < plan.games {
        while started < plan.games && playing.len() < parallel {
            let Some(id) = offers.pick() else { break };
            // Refused if someone else took it first or it was withdrawn: the next one.
            if client.join(&id).await.is_ok() {
                spawn(&mut playing, Some(id), started);
                started += 1;
            }
        }
        let wants_more = started < plan.games;
        if !wants_more {
            feed = None;
        }
        tokio::select! {
            frame = next_frame(&mut feed) => match frame {
                Ok(v) => match offers.take(&v) {
                    FeedSays::Snapshot => retry = FIRST_RETRY,
                    FeedSays::Noted => {}
                    FeedSays::Reconnect(why) => {
                        tracing::info!("lobby feed closed ({why}); connecting again");
                        feed = None;
                        retry_at = tokio::time::Instant::now() + retry;
                    }
                },
                Err(e) => {
                    tracing::info!("lobby feed lost ({e}); connecting again in {retry:?}");
                    feed = None;
                    retry_at = tokio::time::Instant::now() + retry;
                    retry = (retry * 2).min(LAST_RETRY);
                }
            },
            () = tokio::time::sleep_until(retry_at), if feed.is_none() && wants_more => {
                match client.lobby().await {
                    Ok(f) => feed = Some(f),
                    Err(e) => {
                        tracing::info!("lobby feed: {e}; trying again in {retry:?}");
                        retry_at = tokio::time::Instant::now() + retry;
                        retry = (retry * 2).min(LAST_RETRY);
                    }
                }
            }
            Some(done) = playing.join_next(), if !playing.is_empty() => {
                let (id, result) = done.map_err(|e| e.to_string())??;
                ended(&id, &result);
                out.push((id, result));
            }
            else => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(id: &str, creator: &str, to: Option<&str>) -> Value {
        json!({"id": id, "creator": creator, "creator_color": "white", "opponent": to,
               "rules": "wild16", "time_control": {"initial_ms": 600000, "increment_ms": 0},
               "rated": false, "class": "rapid"})
    }

    #[test]
    fn challenges_to_the_bot_come_first_then_the_oldest_open_ones() {
        let mut o = Offers::new("botty");
        // Newest first in the snapshot: g3, g2, g1.
        let snap = json!({"type": "lobby", "protocol": 1, "you": "botty", "challenges": [
            challenge("g3", "ann", None),
            challenge("g2", "botty", None),
            challenge("g1", "zed", None),
        ]});
        assert_eq!(o.take(&snap), FeedSays::Snapshot);
        // The bot's own challenge is not for it.
        assert_eq!(o.len(), 2);
        o.take(&json!({"type": "added", "challenge": challenge("g4", "ann", Some("botty"))}));
        o.take(&json!({"type": "added", "challenge": challenge("g5", "ann", Some("bob"))}));
        // Shown twice (a race with the snapshot): kept once.
        o.take(&json!({"type": "added", "challenge": challenge("g4", "ann", Some("botty"))}));
        assert_eq!(o.pick().as_deref(), Some("g4"));
        o.take(&json!({"type": "removed", "game": "g1", "reason": "joined"}));
        assert_eq!(o.pick().as_deref(), Some("g3"));
        assert_eq!(o.pick(), None);
        assert!(o.is_empty());
    }

    #[test]
    fn a_new_snapshot_replaces_what_the_bot_knew_and_lagged_asks_to_reconnect() {
        let mut o = Offers::new("botty");
        o.take(&json!({"type": "added", "challenge": challenge("old", "ann", None)}));
        let lagged = json!({"type": "error", "code": "lagged", "message": "fell 9 behind"});
        assert_eq!(o.take(&lagged), FeedSays::Reconnect("fell 9 behind".into()));
        // Another error (the feed takes no commands) is no reason to reconnect.
        let other = json!({"type": "error", "code": "unknown_command", "message": "no"});
        assert_eq!(o.take(&other), FeedSays::Noted);
        let snap = json!({"type": "lobby", "protocol": 1, "you": null,
                          "challenges": [challenge("new", "zed", None)]});
        assert_eq!(o.take(&snap), FeedSays::Snapshot);
        assert_eq!(o.pick().as_deref(), Some("new"));
        assert_eq!(o.pick(), None);
    }
}
