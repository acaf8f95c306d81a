//! [`Tuning`]: a searching agent's budget together with the belief it may keep — the repair
//! work it may spend on one observation and the bound of its positions. The server's house
//! levels are tunings of `mcts` (`crates/umpire-server/src/game/strength.rs`): above a few
//! thousand nodes the search is limited by what its belief knows more than by its nodes, so a
//! stronger level buys a healthier belief as well as more nodes.
//!
//! Written after an agent's name as `mcts@NODES/repair=R/bound=B` (either part may be left
//! out: the repair work and the bound the budget buys, [`crate::time_bound::belief_repair`]
//! and [`crate::time_bound::belief_bound`]).

use std::fmt;

use umpire_view::PlayerView;

use crate::mcts::{MctsAgent, MctsConfig};
use crate::{Agent, AgentConfig, Budget};

/// The largest belief bound a tuning may ask for (the belief's positions are held in memory
/// and each one is replayed on every observation).
pub const MAX_TUNED_BOUND: usize = 4_096;

/// The largest repair work per observation a tuning may ask for (the belief crate's own
/// budget, [`umpire_belief::REPAIR_BUDGET`]).
pub const MAX_TUNED_REPAIR: u64 = umpire_belief::REPAIR_BUDGET;

/// A search budget with the belief's repair work and bound (`None`: the agent's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tuning {
    /// Nodes (or time) per decision.
    pub budget: Budget,
    /// Belief repair work per observation, in work units (`None`: what `budget` buys).
    pub repair_work: Option<u64>,
    /// The bound of the belief's positions (`None`: what `budget` buys,
    /// [`crate::time_bound::belief_bound`]).
    pub belief_bound: Option<usize>,
}

impl Tuning {
    /// `nodes` per decision, the belief as the budget gives it.
    pub const fn nodes(nodes: u64) -> Tuning {
        Tuning {
            budget: Budget::Nodes(nodes),
            repair_work: None,
            belief_bound: None,
        }
    }

    /// Whether the belief is set apart from the budget's default.
    pub const fn tunes_belief(&self) -> bool {
        self.repair_work.is_some() || self.belief_bound.is_some()
    }

    /// The Monte Carlo search of this tuning, with the guided filters of `config`.
    pub fn mcts_config(&self, config: &AgentConfig) -> MctsConfig {
        let base = MctsConfig::from_agent_config(&AgentConfig {
            budget: self.budget,
            ..*config
        });
        MctsConfig {
            belief_bound: self.belief_bound.unwrap_or(base.belief_bound),
            repair_work: self.repair_work,
            ..base
        }
    }

    /// The `mcts` agent of this tuning (wrapped in the endgame technique, as
    /// [`crate::AgentKind::Mcts`] builds it), for `view`, seeded.
    pub fn build_mcts(&self, view: PlayerView, seed: u64, config: &AgentConfig) -> Box<dyn Agent> {
        let start = view
            .standard_start()
            .then(umpire_rules::shakmaty::Chess::default);
        let mcts = MctsAgent::new(view, seed, start, self.mcts_config(config));
        Box::new(crate::endgame::Endgame::new(mcts))
    }

    /// Reads `BUDGET[/repair=R][/bound=B]`, the budget as `N` nodes or `Nms`; `None` for
    /// anything else (a repeated or unknown part, a zero, a bound above [`MAX_TUNED_BOUND`], a
    /// repair above [`MAX_TUNED_REPAIR`]).
    pub fn parse(text: &str) -> Option<Tuning> {
        let mut parts = text.trim().split('/');
        let budget = parse_budget(parts.next()?)?;
        let mut tuning = Tuning {
            budget,
            repair_work: None,
            belief_bound: None,
        };
        for part in parts {
            let (key, value) = part.trim().split_once('=')?;
            let n = positive(value)?;
            match key.trim() {
                "repair" if tuning.repair_work.is_none() && n <= MAX_TUNED_REPAIR => {
                    tuning.repair_work = Some(n);
                }
                "bound" if tuning.belief_bound.is_none() => {
                    let bound = usize::try_from(n).ok().filter(|b| *b <= MAX_TUNED_BOUND)?;
                    tuning.belief_bound = Some(bound);
                }
                _ => return None,
            }
        }
        Some(tuning)
    }
}

/// A positive integer in decimal digits only.
fn positive(text: &str) -> Option<u64> {
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|n| *n > 0)
}

/// `N` (nodes) or `Nms` (milliseconds), N a positive integer.
pub(crate) fn parse_budget(text: &str) -> Option<Budget> {
    let text = text.trim();
    Some(match text.strip_suffix("ms") {
        Some(ms) => Budget::Time(std::time::Duration::from_millis(positive(ms)?)),
        None => Budget::Nodes(positive(text)?),
    })
}

impl fmt::Display for Tuning {
    /// The form [`Tuning::parse`] reads back: `16000/repair=32000/bound=512`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.budget {
            Budget::Nodes(n) => write!(f, "{n}")?,
            Budget::Time(t) => write!(f, "{}ms", t.as_millis())?,
        }
        if let Some(r) = self.repair_work {
            write!(f, "/repair={r}")?;
        }
        if let Some(b) = self.belief_bound {
            write!(f, "/bound={b}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn tunings_read_back_and_bad_ones_are_refused() {
        let t = Tuning::parse("16000/repair=32000/bound=512").unwrap();
        assert_eq!(t.budget, Budget::Nodes(16_000));
        assert_eq!(t.repair_work, Some(32_000));
        assert_eq!(t.belief_bound, Some(512));
        assert!(t.tunes_belief());
        assert_eq!(t.to_string(), "16000/repair=32000/bound=512");
        assert_eq!(Tuning::parse(&t.to_string()), Some(t));
        let plain = Tuning::parse("250ms").unwrap();
        assert_eq!(plain.budget, Budget::Time(Duration::from_millis(250)));
        assert!(!plain.tunes_belief());
        assert_eq!(
            Tuning::parse("400/bound=128").unwrap().to_string(),
            "400/bound=128"
        );
        for bad in [
            "",
            "0",
            "16000/repair=",
            "16000/repair=0",
            "16000/bound=-1",
            "16000/bound=512/bound=512",
            "16000/depth=3",
            "16000/bound=99999999",
            "16000/repair=99999999999999999999999",
            "repair=5/16000",
        ] {
            assert_eq!(Tuning::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_tuning_sets_the_belief_of_the_search() {
        let config = AgentConfig::default();
        let plain = Tuning::nodes(4_000).mcts_config(&config);
        assert_eq!(plain.budget, Budget::Nodes(4_000));
        assert_eq!(plain.belief_bound, crate::mcts::MCTS_BELIEF_BOUND);
        assert_eq!(plain.repair_work, None);
        let tuned = Tuning::parse("64000/repair=120000/bound=1024")
            .unwrap()
            .mcts_config(&config);
        assert_eq!(tuned.belief_bound, 1_024);
        assert_eq!(tuned.repair_work, Some(120_000));
        let view = PlayerView::standard(
            umpire_rules::RuleSet::WILD16,
            umpire_rules::shakmaty::Color::White,
        );
        let agent = MctsAgent::new(
            view,
            1,
            Some(umpire_rules::shakmaty::Chess::default()),
            tuned,
        );
        assert_eq!(agent.repair_budget(), 120_000);
    }
}
