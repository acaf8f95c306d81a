//! The two strings OpenSpiel asks of a state for one player, both computed from the player's
//! [`PlayerView`] alone:
//!
//! - [`observation_string`]: what the player knows now (its own board, the last attempt and
//!   verdict, what it heard with the last move and this turn, the enemy material);
//! - [`information_state_string`]: the player's whole observation history, one line per
//!   observation in the record notation ([`umpire_rules::record::notation`]).

use std::fmt::Write;

use umpire_rules::record::notation::{announcement_token, command_token, verdict_token};
use umpire_rules::shakmaty::{Color, File, Rank, Square};
use umpire_rules::{Command, Observation};
use umpire_view::PlayerView;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The player's present knowledge as text: its own board (rank 8 first, `.` where it has no
/// man), then one `key: value` line each for the side, the side to move, the last attempt and
/// verdict, what was heard with the last move, this turn's rejected attempts and pawn
/// information, the enemy material and the result.
pub fn observation_string(view: &PlayerView) -> String {
    let mut s = String::new();
    let board = view.own_board().board();
    for rank in (0..8u32).rev() {
        for file in 0..8u32 {
            let square = Square::from_coords(File::new(file), Rank::new(rank));
            s.push(board.piece_at(square).map_or('.', |p| p.char()));
        }
        s.push('\n');
    }
    let _ = writeln!(s, "side: {}", color_name(view.side()));
    let _ = writeln!(s, "to_move: {}", color_name(view.to_move()));
    let _ = writeln!(s, "plies: {}", view.plies());
    let transcript = view.transcript();
    let last_own = transcript.iter().rev().find_map(|o| {
        o.own
            .filter(|own| matches!(own.command, Command::Attempt(_)))
            .map(|own| {
                format!(
                    "{} {}",
                    command_token(own.command),
                    verdict_token(own.verdict)
                )
            })
    });
    let _ = writeln!(s, "last_attempt: {}", last_own.as_deref().unwrap_or("-"));
    let heard = transcript
        .iter()
        .rev()
        .find(|o| o.moved)
        .map(tokens)
        .unwrap_or_default();
    let _ = writeln!(s, "last_move_heard: {heard}");
    let turn = view.turn();
    let rejected: Vec<String> = turn.rejected.iter().map(|a| a.to_string()).collect();
    let _ = writeln!(s, "rejected: {}", rejected.join(" "));
    let opt = |v: Option<u8>| v.map_or("-".to_owned(), |n| n.to_string());
    let _ = writeln!(s, "pawn_tries: {}", opt(turn.pawn_tries));
    let squares: Vec<String> = turn
        .try_squares
        .map(|bb| bb.into_iter().map(|q| q.to_string()).collect())
        .unwrap_or_default();
    let _ = writeln!(s, "try_squares: {}", squares.join(" "));
    let yes_no = |v: Option<bool>| match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    };
    let _ = writeln!(s, "pawn_captures: {}", yes_no(turn.has_pawn_capture));
    let _ = writeln!(s, "any: {}", yes_no(turn.any_answer));
    let _ = writeln!(s, "must_try_pawn_capture: {}", turn.must_try_pawn_capture);
    let enemy = view.enemy();
    let _ = writeln!(
        s,
        "enemy: men {} pawns_at_most {}",
        enemy.men, enemy.pawns_at_most
    );
    let _ = writeln!(
        s,
        "result: {}",
        view.result().map_or("-".to_owned(), |r| format!(
            "{} {}",
            r.score(),
            r.reason.as_str()
        ))
    );
    s
}

/// The tokens of what an observation says: the own command and verdict (if the player's),
/// `moved` if the turn passed, then the announcements heard.
fn tokens(o: &Observation) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(own) = o.own {
        parts.push(command_token(own.command));
        parts.push(verdict_token(own.verdict));
    }
    if o.moved {
        parts.push("moved".to_owned());
    }
    parts.extend(o.announcements.iter().map(|&a| announcement_token(a)));
    parts.join(" ")
}

/// The player's whole observation history: the side, its view at the start (`start`: the own
/// men as a board FEN and the enemy material), the opening announcements, then one line per
/// observation, prefixed by who gave the command (`me` or `opponent`).
pub fn information_state_string(start: &PlayerView, view: &PlayerView) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "side: {}", color_name(view.side()));
    let enemy = start.enemy();
    let _ = writeln!(
        s,
        "start: {} enemy men {} pawns_at_most {}",
        start.own_board().board(),
        enemy.men,
        enemy.pawns_at_most
    );
    let opening: Vec<String> = view
        .opening()
        .iter()
        .map(|&a| announcement_token(a))
        .collect();
    let _ = writeln!(s, "opening: {}", opening.join(" "));
    for o in view.transcript() {
        let who = if o.actor == view.side() {
            "me"
        } else {
            "opponent"
        };
        let _ = writeln!(s, "{who}: {}", tokens(o));
    }
    s
}
