//! [`why_no_man_can`]: why no man of the player's can make a move written in SAN (`Qh4`), in
//! plain sentences: for each man of that kind, the own man in its way or that it does not
//! move so. Built from the player's own board only.

use umpire_rules::OwnBoard;
use umpire_rules::shakmaty::{Bitboard, Role, Square, attacks};

/// The name of a kind of man.
fn name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// Why no own `role` on `board` can go to `to` (one line per man of that kind, or one saying
/// there is none).
pub fn why_no_man_can(board: &OwnBoard, role: Role, to: Square) -> Vec<String> {
    let men = board.board();
    let mine = men.by_role(role) & men.by_color(board.side());
    if mine.is_empty() {
        return vec![format!("you have no {} left", name(role))];
    }
    let own = men.by_color(board.side());
    mine.into_iter()
        .map(|from| {
            let man = format!("your {} on {from}", name(role));
            if let Some(there) = men.role_at(to).filter(|_| own.contains(to)) {
                if from == to {
                    return format!("{man} is already there");
                }
                return format!("{man} cannot go to {to}: your {} stands there", name(there));
            }
            if role == Role::Pawn {
                return format!(
                    "{man} cannot go to {to}: a pawn goes straight ahead (two squares from its \
                     first rank), and captures one square diagonally forward"
                );
            }
            let piece = umpire_rules::shakmaty::Piece {
                color: board.side(),
                role,
            };
            if !attacks::attacks(from, piece, Bitboard::EMPTY).contains(to) {
                return format!("{man} does not move that way: it cannot reach {to} in one move");
            }
            let between = attacks::between(from, to) & own;
            // The own man nearest the mover is the one in its way.
            match between.into_iter().min_by_key(|sq| sq.distance(from)) {
                Some(block) => format!(
                    "{man} is blocked by your {} on {block}",
                    men.role_at(block).map_or("man", name)
                ),
                None => format!("{man} could go to {to}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::{Chess, Color};

    #[test]
    fn a_queen_behind_its_own_pawn_is_named_with_the_pawn() {
        let board = OwnBoard::of(&Chess::default(), Color::White);
        assert_eq!(
            why_no_man_can(&board, Role::Queen, Square::H5),
            ["your queen on d1 is blocked by your pawn on e2"]
        );
        assert_eq!(
            why_no_man_can(&board, Role::Queen, Square::H6),
            ["your queen on d1 does not move that way: it cannot reach h6 in one move"]
        );
        let black = OwnBoard::of(&Chess::default(), Color::Black);
        assert_eq!(
            why_no_man_can(&black, Role::King, Square::E7),
            ["your king on e8 cannot go to e7: your pawn stands there"]
        );
        let knights = why_no_man_can(&board, Role::Knight, Square::D2);
        assert_eq!(knights.len(), 2, "{knights:?}");
        assert!(knights.iter().all(|l| l.contains("knight")));
    }
}
