//! [`Safeguards`]: the issue-28 additions to the Monte Carlo agent, each switchable so that its
//! cost in strength can be measured on its own (an A/B with one of them off; the
//! `mcts_match` example's `--off` flag).

use std::fmt;
use std::str::FromStr;

/// Which of the issue-28 safeguards the agent applies (all on by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Safeguards {
    /// The belief's repairs are bounded by the search budget
    /// ([`crate::time_bound::repair_budget`]); off: the belief crate's default budget
    /// ([`umpire_belief::REPAIR_BUDGET`]), which may stall a decision for seconds.
    pub bounded_repairs: bool,
    /// The root's material veto: a most-visited move that loses material in the belief's
    /// worlds gives way to a searched one that does not ([`crate::safety`]).
    pub material_veto: bool,
    /// While not clearly behind (value between [`super::AHEAD_ABOVE`] and
    /// [`super::AVOID_REPEATS_ABOVE`]), avoid standing an own board a third time.
    pub ahead_repetition: bool,
    /// Under a time budget the belief's updates since the last decision are charged to the
    /// search's deadline ([`crate::time_bound::search_deadline`]); off: the search takes the
    /// whole budget whatever the updates took. Inert under a node budget.
    pub charge_updates: bool,
    /// When the belief dies and is restarted from a guess ([`crate::restart::restart`]), a
    /// fresh belief from the start catches up with the game a repair budget's work per
    /// decision and takes the restarted one's place once it has ([`crate::catch_up`]).
    pub catch_up: bool,
    /// The fifty-move clock as the agent counts it: a walk that reaches the limit is a draw,
    /// and while ahead the root prefers a capture try or a pawn move as the clock runs
    /// (`fifty.rs`).
    pub fifty: bool,
    /// While the belief is empty the search plans from every kept guess that still fits the
    /// own men and this turn's announcements, not from the freshest alone
    /// ([`super::fallback::guess_worlds`]), and the root's safety checks weigh those worlds
    /// (and a restart's spare worlds) beside a belief of fewer than
    /// [`crate::safety::SAFETY_WORLDS`] positions; off: one guessed world, as before.
    pub guess_worlds: bool,
    /// Above a reference search (100 ms, or [`super::REFERENCE_NODES`] nodes) the
    /// opponent's reply tables learn from one visit in `ceil(budget / reference)` and play
    /// the mixed strategy they learned on the others ([`super::learning_stride`]):
    /// a larger search plans against an opponent that knows no more than the reference's,
    /// not against one that has found the reply that hurts most in worlds it cannot see. Inert
    /// at or below the reference.
    pub mixed_replies: bool,
}

impl Default for Safeguards {
    fn default() -> Safeguards {
        Safeguards::ALL
    }
}

impl Safeguards {
    /// Every safeguard on.
    pub const ALL: Safeguards = Safeguards {
        bounded_repairs: true,
        material_veto: true,
        ahead_repetition: true,
        charge_updates: true,
        catch_up: true,
        fifty: true,
        guess_worlds: true,
        mixed_replies: true,
    };

    /// The names of the safeguards, as [`Safeguards::without`] reads them.
    pub const NAMES: [&'static str; 8] = [
        "repairs",
        "veto",
        "repetition",
        "charging",
        "catchup",
        "fifty",
        "worlds",
        "mix",
    ];

    /// These safeguards with the one named (one of [`Safeguards::NAMES`]) switched off, or
    /// `None` for an unknown name.
    pub fn without(self, name: &str) -> Option<Safeguards> {
        let mut s = self;
        match name.trim() {
            "repairs" => s.bounded_repairs = false,
            "veto" => s.material_veto = false,
            "repetition" => s.ahead_repetition = false,
            "charging" => s.charge_updates = false,
            "catchup" => s.catch_up = false,
            "fifty" => s.fifty = false,
            "worlds" => s.guess_worlds = false,
            "mix" => s.mixed_replies = false,
            _ => return None,
        }
        Some(s)
    }

    fn flags(self) -> [bool; 8] {
        [
            self.bounded_repairs,
            self.material_veto,
            self.ahead_repetition,
            self.charge_updates,
            self.catch_up,
            self.fifty,
            self.guess_worlds,
            self.mixed_replies,
        ]
    }
}

/// A name that is none of [`Safeguards::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown safeguard {0:?} (known: repairs, veto, repetition, charging, catchup, fifty, worlds, mix)"
)]
pub struct UnknownSafeguard(pub String);

impl FromStr for Safeguards {
    type Err = UnknownSafeguard;

    /// The safeguards switched off, comma-separated (`"veto,repairs"`; `""` or `"none"`: all on).
    fn from_str(s: &str) -> Result<Safeguards, UnknownSafeguard> {
        let mut out = Safeguards::ALL;
        for name in s.split(',').map(str::trim) {
            if name.is_empty() || name == "none" {
                continue;
            }
            out = out
                .without(name)
                .ok_or_else(|| UnknownSafeguard(name.to_owned()))?;
        }
        Ok(out)
    }
}

impl fmt::Display for Safeguards {
    /// The safeguards switched off, comma-separated (`none` if every one is on).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let off: Vec<&str> = Safeguards::NAMES
            .iter()
            .zip(self.flags())
            .filter(|(_, on)| !on)
            .map(|(n, _)| *n)
            .collect();
        if off.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&off.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switched_off_names_read_and_print_back() {
        assert_eq!("".parse::<Safeguards>(), Ok(Safeguards::ALL));
        assert_eq!(Safeguards::ALL.to_string(), "none");
        let s: Safeguards = "veto, repairs".parse().unwrap();
        assert!(!s.material_veto && !s.bounded_repairs);
        assert!(s.ahead_repetition && s.charge_updates);
        assert_eq!(s.to_string(), "repairs,veto");
        assert_eq!(s.to_string().parse::<Safeguards>(), Ok(s));
        for name in Safeguards::NAMES {
            let one = Safeguards::ALL.without(name).unwrap();
            assert_ne!(one, Safeguards::ALL);
            assert_eq!(one.to_string(), name);
        }
        assert!("nope".parse::<Safeguards>().is_err());
    }
}
