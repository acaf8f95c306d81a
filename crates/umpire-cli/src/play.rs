//! `umpire play`: a game at the terminal against a built-in opponent.
//!
//! The human's screen is drawn from the human's `PlayerView` only: its own men, what it heard,
//! what it tried. The opponent is an `Agent` holding its own view. Only the umpire (inside
//! the recorded `Game`) sees both.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use umpire_ai::{Agent, AgentKind, play_observations};

use crate::input::Lines;
use crate::stdout::{say, say_raw};
use umpire_rules::record::Game;
use umpire_rules::shakmaty::{Color, File, Rank, Role, Square};
use umpire_rules::{Announcement, AttemptList, Command, Outcome, RuleSet, Verdict};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// What to play.
pub struct PlayArgs {
    /// Rule set.
    pub rules: RuleSet,
    /// The human's side.
    pub side: Color,
    /// Seed of the opponent.
    pub seed: u64,
    /// The opponent.
    pub opponent: AgentKind,
    /// Where to save the record at the end (JSON, or PGN if the name ends in .pgn).
    pub record: Option<PathBuf>,
}

struct Screen {
    colour: bool,
}

impl Screen {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn umpire(&self, text: &str) -> String {
        self.paint("1;33", text)
    }

    fn note(&self, text: &str) -> String {
        self.paint("2", text)
    }
}

fn figure(role: Role, color: Color) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// The player's own men, from the player's side of the board.
fn board_text(view: &PlayerView, screen: &Screen) -> String {
    let side = view.side();
    let mut ranks: Vec<Rank> = Rank::ALL.to_vec();
    let mut files: Vec<File> = File::ALL.to_vec();
    if side == Color::White {
        ranks.reverse();
    } else {
        files.reverse();
    }
    let mut out = String::new();
    for rank in &ranks {
        out.push_str(&format!(" {} ", rank.char()));
        for file in &files {
            let sq = Square::from_coords(*file, *rank);
            let man = view
                .own_board()
                .board()
                .piece_at(sq)
                .map(|p| figure(p.role, p.color));
            let light = (u32::from(*file) + u32::from(*rank)) % 2 == 1;
            let cell = format!("{} ", man.unwrap_or(if light { '·' } else { ' ' }));
            out.push_str(&if screen.colour {
                screen.paint(if light { "47;30" } else { "100;30" }, &cell)
            } else {
                cell
            });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in &files {
        out.push(file.char());
        out.push(' ');
    }
    out.push('\n');
    out
}

const HELP: &str = "Commands: a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3); any (ask for pawn \
captures, where the rules allow it); options (the attempts that could still be legal, given what you \
know); why <move> (which rules hide a move from the options); draw (offer a draw); resign; board; help; \
quit (resign and leave).";

/// Runs the game until it ends or the human leaves.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let screen = Screen {
        colour: io::stdout().is_terminal(),
    };
    let rules = args.rules;
    let mut game = Game::new(rules);
    let human = args.side;
    game.set_tag(human.fold_wb("White", "Black"), "you")
        .map_err(|e| e.to_string())?;
    game.set_tag(human.fold_wb("Black", "White"), args.opponent.as_str())
        .map_err(|e| e.to_string())?;
    let mut me = PlayerView::standard(rules, human);
    let mut bot = args.opponent.build(
        PlayerView::standard(rules, !human),
        args.seed,
        FilterSet::all_sound(),
    );
    let opening: Vec<Announcement> = game
        .umpire()
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    me.hear_opening(opening.iter().copied());
    bot.hear_opening(&opening);

    let stdin = io::stdin();
    let mut lines = Lines::new(stdin.lock());
    say!(
        "Kriegspiel, {} rules. You play {} against {}. {}",
        rules.name,
        human.fold_wb("White", "Black"),
        args.opponent,
        HELP
    );
    say_raw!("{}", board_text(&me, &screen));
    while game.result().is_none() {
        if game.umpire().turn() != human {
            let command = bot.choose();
            let (_, seen) = submit(&mut game, &mut me, &mut bot, command, &rules, &screen)?;
            if seen.is_some_and(|s| s.moved) && game.result().is_none() {
                say!("{}", screen.note("Your opponent has moved. Your men:"));
                say_raw!("{}", board_text(&me, &screen));
            }
            continue;
        }
        say_raw!("{}> ", human.fold_wb("White", "Black"));
        io::stdout().flush().map_err(|e| e.to_string())?;
        let Some(text) = lines.next_line() else {
            say!("");
            say!("End of input: you resign.");
            submit(
                &mut game,
                &mut me,
                &mut bot,
                Command::Resign,
                &rules,
                &screen,
            )?;
            break;
        };
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("why")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            say!("{}", why_text(&me, text[3..].trim()));
            continue;
        }
        match lower.as_str() {
            "" => continue,
            "help" | "?" => say!("{HELP}"),
            "board" => say_raw!("{}", board_text(&me, &screen)),
            "options" => say!("{}", options_text(&me)),
            "quit" | "exit" => {
                submit(
                    &mut game,
                    &mut me,
                    &mut bot,
                    Command::Resign,
                    &rules,
                    &screen,
                )?;
            }
            _ => match me.own_board().parse_command(text) {
                Ok(command) => {
                    let (outcome, _) =
                        submit(&mut game, &mut me, &mut bot, command, &rules, &screen)?;
                    if outcome.verdict == Verdict::Answered && command == Command::OfferDraw {
                        let answer = if bot.accepts_draw() {
                            Command::AcceptDraw
                        } else {
                            Command::DeclineDraw
                        };
                        submit(&mut game, &mut me, &mut bot, answer, &rules, &screen)?;
                    }
                    if outcome.verdict == Verdict::Illegal && me.is_my_turn() {
                        let mut left = AttemptList::new();
                        let may_ask =
                            GuidedSpace::new(&me, FilterSet::all_sound()).options(&mut left);
                        let n = left.len() + usize::from(may_ask);
                        say!(
                            "{}",
                            screen.note(&format!(
                                "{n} attempts could still be legal (`options` lists them)."
                            ))
                        );
                    }
                }
                Err(e) => say!("{}", screen.note(&e.to_string())),
            },
        }
    }
    if let Some(result) = game.result() {
        say!("Game over: {result}.");
    }
    if let Some(path) = &args.record {
        crate::record_cmd::save(game.record(), path)?;
        say!("Game saved to {}.", path.display());
    }
    Ok(())
}

/// The attempts the guided action space (every sound filter) offers, and how many the own
/// board would allow.
fn options_text(me: &PlayerView) -> String {
    let mut own = AttemptList::new();
    me.options(&mut own);
    let mut list = AttemptList::new();
    let may_ask = GuidedSpace::new(me, FilterSet::all_sound()).options(&mut list);
    let mut names: Vec<String> = list.iter().map(ToString::to_string).collect();
    names.sort();
    if may_ask {
        names.push("any".to_owned());
    }
    let hidden = own.len().saturating_sub(list.len());
    let mut text = format!("{} still possible: {}", names.len(), names.join(" "));
    if hidden > 0 {
        text.push_str(&format!(
            "\n({hidden} more on your board cannot be legal given what you know; `why <move>` says why)"
        ));
    }
    text
}

/// Why the guided action space hides `what` (a move in SAN or UCI), in words.
fn why_text(me: &PlayerView, what: &str) -> String {
    if what.is_empty() {
        return "why what? Type `why` and a move, e.g. `why e2e4` or `why Nf3`.".to_owned();
    }
    let attempt = match me.own_board().parse_command(what) {
        Ok(Command::Attempt(a)) => a,
        Ok(_) => return format!("`{what}` is not a move."),
        Err(e) => return e.to_string(),
    };
    if !me.is_my_turn() {
        return "It is not your turn.".to_owned();
    }
    let space = GuidedSpace::new(me, FilterSet::all_sound());
    let rules = space.why_hidden(attempt);
    if rules.is_empty() {
        let obliged = me.turn().must_try_pawn_capture && !me.own_board().is_pawn_capture(attempt);
        return if obliged {
            format!("{attempt} is not offered: after \"yes\" to Any? you must try pawn captures.")
        } else {
            format!("{attempt} is offered: it could be legal.")
        };
    }
    let mut text = format!("{attempt} is hidden by:");
    for id in rules {
        let f = id.filter();
        text.push_str(&format!("\n  {}: {}", f.code, f.summary));
    }
    text
}

/// Gives the human what it learns from `outcome` of `command` and prints what it heard;
/// returns the observation, if any.
fn tell(
    me: &mut PlayerView,
    command: Command,
    outcome: &Outcome,
    rules: &RuleSet,
    screen: &Screen,
) -> Result<Option<umpire_rules::Observation>, String> {
    let Some(seen) = outcome.observation(command, me.side()) else {
        return Ok(None);
    };
    me.observe(&seen).map_err(|e| e.to_string())?;
    if seen.own.is_some() {
        say!(
            "{}",
            screen.note(&format!("{command}: {}", verdict_text(outcome.verdict)))
        );
    }
    for a in &seen.announcements {
        say!(
            "{}",
            screen.umpire(&format!("Umpire: {}", rules.phrase(*a)))
        );
    }
    Ok(Some(seen))
}

fn verdict_text(verdict: Verdict) -> String {
    match verdict {
        Verdict::Accepted => "move made".to_owned(),
        Verdict::Answered => "noted".to_owned(),
        Verdict::Illegal => "illegal".to_owned(),
        Verdict::Impossible => "impossible on your board".to_owned(),
        Verdict::Repeat => "already tried this turn".to_owned(),
        Verdict::Invalid(why) => format!("refused: {}", why.message()),
        Verdict::GameOver => "the game is over".to_owned(),
    }
}

/// Judges `command` (the human's or the bot's) and gives both players what they learn.
fn submit(
    game: &mut Game,
    me: &mut PlayerView,
    bot: &mut Box<dyn Agent>,
    command: Command,
    rules: &RuleSet,
    screen: &Screen,
) -> Result<(Outcome, Option<umpire_rules::Observation>), String> {
    let outcome = game.submit(command);
    play_observations(&mut **bot, !me.side(), command, &outcome).map_err(|e| e.to_string())?;
    let seen = tell(me, command, &outcome, rules, screen)?;
    Ok((outcome, seen))
}
