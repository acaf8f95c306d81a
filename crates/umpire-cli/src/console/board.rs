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

/// Draws `board` from `side`'s side, marking `mark` with `*`. With `colour`, squares are
/// shaded with terminal colours.
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
            let tail = if mark == Some(sq) { '*' } else { ' ' };
            let cell = format!("{}{tail}", man.unwrap_or(if light { '·' } else { ' ' }));
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
        out.push(file.char());
        out.push(' ');
    }
    out.push('\n');
    out
}
