//! `umpire play`: a game at the terminal against a built-in opponent.
//!
//! The game loop owns the umpire (inside the recorded `Game`), the human's `PlayerView` and the
//! opponent `Agent`; it feeds the human's observations to the [`Screen`], which alone decides
//! what is printed (see `play_screen`). The record is rewritten in one step after every
//! command, so Ctrl-C, a closed terminal or a crash leave a valid record of the game so far;
//! Ctrl-C is handled explicitly ([`crate::console::interrupt`]), even when the process was started with
//! SIGINT ignored.
//! End of input (and `quit`) leaves the game unfinished and saved; it never resigns.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use umpire_ai::{Agent, AgentConfig, AgentSpec, Budget, play_observations};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, RuleSetId, Verdict};
use umpire_view::PlayerView;

use super::schroedinger::{self, GameKind};
use crate::commands::agent_help::{DEFAULT_OPPONENT, agent_help};
use crate::console::input::{Lines, Typed};
use crate::console::interrupt::Interrupt;
use crate::console::options::still_legal_text;
use crate::console::record_file;
use crate::console::save_file::{check_new_record, fresh_name};
use crate::console::side::Side;
use crate::console::stdout::{say, say_raw};
use crate::console::typed_command::{NotSent, player_command};
use crate::console::wording::collapse;
use crate::console::words::unknown_command;
use crate::play_screen::{PLAY_WORDS, Screen, end_screen, help};

/// The options of `umpire play`.
#[derive(clap::Args)]
pub struct PlayOptions {
    /// Rule set: wild16 (default), berkeley, berkeley-any, cincinnati, english, rand, umpire1965.
    #[arg(long)]
    rules: Option<RuleSetId>,
    /// Your side.
    #[arg(long, value_enum, default_value = "white")]
    side: Side,
    /// Seed of the opponent's choices (default: from the operating system's entropy; never
    /// shown during the game).
    #[arg(long)]
    seed: Option<u64>,
    // Your opponent (the help lists the built-in agents).
    #[arg(long, value_name = "NAME", help = agent_help(
        "Your opponent, a built-in agent (default mcts):",
        "or cmd:PROGRAM ARGS, an engine-protocol program (docs/ENGINE.md)."))]
    opponent: Option<AgentSpec>,
    /// The opponent's thinking time per decision in milliseconds (searching agents;
    /// default 100).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Keep the game here, rewritten after every command (JSON record, or PGN if the name
    /// ends in .pgn); checked before the game starts. Default umpire-game-<unix time>.json
    /// in the current directory (a new name if that exists). End of input or `quit` leaves
    /// the game unfinished in the record; it never resigns.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Go on with the unfinished game of `umpire play` kept in this record (JSON or PGN): the
    /// rule set, your side and the opponent are the record's, and the record is kept there.
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["rules", "side", "opponent", "record", "game"])]
    resume: Option<PathBuf>,
    /// The game: kriegspiel (default) or schroedinger (Haft Schrödinger chess; --rules
    /// does not apply, records are JSON).
    #[arg(long, value_enum, default_value = "kriegspiel")]
    game: GameKind,
}

/// Runs `umpire play` with its options: a Kriegspiel game, or a Haft Schrödinger one.
pub fn play(options: PlayOptions) -> Result<(), String> {
    let PlayOptions {
        rules,
        side,
        seed,
        opponent,
        movetime,
        record,
        resume,
        game,
    } = options;
    // The opponent's seed comes from the operating system unless given; it is never
    // shown, and the default record name (from the clock) says nothing of it.
    let seed = match seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(|e| format!("no random seed from the system: {e}"))?,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .to_string();
    let budget = movetime.map_or_else(Budget::default, |ms| {
        Budget::Time(std::time::Duration::from_millis(ms))
    });
    if let Some(path) = resume {
        return run(&resumed(path, seed, budget)?);
    }
    if game == GameKind::Schroedinger {
        let refused = if rules.is_some() {
            Some("--rules")
        } else if opponent.is_some() {
            Some("--opponent")
        } else if movetime.is_some() {
            Some("--movetime")
        } else if record
            .as_ref()
            .is_some_and(|r| r.extension().is_some_and(|e| e == "pgn"))
        {
            Some("a .pgn --record")
        } else {
            None
        };
        if let Some(what) = refused {
            return Err(format!(
                "{what} does not apply to --game schroedinger (one set of rules, a random opponent, JSON records)"
            ));
        }
        let record = record.unwrap_or_else(|| fresh_name("umpire-schroedinger", &now));
        return schroedinger::play(side.into(), seed, &record);
    }
    run(&PlayArgs {
        rules: *rules.unwrap_or(RuleSetId::Wild16).rules(),
        side: side.into(),
        seed,
        opponent: opponent.unwrap_or(AgentSpec::Builtin(DEFAULT_OPPONENT)),
        budget,
        record: record.unwrap_or_else(|| fresh_name("umpire-game", &now)),
        resume: None,
    })
}

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
    /// game starts (unless resumed) and rewritten after every command.
    pub record: PathBuf,
    /// The unfinished game to go on with (`--resume`): its record, read from `record`.
    pub resume: Option<Record>,
}

/// What `--resume FILE` plays: the unfinished game of `umpire play` in `path`, checked by
/// replay, with the human on the side whose tag is "you" and the opponent named by the other.
fn resumed(path: PathBuf, seed: u64, budget: Budget) -> Result<PlayArgs, String> {
    let record = record_file::load(&path)?;
    record
        .replay()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(result) = record.result {
        return Err(format!(
            "{}: the game is over ({result}); there is nothing to resume",
            path.display()
        ));
    }
    if !record.is_standard_start() {
        return Err(format!(
            "{}: `umpire play` plays from the standard start; this game starts elsewhere",
            path.display()
        ));
    }
    let side = match (record.tags.get("White"), record.tags.get("Black")) {
        (Some("you"), _) => Color::White,
        (_, Some("you")) => Color::Black,
        _ => {
            return Err(format!(
                "{}: not a game of `umpire play` (neither White nor Black is \"you\")",
                path.display()
            ));
        }
    };
    let name = record
        .tags
        .get(side.fold_wb("Black", "White"))
        .unwrap_or_default();
    let opponent: AgentSpec = name
        .parse()
        .map_err(|e| format!("{}: the opponent: {e}", path.display()))?;
    Ok(PlayArgs {
        rules: *record.rules.rules(),
        side,
        seed,
        opponent,
        budget,
        record: path,
        resume: Some(record),
    })
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
        record_file::save(self.game.record(), &self.record)
            .map_err(|e| format!("cannot save the game: {e}"))
    }

    fn over(&self) -> bool {
        self.game.result().is_some()
    }
}

/// Runs the game until it ends, the human leaves or the input ends.
fn run(args: &PlayArgs) -> Result<(), String> {
    if args.resume.is_none() {
        check_new_record(&args.record, "--record")?;
    }
    let colour = io::stdout().is_terminal();
    let rules = args.rules;
    let human = args.side;
    let mut game = Game::new(rules);
    game.set_tag(human.fold_wb("White", "Black"), "you")
        .map_err(|e| e.to_string())?;
    let opponent_name = args.opponent.to_string();
    game.set_tag(human.fold_wb("Black", "White"), &opponent_name)
        .map_err(|e| e.to_string())?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    game.set_tag("Date", &umpire_rules::record::pgn_date(now))
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
    if rules.id == RuleSetId::Wild16 && args.opponent.uses_tables() {
        // Loaded (built, on a first run) while the human plays the opening, so that no
        // decision of the opponent waits for them later; `UMPIRE_TABLES=lazy` loads each at its
        // first need instead. The opponent's moves are the same either way.
        let loading = umpire_ai::endgame::TableLoading::from_option_or_env(None)?;
        let _ = loading.start(umpire_ai::endgame::EndgameConfig::default());
    }
    let opening = umpire_ai::opening_heard(game.umpire());
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
    if let Some(old) = &args.resume {
        // The tags as they were (the date the game began), then every command again: both
        // players hear exactly what they heard, and the screen's history is rebuilt.
        for (name, value) in old.tags.iter() {
            table.game.set_tag(name, value).map_err(|e| e.to_string())?;
        }
        for entry in &old.entries {
            table.submit(entry.command)?;
        }
    }
    table.save()?;

    say!("{}", table.screen.welcome(&opponent_name));
    if let Some(old) = &args.resume {
        say!(
            "Resumed from {} after {} command(s); `history` shows what happened.",
            args.record.display(),
            old.entries.len()
        );
    }
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
        let text = match lines.typed() {
            Typed::End => break,
            Typed::Skipped => continue,
            Typed::Text(text) => text,
        };
        if let Some(answer) = table.screen.answer(&table.me, text) {
            say_raw!("{answer}");
            continue;
        }
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "help" | "?" => say!("{}", help()),
            "quit" | "exit" => {
                say!("You leave the game unfinished (it is not resigned).");
                break;
            }
            _ => match player_command(&table.me, text) {
                Ok(command) => {
                    if matches!(command, Command::Attempt(_)) {
                        table.screen.noted(text);
                    }
                    play_command(&mut table, command)?;
                }
                Err(NotSent::NotACommand) => {
                    say!("{}", unknown_command(text, PLAY_WORDS));
                }
                Err(NotSent::Refused(why)) => say!("{why}"),
            },
        }
    }
    say!(
        "{}",
        end_screen(table.game.record(), human, &table.record, colour)
    );
    if !table.over() {
        say!(
            "Go on with it later: umpire play --resume {}",
            table.record.display()
        );
    }
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
        say!("{}", still_legal_text(&table.me));
    }
    Ok(())
}
