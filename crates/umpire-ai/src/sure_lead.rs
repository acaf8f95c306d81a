//! The lead in material a player can count from what it was told alone: its own men against
//! the most the enemy's men may be worth.
//!
//! The enemy's count says how many men it has and how many of them may be pawns at most; every
//! other man is a piece, counted as a queen unless the checks heard prove it is a knight. A
//! check by a knight after the enemy's move proves that the enemy has a knight, until the
//! player takes one of its pieces (that may have been the knight). Issue 28: game 62 of session
//! 8's quiet `mcts` against `raider` row (100 ms a decision): `mcts`, a queen and a pawn against
//! a knight and four pawns (3 ahead), had taken six of the seven enemy pieces, counted the kinds
//! of two of them wrong (the belief before those captures was a restarted guess), counted itself
//! a quarter of a pawn ahead, and drew by repetition; a knight had given it check since its last
//! capture of a piece, so the one piece left was that knight, and it was surely 3 pawns ahead.
//!
//! As sure as the enemy's count: where promotions are not announced, a pawn may have become a
//! piece unseen (the count of pawns is then only a bound).

use umpire_rules::shakmaty::Role;
use umpire_rules::{Announcement, CheckKind, Man, Verdict};
use umpire_view::PlayerView;

use crate::eval::{material, material_value};

/// Whether the checks heard prove that the enemy of `view`'s player has a knight: a knight gave
/// check after one of the enemy's moves and the player has taken none of its pieces since.
pub fn knight_proven(view: &PlayerView) -> bool {
    let side = view.side();
    for observation in view.transcript().iter().rev() {
        let announcements = &observation.announcements;
        if observation.actor == side {
            let accepted = observation
                .own
                .is_some_and(|own| own.verdict == Verdict::Accepted);
            let piece_taken = announcements.iter().any(|a| {
                matches!(
                    a,
                    Announcement::Capture { man, .. } if *man != Some(Man::Pawn)
                )
            });
            if accepted && piece_taken {
                return false;
            }
        } else if observation.moved
            && announcements
                .iter()
                .any(|a| matches!(a, Announcement::Check(CheckKind::Knight)))
        {
            return true;
        }
    }
    false
}

/// The lead in material (pawns) of `view`'s player that its enemy's count allows at the least:
/// its own men, less a pawn for every enemy man that may be a pawn and a queen for every other
/// man but the king, one of them a knight where [`knight_proven`] says so.
pub fn sure_lead(view: &PlayerView) -> f64 {
    let side = view.side();
    let enemy = view.enemy();
    let pieces = enemy
        .men
        .saturating_sub(1)
        .saturating_sub(enemy.pawns_at_most);
    let knights = u8::from(pieces > 0 && knight_proven(view));
    let own = material(view.own_board().board(), side);
    own - f64::from(enemy.pawns_at_most)
        - f64::from(knights) * material_value(Role::Knight)
        - f64::from(pieces - knights) * material_value(Role::Queen)
}

#[cfg(test)]
mod tests {
    use super::*;

    use umpire_rules::shakmaty::Color;
    use umpire_rules::{Attempt, Command, RuleSet, Umpire};
    use umpire_testkit::pos;

    use crate::{play_observations, setup_view};

    /// White's view after `moves` (all accepted) from `fen`, White to move first.
    fn white_after(fen: &str, moves: &[&str]) -> PlayerView {
        let start = pos(fen);
        let rules = RuleSet::WILD16;
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut agent = crate::RandomAgent::new(setup_view(rules, &start, Color::White), 0);
        for uci in moves {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, Verdict::Accepted, "{uci}");
            play_observations(&mut agent, Color::White, command, &outcome).unwrap();
        }
        crate::Agent::view(&agent).clone()
    }

    #[test]
    fn a_knight_check_proves_the_last_piece_a_knight() {
        // A queen against a knight and a pawn: the knight checks from f3.
        let fen = "4k3/7p/8/8/7n/8/8/Q3K3 w - - 0 1";
        let before = white_after(fen, &["a1a2"]);
        assert!(!knight_proven(&before));
        // The queen (9) against a queen (the piece unknown) and a pawn.
        assert_eq!(sure_lead(&before), 9.0 - 9.0 - 1.0);
        let checked = white_after(fen, &["a1a2", "h4f3", "e1e2"]);
        assert!(knight_proven(&checked));
        assert_eq!(sure_lead(&checked), 9.0 - 3.0 - 1.0);
    }

    #[test]
    fn a_piece_taken_after_the_check_may_have_been_the_knight() {
        // The knight checks from d3; then White takes a piece, the bishop on a6.
        let fen = "4k3/8/b7/8/5n2/8/8/Q3K3 w - - 0 1";
        let checked = white_after(fen, &["a1a2", "f4d3", "e1d2"]);
        assert!(knight_proven(&checked));
        let taken = white_after(fen, &["a1a2", "f4d3", "e1d2", "e8e7", "a2a6"]);
        assert!(!knight_proven(&taken));
        // A check given by the player's own knight proves nothing of the enemy's.
        let own = white_after(
            "4k3/8/8/8/8/8/7r/N3K3 w - - 0 1",
            &["a1c2", "h2h3", "c2e3", "h3h2", "e3d5", "h2h3", "d5f6"],
        );
        assert!(!knight_proven(&own));
    }
}
