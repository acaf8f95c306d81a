//! `umpire referee`: the umpire as a console program, one command per line.

use std::io::{self, Write};
use std::path::Path;

use crate::console::{GameJson, side_title, write_json};
use crate::input::Lines;
use serde::Serialize;
use umpire_rules::record::Game;
use umpire_rules::wire::{AnnouncementJson, color_name};
use umpire_rules::{Command, GameResult, Outcome, RuleSet, Umpire, Verdict};

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

fn game_json(result: Option<GameResult>) -> Option<GameJson> {
    result.map(|r| GameJson {
        result: r.score(),
        reason: r.reason.as_str(),
    })
}

/// Runs the console until end of input, then writes the record to `record` (JSON, or PGN
/// when the name ends in `.pgn`) if asked. Returns what stopped it, if it failed.
pub fn run(
    rules: RuleSet,
    fen: Option<&str>,
    json: bool,
    record: Option<&Path>,
) -> Result<(), String> {
    let mut game = match fen {
        Some(fen) => Game::from_fen(rules, fen).map_err(|e| format!("--fen: {e}"))?,
        None => Game::new(rules),
    };
    answer_lines(&mut game, &rules, json)?;
    if let Some(path) = record {
        crate::record_cmd::save(game.record(), path).map_err(|e| format!("--record {e}"))?;
    }
    Ok(())
}

fn answer_lines(game: &mut Game, rules: &RuleSet, json: bool) -> Result<(), String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let io_err = |e: io::Error| format!("output: {e}");
    if !json {
        writeln!(
            out,
            "Kriegspiel umpire, rules: {} ({}).",
            rules.id, rules.name
        )
        .map_err(io_err)?;
        writeln!(
            out,
            "Type moves in UCI (e2e4) or SAN (Nf3), or: any, draw offer, draw accept, draw decline, resign."
        )
        .map_err(io_err)?;
        for heard in game.umpire().opening_announcements() {
            writeln!(out, "Umpire: {}", rules.phrase(heard.announcement)).map_err(io_err)?;
        }
        if let Some(result) = game.result() {
            writeln!(out, "Game over: {result}.").map_err(io_err)?;
        } else {
            writeln!(out, "{} to move.", side_title(game.umpire().turn())).map_err(io_err)?;
        }
    }
    // A line that is not UTF-8 is garbage like any other, answered as not a command: it must
    // neither stop the referee nor lose the game.
    let mut lines = Lines::new(stdin.lock());
    while let Some(input) = lines.next_line() {
        if input.is_empty() && !json {
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
                .map_err(io_err)?;
            }
            out.flush().map_err(io_err)?;
            continue;
        }
        let parsed = game.umpire().own_board().parse_command(input);
        match parsed {
            Ok(command) => {
                // Every line is the side to move's: it may not answer its own draw offer.
                let outcome = game.submit_as(game.umpire().turn(), command);
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
                        Verdict::Invalid(why) => {
                            answer.reason = Some(why.as_str());
                            answer.message = Some(why.message().to_owned());
                        }
                        Verdict::GameOver => answer.message = Some("the game is over".to_owned()),
                        _ => {}
                    }
                    write_json(&mut out, &answer)?;
                } else {
                    write_plain(&mut out, rules, umpire, command, &outcome).map_err(io_err)?;
                }
            }
            Err(error) => {
                let umpire = game.umpire();
                if json {
                    let mut answer = Answer::new(umpire, umpire.turn(), input, "invalid");
                    answer.reason = Some("not_a_command");
                    answer.message = Some(error.to_string());
                    write_json(&mut out, &answer)?;
                } else {
                    writeln!(out, "Not understood: {error}").map_err(io_err)?;
                }
            }
        }
        out.flush().map_err(io_err)?;
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
        Verdict::Invalid(why) => format!("refused: {}", why.message()),
        Verdict::GameOver => "the game is over".to_owned(),
    };
    writeln!(out, "{who}: {command} - {verdict}.")?;
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
