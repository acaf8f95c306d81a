//! Games between `mcts` (built by name, with the endgame wrapper) and another agent, one at a
//! time, colours alternating; prints W/D/L from mcts's side, the share of wins by checkmate,
//! the mean plies to mate and, with `--trace`, mcts's value estimate at every 10th decision.
//! Figures in docs/BENCHMARKS.md.
//!
//! `cargo run --release -p umpire-ai --example mcts_match -- OPPONENT GAMES MOVETIME_MS|nN [SEED] [--variant tree-avg|ept-qb] [--trace] [--max-plies N] [--rules ID] [--opp-budget MS|nN] [--bound N] [--off LIST]`
//!
//! `nN` (e.g. `n2000`) gives a node budget instead of a time per move. `--opp-budget MS|nN`
//! sets the opponent's budget (for `mcts` against itself at another budget; default 100 ms).
//! `--bound N` sets mcts's belief bound (default `MCTS_BELIEF_BOUND`). `--off LIST` switches
//! the issue-28 safeguards named off (comma-separated: `repairs`, `veto`, `repetition`,
//! `charging`, `catchup`, `fifty`, `worlds`, `mix`; see `Safeguards`), for an A/B of each.
//!
//! After each game it also prints how mcts's belief fared: the observations taken in, their
//! mean and slowest update time (belief and view), the decisions searched and, if the belief
//! was lost, the observation at which it went.

use std::time::{Duration, Instant};

use umpire_ai::endgame::Endgame;
use umpire_ai::mcts::{MctsAgent, MctsConfig, Safeguards, Variant};
use umpire_ai::{Agent, AgentConfig, AgentKind, Budget, Watcher, play_match};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{Announcement, Command, EndReason, Observation, Outcome, RuleSetId, Umpire};
use umpire_view::{PlayerView, ViewError};

/// mcts (with the endgame wrapper) with its observation updates timed.
struct Timed {
    inner: Endgame<MctsAgent>,
    observations: u64,
    total: Duration,
    slowest: Duration,
    lost_at: Option<u64>,
}

impl Agent for Timed {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn view(&self) -> &PlayerView {
        self.inner.view()
    }
    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.inner.hear_opening(announcements);
    }
    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        let t = Instant::now();
        let r = self.inner.observe(observation);
        let spent = t.elapsed();
        self.observations += 1;
        self.total += spent;
        self.slowest = self.slowest.max(spent);
        if spent > Duration::from_millis(500)
            && let Some(b) = self.inner.inner().belief()
        {
            eprintln!(
                "  slow update: observation {} (actor {:?}, moved {}) {:.1} ms; belief exact {}, held {}, repairs {}",
                self.observations + 1,
                observation.actor,
                observation.moved,
                spent.as_secs_f64() * 1e3,
                b.is_exact(),
                b.held(),
                b.repairs()
            );
        }
        if self.lost_at.is_none() && self.inner.inner().belief().is_none() {
            self.lost_at = Some(self.observations);
        }
        r
    }
    fn choose(&mut self) -> Command {
        self.inner.choose()
    }
    fn accepts_draw(&mut self) -> bool {
        self.inner.accepts_draw()
    }
    fn analysis(&self) -> Option<&umpire_ai::Analysis> {
        self.inner.analysis()
    }
}

struct Trace {
    side: Color,
    decisions: u32,
    values: Vec<(u32, f64)>,
    on: bool,
    nodes: u64,
    searched: u64,
}

impl Watcher<Umpire> for Trace {
    fn after(&mut self, table: &Umpire, command: Command, outcome: &Outcome) {
        if std::env::var_os("MCTS_DEBUG").is_some() {
            eprintln!(
                "{} {} {:?}",
                table.plies(),
                command.to_text(),
                outcome.verdict
            );
        }
    }
    fn before(&mut self, table: &Umpire, mover: &dyn Agent) {
        if mover.view().side() == self.side {
            self.decisions += 1;
            if let Some(a) = mover.analysis()
                && a.nodes > 0
            {
                self.nodes += a.nodes;
                self.searched += 1;
            }
            if self.on
                && self.decisions % 10 == 1
                && let Some(a) = mover.analysis()
            {
                self.values.push((table.plies(), a.value));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opponent: AgentKind = args
        .first()
        .map_or("random", String::as_str)
        .parse()
        .expect("agent");
    let games: u64 = args.get(1).map_or(10, |s| s.parse().expect("games"));
    let budget = match args.get(2).map_or("100", String::as_str) {
        s if s.starts_with('n') => Budget::Nodes(s[1..].parse().expect("nodes")),
        s => Budget::Time(Duration::from_millis(s.parse().expect("ms"))),
    };
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let variant: Variant =
        flag("--variant").map_or(Variant::TreeAverage, |s| s.parse().expect("variant"));
    let max_plies: u32 = flag("--max-plies").map_or(600, |s| s.parse().expect("plies"));
    let rules = flag("--rules").map_or(RuleSetId::Wild16, |s| s.parse().expect("rules"));
    let trace = args.iter().any(|a| a == "--trace");
    let bound: usize = flag("--bound").map_or(MctsConfig::default().belief_bound, |s| {
        s.parse().expect("bound")
    });
    let parse_budget = |s: &str| match s {
        s if s.starts_with('n') => Budget::Nodes(s[1..].parse().expect("nodes")),
        s => Budget::Time(Duration::from_millis(s.parse().expect("ms"))),
    };
    let safeguards: Safeguards =
        flag("--off").map_or(Safeguards::ALL, |s| s.parse().expect("--off"));
    let opp_budget = flag("--opp-budget").map_or(Budget::default(), |s| parse_budget(s));
    let mut total_nodes = 0u64;
    let mut total_searched = 0u64;
    let (mut wins, mut draws, mut losses, mut mates, mut mate_plies) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut reasons = std::collections::BTreeMap::new();
    let start = Instant::now();
    for g in 0..games {
        let side = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let config = MctsConfig {
            budget,
            variant,
            belief_bound: bound,
            safeguards,
            ..MctsConfig::default()
        };
        let rules_set = *rules.rules();
        let mut me = Timed {
            inner: Endgame::new(MctsAgent::new(
                PlayerView::standard(rules_set, side),
                seed * 1000 + g,
                Some(Chess::default()),
                config,
            )),
            observations: 0,
            total: Duration::ZERO,
            slowest: Duration::ZERO,
            lost_at: None,
        };
        let opp_config = AgentConfig {
            budget: opp_budget,
            ..AgentConfig::default()
        };
        let mut other = opponent.build(
            PlayerView::standard(rules_set, !side),
            seed * 1000 + g + 500,
            &opp_config,
        );
        let mut umpire = Umpire::new(rules_set);
        let mut tr = Trace {
            side,
            decisions: 0,
            values: Vec::new(),
            on: trace,
            nodes: 0,
            searched: 0,
        };
        let agents: [&mut dyn Agent; 2] = if side == Color::White {
            [&mut me, other.as_mut()]
        } else {
            [other.as_mut(), &mut me]
        };
        play_match(&mut umpire, agents, max_plies, &mut tr).expect("game");
        let result = umpire.result();
        let reason = result.map_or("ply limit", |r| r.reason.as_str());
        *reasons.entry(reason).or_insert(0u64) += 1;
        match result.and_then(|r| r.winner) {
            Some(w) if w == side => {
                wins += 1;
                if result.map(|r| r.reason) == Some(EndReason::Checkmate) {
                    mates += 1;
                    mate_plies += u64::from(umpire.plies());
                }
            }
            Some(_) => losses += 1,
            None => draws += 1,
        }
        total_nodes += tr.nodes;
        total_searched += tr.searched;
        eprintln!(
            "game {g} mcts {side:?}: {} {} after {} plies (table moves {}) [{:.0} s]",
            match result.and_then(|r| r.winner) {
                Some(w) if w == side => "win",
                Some(_) => "loss",
                None => "draw",
            },
            reason,
            umpire.plies(),
            me.inner.table_moves(),
            start.elapsed().as_secs_f64()
        );
        eprintln!(
            "  belief: {} observations, mean {:.2} ms, slowest {:.1} ms; {} of {} decisions searched; {} restarts; {}",
            me.observations,
            me.total.as_secs_f64() * 1e3 / me.observations.max(1) as f64,
            me.slowest.as_secs_f64() * 1e3,
            tr.searched,
            tr.decisions,
            me.inner.inner().reseeds(),
            me.lost_at.map_or("held to the end".to_owned(), |o| format!(
                "lost at observation {o}"
            ))
        );
        if trace {
            let vals: Vec<String> = tr
                .values
                .iter()
                .map(|(p, v)| format!("{p}:{v:+.2}"))
                .collect();
            eprintln!("  values (ply:value) {}", vals.join(" "));
        }
    }
    println!(
        "mcts ({variant}, {budget:?}, safeguards off: {safeguards}) vs {opponent}, {rules}, {games} games: W {wins} D {draws} L {losses}; wins by mate {mates}/{wins}; mean plies to mate {:.1}; reasons {reasons:?}; mean nodes per searched decision {:.0}; {:.0} s",
        if mates > 0 {
            mate_plies as f64 / mates as f64
        } else {
            f64::NAN
        },
        total_nodes as f64 / total_searched.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
}
