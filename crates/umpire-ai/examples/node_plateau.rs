//! Where `mcts`'s nodes go (issue 28's node plateau): replays recorded games into an `mcts`
//! agent seated as the recorded seat (the record's seat seed) and, at each of its decisions,
//! searches the same state at several node budgets (copies of the agent: the same belief, the
//! same random state), and once more at the largest budget with another search seed. Prints
//! per budget the iterations run, why the search stopped, the tree's nodes and depth, the
//! share of the root's visits on the most visited edge, and how often each budget chose what
//! the largest chose (the reseeded run says how often the largest disagrees with itself), and
//! each budget's choices judged in the true position (the record's): how many are legal there,
//! the material they keep after the captures that may follow (`safety::exchange_delta`) and
//! how many lose `safety::BLUNDER_PAWNS` or more.
//!
//! `cargo run --profile ci -p umpire-ai --example node_plateau -- [--budgets 4000,64000] [--side white|black] [--every K] [--verbose] [--bound N] [--repair W] RECORD.json...`
//!
//! `--bound` and `--repair` set the belief's bound and repair work (`Tuning`; the first
//! budget's by default). The agent is the plain search (no endgame tables); the records' moves are fed as they were
//! played, whatever the agent would choose.

use std::collections::BTreeMap;

use umpire_ai::mcts::{MctsAgent, MctsConfig, SearchStats, StopReason};
use umpire_ai::safety::{BLUNDER_PAWNS, exchange_delta};
use umpire_ai::{Agent, AgentConfig, Budget, Seat, Tuning, play_observations};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{Command, Record, Verdict};

/// Sums over the decisions of one budget.
#[derive(Default)]
struct Sum {
    decisions: u64,
    iterations: u64,
    tree_nodes: u64,
    deepest: BTreeMap<u32, u64>,
    stops: BTreeMap<String, u64>,
    at_depth_limit: u64,
    no_expansion: u64,
    top_share: f64,
    same_as_largest: u64,
    short: Vec<(usize, u64, StopReason)>,
    /// Chosen moves legal in the true position, the material they keep there after the
    /// captures that may follow (`exchange_delta`), and how many lose `BLUNDER_PAWNS` or more.
    legal: u64,
    kept: f64,
    blunders: u64,
}

impl Sum {
    /// Judges `chosen` in the true position `truth`.
    fn judge(&mut self, truth: &Chess, chosen: Command) {
        let Command::Attempt(a) = chosen else {
            return;
        };
        if let Some(d) = exchange_delta(std::slice::from_ref(truth), a) {
            self.legal += 1;
            self.kept += d;
            self.blunders += u64::from(d <= -BLUNDER_PAWNS);
        }
    }

    fn add(&mut self, moves: usize, s: &SearchStats, same: bool) {
        self.decisions += 1;
        self.iterations += s.iterations;
        self.tree_nodes += s.tree_nodes as u64;
        *self.deepest.entry(s.deepest).or_default() += 1;
        *self.stops.entry(format!("{:?}", s.stop)).or_default() += 1;
        self.at_depth_limit += s.at_depth_limit;
        self.no_expansion += s.no_expansion;
        self.top_share += s.top_share();
        self.same_as_largest += u64::from(same);
        if s.stop != StopReason::Budget && s.stop != StopReason::NotSearched {
            self.short.push((moves, s.iterations, s.stop));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut budgets: Vec<u64> = vec![4_000, 64_000];
    let mut side_only = None;
    let mut every = 1usize;
    let mut verbose = false;
    let mut bound = None;
    let mut repair = None;
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--budgets" => {
                budgets = rest
                    .next()
                    .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
                    .unwrap_or(budgets)
            }
            "--side" => side_only = rest.next().map(|s| s == "white"),
            "--every" => every = rest.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            "--verbose" => verbose = true,
            "--bound" => bound = rest.next().and_then(|s| s.parse().ok()),
            "--repair" => repair = rest.next().and_then(|s| s.parse().ok()),
            file => files.push(file.to_owned()),
        }
    }
    if budgets.is_empty() || files.is_empty() {
        eprintln!(
            "usage: node_plateau [--budgets A,B] [--side white|black] [--every K] [--verbose] [--bound N] [--repair W] RECORD.json..."
        );
        std::process::exit(2);
    }
    let largest = budgets.iter().copied().max().unwrap_or(1);
    // The last entry is the largest budget with another search seed.
    let mut sums: Vec<Sum> = (0..=budgets.len()).map(|_| Sum::default()).collect();
    for file in &files {
        let Some(record) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| Record::from_json(&t).ok())
        else {
            eprintln!("{file}: not a record");
            continue;
        };
        for side in [Color::White, Color::Black] {
            if side_only.is_some_and(|w| w != (side == Color::White)) {
                continue;
            }
            let Ok(seat) = Seat::of_record(&record, side) else {
                eprintln!("{file}: no seat for {side:?}");
                continue;
            };
            let seed = seat.seed();
            let tuning = Tuning {
                belief_bound: bound,
                repair_work: repair,
                ..Tuning::nodes(budgets[0])
            };
            let config: MctsConfig = tuning.mcts_config(&AgentConfig::default());
            let (mut umpire, mut agent) = seat.take(|view, seed| {
                let start = view.standard_start().then(Chess::default);
                MctsAgent::new(view, seed, start, config)
            });
            let mut moves = 0usize;
            let mut decision = 0usize;
            for entry in &record.entries {
                if entry.side == side {
                    decision += 1;
                    if decision.is_multiple_of(every) {
                        let mut runs = Vec::new();
                        for (i, &b) in budgets.iter().enumerate() {
                            let mut copy = agent.clone();
                            copy.set_budget(Budget::Nodes(b));
                            let chosen = copy.choose();
                            runs.push((i, chosen, copy.stats().clone()));
                        }
                        let mut copy = agent.clone();
                        copy.set_budget(Budget::Nodes(largest));
                        copy.reseed_search(seed ^ 0x5eed);
                        let chosen = copy.choose();
                        runs.push((budgets.len(), chosen, copy.stats().clone()));
                        if verbose {
                            println!(
                                "{file} {side:?} move {moves:3}: belief holds {} (the true position: {}), reseeds so far {}, caught up {}",
                                agent.belief().map_or(0, |b| b.held()),
                                agent
                                    .planning_belief()
                                    .is_some_and(|b| b.contains(umpire.position())),
                                agent.reseeds(),
                                agent.caught_up()
                            );
                        }
                        let big = runs
                            .iter()
                            .find(|r| r.0 < budgets.len() && budgets[r.0] == largest)
                            .map(|r| r.1);
                        let truth = umpire.position().clone();
                        for (i, chosen, stats) in &runs {
                            sums[*i].add(moves, stats, Some(*chosen) == big);
                            sums[*i].judge(&truth, *chosen);
                            if verbose {
                                println!(
                                    "{file} {side:?} move {moves:3} run {i}: {chosen} kept {:?} iter {} of {} ({:?}) tree {} deepest {} limit {} top {:.2} edges {} held {}+{} visits {:?}",
                                    match chosen {
                                        Command::Attempt(a) => exchange_delta(
                                            std::slice::from_ref(umpire.position()),
                                            *a
                                        ),
                                        _ => None,
                                    },
                                    stats.iterations,
                                    stats.budget,
                                    stats.stop,
                                    stats.tree_nodes,
                                    stats.deepest,
                                    stats.at_depth_limit,
                                    stats.top_share(),
                                    stats.root_edges,
                                    stats.held,
                                    stats.beside,
                                    &stats.root_visits[..stats.root_visits.len().min(6)]
                                );
                            }
                        }
                    }
                }
                let outcome = umpire.submit(entry.command);
                if outcome.verdict != entry.verdict {
                    eprintln!("{file}: the record does not replay at move {moves}");
                    break;
                }
                if play_observations(&mut agent, side, entry.command, &outcome).is_err() {
                    eprintln!("{file}: observation refused at move {moves}");
                    break;
                }
                moves += usize::from(outcome.verdict == Verdict::Accepted);
            }
        }
    }
    for (i, s) in sums.iter().enumerate() {
        let name = if i < budgets.len() {
            format!("{}", budgets[i])
        } else {
            format!("{largest} (other seed)")
        };
        let d = s.decisions.max(1) as f64;
        println!(
            "budget {name}: {} decisions, iterations mean {:.0}, tree nodes mean {:.0}, top share mean {:.2}, same as {largest}: {} ({:.0} %), depth-limit stops {:.0} a decision, no expansion {:.0} a decision",
            s.decisions,
            s.iterations as f64 / d,
            s.tree_nodes as f64 / d,
            s.top_share / d,
            s.same_as_largest,
            100.0 * s.same_as_largest as f64 / d,
            s.at_depth_limit as f64 / d,
            s.no_expansion as f64 / d
        );
        println!(
            "  stops {:?}; deepest (agent moves: decisions) {:?}",
            s.stops, s.deepest
        );
        println!(
            "  judged in the true position: {} legal, material kept mean {:.3}, blunders (losing {BLUNDER_PAWNS} or more) {}",
            s.legal,
            s.kept / s.legal.max(1) as f64,
            s.blunders
        );
        if !s.short.is_empty() {
            println!(
                "  short searches (move, iterations, why): {:?}",
                &s.short[..s.short.len().min(20)]
            );
        }
    }
}
