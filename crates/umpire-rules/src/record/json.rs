//! The JSON form of a [`Record`] (version 1), described in `docs/RECORDS.md`.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::record::game_record::{FORMAT, VERSION};
use crate::record::notation::{self, parse_verdict};
use crate::record::{Entry, Record, Tags};
use crate::wire::{AnnouncementJson, color_name, parse_color};
use crate::{GameResult, Heard, RuleSetId, Umpire, UnknownRuleSet, Verdict};

/// JSON that is not a record this library can read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the shape of a record.
    #[error("not a valid record: {0}")]
    Json(#[from] serde_json::Error),
    /// The `format` field names another format.
    #[error("not a Kriegspiel record: format is {0:?}, expected \"umpire-kriegspiel-record\"")]
    Format(String),
    /// A version this library does not read.
    #[error("unsupported record version {0}: this library reads version 1")]
    Version(u64),
    /// An unknown rule set.
    #[error("record rules: {0}")]
    Rules(#[from] UnknownRuleSet),
    /// A start position that cannot be used.
    #[error("record fen {fen:?}: {error}")]
    Fen {
        /// The FEN as given.
        fen: String,
        /// Why it cannot be used.
        error: String,
    },
    /// Bad opening announcements.
    #[error("record opening announcement {number}: {error}", number = .index + 1)]
    Opening {
        /// Index in `opening`, from 0 (the message counts from 1).
        index: usize,
        /// What is wrong.
        error: String,
    },
    /// A bad entry.
    #[error("record entry {number}: {error}", number = .index + 1)]
    Entry {
        /// Index in `entries`, from 0 (the message counts from 1).
        index: usize,
        /// What is wrong.
        error: String,
    },
    /// A bad result.
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
    rules: String,
    fen: String,
    tags: Tags,
    opening: Vec<AnnouncementJson>,
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
    invalid: Option<String>,
    announcements: Vec<AnnouncementJson>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultJson {
    score: String,
    reason: String,
}

fn heard_list(list: &[Heard]) -> Vec<AnnouncementJson> {
    list.iter().map(|h| AnnouncementJson::heard(*h)).collect()
}

fn parse_heard_list(list: &[AnnouncementJson]) -> Result<Vec<Heard>, (usize, String)> {
    list.iter()
        .enumerate()
        .map(|(i, a)| a.to_heard().map_err(|e| (i, e.to_string())))
        .collect()
}

impl Record {
    /// The JSON form (compact, one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_json_shape()).unwrap_or_default()
    }

    /// The JSON form, indented for people.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.to_json_shape()).unwrap_or_default()
    }

    fn to_json_shape(&self) -> RecordJson {
        RecordJson {
            format: FORMAT.to_owned(),
            version: u64::from(VERSION),
            rules: self.rules.as_str().to_owned(),
            fen: self.fen.clone(),
            tags: self.tags.clone(),
            opening: heard_list(&self.opening),
            entries: self
                .entries
                .iter()
                .map(|e| EntryJson {
                    side: color_name(e.side).to_owned(),
                    command: e.command.to_text(),
                    verdict: e.verdict.as_str().to_owned(),
                    invalid: match e.verdict {
                        Verdict::Invalid(why) => Some(why.as_str().to_owned()),
                        _ => None,
                    },
                    announcements: heard_list(&e.announcements),
                })
                .collect(),
            result: self.result.map(|r| ResultJson {
                score: r.score().to_owned(),
                reason: r.reason.as_str().to_owned(),
            }),
        }
    }

    /// Reads a JSON record, checking every field: format and version, rule set, start position
    /// (it must be a legal position in which the side to move has a move), tags, commands,
    /// verdicts, announcements and result. It does not replay the game: see [`Record::replay`].
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let header: Header = serde_json::from_str(text)?;
        match header.format.as_deref() {
            Some(FORMAT) => {}
            Some(other) => return Err(RecordError::Format(other.to_owned())),
            None => return Err(RecordError::Format(String::new())),
        }
        match header.version {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => return Err(RecordError::Version(v)),
            None => return Err(RecordError::Version(0)),
        }
        let json: RecordJson = serde_json::from_str(text)?;
        let rules: RuleSetId = json.rules.parse()?;
        let fen = match Umpire::from_fen(*rules.rules(), &json.fen) {
            Ok(umpire) => crate::record::game_record::fen_of(umpire.position()),
            Err(e) => {
                return Err(RecordError::Fen {
                    fen: json.fen,
                    error: e.to_string(),
                });
            }
        };
        let opening = parse_heard_list(&json.opening)
            .map_err(|(index, error)| RecordError::Opening { index, error })?;
        let mut entries = Vec::with_capacity(json.entries.len());
        for (index, e) in json.entries.iter().enumerate() {
            let entry = parse_entry(e).map_err(|error| RecordError::Entry { index, error })?;
            entries.push(entry);
        }
        let result = match json.result {
            None => None,
            Some(r) => Some(GameResult::from_parts(&r.score, &r.reason).ok_or_else(|| {
                RecordError::Result(format!(
                    "{:?} by {:?} is not a game result",
                    r.score, r.reason
                ))
            })?),
        };
        Ok(Record {
            rules,
            fen,
            tags: json.tags,
            opening,
            entries,
            result,
        })
    }
}

fn parse_entry(e: &EntryJson) -> Result<Entry, String> {
    let side: Color =
        parse_color(&e.side).ok_or_else(|| format!("side {:?} is not white or black", e.side))?;
    let command =
        notation::parse_command_text(&e.command).map_err(|err| format!("command: {err}"))?;
    let verdict =
        parse_verdict(&e.verdict, e.invalid.as_deref()).map_err(|err| format!("verdict: {err}"))?;
    let announcements = parse_heard_list(&e.announcements)
        .map_err(|(i, err)| format!("announcement {i}: {err}"))?;
    Ok(Entry {
        side,
        command,
        verdict,
        announcements: announcements.into(),
    })
}
