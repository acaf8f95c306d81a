//! [`restart`]: a dead belief restarted from a guess, shared by the agents that keep a belief.

use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::CheckKind;
use umpire_rules::shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, Rank, Role,
    Square, attacks,
};
use umpire_view::PlayerView;

/// A belief restarted from the freshest of `guesses` (positions drawn from the belief when the
/// player's last turn began, oldest first) that makes a legal position with the player's own
/// men as they stand now: the enemy men where the guess had them, minus any that would attack
/// the player's king, the enemy king put back on the nearest empty square the player's men
/// neither attack nor touch; no castling, no en passant. `None` if no guess fits.
///
/// If the enemy has just taken one of the player's men, the taker is put on the announced
/// square ([`place_taker`]): a guess from before the capture does not have it there, and a
/// plan from it walked men into the squares the taker attacks (issue 28: a pawn that took a
/// bishop on d3 then took the rook on c2 and the knight on b1 while the belief was empty).
/// Each check announced this turn that no guessed man gives is given ([`place_checkers`]).
/// If the placed men make no legal position, the guess is used as it was.
///
/// The restarted belief is exact about that guess only, so it is approximate; it keeps an
/// agent's play informed and costs little, where a dead belief would replay its repairs at
/// every observation.
pub fn restart(view: &PlayerView, guesses: &[Chess], config: BeliefConfig) -> Option<Belief> {
    restart_from(view, guesses, config, true)
}

/// [`restart`] without this turn's announcements (no taker or checker placed): the restart of
/// the `raider` yardstick, kept as it was when its rows were first measured so that rows of
/// different `mcts` builds against it stay comparable.
pub fn restart_plain(view: &PlayerView, guesses: &[Chess], config: BeliefConfig) -> Option<Belief> {
    restart_from(view, guesses, config, false)
}

fn restart_from(
    view: &PlayerView,
    guesses: &[Chess],
    config: BeliefConfig,
    announcements: bool,
) -> Option<Belief> {
    guesses
        .iter()
        .rev()
        .filter_map(|guess| adjusted(view, guess, announcements))
        .find_map(|start| Belief::new(*view.rules(), start, view.side(), config).ok())
}

/// `guess` made a legal position with the player's own men as they stand now, the player to
/// move (see [`restart`]); `None` if it cannot be (or the position has no moves).
pub(crate) fn adjusted(view: &PlayerView, guess: &Chess, announcements: bool) -> Option<Chess> {
    let side = view.side();
    let own = view.own_board().board();
    let mine = own.by_color(side);
    let mut setup = guess.to_setup(EnPassantMode::Legal);
    // The enemy king is set aside and put back last, where it may legally stand.
    let guessed_king = setup.board.king_of(!side)?;
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
    if announcements {
        trim_to_count(&mut setup.board, side, view.enemy());
    }
    let before_taker = setup.clone();
    if announcements {
        if let Some(at) = view.turn().capture_at {
            place_taker(&mut setup.board, at, side);
        }
        let keep = view
            .turn()
            .capture_at
            .map_or(Bitboard::EMPTY, Bitboard::from_square);
        place_checkers(&mut setup.board, &view.turn().checks, side, keep);
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
        .min_by_key(|&sq| (sq.distance(guessed_king), sq))?;
    setup.board.set_piece_at(to, Role::King.of(!side));
    // With the taker if that makes a legal position, else the guess as it was.
    let mut plain = before_taker;
    plain.board.set_piece_at(to, Role::King.of(!side));
    [setup, plain].into_iter().find_map(|candidate| {
        Chess::from_setup(candidate, CastlingMode::Standard)
            .ok()
            .filter(|p| !p.legal_moves().is_empty())
    })
}

/// Takes off the enemy men (of the side that is not `side`; the enemy king is set aside on
/// `board`) beyond what `enemy` says stand: its count of men is exact (every capture is
/// announced), but a guess kept before the player's own captures still holds the men taken
/// since. Pawns go first while more are held than may stand, then the men nearest to the
/// player's men (the likeliest taken), the cheaper first.
///
/// Issue 28 (session 10): replayed over 29 games of `mcts@4000` against `raider`, 42 % of the
/// decisions planned from the belief and 85 % of those planned from the fallback had a first
/// position with more enemy men than the announced captures leave.
pub fn trim_to_count(board: &mut Board, side: Color, enemy: umpire_view::EnemyMaterial) {
    let foe = !side;
    let allowed = usize::from(enemy.men.saturating_sub(1));
    let pawns_allowed = usize::from(enemy.pawns_at_most);
    let mine = board.by_color(side);
    let near = |sq: Square| mine.into_iter().map(|m| m.distance(sq)).min().unwrap_or(8);
    loop {
        let men = board.by_color(foe) & !board.kings();
        if men.count() <= allowed {
            return;
        }
        let pawns = men & board.pawns();
        let pool = if pawns.count() > pawns_allowed {
            pawns
        } else {
            men
        };
        let Some(sq) = pool
            .into_iter()
            .min_by_key(|&sq| (near(sq), board.role_at(sq).map_or(0, |r| r as u8), sq))
        else {
            return;
        };
        board.discard_piece_at(sq);
    }
}

/// Gives the check of each kind in `checks` (announced against `side`'s king this turn) that
/// no enemy man on `board` gives: the enemy man nearest to it that can give such a check
/// (a rook or queen on a rank or file, a bishop or queen on a diagonal, a knight; a queen
/// last), not one on `keep`, is moved to the nearest empty square of that kind's line from
/// which it sees the king. Issue 28: a fallback restarted from a stale guess had no checker
/// (its men that attacked the king are taken off), so a king's move that uncovered the queen to
/// the checking bishop looked safe; with the checker placed, the safety check sees it.
pub fn place_checkers(board: &mut Board, checks: &[CheckKind], side: Color, keep: Bitboard) {
    let Some(king) = board.king_of(side) else {
        return;
    };
    let enemy = !side;
    for &kind in checks {
        let line = CheckKind::line(kind, king);
        let occupied = board.occupied();
        if (board.attacks_to(king, enemy, occupied) & line).any() {
            continue;
        }
        let fits = |role: Role| match kind {
            CheckKind::Rank | CheckKind::File => matches!(role, Role::Rook | Role::Queen),
            CheckKind::LongDiagonal | CheckKind::ShortDiagonal => {
                matches!(role, Role::Bishop | Role::Queen)
            }
            CheckKind::Knight => role == Role::Knight,
        };
        let Some(to) = line
            .into_iter()
            .filter(|&sq| {
                !occupied.contains(sq) && (attacks::between(sq, king) & occupied).is_empty()
            })
            .min_by_key(|&sq| (sq.distance(king), sq))
        else {
            continue;
        };
        let from = (board.by_color(enemy) & !board.kings() & !keep)
            .into_iter()
            .filter(|&sq| board.role_at(sq).is_some_and(fits))
            .min_by_key(|&sq| (board.role_at(sq) == Some(Role::Queen), sq.distance(to), sq));
        if let Some(piece) = from.and_then(|sq| board.remove_piece_at(sq)) {
            board.set_piece_at(to, piece);
        }
    }
}

/// Puts an enemy man (of the side that is not `side`) on `at`, the square where the enemy has
/// just taken one of `side`'s men, if none stands there: the cheapest enemy man other than
/// the king that attacks `at` on `board`, else the nearest one (then the cheapest); a pawn
/// that lands on its last rank becomes a queen. Nothing changes if the enemy has no man but
/// the king.
pub fn place_taker(board: &mut Board, at: Square, side: Color) {
    let enemy = !side;
    if board.color_at(at) == Some(enemy) {
        return;
    }
    let occupied = board.occupied();
    let cost = |sq: Square| board.role_at(sq).map_or(u8::MAX, |r| r as u8);
    let men = board.by_color(enemy) & !board.kings();
    let attackers = board.attacks_to(at, enemy, occupied) & men;
    let from = attackers
        .into_iter()
        .min_by_key(|&sq| (cost(sq), sq))
        .or_else(|| {
            men.into_iter()
                .min_by_key(|&sq| (sq.distance(at), cost(sq), sq))
        });
    let Some(from) = from else { return };
    let Some(mut piece) = board.remove_piece_at(from) else {
        return;
    };
    let last = if enemy == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    if piece.role == Role::Pawn && at.rank() == last {
        piece.role = Role::Queen;
    }
    board.discard_piece_at(at);
    board.set_piece_at(at, piece);
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Piece;
    use umpire_rules::shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().as_setup().board.clone()
    }

    #[test]
    fn the_men_beyond_the_known_count_are_taken_off() {
        use umpire_view::EnemyMaterial;
        // Black is known to have three men (king, one pawn, one more); the guess holds a rook
        // on d4 next to the white rook on d3, a knight on h8 and pawns on a7 and h7.
        let mut b = board("7n/p6p/8/8/3r4/3R4/8/4K3 w - - 0 1");
        let known = EnemyMaterial {
            men: 3,
            pawns_at_most: 1,
        };
        trim_to_count(&mut b, Color::White, known);
        // One pawn goes (too many pawns), then the man nearest to White's men: the rook.
        assert_eq!((b.by_color(Color::Black) & !b.kings()).count(), 2);
        assert_eq!(b.piece_at(Square::D4), None);
        assert_eq!(b.pawns().count(), 1);
        assert_eq!(b.piece_at(Square::H8), Some(Piece::from_char('n').unwrap()));
        // A count that fits changes nothing.
        let before = b.clone();
        trim_to_count(&mut b, Color::White, known);
        assert_eq!(b, before);
    }

    #[test]
    fn the_pawn_that_can_take_is_put_on_the_capture_square() {
        // White's bishop on d3 was taken; a black pawn on e4 and a black rook on d8 could have
        // taken it: the pawn is the cheaper.
        let mut b = board("3rk3/8/8/8/4p3/8/2R5/4K3 w - - 0 1");
        place_taker(&mut b, Square::D3, Color::White);
        assert_eq!(b.piece_at(Square::D3), Some(Piece::from_char('p').unwrap()));
        assert_eq!(b.piece_at(Square::E4), None);
        assert_eq!(b.piece_at(Square::D8), Some(Piece::from_char('r').unwrap()));
    }

    #[test]
    fn without_an_attacker_the_nearest_man_is_moved_and_a_pawn_promotes() {
        // Nothing of Black's attacks b1: the nearest man (the pawn on c3) is put there, as a
        // queen on its last rank.
        let mut b = board("4k2r/8/8/8/8/2p5/8/4K3 w - - 0 1");
        place_taker(&mut b, Square::B1, Color::White);
        assert_eq!(b.piece_at(Square::B1), Some(Piece::from_char('q').unwrap()));
        assert_eq!(b.piece_at(Square::C3), None);
        // A man already on the square stays; a bare king moves nothing.
        let mut b = board("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
        let before = b.clone();
        place_taker(&mut b, Square::D3, Color::White);
        assert_eq!(b, before);
        let mut b = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        place_taker(&mut b, Square::D3, Color::White);
        assert_eq!(b, board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    }

    #[test]
    fn an_announced_check_is_given_from_the_nearest_square_of_its_line() {
        // Black's king on d6, its queen on e7; a short-diagonal check (the a3-f8 diagonal):
        // White's bishop on h1 goes to c5, which then also eyes e7 through the king.
        let mut b = board("8/4q3/3k4/8/8/8/8/3K3B b - - 0 1");
        place_checkers(
            &mut b,
            &[CheckKind::ShortDiagonal],
            Color::Black,
            Bitboard::EMPTY,
        );
        assert_eq!(b.piece_at(Square::C5), Some(Piece::from_char('B').unwrap()));
        // A check already given is left; a kind no man can give moves nothing.
        let given = board("8/4q3/3k4/2B5/8/8/8/3K4 b - - 0 1");
        let mut b = given.clone();
        place_checkers(
            &mut b,
            &[CheckKind::ShortDiagonal],
            Color::Black,
            Bitboard::EMPTY,
        );
        assert_eq!(b, given);
        let mut b = given.clone();
        place_checkers(&mut b, &[CheckKind::Knight], Color::Black, Bitboard::EMPTY);
        assert_eq!(b, given);
        // A man kept (the taker on its square) is not moved.
        let mut b = board("8/8/3k4/8/8/8/8/R2K4 b - - 0 1");
        place_checkers(
            &mut b,
            &[CheckKind::File],
            Color::Black,
            Bitboard::from_square(Square::A1),
        );
        assert_eq!(b.piece_at(Square::A1), Some(Piece::from_char('R').unwrap()));
    }
}
