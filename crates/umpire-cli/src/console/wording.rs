//! The words the players' screens use for what the umpire announces: the men, the kinds of
//! check, and the joining of what was heard into sentences and counted runs.

use umpire_rules::shakmaty::Role;
use umpire_rules::{CheckKind, Man};

/// The name of a role: `king`, `queen`, …
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// The name of a kind of check, as the umpire says it: `rank`, `long diagonal`, …
pub fn check_name(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Rank => "rank",
        CheckKind::File => "file",
        CheckKind::LongDiagonal => "long diagonal",
        CheckKind::ShortDiagonal => "short diagonal",
        CheckKind::Knight => "knight",
    }
}

/// The captured man as the umpire names it: `a pawn`, `a piece`, or `a man` when the rule
/// set does not say.
pub fn man_name(man: Option<Man>) -> &'static str {
    match man {
        Some(Man::Pawn) => "a pawn",
        Some(Man::Piece) => "a piece",
        None => "a man",
    }
}

/// Joins `lines` one a line, writing a run of equal lines once with its count ("Opponent: No.
/// (×3)"), as the opponent's rejected attempts come in runs.
pub fn collapse(lines: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let run = lines[i..].iter().take_while(|l| **l == lines[i]).count();
        out.push(if run > 1 {
            format!("{} (×{run})", lines[i])
        } else {
            lines[i].clone()
        });
        i += run;
    }
    out.join("\n")
}

/// Writes each of `parts` as a sentence: capitalised, ending in a full stop.
pub fn sentences(parts: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        let mut text = part.clone();
        if let Some(first) = text.get(..1) {
            let upper = first.to_ascii_uppercase();
            text.replace_range(..1, &upper);
        }
        text.push('.');
        out.push(text);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_equal_lines_are_counted() {
        let lines: Vec<String> = [
            "Opponent: No.",
            "Opponent: No.",
            "Opponent: No.",
            "Opponent moved.",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(collapse(&lines), "Opponent: No. (×3)\nOpponent moved.");
        assert_eq!(collapse(&[]), "");
    }
}
