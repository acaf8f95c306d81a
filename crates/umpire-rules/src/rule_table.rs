//! The rule-set table of `docs/RULESETS.md`, generated from the [`RuleSet`] constants.

use crate::{AnyObligation, Audience, PawnCaptureInfo, Rebuff, RuleSet, RuleSetId, StalemateRule};

fn audience(a: Audience) -> &'static str {
    match a {
        Audience::Mover => "mover hears",
        Audience::Opponent => "opponent hears",
        Audience::Both => "both hear",
    }
}

fn rebuff(rules: &RuleSet, r: Rebuff) -> String {
    let word = rules.phrase(if r.said_as_impossible {
        crate::Announcement::Impossible
    } else {
        crate::Announcement::Illegal
    });
    format!("\"{word}\", {}", audience(r.audience))
}

fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}

/// One Markdown table, one row per rule set, one column per way rule sets differ.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| id | illegal attempt | impossible attempt | repeat | announcements bind | pawn-capture info | capture announced as | e.p. marked | promotion | stalemate | threefold | 50 moves | insufficient material | draw offers |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for id in RuleSetId::ALL {
        let r = id.rules();
        let repeat = if r.repeat_announced {
            format!("\"{}\"", r.phrase(crate::Announcement::Repeat))
        } else {
            "as impossible".to_owned()
        };
        let binds = match (r.pawn_info_binds, r.check_binds) {
            (true, true) => "pawn info, check",
            (true, false) => "pawn info",
            (false, true) => "check",
            (false, false) => "no",
        };
        let pawn = match r.pawn_captures {
            PawnCaptureInfo::None => "none",
            PawnCaptureInfo::Count => "count of tries",
            PawnCaptureInfo::TrySquares => "squares of pawns with tries",
            PawnCaptureInfo::YesNo => "yes (or silence)",
            PawnCaptureInfo::AskAny(AnyObligation::UntilAccepted) => {
                "\"Any?\"; yes obliges pawn captures until one is accepted"
            }
            PawnCaptureInfo::AskAny(AnyObligation::OneTry) => {
                "\"Any?\"; yes obliges one pawn-capture try"
            }
        };
        let capture = if r.capture_names_man {
            "square + pawn/piece"
        } else {
            "square"
        };
        let promotion = match (r.promotion_announced, r.promotion_always_queen) {
            (true, true) => "announced; always a queen",
            (true, false) => "announced",
            (false, true) => "silent; always a queen",
            (false, false) => "silent",
        };
        let stalemate = match r.stalemate {
            StalemateRule::Draw => "draw",
            StalemateRule::Loss => "loss for the stalemated side",
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            id.as_str(),
            rebuff(r, r.illegal),
            rebuff(r, r.impossible),
            repeat,
            binds,
            pawn,
            capture,
            yes(r.en_passant_announced),
            promotion,
            stalemate,
            yes(r.threefold_repetition),
            yes(r.fifty_moves),
            yes(r.insufficient_material),
            yes(r.draw_offers),
        ));
    }
    out
}
