//! [`restart`]: a dead belief restarted from a guess, shared by the agents that keep a belief.

use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, FromSetup, Position, Role, Square,
};
use umpire_view::PlayerView;

/// A belief restarted from the freshest of `guesses` (positions drawn from the belief when the
/// player's last turn began, oldest first) that makes a legal position with the player's own
/// men as they stand now: the enemy men where the guess had them, minus any that would attack
/// the player's king, the enemy king put back on the nearest empty square the player's men
/// neither attack nor touch; no castling, no en passant. `None` if no guess fits.
///
/// The restarted belief is exact about that guess only, so it is approximate; it keeps an
/// agent's play informed and costs little, where a dead belief would replay its repairs at
/// every observation.
pub fn restart(view: &PlayerView, guesses: &[Chess], config: BeliefConfig) -> Option<Belief> {
    let side = view.side();
    let own = view.own_board().board().clone();
    let mine = own.by_color(side);
    for guess in guesses.iter().rev() {
        let mut setup = guess.to_setup(EnPassantMode::Legal);
        // The enemy king is set aside and put back last, where it may legally stand.
        let Some(guessed_king) = setup.board.king_of(!side) else {
            continue;
        };
        setup.board.discard_piece_at(guessed_king);
        for sq in setup.board.by_color(side) {
            setup.board.discard_piece_at(sq);
        }
        for sq in mine {
            if let Some(piece) = own.piece_at(sq) {
                setup.board.set_piece_at(sq, piece);
            }
        }
        setup.turn = side;
        setup.castling_rights = Bitboard::EMPTY;
        setup.ep_square = None;
        setup.halfmoves = 0;
        // A stale guess may leave the enemy to move into check: its men that attack the
        // player's king now are taken off.
        if let Some(king) = setup.board.king_of(side) {
            let attackers = setup.board.attacks_to(king, !side, setup.board.occupied());
            for sq in attackers {
                setup.board.discard_piece_at(sq);
            }
        }
        // The enemy king goes back to the nearest empty square (its guessed one if it can)
        // that none of our men attacks or stands on and that is not next to our king.
        let occupied = setup.board.occupied();
        let ours = setup.board.king_of(side);
        let to = Square::ALL
            .into_iter()
            .filter(|&sq| {
                !occupied.contains(sq)
                    && ours.is_none_or(|k| sq.distance(k) > 1)
                    && setup.board.attacks_to(sq, side, occupied).is_empty()
            })
            .min_by_key(|&sq| (sq.distance(guessed_king), sq));
        let Some(to) = to else { continue };
        setup.board.set_piece_at(to, Role::King.of(!side));
        let Ok(start) = Chess::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        if let Ok(belief) = Belief::new(*view.rules(), start, side, config) {
            return Some(belief);
        }
    }
    None
}
