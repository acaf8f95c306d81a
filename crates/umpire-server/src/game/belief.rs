//! One side's belief for the overlay (`GET /api/games/{id}/belief`): the probabilities of an
//! enemy man on each square, computed with `umpire-belief` from that side's observations only
//! (cut from the referee record by [`Record::observations_until`]; the true board never enters)
//! and seeded from public things only: the game's id and the side.

use umpire_protocol::http::belief::BeliefBody;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

use crate::game::belief_stream::BeliefStream;

pub use crate::game::belief_stream::{BELIEF_BOUND, BELIEF_PARTICLES, belief_seed};

/// The number of moves played in `record`.
pub fn plies_played(record: &Record) -> u32 {
    record.observations_until(Color::White, None).1
}

/// The belief of `side` in the game `game` of `record` after `plies` moves (at most the
/// moves played; `None`: all of them, with what the side heard after the last move),
/// computed afresh from the start. Only the side's observations are read. Runs for as long as
/// the belief takes: call it off the async threads. The server follows beliefs along instead
/// ([`BeliefStream`], the same bytes); this is the reference it is tested against.
pub fn belief_body(
    game: &str,
    record: &Record,
    side: Color,
    plies: Option<u32>,
) -> Result<BeliefBody, String> {
    let (observations, plies) = record.observations_until(side, plies);
    let mut stream = BeliefStream::new(game, record, side)?;
    stream.advance(&observations)?;
    Ok(stream.body(plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::record::Game;

    #[test]
    fn at_the_start_the_enemy_stands_on_its_home_rows() {
        let record = Game::new(RuleSet::BERKELEY_ANY).into_record();
        let body = belief_body("g", &record, Color::White, None).unwrap();
        assert_eq!(body.plies, 0);
        assert!(body.exact);
        assert_eq!(body.size, 1);
        assert_eq!(body.squares.len(), 64);
        // e8: the black king, for sure; e1: White's own king, so no enemy man.
        assert_eq!(body.squares[60].king, 1.0);
        assert_eq!(body.squares[60].any, 1.0);
        assert_eq!(body.squares[4].any, 0.0);
        assert_eq!(body.squares[52].pawn, 1.0);
    }

    #[test]
    fn the_seed_depends_on_the_public_key_only() {
        let a = belief_seed("abc", Color::White);
        assert_eq!(a, belief_seed("abc", Color::White));
        assert_ne!(a, belief_seed("abc", Color::Black));
        assert_ne!(a, belief_seed("abd", Color::White));
    }
}
