//! Feeds a recorded game (`umpire match --out DIR` writes them) into a fresh `mcts` seated as
//! one side with the record's seat seed, **without asking it to choose** before the decision
//! (as the tests in `tests/` replay a record cut before a blunder), then asks its choice at the
//! side's first decision after MOVE moves, once with every safeguard and once with the one
//! named switched off; prints what each choice keeps in the true position
//! (`safety::exchange_delta`) beside the recorded move. For finding the records a test can
//! replay (issue 28).
//!
//! `cargo run --profile ci -p umpire-ai --example cut_choice -- RECORD.json white|black NODES SAFEGUARD MOVE...`

use umpire_ai::mcts::{MctsConfig, Safeguards};
use umpire_ai::safety::exchange_delta;
use umpire_ai::{Agent, Budget, Seat, play_observations};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, Record, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: cut_choice RECORD.json white|black NODES SAFEGUARD MOVE...");
        std::process::exit(2);
    }
    let record = std::fs::read_to_string(&args[0])
        .map_err(|e| e.to_string())
        .and_then(|t| Record::from_json(&t).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| {
            eprintln!("{}: {e}", args[0]);
            std::process::exit(1)
        });
    let side = if args[1] == "white" {
        Color::White
    } else {
        Color::Black
    };
    let nodes: u64 = args[2].parse().unwrap_or(4000);
    let Some(off) = Safeguards::ALL.without(&args[3]) else {
        eprintln!("{}: one of {:?}", args[3], Safeguards::NAMES);
        std::process::exit(2)
    };
    umpire_ai::endgame::prepare_tables(umpire_ai::endgame::EndgameConfig::default());
    for at_move in args[4..].iter().filter_map(|m| m.parse::<usize>().ok()) {
        let mut moves = 0usize;
        let Some(at) = record.entries.iter().position(|e| {
            let here = e.side == side && moves >= at_move;
            moves += usize::from(e.verdict == Verdict::Accepted);
            here
        }) else {
            continue;
        };
        let recorded = record.entries[at..]
            .iter()
            .find(|e| e.side == side && e.verdict == Verdict::Accepted)
            .map(|e| e.command);
        let mut line = format!("move {at_move} (entry {at}): recorded {recorded:?}");
        for (name, safeguards) in [("all", Safeguards::ALL), ("off", off)] {
            let config = MctsConfig {
                budget: Budget::Nodes(nodes),
                safeguards,
                ..MctsConfig::default()
            };
            let Ok(seat) = Seat::of_record(&record, side) else {
                return;
            };
            let (mut umpire, mut agent) = seat.take_mcts(config);
            for entry in &record.entries[..at] {
                let outcome = umpire.submit(entry.command);
                if outcome.verdict != entry.verdict
                    || play_observations(&mut agent, side, entry.command, &outcome).is_err()
                {
                    eprintln!("the record does not replay");
                    return;
                }
            }
            let truth = umpire.position().clone();
            let chosen = agent.choose();
            let kept = match chosen {
                Command::Attempt(a) => exchange_delta(std::slice::from_ref(&truth), a),
                _ => None,
            };
            let rec = match recorded {
                Some(Command::Attempt(a)) => exchange_delta(std::slice::from_ref(&truth), a),
                _ => None,
            };
            line.push_str(&format!(
                " | {name}: {chosen} keeps {kept:?} (recorded keeps {rec:?}, held {})",
                agent.inner().planning_belief().map_or(0, |b| b.held())
            ));
        }
        println!("{line}");
    }
}
