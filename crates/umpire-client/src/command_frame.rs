//! The frame that sends a player's command to the server (`docs/PROTOCOL.md`): what `umpire
//! connect` sends for what the player types and what a remote bot sends for its agent.

use umpire_protocol::client_message::ClientFrame;
use umpire_rules::Command;

/// The frame that sends `command` with `id` (echoed as `reply_to`); `None` for an end declared
/// off the board (flag fall, abandonment, abort), which is the server's to declare, never a
/// player's.
pub fn command_frame(command: Command, id: Option<u64>) -> Option<ClientFrame> {
    let draw = |action: &str| ClientFrame::Draw {
        action: action.to_owned(),
        id,
    };
    Some(match command {
        Command::Attempt(a) => ClientFrame::Attempt {
            mv: a.to_string(),
            id,
        },
        Command::AskAny => ClientFrame::Any { id },
        Command::OfferDraw => draw("offer"),
        Command::AcceptDraw => draw("accept"),
        Command::DeclineDraw => draw("decline"),
        Command::Resign => ClientFrame::Resign { id },
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
            let frame = command_frame(command, Some(9)).expect("a player's command");
            let text = serde_json::to_string(&frame).expect("a frame serialises");
            let read = parse(&text).expect("a frame the server reads");
            assert_eq!(read.action, action, "{command:?}");
            assert_eq!(read.id, Some(9), "{command:?}");
        }
        for command in [Command::FlagFall, Command::Abandon, Command::Abort] {
            assert_eq!(command_frame(command, None), None, "{command:?}");
        }
    }
}
