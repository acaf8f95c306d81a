//! The help text of every option that names an agent, generated from the agent registry of
//! `umpire-ai` ([`AgentKind::ALL`]) so that it lists every built-in agent and cannot go stale.

use umpire_ai::AgentKind;

/// The opponent `umpire play` and `umpire connect --agent` choose when none is named: one
/// that plays well at an interactive pace.
pub const DEFAULT_OPPONENT: AgentKind = AgentKind::Mcts;

/// `lead`, then every built-in agent on its own line with what it does, then `tail` (when not
/// empty) on a line of its own.
pub fn agent_help(lead: &str, tail: &str) -> String {
    let mut text = format!("{lead}\n{}", AgentKind::catalogue());
    if !tail.is_empty() {
        text.push('\n');
        text.push_str(tail);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_lists_every_agent_between_the_lead_and_the_tail() {
        let text = agent_help("Your opponent:", "Default: mcts.");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.first(), Some(&"Your opponent:"));
        assert_eq!(lines.last(), Some(&"Default: mcts."));
        for kind in AgentKind::ALL {
            assert!(
                lines
                    .iter()
                    .any(|l| l.split_whitespace().next() == Some(kind.as_str())),
                "{text}"
            );
        }
    }
}
