//! `umpire play`: a game at the terminal against a built-in opponent.
//!
//! The game loop owns the umpire (inside the recorded `Game`), the human's `PlayerView` and the
//! opponent `Agent`; it feeds the human's observations to the [`Screen`], which alone decides
//! what is printed (see `play_screen`). The record is rewritten in one step after every
//! command, so Ctrl-C, a closed terminal or a crash leave a valid record of the game so far;
//! Ctrl-C is handled explicitly ([`crate::interrupt`]), even when the process was started with
//! SIGINT ignored.
//! End of input (and `quit`) leaves the game unfinished and saved; it never resigns.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use umpire_ai::{Agent, AgentConfig, AgentSpec, Budget, play_observations};

use crate::input::{Line, Lines};
use crate::interrupt::Interrupt;
use crate::play_screen::{PLAY_WORDS, Screen, collapse, end_screen, help};
use crate::stdout::{say, say_raw};
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, AttemptList, Command, Verdict};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// What to play.
pub struct PlayArgs {
    /// Rule set.
    pub rules: umpire_rules::RuleSet,
    /// The human's side.
    pub side: Color,
    /// Seed of the opponent (never shown during the game).
    pub seed: u64,
    /// The opponent: a built-in agent or an engine program (`cmd:`).
    pub opponent: AgentSpec,
    /// The opponent's thinking budget per decision.
    pub budget: Budget,
    /// Where the record is kept (JSON, or PGN if the name ends in .pgn); checked before the
    /// game starts and rewritten after every command.
    pub record: PathBuf,
}

/// The game in progress: the umpire's record, the human's view and screen, the opponent.
struct Table {
    game: Game,
    me: PlayerView,
    screen: Screen,
    bot: Box<dyn Agent>,
    record: PathBuf,
    interrupt: Interrupt,
}

impl Table {
    /// Judges `command` (the human's or the bot's), gives both players what they learn, saves
    /// the record, and returns the verdict and what the human's screen says (maybe empty).
    fn submit(&mut self, command: Command) -> Result<(Verdict, bool, String), String> {
        let outcome = self.game.submit(command);
        play_observations(&mut *self.bot, !self.me.side(), command, &outcome)
            .map_err(|e| e.to_string())?;
        let mut text = String::new();
        let mut moved = false;
        if let Some(seen) = outcome.observation(command, self.me.side()) {
            text = self.screen.hear(&self.me, &seen);
            moved = seen.moved;
            self.me.observe(&seen).map_err(|e| e.to_string())?;
        }
        self.save()?;
        Ok((outcome.verdict, moved, text))
    }

    fn save(&self) -> Result<(), String> {
        let _held = self.interrupt.hold();
        crate::record_cmd::save(self.game.record(), &self.record)
            .map_err(|e| format!("cannot save the game: {e}"))
    }

    fn over(&self) -> bool {
        self.game.result().is_some()
    }
}

/// `{stem}-{now}.json` in the current directory, or with `-2`, `-3`, … added if that exists.
pub fn fresh_name(stem: &str, now: u64) -> PathBuf {
    let mut name = PathBuf::from(format!("{stem}-{now}.json"));
    let mut n = 2;
    while name.exists() {
        name = PathBuf::from(format!("{stem}-{now}-{n}.json"));
        n += 1;
    }
    name
}

/// Runs the game until it ends, the human leaves or the input ends.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    crate::save_file::check_new_record(&args.record, "--record")?;
    let colour = io::stdout().is_terminal();
    let rules = args.rules;
    let human = args.side;
    let mut game = Game::new(rules);
    game.set_tag(human.fold_wb("White", "Black"), "you")
        .map_err(|e| e.to_string())?;
    let opponent_name = args.opponent.to_string();
    game.set_tag(human.fold_wb("Black", "White"), &opponent_name)
        .map_err(|e| e.to_string())?;
    let mut me = PlayerView::standard(rules, human);
    let mut bot = args.opponent.build(
        PlayerView::standard(rules, !human),
        args.seed,
        &AgentConfig {
            budget: args.budget,
            ..AgentConfig::default()
        },
    );
    let opening: Vec<Announcement> = game
        .umpire()
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    me.hear_opening(opening.iter().copied());
    bot.hear_opening(&opening);
    let screen = Screen::new(&me, colour);
    let mut table = Table {
        game,
        me,
        screen,
        bot,
        record: args.record.clone(),
        interrupt: Interrupt::install(&args.record)?,
    };
    table.save()?;

    say!("{}", table.screen.welcome(&opponent_name));
    say_raw!("{}", table.screen.board(&table.me));
    say!("{}", table.screen.status(&table.me));
    let stdin = io::stdin();
    let mut lines = Lines::new(stdin.lock());
    while !table.over() {
        if table.game.umpire().turn() != human {
            // The opponent's turn, told in one piece: runs of its rejected attempts counted.
            let mut heard = Vec::new();
            while !table.over() && table.game.umpire().turn() != human {
                let command = table.bot.choose();
                let (_, _, text) = table.submit(command)?;
                if !text.is_empty() {
                    heard.push(text);
                }
            }
            if !heard.is_empty() {
                say!("{}", collapse(&heard));
            }
            if !table.over() {
                say_raw!("{}", table.screen.board(&table.me));
                say!("{}", table.screen.status(&table.me));
            }
            continue;
        }
        say_raw!("{}", table.screen.prompt(&table.me));
        io::stdout().flush().map_err(|e| e.to_string())?;
        let text = match lines.next_line() {
            None => {
                say!("");
                say!("End of input: you leave the game unfinished (it is not resigned).");
                break;
            }
            Some(Line::TooLong { start }) => {
                say!("\"{start}\": {}", Line::too_long_message());
                continue;
            }
            Some(Line::Text(text)) => text,
        };
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("why")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            say!("{}", why_text(&table.me, text[3..].trim()));
            continue;
        }
        match lower.as_str() {
            "" => continue,
            "help" | "?" => say!("{}", help()),
            "board" => say_raw!("{}", table.screen.board(&table.me)),
            "status" => say!("{}", table.screen.status(&table.me)),
            "history" => say!("{}", table.screen.history()),
            "options" => say!("{}", options_text(&table.me)),
            "quit" | "exit" => {
                say!("You leave the game unfinished (it is not resigned).");
                break;
            }
            _ => match table.me.own_board().parse_command(text) {
                Ok(command) => play_command(&mut table, command)?,
                Err(umpire_rules::CommandParseError::NotACommand(_)) => {
                    say!("{}", crate::console::unknown_command(text, PLAY_WORDS));
                }
                Err(e) => say!("{e}"),
            },
        }
    }
    say!(
        "{}",
        end_screen(table.game.record(), human, &table.record, colour)
    );
    Ok(())
}

/// Plays the human's `command`: the answer, the bot's answer to a draw offer, and after an
/// illegal attempt how many attempts could still be legal.
fn play_command(table: &mut Table, command: Command) -> Result<(), String> {
    let (verdict, _, text) = table.submit(command)?;
    say!("{text}");
    if verdict == Verdict::Answered && command == Command::OfferDraw && !table.over() {
        let answer = if table.bot.accepts_draw() {
            Command::AcceptDraw
        } else {
            Command::DeclineDraw
        };
        let (_, _, text) = table.submit(answer)?;
        if !text.is_empty() {
            say!("{text}");
        }
    }
    if verdict == Verdict::Illegal && table.me.is_my_turn() {
        let mut left = AttemptList::new();
        let may_ask = GuidedSpace::new(&table.me, FilterSet::all_sound()).options(&mut left);
        let n = left.len() + usize::from(may_ask);
        say!("{n} attempts could still be legal (`options` lists them).");
    }
    Ok(())
}

/// The attempts the guided action space (every sound filter) offers, and how many the own
/// board would allow.
pub(crate) fn options_text(me: &PlayerView) -> String {
    if !me.is_my_turn() {
        return "It is not your turn.".to_owned();
    }
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

/// Why the guided action space hides `what` (a move in SAN or UCI), in plain sentences with
/// the filters' ids in brackets.
pub(crate) fn why_text(me: &PlayerView, what: &str) -> String {
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
    let mut text = format!("{attempt} cannot be legal:");
    for id in rules {
        text.push_str(&format!(
            "\n  {} [{}]",
            umpire_view::guided::explain(&space, id, attempt),
            id.as_str()
        ));
    }
    text
}
