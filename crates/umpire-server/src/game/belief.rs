//! One side's belief for the overlay (`GET /api/games/{id}/belief`): the probabilities of an
//! enemy man on each square, computed with `umpire-belief` from that side's observations only
//! (cut from the referee record by [`Record::observations_until`]; the true board never enters)
//! and seeded from public things only: the game's id, the side and the plies.

use sha2::{Digest, Sha256};
use umpire_belief::{Belief, BeliefConfig, Marginals};
use umpire_protocol::http::belief::{BeliefBody, SquareBelief};
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

/// Positions kept exactly before the set is sampled: the bound of a review capped in time
/// (`umpire belief --max-seconds`), small enough that one computation stays short.
pub const BELIEF_BOUND: usize = 20_000;

/// Positions kept once the set is sampled (the fast review path's particles, below the bound).
pub const BELIEF_PARTICLES: usize = 2_000;

/// The seed of the belief of `side` in game `game` after `plies` moves: a hash of those
/// three public things, the same in every true history.
pub fn belief_seed(game: &str, side: Color, plies: u32) -> u64 {
    let mut h = Sha256::new();
    h.update(b"umpire belief overlay\0");
    h.update(game.as_bytes());
    h.update(b"\0");
    h.update(side.fold_wb(b"white".as_slice(), b"black".as_slice()));
    h.update(b"\0");
    h.update(plies.to_le_bytes());
    let digest = h.finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The number of moves played in `record`.
pub fn plies_played(record: &Record) -> u32 {
    record.observations_until(Color::White, None).1
}

/// The belief of `side` in the game `game` of `record` after `plies` moves (at most the
/// moves played; `None`: all of them, with what the side heard after the last move). Only the
/// side's observations are read. Runs for as long as the belief takes: call it off the
/// async threads.
pub fn belief_body(
    game: &str,
    record: &Record,
    side: Color,
    plies: Option<u32>,
) -> Result<BeliefBody, String> {
    let (observations, plies) = record.observations_until(side, plies);
    let start = umpire_belief::review::record_start(record).map_err(|e| e.to_string())?;
    let config = BeliefConfig {
        bound: BELIEF_BOUND,
        particles: Some(BELIEF_PARTICLES),
        seed: belief_seed(game, side, plies),
        threads: 1,
        ..BeliefConfig::default()
    };
    let mut belief =
        Belief::new(*record.rules.rules(), start, side, config).map_err(|e| e.to_string())?;
    for obs in &observations {
        belief.observe(obs).map_err(|e| e.to_string())?;
    }
    let marginals = Marginals::of(&belief);
    let squares = marginals
        .p
        .iter()
        .map(|p| SquareBelief {
            any: rounded(1.0 - p[6]),
            pawn: rounded(p[0]),
            knight: rounded(p[1]),
            bishop: rounded(p[2]),
            rook: rounded(p[3]),
            queen: rounded(p[4]),
            king: rounded(p[5]),
        })
        .collect();
    Ok(BeliefBody {
        side: side.into(),
        plies,
        exact: marginals.exact,
        size: marginals.positions as u64,
        squares,
    })
}

/// `x` rounded to 3 decimals (and never `-0`).
fn rounded(x: f64) -> f64 {
    let r = (x * 1000.0).round() / 1000.0;
    if r == 0.0 { 0.0 } else { r }
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
        let a = belief_seed("abc", Color::White, 3);
        assert_eq!(a, belief_seed("abc", Color::White, 3));
        assert_ne!(a, belief_seed("abc", Color::Black, 3));
        assert_ne!(a, belief_seed("abc", Color::White, 4));
        assert_ne!(a, belief_seed("abd", Color::White, 3));
    }
}
