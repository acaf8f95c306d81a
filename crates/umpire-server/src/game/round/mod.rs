//! [`Round`]: one live game as an actor. One tokio task per game owns the umpire, the clocks,
//! both players' views and the connections, judges every command in arrival order, commits
//! it to storage before anyone hears of it, and pushes each connection its own projection.
//!
//! This file is the actor: its state, its messages ([`RoundMsg`]) and its task ([`Round::run`]),
//! which hands each message to the file that does that thing:
//!
//! - `commands.rs`: a player's action judged, committed, then broadcast (draw offers and
//!   their answers, resignation and moves are all umpire commands);
//! - `frames.rs`: the frames each connection hears;
//! - `chat.rs`: the players' chat;
//! - `connections.rs`: players and spectators coming and going, and frames for the players
//!   alone (a rematch offer);
//! - `open_game.rs`: the game as a challenge: joined, withdrawn, expired;
//! - `timers.rs`: flag falls and abandonment;
//! - `finishing.rs`: an end the server declares, stored and told;
//! - `ratings.rs`: the seats' ratings in a rated game's frames;
//! - `agents.rs`: the house agents' turns;
//! - `recovery.rs`: loading from storage and reloading after a failed write;
//! - `rebuild.rs`: replaying the stored commands (event sourcing).

mod agents;
pub mod chat;
mod commands;
mod connections;
mod deposition;
mod finishing;
mod frames;
mod idle;
mod open_game;
mod presence;
mod ratings;
mod rebuild;
mod recovery;
mod timers;

use tokio::time::Instant;

use tokio::sync::{mpsc, oneshot};
use umpire_protocol::client_message::Action;
use umpire_rules::RuleSet;
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_view::PlayerView;

pub use idle::IDLE_UNLOAD;
pub use rebuild::{Replayed, replay, rules_of};
pub use recovery::house_seed;

use crate::error::ApiError;
use crate::game::clock::Clocks;
use crate::game::house_agent::HouseAgent;
use crate::game::projection::SpectatorObservation;
use crate::lobby::feed::{Lobby, Removal, withdrawn_frame};
use crate::ratings::shown_rating::ShownRating;
use crate::store::{GameRow, Store, UserRow};

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// One of the players.
    Player(Color),
    /// Anyone else.
    Spectator,
}

/// A new connection's id, unique in this server process (for [`RoundMsg::Subscribe`] and
/// [`RoundMsg::Leave`]).
pub fn next_connection() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A message to a game's task.
#[derive(Debug)]
pub enum RoundMsg {
    /// A player's action; the answer is an optional frame for that connection alone
    /// (RELIST, sync) or a refusal.
    Act {
        /// Who acts.
        side: Color,
        /// What.
        action: Action,
        /// The client's id for the action.
        id: Option<u64>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Option<String>, ApiError>>,
    },
    /// A new connection: it gets the `state` frame, then every update for its seat.
    Subscribe {
        /// Whose projection.
        seat: Seat,
        /// Where frames go.
        tx: crate::game::outbox::Outbox,
        /// How many observations the connection holds already (`?from=N`): the `state`
        /// frame's transcript starts there.
        from: u32,
        /// The connection's id, unique in the server ([`next_connection`]); its `Leave`
        /// names it.
        conn: u64,
    },
    /// A frame for every player connection (a rematch offer).
    Notify {
        /// The frame.
        frame: String,
    },
    /// A connection closed (whether or not its subscription was taken).
    Leave {
        /// The connection's id, as it subscribed.
        conn: u64,
    },
    /// A user takes the free seat of an open game.
    Join {
        /// Who (boxed, as in `Withdraw`: a rare message need not make every message larger).
        user: Box<UserRow>,
        /// The colour taken, or a refusal.
        reply: oneshot::Sender<Result<Color, ApiError>>,
    },
    /// The creator cancels, or the addressee declines, an open game; the game is removed and
    /// its task ends.
    Withdraw {
        /// Who asks (boxed: every slot of a game's queue is as large as the largest message).
        user: Box<UserRow>,
        /// [`Removal::Cancelled`] or [`Removal::Declined`].
        why: Removal,
        /// Done, or a refusal.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Stop after the message in hand (server shutdown).
    Stop,
}

/// The seat of a colour in per-side arrays.
pub fn index(side: Color) -> usize {
    side.fold_wb(0, 1)
}

/// One game's task state.
pub struct Round {
    row: GameRow,
    rules: RuleSet,
    names: [String; 2],
    game: Game,
    views: [PlayerView; 2],
    spectators: Vec<SpectatorObservation>,
    clocks: Clocks,
    seq: i64,
    chat: Vec<(Color, String)>,
    /// Each player's chat allowance (see `chat.rs`).
    chat_buckets: [chat::ChatBucket; 2],
    /// Each seat's rating in a rated game, as the frames show it.
    ratings: [Option<ShownRating>; 2],
    agents: [Option<HouseAgent>; 2],
    subs: Vec<connections::Subscriber>,
    store: Store,
    /// The open player connections, each by its id ([`RoundMsg::Subscribe`]'s `conn`) with
    /// its seat's index. Only a connection counted here is uncounted when it leaves, so a
    /// `Leave` of a connection that never subscribed (its client gone before the `state`
    /// could be queued) cannot make a connected player look gone.
    connected: std::collections::HashMap<u64, usize>,
    /// Since when each human seat has had no connection.
    gone_since: [Option<Instant>; 2],
    /// The presence last told to the connections (see `presence.rs`).
    told_presence: Option<presence::PresenceKey>,
    /// While the game is open: since when the creator, having opened a game socket on it, has
    /// had none (the challenge is withdrawn [`CREATOR_GONE`] later).
    creator_left: Option<Instant>,
    /// How long the side to move may stay away before it loses (or the game is aborted).
    pub(crate) abandon_after: std::time::Duration,
    /// How long an open game waits for an opponent, from its creation.
    pub(crate) challenge_expiry: std::time::Duration,
    /// How long an open game's creator may be gone before the challenge is withdrawn.
    pub(crate) creator_gone: std::time::Duration,
    /// Where joins, withdrawals and expiry of an open game are told.
    pub(crate) lobby: Option<Lobby>,
    /// How long a finished game's task stays without a connection (see `idle.rs`).
    pub(crate) idle_unload: std::time::Duration,
    /// Another node stored a command at this game's next index: this task is a stale owner
    /// (`crate::cluster`) and ends, and its sockets close (their clients reconnect).
    pub(crate) deposed: bool,
}

/// The default abandonment timeout.
pub const ABANDON_AFTER: std::time::Duration = std::time::Duration::from_secs(120);

/// How long an open game's creator may be gone (its last game socket on the game closed, none
/// opened since) before the challenge is withdrawn as `gone`. A challenge made over HTTP
/// whose creator never opened the socket waits its whole expiry.
pub const CREATOR_GONE: std::time::Duration = std::time::Duration::from_secs(30);

/// The default time an open game waits for an opponent before it expires.
pub const CHALLENGE_EXPIRY: std::time::Duration = std::time::Duration::from_secs(3600);

impl Round {
    /// Whether the umpire has declared a result.
    fn is_over(&self) -> bool {
        self.game.result().is_some()
    }

    /// `open`, `live` or `over`, as the frames say it.
    fn status(&self) -> &str {
        if self.is_over() {
            "over"
        } else {
            &self.row.status
        }
    }

    /// The score and the reason of the end, once there is one.
    fn result_pair(&self) -> Option<(String, String)> {
        self.game
            .result()
            .map(|r| (r.score().to_owned(), r.reason.as_str().to_owned()))
    }

    /// Runs the task until stopped or until every handle is dropped. The game is boxed: the
    /// task's future then holds a pointer to it, not a copy of it besides the game it works on.
    pub async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<RoundMsg>) {
        self.run_agents().await;
        // Why this open game was withdrawn, when that ended the task.
        let mut withdrawn = None;
        let mut last_message = Instant::now();
        loop {
            if self.deposed {
                break;
            }
            let deadline = if self.row.status == "live" && !self.is_over() {
                match (self.clocks.deadline(), self.abandon_deadline()) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            } else if self.row.status == "open" {
                Some(self.open_deadline().0)
            } else {
                self.unload_deadline(last_message)
            };
            let msg = match deadline {
                Some(d) => {
                    tokio::select! {
                        m = rx.recv() => m,
                        () = tokio::time::sleep_until(d) => {
                            if self.unload_deadline(last_message).is_some() {
                                // Finished and unwatched: the task ends (the hub reloads it
                                // from storage if someone comes back); watched: look again
                                // later.
                                if !self.watched() {
                                    break;
                                }
                                last_message = Instant::now();
                                continue;
                            }
                            if self.row.status == "open" {
                                let why = self.open_deadline().1;
                                if self.withdraw(why).await.is_ok() {
                                    withdrawn = Some(why);
                                    break;
                                }
                                continue;
                            }
                            self.flag_check().await;
                            self.abandon_check().await;
                            continue;
                        }
                    }
                }
                None => rx.recv().await,
            };
            last_message = Instant::now();
            match msg {
                None | Some(RoundMsg::Stop) => break,
                Some(RoundMsg::Subscribe {
                    seat,
                    tx,
                    from,
                    conn,
                }) => self.subscribe(seat, tx, from, conn),
                Some(RoundMsg::Notify { frame }) => self.notify_players(&frame),
                Some(RoundMsg::Leave { conn }) => self.leave(conn),
                Some(RoundMsg::Withdraw { user, why, reply }) => {
                    let answer = self.may_withdraw(&user, why);
                    let answer = match answer {
                        Ok(()) => self.withdraw(why).await,
                        Err(e) => Err(e),
                    };
                    let done = answer.is_ok();
                    let _ = reply.send(answer);
                    if done {
                        withdrawn = Some(why);
                        break;
                    }
                }
                Some(RoundMsg::Join { user, reply }) => {
                    let answer = self.join(*user).await;
                    let _ = reply.send(answer);
                    self.run_agents().await;
                    self.tell_presence();
                }
                Some(RoundMsg::Act {
                    side,
                    action,
                    id,
                    reply,
                }) => {
                    let began = std::time::Instant::now();
                    let answer = self.act(side, action, id).await;
                    self.store.metrics().act.record(began.elapsed());
                    let _ = reply.send(answer);
                    self.run_agents().await;
                    self.tell_presence();
                }
            }
        }
        // A socket that subscribed while the game was being withdrawn still hears why (the
        // other requests queued get no answer: their callers see the task gone).
        if let Some(why) = withdrawn {
            rx.close();
            let frame = withdrawn_frame(&self.row.id, why);
            while let Ok(msg) = rx.try_recv() {
                if let RoundMsg::Subscribe { tx, .. } = msg {
                    let _ = tx.send(frame.clone());
                }
            }
        }
    }
}
