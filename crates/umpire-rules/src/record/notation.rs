//! The compact text form of announcements, commands and verdicts used in PGN comments and
//! in error messages: one whitespace-free token each.
//!
//! | announcement | token |
//! |---|---|
//! | illegal, impossible, repeat | `illegal`, `impossible`, `repeat` |
//! | capture | `capture:d5`, `capture:d5:pawn`, `capture:d5:piece`, `capture:e5:pawn:ep`, `capture:e5::ep` |
//! | check | `check:rank`, `check:file`, `check:long_diagonal`, `check:short_diagonal`, `check:knight` |
//! | pawn tries | `pawn_tries:2`, `pawn_try_squares:d4,e5`, `pawn_captures` |
//! | "Any?" answer | `any_answer:yes`, `any_answer:no` |
//! | sides | `promotion:white`, `draw_offered:black`, `draw_declined:white`, `draw_accepted:black`, `resigned:white` |
//! | end | `game_over:1-0:checkmate` |
//!
//! The kinds are those of the JSON form ([`crate::wire::AnnouncementJson`]). A heard
//! announcement adds `@mover` or `@opponent` when not heard by both. Commands are UCI or
//! `any`, `draw-offer`, `draw-accept`, `draw-decline`, `resign`; verdicts are
//! [`Verdict::as_str`], with `invalid:<reason>` for refused commands.

use shakmaty::{Bitboard, Color, Square};

use crate::wire::{color_name, parse_color};
use crate::{
    Announcement, Attempt, Audience, CheckKind, Command, GameResult, Heard, Invalid, Man, Verdict,
};

/// A token that does not follow the compact notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{token:?} is not {expected}")]
pub struct NotationError {
    /// The offending text.
    pub token: String,
    /// What was expected there.
    pub expected: &'static str,
}

fn bad<T>(token: &str, expected: &'static str) -> Result<T, NotationError> {
    Err(NotationError {
        token: token.to_owned(),
        expected,
    })
}

/// Every reason for an invalid command, in a fixed order.
pub const ALL_INVALID: [Invalid; 11] = [
    Invalid::NoAnyQuestion,
    Invalid::AnyAlreadyAsked,
    Invalid::MustTryPawnCapture,
    Invalid::NoDrawOffers,
    Invalid::DrawOfferAfterAttempt,
    Invalid::DrawAlreadyOffered,
    Invalid::DrawOfferPending,
    Invalid::NoDrawOffer,
    Invalid::OwnDrawOffer,
    Invalid::NotYourTurn,
    Invalid::TooLateToAbort,
];

/// Parses the name returned by [`Invalid::as_str`].
pub fn parse_invalid(name: &str) -> Option<Invalid> {
    ALL_INVALID.into_iter().find(|i| i.as_str() == name)
}

/// Builds a verdict from its name and, for `invalid`, the reason name.
pub fn parse_verdict(name: &str, reason: Option<&str>) -> Result<Verdict, NotationError> {
    let plain = match name {
        "accepted" => Some(Verdict::Accepted),
        "answered" => Some(Verdict::Answered),
        "illegal" => Some(Verdict::Illegal),
        "impossible" => Some(Verdict::Impossible),
        "repeat" => Some(Verdict::Repeat),
        "game_over" => Some(Verdict::GameOver),
        "invalid" => None,
        _ => {
            return bad(
                name,
                "a verdict (accepted, answered, illegal, impossible, repeat, invalid, game_over)",
            );
        }
    };
    match (plain, reason) {
        (Some(v), None) => Ok(v),
        (Some(_), Some(r)) => bad(r, "allowed here: only an invalid verdict has a reason"),
        (None, Some(r)) => match parse_invalid(r) {
            Some(i) => Ok(Verdict::Invalid(i)),
            None => bad(
                r,
                "a reason for an invalid command (no_any_question, draw_offer_pending, ...)",
            ),
        },
        (None, None) => bad(name, "complete: an invalid verdict needs its reason"),
    }
}

/// The verdict as one token: [`Verdict::as_str`], or `invalid:<reason>`.
pub fn verdict_token(verdict: Verdict) -> String {
    match verdict {
        Verdict::Invalid(why) => format!("invalid:{}", why.as_str()),
        other => other.as_str().to_owned(),
    }
}

/// Parses a token written by [`verdict_token`].
pub fn parse_verdict_token(token: &str) -> Result<Verdict, NotationError> {
    match token.split_once(':') {
        Some((name, reason)) => parse_verdict(name, Some(reason)),
        None => parse_verdict(token, None),
    }
}

/// The command as one token: UCI, or `any`, `draw-offer`, `draw-accept`, `draw-decline`,
/// `resign`, and the ends declared off the board: `flag`, `abandon`, `abort`.
pub fn command_token(command: Command) -> String {
    command.to_text().replace(' ', "-")
}

/// Parses a token written by [`command_token`].
pub fn parse_command_token(token: &str) -> Result<Command, NotationError> {
    let command = match token {
        "any" => Command::AskAny,
        "draw-offer" => Command::OfferDraw,
        "draw-accept" => Command::AcceptDraw,
        "draw-decline" => Command::DeclineDraw,
        "resign" => Command::Resign,
        "flag" => Command::FlagFall,
        "abandon" => Command::Abandon,
        "abort" => Command::Abort,
        uci => match Attempt::from_record_uci(uci) {
            Ok(a) if a.to_string() == uci => Command::Attempt(a),
            _ => {
                return bad(
                    token,
                    "a command (UCI such as e2e4, or any, draw-offer, draw-accept, draw-decline, resign, flag, abandon, abort)",
                );
            }
        },
    };
    Ok(command)
}

/// Parses the text of a command as stored in JSON records ([`Command::to_text`]).
pub fn parse_command_text(text: &str) -> Result<Command, NotationError> {
    match Command::parse_record_word(text) {
        Some(c) if c.to_text() == text => Ok(c),
        _ => bad(
            text,
            "a command (UCI such as e2e4 or e7e8q, or any, draw offer, draw accept, draw decline, resign, flag, abandon, abort)",
        ),
    }
}

fn side_token(c: Color) -> &'static str {
    color_name(c)
}

fn parse_side(token: &str) -> Result<Color, NotationError> {
    parse_color(token).map_or_else(|| bad(token, "a side (white or black)"), Ok)
}

fn parse_square(token: &str) -> Result<Square, NotationError> {
    token.parse().or_else(|_| bad(token, "a square (a1 to h8)"))
}

/// The announcement as one token.
pub fn announcement_token(a: Announcement) -> String {
    match a {
        Announcement::Illegal
        | Announcement::Impossible
        | Announcement::Repeat
        | Announcement::PawnCaptures => a.kind().to_owned(),
        Announcement::Capture {
            square,
            man,
            en_passant,
        } => {
            let mut s = format!("capture:{square}");
            if man.is_some() || en_passant {
                s.push(':');
                s.push_str(man.map_or("", Man::as_str));
            }
            if en_passant {
                s.push_str(":ep");
            }
            s
        }
        Announcement::Check(kind) => format!("check:{}", kind.as_str()),
        Announcement::PawnTries(n) => format!("pawn_tries:{n}"),
        Announcement::PawnTrySquares(bb) => {
            let squares: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
            format!("pawn_try_squares:{}", squares.join(","))
        }
        Announcement::AnyAnswer(yes) => format!("any_answer:{}", if yes { "yes" } else { "no" }),
        Announcement::Promotion(c)
        | Announcement::DrawOffered(c)
        | Announcement::DrawDeclined(c)
        | Announcement::DrawAccepted(c)
        | Announcement::Resigned(c) => format!("{}:{}", a.kind(), side_token(c)),
        Announcement::GameOver(r) => format!("game_over:{}:{}", r.score(), r.reason.as_str()),
    }
}

/// Parses a token written by [`announcement_token`].
pub fn parse_announcement_token(token: &str) -> Result<Announcement, NotationError> {
    let mut parts = token.split(':');
    let kind = parts.next().unwrap_or_default();
    let args: Vec<&str> = parts.collect();
    let a = match (kind, args.as_slice()) {
        ("illegal", []) => Announcement::Illegal,
        ("impossible", []) => Announcement::Impossible,
        ("repeat", []) => Announcement::Repeat,
        ("pawn_captures", []) => Announcement::PawnCaptures,
        ("capture", [square, rest @ ..]) => {
            let square = parse_square(square)?;
            let (man, en_passant) = match rest {
                [] => (None, false),
                ["pawn"] => (Some(Man::Pawn), false),
                ["piece"] => (Some(Man::Piece), false),
                ["pawn", "ep"] => (Some(Man::Pawn), true),
                ["piece", "ep"] => (Some(Man::Piece), true),
                ["", "ep"] => (None, true),
                _ => {
                    return bad(
                        token,
                        "a capture (capture:d5, capture:d5:pawn, capture:d5:piece, capture:e6:pawn:ep, capture:e6::ep)",
                    );
                }
            };
            Announcement::Capture {
                square,
                man,
                en_passant,
            }
        }
        ("check", [kind]) => match CheckKind::from_name(kind) {
            Some(k) => Announcement::Check(k),
            None => {
                return bad(
                    kind,
                    "a check kind (rank, file, long_diagonal, short_diagonal, knight)",
                );
            }
        },
        ("pawn_tries", [n]) => match n.parse::<u8>() {
            Ok(count) if count.to_string() == *n => Announcement::PawnTries(count),
            _ => return bad(n, "a number of pawn tries (0 to 255)"),
        },
        ("pawn_try_squares", [list]) => {
            let mut bb = Bitboard::EMPTY;
            for s in list.split(',').filter(|s| !s.is_empty()) {
                bb.add(parse_square(s)?);
            }
            Announcement::PawnTrySquares(bb)
        }
        ("any_answer", ["yes"]) => Announcement::AnyAnswer(true),
        ("any_answer", ["no"]) => Announcement::AnyAnswer(false),
        ("promotion", [side]) => Announcement::Promotion(parse_side(side)?),
        ("draw_offered", [side]) => Announcement::DrawOffered(parse_side(side)?),
        ("draw_declined", [side]) => Announcement::DrawDeclined(parse_side(side)?),
        ("draw_accepted", [side]) => Announcement::DrawAccepted(parse_side(side)?),
        ("resigned", [side]) => Announcement::Resigned(parse_side(side)?),
        ("game_over", [score, reason]) => match GameResult::from_parts(score, reason) {
            Some(r) => Announcement::GameOver(r),
            None => {
                return bad(
                    token,
                    "a game result (game_over:1-0:checkmate, game_over:1/2-1/2:stalemate, ...)",
                );
            }
        },
        _ => {
            return bad(
                token,
                "an announcement (illegal, capture:d5:pawn, check:file, pawn_tries:2, game_over:1-0:checkmate, ...)",
            );
        }
    };
    Ok(a)
}

/// The heard announcement as one token: the announcement, then `@mover` or `@opponent`
/// unless both players hear it.
pub fn heard_token(h: Heard) -> String {
    let mut s = announcement_token(h.announcement);
    match h.audience {
        Audience::Both => {}
        Audience::Mover => s.push_str("@mover"),
        Audience::Opponent => s.push_str("@opponent"),
    }
    s
}

/// Parses a token written by [`heard_token`].
pub fn parse_heard_token(token: &str) -> Result<Heard, NotationError> {
    let (body, audience) = match token.split_once('@') {
        None => (token, Audience::Both),
        Some((body, "mover")) => (body, Audience::Mover),
        Some((body, "opponent")) => (body, Audience::Opponent),
        Some(_) => {
            return bad(
                token,
                "an announcement with an audience (...@mover or ...@opponent)",
            );
        }
    };
    Ok(Heard {
        audience,
        announcement: parse_announcement_token(body)?,
    })
}

/// A list of heard announcements, space-separated (`[]` when empty), for messages.
pub fn heard_list(list: &[Heard]) -> String {
    if list.is_empty() {
        return "[]".to_owned();
    }
    list.iter()
        .map(|h| heard_token(*h))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EndReason;

    #[test]
    fn an_attempt_from_a_square_to_itself_reads_back_as_written() {
        let a = Command::Attempt(Attempt::new(Square::B6, Square::B6));
        assert_eq!(command_token(a), "b6b6");
        assert_eq!(parse_command_token("b6b6"), Ok(a));
        assert_eq!(parse_command_text(&a.to_text()), Ok(a));
        // Players' input still refuses it.
        assert!(Attempt::from_uci("b6b6").is_err());
    }

    #[test]
    fn every_announcement_round_trips() {
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
                square: Square::D5,
                man: Some(Man::Piece),
                en_passant: false,
            },
            Announcement::Capture {
                square: Square::A1,
                man: None,
                en_passant: false,
            },
            Announcement::Capture {
                square: Square::E5,
                man: None,
                en_passant: true,
            },
            Announcement::Check(CheckKind::LongDiagonal),
            Announcement::PawnTries(3),
            Announcement::PawnTrySquares(Bitboard::from(Square::E4) | Bitboard::from(Square::G2)),
            Announcement::PawnTrySquares(Bitboard::EMPTY),
            Announcement::PawnCaptures,
            Announcement::AnyAnswer(true),
            Announcement::AnyAnswer(false),
            Announcement::Promotion(Color::Black),
            Announcement::DrawOffered(Color::White),
            Announcement::DrawDeclined(Color::Black),
            Announcement::DrawAccepted(Color::Black),
            Announcement::Resigned(Color::White),
            Announcement::GameOver(GameResult::win(Color::Black, EndReason::Resignation)),
            Announcement::GameOver(GameResult::draw(EndReason::ThreefoldRepetition)),
        ];
        for announcement in all {
            for audience in [Audience::Mover, Audience::Opponent, Audience::Both] {
                let h = Heard {
                    audience,
                    announcement,
                };
                let token = heard_token(h);
                assert!(
                    !token.contains(char::is_whitespace) && !token.contains([';', '{', '}']),
                    "{token}"
                );
                assert_eq!(parse_heard_token(&token), Ok(h), "{token}");
            }
        }
    }

    #[test]
    fn bad_tokens_are_named_in_errors() {
        let e = parse_heard_token("capture:z9").unwrap_err();
        assert_eq!(e.token, "z9");
        assert!(parse_heard_token("check:diagonal").is_err());
        assert!(parse_heard_token("pawn_tries:300").is_err());
        assert!(parse_heard_token("pawn_tries:+3").is_err());
        assert!(parse_heard_token("illegal@everyone").is_err());
        assert!(parse_heard_token("game_over:1-0:stalemate:x").is_err());
        assert!(parse_heard_token("game_over:1/2-1/2:checkmate").is_err());
        assert!(parse_verdict_token("invalid").is_err());
        assert!(parse_verdict_token("illegal:no_draw_offer").is_err());
        assert!(parse_command_token("E2E4").is_err());
        assert!(parse_command_text("draw").is_err());
    }

    #[test]
    fn commands_and_verdicts_round_trip() {
        for c in [
            Command::AskAny,
            Command::OfferDraw,
            Command::AcceptDraw,
            Command::DeclineDraw,
            Command::Resign,
            Command::FlagFall,
            Command::Abandon,
            Command::Abort,
        ] {
            assert_eq!(parse_command_token(&command_token(c)), Ok(c));
            assert_eq!(parse_command_text(&c.to_text()), Ok(c));
        }
        let a = Command::Attempt(Attempt::from_uci("e7e8n").unwrap());
        assert_eq!(parse_command_token(&command_token(a)), Ok(a));
        for i in ALL_INVALID {
            assert_eq!(
                parse_verdict_token(&verdict_token(Verdict::Invalid(i))),
                Ok(Verdict::Invalid(i))
            );
        }
        for v in [
            Verdict::Accepted,
            Verdict::Answered,
            Verdict::Illegal,
            Verdict::Impossible,
            Verdict::Repeat,
            Verdict::GameOver,
        ] {
            assert_eq!(parse_verdict_token(&verdict_token(v)), Ok(v));
        }
    }
}
