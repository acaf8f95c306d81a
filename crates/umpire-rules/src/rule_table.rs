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

/// The columns of the table: one per way rule sets differ.
const COLUMNS: [&str; 14] = [
    "id",
    "illegal attempt",
    "impossible attempt",
    "repeat",
    "announcements bind",
    "pawn-capture info",
    "capture announced as",
    "e.p. marked",
    "promotion",
    "stalemate",
    "threefold",
    "50 moves",
    "insufficient material",
    "draw offers",
];

/// The cells of one rule set's row, in the order of [`COLUMNS`] (the id without quotes).
fn row(id: RuleSetId) -> [String; 14] {
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
    [
        id.as_str().to_owned(),
        rebuff(r, r.illegal),
        rebuff(r, r.impossible),
        repeat,
        binds.to_owned(),
        pawn.to_owned(),
        capture.to_owned(),
        yes(r.en_passant_announced).to_owned(),
        promotion.to_owned(),
        stalemate.to_owned(),
        yes(r.threefold_repetition).to_owned(),
        yes(r.fifty_moves).to_owned(),
        yes(r.insufficient_material).to_owned(),
        yes(r.draw_offers).to_owned(),
    ]
}

/// One Markdown table, one row per rule set, one column per way rule sets differ.
pub fn markdown_table() -> String {
    let mut out = format!("| {} |\n|", COLUMNS.join(" | "));
    out.push_str(&"---|".repeat(COLUMNS.len()));
    out.push('\n');
    for id in RuleSetId::ALL {
        let [name, rest @ ..] = row(id);
        out.push_str(&format!("| `{name}` | {} |\n", rest.join(" | ")));
    }
    out
}

/// The same facts as [`markdown_table`] for a terminal of 80 columns: one block per rule set,
/// its id and name, then one line per way rule sets differ.
pub fn text_blocks() -> String {
    let width = COLUMNS[1..].iter().map(|c| c.len()).max().unwrap_or(0);
    let mut blocks = Vec::new();
    for id in RuleSetId::ALL {
        let [name, rest @ ..] = row(id);
        let mut block = format!("{name}: {}\n", id.rules().name);
        for (column, value) in COLUMNS[1..].iter().zip(rest) {
            block.push_str(&format!("  {column:width$}  {value}\n"));
        }
        blocks.push(block);
    }
    blocks.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blocks_fit_80_columns_and_hold_every_cell_of_the_table() {
        let blocks = text_blocks();
        for line in blocks.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        for id in RuleSetId::ALL {
            let cells = row(id);
            assert!(blocks.contains(&format!("{}: ", cells[0])), "{blocks}");
            for cell in &cells[1..] {
                assert!(blocks.contains(cell.as_str()), "{cell}");
            }
        }
    }

    #[test]
    fn the_markdown_table_has_a_row_per_rule_set_and_a_cell_per_column() {
        let table = markdown_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 2 + RuleSetId::ALL.len());
        for line in &lines {
            assert_eq!(line.matches('|').count(), COLUMNS.len() + 1, "{line}");
        }
    }
}
