//! The words each rule set's umpire uses for an announcement.

use shakmaty::{Color, Square};

use crate::{Announcement, CheckKind, EndReason, Man, RuleSet, RuleSetId};

fn side_name(c: Color) -> &'static str {
    c.fold_wb("White", "Black")
}

fn squares(bb: shakmaty::Bitboard) -> String {
    bb.into_iter()
        .map(|s: Square| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl RuleSet {
    /// What this rule set's umpire says for `announcement`, in plain English
    /// (the 1965 program's teletype words for `umpire1965`).
    pub fn phrase(&self, announcement: Announcement) -> String {
        if self.id == RuleSetId::Umpire1965 {
            return phrase_1965(announcement);
        }
        let berkeleyish = matches!(
            self.id,
            RuleSetId::Berkeley | RuleSetId::BerkeleyAny | RuleSetId::Cincinnati
        );
        match announcement {
            Announcement::Illegal => match self.id {
                RuleSetId::Wild16 | RuleSetId::English => "Illegal move".to_owned(),
                _ => "No".to_owned(),
            },
            Announcement::Impossible => {
                if berkeleyish {
                    "Nonsense".to_owned()
                } else {
                    "Hell no".to_owned()
                }
            }
            Announcement::Repeat => "Repeat no".to_owned(),
            Announcement::Capture {
                square,
                man,
                en_passant,
            } => {
                let what = match man {
                    Some(Man::Pawn) => "Pawn",
                    Some(Man::Piece) => "Piece",
                    None => "Man",
                };
                let ep = if en_passant { " en passant" } else { "" };
                format!("{what} at {square} captured{ep}")
            }
            Announcement::Check(kind) => match kind {
                CheckKind::Rank => "Rank check".to_owned(),
                CheckKind::File => "File check".to_owned(),
                CheckKind::LongDiagonal => "Long-diagonal check".to_owned(),
                CheckKind::ShortDiagonal => "Short-diagonal check".to_owned(),
                CheckKind::Knight => "Knight check".to_owned(),
            },
            Announcement::PawnTries(1) => "1 try".to_owned(),
            Announcement::PawnTries(n) => format!("{n} tries"),
            Announcement::PawnTrySquares(bb) => format!("Pawn tries: {}", squares(bb)),
            Announcement::PawnCaptures => "Pawn captures available".to_owned(),
            Announcement::AnyAnswer(true) => {
                "Yes: pawn captures available; you must try one".to_owned()
            }
            Announcement::AnyAnswer(false) => "No pawn captures".to_owned(),
            Announcement::Promotion(c) => format!("{} promotes", side_name(c)),
            Announcement::DrawOffered(c) => format!("{} offers a draw", side_name(c)),
            Announcement::DrawDeclined(c) => format!("{} declines the draw", side_name(c)),
            Announcement::DrawAccepted(c) => format!("{} accepts the draw", side_name(c)),
            Announcement::Resigned(c) => format!("{} resigns", side_name(c)),
            Announcement::GameOver(r) => {
                let how = match (r.reason, r.winner) {
                    (EndReason::Checkmate, _) => "Checkmate".to_owned(),
                    (EndReason::Stalemate, None) => "Stalemate: draw".to_owned(),
                    (EndReason::Stalemate, Some(w)) => format!("Stalemate: {} wins", side_name(w)),
                    (EndReason::ThreefoldRepetition, _) => "Draw by repetition".to_owned(),
                    (EndReason::FiftyMoves, _) => "50-move draw".to_owned(),
                    (EndReason::InsufficientMaterial, _) => "Draw by insufficient force".to_owned(),
                    (EndReason::DrawAgreed, _) => "Draw agreed".to_owned(),
                    (EndReason::Resignation, _) => "Game over by resignation".to_owned(),
                    (EndReason::TimeForfeit, Some(w)) => {
                        format!("Flag fell: {} wins on time", side_name(w))
                    }
                    (EndReason::TimeForfeit, None) => {
                        "Flag fell, but the opponent cannot mate: draw".to_owned()
                    }
                    (EndReason::Abandonment, _) => "Game over by abandonment".to_owned(),
                    (EndReason::Aborted, _) => "Game aborted".to_owned(),
                };
                format!("{how} ({})", r.score())
            }
        }
    }
}

fn phrase_1965(a: Announcement) -> String {
    let upper = |s: Square| s.to_string().to_uppercase();
    match a {
        Announcement::Illegal => "(NO)".to_owned(),
        Announcement::Impossible => "(HELL NO)".to_owned(),
        Announcement::Repeat => "(REPEAT NO)".to_owned(),
        Announcement::Capture { square, man, .. } => match man {
            Some(Man::Pawn) => format!("(PAWN GONE {})", upper(square)),
            _ => format!("(PIECE GONE {})", upper(square)),
        },
        Announcement::Check(kind) => match kind {
            CheckKind::Rank => "(RANK CHECK)".to_owned(),
            CheckKind::File => "(FILE CHECK)".to_owned(),
            CheckKind::LongDiagonal => "(LONG DIAGONAL CHECK)".to_owned(),
            CheckKind::ShortDiagonal => "(SHORT DIAGONAL CHECK)".to_owned(),
            CheckKind::Knight => "(KNIGHT CHECK)".to_owned(),
        },
        Announcement::PawnTrySquares(bb) => bb
            .into_iter()
            .map(|s| format!("(PAWN TRY {})", upper(s)))
            .collect::<Vec<_>>()
            .join(" "),
        Announcement::Promotion(c) => format!("({} PROMOTES)", side_name(c).to_uppercase()),
        other => RuleSet::RAND.phrase(other).to_uppercase(),
    }
}
