//! [`typed_move`]: a move typed by a player (the browser's move box, `umpire connect`) read
//! against that player's own board, and when it names no move of theirs, why, in a player's
//! words: `"Ke2": you have no king that can reach e2 (your king on e1 cannot go to e2: your pawn
//! stands there)`. The words come from the player's own men alone (an [`OwnBoard`] holds no
//! enemy man), so they tell nothing of the opponent.

use umpire_rules::shakmaty::Role;
use umpire_rules::shakmaty::san::San;
use umpire_rules::{Attempt, Command, CommandParseError, OwnBoard};
use umpire_view::why_no_man_can;

/// The attempt `text` names on `board`, or why it names none, in words.
pub fn typed_move(board: &OwnBoard, text: &str) -> Result<Attempt, String> {
    match board.parse_command(text) {
        Ok(Command::Attempt(a)) => Ok(a),
        Ok(_) | Err(CommandParseError::NotACommand(_)) => Err(not_a_move(text)),
        Err(CommandParseError::NoSuchMove(_)) => Err(no_such_move(board, text)),
        // Castling that cannot be, or SAN more than one man could play: already in words.
        Err(e) => Err(e.to_string()),
    }
}

/// What the move box takes, for a line that is not a move at all.
fn not_a_move(text: &str) -> String {
    let shown: String = text.trim().chars().take(16).collect();
    format!(
        "{shown:?} is not a move: type it in SAN (e4, Nf3, exd5, O-O) or as its two squares \
         (e2e4)"
    )
}

/// SAN that no man of the player's can play: which men of that kind they have, and why none of
/// them gets there.
fn no_such_move(board: &OwnBoard, text: &str) -> String {
    let shown = text.trim();
    match San::from_ascii(shown.as_bytes()) {
        Ok(San::Normal { role, to, .. }) => {
            let why = why_no_man_can(board, role, to).join("; ");
            let mine = board.board().by_role(role) & board.board().by_color(board.side());
            if mine.is_empty() {
                format!("{shown:?}: {why}")
            } else {
                format!(
                    "{shown:?}: you have no {} that can reach {to} ({why})",
                    role_name(role)
                )
            }
        }
        _ => format!("{shown:?}: none of your men can make that move"),
    }
}

/// A role in words.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess, Color};

    fn white(fen: &str) -> OwnBoard {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        OwnBoard::of(&pos, Color::White)
    }

    #[test]
    fn a_king_that_cannot_reach_the_square_is_named_with_why() {
        let start = white("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            typed_move(&start, "Ke2"),
            Err(
                "\"Ke2\": you have no king that can reach e2 (your king on e1 cannot go to \
                 e2: your pawn stands there)"
                    .to_owned()
            )
        );
        assert_eq!(
            typed_move(&start, "Ke3"),
            Err(
                "\"Ke3\": you have no king that can reach e3 (your king on e1 does not move \
                 that way: it cannot reach e3 in one move)"
                    .to_owned()
            )
        );
        assert_eq!(
            typed_move(&start, "Nf3"),
            Ok(Attempt::from_uci("g1f3").unwrap())
        );
    }

    #[test]
    fn a_kind_the_player_has_no_more_of_is_said_so() {
        let no_bishops = white("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR w KQkq - 0 1");
        assert_eq!(
            typed_move(&no_bishops, "Bc4"),
            Err("\"Bc4\": you have no bishop left".to_owned())
        );
    }

    #[test]
    fn a_line_that_is_no_move_says_what_the_box_takes() {
        let start = white("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for text in ["hello", "any", "zz", "e9"] {
            let said = typed_move(&start, text).unwrap_err();
            assert!(
                said.contains("is not a move: type it in SAN"),
                "{text}: {said}"
            );
        }
    }

    #[test]
    fn the_words_depend_on_the_players_own_men_only() {
        // The same white men; the black men differ (one black queen on e2 in the second: the
        // king could take it, yet the words must not say so or differ at all).
        let a = white("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let b = white("r3k3/pp6/8/8/8/5n2/4P1q1/4K3 w - - 0 1");
        let c = white("4k3/8/8/8/8/8/3qP3/4K3 w - - 0 1");
        for text in ["Ke2", "Kd3", "Bc4", "Qd1", "exd3", "Nf3", "hello", "O-O"] {
            let said = typed_move(&a, text);
            assert_eq!(typed_move(&b, text), said, "{text}");
            assert_eq!(typed_move(&c, text), said, "{text}");
        }
    }
}
