//! Replays a recorded game (`umpire match --out DIR` writes them) into a fresh agent, seated as
//! one side and built by name, and at each of that side's decisions from move FROM on asks it
//! what it would play: prints the recorded command, the agent's choice, its value and nodes.
//! For finding why an agent shuffled or blundered in a recorded game (issue 28). The agent hears
//! exactly what its seat heard in the game; its own choices are not played (the record is).
//!
//! `cargo run --profile ci -p umpire-ai --example replay_choice -- RECORD.json white|black AGENT [FROM] [--off NAME]`
//!
//! `AGENT` as `umpire match` names agents (`mcts@30000`); the seed is the record's seat seed.
//! `--off NAME` switches one of `mcts`'s safeguards off (`Safeguards::NAMES`), for comparing.

use umpire_ai::mcts::{MctsConfig, Safeguards};
use umpire_ai::{Agent, AgentConfig, AgentKind, AgentSpec, Seat, play_observations};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: replay_choice RECORD.json white|black AGENT [FROM]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(1)
    });
    let record = Record::from_json(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(1)
    });
    let side = match args[1].as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            eprintln!("{other}: white or black");
            std::process::exit(2)
        }
    };
    let spec: AgentSpec = args[2].parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let from: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let off = args
        .iter()
        .position(|a| a == "--off")
        .and_then(|i| args.get(i + 1));
    let seat = Seat::of_record(&record, side).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(1)
    });
    let (mut umpire, mut agent): (_, Box<dyn Agent>) = match (&spec, off) {
        (
            AgentSpec::Builtin(AgentKind::Mcts) | AgentSpec::Budgeted(AgentKind::Mcts, _),
            Some(name),
        ) => {
            let safeguards = Safeguards::ALL.without(name).unwrap_or_else(|| {
                eprintln!("--off {name}: one of {:?}", Safeguards::NAMES);
                std::process::exit(2)
            });
            let config = AgentConfig {
                budget: spec.budget(AgentConfig::default().budget),
                ..AgentConfig::default()
            };
            let mcts = MctsConfig {
                safeguards,
                ..MctsConfig::from_agent_config(&config)
            };
            let (umpire, agent) = seat.take_mcts(mcts);
            (umpire, Box::new(agent))
        }
        _ => seat.take_spec(&spec),
    };
    let mut moves = 0usize;
    for entry in &record.entries {
        if entry.side == side && moves >= from {
            let chosen = agent.choose();
            let (value, nodes) = agent
                .analysis()
                .map_or((f64::NAN, 0), |a| (a.value, a.nodes));
            println!(
                "move {moves:4}: played {:8} {:10} agent {:8} value {value:+.3} nodes {nodes}",
                entry.command.to_string(),
                format!("{:?}", entry.verdict),
                chosen.to_string(),
            );
        }
        let outcome = umpire.submit(entry.command);
        if outcome.verdict != entry.verdict {
            eprintln!("the record does not replay at move {moves}");
            std::process::exit(1);
        }
        if let Err(e) = play_observations(&mut *agent, side, entry.command, &outcome) {
            eprintln!("observation refused: {e}");
            std::process::exit(1);
        }
        moves += usize::from(outcome.verdict == Verdict::Accepted);
    }
}
