//! The JSON shape of announcements, verdicts and results, shared by `umpire referee --json`,
//! records and (later) the engine protocol and the server. Documented in `docs/JSON.md`.

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, Color, Square};

use crate::{Announcement, Audience, CheckKind, GameResult, Heard, Man};

/// A colour as JSON: `"white"` or `"black"`.
pub fn color_name(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

/// Parses `"white"` or `"black"`.
pub fn parse_color(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// One announcement as JSON, with an optional `hear` field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnnouncementJson {
    /// See [`Announcement::Illegal`].
    Illegal {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Impossible`].
    Impossible {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Repeat`].
    Repeat {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Capture`].
    Capture {
        square: String,
        man: Option<String>,
        en_passant: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Check`].
    Check {
        check: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::PawnTries`].
    PawnTries {
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::PawnTrySquares`].
    PawnTrySquares {
        squares: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::PawnCaptures`].
    PawnCaptures {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::AnyAnswer`].
    AnyAnswer {
        has_pawn_captures: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Promotion`].
    Promotion {
        side: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::DrawOffered`].
    DrawOffered {
        side: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::DrawDeclined`].
    DrawDeclined {
        side: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::DrawAccepted`].
    DrawAccepted {
        side: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::Resigned`].
    Resigned {
        side: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
    /// See [`Announcement::GameOver`].
    GameOver {
        result: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hear: Option<String>,
    },
}

/// JSON that does not describe an announcement.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad announcement: {0}")]
pub struct WireError(pub String);

fn square_name(sq: Square) -> String {
    sq.to_string()
}

fn parse_square(s: &str) -> Result<Square, WireError> {
    s.parse()
        .map_err(|_| WireError(format!("{s:?} is not a square")))
}

fn parse_side(s: &str) -> Result<Color, WireError> {
    parse_color(s).ok_or_else(|| WireError(format!("{s:?} is not a side (white or black)")))
}

/// Parses an audience name.
pub fn parse_audience(s: &str) -> Result<Audience, WireError> {
    match s {
        "mover" => Ok(Audience::Mover),
        "opponent" => Ok(Audience::Opponent),
        "both" => Ok(Audience::Both),
        _ => Err(WireError(format!(
            "{s:?} is not an audience (mover, opponent, both)"
        ))),
    }
}

impl AnnouncementJson {
    /// The JSON form of an announcement, with `hear` when an audience is given.
    pub fn new(a: Announcement, audience: Option<Audience>) -> AnnouncementJson {
        let hear = audience.map(|x| x.as_str().to_owned());
        let side = |c: Color| color_name(c).to_owned();
        match a {
            Announcement::Illegal => AnnouncementJson::Illegal { hear },
            Announcement::Impossible => AnnouncementJson::Impossible { hear },
            Announcement::Repeat => AnnouncementJson::Repeat { hear },
            Announcement::Capture {
                square,
                man,
                en_passant,
            } => AnnouncementJson::Capture {
                square: square_name(square),
                man: man.map(|m| m.as_str().to_owned()),
                en_passant,
                hear,
            },
            Announcement::Check(kind) => AnnouncementJson::Check {
                check: kind.as_str().to_owned(),
                hear,
            },
            Announcement::PawnTries(count) => AnnouncementJson::PawnTries { count, hear },
            Announcement::PawnTrySquares(bb) => AnnouncementJson::PawnTrySquares {
                squares: bb.into_iter().map(square_name).collect(),
                hear,
            },
            Announcement::PawnCaptures => AnnouncementJson::PawnCaptures { hear },
            Announcement::AnyAnswer(yes) => AnnouncementJson::AnyAnswer {
                has_pawn_captures: yes,
                hear,
            },
            Announcement::Promotion(c) => AnnouncementJson::Promotion {
                side: side(c),
                hear,
            },
            Announcement::DrawOffered(c) => AnnouncementJson::DrawOffered {
                side: side(c),
                hear,
            },
            Announcement::DrawDeclined(c) => AnnouncementJson::DrawDeclined {
                side: side(c),
                hear,
            },
            Announcement::DrawAccepted(c) => AnnouncementJson::DrawAccepted {
                side: side(c),
                hear,
            },
            Announcement::Resigned(c) => AnnouncementJson::Resigned {
                side: side(c),
                hear,
            },
            Announcement::GameOver(r) => AnnouncementJson::GameOver {
                result: r.score().to_owned(),
                reason: r.reason.as_str().to_owned(),
                hear,
            },
        }
    }

    /// The JSON form of a heard announcement.
    pub fn heard(h: Heard) -> AnnouncementJson {
        AnnouncementJson::new(h.announcement, Some(h.audience))
    }

    fn hear(&self) -> &Option<String> {
        match self {
            AnnouncementJson::Illegal { hear }
            | AnnouncementJson::Impossible { hear }
            | AnnouncementJson::Repeat { hear }
            | AnnouncementJson::Capture { hear, .. }
            | AnnouncementJson::Check { hear, .. }
            | AnnouncementJson::PawnTries { hear, .. }
            | AnnouncementJson::PawnTrySquares { hear, .. }
            | AnnouncementJson::PawnCaptures { hear }
            | AnnouncementJson::AnyAnswer { hear, .. }
            | AnnouncementJson::Promotion { hear, .. }
            | AnnouncementJson::DrawOffered { hear, .. }
            | AnnouncementJson::DrawDeclined { hear, .. }
            | AnnouncementJson::DrawAccepted { hear, .. }
            | AnnouncementJson::Resigned { hear, .. }
            | AnnouncementJson::GameOver { hear, .. } => hear,
        }
    }

    /// The audience, if present.
    pub fn audience(&self) -> Result<Option<Audience>, WireError> {
        self.hear().as_deref().map(parse_audience).transpose()
    }

    /// The announcement this JSON describes.
    pub fn announcement(&self) -> Result<Announcement, WireError> {
        Ok(match self {
            AnnouncementJson::Illegal { .. } => Announcement::Illegal,
            AnnouncementJson::Impossible { .. } => Announcement::Impossible,
            AnnouncementJson::Repeat { .. } => Announcement::Repeat,
            AnnouncementJson::Capture {
                square,
                man,
                en_passant,
                ..
            } => Announcement::Capture {
                square: parse_square(square)?,
                man: match man.as_deref() {
                    None => None,
                    Some("pawn") => Some(Man::Pawn),
                    Some("piece") => Some(Man::Piece),
                    Some(other) => {
                        return Err(WireError(format!("{other:?} is not pawn or piece")));
                    }
                },
                en_passant: *en_passant,
            },
            AnnouncementJson::Check { check, .. } => Announcement::Check(
                CheckKind::from_name(check)
                    .ok_or_else(|| WireError(format!("{check:?} is not a check kind")))?,
            ),
            AnnouncementJson::PawnTries { count, .. } => Announcement::PawnTries(*count),
            AnnouncementJson::PawnTrySquares { squares, .. } => {
                let mut bb = Bitboard::EMPTY;
                for s in squares {
                    bb.add(parse_square(s)?);
                }
                Announcement::PawnTrySquares(bb)
            }
            AnnouncementJson::PawnCaptures { .. } => Announcement::PawnCaptures,
            AnnouncementJson::AnyAnswer {
                has_pawn_captures, ..
            } => Announcement::AnyAnswer(*has_pawn_captures),
            AnnouncementJson::Promotion { side, .. } => Announcement::Promotion(parse_side(side)?),
            AnnouncementJson::DrawOffered { side, .. } => {
                Announcement::DrawOffered(parse_side(side)?)
            }
            AnnouncementJson::DrawDeclined { side, .. } => {
                Announcement::DrawDeclined(parse_side(side)?)
            }
            AnnouncementJson::DrawAccepted { side, .. } => {
                Announcement::DrawAccepted(parse_side(side)?)
            }
            AnnouncementJson::Resigned { side, .. } => Announcement::Resigned(parse_side(side)?),
            AnnouncementJson::GameOver { result, reason, .. } => {
                Announcement::GameOver(GameResult::from_parts(result, reason).ok_or_else(|| {
                    WireError(format!("{result:?} by {reason:?} is not a game result"))
                })?)
            }
        })
    }

    /// The heard announcement this JSON describes; the audience is required.
    pub fn to_heard(&self) -> Result<Heard, WireError> {
        let audience = self
            .audience()?
            .ok_or_else(|| WireError("missing \"hear\"".to_owned()))?;
        Ok(Heard {
            audience,
            announcement: self.announcement()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EndReason;

    #[test]
    fn round_trip_every_kind() {
        let all = [
            Announcement::Illegal,
            Announcement::Impossible,
            Announcement::Repeat,
            Announcement::Capture {
                square: Square::D5,
                man: Some(Man::Pawn),
                en_passant: true,
            },
            Announcement::Capture {
                square: Square::A1,
                man: None,
                en_passant: false,
            },
            Announcement::Check(CheckKind::ShortDiagonal),
            Announcement::PawnTries(3),
            Announcement::PawnTrySquares(Bitboard::from(Square::E4) | Bitboard::from(Square::G2)),
            Announcement::PawnCaptures,
            Announcement::AnyAnswer(false),
            Announcement::Promotion(Color::Black),
            Announcement::DrawOffered(Color::White),
            Announcement::DrawDeclined(Color::Black),
            Announcement::DrawAccepted(Color::Black),
            Announcement::Resigned(Color::White),
            Announcement::GameOver(GameResult::win(Color::White, EndReason::Checkmate)),
            Announcement::GameOver(GameResult::draw(EndReason::FiftyMoves)),
        ];
        for a in all {
            for audience in [Audience::Mover, Audience::Opponent, Audience::Both] {
                let h = Heard {
                    audience,
                    announcement: a,
                };
                let text = serde_json::to_string(&AnnouncementJson::heard(h)).unwrap();
                let back: AnnouncementJson = serde_json::from_str(&text).unwrap();
                assert_eq!(back.to_heard().unwrap(), h, "{text}");
            }
        }
    }

    #[test]
    fn capture_shape_matches_docs() {
        let a = Announcement::Capture {
            square: Square::D5,
            man: Some(Man::Pawn),
            en_passant: false,
        };
        let text = serde_json::to_string(&AnnouncementJson::new(a, Some(Audience::Both))).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"capture","square":"d5","man":"pawn","en_passant":false,"hear":"both"}"#
        );
    }
}
