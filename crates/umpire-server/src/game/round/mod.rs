//! [`Round`]: one live game as an actor. One tokio task per game owns the umpire, the clocks,
//! both players' views and the connections, judges every command in arrival order, commits
//! it to storage before anyone hears of it, and pushes each connection its own projection.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};
use umpire_rules::record::{Game, STANDARD_FEN};
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::{color_name, parse_color};
use umpire_rules::{Command, Outcome, RuleSet, RuleSetId, Verdict};
use umpire_view::PlayerView;

use crate::error::ApiError;
use crate::game::clock::{Clocks, TimeControl};
use crate::game::house_agent::HouseAgent;
use crate::game::projection::{self, Public, SpectatorObservation};
use crate::lobby::feed::{Lobby, LobbyEvent, Removal};
use crate::ratings::glicko::Rating;
use crate::ratings::shown_rating::ShownRating;
use crate::ratings::time_class::TimeClass;
use crate::store::{ChatRow, CommandRow, GameRow, Store, UserRow, now_ms};
use umpire_protocol::client_message::Action;

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// One of the players.
    Player(Color),
    /// Anyone else.
    Spectator,
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
        tx: mpsc::UnboundedSender<String>,
    },
    /// A frame for every player connection (a rematch offer).
    Notify {
        /// The frame.
        frame: String,
    },
    /// A connection closed.
    Leave {
        /// Whose connection it was.
        seat: Seat,
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

/// The rule set of a stored game.
pub fn rules_of(row: &GameRow) -> Result<RuleSet, String> {
    let id: RuleSetId = row
        .rules
        .parse()
        .map_err(|e| format!("game {}: {e}", row.id))?;
    Ok(*id.rules())
}

fn fresh_view(rules: RuleSet, game: &Game, side: Color) -> PlayerView {
    let mut view = if game.record().fen == STANDARD_FEN {
        PlayerView::standard(rules, side)
    } else {
        umpire_ai::setup_view(rules, game.umpire().position(), side)
    };
    view.hear_opening(game.record().opening.iter().map(|h| h.announcement));
    view
}

/// A game rebuilt from storage: the umpire with its record, the players' views, what
/// spectators heard and the clocks.
#[derive(Debug)]
pub struct Replayed {
    /// The umpire and the record.
    pub game: Game,
    /// White's and Black's views.
    pub views: [PlayerView; 2],
    /// What the spectators heard.
    pub spectators: Vec<SpectatorObservation>,
    /// Each side's clock after its last stored command.
    pub clock_ms: [i64; 2],
}

/// Rebuilds a game from its row and commands (event sourcing: the commands are the game).
pub fn replay(row: &GameRow, commands: &[CommandRow]) -> Result<Replayed, String> {
    let rules = rules_of(row)?;
    let game = Game::from_fen(rules, &row.fen).map_err(|e| format!("game {}: {e}", row.id))?;
    let views = [
        fresh_view(rules, &game, Color::White),
        fresh_view(rules, &game, Color::Black),
    ];
    let mut r = Replayed {
        game,
        views,
        spectators: Vec::new(),
        clock_ms: [row.initial_ms; 2],
    };
    for c in commands {
        let side = parse_color(&c.side)
            .ok_or_else(|| format!("game {} command {}: bad side {:?}", row.id, c.seq, c.side))?;
        // The record words: a player's commands and the ends the server declared (`flag`,
        // `abandon`, `abort`, stored with the side they concern since before the rules core
        // knew them: the same words load unchanged).
        let command = Command::parse_record_word(&c.command).ok_or_else(|| {
            format!(
                "game {} command {}: unreadable {:?}",
                row.id, c.seq, c.command
            )
        })?;
        let actor = r.game.umpire().actor(command);
        if actor != side && !by_either_side(command) {
            return Err(format!(
                "game {} command {}: stored as {}'s but it is {}'s",
                row.id,
                c.seq,
                c.side,
                color_name(actor)
            ));
        }
        let outcome = r.game.submit_as(side, command);
        if command.is_declared_end() && outcome.verdict != Verdict::Answered {
            return Err(format!(
                "game {} command {}: the umpire refuses the stored end {:?} ({})",
                row.id,
                c.seq,
                c.command,
                outcome.verdict.as_str()
            ));
        }
        take_in(&mut r.views, &mut r.spectators, None, command, &outcome);
        r.clock_ms[index(side)] = c.clock_ms;
    }
    Ok(r)
}

/// Whether `command` may come from the side not to move: a resignation, or an end the server
/// declares for a side (a flag fall, an abandonment, an abort).
fn by_either_side(command: Command) -> bool {
    command == Command::Resign || command.is_declared_end()
}

/// Gives each view, agent and the spectator log what it learns from one outcome.
fn take_in(
    views: &mut [PlayerView; 2],
    spectators: &mut Vec<SpectatorObservation>,
    mut agents: Option<&mut [Option<HouseAgent>; 2]>,
    command: Command,
    outcome: &Outcome,
) {
    for side in [Color::White, Color::Black] {
        if let Some(obs) = outcome.observation(command, side) {
            // The umpire's own observations always fit the view built from the same game.
            let _ = views[index(side)].observe(&obs);
            if let Some(agents) = agents.as_deref_mut()
                && let Some(agent) = &mut agents[index(side)]
                && !agent.observe(&obs)
            {
                tracing::warn!("a house agent could not take in its observation");
            }
        }
    }
    if let Some(s) = projection::spectator_observation(outcome) {
        spectators.push(s);
    }
}

struct Subscriber {
    seat: Seat,
    tx: mpsc::UnboundedSender<String>,
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
    /// Each seat's rating in a rated game, as the frames show it.
    ratings: [Option<ShownRating>; 2],
    agents: [Option<HouseAgent>; 2],
    subs: Vec<Subscriber>,
    store: Store,
    /// Open player connections per seat.
    connected: [u32; 2],
    /// Since when each human seat has had no connection.
    gone_since: [Option<Instant>; 2],
    /// How long the side to move may stay away before it loses (or the game is aborted).
    pub(crate) abandon_after: std::time::Duration,
    /// How long an open game waits for an opponent, from its creation.
    pub(crate) challenge_expiry: std::time::Duration,
    /// Where joins, withdrawals and expiry of an open game are told.
    pub(crate) lobby: Option<Lobby>,
}

/// The default abandonment timeout.
pub const ABANDON_AFTER: std::time::Duration = std::time::Duration::from_secs(120);

/// The default time an open game waits for an opponent before it expires.
pub const CHALLENGE_EXPIRY: std::time::Duration = std::time::Duration::from_secs(3600);

/// The longest run of house-agent commands judged in one go (a guard; games end far sooner).
const MAX_AGENT_RUN: usize = 100_000;

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
        let now = Instant::now();
        let mut clocks = Clocks::new(tc, now);
        for side in [Color::White, Color::Black] {
            clocks.set(side, r.clock_ms[index(side)]);
        }
        let mut agents: [Option<HouseAgent>; 2] = [None, None];
        for side in [Color::White, Color::Black] {
            if let Some(name) = &row.agents[index(side)] {
                let spec = crate::game::strength::HouseSpec::parse(name)
                    .map_err(|e| format!("game {}: {e}", row.id))?;
                // A fresh agent is told the whole transcript of its player.
                let seed = (row.agent_seed as u64) ^ (commands.len() as u64) ^ index(side) as u64;
                let mut agent = HouseAgent::new(spec, fresh_view(rules, &r.game, side), seed);
                for obs in r.views[index(side)].transcript() {
                    agent.observe(obs);
                }
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
                .filter_map(|c| Some((parse_color(&c.side)?, c.text)))
                .collect(),
            ratings: [None, None],
            agents,
            subs: Vec::new(),
            store,
            connected: [0; 2],
            gone_since: [
                row.users[0].as_ref().map(|_| now),
                row.users[1].as_ref().map(|_| now),
            ],
            abandon_after: ABANDON_AFTER,
            challenge_expiry: CHALLENGE_EXPIRY,
            lobby: None,
            row,
        };
        if round.row.status == "live" && !round.is_over() {
            round.clocks.start(round.game.umpire().turn(), now);
        }
        round.load_ratings().await;
        Ok(round)
    }

    /// Reads each seated account's rating for the frames of a rated game: before the end, its
    /// rating now (the deviation grown over idle rating periods); after it, the rating the
    /// game's update started from and the rating after it. A storage error leaves the seat's
    /// rating out of the frames (the game goes on).
    async fn load_ratings(&mut self) {
        if !self.row.rated {
            return;
        }
        let class = TimeClass::of(self.row.initial_ms, self.row.increment_ms);
        let now = now_ms();
        for i in 0..2 {
            let Some(user) = self.row.users[i].clone() else {
                self.ratings[i] = None;
                continue;
            };
            let shown = if self.row.status == "over" {
                self.store
                    .rating_change(&self.row.id, &user)
                    .await
                    .map(|c| {
                        c.map(|(before, after, games)| ShownRating {
                            before,
                            games,
                            after: Some(after),
                        })
                    })
            } else {
                self.store
                    .seat(&user, &self.row.rules, class.as_str())
                    .await
                    .map(|seat| {
                        seat.filter(|s| s.kind != "guest").map(|s| {
                            let (before, games) =
                                s.rating.map_or((Rating::NEW, 0), |r| (r.now(now), r.games));
                            ShownRating {
                                before,
                                games,
                                after: None,
                            }
                        })
                    })
            };
            self.ratings[i] = match shown {
                Ok(shown) => shown,
                Err(e) => {
                    tracing::warn!("game {}: cannot read a rating: {e}", self.row.id);
                    None
                }
            };
        }
    }

    fn is_over(&self) -> bool {
        self.game.result().is_some()
    }

    fn status(&self) -> &str {
        if self.is_over() {
            "over"
        } else {
            &self.row.status
        }
    }

    fn result_pair(&self) -> Option<(String, String)> {
        self.game
            .result()
            .map(|r| (r.score().to_owned(), r.reason.as_str().to_owned()))
    }

    fn public<'a>(&'a self, now: Instant, result: &'a Option<(String, String)>) -> Public<'a> {
        Public {
            game: &self.row.id,
            rules: &self.rules,
            names: [&self.names[0], &self.names[1]],
            status: self.status(),
            clocks: self.clocks.reading(now),
            time_control: (self.row.initial_ms, self.row.increment_ms),
            rated: self.row.rated,
            result: result.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            ratings: &self.ratings,
        }
    }

    fn state_frame(&self, seat: Seat, now: Instant) -> String {
        let result = self.result_pair();
        let public = self.public(now, &result);
        match seat {
            Seat::Player(side) => {
                let chat: Vec<(Color, &str)> =
                    self.chat.iter().map(|(c, t)| (*c, t.as_str())).collect();
                projection::player_state(&self.views[index(side)], &public, &chat)
            }
            Seat::Spectator => projection::spectator_state(
                &public,
                self.views[0].opening(),
                &self.spectators,
                self.game.umpire().plies(),
                self.game.umpire().turn(),
            ),
        }
    }

    /// Runs the task until stopped or until every handle is dropped. The game is boxed: the
    /// task's future then holds a pointer to it, not a copy of it besides the game it works on.
    pub async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<RoundMsg>) {
        self.run_agents().await;
        // Why this open game was withdrawn, when that ended the task.
        let mut withdrawn = None;
        loop {
            let deadline = if self.row.status == "live" && !self.is_over() {
                match (self.clocks.deadline(), self.abandon_deadline()) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            } else if self.row.status == "open" {
                Some(self.expiry_deadline())
            } else {
                None
            };
            let msg = match deadline {
                Some(d) => {
                    tokio::select! {
                        m = rx.recv() => m,
                        () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                            if self.row.status == "open" {
                                if self.withdraw(Removal::Expired).await.is_ok() {
                                    withdrawn = Some(Removal::Expired);
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
            match msg {
                None | Some(RoundMsg::Stop) => break,
                Some(RoundMsg::Subscribe { seat, tx }) => {
                    let frame = self.state_frame(seat, Instant::now());
                    if tx.send(frame).is_ok() {
                        self.subs.push(Subscriber { seat, tx });
                        if let Seat::Player(c) = seat {
                            self.connected[index(c)] += 1;
                            self.gone_since[index(c)] = None;
                        }
                    }
                }
                Some(RoundMsg::Notify { frame }) => {
                    self.subs.retain(|s| {
                        !matches!(s.seat, Seat::Player(_)) && !s.tx.is_closed()
                            || s.tx.send(frame.clone()).is_ok()
                    });
                }
                Some(RoundMsg::Leave { seat }) => {
                    if let Seat::Player(c) = seat {
                        let n = &mut self.connected[index(c)];
                        *n = n.saturating_sub(1);
                        if *n == 0 {
                            self.gone_since[index(c)] = Some(Instant::now());
                        }
                    }
                }
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
                }
                Some(RoundMsg::Act {
                    side,
                    action,
                    id,
                    reply,
                }) => {
                    let began = Instant::now();
                    let answer = self.act(side, action, id).await;
                    self.store.metrics().act.record(began.elapsed());
                    let _ = reply.send(answer);
                    self.run_agents().await;
                }
            }
        }
        // A socket that subscribed while the game was being withdrawn still hears why (the
        // other requests queued get no answer: their callers see the task gone).
        if let Some(why) = withdrawn {
            rx.close();
            let frame = crate::lobby::feed::withdrawn_frame(&self.row.id, why);
            while let Ok(msg) = rx.try_recv() {
                if let RoundMsg::Subscribe { tx, .. } = msg {
                    let _ = tx.send(frame.clone());
                }
            }
        }
    }

    /// When an open game expires: its creation plus the expiry time.
    fn expiry_deadline(&self) -> Instant {
        let age_ms = (now_ms() - self.row.created_ms).max(0) as u64;
        let left = self
            .challenge_expiry
            .saturating_sub(std::time::Duration::from_millis(age_ms));
        Instant::now() + left
    }

    /// Whether `user` may withdraw this open game for the reason `why`: the creator cancels,
    /// the addressee of a direct challenge declines.
    fn may_withdraw(&self, user: &UserRow, why: Removal) -> Result<(), ApiError> {
        if self.row.status != "open" {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player: it can no longer be cancelled or declined",
            ));
        }
        let creator = self.row.users.iter().flatten().any(|u| *u == user.id);
        let addressee = self.row.opponent.as_deref() == Some(user.id.as_str());
        match why {
            Removal::Cancelled if !creator => Err(ApiError::forbidden(
                "not_your_challenge",
                "only the creator of a challenge may cancel it",
            )),
            Removal::Declined if !addressee => Err(ApiError::forbidden(
                "not_your_challenge",
                "only the player a challenge is addressed to may decline it",
            )),
            _ => Ok(()),
        }
    }

    /// Removes this open game from storage (leaving its tombstone), tells the lobby and its
    /// connections.
    async fn withdraw(&mut self, why: Removal) -> Result<(), ApiError> {
        if !self
            .store
            .withdraw_open_game(&self.row.id, why.as_str(), now_ms())
            .await?
        {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player any more",
            ));
        }
        if let Some(lobby) = &self.lobby {
            lobby.publish(LobbyEvent::Removed {
                id: self.row.id.clone(),
                reason: why,
            });
        }
        let frame = crate::lobby::feed::withdrawn_frame(&self.row.id, why);
        for s in &self.subs {
            let _ = s.tx.send(frame.clone());
        }
        Ok(())
    }

    async fn join(&mut self, user: UserRow) -> Result<Color, ApiError> {
        if self.row.status != "open" {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player",
            ));
        }
        if self
            .row
            .opponent
            .as_deref()
            .is_some_and(|to| to != user.id.as_str())
            && !self.row.users.iter().flatten().any(|u| *u == user.id)
        {
            return Err(ApiError::forbidden(
                "not_your_challenge",
                "this challenge is addressed to another player",
            ));
        }
        if self
            .row
            .users
            .iter()
            .any(|u| u.as_deref() == Some(user.id.as_str()))
        {
            return Err(ApiError::conflict(
                "own_game",
                "you already play in this game",
            ));
        }
        if self.row.rated && user.kind == "guest" {
            return Err(ApiError::guest_unrated());
        }
        let Some(free) =
            (0..2).find(|&i| self.row.users[i].is_none() && self.row.agents[i].is_none())
        else {
            return Err(ApiError::conflict("game_not_open", "no free seat"));
        };
        if !self.store.take_seat(&self.row.id, free, &user.id).await? {
            return Err(ApiError::conflict(
                "game_not_open",
                "the seat was just taken",
            ));
        }
        self.row.users[free] = Some(user.id);
        self.names[free] = user.name;
        if self.connected[free] == 0 {
            self.gone_since[free] = Some(Instant::now());
        }
        self.row.status = "live".to_owned();
        if let Some(lobby) = &self.lobby {
            lobby.publish(LobbyEvent::Removed {
                id: self.row.id.clone(),
                reason: Removal::Joined,
            });
        }
        self.load_ratings().await;
        let now = Instant::now();
        self.clocks.start(self.game.umpire().turn(), now);
        for s in &self.subs {
            let _ = s.tx.send(self.state_frame(s.seat, now));
        }
        Ok(if free == 0 {
            Color::White
        } else {
            Color::Black
        })
    }

    async fn act(
        &mut self,
        side: Color,
        action: Action,
        id: Option<u64>,
    ) -> Result<Option<String>, ApiError> {
        let command = match action {
            Action::Relist => {
                return Ok(Some(projection::relist_frame(&self.views[index(side)], id)));
            }
            Action::Sync => {
                let frame = self.state_frame(Seat::Player(side), Instant::now());
                return Ok(Some(projection::with_reply_to(frame, id)));
            }
            Action::Msg(text) => {
                self.say(side, text).await?;
                return Ok(None);
            }
            Action::Attempt(text) => {
                let parsed = self.views[index(side)].own_board().parse_command(&text);
                match parsed {
                    Ok(c @ Command::Attempt(_)) => c,
                    _ => {
                        return Err(ApiError::bad_request(
                            "bad_move",
                            format!("{text:?} is not a move (UCI such as e2e4, or SAN)"),
                        ));
                    }
                }
            }
            Action::Any => Command::AskAny,
            Action::DrawOffer => Command::OfferDraw,
            Action::DrawAccept => Command::AcceptDraw,
            Action::DrawDecline => Command::DeclineDraw,
            Action::Resign => Command::Resign,
        };
        self.command(side, command, id).await?;
        Ok(None)
    }

    async fn say(&mut self, side: Color, text: String) -> Result<(), ApiError> {
        if self.row.status == "open" {
            return Err(ApiError::conflict(
                "game_not_started",
                "nobody to talk to yet",
            ));
        }
        let line = ChatRow {
            side: color_name(side).to_owned(),
            text,
            at_ms: now_ms(),
        };
        self.store
            .append_chat(&self.row.id, self.chat.len() as i64, &line)
            .await?;
        let frame = projection::chat_frame(side, &line.text);
        self.chat.push((side, line.text));
        self.subs.retain(|s| {
            matches!(s.seat, Seat::Player(_)) && s.tx.send(frame.clone()).is_ok()
                || matches!(s.seat, Seat::Spectator) && !s.tx.is_closed()
        });
        Ok(())
    }

    /// Judges, commits, then announces one command.
    async fn command(
        &mut self,
        side: Color,
        command: Command,
        id: Option<u64>,
    ) -> Result<(), ApiError> {
        if self.row.status == "open" {
            return Err(ApiError::conflict(
                "game_not_started",
                "the game has not started: waiting for an opponent",
            ));
        }
        if self.is_over() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        let actor = self.game.umpire().actor(command);
        // Either side may resign at any time; every other command is the actor's alone (a
        // player never sends a declared end: `Action` has none).
        if actor != side && command != Command::Resign {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("it is not your turn to say {:?}", command.to_text()),
            ));
        }
        let now = Instant::now();
        if self.clocks.left(side, now) <= 0 && self.clocks.running() == Some(side) {
            self.flag_check().await;
            return Err(ApiError::conflict("game_over", "your time ran out"));
        }
        let outcome = self.game.submit_as(side, command);
        let clock_ms = if outcome.is_accepted() {
            let left = self.clocks.moved(side, now);
            if self.game.result().is_some() {
                self.clocks.stop(now);
            }
            left
        } else {
            let left = self.clocks.charge(side, now);
            if self.game.result().is_some() {
                self.clocks.stop(now);
            }
            left
        };
        let row = CommandRow {
            seq: self.seq,
            side: color_name(side).to_owned(),
            command: command.to_text(),
            clock_ms,
            at_ms: now_ms(),
        };
        let over = self.result_pair();
        let storing = Instant::now();
        let stored = self
            .store
            .append_command(
                &self.row.id,
                &row,
                over.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            )
            .await;
        self.store.metrics().store.record(storing.elapsed());
        if let Err(e) = stored {
            // The command is not stored, so it did not happen: go back to what storage holds.
            self.reload().await;
            return Err(ApiError::storage(e));
        }
        self.seq += 1;
        if over.is_some() {
            self.row.status = "over".to_owned();
            self.load_ratings().await;
        }
        take_in(
            &mut self.views,
            &mut self.spectators,
            Some(&mut self.agents),
            command,
            &outcome,
        );
        self.broadcast(command, &outcome, side, id, now);
        Ok(())
    }

    fn broadcast(
        &mut self,
        command: Command,
        outcome: &Outcome,
        actor: Color,
        id: Option<u64>,
        now: Instant,
    ) {
        if self.subs.is_empty() {
            return;
        }
        let result = self.result_pair();
        let public = self.public(now, &result);
        let mut frames: [Option<String>; 3] = [None, None, None];
        for side in [Color::White, Color::Black] {
            if let Some(obs) = outcome.observation(command, side) {
                let reply_to = if side == actor { id } else { None };
                frames[index(side)] = Some(projection::player_update(
                    &self.views[index(side)],
                    &obs,
                    &public,
                    reply_to,
                ));
            }
        }
        if let Some(s) = self
            .spectators
            .last()
            .filter(|_| projection::spectator_observation(outcome).is_some())
        {
            frames[2] = Some(projection::spectator_update(
                &public,
                s,
                self.game.umpire().plies(),
                self.game.umpire().turn(),
            ));
        }
        self.subs.retain(|s| {
            let slot = match s.seat {
                Seat::Player(c) => index(c),
                Seat::Spectator => 2,
            };
            match &frames[slot] {
                Some(f) => s.tx.send(f.clone()).is_ok(),
                None => !s.tx.is_closed(),
            }
        });
    }

    /// If the running side's time is up, its flag falls: stored, then announced to all.
    async fn flag_check(&mut self) {
        let now = Instant::now();
        let Some(side) = self.clocks.running() else {
            return;
        };
        if self.clocks.left(side, now) > 0 || self.is_over() {
            return;
        }
        self.clocks.stop(now);
        self.clocks.set(side, 0);
        self.server_end(side, Command::FlagFall, now).await;
    }

    /// When the side to move, a person, has been away past the timeout (never in
    /// correspondence games).
    fn abandon_deadline(&self) -> Option<Instant> {
        // Correspondence games are never abandoned: only their clocks end them.
        if self.row.initial_ms >= crate::ratings::time_class::CORRESPONDENCE_MS {
            return None;
        }
        let side = self.game.umpire().turn();
        self.row.users[index(side)].as_ref()?;
        self.gone_since[index(side)].map(|t| t + self.abandon_after)
    }

    /// If the side to move has been away past the timeout, it loses by abandonment, or the
    /// game is aborted if the two sides have not both moved yet.
    async fn abandon_check(&mut self) {
        let now = Instant::now();
        if self.is_over() || self.row.status != "live" {
            return;
        }
        if self.abandon_deadline().is_none_or(|d| d > now) {
            return;
        }
        let side = self.game.umpire().turn();
        let end = if self.game.umpire().plies() < 2 {
            Command::Abort
        } else {
            Command::Abandon
        };
        let clock_ms = self.clocks.charge(side, now);
        self.clocks.stop(now);
        self.clocks.set(side, clock_ms);
        self.server_end(side, end, now).await;
    }

    /// Has the umpire judge an end the server declares for `side` (a flag fall, an
    /// abandonment, an abort), stores it, then tells every connection: each player and the
    /// spectators get the `update` the umpire's announcement makes, then everyone `game_over`.
    async fn server_end(&mut self, side: Color, end: Command, now: Instant) {
        let outcome = self.game.submit_as(side, end);
        if outcome.verdict != Verdict::Answered {
            tracing::error!(
                "game {}: the umpire refuses the end {:?} ({})",
                self.row.id,
                end.to_text(),
                outcome.verdict.as_str()
            );
            self.reload().await;
            return;
        }
        let row = CommandRow {
            seq: self.seq,
            side: color_name(side).to_owned(),
            command: end.to_text(),
            clock_ms: self.clocks.left(side, now).max(0),
            at_ms: now_ms(),
        };
        let over = self.result_pair();
        if let Err(e) = self
            .store
            .append_command(
                &self.row.id,
                &row,
                over.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            )
            .await
        {
            tracing::error!(
                "game {}: cannot store the end {:?}: {e}",
                self.row.id,
                end.to_text()
            );
            // Not stored, so it did not happen: go back to what storage holds.
            self.reload().await;
            return;
        }
        self.seq += 1;
        self.row.status = "over".to_owned();
        self.load_ratings().await;
        take_in(
            &mut self.views,
            &mut self.spectators,
            Some(&mut self.agents),
            end,
            &outcome,
        );
        self.broadcast(end, &outcome, side, None, now);
        let result = self.result_pair();
        let frame = projection::game_over_frame(&self.public(now, &result));
        self.subs.retain(|s| s.tx.send(frame.clone()).is_ok());
    }

    /// Rebuilds the game from storage after a failed write, keeping the connections. Boxed:
    /// it holds a second whole game while that loads, and unboxed that room would be reserved
    /// in the future of every game's task (twice the size of a game, for a path taken only
    /// when storage fails).
    fn reload(&mut self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let row = match self.store.game(&self.row.id).await {
                Ok(Some(row)) => row,
                _ => return,
            };
            match Round::load(self.store.clone(), row, self.names.clone()).await {
                Ok(mut fresh) => {
                    fresh.subs = std::mem::take(&mut self.subs);
                    fresh.connected = self.connected;
                    fresh.gone_since = self.gone_since;
                    fresh.abandon_after = self.abandon_after;
                    fresh.challenge_expiry = self.challenge_expiry;
                    fresh.lobby = self.lobby.take();
                    *self = fresh;
                    let now = Instant::now();
                    for s in &self.subs {
                        let _ = s.tx.send(self.state_frame(s.seat, now));
                    }
                }
                Err(e) => tracing::error!("game {}: cannot reload: {e}", self.row.id),
            }
        })
    }

    /// Lets the house agents act while it is their turn (or a draw offer awaits their answer).
    async fn run_agents(&mut self) {
        for _ in 0..MAX_AGENT_RUN {
            if self.row.status != "live" || self.is_over() {
                return;
            }
            let umpire = self.game.umpire();
            let turn = umpire.turn();
            let answerer = umpire.actor(Command::AcceptDraw);
            let (side, command) = match (answerer != turn, &mut self.agents) {
                (true, agents) if agents[index(answerer)].is_some() => {
                    let agent = agents[index(answerer)].as_mut().expect("checked");
                    (answerer, agent.answer_draw())
                }
                (_, agents) => match agents[index(turn)].take() {
                    // A searching agent thinks for up to its budget: off the runtime's
                    // worker threads, so other games and connections go on meanwhile.
                    Some(mut agent) => {
                        let thought = tokio::task::spawn_blocking(move || {
                            let command = agent.choose();
                            (agent, command)
                        })
                        .await;
                        match thought {
                            Ok((agent, command)) => {
                                self.agents[index(turn)] = Some(agent);
                                (turn, command)
                            }
                            Err(e) => {
                                tracing::error!("game {}: house agent failed: {e}", self.row.id);
                                return;
                            }
                        }
                    }
                    None => return,
                },
            };
            if let Err(e) = self.command(side, command, None).await {
                tracing::warn!("game {}: house agent command refused: {e}", self.row.id);
                return;
            }
        }
    }
}
