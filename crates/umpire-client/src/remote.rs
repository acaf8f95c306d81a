//! A built-in agent playing a server game over the WebSocket as a remote player: the code of
//! `umpire bot` and `umpire loadtest`. The agent is fed only the observations in its frames.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;
use umpire_ai::{Agent, AgentConfig, AgentSpec};
use umpire_protocol::client_message::ClientFrame;
use umpire_protocol::decode;
use umpire_protocol::ending::Ending;
use umpire_protocol::game::GameFrame;
use umpire_protocol::game::state::{PlayerState, StateFrame};
use umpire_protocol::game::update::UpdateFrame;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, Command, Observation, RuleSetId};
use umpire_view::PlayerView;

use crate::client::{Client, GameSocket};
use crate::command_frame::command_frame;
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

/// The first pause before opening a dropped game socket again; it doubles up to
/// [`LAST_RECONNECT`].
pub const FIRST_RECONNECT: Duration = Duration::from_millis(250);

/// The longest pause between two tries to open a dropped game socket again.
pub const LAST_RECONNECT: Duration = Duration::from_secs(8);

/// How many times in a row [`play`] tries to open a dropped game socket before it gives up
/// (about 70 s of pauses: less than the server's default abandonment timeout of 120 s).
pub const RECONNECT_TRIES: u32 = 12;

/// Plays game `game` with the agent `agent` (built-in or `cmd:PROGRAM`) through `client` until the game ends or
/// `deadline` passes. Waits for an opponent if the game is open.
///
/// When the game socket drops (the server restarts, a proxy or the network cuts it) it opens
/// the socket again, pausing [`FIRST_RECONNECT`], then twice as long each time up to
/// [`LAST_RECONNECT`], at most [`RECONNECT_TRIES`] times in a row, and resumes exactly: the
/// agent hears the observations of the new `state` frame's transcript it had not heard yet
/// (the server's transcript is every observation of the player, so nothing is heard twice or
/// missed), and a command whose answer was lost is sent again only if the transcript shows
/// that the server never judged it.
pub async fn play(
    client: &Client,
    game: &str,
    agent: &AgentSpec,
    seed: u64,
    deadline: Option<Instant>,
    stats: &mut PlayStats,
) -> Result<Ended, String> {
    let socket = client.socket(game).await?;
    let Seated { socket, seat } = Seated::take(socket, agent, seed).await?;
    run_seated(socket, seat, Some((client, game)), deadline, None, stats).await
}

/// [`play`] on a game socket already open (its `state` frame not yet read), sending each
/// command no earlier than the next slot of `pacer` (shared with the opponent's player in a load
/// test), if given. A dropped socket ends play with an error (a load test counts it).
pub async fn play_on(
    socket: GameSocket,
    agent: &AgentSpec,
    seed: u64,
    deadline: Option<Instant>,
    pacer: Option<&Pacer>,
    stats: &mut PlayStats,
) -> Result<Ended, String> {
    Seated::take(socket, agent, seed)
        .await?
        .play(deadline, pacer, stats)
        .await
}

/// The player's side of a game as its frames told it: the agent, fed every observation of
/// the transcript so far, and where the game stands.
struct Seat {
    side: Color,
    agent: Box<dyn Agent>,
    /// How many observations of the transcript the agent has heard.
    heard: usize,
    status: String,
    to_move: Color,
    result: Option<Ending>,
    draw_offered_to_me: bool,
}

/// A player's `state` frame read from `v`; an error in words for anything else.
fn player_state(v: &Value) -> Result<PlayerState, String> {
    match GameFrame::deserialize(v).map_err(|e| format!("state frame: {e}"))? {
        GameFrame::State(state) => match *state {
            StateFrame::Player(p) => Ok(p),
            StateFrame::Spectator(_) => Err("this client does not play in the game".to_owned()),
        },
        _ => Err(format!("not a state frame: {v}")),
    }
}

impl Seat {
    /// The seat of the first `state` frame: a new agent that hears the opening and the
    /// transcript.
    fn new(state: &Value, spec: &AgentSpec, seed: u64) -> Result<Seat, String> {
        let state = player_state(state)?;
        let side: Color = state.you.into();
        let rules: RuleSetId = state.header.rules.parse().map_err(|e| format!("{e}"))?;
        let rules = *rules.rules();
        let mut view = PlayerView::standard(rules, side);
        let opening = decode::heard_announcements(&state.opening)?;
        view.hear_opening(opening.iter().copied());
        // The filters the server offers its players: the agent plays over the same options.
        let mut agent = spec.build(
            view,
            seed,
            &AgentConfig::with_filters(umpire_protocol::OFFERED_FILTERS),
        );
        agent.hear_opening(&opening);
        let mut seat = Seat {
            side,
            agent,
            heard: 0,
            status: String::new(),
            to_move: Color::White,
            result: None,
            draw_offered_to_me: false,
        };
        seat.resume(&state)?;
        Ok(seat)
    }

    /// Takes a `state` frame (the first, a resent one, or the first after a reconnection):
    /// the agent hears the observations of the transcript it has not heard yet. Returns
    /// whether any of them was the player's own command.
    fn resume(&mut self, state: &PlayerState) -> Result<bool, String> {
        if Color::from(state.you) != self.side {
            return Err("the state frame is not for this player's seat".to_owned());
        }
        let transcript = &state.transcript;
        let Some(new) = unheard(transcript.len(), state.transcript_from, self.heard)
            .and_then(|r| transcript.get(r))
        else {
            return Err(format!(
                "the server's transcript has observations {} to {}, not following the {} already \
                 heard",
                state.transcript_from,
                state.transcript_from as usize + transcript.len(),
                self.heard
            ));
        };
        let mut own = false;
        for o in new {
            let obs = decode::typed_observation(self.side, o)?;
            own |= obs.actor == self.side;
            self.hear(&obs)?;
        }
        self.take_position(&state.status, state.to_move.into(), &state.result);
        Ok(own)
    }

    /// The agent hears one observation (of an `update`, or of a transcript).
    fn hear(&mut self, obs: &Observation) -> Result<(), String> {
        if obs.actor == self.side {
            // The player's own command answered any offer that was pending.
            self.draw_offered_to_me = false;
        } else if obs
            .announcements
            .iter()
            .any(|a| matches!(a, Announcement::DrawOffered(c) if *c != self.side))
        {
            self.draw_offered_to_me = true;
        }
        if self.agent.observe(obs).is_err() {
            return Err("an observation does not fit the agent's view".to_owned());
        }
        self.heard += 1;
        Ok(())
    }

    /// Status, side to move and result of a `state` or `update` frame.
    fn take_position(&mut self, status: &str, to_move: Color, result: &Option<Ending>) {
        status.clone_into(&mut self.status);
        self.to_move = to_move;
        self.result.clone_from(result);
    }

    /// Whether the player has a command to give now.
    fn to_act(&self) -> bool {
        self.status == "live" && (self.to_move == self.side || self.draw_offered_to_me)
    }

    /// The player's next command as a frame with `id`, and whether it answers a draw offer.
    fn command(&mut self, id: u64) -> (ClientFrame, bool) {
        let answers_draw = self.draw_offered_to_me;
        let command = if answers_draw {
            self.draw_offered_to_me = false;
            if self.agent.accepts_draw() {
                Command::AcceptDraw
            } else {
                Command::DeclineDraw
            }
        } else {
            self.agent.choose()
        };
        // An agent never declares an end off the board; if one did, it gives up.
        let id = Some(id);
        let frame = command_frame(command, id).unwrap_or(ClientFrame::Resign { id });
        (frame, answers_draw)
    }

    fn ended(&self) -> Ended {
        Ended {
            side: self.side,
            result: result_json(&self.result),
        }
    }
}

/// A result as [`Ended`] holds it: the `{"score","reason"}` of the frames, or null.
fn result_json(result: &Option<Ending>) -> Value {
    result
        .as_ref()
        .and_then(|r| serde_json::to_value(r).ok())
        .unwrap_or(Value::Null)
}

/// A command sent and not yet answered.
struct Pending {
    id: u64,
    at: Instant,
    frame: ClientFrame,
    answers_draw: bool,
}

/// Opens game `game`'s socket again after it dropped, with growing pauses; the `state`
/// frame of the new socket comes with it. Gives up after [`RECONNECT_TRIES`] tries or at
/// `deadline`.
async fn reopen(
    client: &Client,
    game: &str,
    from: u32,
    deadline: Option<Instant>,
    why: &str,
) -> Result<(GameSocket, Value), String> {
    let mut pause = FIRST_RECONNECT;
    let mut last = why.to_owned();
    for _ in 0..RECONNECT_TRIES {
        if deadline.is_some_and(|d| Instant::now() + pause >= d) {
            break;
        }
        tracing::info!("game {game}: socket lost ({last}); opening it again in {pause:?}");
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(LAST_RECONNECT);
        match client.socket_from(game, from).await {
            Ok(mut socket) => match socket.until("state", Duration::from_secs(30)).await {
                Ok(state) => return Ok((socket, state)),
                Err(e) => last = e,
            },
            Err(e) => last = e,
        }
    }
    Err(format!(
        "game {game}: the socket dropped and could not be opened again: {last}"
    ))
}

/// A player seated at a server game over an open socket: its `state` frame read and its agent
/// built and fed the game so far. Seating and playing ([`Seated::play`]) are apart so that a load
/// test can seat all its players before its clock starts (otherwise the set-up work of thousands
/// of players would delay their first commands, and count as latency).
pub struct Seated {
    socket: GameSocket,
    seat: Seat,
}

impl std::fmt::Debug for Seated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seated")
            .field("side", &self.seat.side)
            .finish_non_exhaustive()
    }
}

impl Seated {
    /// Reads the `state` frame of `socket` (its first) and seats a new agent of `agent`,
    /// seeded.
    pub async fn take(
        mut socket: GameSocket,
        agent: &AgentSpec,
        seed: u64,
    ) -> Result<Seated, String> {
        let state = socket.until("state", Duration::from_secs(30)).await?;
        let seat = Seat::new(&state, agent, seed)?;
        Ok(Seated { socket, seat })
    }

    /// Plays as [`play_on`] does (a dropped socket ends play with an error).
    pub async fn play(
        self,
        deadline: Option<Instant>,
        pacer: Option<&Pacer>,
        stats: &mut PlayStats,
    ) -> Result<Ended, String> {
        run_seated(self.socket, self.seat, None, deadline, pacer, stats).await
    }
}

/// Which observations of a `state` frame's transcript are new to a player that has heard
/// `heard` of them, when the transcript holds `len` observations from number `from` on (a
/// resumed socket's `?from=N`): `None` when the transcript starts after what was heard (a gap).
fn unheard(len: usize, from: u32, heard: usize) -> Option<std::ops::Range<usize>> {
    let skip = heard.checked_sub(from as usize)?;
    Some(skip.min(len)..len)
}

/// The loop of [`play`] and [`play_on`] from a seated player: reconnects through `resume`
/// (the client and the game id) when given.
async fn run_seated(
    mut socket: GameSocket,
    mut seat: Seat,
    resume: Option<(&Client, &str)>,
    deadline: Option<Instant>,
    pacer: Option<&Pacer>,
    stats: &mut PlayStats,
) -> Result<Ended, String> {
    let mut pending: Option<Pending> = None;
    let mut next_id = 1u64;
    loop {
        if seat.result.is_some() || seat.status == "over" {
            return Ok(seat.ended());
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stats.in_flight += u64::from(pending.is_some());
            return Ok(Ended {
                side: seat.side,
                result: Value::Null,
            });
        }
        let mut dropped = None;
        if pending.is_none() && seat.to_act() {
            if let Some(pacer) = pacer {
                let slot = pacer.take(Instant::now());
                if deadline.is_some_and(|d| slot >= d) {
                    return Ok(Ended {
                        side: seat.side,
                        result: Value::Null,
                    });
                }
                tokio::time::sleep_until(slot.into()).await;
                stats
                    .send_lag_us
                    .push(slot.elapsed().as_micros().try_into().unwrap_or(u64::MAX));
            }
            let (frame, answers_draw) = seat.command(next_id);
            stats.sent += 1;
            if let Err(e) = socket.send_text(&frame.to_text()).await {
                dropped = Some(e);
            }
            pending = Some(Pending {
                id: next_id,
                at: Instant::now(),
                frame,
                answers_draw,
            });
            next_id += 1;
        }
        let v = match dropped {
            Some(e) => Err(e),
            None => {
                let wait = deadline.map_or(Duration::from_secs(3600), |d| {
                    d.saturating_duration_since(Instant::now()) + Duration::from_millis(1)
                });
                match tokio::time::timeout(wait, socket.next()).await {
                    Ok(v) => v,
                    Err(_) => continue,
                }
            }
        };
        let v = match (v, resume) {
            (Ok(v), _) => v,
            (Err(e), None) => return Err(e),
            (Err(e), Some((client, game))) => {
                // Resumed from what the seat has heard: the server sends only what follows.
                let held = u32::try_from(seat.heard).unwrap_or(u32::MAX);
                let (fresh, state) = reopen(client, game, held, deadline, &e).await?;
                socket = fresh;
                let own = seat.resume(&player_state(&state)?)?;
                if let Some(p) = pending.take()
                    && !own
                {
                    // The server never judged the command: a command is given again (the
                    // agent chooses anew from what it knows, which has not changed), and a
                    // lost answer to a draw offer is owed still.
                    seat.draw_offered_to_me |= p.answers_draw;
                }
                continue;
            }
        };
        let frame = match GameFrame::deserialize(&v) {
            Ok(frame) => frame,
            // A kind of frame added within the protocol's version, unknown here: passed over.
            Err(_)
                if !matches!(
                    v["type"].as_str(),
                    Some("update" | "state" | "game_over" | "error")
                ) =>
            {
                continue;
            }
            Err(e) => return Err(format!("unreadable frame ({e}): {v}")),
        };
        if matches!(&frame, GameFrame::Error(e) if e.code == "rate_limited") {
            // Dropped by the server's rate limit: send the same frame again a little later.
            tokio::time::sleep(Duration::from_millis(20)).await;
            if let Some(p) = &pending
                && let Err(e) = socket.send_text(&p.frame.to_text()).await
                && resume.is_none()
            {
                return Err(e);
            }
            continue;
        }
        if let Some(p) = &pending
            && frame.reply_to() == Some(p.id)
        {
            stats.acknowledged += 1;
            stats
                .latencies_us
                .push(p.at.elapsed().as_micros().try_into().unwrap_or(u64::MAX));
            pending = None;
        }
        match frame {
            GameFrame::Update(UpdateFrame::Player(u)) => {
                let obs = decode::typed_observation(seat.side, &u.observation)?;
                seat.hear(&obs)?;
                seat.take_position(&u.status, u.to_move.into(), &u.result);
            }
            GameFrame::Update(UpdateFrame::Spectator(_)) => {
                return Err("a spectator's update came to a player's socket".to_owned());
            }
            GameFrame::State(state) => match *state {
                StateFrame::Player(p) => {
                    seat.resume(&p)?;
                }
                StateFrame::Spectator(_) => {
                    return Err("the state frame is not for this player's seat".to_owned());
                }
            },
            GameFrame::GameOver(g) => seat.result = g.result,
            GameFrame::Error(e) => {
                stats.errors += 1;
                if e.code == "game_over" {
                    return Ok(Ended {
                        side: seat.side,
                        result: Value::Null,
                    });
                }
                return Err(format!("server refused: {v}"));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::SinkExt;
    use tokio::net::TcpListener;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};

    #[test]
    fn a_resumed_transcript_is_read_from_where_it_starts() {
        // The whole transcript (from 0): what follows the 3 heard.
        assert_eq!(unheard(5, 0, 3), Some(3..5));
        // Resumed at 3 having heard 3: all of it is new.
        assert_eq!(unheard(2, 3, 3), Some(0..2));
        // Resumed at 2 having heard 3 (the server sent one more than asked): skip one.
        assert_eq!(unheard(4, 2, 3), Some(1..4));
        // Nothing new.
        assert_eq!(unheard(0, 3, 3), Some(0..0));
        // Shorter than what was heard: nothing new, never out of bounds.
        assert_eq!(unheard(1, 0, 3), Some(1..1));
        // A gap: the transcript starts after what was heard.
        assert_eq!(unheard(2, 5, 3), None);
    }

    #[tokio::test]
    #[expect(
        clippy::result_large_err,
        reason = "the handshake callback's error type is tungstenite's, not ours"
    )]
    async fn a_dropped_socket_is_opened_again_from_the_observations_held() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let mut path = String::new();
            let mut ws =
                tokio_tungstenite::accept_hdr_async(stream, |req: &Request, res: Response| {
                    path = req.uri().to_string();
                    Ok(res)
                })
                .await
                .unwrap();
            ws.send(Message::Text(r#"{"type":"state","you":"white"}"#.into()))
                .await
                .unwrap();
            path
        });
        let client = Client::new(&format!("http://{addr}")).unwrap();
        let (_socket, state) = reopen(&client, "g1", 7, None, "dropped").await.unwrap();
        assert_eq!(state["type"], "state");
        assert_eq!(server.await.unwrap(), "/api/games/g1/ws?from=7");
    }
}
