//! Replays recorded games (`umpire match --out DIR` writes them) into `mcts` seated as the
//! recorded one was (built by name, with the record's seat seed, every decision asked as in the
//! game) and prints each recorded move that kept at least `LOSS` pawns (default 2) less in the
//! **true** position than the best move there (`safety::exchange_delta`), with the agent's own
//! choice and what it knew there: how many positions it planned from and whether that was its
//! belief or the fallback (the belief empty, under repair), whether the belief was exact
//! (restarted from a guess), whether the true position was among those held, what the move
//! risked in a sample of the planned positions, its restarts so far, its spare worlds, and the
//! nodes searched (0: not searched). Also each decision where the agent's choice differs from
//! the record (none for the build that played it). `--off SAFEGUARD` switches one of the
//! safeguards off (`Safeguards::NAMES`). For classifying where `mcts` lost the material that
//! decided a game (issue 28).
//!
//! `cargo run --profile ci -p umpire-ai --example blunder_trace -- AGENT [--loss PAWNS] [--off SAFEGUARD] RECORD.json...`

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_ai::mcts::{MctsConfig, Safeguards};
use umpire_ai::safety::{SAFETY_WORLDS, exchange_delta, standing_delta};
use umpire_ai::{Agent, AgentConfig, AgentSpec, Seat, play_observations};
use umpire_rules::shakmaty::{Color, Position};
use umpire_rules::{Command, Record, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: blunder_trace AGENT [--loss PAWNS] [--off SAFEGUARD] RECORD.json...");
        std::process::exit(2);
    };
    let spec: AgentSpec = name.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut loss = 2.0f64;
    let mut off: Option<String> = None;
    let mut files = Vec::new();
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--off" => off = rest.next().cloned(),
            "--loss" => loss = rest.next().and_then(|s| s.parse().ok()).unwrap_or(loss),
            file => files.push(file.to_owned()),
        }
    }
    umpire_ai::endgame::prepare_tables(umpire_ai::endgame::EndgameConfig::default());
    for file in &files {
        let Ok(record) = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|t| Record::from_json(&t).map_err(|e| e.to_string()))
        else {
            eprintln!("{file}: unreadable");
            continue;
        };
        for (tag, side) in [("White", Color::White), ("Black", Color::Black)] {
            if record.tags.get(tag) != Some(name.as_str()) {
                continue;
            }
            println!("{file} {tag}");
            if let Err(e) = trace(&record, side, &spec, loss, off.as_deref()) {
                eprintln!("{file} {tag}: {e}");
            }
        }
    }
}

/// Replays `record` into `mcts` seated as `side`, printing its material-losing moves.
fn trace(
    record: &Record,
    side: Color,
    spec: &AgentSpec,
    loss: f64,
    off: Option<&str>,
) -> Result<(), String> {
    let seat = Seat::of_record(record, side).map_err(|e| e.to_string())?;
    let config = AgentConfig {
        budget: spec.budget(AgentConfig::default().budget),
        ..AgentConfig::default()
    };
    let mcts = MctsConfig {
        safeguards: off
            .map_or(Some(Safeguards::ALL), |name| Safeguards::ALL.without(name))
            .ok_or("unknown safeguard")?,
        ..MctsConfig::from_agent_config(&config)
    };
    let (mut umpire, mut agent) = seat.take_mcts(mcts);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let mut moves = 0usize;
    // Decisions, and those planned from a first position with more / fewer enemy men than
    // the announced captures leave (the count is known exactly), by source: belief, fallback.
    let mut counts = [[0u32; 3]; 2];
    for entry in &record.entries {
        if entry.side == side {
            let chosen = agent.choose();
            let inner = agent.inner();
            if let Some(b) = inner.planning_belief()
                && let Some(p) = b.position(0)
            {
                let source = usize::from(inner.belief().is_none_or(|b| b.held() == 0));
                let held = p.board().by_color(!side).count();
                let known = usize::from(agent.view().enemy().men);
                counts[source][0] += 1;
                counts[source][1] += u32::from(held > known);
                counts[source][2] += u32::from(held < known);
            }
            let kept = match chosen {
                Command::Attempt(a) => exchange_delta(std::slice::from_ref(umpire.position()), a)
                    .map_or("illegal".to_owned(), |d| format!("{d:+.2}")),
                _ => "-".to_owned(),
            };
            if chosen != entry.command {
                println!(
                    "  move {moves}: agent {chosen} (keeps {kept}) differs from the record's {}",
                    entry.command
                );
            }
            if let (Command::Attempt(a), Verdict::Accepted) = (entry.command, entry.verdict) {
                let truth = umpire.position().clone();
                let one = std::slice::from_ref(&truth);
                let real = exchange_delta(one, a).unwrap_or(0.0);
                let (best, best_move) = truth
                    .legal_moves()
                    .iter()
                    .filter_map(|m| {
                        let at = umpire_rules::Attempt::from_uci(
                            &m.to_uci(umpire_rules::shakmaty::CastlingMode::Standard)
                                .to_string(),
                        )
                        .ok()?;
                        Some((exchange_delta(one, at)?, at))
                    })
                    .fold((real, a), |acc, x| if x.0 > acc.0 { x } else { acc });
                if real <= best - loss {
                    let still = standing_delta(one).unwrap_or(0.0);
                    let inner = agent.inner();
                    let planning = inner.planning_belief();
                    let from_fallback = inner.belief().is_none_or(|b| b.held() == 0);
                    let (held, exact, contains, risk) =
                        planning.map_or((0, false, false, None), |b| {
                            let worlds = b.sample(SAFETY_WORLDS, &mut rng);
                            (
                                b.held(),
                                b.is_exact(),
                                b.contains(&truth),
                                exchange_delta(&worlds, a),
                            )
                        });
                    println!(
                        "  move {moves} (ply {}): {a} keeps {real:+.2} (agent {chosen} {kept}; {best_move} {best:+.2}, standing {still:+.2}); planned from {} {held} positions{}{}, truth held {contains}, risk seen {}, restarts {}, spares {}, nodes {}",
                        umpire.plies(),
                        if from_fallback {
                            "the fallback's"
                        } else {
                            "the belief's"
                        },
                        if exact { " (exact)" } else { "" },
                        if inner.belief().is_none() {
                            " (no belief)"
                        } else {
                            ""
                        },
                        risk.map_or("-".to_owned(), |r| format!("{r:+.2}")),
                        inner.reseeds(),
                        inner.spares(),
                        agent.analysis().map_or(0, |x| x.nodes),
                    );
                    println!(
                        "    fen {}",
                        umpire_rules::shakmaty::fen::Fen::from_position(
                            &truth,
                            umpire_rules::shakmaty::EnPassantMode::Legal
                        )
                    );
                }
            }
        }
        let outcome = umpire.submit(entry.command);
        if outcome.verdict != entry.verdict {
            return Err(format!("the record does not replay at move {moves}"));
        }
        play_observations(&mut agent, side, entry.command, &outcome)
            .map_err(|e| format!("observation refused: {e}"))?;
        moves += usize::from(outcome.verdict == Verdict::Accepted);
    }
    println!(
        "  enemy men planned from: belief {} decisions, {} with more than known, {} fewer; fallback {} decisions, {} more, {} fewer",
        counts[0][0], counts[0][1], counts[0][2], counts[1][0], counts[1][1], counts[1][2]
    );
    Ok(())
}
