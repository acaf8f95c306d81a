//! `umpire schroedinger …` and `umpire play --game schroedinger`: Haft Schrödinger chess, in
//! which the back-rank men's natures are unknown and the umpire decides legality by SAT
//! solving (crate `umpire-schroedinger`).

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use umpire_schroedinger::shakmaty::{Bitboard, Color, File, Rank, Square};
use umpire_schroedinger::{
    CheckStatus, Command, Game, Kind, ManId, Move, RandomPlayer, Refusal, Umpire, Verdict,
    geometry, record,
};

use umpire_rules::wire::color_name;

use crate::console::input::{Line, Lines, Typed};
use crate::console::json_answer::{
    GameJson, JsonAnswer, answer_too_long, output_error, write_json,
};
use crate::console::save_file::check_new_record;
use crate::console::side::side_title;
use crate::console::stdout::{say, say_raw};

/// Which game `umpire play` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    /// Kriegspiel under `--rules`.
    Kriegspiel,
    /// Haft Schrödinger chess (open board, unknown natures); `--rules` does not apply.
    Schroedinger,
}

/// `umpire schroedinger …` subcommands.
#[derive(clap::Subcommand)]
pub enum SchroedingerAction {
    /// Be the umpire for two players at one console: read one command per line (a move in UCI
    /// like e2e4, with no promotion letter; resign; moves; status) and answer each line.
    Referee {
        /// Answer each line with exactly one JSON object (see docs/SCHROEDINGER.md).
        #[arg(long)]
        json: bool,
        /// At the end of input, save the game here as a JSON record.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Replay a Schrödinger record, checking every verdict and the result.
    Verify {
        /// A JSON record written by `umpire schroedinger referee` or `umpire play --game schroedinger`.
        file: PathBuf,
    },
}

/// Runs a `umpire schroedinger` subcommand.
pub fn run(action: SchroedingerAction) -> Result<(), String> {
    match action {
        SchroedingerAction::Referee { json, record } => referee(json, record.as_deref()),
        SchroedingerAction::Verify { file } => {
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            verify(&file, &text)
        }
    }
}

/// Replays the Schrödinger record `text` read from `file` and says what it holds.
pub fn verify(file: &Path, text: &str) -> Result<(), String> {
    let game = record::replay(text).map_err(|e| format!("{}: {e}", file.display()))?;
    let moves = game.umpire().moves().len();
    let result = game.umpire().ending().map_or("unfinished".to_owned(), |e| {
        format!("{} by {}", e.score(), e.reason.as_str())
    });
    say!(
        "{}: ok, {} entries, {moves} moves, {result}.",
        file.display(),
        game.entries().len()
    );
    Ok(())
}

fn save(game: &Game, path: &Path) -> Result<(), String> {
    fs::write(path, record::to_json(game)).map_err(|e| format!("{}: {e}", path.display()))
}

/// One man whose nature is unknown or was: back-rank and promoted men.
#[derive(Serialize)]
struct ManJson {
    man: String,
    square: Option<String>,
    natures: String,
}

fn men_json(umpire: &Umpire) -> Vec<ManJson> {
    ManId::all()
        .filter(|&m| umpire.board().kind(m) != Kind::Pawn)
        .map(|man| ManJson {
            man: man.to_string(),
            square: umpire.board().square_of(man).map(|s| s.to_string()),
            natures: umpire.possible_natures(man).to_string(),
        })
        .collect()
}

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
    to_move: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    men: Option<Vec<ManJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<GameJson>,
}

fn check_name(status: CheckStatus) -> &'static str {
    match status {
        CheckStatus::Never => "never",
        CheckStatus::Sometimes => "sometimes",
        CheckStatus::Always => "always",
    }
}

impl<'a> Answer<'a> {
    fn new(umpire: &Umpire, side: Color, input: &'a str, result: &'static str) -> Answer<'a> {
        Answer {
            side: color_name(side),
            input,
            command: None,
            result,
            reason: None,
            message: None,
            to_move: umpire.ending().is_none().then(|| color_name(umpire.turn())),
            check: None,
            men: None,
            moves: None,
            game: umpire.ending().map(|e| GameJson {
                result: e.score(),
                reason: e.reason.as_str(),
            }),
        }
    }
}

impl JsonAnswer for Answer<'_> {
    fn refuse(&mut self, reason: &'static str, message: String) {
        self.reason = Some(reason);
        self.message = Some(message);
    }
}

/// The board from White's side: pawns `P`/`p`, a man of known nature by its letter, a man of
/// unknown nature `X`/`x`; then the possible natures of every man not known for sure.
fn board_text(umpire: &Umpire) -> String {
    let board = umpire.board();
    let mut out = String::new();
    for rank in Rank::ALL.iter().rev() {
        let _ = write!(out, "  {} ", rank.char());
        for file in File::ALL {
            let sq = Square::from_coords(file, *rank);
            let c = match board.man_at(sq) {
                None => '.',
                Some(man) => {
                    let letter = match board.kind(man) {
                        Kind::Pawn => 'P',
                        _ => umpire
                            .possible_natures(man)
                            .single()
                            .map_or('X', |n| n.letter()),
                    };
                    if man.color() == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    }
                }
            };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("     a b c d e f g h\n");
    for color in Color::ALL {
        let unknown: Vec<String> = ManId::all()
            .filter(|m| m.color() == color && board.kind(*m) != Kind::Pawn)
            .filter(|&m| umpire.possible_natures(m).len() > 1)
            .map(|m| {
                let place = board
                    .square_of(m)
                    .map_or("captured".to_owned(), |s| s.to_string());
                format!("{}@{place} {}", m.start(), umpire.possible_natures(m))
            })
            .collect();
        if !unknown.is_empty() {
            let _ = writeln!(
                out,
                "  {} may be: {}",
                side_title(color),
                unknown.join(", ")
            );
        }
    }
    out
}

/// Why `command` was refused, in words that name the real reason: for a man with no nature
/// that moves so, whether one of its natures would, but a man stands in the way (the
/// position is unchanged by a refused move).
fn refusal_text(umpire: &Umpire, command: Command, why: Refusal) -> String {
    let Command::Move(mv) = command else {
        return why.message().to_owned();
    };
    if why != Refusal::NoNature {
        return why.message().to_owned();
    }
    let board = umpire.board();
    let Some(man) = board.man_at(mv.from) else {
        return why.message().to_owned();
    };
    let (from, to) = (mv.from, mv.to);
    if board.kind(man) == Kind::Pawn {
        let color = man.color();
        let empty = Bitboard::EMPTY;
        if geometry::pawn_attacks(color, from).contains(to) {
            return format!(
                "a pawn moves diagonally only to capture, and no enemy man stands on {to}"
            );
        }
        let pushes = geometry::pawn_targets(color, from, empty, empty);
        return if pushes.contains(to) {
            format!("the pawn's way from {from} to {to} is blocked: a man stands on its path")
        } else {
            "a pawn does not move like that".to_owned()
        };
    }
    let possible = umpire.possible_natures(man);
    if geometry::natures_reaching(possible, from, to, Bitboard::EMPTY).is_empty() {
        format!("no nature this man may still have ({possible}) moves from {from} to {to}")
    } else {
        format!(
            "the path from {from} to {to} is blocked: a man stands between them (a nature this man \
             may have moves like that on an open line)"
        )
    }
}

fn legal_moves(umpire: &mut Umpire) -> Vec<String> {
    let mut moves: Vec<Move> = Vec::new();
    umpire.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    names.sort();
    names
}

fn ending_text(umpire: &Umpire) -> Option<String> {
    umpire.ending().map(|e| {
        format!(
            "Game over: {} ({}).",
            e.score(),
            e.reason.as_str().replace('_', " ")
        )
    })
}

fn referee(json: bool, record: Option<&Path>) -> Result<(), String> {
    if let Some(path) = record {
        check_new_record(path, "--record")?;
    }
    let mut game = Game::new();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(
            out,
            "Schrödinger chess umpire. Type moves in UCI (e2e4; a promotion is e7e8, its nature unknown), or: resign, moves, status."
        )
        .map_err(output_error)?;
        write!(out, "{}", board_text(game.umpire())).map_err(output_error)?;
        writeln!(out, "White to move.").map_err(output_error)?;
    }
    let mut lines = Lines::new(stdin.lock());
    while let Some(line) = lines.next_line() {
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong { start } => {
                let umpire = game.umpire();
                let answer = json.then(|| Answer::new(umpire, umpire.turn(), start, "invalid"));
                answer_too_long(&mut out, answer, start)?;
                continue;
            }
        };
        if text.is_empty() && !json {
            continue;
        }
        let side = game.umpire().turn();
        let lower = text.to_ascii_lowercase();
        if lower == "status" || lower == "moves" {
            if json {
                let moves = legal_moves(game.umpire_mut());
                let check = game.umpire_mut().check_status();
                let mut answer = Answer::new(game.umpire(), side, text, "status");
                answer.check = Some(check_name(check));
                answer.men = Some(men_json(game.umpire()));
                answer.moves = Some(moves);
                write_json(&mut out, &answer)?;
            } else if lower == "moves" {
                let moves = legal_moves(game.umpire_mut());
                writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))
                    .map_err(output_error)?;
            } else {
                let check = game.umpire_mut().check_status();
                write!(out, "{}", board_text(game.umpire())).map_err(output_error)?;
                match ending_text(game.umpire()) {
                    Some(end) => writeln!(out, "{end}"),
                    None => writeln!(
                        out,
                        "{} to move; in check in {} world.",
                        side_title(side),
                        match check {
                            CheckStatus::Never => "no",
                            CheckStatus::Sometimes => "some",
                            CheckStatus::Always => "every",
                        }
                    ),
                }
                .map_err(output_error)?;
            }
            out.flush().map_err(output_error)?;
            continue;
        }
        match text.parse::<Command>() {
            Ok(command) => {
                let verdict = game.submit(command);
                if json {
                    let mut answer = Answer::new(game.umpire(), side, text, verdict.as_str());
                    answer.command = Some(command.to_string());
                    match verdict {
                        Verdict::Accepted => {
                            if game.umpire().ending().is_none() {
                                answer.check = Some(check_name(game.umpire_mut().check_status()));
                            }
                            answer.men = Some(men_json(game.umpire()));
                        }
                        Verdict::Illegal(why) => {
                            answer.refuse(why.as_str(), refusal_text(game.umpire(), command, why));
                        }
                    }
                    write_json(&mut out, &answer)?;
                } else {
                    match verdict {
                        Verdict::Accepted => {
                            writeln!(out, "{}: {command} - accepted.", side_title(side))
                                .map_err(output_error)?;
                            write!(out, "{}", board_text(game.umpire())).map_err(output_error)?;
                            match ending_text(game.umpire()) {
                                Some(end) => writeln!(out, "{end}"),
                                None => {
                                    writeln!(out, "{} to move.", side_title(game.umpire().turn()))
                                }
                            }
                            .map_err(output_error)?;
                        }
                        Verdict::Illegal(why) => {
                            writeln!(
                                out,
                                "{}: {command} - illegal: {}.",
                                side_title(side),
                                refusal_text(game.umpire(), command, why)
                            )
                            .map_err(output_error)?;
                        }
                    }
                }
            }
            Err(error) => {
                if json {
                    let mut answer = Answer::new(game.umpire(), side, text, "invalid");
                    answer.refuse("not_a_command", error.to_string());
                    write_json(&mut out, &answer)?;
                } else {
                    writeln!(out, "Not understood: {error}").map_err(output_error)?;
                }
            }
        }
        out.flush().map_err(output_error)?;
    }
    if let Some(path) = record {
        save(&game, path).map_err(|e| format!("--record {e}"))?;
    }
    Ok(())
}

const HELP: &str = "Type a move in UCI (e2e4; a promotion is e7e8, its nature unknown), or: moves, board, resign, help.";

/// `umpire play --game schroedinger`: the human against a random player that attempts only
/// legal moves. The board is open (Schrödinger chess hides only the natures). The game is
/// saved to `record` (checked before the game starts) at the end; end of input leaves the
/// game unfinished.
pub fn play(side: Color, seed: u64, record: &Path) -> Result<(), String> {
    check_new_record(record, "--record")?;
    let mut game = Game::new();
    for (name, value) in [
        ("Event", "umpire play --game schroedinger"),
        (side.fold_wb("White", "Black"), "you"),
        (side.fold_wb("Black", "White"), "random"),
        ("Seed", &seed.to_string()),
    ] {
        game.set_tag(name, value).map_err(|e| e.to_string())?;
    }
    let mut bot = RandomPlayer::new(seed);
    say!(
        "Haft Schrödinger chess: you play {}. {HELP}",
        color_name(side)
    );
    let stdin = io::stdin();
    let mut lines = Lines::new(stdin.lock());
    let mut show = true;
    while game.umpire().ending().is_none() {
        if game.umpire().turn() != side {
            let Some(mv) = bot.choose(game.umpire_mut()) else {
                break;
            };
            let verdict = game.submit(Command::Move(mv));
            debug_assert_eq!(verdict, Verdict::Accepted);
            say!("{} plays {mv}.", side_title(!side));
            show = true;
            continue;
        }
        if show {
            say_raw!("{}", board_text(game.umpire()));
            show = false;
        }
        say_raw!("{}> ", side_title(side));
        io::stdout().flush().map_err(|e| e.to_string())?;
        let text = match lines.typed() {
            Typed::End => break,
            Typed::Skipped => continue,
            Typed::Text(text) => text,
        };
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => say!("{HELP}"),
            "board" => say_raw!("{}", board_text(game.umpire())),
            "moves" => {
                let moves = legal_moves(game.umpire_mut());
                say!("{} legal moves: {}", moves.len(), moves.join(" "));
            }
            _ => match text.parse::<Command>() {
                Ok(command) => match game.submit(command) {
                    Verdict::Accepted => show = true,
                    Verdict::Illegal(why) => say!(
                        "{command}: illegal: {}.",
                        refusal_text(game.umpire(), command, why)
                    ),
                },
                Err(e) => say!("{e}"),
            },
        }
    }
    say_raw!("{}", board_text(game.umpire()));
    if let Some(end) = ending_text(game.umpire()) {
        say!("{end}");
    }
    save(&game, record)?;
    say!("Game saved to {}.", record.display());
    Ok(())
}
