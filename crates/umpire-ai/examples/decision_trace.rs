//! Replays recorded games (`umpire match --out DIR` writes them) into a fresh agent seated as
//! the recorded one was (built by name, with the record's seat seed) and times each of its
//! decisions on the thread's CPU clock, as `umpire match` charges them: the agent's
//! observations since its previous decision plus its `choose`. Prints, per record, the slowest
//! decisions, and whether the agent chose what the record says it played (node budgets make a
//! build's games deterministic, so a mismatch means the build or the seat differs); for `mcts`
//! also how often its belief was restarted from a guess. For finding a decision that broke
//! its budget (issue 28 goal 3), and the games played on single-guess beliefs.
//!
//! `cargo run --profile ci -p umpire-ai --example decision_trace -- AGENT [--top N] [--over MS] [--lazy] RECORD.json...`
//!
//! `AGENT` as `umpire match` names agents (`mcts@4000`); each record is replayed for every seat
//! whose tag names that agent. `--over MS` also prints every decision slower than `MS`. The
//! endgame tables are loaded before the first record, as `umpire match` does; `--lazy` leaves
//! them to the decision that first needs one (as before issue 28's goal 3; the table's load
//! is then printed with its decision).

use umpire_ai::endgame::tables;
use umpire_ai::mcts::MctsConfig;
use umpire_ai::{
    Agent, AgentConfig, AgentKind, AgentSpec, Seat, cpu_clock::thread_cpu_us, play_observations,
};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, Umpire, Verdict};
use umpire_tablebase::Ending;

/// One timed decision.
struct Timed {
    /// Moves played before it.
    moves: usize,
    /// CPU microseconds spent taking in observations since the previous decision.
    observe_us: u64,
    /// CPU microseconds of `choose`.
    choose_us: u64,
    /// The agent's command and the recorded one.
    chosen: String,
    played: String,
    /// Nodes reported.
    nodes: u64,
}

fn cpu_now() -> u64 {
    thread_cpu_us().unwrap_or(0)
}

/// A replayed seat's decisions, and how often `mcts`'s belief was restarted from a guess
/// (`None` for other agents).
type Replayed = (Vec<Timed>, Option<u32>);

/// Replays `record` into the agent `spec` names, seated as `side`.
fn replay(record: &Record, side: Color, spec: &AgentSpec) -> Result<Replayed, String> {
    let seat = Seat::of_record(record, side).map_err(|e| e.to_string())?;
    match spec {
        // Built as `AgentKind::Mcts` builds it, kept as its type to read its restarts.
        AgentSpec::Builtin(AgentKind::Mcts) | AgentSpec::Budgeted(AgentKind::Mcts, _) => {
            let config = AgentConfig {
                budget: spec.budget(AgentConfig::default().budget),
                ..AgentConfig::default()
            };
            let (umpire, agent) = seat.take_mcts(MctsConfig::from_agent_config(&config));
            replay_seated(record, side, umpire, agent, |a| Some(a.inner().reseeds()))
        }
        _ => {
            let (umpire, agent) = seat.take_spec(spec);
            replay_seated(record, side, umpire, agent, |_| None)
        }
    }
}

/// Replays `record` into `agent`, seated as `side` at `umpire`'s game, timing its decisions.
fn replay_seated<A: Agent>(
    record: &Record,
    side: Color,
    mut umpire: Umpire,
    mut agent: A,
    restarts: impl Fn(&A) -> Option<u32>,
) -> Result<Replayed, String> {
    let mut moves = 0usize;
    let mut pending = 0u64;
    let mut out = Vec::new();
    for entry in &record.entries {
        if entry.side == side {
            let loaded_before = Ending::ALL.map(tables::is_built);
            let started = cpu_now();
            let chosen = agent.choose();
            let choose_us = cpu_now().saturating_sub(started);
            for (e, was) in Ending::ALL.into_iter().zip(loaded_before) {
                if !was && tables::is_built(e) {
                    println!(
                        "  move {moves:4}: the {} table was loaded in this decision ({:.1} ms of choose)",
                        e.as_str(),
                        choose_us as f64 / 1000.0
                    );
                }
            }
            out.push(Timed {
                moves,
                observe_us: std::mem::take(&mut pending),
                choose_us,
                chosen: chosen.to_string(),
                played: entry.command.to_string(),
                nodes: agent.analysis().map_or(0, |a| a.nodes),
            });
        }
        let outcome = umpire.submit(entry.command);
        if outcome.verdict != entry.verdict {
            return Err(format!("the record does not replay at move {moves}"));
        }
        let started = cpu_now();
        play_observations(&mut agent, side, entry.command, &outcome)
            .map_err(|e| format!("observation refused: {e}"))?;
        pending = pending.saturating_add(cpu_now().saturating_sub(started));
        moves += usize::from(outcome.verdict == Verdict::Accepted);
    }
    Ok((out, restarts(&agent)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: decision_trace AGENT [--top N] [--over MS] [--lazy] RECORD.json...");
        std::process::exit(2);
    };
    let spec: AgentSpec = name.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut top = 3usize;
    let mut over_ms = f64::INFINITY;
    let mut files = Vec::new();
    let mut lazy = false;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--top" => top = rest.next().and_then(|s| s.parse().ok()).unwrap_or(top),
            "--lazy" => lazy = true,
            "--over" => over_ms = rest.next().and_then(|s| s.parse().ok()).unwrap_or(over_ms),
            file => files.push(file.to_owned()),
        }
    }
    if !lazy && spec.uses_tables() {
        umpire_ai::endgame::prepare_tables(umpire_ai::endgame::EndgameConfig::default());
    }
    let mut worst = 0u64;
    for file in &files {
        let record = match std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|t| Record::from_json(&t).map_err(|e| e.to_string()))
        {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{file}: {e}");
                continue;
            }
        };
        for (tag, side) in [("White", Color::White), ("Black", Color::Black)] {
            if record.tags.get(tag) != Some(name.as_str()) {
                continue;
            }
            let (timed, restarts) = match replay(&record, side, &spec) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{file} {tag}: {e}");
                    continue;
                }
            };
            let differ = timed.iter().filter(|t| t.chosen != t.played).count();
            let first_differ = timed.iter().find(|t| t.chosen != t.played).map(|t| t.moves);
            let mut order: Vec<&Timed> = timed.iter().collect();
            order.sort_by_key(|t| std::cmp::Reverse(t.observe_us + t.choose_us));
            let max = order.first().map_or(0, |t| t.observe_us + t.choose_us);
            worst = worst.max(max);
            println!(
                "{file} {tag}: {} decisions, max {:.1} ms, {differ} differ from the record (first at move {first_differ:?}){}",
                timed.len(),
                max as f64 / 1000.0,
                restarts.map_or(String::new(), |n| format!(", belief restarted {n} times"))
            );
            for t in order.iter().enumerate().filter_map(|(i, t)| {
                (i < top || (t.observe_us + t.choose_us) as f64 / 1000.0 > over_ms).then_some(t)
            }) {
                println!(
                    "  move {:4}: observe {:8.1} ms, choose {:8.1} ms, nodes {:6}, agent {} played {}",
                    t.moves,
                    t.observe_us as f64 / 1000.0,
                    t.choose_us as f64 / 1000.0,
                    t.nodes,
                    t.chosen,
                    t.played
                );
            }
        }
    }
    println!("slowest decision: {:.1} ms", worst as f64 / 1000.0);
}
