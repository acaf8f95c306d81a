//! One rule for what a player types at the prompt of `umpire play` and `umpire connect`: a
//! line that cannot be a command of theirs is refused at once, in the same words whichever way
//! it was written, and never reaches the umpire or the record. A move no own man can make on
//! the player's own board (`Ke7` in SAN, `e2e4` as Black in UCI) is such a line, and so is
//! `any` under a rule set without the "Any?" question (`draw` without draw offers).

use umpire_rules::shakmaty::san::San;
use umpire_rules::{Command, CommandParseError, Invalid};
use umpire_view::{PlayerView, why_no_man_can};

use super::words::refusal;

/// Why a typed line is not sent.
#[derive(Debug, PartialEq, Eq)]
pub enum NotSent {
    /// Not a command at all: the caller names the words it takes.
    NotACommand,
    /// A command the player cannot give now, with the reason in words.
    Refused(String),
}

/// The command `text` names for the player of `view`, or why it is not sent.
pub fn player_command(view: &PlayerView, text: &str) -> Result<Command, NotSent> {
    let board = view.own_board();
    let command = match board.parse_command(text) {
        Ok(command) => command,
        Err(CommandParseError::NotACommand(_)) => return Err(NotSent::NotACommand),
        Err(e @ CommandParseError::NoSuchMove(_)) => {
            return Err(NotSent::Refused(no_such_move(view, text, &e)));
        }
        Err(e) => return Err(NotSent::Refused(e.to_string())),
    };
    match command {
        Command::Attempt(a) if !board.is_possible(a, false) => Err(NotSent::Refused(
            CommandParseError::NoSuchMove(text.trim().to_owned()).to_string(),
        )),
        Command::AskAny if !view.rules().has_any_question() => Err(NotSent::Refused(format!(
            "any refused: {}.",
            refusal(Invalid::NoAnyQuestion)
        ))),
        Command::OfferDraw if !view.rules().draw_offers => Err(NotSent::Refused(format!(
            "draw refused: {}.",
            refusal(Invalid::NoDrawOffers)
        ))),
        command => Ok(command),
    }
}

/// The refusal `error` of SAN `text` that no own man can play, with why for each man of that
/// kind (`"Qh4": no man of yours can make that move: your queen on d1 is blocked by your pawn
/// on e2`).
pub fn no_such_move(view: &PlayerView, text: &str, error: &CommandParseError) -> String {
    match San::from_ascii(text.trim().as_bytes()) {
        Ok(San::Normal { role, to, .. }) => format!(
            "{error}: {}",
            why_no_man_can(view.own_board(), role, to).join("; ")
        ),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    #[test]
    fn a_move_no_own_man_can_make_is_refused_alike_in_san_and_uci() {
        let black = PlayerView::standard(RuleSet::WILD16, Color::Black);
        let uci = player_command(&black, "e2e4");
        let san = player_command(&black, "Ke7");
        for refused in [&uci, &san] {
            assert!(
                matches!(refused, Err(NotSent::Refused(m)) if m.contains("no man of yours can make that move")),
                "{refused:?}"
            );
        }
        assert!(player_command(&black, "e7e5").is_ok());
        assert!(player_command(&black, "Nf6").is_ok());
        assert_eq!(player_command(&black, "hello"), Err(NotSent::NotACommand));
        let white = PlayerView::standard(RuleSet::WILD16, Color::White);
        assert_eq!(
            player_command(&white, "Qh5"),
            Err(NotSent::Refused(
                "\"Qh5\": no man of yours can make that move: your queen on d1 is blocked by \
                 your pawn on e2"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn any_is_refused_where_the_rules_have_no_such_question() {
        let wild16 = PlayerView::standard(RuleSet::WILD16, Color::White);
        assert!(matches!(
            player_command(&wild16, "any"),
            Err(NotSent::Refused(m)) if m.contains("any refused: this rule set has no")
        ));
        let berkeley_any = PlayerView::standard(RuleSet::BERKELEY_ANY, Color::White);
        assert_eq!(player_command(&berkeley_any, "any"), Ok(Command::AskAny));
    }
}
