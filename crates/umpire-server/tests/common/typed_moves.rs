//! Typed moves that name no move of the player's, for the hiding suites: which lines of a
//! fixed list the server must refuse on the own board a `state` frame shows, and in what words.

use serde_json::Value;
use umpire_rules::OwnBoard;
use umpire_rules::shakmaty::{Board, Color, Piece, Role, Square};
use umpire_server::game::typed_move::typed_move;

/// Lines a player types into the move box, some of which name no move of theirs in a given
/// position (no castling: the test's copy of the own board does not know the castling rights).
pub const TYPED: [&str; 15] = [
    "Ke2", "Kd7", "Qh5", "Qxd8", "Nd4", "Nf6", "Bc4", "Bb5", "Rd1", "Re8", "e5", "exd5", "a8=Q",
    "h1=N", "zz",
];

/// The own board a `state` frame shows: its player's side and men (`"men"`).
pub fn own_board_of(state: &str) -> OwnBoard {
    let v: Value = serde_json::from_str(state).expect("JSON");
    let side = if v["you"] == "black" {
        Color::Black
    } else {
        Color::White
    };
    let mut board = Board::empty();
    for man in v["men"].as_array().expect("men") {
        let square: Square = man["square"]
            .as_str()
            .expect("a square")
            .parse()
            .expect("a square's name");
        let role = match man["man"].as_str().expect("a man") {
            "pawn" => Role::Pawn,
            "knight" => Role::Knight,
            "bishop" => Role::Bishop,
            "rook" => Role::Rook,
            "queen" => Role::Queen,
            _ => Role::King,
        };
        board.set_piece_at(square, Piece { color: side, role });
    }
    OwnBoard::new(side, &board, [false, false])
}

/// Three lines of [`TYPED`] (chosen by `turn`) that the player of `state` (a `state` frame)
/// cannot play, each with the words the server refuses it in.
pub fn refused_moves(state: &str, turn: usize) -> Vec<(&'static str, String)> {
    let own = own_board_of(state);
    TYPED
        .iter()
        .cycle()
        .skip(turn * 3)
        .take(3)
        .filter_map(|text| typed_move(&own, text).err().map(|words| (*text, words)))
        .collect()
}
