//! [`HouseSpec`]: a built-in agent and its strength, as stored in a game's seat.
//!
//! Strength is a budget of search nodes per decision (deterministic, unlike a time budget),
//! chosen by a level from 1 to [`MAX_LEVEL`]; agents that do not search ignore it. The seat
//! stores `NAME` or `NAME/nodes=N` (for example `mcts/nodes=4000`).

use umpire_ai::{AgentKind, Budget};

/// The strongest level offered.
pub const MAX_LEVEL: u8 = 5;

/// The nodes per decision of each level, 1 to [`MAX_LEVEL`]: level 1 at 20 nodes (it was 250,
/// where `guided-random` scored 0.15 against `mcts`, 0.20 at 20 nodes, 10 games each), so that a
/// beginner can beat it; level 2 at 400 (at 1,000 it scored 0.46 against level 3 over 40 games:
/// too close, since the repairs of both stand at the floor of
/// [`umpire_ai::time_bound::MIN_REPAIR_WORK`] and four times the nodes alone bought little);
/// levels 3 to 5 each four times the one below. Level 5 costs `mcts` about 0.2 s of one core
/// per decision on a quiet machine (about 320 nodes a millisecond; 30,000 nodes ≈ 100 ms).
/// Measured scores of each level against the next in `docs/BENCHMARKS.md` and
/// `docs/ENGINE.md` (issue 28).
pub const LEVEL_NODES: [u64; MAX_LEVEL as usize] = [20, 400, 4_000, 16_000, 64_000];

/// The nodes per decision of an agent seated without a level (level 4's; such an agent had
/// the agents' default of 100 ms before, which made its choices depend on the load).
pub const DEFAULT_NODES: u64 = LEVEL_NODES[3];

/// A built-in agent seated by the server, with its budget (`None`: the agent's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseSpec {
    /// Which agent.
    pub kind: AgentKind,
    /// Its budget, if one was chosen.
    pub nodes: Option<u64>,
}

impl HouseSpec {
    /// The spec of `kind` at `level` (1 to [`MAX_LEVEL`]), or its default without a level.
    pub fn at_level(kind: AgentKind, level: Option<u8>) -> Result<HouseSpec, String> {
        let nodes = match level {
            None => None,
            Some(l) if (1..=MAX_LEVEL).contains(&l) => Some(LEVEL_NODES[usize::from(l) - 1]),
            Some(l) => return Err(format!("level {l} is not from 1 to {MAX_LEVEL}")),
        };
        Ok(HouseSpec { kind, nodes })
    }

    /// The budget to build the agent with: nodes, never time (a time budget's result depends
    /// on the machine's load, and a reloaded game would not replay); without a level,
    /// [`DEFAULT_NODES`].
    pub fn budget(&self) -> Budget {
        Budget::Nodes(self.nodes.unwrap_or(DEFAULT_NODES))
    }

    /// The stored form: `NAME` or `NAME/nodes=N`.
    pub fn to_stored(&self) -> String {
        match self.nodes {
            None => self.kind.as_str().to_owned(),
            Some(n) => format!("{}/nodes={n}", self.kind.as_str()),
        }
    }

    /// Reads the stored form.
    pub fn parse(text: &str) -> Result<HouseSpec, String> {
        let (name, nodes) = match text.split_once('/') {
            None => (text, None),
            Some((name, budget)) => {
                let n = budget
                    .strip_prefix("nodes=")
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or_else(|| format!("{text:?}: the budget is not nodes=N"))?;
                (name, Some(n))
            }
        };
        let kind: AgentKind = name.parse().map_err(|e| format!("{e}"))?;
        Ok(HouseSpec { kind, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_and_levels_are_bounded() {
        let kind: AgentKind = "guided-random".parse().unwrap();
        for level in [None, Some(1), Some(MAX_LEVEL)] {
            let spec = HouseSpec::at_level(kind, level).unwrap();
            assert_eq!(HouseSpec::parse(&spec.to_stored()).unwrap(), spec);
        }
        assert_eq!(
            HouseSpec::at_level(kind, Some(3)).unwrap().budget(),
            Budget::Nodes(4_000)
        );
        assert!(HouseSpec::at_level(kind, Some(0)).is_err());
        assert!(HouseSpec::at_level(kind, Some(MAX_LEVEL + 1)).is_err());
        assert!(HouseSpec::parse("guided-random/time=5").is_err());
        assert!(HouseSpec::parse("no-such-agent").is_err());
    }
}
