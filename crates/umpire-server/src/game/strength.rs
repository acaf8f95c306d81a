//! [`HouseSpec`]: a built-in agent and its strength, as stored in a game's seat.
//!
//! Strength is a budget of search nodes per decision (deterministic, unlike a time budget)
//! with the belief the agent may keep (its repair work per observation and its bound,
//! [`umpire_ai::Tuning`]), chosen by a level from 1 to [`MAX_LEVEL`] ([`LEVELS`]); agents
//! that do not search ignore it. The seat stores `NAME`, `NAME/nodes=N` (for example
//! `mcts/nodes=4000`) or, for a level that tunes the belief, `NAME/nodes=N/repair=R/bound=B`.

use umpire_ai::{AgentKind, AgentSpec, Budget, Tuning};

/// The strongest level offered.
pub const MAX_LEVEL: u8 = 5;

/// The levels, 1 to [`MAX_LEVEL`]: `mcts` at 5, 20, 160, 4,000 and 64,000 nodes per decision.
/// Levels 1–3 keep the belief their budget buys (bound 256, repairs of `N / 2` work units, at
/// least 10,000: [`umpire_ai::time_bound::repair_budget`]); level 4 holds 384 positions (its
/// repair work, 10,000 units, is its budget's, written out so that a stored seat does not move
/// with that rule) and level 5 1,024, with 64,000 repair units per observation. Measured (issue
/// 28, node budgets, seeds 28–29, with the agents of main 6e6eb07; `docs/BENCHMARKS.md`
/// "Session 15: the ladder re-spaced"), the lower level's score against the next: 1–2 **0.260**
/// (100 games), 2–3 **0.295** (100), 3–4 **0.255** (100), 4–5 **0.331** (80); a
/// Bradley–Terry fit over every pairing played that session (1,640 games, 5 nodes to level 5)
/// puts the steps at 157, 136, 187 and 145 Elo. The goal is 0.25–0.35 a step. Level 1 scores
/// 0.850 against `guided-random`, the beginner's stand-in (100 games).
///
/// Why these: the belief separates strong agents more than their nodes. At 4,000 nodes a belief
/// of 1,024 positions scored 0.45 against level 5 (64,000 nodes, the same belief) and one of
/// 256 only 0.1625 (40 games each), so level 4 holds a belief between the two; 512 positions
/// left the step from level 3 too wide (0.158, 60 games). Below a few hundred nodes each
/// doubling of the nodes is worth about 50–100 Elo, so level 2 moved from 10 nodes (0.350 and
/// 0.375 against its neighbours, too close) to 20. Until session 15 the levels were 5, 10, 160,
/// 4,000 (belief 256) and 64,000; until session 11, 3, 20, 400, 4,000 and 64,000. A seat stored
/// with the old tuning replays at it.
///
/// Decision CPU time (median / p99 / max): about 1–2 / 9–10 / 14–18 ms at levels 1–3,
/// 13–16 / 28–33 / 39–47 ms at level 4, 364 / 643 / 1,014 ms at level 5 (session 14; level 5
/// is above the opponent model's reference search, so its reply tables learn at a stride of 3,
/// [`umpire_ai::mcts::learning_stride`]): about five to seven level-5 decisions a second on two
/// cores, the most a server playing many games can give. Level 5 spends some 18 times the CPU
/// of a 4,000-node search with the same belief, which scored 0.45 against it (about 35 Elo):
/// above a few thousand nodes `mcts` barely grows with its nodes (`docs/BENCHMARKS.md`
/// "Session 10: the node plateau, scaled searches"). The tables are loaded before play, so no
/// decision builds one.
pub const LEVELS: [Tuning; MAX_LEVEL as usize] = [
    Tuning::nodes(5),
    Tuning::nodes(20),
    Tuning::nodes(160),
    Tuning {
        budget: Budget::Nodes(4_000),
        repair_work: Some(10_000),
        belief_bound: Some(384),
    },
    Tuning {
        budget: Budget::Nodes(64_000),
        repair_work: Some(64_000),
        belief_bound: Some(1_024),
    },
];

/// The nodes per decision of each level, 1 to [`MAX_LEVEL`] ([`LEVELS`]' nodes; the web page
/// keeps a copy to name a seat's level, `web/src/logic/text.ts`).
pub const LEVEL_NODES: [u64; MAX_LEVEL as usize] = level_nodes();

const fn level_nodes() -> [u64; MAX_LEVEL as usize] {
    let mut nodes = [0; MAX_LEVEL as usize];
    let mut i = 0;
    while i < nodes.len() {
        nodes[i] = match LEVELS[i].budget {
            Budget::Nodes(n) => n,
            // Every level is a node budget (checked below).
            Budget::Time(_) => 0,
        };
        i += 1;
    }
    nodes
}

const _: () = {
    let mut i = 0;
    while i < LEVEL_NODES.len() {
        // A level's nodes are positive, grow with the level and tell the level apart.
        assert!(LEVEL_NODES[i] > 0);
        assert!(i == 0 || LEVEL_NODES[i] > LEVEL_NODES[i - 1]);
        i += 1;
    }
};

/// The nodes per decision of an agent seated without a level (level 4's until the levels moved
/// down a step in issue 28's seventh session; kept, so that such a game, stored as `NAME`
/// alone, replays as it was played; such an agent had the agents' default of 100 ms before,
/// which made its choices depend on the load).
pub const DEFAULT_NODES: u64 = 16_000;

/// A built-in agent seated by the server, with its strength (`None`: the agent's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseSpec {
    /// Which agent.
    pub kind: AgentKind,
    /// Its nodes per decision and belief, if a level chose them (always a node budget; only
    /// `mcts` tunes its belief).
    pub tuning: Option<Tuning>,
}

impl HouseSpec {
    /// The spec of `kind` at `level` (1 to [`MAX_LEVEL`], [`LEVELS`]; an agent other than
    /// `mcts` takes the level's nodes only), or its default without a level.
    pub fn at_level(kind: AgentKind, level: Option<u8>) -> Result<HouseSpec, String> {
        let tuning = match level {
            None => None,
            Some(l) if (1..=MAX_LEVEL).contains(&l) => {
                let i = usize::from(l) - 1;
                Some(if kind == AgentKind::Mcts {
                    LEVELS[i]
                } else {
                    Tuning::nodes(LEVEL_NODES[i])
                })
            }
            Some(l) => return Err(format!("level {l} is not from 1 to {MAX_LEVEL}")),
        };
        Ok(HouseSpec { kind, tuning })
    }

    /// The budget to build the agent with: nodes, never time (a time budget's result depends
    /// on the machine's load, and a reloaded game would not replay); without a level,
    /// [`DEFAULT_NODES`].
    pub fn budget(&self) -> Budget {
        self.tuning
            .map_or(Budget::Nodes(DEFAULT_NODES), |t| t.budget)
    }

    /// The agent as `umpire match` names it (`mcts@4000`, `mcts@64000/repair=R/bound=B`):
    /// what the server builds, and how a level's games are replayed from the command line.
    pub fn agent_spec(&self) -> AgentSpec {
        match self.tuning {
            Some(t) if t.tunes_belief() => AgentSpec::Tuned(self.kind, t),
            _ => AgentSpec::Budgeted(self.kind, self.budget()),
        }
    }

    /// The stored form: `NAME`, `NAME/nodes=N` or `NAME/nodes=N/repair=R/bound=B`.
    pub fn to_stored(&self) -> String {
        match self.tuning {
            None => self.kind.as_str().to_owned(),
            Some(t) => format!("{}/nodes={t}", self.kind.as_str()),
        }
    }

    /// Reads the stored form (a seat stored before the levels tuned the belief,
    /// `NAME/nodes=N`, reads as that budget with the default belief, as it was played).
    pub fn parse(text: &str) -> Result<HouseSpec, String> {
        let (name, tuning) = match text.split_once('/') {
            None => (text, None),
            Some((name, rest)) => {
                let tuning = rest
                    .strip_prefix("nodes=")
                    .and_then(Tuning::parse)
                    .filter(|t| matches!(t.budget, Budget::Nodes(_)))
                    .ok_or_else(|| {
                        format!("{text:?}: the budget is not nodes=N[/repair=R][/bound=B]")
                    })?;
                (name, Some(tuning))
            }
        };
        let kind: AgentKind = name.parse().map_err(|e| format!("{e}"))?;
        if kind != AgentKind::Mcts && tuning.is_some_and(|t| t.tunes_belief()) {
            return Err(format!("{text:?}: only mcts tunes its belief"));
        }
        Ok(HouseSpec { kind, tuning })
    }
}

/// The agent named `KIND@levelN` (`mcts@level4`: level 4 of [`LEVELS`]), for `umpire match`
/// to play the server's levels; `None` when `name` names no level this way.
pub fn named_level(name: &str) -> Option<Result<AgentSpec, String>> {
    let (kind, level) = name.trim().split_once('@')?;
    let level = level.trim().strip_prefix("level")?;
    Some(
        level
            .parse::<u8>()
            .map_err(|_| format!("{name:?}: the level is not a number from 1 to {MAX_LEVEL}"))
            .and_then(|l| {
                let kind: AgentKind = kind.parse().map_err(|e| format!("{e}"))?;
                HouseSpec::at_level(kind, Some(l))
            })
            .map(|spec| spec.agent_spec()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_and_levels_are_bounded() {
        for kind in [AgentKind::GuidedRandom, AgentKind::Mcts] {
            for level in [None, Some(1), Some(3), Some(MAX_LEVEL)] {
                let spec = HouseSpec::at_level(kind, level).unwrap();
                assert_eq!(HouseSpec::parse(&spec.to_stored()).unwrap(), spec);
            }
        }
        let kind = AgentKind::GuidedRandom;
        assert_eq!(
            HouseSpec::at_level(kind, Some(3)).unwrap().budget(),
            Budget::Nodes(LEVEL_NODES[2])
        );
        assert!(HouseSpec::at_level(kind, Some(0)).is_err());
        assert!(HouseSpec::at_level(kind, Some(MAX_LEVEL + 1)).is_err());
        assert!(HouseSpec::parse("guided-random/time=5").is_err());
        assert!(HouseSpec::parse("guided-random/nodes=400/bound=512").is_err());
        assert!(HouseSpec::parse("mcts/nodes=400ms").is_err());
        assert!(HouseSpec::parse("no-such-agent").is_err());
    }

    #[test]
    fn a_level_seats_its_tuning_and_old_seats_keep_theirs() {
        for (i, tuning) in LEVELS.iter().enumerate() {
            let level = u8::try_from(i + 1).unwrap();
            let mcts = HouseSpec::at_level(AgentKind::Mcts, Some(level)).unwrap();
            assert_eq!(mcts.tuning, Some(*tuning));
            assert_eq!(mcts.budget(), Budget::Nodes(LEVEL_NODES[i]));
            // The stored seat starts with the nodes the web page reads the level from.
            let stored = mcts.to_stored();
            assert!(
                stored.starts_with(&format!("mcts/nodes={}", LEVEL_NODES[i])),
                "{stored}"
            );
            // `umpire match` plays the very agent the server seats.
            let named = named_level(&format!("mcts@level{level}")).unwrap().unwrap();
            assert_eq!(named, mcts.agent_spec());
            assert_eq!(
                named.to_string().parse::<AgentSpec>().unwrap(),
                mcts.agent_spec()
            );
        }
        // A seat stored before the levels tuned the belief replays with the default belief.
        let old = HouseSpec::parse("mcts/nodes=16000").unwrap();
        assert_eq!(old.tuning, Some(Tuning::nodes(16_000)));
        assert_eq!(
            old.agent_spec(),
            AgentSpec::Budgeted(AgentKind::Mcts, Budget::Nodes(16_000))
        );
        assert!(named_level("mcts@4000").is_none());
        assert!(named_level("mcts").is_none());
        assert!(named_level("mcts@level0").unwrap().is_err());
        assert!(named_level("mcts@level9").unwrap().is_err());
        assert!(named_level("mcts@levelx").unwrap().is_err());
        assert!(named_level("nobody@level2").unwrap().is_err());
    }
}
