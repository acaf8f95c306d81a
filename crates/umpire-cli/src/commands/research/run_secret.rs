//! The secret of a run of games (`umpire match`, `umpire selfplay`): every player's seed comes
//! from it (`umpire_ai::tournament::RunKey`). It is drawn from the operating system unless the
//! user asks for a reproducible run with `--seed` (anyone who knows or guesses that seed can
//! compute every seat's seed, an engine included) or replays one with `--run-key`.

use umpire_ai::tournament::RunKey;

/// Where a run's key came from.
#[derive(Clone, Copy, Debug)]
pub enum RunSecret {
    /// Derived from the seed the user chose (`--seed`): reproducible, and guessable.
    Seed(u64),
    /// Given by the user (`--run-key`), as an earlier run printed it.
    Given(RunKey),
    /// Drawn from the operating system's entropy.
    Drawn(RunKey),
}

impl RunSecret {
    /// The secret for these options: `--seed`, else `--run-key`, else fresh entropy.
    pub fn choose(seed: Option<u64>, key: Option<RunKey>) -> Result<RunSecret, String> {
        if let Some(seed) = seed {
            return Ok(RunSecret::Seed(seed));
        }
        if let Some(key) = key {
            return Ok(RunSecret::Given(key));
        }
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| format!("no run key from the system: {e}"))?;
        Ok(RunSecret::Drawn(RunKey::from_bytes(bytes)))
    }

    /// The run's key.
    pub fn key(self) -> RunKey {
        match self {
            RunSecret::Seed(seed) => RunKey::from_seed(seed),
            RunSecret::Given(key) | RunSecret::Drawn(key) => key,
        }
    }

    /// The seed the user chose, if any.
    pub fn seed(self) -> Option<u64> {
        match self {
            RunSecret::Seed(seed) => Some(seed),
            RunSecret::Given(_) | RunSecret::Drawn(_) => None,
        }
    }

    /// For the summary: `seed N`, or `run key HEX` (which `--run-key HEX` replays).
    pub fn describe(self) -> String {
        match self {
            RunSecret::Seed(seed) => format!("seed {seed}"),
            RunSecret::Given(key) | RunSecret::Drawn(key) => format!("run key {}", key.to_hex()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_is_reproducible_and_a_drawn_key_is_fresh() {
        let a = RunSecret::choose(Some(5), None).unwrap();
        assert_eq!(a.key(), RunKey::from_seed(5));
        assert_eq!(a.seed(), Some(5));
        assert_eq!(a.describe(), "seed 5");
        let key = RunKey::from_bytes([1; 32]);
        let given = RunSecret::choose(None, Some(key)).unwrap();
        assert_eq!(given.key(), key);
        assert_eq!(given.describe(), format!("run key {}", key.to_hex()));
        let (x, y) = (
            RunSecret::choose(None, None).unwrap(),
            RunSecret::choose(None, None).unwrap(),
        );
        assert!(matches!(x, RunSecret::Drawn(_)));
        assert_eq!(x.seed(), None);
        assert_ne!(x.key(), y.key(), "two runs, two keys");
    }
}
