//! The referee's Kriegspiel PGN: real moves in SAN, everything else in comments.

use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, san::SanPlus, uci::UciMove};

use crate::record::game_record::VERSION;
use crate::record::movetext::{Movetext, tag_line};
use crate::record::notation::{command_token, heard_token, verdict_token};
use crate::record::{Entry, Record};
use crate::{Attempt, Command, Heard, SetupError, Umpire, Verdict};

/// A record that cannot be written as PGN because it does not describe a game (a replay
/// would fail too).
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The start position cannot be used.
    #[error("start position {fen:?}: {error}")]
    Setup {
        /// The recorded FEN.
        fen: String,
        /// Why it cannot be used.
        error: SetupError,
    },
    /// An accepted entry is not a legal move.
    #[error(
        "entry {number}: {command} is recorded as accepted but is not a legal move there",
        number = .index + 1
    )]
    Move {
        /// Index of the entry, from 0 (the message counts from 1).
        index: usize,
        /// The command.
        command: String,
    },
}

/// The side as one letter: `W` or `B`.
pub(crate) fn side_letter(c: Color) -> &'static str {
    c.fold_wb("W", "B")
}

/// The start position of a record.
pub(crate) fn start_position(record: &Record) -> Result<Chess, ExportError> {
    Umpire::from_fen(*record.rules.rules(), &record.fen)
        .map(|u| u.position().clone())
        .map_err(|error| ExportError::Setup {
            fen: record.fen.clone(),
            error,
        })
}

/// The chess move of an attempt in `pos`, if legal (a missing promotion piece means a queen,
/// as under always-queen rules).
pub(crate) fn attempt_move(pos: &Chess, a: Attempt) -> Option<Move> {
    let uci = UciMove::Normal {
        from: a.from,
        to: a.to,
        promotion: a.promotion,
    };
    if let Ok(m) = uci.to_move(pos) {
        return Some(m);
    }
    if a.promotion.is_none() {
        let queen = UciMove::Normal {
            from: a.from,
            to: a.to,
            promotion: Some(Role::Queen),
        };
        return queen.to_move(pos).ok();
    }
    None
}

/// The UCI text of a move, as the umpire takes attempts (castling: the king's two-square move).
pub(crate) fn move_uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

fn tokens(list: &[Heard]) -> impl Iterator<Item = String> + '_ {
    list.iter().map(|h| heard_token(*h))
}

/// The comment clause of a command that did not move: `W e2e5 illegal illegal@mover`.
fn entry_clause(e: &Entry) -> String {
    let mut words = vec![
        side_letter(e.side).to_owned(),
        command_token(e.command),
        verdict_token(e.verdict),
    ];
    words.extend(tokens(&e.announcements));
    words.join(" ")
}

/// Writes the tags every Kriegspiel PGN starts with: the roster, Result, the rule
/// set (no Variant tag: ordinary chess tools reject unknown variants and read the moves fine without it), the format version and the termination reason.
pub(crate) fn common_tags(
    out: &mut String,
    record_tags: &crate::record::Tags,
    rules: &str,
    result: Option<crate::GameResult>,
) {
    let mut rest = Vec::new();
    for (name, value) in record_tags.iter() {
        if crate::record::tags::ROSTER.iter().any(|(n, _)| *n == name) {
            tag_line(out, name, value);
        } else {
            rest.push((name, value));
        }
    }
    tag_line(out, "Result", result.map_or("*", |r| r.score()));
    tag_line(out, "KriegspielRules", rules);
    tag_line(out, "KriegspielFormat", &VERSION.to_string());
    if let Some(r) = result {
        tag_line(out, "KriegspielTermination", r.reason.as_str());
    }
    for (name, value) in rest {
        tag_line(out, name, value);
    }
}

impl Record {
    /// The referee's view as Kriegspiel PGN: the real moves in SAN (readable by ordinary PGN
    /// tools), every other command and every announcement, with its audience, in comments.
    /// [`Record::from_pgn`] reads it back into an equal record. See `docs/RECORDS.md`.
    pub fn to_pgn(&self) -> Result<String, ExportError> {
        let mut pos = start_position(self)?;
        let mut out = String::new();
        common_tags(&mut out, &self.tags, self.rules.as_str(), self.result);
        if !self.is_standard_start() {
            tag_line(&mut out, "SetUp", "1");
            tag_line(&mut out, "FEN", &self.fen);
        }
        out.push('\n');
        let mut text = Movetext::new(pos.turn(), pos.fullmoves().get());
        if !self.opening.is_empty() {
            let mut words = vec!["start".to_owned()];
            words.extend(tokens(&self.opening));
            text.clause(words.join(" "));
        }
        for (index, e) in self.entries.iter().enumerate() {
            match (e.verdict, e.command) {
                (Verdict::Accepted, Command::Attempt(a)) => {
                    let m = attempt_move(&pos, a).ok_or_else(|| ExportError::Move {
                        index,
                        command: e.command.to_text(),
                    })?;
                    let mut words = Vec::new();
                    if move_uci(m) != a.to_string() {
                        words.push("typed".to_owned());
                        words.push(command_token(e.command));
                    }
                    words.extend(tokens(&e.announcements));
                    let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
                    text.mv(&san.to_string());
                    text.clause(words.join(" "));
                }
                (Verdict::Accepted, _) => {
                    return Err(ExportError::Move {
                        index,
                        command: e.command.to_text(),
                    });
                }
                _ => text.clause(entry_clause(e)),
            }
        }
        out.push_str(&text.finish(self.result.map_or("*", |r| r.score())));
        Ok(out)
    }
}
