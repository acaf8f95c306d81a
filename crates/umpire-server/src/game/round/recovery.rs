//! Recovery: a game's task is built from storage ([`Round::load`], on start and on the first
//! request for a game not in memory), and rebuilt from it when a write fails (`reload`):
//! what storage does not hold did not happen.

use std::future::Future;
use std::pin::Pin;

use umpire_rules::shakmaty::Color;
use umpire_rules::wire::parse_color;

use super::rebuild::{fresh_view, replay, rules_of};
use super::{ABANDON_AFTER, CHALLENGE_EXPIRY, Round, index};
use crate::game::clock::{Clocks, TimeControl};
use crate::game::house_agent::HouseAgent;
use crate::game::strength::HouseSpec;
use crate::store::{GameRow, Store};

/// The seed of the house agent on `side` of a game: the seat's seed under the game's key, a
/// keyed one-way derivation ([`umpire_ai::tournament::RunKey`], HMAC-SHA-256) from the game's
/// 63 random bits (`agent_seed`, drawn from the operating system and kept only in storage).
/// It is the same at every load of the game, whatever was played before (the count of
/// commands, which holds the opponent's silent attempts, no longer enters it), and says
/// nothing of the other seat's.
pub fn house_seed(row: &GameRow, side: Color) -> u64 {
    umpire_ai::tournament::RunKey::from_seed(row.agent_seed as u64).seat_seed(0, side)
}

impl Round {
    /// Loads a game and its commands and chat from storage and rebuilds it. Time while the
    /// server was down is not charged: the mover's clock restarts now.
    pub async fn load(store: Store, row: GameRow, names: [String; 2]) -> Result<Round, String> {
        let commands = store.commands(&row.id).await.map_err(|e| e.to_string())?;
        let chat = store.chat(&row.id).await.map_err(|e| e.to_string())?;
        let r = replay(&row, &commands)?;
        let rules = rules_of(&row)?;
        let tc = TimeControl {
            initial_ms: row.initial_ms,
            increment_ms: row.increment_ms,
        };
        let now = store.time().now();
        let mut clocks = Clocks::new(tc, now);
        for side in [Color::White, Color::Black] {
            clocks.set(side, r.clock_ms[index(side)]);
        }
        let mut agents: [Option<HouseAgent>; 2] = [None, None];
        for side in [Color::White, Color::Black] {
            // A finished game's agents never act again: none is built (nor replayed).
            if let Some(name) = row.agents[index(side)]
                .as_ref()
                .filter(|_| row.status != "over")
            {
                let spec = HouseSpec::parse(name).map_err(|e| format!("game {}: {e}", row.id))?;
                // A fresh agent hears the whole transcript of its player and decides again
                // where it decided (exact replay; off the async threads: searching costs).
                let seed = house_seed(&row, side);
                let view = fresh_view(rules, &r.game, side);
                let transcript = r.views[index(side)].transcript().to_vec();
                let agent = tokio::task::spawn_blocking(move || {
                    HouseAgent::caught_up(spec, view, seed, &transcript)
                })
                .await
                .map_err(|e| format!("game {}: rebuilding its house agent: {e}", row.id))?;
                agents[index(side)] = Some(agent);
            }
        }
        let mut round = Round {
            rules,
            names,
            game: r.game,
            views: r.views,
            spectators: r.spectators,
            clocks,
            seq: commands.len() as i64,
            chat: chat
                .into_iter()
                .filter_map(|c| Some((parse_color(&c.side)?, super::chat::clean_stored(c.text))))
                .collect(),
            chat_buckets: Default::default(),
            ratings: [None, None],
            agents,
            subs: Vec::new(),
            store,
            connected: std::collections::HashMap::new(),
            gone_since: [
                row.users[0].as_ref().map(|_| now),
                row.users[1].as_ref().map(|_| now),
            ],
            told_presence: None,
            creator_left: None,
            abandon_after: ABANDON_AFTER,
            idle_unload: super::idle::IDLE_UNLOAD,
            challenge_expiry: CHALLENGE_EXPIRY,
            creator_gone: super::CREATOR_GONE,
            lobby: None,
            deposed: false,
            row,
        };
        if round.row.status == "live" && !round.is_over() {
            round.clocks.start(round.game.umpire().turn(), now);
        }
        round.load_ratings().await;
        Ok(round)
    }

    /// Rebuilds the game from storage after a failed write, keeping the connections. Boxed:
    /// it holds a second whole game while that loads, and unboxed that room would be reserved
    /// in the future of every game's task (twice the size of a game, for a path taken only
    /// when storage fails).
    pub(super) fn reload(&mut self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let row = match self.store.game(&self.row.id).await {
                Ok(Some(row)) => row,
                _ => return,
            };
            match Round::load(self.store.clone(), row, self.names.clone()).await {
                Ok(mut fresh) => {
                    fresh.subs = std::mem::take(&mut self.subs);
                    fresh.connected = std::mem::take(&mut self.connected);
                    fresh.gone_since = self.gone_since;
                    fresh.creator_left = self.creator_left;
                    fresh.abandon_after = self.abandon_after;
                    fresh.challenge_expiry = self.challenge_expiry;
                    fresh.creator_gone = self.creator_gone;
                    fresh.lobby = self.lobby.take();
                    *self = fresh;
                    let now = self.store.time().now();
                    for s in &self.subs {
                        let _ = s.tx.send(self.state_frame(s.seat, now));
                    }
                    // Those `state` frames carry the presence: it is told.
                    self.presence_told();
                }
                Err(e) => tracing::error!("game {}: cannot reload: {e}", self.row.id),
            }
        })
    }
}
