//! Test support for Umpire's information hiding (issue 10); a dev-dependency only.
//!
//! - [`oracle`]: an independent entitlement oracle — what each player may hear of each command,
//!   worked out from the true positions and the rule set's flags, without the umpire's
//!   announcement code or `Outcome::observation`.
//! - [`entitlement_game`]: a seeded random game (both players, good and bad commands) in which
//!   every observation is checked against the oracle.
//! - [`pairing`]: two true histories paired by entitlement for one player, and
//!   [`pairing::Channel`]s that must give that player byte-identical output in both.
//! - [`driver`]: the random commands.
//! - [`workspace_copy`]: a copy of the workspace to inject a leak into.
//! - [`counting_alloc`]: a global allocator counting allocations, for the no-allocation tests.
//! - [`pos`]: a test's position from its FEN.

#![warn(missing_docs)]

pub mod counting_alloc;
pub mod driver;
pub mod oracle;
pub mod pairing;
pub mod scripts;
pub mod workspace_copy;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::shakmaty::Color;
use umpire_rules::{RuleSet, Umpire, Verdict};

use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess};

use crate::driver::random_command;
use crate::oracle::Oracle;

/// Counts from [`entitlement_game`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Commands judged.
    pub commands: u64,
    /// Moves played.
    pub plies: u64,
    /// Rejected attempts.
    pub rejected: u64,
    /// Refused (invalid) commands.
    pub invalid: u64,
    /// Observations compared with their entitlements (both players).
    pub observations: u64,
}

impl GameCounts {
    /// Adds another count.
    pub fn add(&mut self, o: &GameCounts) {
        self.commands += o.commands;
        self.plies += o.plies;
        self.rejected += o.rejected;
        self.invalid += o.invalid;
        self.observations += o.observations;
    }
}

/// Plays a seeded random game under `rules` (from `fen`, or the standard start) for at most
/// `max_commands` commands and asserts, for every command and both players, that what the
/// player is told (`Outcome::observation`) is exactly what the [`Oracle`] says it is entitled
/// to, and that the opening announcements are too. Panics with the seed and step on a
/// difference.
pub fn entitlement_game(
    rules: RuleSet,
    fen: Option<&str>,
    seed: u64,
    max_commands: u32,
) -> GameCounts {
    let mut umpire = match fen {
        Some(f) => Umpire::from_fen(rules, f).expect("valid set-up position"),
        None => Umpire::new(rules),
    };
    let mut oracle = Oracle::new(rules, umpire.position().clone());
    let opening: Vec<_> = umpire
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    assert_eq!(
        opening,
        oracle.opening(),
        "{} seed {seed}: opening",
        rules.id
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut counts = GameCounts::default();
    while counts.commands < u64::from(max_commands) && !umpire.is_over() {
        let (by, command) = random_command(&umpire, &mut rng);
        let outcome = umpire.submit_as(by, command);
        counts.commands += 1;
        match outcome.verdict {
            Verdict::Accepted => counts.plies += 1,
            Verdict::Invalid(_) => counts.invalid += 1,
            v if v.is_rejection() => counts.rejected += 1,
            _ => {}
        }
        let entitled = oracle.judge(outcome.side, command, outcome.verdict);
        for player in [Color::White, Color::Black] {
            let seen = outcome.observation(command, player);
            let ent = &entitled[usize::from(player.is_black())];
            assert!(
                ent.matches(seen.as_ref()),
                "{} seed {seed} command {} ({by:?} {command:?} -> {:?}): {player:?} was told\n  {seen:?}\nbut is entitled to\n  {:?}",
                rules.id,
                counts.commands,
                outcome.verdict,
                ent.announcements()
            );
            counts.observations += 1;
        }
        assert_eq!(
            umpire.position(),
            oracle.position(),
            "the oracle follows the game"
        );
    }
    counts
}

/// The position of `fen`, a test's own (castling rights in standard notation); panics on a
/// FEN that is not a legal position, which is the test's own mistake.
pub fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}
