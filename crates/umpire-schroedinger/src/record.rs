//! Schrödinger game records: versioned JSON holding the descriptive tags, the list of
//! commands with their verdicts, and the result. Everything else (positions, natures,
//! endings) is derived by replay, which fails loudly on any difference. Documented in `docs/SCHROEDINGER.md`.

use serde::{Deserialize, Serialize};

use umpire_rules::record::Tags;
use umpire_rules::wire::color_name;

use crate::game::{Command, Game, Verdict};
use crate::verdict::Refusal;

/// The `format` field of a record.
pub const FORMAT: &str = "umpire-schroedinger-record";
/// The record version this library writes and reads.
pub const VERSION: u64 = 1;

/// A record that cannot be read or does not replay.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the shape of a record.
    #[error("not a valid Schrödinger record: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format.
    #[error("not a Schrödinger record: format is {0:?}, expected \"umpire-schroedinger-record\"")]
    Format(String),
    /// Another version.
    #[error("unsupported Schrödinger record version {0}: this library reads version 1")]
    Version(u64),
    /// A bad or mismatching entry.
    #[error("record entry {number}: {error}", number = .index + 1)]
    Entry {
        /// Index in `entries`, from 0 (the message counts from 1).
        index: usize,
        /// What is wrong.
        error: String,
    },
    /// A result that is not the replayed one.
    #[error("record result: {0}")]
    Result(String),
}

#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u64>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordJson {
    format: String,
    version: u64,
    /// Written by every writer since tags were added; a record without them reads with the
    /// roster's unknown values.
    #[serde(default)]
    tags: Tags,
    entries: Vec<EntryJson>,
    result: Option<ResultJson>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryJson {
    side: String,
    command: String,
    verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
struct ResultJson {
    score: String,
    reason: String,
}

fn result_of(game: &Game) -> Option<ResultJson> {
    game.umpire().ending().map(|e| ResultJson {
        score: e.score().to_owned(),
        reason: e.reason.as_str().to_owned(),
    })
}

/// Whether `text` is JSON naming this format (whatever else it holds): how a reader of
/// several record formats picks this one.
pub fn is_record(text: &str) -> bool {
    serde_json::from_str::<Header>(text).is_ok_and(|h| h.format.as_deref() == Some(FORMAT))
}

/// The record of `game` as indented JSON.
pub fn to_json(game: &Game) -> String {
    let json = RecordJson {
        format: FORMAT.to_owned(),
        version: VERSION,
        tags: game.tags().clone(),
        entries: game
            .entries()
            .iter()
            .map(|e| EntryJson {
                side: color_name(e.side).to_owned(),
                command: e.command.to_string(),
                verdict: e.verdict.as_str().to_owned(),
                reason: match e.verdict {
                    Verdict::Illegal(why) => Some(why.as_str().to_owned()),
                    Verdict::Accepted => None,
                },
            })
            .collect(),
        result: result_of(game),
    };
    serde_json::to_string_pretty(&json).unwrap_or_default()
}

/// Reads a record and replays it: every command is judged again and must get the verdict the
/// record gives; the result must be the one the replay reaches. Returns the replayed game.
pub fn replay(text: &str) -> Result<Game, RecordError> {
    let header: Header = serde_json::from_str(text)?;
    match header.format.as_deref() {
        Some(FORMAT) => {}
        other => return Err(RecordError::Format(other.unwrap_or_default().to_owned())),
    }
    match header.version {
        Some(VERSION) => {}
        other => return Err(RecordError::Version(other.unwrap_or(0))),
    }
    let json: RecordJson = serde_json::from_str(text)?;
    let mut game = Game::new();
    game.set_tags(json.tags);
    for (index, e) in json.entries.iter().enumerate() {
        let error = |error: String| RecordError::Entry { index, error };
        let command: Command = e
            .command
            .parse()
            .map_err(|err| error(format!("command: {err}")))?;
        let expected = match (e.verdict.as_str(), e.reason.as_deref()) {
            ("accepted", None) => Verdict::Accepted,
            ("illegal", Some(reason)) => Verdict::Illegal(
                refusal(reason).ok_or_else(|| error(format!("unknown reason {reason:?}")))?,
            ),
            (verdict, reason) => {
                return Err(error(format!(
                    "verdict {verdict:?} with reason {reason:?}: expected \"accepted\" without a reason or \"illegal\" with one"
                )));
            }
        };
        let side = game.umpire().turn();
        if e.side != color_name(side) {
            return Err(error(format!(
                "side {:?}, but {} is to move",
                e.side,
                color_name(side)
            )));
        }
        if game.umpire().ending().is_some() {
            return Err(error("the game is already over".to_owned()));
        }
        let verdict = game.submit(command);
        if verdict != expected {
            return Err(error(format!(
                "{command} is {} on replay, the record says {}",
                describe(verdict),
                describe(expected)
            )));
        }
    }
    let replayed = result_of(&game);
    if replayed != json.result {
        return Err(RecordError::Result(format!(
            "the record says {:?}, the replay gives {:?}",
            json.result, replayed
        )));
    }
    Ok(game)
}

fn describe(verdict: Verdict) -> String {
    match verdict {
        Verdict::Accepted => "accepted".to_owned(),
        Verdict::Illegal(why) => format!("illegal ({})", why.as_str()),
    }
}

fn refusal(text: &str) -> Option<Refusal> {
    [
        Refusal::GameOver,
        Refusal::NotYourMan,
        Refusal::OwnMan,
        Refusal::NoNature,
        Refusal::NoWorld,
    ]
    .into_iter()
    .find(|r| r.as_str() == text)
}
