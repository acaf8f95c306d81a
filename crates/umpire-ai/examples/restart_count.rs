//! Replays recorded games into `mcts` seated as each recorded `mcts` seat was (its seed, the
//! record's budget), with the restart from several worlds on and off (`MctsConfig::
//! restart_worlds`), and prints per seat how often its belief died: restarts from guesses,
//! takeovers by a restarted world that still fitted, catch-ups, and the decisions searched on
//! a belief of one position. The recorded commands are played whatever the agent chooses, so
//! both settings hear the same observations (issue 28, "Session 8: restarts").
//!
//! `cargo run --profile ci -p umpire-ai --example restart_count -- RECORD.json...`
//!
//! Each seat searches at the budget its tag names (`mcts@2000`; 1,000 nodes for a bare `mcts`
//! or a time budget), which sets the belief's repair work and the catch-up's pace.

use umpire_ai::mcts::MctsConfig;
use umpire_ai::{Agent, AgentSpec, Budget, Seat, play_observations};
use umpire_rules::Record;
use umpire_rules::shakmaty::Color;

/// What one replayed seat's belief did.
#[derive(Default)]
struct Counts {
    restarts: u32,
    takeovers: u32,
    caught_up: u32,
    decisions: u32,
    one_world: u32,
}

fn replay(record: &Record, side: Color, budget: Budget, worlds: bool) -> Result<Counts, String> {
    let seat = Seat::of_record(record, side).map_err(|e| e.to_string())?;
    let config = MctsConfig {
        budget,
        restart_worlds: worlds,
        ..MctsConfig::default()
    };
    let (mut umpire, mut agent) = seat.take_mcts(config);
    let mut counts = Counts::default();
    for entry in &record.entries {
        if entry.side == side {
            let held = agent.inner().planning_belief().map_or(0, |b| b.held());
            counts.decisions += 1;
            counts.one_world += u32::from(held == 1 && agent.inner().spares() == 0);
            let _ = agent.choose();
        }
        let outcome = umpire.submit(entry.command);
        if outcome.verdict != entry.verdict {
            return Err("the record does not replay".into());
        }
        play_observations(&mut agent, side, entry.command, &outcome)
            .map_err(|e| format!("observation refused: {e}"))?;
    }
    let inner = agent.inner();
    counts.restarts = inner.reseeds();
    counts.takeovers = inner.takeovers();
    counts.caught_up = inner.caught_up();
    Ok(counts)
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let mut totals = [0u32; 4];
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            eprintln!("{file}: cannot read");
            continue;
        };
        let Ok(record) = Record::from_json(&text) else {
            eprintln!("{file}: not a record");
            continue;
        };
        for (side, tag) in [(Color::White, "White"), (Color::Black, "Black")] {
            let Some(name) = record.tags.get(tag) else {
                continue;
            };
            let budget = match name.parse::<AgentSpec>() {
                Ok(spec) if name.starts_with("mcts") => match spec.budget(Budget::Nodes(1_000)) {
                    Budget::Nodes(n) => Budget::Nodes(n),
                    Budget::Time(_) => Budget::Nodes(1_000),
                },
                _ => continue,
            };
            for (k, worlds) in [false, true].into_iter().enumerate() {
                match replay(&record, side, budget, worlds) {
                    Ok(c) => {
                        totals[2 * k] += c.restarts;
                        totals[2 * k + 1] += c.one_world;
                        println!(
                            "{file} {tag} {name} worlds={worlds}: {} restarts, {} takeovers, {} caught up; {} of {} decisions on one position",
                            c.restarts, c.takeovers, c.caught_up, c.one_world, c.decisions
                        );
                    }
                    Err(e) => eprintln!("{file} {tag}: {e}"),
                }
            }
        }
    }
    println!(
        "total: restarts {} -> {}, decisions on one position {} -> {}",
        totals[0], totals[2], totals[1], totals[3]
    );
}
