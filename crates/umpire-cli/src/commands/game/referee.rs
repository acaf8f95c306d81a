//! `umpire referee`: the umpire as a console program, one command per line.
//!
//! It is the umpire operator's console: every answer names the side, the move and who hears
//! each announcement, so whoever reads it knows more than either player. Players who must not
//! see each other's moves use `umpire play`, or an operator relays what each may hear.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;
use umpire_rules::record::Game;
use umpire_rules::wire::{AnnouncementJson, color_name};
use umpire_rules::{Command, GameResult, Outcome, RuleSet, Umpire, Verdict};

use crate::console::input::{Line, Lines};
use crate::console::interrupt::{Farewell, Interrupt, Out};
use crate::console::json_answer::{
    GameJson, JsonAnswer, answer_too_long, output_error, write_json,
};
use crate::console::record_file;
use crate::console::save_file::check_new_record;
use crate::console::side::side_title;
use crate::console::words::{GAME_COMMANDS, refusal, unknown_command};

/// The JSON answer to one input line.
#[derive(Serialize)]
struct Answer<'a> {
    side: &'static str,
    input: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    announcements: Vec<AnnouncementJson>,
    to_move: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<GameJson>,
}

impl<'a> Answer<'a> {
    /// An answer by `side` with no command, reason, message or announcements yet; the state
    /// fields (`to_move`, `game`) are taken from the umpire after the command.
    fn new(
        umpire: &Umpire,
        side: shakmaty::Color,
        input: &'a str,
        result: &'static str,
    ) -> Answer<'a> {
        Answer {
            side: color_name(side),
            input,
            command: None,
            result,
            reason: None,
            message: None,
            announcements: Vec::new(),
            to_move: (!umpire.is_over()).then(|| color_name(umpire.turn())),
            game: game_json(umpire.result()),
        }
    }
}

impl JsonAnswer for Answer<'_> {
    fn refuse(&mut self, reason: &'static str, message: String) {
        self.reason = Some(reason);
        self.message = Some(message);
    }
}

fn game_json(result: Option<GameResult>) -> Option<GameJson> {
    result.map(|r| GameJson {
        result: r.score(),
        reason: r.reason.as_str(),
    })
}

/// The words the referee console takes besides moves and the game commands.
const REFEREE_COMMANDS: &str = "status (the side to move and the move number), help";

/// Runs the console until end of input. With `record`, the path is checked before anything
/// else and the record (JSON, or PGN when the name ends in `.pgn`) is rewritten in one step
/// after every command, so the game so far survives Ctrl-C. Returns what stopped it, if it
/// failed.
pub fn run(
    rules: RuleSet,
    fen: Option<&str>,
    json: bool,
    record: Option<&Path>,
) -> Result<(), String> {
    if let Some(path) = record {
        check_new_record(path, "--record")?;
    }
    let mut game = match fen {
        Some(fen) => Game::from_fen(rules, fen).map_err(|e| format!("--fen: {e}"))?,
        None => Game::new(rules),
    };
    // Ctrl-C says what became of the game (on stderr: stdout may be JSON lines).
    let farewell = match record {
        Some(path) => format!(
            "Interrupted: the game so far is saved in {} (`umpire record verify` checks it).",
            path.display()
        ),
        None => "Interrupted: the game is not saved (give --record FILE to keep it).".to_owned(),
    };
    let interrupt = Interrupt::install_with(Farewell::new(farewell), Out::Stderr)?;
    let save = |game: &Game| match record {
        Some(path) => {
            let _held = interrupt.hold();
            record_file::save(game.record(), path).map_err(|e| format!("--record {e}"))
        }
        None => Ok(()),
    };
    save(&game)?;
    answer_lines(&mut game, &rules, json, &save)
}

fn answer_lines(
    game: &mut Game,
    rules: &RuleSet,
    json: bool,
    save: &dyn Fn(&Game) -> Result<(), String>,
) -> Result<(), String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(
            out,
            "Kriegspiel umpire, rules: {} ({}).",
            rules.id, rules.name
        )
        .map_err(output_error)?;
        writeln!(
            out,
            "This is the umpire operator's console: it shows every move and whom each announcement \
             is for, so the players must not read it (`umpire play` shows a player only its own side)."
        )
        .map_err(output_error)?;
        writeln!(out, "{}", help_text()).map_err(output_error)?;
        for heard in game.umpire().opening_announcements() {
            writeln!(out, "Umpire: {}", rules.phrase(heard.announcement)).map_err(output_error)?;
        }
        if let Some(result) = game.result() {
            writeln!(out, "Game over: {result}.").map_err(output_error)?;
        } else {
            writeln!(out, "{} to move.", side_title(game.umpire().turn())).map_err(output_error)?;
        }
    }
    // A line that is not UTF-8 is garbage like any other, answered as not a command: it must
    // neither stop the referee nor lose the game.
    let mut lines = Lines::new(stdin.lock());
    while let Some(line) = lines.next_line() {
        let input = match line {
            Line::Text(text) => text,
            Line::TooLong { start } => {
                let umpire = game.umpire();
                let answer = json.then(|| Answer::new(umpire, umpire.turn(), start, "invalid"));
                answer_too_long(&mut out, answer, start)?;
                continue;
            }
        };
        if input.is_empty() && !json {
            continue;
        }
        if !json && (input.eq_ignore_ascii_case("help") || input == "?") {
            writeln!(out, "{}", help_text()).map_err(output_error)?;
            out.flush().map_err(output_error)?;
            continue;
        }
        if input.eq_ignore_ascii_case("status") {
            let umpire = game.umpire();
            if json {
                let mut answer = Answer::new(umpire, umpire.turn(), input, "status");
                if game.record().entries.is_empty() {
                    answer.announcements = umpire
                        .opening_announcements()
                        .iter()
                        .map(|h| AnnouncementJson::heard(*h))
                        .collect();
                }
                write_json(&mut out, &answer)?;
            } else {
                match umpire.result() {
                    Some(result) => writeln!(out, "Game over: {result}."),
                    None => writeln!(
                        out,
                        "{} to move, move {}.",
                        side_title(umpire.turn()),
                        umpire.plies() / 2 + 1
                    ),
                }
                .map_err(output_error)?;
            }
            out.flush().map_err(output_error)?;
            continue;
        }
        let parsed = game.umpire().own_board().parse_command(input);
        match parsed {
            Ok(command) => {
                // Every line is the side to move's: it may not answer its own draw offer.
                let outcome = game.submit_as(game.umpire().turn(), command);
                save(game)?;
                let umpire = game.umpire();
                if json {
                    let mut answer =
                        Answer::new(umpire, outcome.side, input, outcome.verdict.as_str());
                    answer.command = Some(command.to_text());
                    answer.announcements = outcome
                        .announcements
                        .iter()
                        .map(|h| AnnouncementJson::heard(*h))
                        .collect();
                    match outcome.verdict {
                        Verdict::Invalid(why) => answer.refuse(why.as_str(), refusal(why)),
                        Verdict::GameOver => answer.message = Some("the game is over".to_owned()),
                        _ => {}
                    }
                    write_json(&mut out, &answer)?;
                } else {
                    write_plain(&mut out, rules, umpire, command, &outcome)
                        .map_err(output_error)?;
                }
            }
            Err(error) => {
                let umpire = game.umpire();
                if json {
                    let message = match error {
                        umpire_rules::CommandParseError::NotACommand(_) => {
                            unknown_command(input, "status")
                        }
                        other => other.to_string(),
                    };
                    let mut answer = Answer::new(umpire, umpire.turn(), input, "invalid");
                    answer.refuse("not_a_command", message);
                    write_json(&mut out, &answer)?;
                } else {
                    match error {
                        umpire_rules::CommandParseError::NotACommand(_) => {
                            writeln!(out, "{}", unknown_command(input, "status, help"))
                        }
                        other => writeln!(out, "Not understood: {other}"),
                    }
                    .map_err(output_error)?;
                }
            }
        }
        out.flush().map_err(output_error)?;
    }
    Ok(())
}

fn write_plain(
    out: &mut impl Write,
    rules: &RuleSet,
    umpire: &Umpire,
    command: Command,
    outcome: &Outcome,
) -> io::Result<()> {
    let who = side_title(outcome.side);
    let verdict = match outcome.verdict {
        Verdict::Accepted => "move made".to_owned(),
        Verdict::Answered => "noted".to_owned(),
        Verdict::Illegal => "illegal".to_owned(),
        Verdict::Impossible => "impossible on your own board".to_owned(),
        Verdict::Repeat => "already rejected this turn".to_owned(),
        Verdict::Invalid(why) => format!("refused: {}", refusal(why)),
        Verdict::GameOver => "the game is over".to_owned(),
    };
    // The console's own words for the draw commands (the record keeps `draw offer` etc.).
    let said = match command {
        Command::OfferDraw => "draw".to_owned(),
        Command::AcceptDraw => "accept".to_owned(),
        Command::DeclineDraw => "decline".to_owned(),
        other => other.to_string(),
    };
    writeln!(out, "{who}: {said} - {verdict}.")?;
    for heard in &outcome.announcements {
        let to = match heard.audience {
            umpire_rules::Audience::Both => "to both".to_owned(),
            umpire_rules::Audience::Mover => format!("to {who} only"),
            umpire_rules::Audience::Opponent => format!("to {} only", side_title(!outcome.side)),
        };
        writeln!(out, "  Umpire ({to}): {}", rules.phrase(heard.announcement))?;
    }
    if let Some(result) = umpire.result() {
        writeln!(out, "Game over: {result}.")?;
    } else if outcome.is_accepted() {
        writeln!(out, "{} to move.", side_title(umpire.turn()))?;
    }
    Ok(())
}

/// The referee's help: moves, the game commands and its own words.
fn help_text() -> String {
    format!(
        "Type the side to move's command: a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, \
         e1g1, e7e8q), or one of: {GAME_COMMANDS}, {REFEREE_COMMANDS}."
    )
}
