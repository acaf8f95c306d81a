//! [`HeardAnnouncement`]: one announcement as a player's or spectator's frames carry it: the
//! JSON of `docs/JSON.md` (without `hear`) plus `text`, the rule set's own words.

use serde::{Deserialize, Serialize};
use umpire_rules::wire::AnnouncementJson;
use umpire_rules::{Announcement, RuleSet};

/// An announcement as sent, tagged by `kind`, with the rule set's words in `text`
/// (`RuleSet::phrase`; the 1965 teletype words for `umpire1965`).
///
/// Reading one back ([`HeardAnnouncement::announcement`]) takes a missing `text` as empty and
/// refuses unknown fields, as the rules core's JSON does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum HeardAnnouncement {
    /// The attempt was illegal.
    Illegal {
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The attempt was impossible on the player's own board.
    Impossible {
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The attempt was already refused this turn.
    Repeat {
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// A capture on `square`.
    Capture {
        /// Where the capture happened.
        square: String,
        /// The man taken, when the rule set says it (`pawn` or `piece`, …), else `null`.
        man: Option<String>,
        /// Whether it was en passant.
        en_passant: bool,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// Check, of the kind named.
    Check {
        /// `rank`, `file`, `long_diagonal`, `short_diagonal`, `knight`, …
        check: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The number of pawn tries.
    PawnTries {
        /// How many.
        count: u8,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The squares of the pawn tries.
    PawnTrySquares {
        /// The squares.
        squares: Vec<String>,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// There are pawn captures.
    PawnCaptures {
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The answer to "Any?".
    AnyAnswer {
        /// Whether a pawn capture exists.
        has_pawn_captures: bool,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// A pawn of `side` was promoted.
    Promotion {
        /// Whose pawn.
        side: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// `side` offered a draw.
    DrawOffered {
        /// Who offered.
        side: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// `side` declined the draw.
    DrawDeclined {
        /// Who declined.
        side: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// `side` accepted the draw.
    DrawAccepted {
        /// Who accepted.
        side: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// `side` resigned.
    Resigned {
        /// Who resigned.
        side: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
    /// The game is over.
    GameOver {
        /// The score.
        result: String,
        /// Why.
        reason: String,
        /// The rule set's words.
        #[serde(default)]
        text: String,
    },
}

impl HeardAnnouncement {
    /// The announcement `a` of `rules` as sent.
    pub fn new(rules: &RuleSet, a: Announcement) -> HeardAnnouncement {
        let text = rules.phrase(a);
        use AnnouncementJson as J;
        use HeardAnnouncement as H;
        match AnnouncementJson::new(a, None) {
            J::Illegal { .. } => H::Illegal { text },
            J::Impossible { .. } => H::Impossible { text },
            J::Repeat { .. } => H::Repeat { text },
            J::Capture {
                square,
                man,
                en_passant,
                ..
            } => H::Capture {
                square,
                man,
                en_passant,
                text,
            },
            J::Check { check, .. } => H::Check { check, text },
            J::PawnTries { count, .. } => H::PawnTries { count, text },
            J::PawnTrySquares { squares, .. } => H::PawnTrySquares { squares, text },
            J::PawnCaptures { .. } => H::PawnCaptures { text },
            J::AnyAnswer {
                has_pawn_captures, ..
            } => H::AnyAnswer {
                has_pawn_captures,
                text,
            },
            J::Promotion { side, .. } => H::Promotion { side, text },
            J::DrawOffered { side, .. } => H::DrawOffered { side, text },
            J::DrawDeclined { side, .. } => H::DrawDeclined { side, text },
            J::DrawAccepted { side, .. } => H::DrawAccepted { side, text },
            J::Resigned { side, .. } => H::Resigned { side, text },
            J::GameOver { result, reason, .. } => H::GameOver {
                result,
                reason,
                text,
            },
        }
    }

    /// The rules core's announcement this describes; an error in words if a field does not
    /// read (a square, a side, a check kind, …).
    pub fn announcement(&self) -> Result<Announcement, String> {
        use AnnouncementJson as J;
        use HeardAnnouncement as H;
        let hear = None;
        let json = match self.clone() {
            H::Illegal { .. } => J::Illegal { hear },
            H::Impossible { .. } => J::Impossible { hear },
            H::Repeat { .. } => J::Repeat { hear },
            H::Capture {
                square,
                man,
                en_passant,
                ..
            } => J::Capture {
                square,
                man,
                en_passant,
                hear,
            },
            H::Check { check, .. } => J::Check { check, hear },
            H::PawnTries { count, .. } => J::PawnTries { count, hear },
            H::PawnTrySquares { squares, .. } => J::PawnTrySquares { squares, hear },
            H::PawnCaptures { .. } => J::PawnCaptures { hear },
            H::AnyAnswer {
                has_pawn_captures, ..
            } => J::AnyAnswer {
                has_pawn_captures,
                hear,
            },
            H::Promotion { side, .. } => J::Promotion { side, hear },
            H::DrawOffered { side, .. } => J::DrawOffered { side, hear },
            H::DrawDeclined { side, .. } => J::DrawDeclined { side, hear },
            H::DrawAccepted { side, .. } => J::DrawAccepted { side, hear },
            H::Resigned { side, .. } => J::Resigned { side, hear },
            H::GameOver { result, reason, .. } => J::GameOver {
                result,
                reason,
                hear,
            },
        };
        json.announcement().map_err(|e| e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use umpire_rules::RuleSetId;

    /// The JSON of an announcement is the rules core's (`docs/JSON.md`) plus `text`, for every
    /// announcement a game can make (those of the round-trip test in `decode.rs`).
    #[test]
    fn the_json_is_the_rules_core_json_plus_text() {
        let rules = *RuleSetId::ALL[0].rules();
        let samples = [
            Announcement::Illegal,
            Announcement::Impossible,
            Announcement::Repeat,
            Announcement::PawnCaptures,
            Announcement::AnyAnswer(true),
            Announcement::PawnTries(2),
            Announcement::Promotion(umpire_rules::shakmaty::Color::Black),
            Announcement::DrawOffered(umpire_rules::shakmaty::Color::White),
        ];
        for a in samples {
            let ours = serde_json::to_value(HeardAnnouncement::new(&rules, a)).unwrap();
            let mut core = serde_json::to_value(AnnouncementJson::new(a, None)).unwrap();
            core["text"] = Value::String(rules.phrase(a));
            assert_eq!(ours, core, "{a:?}");
            let back: HeardAnnouncement = serde_json::from_value(ours).unwrap();
            assert_eq!(back.announcement().unwrap(), a);
        }
    }
}
