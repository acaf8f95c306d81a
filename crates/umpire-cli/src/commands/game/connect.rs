//! `umpire connect`: a server game at the terminal, with the display and commands of
//! `umpire play`.
//!
//! The client keeps its own [`PlayerView`], built only from the frames the server sends this
//! player (each `state` frame's opening and transcript, then each `update`'s observation, read
//! back by [`umpire_protocol::decode`]), and hands every observation to the same [`Screen`] as
//! `umpire play`: the board of own men, the status line, the prompt, SAN read on the own
//! board (`O-O`, `Qxh2`), `options`, `why`, refusal reasons, `history`. The server adds MSG
//! (`msg TEXT`) and RELIST (`relist`). A dropped connection is retried; the `state` frame on
//! reconnecting carries the whole transcript, so the view is rebuilt exactly and what was
//! missed is shown. A guest's seat is resumable with `--session-file`: the session token is
//! saved in a file only the user can read (mode 0600), never printed.

use std::io::{self, IsTerminal};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use umpire_ai::AgentKind;
use umpire_client::client::{Client, GameSocket};
use umpire_client::command_frame::command_frame;
use umpire_protocol::chat::printable;
use umpire_protocol::decode;
use umpire_protocol::ending::Ending;
use umpire_protocol::game::GameFrame;
use umpire_protocol::game::presence::Presence;
use umpire_protocol::game::state::{PlayerState, StateFrame};
use umpire_protocol::game::update::{PlayerUpdate, UpdateFrame};
use umpire_protocol::rating::{RoundedRating, SeatRating, SeatRatings};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, RuleSetId, Verdict};
use umpire_view::PlayerView;

use crate::commands::agent_help::{DEFAULT_OPPONENT, agent_help};
use crate::console::input::Line;
use crate::console::input_feed::{Input, read_input};
use crate::console::interrupt::{Farewell, Interrupt, Out};
use crate::console::options::still_legal_text;
use crate::console::password::hidden_password;
use crate::console::record_file;
use crate::console::save_file::fresh_name;
use crate::console::session_file::{fresh_session_file, read_session, save_session};
use crate::console::stdout::{say, say_raw};
use crate::console::typed_command::{NotSent, player_command};
use crate::console::wording::collapse;
use crate::console::words::unknown_command;
use crate::play_screen::{Screen, end_screen, help};
use crate::presence_line::{presence_line, result_words};
use crate::{lobby_screen, spectator_screen};

/// The words `umpire connect` takes besides moves and the game commands.
pub const CONNECT_WORDS: &str =
    "msg <text>, relist, options, why <move>, history, status, board, help, quit";

/// The line that names the words `umpire connect` adds to those of `umpire play`.
const CONNECT_ALSO: &str =
    "Also: msg <text> (a line to your opponent), relist (the umpire lists your men).";

/// Arguments of `umpire connect`.
#[derive(clap::Args)]
pub struct ConnectArgs {
    /// The server, as http://HOST:PORT.
    url: String,
    /// Log in as this account: the password is asked for without echo at a terminal, or
    /// read from the first line of stdin when it is not a terminal; a guest otherwise.
    #[arg(long = "as", value_name = "NAME")]
    name: Option<String>,
    /// With --as: register the account first.
    #[arg(long, requires = "name")]
    register: bool,
    /// Resume as the user of this session token.
    #[arg(long, value_name = "TOKEN", conflicts_with_all = ["name", "session_file"])]
    session: Option<String>,
    /// Resume as the user of the session saved in this file (written, mode 0600, when the
    /// game starts; its name is printed, never the token).
    #[arg(long, value_name = "FILE", conflicts_with = "name")]
    session_file: Option<std::path::PathBuf>,
    /// Join, resume or watch this game.
    #[arg(long)]
    game: Option<String>,
    /// Challenge this player (an account's or bot's name) to a new game: only they may join
    /// it, and they may decline it. Rule set, colour, clock and rated as for a new game.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["game", "agent"])]
    challenge: Option<String>,
    /// Start in the lobby: the open challenges listed live (those addressed to you too); join,
    /// decline or cancel one, or challenge a player, by typing (`help` lists the words).
    #[arg(long, conflicts_with_all = ["game", "agent", "challenge"])]
    lobby: bool,
    // The help lists the built-in agents.
    #[arg(long, value_name = "NAME", num_args = 0..=1,
          default_missing_value = DEFAULT_OPPONENT.as_str(), help = agent_help(
        "Play a new game against this built-in agent (--agent alone: mcts):", ""))]
    agent: Option<AgentKind>,
    /// Strength of the agent, 1 to 5 (its search budget; agents that do not search ignore it).
    #[arg(long, requires = "agent",
          value_parser = clap::value_parser!(u8).range(1..=i64::from(umpire_server::game::strength::MAX_LEVEL)))]
    level: Option<u8>,
    /// Rule set of a new game.
    #[arg(long, default_value = "wild16")]
    rules: RuleSetId,
    /// Colour in a new game: white, black or random.
    #[arg(long, default_value = "random")]
    color: String,
    /// Clock of a new game, in seconds.
    #[arg(long, default_value_t = 600)]
    clock: u64,
    /// Increment of a new game, in seconds.
    #[arg(long, default_value_t = 0)]
    increment: u64,
    /// Make a new game rated (an account's game against another account; casual otherwise).
    #[arg(long, conflicts_with = "agent")]
    rated: bool,
}

/// The player's side of a live game: its view and screen, rebuilt from each `state` frame.
struct Seat {
    side: Color,
    view: PlayerView,
    screen: Screen,
    opponent: String,
    status: String,
    result: Option<String>,
    /// The opponent offered a draw and waits for the answer.
    offer_pending: bool,
    /// White's and Black's names.
    players: [String; 2],
    /// The latest `ratings` of a rated game, `None` otherwise.
    ratings: Option<SeatRatings>,
}

impl Seat {
    /// Builds the seat from a `state` frame; returns it and what each transcript entry said.
    fn from_state(state: &PlayerState, colour: bool) -> Result<(Seat, Vec<String>), String> {
        let rules: RuleSetId = state
            .header
            .rules
            .parse()
            .map_err(|e| format!("state: {e}"))?;
        let side: Color = state.you.into();
        let mut view = PlayerView::standard(*rules.rules(), side);
        view.hear_opening(decode::heard_announcements(&state.opening)?);
        let mut screen = Screen::new(&view, colour);
        let mut said = Vec::new();
        for o in &state.transcript {
            let obs = decode::typed_observation(side, o)?;
            said.push(screen.hear(&view, &obs));
            view.observe(&obs).map_err(|e| format!("state: {e}"))?;
        }
        let players = &state.header.players;
        let opponent = side.fold_wb(&players.black, &players.white).clone();
        let seat = Seat {
            side,
            view,
            screen,
            opponent,
            status: state.status.clone(),
            result: result_text(&state.result),
            offer_pending: false,
            players: [players.white.clone(), players.black.clone()],
            ratings: state.header.ratings.clone(),
        };
        Ok((seat, said))
    }

    /// Whether the player is asked for a command now: its turn, or a draw offer to answer.
    fn asked(&self) -> bool {
        self.status == "live"
            && self.result.is_none()
            && (self.view.is_my_turn() || self.offer_pending)
    }

    fn show_position(&self) {
        say_raw!("{}", self.screen.board(&self.view));
        say!("{}", self.screen.status(&self.view));
    }
}

/// One seat's rating as shown: `1712 ±64`, `1500 ±350 provisional`; with `after`, the
/// rating after the game and the change: `1500 → 1662 (+162)`.
fn one_rating(r: &SeatRating, after: bool) -> Option<String> {
    let rating = |v: &RoundedRating| {
        let provisional = if v.provisional { " provisional" } else { "" };
        format!("{} ±{}{provisional}", v.rating, v.deviation)
    };
    if !after {
        return Some(rating(&r.before));
    }
    let change = r.change?;
    Some(format!(
        "{} → {} ({change:+})",
        r.before.rating,
        rating(r.after.as_ref()?)
    ))
}

/// The line naming both players' ratings of a rated game (`after`: the ratings after it and
/// the change); `None` when the frame carries none (a casual game, or not rated yet).
fn ratings_text(
    ratings: &Option<SeatRatings>,
    players: &[String; 2],
    after: bool,
) -> Option<String> {
    let ratings = ratings.as_ref()?;
    let parts: Vec<String> = [&ratings.white, &ratings.black]
        .into_iter()
        .zip(players)
        .filter_map(|(r, name)| Some(format!("{name} {}", one_rating(r.as_ref()?, after)?)))
        .collect();
    if parts.is_empty() {
        return None;
    }
    let head = if after {
        "Ratings after the game"
    } else {
        "Ratings"
    };
    Some(format!("{head}: {}.", parts.join(", ")))
}

fn result_text(result: &Option<Ending>) -> Option<String> {
    let r = result.as_ref()?;
    Some(result_words(&r.score, &r.reason))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// The rule set, the sides and the commands: printed once, when the game starts.
fn greet(seat: &Seat, opponent: &str) {
    say!("{}", seat.screen.welcome(opponent));
    say!("{CONNECT_ALSO}");
}

/// Whether the player is Black in a started game in which White has not moved yet.
fn waits_for_first_move(seat: &Seat) -> bool {
    seat.side == Color::Black
        && seat.status == "live"
        && seat.result.is_none()
        && !seat.offer_pending
        && !seat.view.is_my_turn()
        && seat.view.transcript().is_empty()
}

/// How a connection ended.
enum Ended {
    /// The game is over.
    Over,
    /// The player left (quit or end of input); the game goes on on the server.
    Left,
    /// The connection dropped: reconnect.
    Lost(String),
}

/// The client's state across connections.
struct Session {
    url: String,
    game: String,
    /// The command that resumes the seat (naming the session file, not the token).
    session: String,
    colour: bool,
    seat: Option<Seat>,
    /// What the opponent's moves said, waiting to be printed in one piece.
    pending: Vec<String>,
    /// Whether the prompt was printed for the current question.
    prompted: bool,
    next_id: u64,
    /// The open game was cancelled, declined or expired: there is no game.
    withdrawn: bool,
    /// The player a direct challenge of this game is addressed to.
    challenged: Option<String>,
    /// Whether Black was told that the game waits for White's first move.
    told_waiting: bool,
    /// The players' presence as last told.
    presence: Option<Presence>,
    /// Whether the player was last told that the opponent is away.
    told_away: bool,
}

impl Session {
    /// Takes one frame; returns true when the game is over.
    fn take(&mut self, frame: &Value) -> Result<bool, String> {
        if frame["you"] == "spectator" {
            spectator_screen::show(frame);
            return Ok(false);
        }
        let typed = match GameFrame::deserialize(frame) {
            Ok(typed) => typed,
            Err(e) if matches!(frame["type"].as_str(), Some("state" | "update")) => {
                return Err(format!("{}: {e}", frame["type"]));
            }
            // A kind of frame added within the protocol's version, or one this client does not
            // read: passed over.
            Err(_) => return Ok(self.seat.as_ref().is_some_and(|s| s.result.is_some())),
        };
        match typed {
            GameFrame::State(state) => {
                if let StateFrame::Player(state) = *state {
                    self.take_state(&state)?;
                }
            }
            GameFrame::Update(UpdateFrame::Player(update)) => self.take_update(&update)?,
            GameFrame::Chat(line) => {
                let from: Color = line.from.into();
                let me = self.seat.as_ref().map(|s| s.side);
                self.flush();
                if Some(from) != me {
                    say!("MSG from your opponent: {}", printable(&line.text));
                } else {
                    // The server's echo: the line is stored with the game and delivered.
                    say!("MSG sent: {}", printable(&line.text));
                }
                self.prompted = false;
            }
            GameFrame::Relist(relist) => {
                say!(
                    "The umpire lists your men: {}.",
                    spectator_screen::men_listed(&relist.men)
                );
                self.prompted = false;
            }
            GameFrame::Error(e) => {
                say!(
                    "Refused ({}): {}",
                    printable(&e.code),
                    printable(&e.message)
                );
                self.prompted = false;
            }
            GameFrame::GameOver(over) => {
                if let Some(seat) = &mut self.seat {
                    seat.result = result_text(&over.result);
                    if over.ratings.is_some() {
                        seat.ratings = over.ratings;
                    }
                }
            }
            GameFrame::Presence(p) => self.take_presence(p),
            GameFrame::Withdrawn(w) => {
                let why = match w.reason.as_str() {
                    "declined" => "Your challenge was declined.",
                    "cancelled" => "The challenge was cancelled.",
                    "expired" => "Nobody took the challenge in time: it expired.",
                    "abandoned" => "The challenge's creator left: it was withdrawn.",
                    _ => "The challenge was withdrawn.",
                };
                say!("{why} There is no game {}.", self.game);
                self.withdrawn = true;
                return Ok(true);
            }
            GameFrame::Update(UpdateFrame::Spectator(_))
            | GameFrame::Rematch(_)
            | GameFrame::Pong(_) => {}
        }
        Ok(self.seat.as_ref().is_some_and(|s| s.result.is_some()))
    }

    /// The players' presence now: a line when the opponent went, came back, or its
    /// abandonment countdown started (live games only).
    fn take_presence(&mut self, now: Presence) {
        let Some(seat) = &self.seat else {
            // A spectator (a player's first frame is its `state`).
            if self.presence != Some(now) {
                say!("{}", spectator_screen::presence_words(&now));
            }
            self.presence = Some(now);
            return;
        };
        if seat.status == "live" && seat.result.is_none() {
            let both_moved = seat.view.plies() >= 2;
            if let Some(line) = presence_line(
                seat.side,
                self.presence.as_ref(),
                &now,
                both_moved,
                &mut self.told_away,
            ) {
                self.flush();
                say!("{line}");
                self.prompted = false;
            }
        }
        self.presence = Some(now);
    }

    fn take_state(&mut self, state: &PlayerState) -> Result<(), String> {
        let (seat, said) = Seat::from_state(state, self.colour)?;
        match &self.seat {
            None => {
                let opponent = match (&self.challenged, seat.status.as_str()) {
                    (Some(name), "open") => name.as_str(),
                    _ => seat.opponent.as_str(),
                };
                if seat.status == "open" {
                    // The rules and commands are shown once the game starts: only the seat now.
                    let against = match &self.challenged {
                        Some(name) => format!(" against {name}"),
                        None => String::new(),
                    };
                    say!(
                        "You will play {}{against} ({} rules) once the game starts.",
                        seat.side.fold_wb("White", "Black"),
                        state.header.rules
                    );
                } else {
                    if self.challenged.as_deref() == Some(seat.opponent.as_str()) {
                        // Our challenge was taken before this connection opened.
                        say!("{} joined: the game starts.", seat.opponent);
                    }
                    greet(&seat, opponent);
                }
                if let Some(line) = ratings_text(&seat.ratings, &seat.players, false) {
                    say!("{line}");
                }
                show_chat(state, seat.side);
                self.pending
                    .extend(said.into_iter().filter(|s| !s.is_empty()));
                if let (Some(name), "open") = (&self.challenged, seat.status.as_str()) {
                    say!("Waiting for {name} to accept; `cancel` withdraws the challenge.");
                } else if seat.status == "open" {
                    say!(
                        "Waiting for an opponent: `umpire connect {} --game {}` joins this game; `cancel` withdraws it.",
                        self.url,
                        self.game
                    );
                }
            }
            Some(old) => {
                let known = old.view.transcript().len();
                let missed: Vec<String> = said
                    .into_iter()
                    .skip(known)
                    .filter(|s| !s.is_empty())
                    .collect();
                if old.status == "open" && seat.status == "live" {
                    say!("{} joined: the game starts.", seat.opponent);
                    greet(&seat, &seat.opponent);
                    if let Some(line) = ratings_text(&seat.ratings, &seat.players, false) {
                        say!("{line}");
                    }
                } else if !missed.is_empty() {
                    say!("While you were away:");
                }
                self.pending.extend(missed);
            }
        }
        // A game that was live already: what changed while this state was on its way is news;
        // the state that starts the game only sets where things stand (the opponent who just
        // joined over HTTP opens its socket a moment later).
        let was_live = self.seat.as_ref().is_some_and(|s| s.status == "live");
        self.seat = Some(seat);
        self.prompted = false;
        match state.presence {
            Some(p) if was_live => self.take_presence(p),
            p => self.presence = p,
        }
        Ok(())
    }

    fn take_update(&mut self, update: &PlayerUpdate) -> Result<(), String> {
        let Some(seat) = &mut self.seat else {
            return Ok(());
        };
        let obs = decode::typed_observation(seat.side, &update.observation)?;
        let text = seat.screen.hear(&seat.view, &obs);
        seat.view.observe(&obs).map_err(|e| e.to_string())?;
        seat.status.clone_from(&update.status);
        seat.result = result_text(&update.result);
        if update.ratings.is_some() {
            seat.ratings.clone_from(&update.ratings);
        }
        if obs.own.is_some() {
            seat.offer_pending = false;
        } else if obs
            .announcements
            .iter()
            .any(|a| *a == Announcement::DrawOffered(!seat.side))
        {
            seat.offer_pending = true;
        }
        match obs.own {
            Some(own) => {
                self.flush();
                let seat = self.seat.as_ref().expect("checked");
                say!("{text}");
                if own.verdict == Verdict::Illegal && seat.view.is_my_turn() {
                    say!("{}", still_legal_text(&seat.view));
                }
            }
            None if !text.is_empty() => self.pending.push(text),
            None => {}
        }
        self.prompted = false;
        Ok(())
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            say!("{}", collapse(&self.pending));
            self.pending.clear();
        }
    }

    /// After a burst of frames: what the opponent did, then the board and the prompt if the
    /// player is asked.
    fn settle(&mut self) {
        let had = !self.pending.is_empty();
        self.flush();
        let Some(seat) = &self.seat else {
            return;
        };
        if waits_for_first_move(seat) && !self.told_waiting {
            say!("Waiting for White's first move.");
            self.told_waiting = true;
        }
        if seat.asked() && !self.prompted {
            if had || seat.view.transcript().is_empty() || !seat.view.is_my_turn() {
                seat.show_position();
            }
            say_raw!("{}", seat.screen.prompt(&seat.view));
            self.prompted = true;
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Answers one line of input: locally, or as a frame to send.
    fn line(&mut self, text: &str) -> Result<Option<Value>, Ended> {
        let lower = text.to_ascii_lowercase();
        self.prompted = false;
        if lower == "quit" || lower == "exit" {
            return Err(Ended::Left);
        }
        if let Some(rest) = text.strip_prefix("msg ").or(text.strip_prefix("MSG ")) {
            return Ok(Some(
                json!({"type": "msg", "text": rest.trim(), "id": self.id()}),
            ));
        }
        if lower == "relist" {
            return Ok(Some(json!({"type": "relist", "id": self.id()})));
        }
        let Some(seat) = &self.seat else {
            say!("The game has not started yet; you may `quit`.");
            return Ok(None);
        };
        if let Some(answer) = seat.screen.answer(&seat.view, text) {
            say_raw!("{answer}");
            return Ok(None);
        }
        match lower.as_str() {
            "" => {}
            "help" | "?" => say!("{}\n{CONNECT_ALSO}", help()),
            _ => match player_command(&seat.view, text) {
                Ok(command) => {
                    if matches!(command, umpire_rules::Command::Attempt(_)) {
                        seat.screen.noted(text);
                    }
                    if let Some(frame) = command_frame(command, Some(self.id())) {
                        return Ok(Some(serde_json::to_value(frame).unwrap_or_default()));
                    }
                    say!("{}", unknown_command(text, CONNECT_WORDS));
                }
                Err(NotSent::NotACommand) => {
                    say!("{}", unknown_command(text, CONNECT_WORDS));
                }
                Err(NotSent::Refused(why)) => say!("{why}"),
            },
        }
        Ok(None)
    }

    /// Plays over one connection until the game ends, the player leaves or it drops.
    async fn play(
        &mut self,
        client: &Client,
        socket: &mut GameSocket,
        input: &mut mpsc::Receiver<Input>,
        input_open: &mut bool,
    ) -> Ended {
        loop {
            tokio::select! {
                frame = socket.next() => {
                    let frame = match frame {
                        Ok(f) => f,
                        Err(e) => return Ended::Lost(e),
                    };
                    match self.take(&frame) {
                        Ok(true) => return Ended::Over,
                        Ok(false) => {}
                        Err(e) => say!("(unreadable frame from the server: {e})"),
                    }
                    // Take the rest of a burst (the opponent's run of attempts) before printing.
                    while let Ok(frame) = socket.next_within(Duration::from_millis(40)).await {
                        match self.take(&frame) {
                            Ok(true) => return Ended::Over,
                            Ok(false) => {}
                            Err(e) => say!("(unreadable frame from the server: {e})"),
                        }
                    }
                    self.settle();
                }
                line = input.recv(), if *input_open => {
                    let text = match line {
                        None | Some(Input::End) => {
                            *input_open = false;
                            say!("");
                            say!("End of input: you leave; the game goes on on the server (it is not resigned).");
                            return Ended::Left;
                        }
                        Some(Input::TooLong(start)) => {
                            say!("{}", Line::too_long_answer(&start));
                            self.settle();
                            continue;
                        }
                        Some(Input::Text(t)) => t,
                    };
                    let waiting = self.seat.as_ref().is_none_or(|s| s.status == "open");
                    if waiting && text.trim().eq_ignore_ascii_case("cancel") {
                        // The server answers with a `withdrawn` frame, which ends the session.
                        if let Err(e) = client.cancel(&self.game).await {
                            say!("Cannot cancel: {e}");
                        }
                        continue;
                    }
                    match self.line(&text) {
                        Ok(Some(frame)) => {
                            if let Err(e) = socket.send(&frame).await {
                                return Ended::Lost(e);
                            }
                        }
                        Ok(None) => self.settle(),
                        Err(end) => return end,
                    }
                }
            }
        }
    }
}

/// Logs in (session, account or guest) and says who the player is.
async fn log_in(
    args: &ConnectArgs,
    typed: Option<String>,
    input: &mut mpsc::Receiver<Input>,
) -> Result<Client, String> {
    let mut client = Client::new(&args.url)?;
    let saved = match &args.session_file {
        Some(path) => Some(read_session(path)?),
        None => None,
    };
    if let Some(token) = args.session.as_ref().or(saved.as_ref()) {
        client = client.with_token(token);
        let me = client.request("GET", "/api/me", None).await?.ok()?;
        say!(
            "Resuming as {}.",
            me["user"]["name"].as_str().unwrap_or_default()
        );
        return Ok(client);
    }
    match &args.name {
        Some(name) => {
            let password = match typed {
                Some(p) => p,
                None => match input.recv().await {
                    Some(Input::Text(t)) => t,
                    _ => {
                        return Err(
                            "--as NAME reads the password from the first line of stdin".into()
                        );
                    }
                },
            };
            if args.register {
                client.register(name, &password).await?;
            } else {
                client.login(name, &password).await?;
            }
            say!("Logged in as {name}.");
        }
        None => {
            let me = client.guest().await?;
            say!(
                "Playing as guest {}.",
                me["name"].as_str().unwrap_or_default()
            );
        }
    }
    Ok(client)
}

/// Why a challenge is gone, in words, from the server's refusal code (410 `challenge_…`).
fn gone_reason(code: Option<&str>) -> Option<&'static str> {
    match code? {
        "challenge_declined" => Some("the challenge was declined"),
        "challenge_cancelled" => Some("the challenge was cancelled"),
        "challenge_expired" => Some("nobody took the challenge in time: it expired"),
        "challenge_abandoned" => Some("its creator left, so the challenge was withdrawn"),
        _ => None,
    }
}

/// Whether game `id` is on the server at `url` (asked without logging in). A challenge
/// withdrawn within the day is said to be gone (and `false` returned); an unknown id is an
/// error.
async fn game_is_there(url: &str, id: &str) -> Result<bool, String> {
    let answer = Client::new(url)?
        .request("GET", &format!("/api/games/{id}"), None)
        .await?;
    if answer.status == 404 {
        return Err(format!("there is no game {id:?} on {url}"));
    }
    if let Some(why) = gone_reason(answer.code()) {
        say!("Game {id} is gone: {why}.");
        return Ok(false);
    }
    Ok(true)
}

/// Joins `--game` or creates a game; returns its id, or `None` when the game asked for was a
/// challenge withdrawn meanwhile (the reason is printed).
async fn choose_game(args: &ConnectArgs, client: &Client) -> Result<Option<String>, String> {
    if let Some(id) = &args.game {
        // Join if the game is open and not ours; otherwise resume or watch it as it is.
        let answer = client
            .request("POST", &format!("/api/games/{id}/join"), None)
            .await?;
        if let Some(why) = gone_reason(answer.code()) {
            say!("Game {id} is gone: {why}.");
            return Ok(None);
        }
        match answer.code() {
            None | Some("own_game" | "game_not_open") => return Ok(Some(id.clone())),
            Some(_) => return Err(answer.ok().err().unwrap_or_default()),
        }
    }
    let spec = new_game_spec(args);
    let g = client.create_game(&spec).await?;
    let id = g["id"].as_str().ok_or("no game id")?.to_owned();
    if let Some(name) = &args.challenge {
        say!(
            "Challenged {name} (game {id}); waiting for them to accept (`cancel` withdraws it). \
             They see it in `umpire connect {} --lobby`, or join with --game {id}.",
            args.url
        );
    } else if args.agent.is_none() {
        say!(
            "Created game {id}. Your opponent joins by pasting this line in a terminal:\n  \
             umpire connect {} --game {id}",
            args.url
        );
    }
    Ok(Some(id))
}

/// The request for a new game that the options describe.
fn new_game_spec(args: &ConnectArgs) -> Value {
    let mut spec = json!({
        "rules": args.rules.as_str(),
        "initial_ms": args.clock.saturating_mul(1000),
        "increment_ms": args.increment.saturating_mul(1000),
        "color": args.color,
        "rated": args.rated,
    });
    if let Some(a) = args.agent {
        spec["agent"] = a.as_str().into();
        if let Some(l) = args.level {
            spec["level"] = l.into();
        }
    }
    if let Some(name) = &args.challenge {
        spec["opponent"] = name.as_str().into();
    }
    spec
}

/// Downloads the finished game's record next to the player and shows the end screen.
async fn finish(client: &Client, session: &Session) -> Result<(), String> {
    let Some(seat) = &session.seat else {
        return Ok(());
    };
    let answer = client
        .request("GET", &format!("/games/{}.json", session.game), None)
        .await?
        .ok()?;
    let path = fresh_name("umpire-game", &session.game);
    let record = umpire_rules::Record::from_json(&answer.to_string())
        .map_err(|e| format!("the server's record: {e}"))?;
    record_file::save(&record, &path)?;
    say!("{}", end_screen(&record, seat.side, &path, session.colour));
    if let Some(line) = ratings_text(&seat.ratings, &seat.players, true) {
        say!("{line}");
    }
    Ok(())
}

/// Runs `umpire connect`.
pub fn connect(args: ConnectArgs) -> Result<(), String> {
    // Read before the input thread starts, so that no line of the password is echoed.
    let typed = match &args.name {
        Some(name) => hidden_password(name)?,
        None => None,
    };
    // Ctrl-C says how to come back once that is known.
    let farewell = Farewell::new("Interrupted.");
    let _interrupt = Interrupt::install_with(farewell.clone(), Out::Stdout)?;
    runtime()?.block_on(async move {
        // A game asked for is looked up before anyone logs in: no guest account is made for a
        // game that is not there.
        if let Some(id) = &args.game
            && !game_is_there(&args.url, id).await?
        {
            return Ok(());
        }
        let mut input = read_input();
        let client = log_in(&args, typed, &mut input).await?;
        let id = if args.lobby {
            match lobby_screen::pick(&client, &new_game_spec(&args), &mut input).await? {
                Some(id) => id,
                None => return Ok(()),
            }
        } else {
            match choose_game(&args, &client).await? {
                Some(id) => id,
                None => return Ok(()),
            }
        };
        let token = client.token().unwrap_or_default().to_owned();
        // A direct challenge names its addressee before anyone sits there.
        let challenged = client
            .request("GET", &format!("/api/games/{id}"), None)
            .await
            .ok()
            .and_then(|a| a.body["opponent"].as_str().map(str::to_owned));
        // The token goes to a file only the user can read, never to the screen.
        let session_file = match &args.session_file {
            Some(path) => path.clone(),
            None => {
                let path = fresh_session_file(&id);
                save_session(&path, &token)?;
                path
            }
        };
        let resume = format!(
            "umpire connect {} --game {id} --session-file {}",
            args.url,
            session_file.display()
        );
        say!("Game {id}. To resume after losing the connection: {resume}");
        farewell.set(format!(
            "Interrupted: you leave; the game goes on on the server (it is not resigned). \
             Resume with: {resume}"
        ));
        let mut session = Session {
            url: args.url.clone(),
            game: id.clone(),
            session: resume,
            colour: io::stdout().is_terminal(),
            seat: None,
            pending: Vec::new(),
            prompted: false,
            next_id: 0,
            withdrawn: false,
            challenged,
            told_waiting: false,
            presence: None,
            told_away: false,
        };
        let mut input_open = true;
        let mut failures = 0u32;
        // Whether the drop was said: one line for it, one for the reconnection.
        let mut lost = false;
        loop {
            let mut socket = match client.socket(&id).await {
                Ok(s) => s,
                Err(e) => {
                    // A game that is gone will not come back: a challenge withdrawn long ago
                    // (the server says why for a day: 410 with the reason; the socket itself
                    // then brings the `withdrawn` frame), or no such game: stop retrying.
                    if let Ok(answer) = client
                        .request("GET", &format!("/api/games/{id}"), None)
                        .await
                        && matches!(answer.status, 404 | 410)
                    {
                        session.flush();
                        let why = gone_reason(answer.code()).unwrap_or(
                            "no such game, or a challenge withdrawn more than a day ago",
                        );
                        say!("Game {id} is gone: {why}.");
                        return Ok(());
                    }
                    failures += 1;
                    if failures > 30 {
                        return Err(format!(
                            "{e}; giving up (resume later with: {})",
                            session.session
                        ));
                    }
                    if !lost {
                        session.flush();
                        say!("Cannot reach the server ({e}); trying again.");
                        lost = true;
                    }
                    let wait = Duration::from_millis(250 * u64::from(failures.min(8)));
                    tokio::time::sleep(wait).await;
                    continue;
                }
            };
            if std::mem::take(&mut lost) {
                say!("Reconnected to the server.");
            }
            failures = 0;
            match session
                .play(&client, &mut socket, &mut input, &mut input_open)
                .await
            {
                Ended::Over => {
                    socket.close().await;
                    session.flush();
                    if session.withdrawn {
                        return Ok(());
                    }
                    return finish(&client, &session).await;
                }
                Ended::Left => {
                    socket.close().await;
                    say!("Resume with: {}", session.session);
                    return Ok(());
                }
                Ended::Lost(e) => {
                    session.flush();
                    say!("Connection lost ({e}); reconnecting.");
                    lost = true;
                }
            }
        }
    })
}

/// The chat lines a `state` frame carries (the most recent ones), shown when the connection
/// opens; every line printed escaped ([`printable`]), so that no control or direction
/// character reaches the terminal.
fn show_chat(state: &PlayerState, me: Color) {
    if state.chat_from > 0 {
        say!("({} earlier chat line(s) not shown.)", state.chat_from);
    }
    for line in &state.chat {
        let from: Color = line.from.into();
        let who = if from == me { "you" } else { "your opponent" };
        say!("MSG from {who}: {}", printable(&line.text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_show_on_the_header_and_their_change_at_the_end() {
        let players = ["ann".to_owned(), "bob".to_owned()];
        let start: Option<SeatRatings> = serde_json::from_value(json!({
            "white": {"rating": 1500, "deviation": 350, "provisional": true, "games": 0},
            "black": {"rating": 1712, "deviation": 64, "provisional": false, "games": 31},
        }))
        .unwrap();
        assert_eq!(
            ratings_text(&start, &players, false).as_deref(),
            Some("Ratings: ann 1500 ±350 provisional, bob 1712 ±64.")
        );
        // Not rated yet: no line about the change.
        assert_eq!(ratings_text(&start, &players, true), None);
        let end: Option<SeatRatings> = serde_json::from_value(json!({
            "white": {"rating": 1500, "deviation": 350, "provisional": true, "games": 0,
                      "after": {"rating": 1662, "deviation": 290, "provisional": true},
                      "change": 162},
            "black": {"rating": 1712, "deviation": 64, "provisional": false, "games": 31,
                      "after": {"rating": 1690, "deviation": 63, "provisional": false},
                      "change": -22},
        }))
        .unwrap();
        assert_eq!(
            ratings_text(&end, &players, true).as_deref(),
            Some(
                "Ratings after the game: ann 1500 → 1662 ±290 provisional (+162), \
                 bob 1712 → 1690 ±63 (-22)."
            )
        );
        // A casual game has none; a seat without a rating (an agent) is left out.
        assert_eq!(ratings_text(&None, &players, false), None);
        let half = start.map(|s| SeatRatings {
            white: None,
            black: s.black,
        });
        assert_eq!(
            ratings_text(&half, &players, false).as_deref(),
            Some("Ratings: bob 1712 ±64.")
        );
    }
}
