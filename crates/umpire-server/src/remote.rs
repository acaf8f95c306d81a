//! A built-in agent playing a server game over the WebSocket as a remote player: the code of
//! `umpire bot` and `umpire loadtest`. The agent is fed only the observations in its frames.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use umpire_ai::AgentSpec;
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::parse_color;
use umpire_rules::{Announcement, Command, RuleSetId};
use umpire_view::PlayerView;

use crate::client::{Client, GameSocket};
use crate::house_agent::HouseAgent;
use crate::pacer::Pacer;

/// What a remote player measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayStats {
    /// Commands sent.
    pub sent: u64,
    /// Commands answered by the server.
    pub acknowledged: u64,
    /// Frames or answers that were errors.
    pub errors: u64,
    /// Microseconds from sending each command to its answer.
    pub latencies_us: Vec<u64>,
    /// Commands still waiting for their answer when play stopped at the deadline.
    pub in_flight: u64,
    /// Paced play: microseconds each command went out after its slot (the load generator's
    /// own lateness: a busy client sends late, which its latencies would not show).
    pub send_lag_us: Vec<u64>,
}

/// How a remote game ended for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The colour played.
    pub side: Color,
    /// The result frame (`{"score","reason"}`), null if stopped before the end.
    pub result: Value,
}

/// Plays game `game` with the agent `agent` (built-in or `cmd:PROGRAM`) through `client` until the game ends or
/// `deadline` passes. Waits for an opponent if the game is open.
pub async fn play(
    client: &Client,
    game: &str,
    agent: &AgentSpec,
    seed: u64,
    deadline: Option<Instant>,
    stats: &mut PlayStats,
) -> Result<Ended, String> {
    let socket = client.socket(game).await?;
    play_on(socket, agent, seed, deadline, None, stats).await
}

/// [`play`] on a game socket already open (its `state` frame not yet read), sending each
/// command no earlier than the next slot of `pacer` (shared with the opponent's player in a load
/// test), if given.
pub async fn play_on(
    socket: GameSocket,
    agent: &AgentSpec,
    seed: u64,
    deadline: Option<Instant>,
    pacer: Option<&Pacer>,
    stats: &mut PlayStats,
) -> Result<Ended, String> {
    Seat::take(socket, agent, seed)
        .await?
        .play(deadline, pacer, stats)
        .await
}

/// A player seated at a server game: its socket, its agent fed with the game so far (the
/// `state` frame read), and the game's status as the player last heard it. Taking the seat
/// ([`Seat::take`]) and playing ([`Seat::play`]) are apart so that a load test can seat all its
/// players before its clock starts.
pub struct Seat {
    socket: GameSocket,
    side: Color,
    agent: HouseAgent,
    status: String,
    to_move: String,
    result: Value,
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seat")
            .field("side", &self.side)
            .field("agent", &self.agent)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl Seat {
    /// Reads the `state` frame of `socket` (its first) and seats a new agent of `agent`,
    /// seeded, fed with the opening and the transcript so far.
    pub async fn take(
        mut socket: GameSocket,
        agent: &AgentSpec,
        seed: u64,
    ) -> Result<Seat, String> {
        let state = socket.until("state", Duration::from_secs(30)).await?;
        let side = parse_color(state["you"].as_str().unwrap_or_default())
            .ok_or("this client does not play in the game")?;
        let rules: RuleSetId = state["rules"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .map_err(|e| format!("{e}"))?;
        let rules = *rules.rules();
        let mut view = PlayerView::standard(rules, side);
        let mut opening = Vec::new();
        for a in state["opening"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            opening.push(crate::decode::announcement(a)?);
        }
        view.hear_opening(opening.iter().copied());
        let mut agent = HouseAgent::from_spec(agent, view, seed);
        agent.hear_opening(&opening);
        for o in state["transcript"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if !agent.observe(&crate::decode::observation(side, o)?) {
                return Err("the transcript does not fit the agent's view".to_owned());
            }
        }
        let status = state["status"].as_str().unwrap_or_default().to_owned();
        let to_move = state["to_move"].as_str().unwrap_or_default().to_owned();
        let result = state["result"].clone();
        Ok(Seat {
            socket,
            side,
            agent,
            status,
            to_move,
            result,
        })
    }

    /// Plays until the game ends or `deadline` passes, sending each command no earlier than
    /// the next slot of `pacer`, if given.
    pub async fn play(
        self,
        deadline: Option<Instant>,
        pacer: Option<&Pacer>,
        stats: &mut PlayStats,
    ) -> Result<Ended, String> {
        let Seat {
            mut socket,
            side,
            mut agent,
            mut status,
            mut to_move,
            mut result,
        } = self;
        let me = umpire_rules::wire::color_name(side);
        let mut pending: Option<(u64, Instant)> = None;
        let mut draw_offered_to_me = false;
        let mut next_id = 1u64;
        let mut last_frame = Value::Null;
        loop {
            if !result.is_null() || status == "over" {
                return Ok(Ended { side, result });
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stats.in_flight += u64::from(pending.is_some());
                return Ok(Ended {
                    side,
                    result: Value::Null,
                });
            }
            if pending.is_none() && status == "live" && (to_move == me || draw_offered_to_me) {
                if let Some(pacer) = pacer {
                    let slot = pacer.take(Instant::now());
                    if deadline.is_some_and(|d| slot >= d) {
                        return Ok(Ended {
                            side,
                            result: Value::Null,
                        });
                    }
                    tokio::time::sleep_until(slot.into()).await;
                    stats
                        .send_lag_us
                        .push(slot.elapsed().as_micros().try_into().unwrap_or(u64::MAX));
                }
                let command = if draw_offered_to_me {
                    draw_offered_to_me = false;
                    agent.answer_draw()
                } else {
                    agent.choose()
                };
                let frame = match command {
                    Command::Attempt(a) => json!({"type":"attempt","move":a.to_string()}),
                    Command::AskAny => json!({"type":"any"}),
                    Command::OfferDraw => json!({"type":"draw","action":"offer"}),
                    Command::AcceptDraw => json!({"type":"draw","action":"accept"}),
                    Command::DeclineDraw => json!({"type":"draw","action":"decline"}),
                    // An agent never declares an end off the board; if one did, it gives up.
                    Command::Resign | Command::FlagFall | Command::Abandon | Command::Abort => {
                        json!({"type":"resign"})
                    }
                };
                let mut frame = frame;
                frame["id"] = next_id.into();
                pending = Some((next_id, Instant::now()));
                next_id += 1;
                stats.sent += 1;
                socket.send(&frame).await?;
                last_frame = frame;
            }
            let wait = deadline.map_or(Duration::from_secs(3600), |d| {
                d.saturating_duration_since(Instant::now()) + Duration::from_millis(1)
            });
            let v = match tokio::time::timeout(wait, socket.next()).await {
                Ok(v) => v?,
                Err(_) => continue,
            };
            if v["code"] == "rate_limited" {
                // Dropped by the server's rate limit: send the same frame again a little later.
                tokio::time::sleep(Duration::from_millis(20)).await;
                socket.send(&last_frame).await?;
                continue;
            }
            if let Some((id, at)) = pending
                && v["reply_to"].as_u64() == Some(id)
            {
                stats.acknowledged += 1;
                stats.latencies_us.push(at.elapsed().as_micros() as u64);
                pending = None;
            }
            match v["type"].as_str().unwrap_or_default() {
                "update" | "state" => {
                    if v["type"] == "update" {
                        let obs = crate::decode::observation(side, &v["observation"])?;
                        draw_offered_to_me |= obs.actor != side
                            && obs
                                .announcements
                                .iter()
                                .any(|a| matches!(a, Announcement::DrawOffered(c) if *c != side));
                        if !agent.observe(&obs) {
                            return Err("an observation does not fit the agent's view".to_owned());
                        }
                    }
                    status = v["status"].as_str().unwrap_or_default().to_owned();
                    to_move = v["to_move"].as_str().unwrap_or_default().to_owned();
                    result = v["result"].clone();
                }
                "game_over" => result = v["result"].clone(),
                "error" => {
                    stats.errors += 1;
                    if v["code"] == "game_over" {
                        return Ok(Ended {
                            side,
                            result: v["result"].clone(),
                        });
                    }
                    return Err(format!("server refused: {v}"));
                }
                _ => {}
            }
        }
    }
}
