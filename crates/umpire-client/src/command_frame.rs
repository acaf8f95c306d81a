//! The frame that sends a player's command to the server (`docs/PROTOCOL.md`): what `umpire
//! connect` sends for what the player types and what a remote bot sends for its agent.

use serde_json::{Value, json};
use umpire_rules::Command;

/// The frame (without `id`) that sends `command`; `None` for an end declared off the board
/// (flag fall, abandonment, abort), which is the server's to declare, never a player's.
pub fn command_frame(command: Command) -> Option<Value> {
    Some(match command {
        Command::Attempt(a) => json!({"type": "attempt", "move": a.to_string()}),
        Command::AskAny => json!({"type": "any"}),
        Command::OfferDraw => json!({"type": "draw", "action": "offer"}),
        Command::AcceptDraw => json!({"type": "draw", "action": "accept"}),
        Command::DeclineDraw => json!({"type": "draw", "action": "decline"}),
        Command::Resign => json!({"type": "resign"}),
        Command::FlagFall | Command::Abandon | Command::Abort => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_protocol::client_message::{Action, parse};
    use umpire_rules::Attempt;

    #[test]
    fn every_players_command_is_a_frame_the_server_reads_back() {
        let e2e4: Attempt = "e2e4".parse().expect("a move");
        let cases = [
            (Command::Attempt(e2e4), Action::Attempt("e2e4".to_owned())),
            (Command::AskAny, Action::Any),
            (Command::OfferDraw, Action::DrawOffer),
            (Command::AcceptDraw, Action::DrawAccept),
            (Command::DeclineDraw, Action::DrawDecline),
            (Command::Resign, Action::Resign),
        ];
        for (command, action) in cases {
            let frame = command_frame(command).expect("a player's command");
            let read = parse(&frame.to_string()).expect("a frame the server reads");
            assert_eq!(read.action, action, "{command:?}");
        }
        for command in [Command::FlagFall, Command::Abandon, Command::Abort] {
            assert_eq!(command_frame(command), None, "{command:?}");
        }
    }
}
