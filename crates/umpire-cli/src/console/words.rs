//! The words of the Kriegspiel consoles (`play`, `connect`, `referee`): the game commands as
//! help and errors name them, the answer to a line that is not a command, and the wording of
//! a refused command with where another rule set allows it.

/// The game commands every Kriegspiel console takes (`play`, `referee`), in the words their
/// help and errors use. Other spellings are accepted too (`draw offer`, `draw accept`, `any?`).
pub const GAME_COMMANDS: &str = "any (ask \"Any?\": are there pawn captures), draw (offer a draw), \
accept / decline (answer a draw offer), resign";

/// The game command words alone, as errors list them.
pub const GAME_WORDS: &str = "any, draw, accept, decline, resign";

/// The message for a line that is not a command: what was typed (shortened), then every
/// command word the console takes: moves, [`GAME_WORDS`] and the console's own `extra` words
/// (`help` explains each).
pub fn unknown_command(typed: &str, extra: &str) -> String {
    let shown: String = typed.chars().take(40).collect();
    let more = if shown.len() < typed.len() { "…" } else { "" };
    format!(
        "\"{shown}{more}\" is not a command. Type a move (Nf3, exd5, O-O, e7e8q) or one of: \
         {GAME_WORDS}, {extra}."
    )
}

/// A hint for a refused command that another rule set allows: where `any` and `draw`
/// exist. `None` when the refusal is not about the rule set.
pub fn rules_hint(why: umpire_rules::Invalid) -> Option<String> {
    use umpire_rules::{Invalid, RuleSetId};
    let (word, has): (&str, fn(&umpire_rules::RuleSet) -> bool) = match why {
        Invalid::NoAnyQuestion => ("any", |r| r.has_any_question()),
        Invalid::NoDrawOffers => ("draw", |r| r.draw_offers),
        _ => return None,
    };
    let sets: Vec<&str> = RuleSetId::ALL
        .iter()
        .filter(|id| has(id.rules()))
        .map(|id| id.as_str())
        .collect();
    Some(format!("`{word}` exists under {}", sets.join(", ")))
}

/// The text for a refused command: the umpire's reason and, where another rule set would
/// allow the command, where it exists.
pub fn refusal(why: umpire_rules::Invalid) -> String {
    match rules_hint(why) {
        Some(hint) => format!("{} ({hint})", why.message()),
        None => why.message().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unknown_command_error_lists_every_command_and_hints_follow_the_rules() {
        let text = unknown_command("castle please", "status, help");
        for word in [
            "any", "draw", "accept", "decline", "resign", "status", "help",
        ] {
            assert!(text.contains(word), "{word}: {text}");
        }
        assert!(unknown_command(&"x".repeat(100), "help").contains("xxx…\""));
        assert_eq!(
            rules_hint(umpire_rules::Invalid::NoAnyQuestion).unwrap(),
            "`any` exists under berkeley-any, english"
        );
        assert!(rules_hint(umpire_rules::Invalid::AnyAlreadyAsked).is_none());
    }
}
