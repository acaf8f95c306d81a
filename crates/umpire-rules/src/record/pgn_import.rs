//! Reading the referee's Kriegspiel PGN back into a [`Record`].

use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Position};

use crate::record::game_record::{VERSION, fen_of};
use crate::record::notation::{
    NotationError, parse_command_token, parse_heard_token, parse_verdict_token,
};
use crate::record::pgn_export::{attempt_move, move_uci};
use crate::record::{Entry, HeardList, Record, TagError, Tags};
use crate::{Command, EndReason, GameResult, Heard, RuleSetId, Umpire, Verdict};

/// PGN that is not a Kriegspiel record this library can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// No game in the text.
    #[error("no PGN game found")]
    NoGame,
    /// The text could not be read.
    #[error("PGN could not be read: {0}")]
    Read(String),
    /// A tag is missing, unknown or has a bad value.
    #[error("PGN tag {name}: {error}")]
    Tag {
        /// The tag name.
        name: String,
        /// What is wrong.
        error: String,
    },
    /// A move that is not legal in the true position.
    #[error("PGN move {san:?} ({place}): {error}")]
    Move {
        /// The move as written.
        san: String,
        /// Where: the move number.
        place: String,
        /// What is wrong.
        error: String,
    },
    /// A comment that does not follow the record syntax.
    #[error("PGN comment {place}, clause {clause:?}: {error}")]
    Comment {
        /// Where: before the first move, or after which move.
        place: String,
        /// The clause.
        clause: String,
        /// What is wrong.
        error: String,
    },
    /// The termination marker contradicts the Result tag.
    #[error("PGN result: the movetext ends with {marker} but the Result tag says {tag}")]
    Result {
        /// The termination marker.
        marker: String,
        /// The Result tag.
        tag: String,
    },
}

fn tag_error(name: &str, error: impl ToString) -> PgnError {
    PgnError::Tag {
        name: name.to_owned(),
        error: error.to_string(),
    }
}

impl From<TagError> for PgnError {
    fn from(e: TagError) -> PgnError {
        let name = match &e {
            TagError::BadName(n) | TagError::Derived(n) | TagError::BadValue(n) => n.clone(),
        };
        tag_error(&name, e)
    }
}

/// The largest comment and tag line the reader keeps in one piece (longer comments are
/// joined from pieces; longer tag lines are refused by [`Tags`] anyway).
const BUFFER: usize = 16 * 1024;

impl Record {
    /// Reads the first game of a referee's Kriegspiel PGN as written by [`Record::to_pgn`]
    /// (see `docs/RECORDS.md`). It checks the tags, that every move is legal in the true
    /// position, and the comment syntax; it does not re-derive the announcements: see
    /// [`Record::replay`].
    pub fn from_pgn(text: &str) -> Result<Record, PgnError> {
        let mut reader = Reader::build(text.as_bytes())
            .set_supported_comment_length(BUFFER)
            .set_supported_tag_line_length(BUFFER)
            .finish();
        match reader.read_game(&mut Importer) {
            Ok(Some(result)) => result,
            Ok(None) => Err(PgnError::NoGame),
            Err(e) => Err(PgnError::Read(e.to_string())),
        }
    }
}

struct Importer;

/// The game being read.
struct State {
    record: Record,
    pos: Chess,
    /// Before which the last move was played, with the move's entry index, while the next
    /// comment may still carry that move's clause.
    after_move: Option<(usize, Chess, shakmaty::Move)>,
    /// A place description for errors.
    place: String,
    plies: usize,
    comment: String,
    marker: Option<String>,
    result_tag: String,
}

type Flow<T = ()> = ControlFlow<Result<Record, PgnError>, T>;

fn fail<T>(e: PgnError) -> Flow<T> {
    ControlFlow::Break(Err(e))
}

fn decode(value: RawTag<'_>, name: &str) -> Result<String, PgnError> {
    value
        .decode_utf8()
        .map(|v| v.into_owned())
        .map_err(|_| tag_error(name, "not UTF-8"))
}

fn start(tags: Vec<(String, String)>) -> Result<State, PgnError> {
    let mut rules = None;
    let mut fen = None;
    let mut setup = false;
    let mut result_tag = "*".to_owned();
    let mut termination = None;
    let mut record_tags = Tags::new();
    for (name, value) in &tags {
        match name.as_str() {
            "Result" => result_tag = value.clone(),
            "Variant" if value.eq_ignore_ascii_case("kriegspiel") => {}
            "Variant" => return Err(tag_error(name, format!("{value:?} is not Kriegspiel"))),
            "KriegspielRules" => {
                rules = Some(value.parse::<RuleSetId>().map_err(|e| tag_error(name, e))?)
            }
            "KriegspielFormat" if *value == VERSION.to_string() => {}
            "KriegspielFormat" => {
                return Err(tag_error(
                    name,
                    format!("unsupported version {value:?}: this library reads version 1"),
                ));
            }
            "KriegspielTermination" => termination = Some(value.clone()),
            "KriegspielView" => {
                return Err(tag_error(
                    name,
                    "this is one player's view, not the referee's record: it cannot be replayed",
                ));
            }
            "SetUp" => setup = value == "1",
            "FEN" => fen = Some(value.clone()),
            _ => record_tags.set(name, value)?,
        }
    }
    let rules = rules.ok_or_else(|| {
        tag_error(
            "KriegspielRules",
            "missing: which rule set was the game played under?",
        )
    })?;
    if setup && fen.is_none() {
        return Err(tag_error(
            "SetUp",
            "says the game starts from a set-up position, but there is no FEN tag",
        ));
    }
    let umpire = match &fen {
        Some(f) => Umpire::from_fen(*rules.rules(), f)
            .map_err(|e| tag_error("FEN", format!("{f:?}: {e}")))?,
        None => Umpire::new(*rules.rules()),
    };
    let result = match (result_tag.as_str(), termination) {
        ("*", None) => None,
        ("*", Some(reason)) if reason == EndReason::Aborted.as_str() => Some(GameResult::aborted()),
        ("*", Some(_)) => {
            return Err(tag_error(
                "KriegspielTermination",
                "present although the Result is * (only an aborted game ends without a score)",
            ));
        }
        (score, Some(reason)) => Some(GameResult::from_parts(score, &reason).ok_or_else(|| {
            tag_error(
                "Result",
                format!("{score:?} by {reason:?} is not a game result"),
            )
        })?),
        (score, None) => {
            return Err(tag_error(
                "KriegspielTermination",
                format!("missing: why did the game end {score}?"),
            ));
        }
    };
    let pos = umpire.position().clone();
    Ok(State {
        record: Record {
            rules,
            fen: fen_of(&pos),
            tags: record_tags,
            opening: Vec::new(),
            entries: Vec::new(),
            result,
        },
        pos,
        after_move: None,
        place: "before the first move".to_owned(),
        plies: 0,
        comment: String::new(),
        marker: None,
        result_tag,
    })
}

fn heard_tokens<'a>(words: impl Iterator<Item = &'a str>) -> Result<Vec<Heard>, NotationError> {
    words.map(parse_heard_token).collect()
}

impl State {
    fn comment(&mut self) -> Result<(), PgnError> {
        let text = std::mem::take(&mut self.comment);
        let after_move = self.after_move.take();
        for (i, clause) in text.split(';').enumerate() {
            let words: Vec<&str> = clause.split_whitespace().collect();
            let Some(first) = words.first().copied() else {
                continue;
            };
            let clause = words.join(" ");
            let place = self.place.clone();
            let err = |e: &dyn ToString| PgnError::Comment {
                place: place.clone(),
                clause: clause.clone(),
                error: e.to_string(),
            };
            match first {
                "W" | "B" => {
                    let side = if first == "W" {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let [_, command, verdict, rest @ ..] = words.as_slice() else {
                        return Err(err(&"expected side, command, verdict, then announcements"));
                    };
                    let command = parse_command_token(command).map_err(|e| err(&e))?;
                    let verdict = parse_verdict_token(verdict).map_err(|e| err(&e))?;
                    if verdict == Verdict::Accepted {
                        return Err(err(
                            &"accepted attempts are written as moves, not in comments",
                        ));
                    }
                    let announcements = heard_tokens(rest.iter().copied()).map_err(|e| err(&e))?;
                    self.record.entries.push(Entry {
                        side,
                        command,
                        verdict,
                        announcements: announcements.into(),
                    });
                }
                "start" if self.record.entries.is_empty() && self.record.opening.is_empty() => {
                    self.record.opening =
                        heard_tokens(words[1..].iter().copied()).map_err(|e| err(&e))?;
                }
                "start" => {
                    return Err(err(&"opening announcements must come first, and only once"));
                }
                _ => {
                    let Some((index, before, m)) = after_move.as_ref().filter(|_| i == 0) else {
                        return Err(err(&"expected a clause starting with W, B or start"));
                    };
                    let mut rest = words.as_slice();
                    if first == "typed" {
                        let Some(command) = words.get(1) else {
                            return Err(err(&"typed needs the command as given"));
                        };
                        let command = parse_command_token(command).map_err(|e| err(&e))?;
                        match command {
                            Command::Attempt(a) if attempt_move(before, a) == Some(*m) => {}
                            _ => {
                                return Err(err(&format!(
                                    "{} is not the move played",
                                    command.to_text()
                                )));
                            }
                        }
                        self.record.entries[*index].command = command;
                        rest = &words[2..];
                    }
                    self.record.entries[*index].announcements = heard_tokens(rest.iter().copied())
                        .map_err(|e| err(&e))?
                        .into();
                }
            }
        }
        Ok(())
    }

    fn san(&mut self, san_plus: SanPlus) -> Result<(), PgnError> {
        let turn = self.pos.turn();
        let number = self.pos.fullmoves().get();
        let text = san_plus.to_string();
        let place = format!("{number}{} {text}", turn.fold_wb(".", "..."));
        let m = san_plus
            .san
            .to_move(&self.pos)
            .map_err(|e| PgnError::Move {
                san: text.clone(),
                place: format!("move {number}, {}", crate::wire::color_name(turn)),
                error: format!("not legal in the true position ({e})"),
            })?;
        let before = self.pos.clone();
        self.pos.play_unchecked(m);
        let attempt = crate::Attempt::from_uci(&move_uci(m)).map_err(|e| PgnError::Move {
            san: text.clone(),
            place: place.clone(),
            error: e.to_string(),
        })?;
        self.record.entries.push(Entry {
            side: turn,
            command: Command::Attempt(attempt),
            verdict: Verdict::Accepted,
            announcements: HeardList::new(),
        });
        self.after_move = Some((self.record.entries.len() - 1, before, m));
        self.plies += 1;
        self.place = format!("after {place}");
        Ok(())
    }

    fn finish(self) -> Result<Record, PgnError> {
        if let Some(marker) = self.marker.filter(|m| *m != self.result_tag) {
            return Err(PgnError::Result {
                marker,
                tag: self.result_tag,
            });
        }
        Ok(self.record)
    }
}

impl Visitor for Importer {
    type Tags = Result<Vec<(String, String)>, PgnError>;
    type Movetext = State;
    type Output = Result<Record, PgnError>;

    fn begin_tags(&mut self) -> Flow<Self::Tags> {
        ControlFlow::Continue(Ok(Vec::new()))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> Flow {
        if let Ok(list) = tags {
            let name = String::from_utf8_lossy(name).into_owned();
            match decode(value, &name) {
                Ok(v) => list.push((name, v)),
                Err(e) => *tags = Err(e),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> Flow<State> {
        match tags.and_then(start) {
            Ok(state) => ControlFlow::Continue(state),
            Err(e) => fail(e),
        }
    }

    fn san(&mut self, state: &mut State, san_plus: SanPlus) -> Flow {
        match state.san(san_plus) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => fail(e),
        }
    }

    fn partial_comment(&mut self, state: &mut State, comment: RawComment<'_>) -> Flow {
        state
            .comment
            .push_str(&String::from_utf8_lossy(comment.as_bytes()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, state: &mut State, comment: RawComment<'_>) -> Flow {
        state
            .comment
            .push_str(&String::from_utf8_lossy(comment.as_bytes()));
        match state.comment() {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => fail(e),
        }
    }

    fn outcome(&mut self, state: &mut State, outcome: Outcome) -> Flow {
        let marker = match outcome {
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }) => "1-0",
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }) => "0-1",
            Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
            Outcome::Unknown => "*",
        };
        state.marker = Some(marker.to_owned());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, state: State) -> Self::Output {
        state.finish()
    }
}
