//! Drawing a player's board at the terminal: its own men as chess figures, from its own side,
//! one square marked, the squares shaded when the output is a terminal.

use std::fmt::Write as _;

use umpire_rules::shakmaty::{Board, Color, File, Rank, Role, Square};

fn figure(role: Role, color: Color) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// Draws `board` from `side`'s side, three columns a square, the man in the middle under its
/// file's letter; `mark` is drawn in brackets (`[♙]`, `[ ]`), so that the mark sits on its own
/// square and no other. With `colour`, squares are shaded with terminal colours.
pub fn draw(board: &Board, side: Color, mark: Option<Square>, colour: bool) -> String {
    let mut ranks: Vec<Rank> = Rank::ALL.to_vec();
    let mut files: Vec<File> = File::ALL.to_vec();
    if side == Color::White {
        ranks.reverse();
    } else {
        files.reverse();
    }
    let mut out = String::new();
    for rank in &ranks {
        let _ = write!(out, " {} ", rank.char());
        for file in &files {
            let sq = Square::from_coords(*file, *rank);
            let light = (u32::from(*file) + u32::from(*rank)) % 2 == 1;
            let man = board.piece_at(sq).map(|p| figure(p.role, p.color));
            let middle = man.unwrap_or(if light { '·' } else { ' ' });
            let cell = if mark == Some(sq) {
                format!("[{middle}]")
            } else {
                format!(" {middle} ")
            };
            if colour {
                let shade = if light { "47;30" } else { "100;30" };
                let _ = write!(out, "\x1b[{shade}m{cell}\x1b[0m");
            } else {
                out.push_str(&cell);
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in &files {
        out.push(' ');
        out.push(file.char());
        out.push(' ');
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Piece;

    #[test]
    fn the_mark_brackets_its_own_square_under_its_file_letter() {
        let mut board = Board::empty();
        board.set_piece_at(Square::E2, Piece::from_char('B').unwrap());
        let text = draw(&board, Color::White, Some(Square::E2), false);
        let lines: Vec<&str> = text.lines().collect();
        let files = lines[8];
        let rank2 = lines[6];
        let column = files.find('e').unwrap();
        // The figure stands under `e`, between the brackets.
        assert_eq!(rank2.chars().nth(column), Some('♗'), "{text}");
        assert_eq!(rank2.chars().nth(column - 1), Some('['), "{text}");
        assert_eq!(rank2.chars().nth(column + 1), Some(']'), "{text}");
        assert_eq!(text.matches('[').count(), 1, "{text}");
        // An empty marked square is bracketed too.
        let empty = draw(&Board::empty(), Color::Black, Some(Square::D5), false);
        assert!(empty.contains("[·]") || empty.contains("[ ]"), "{empty}");
    }
}
