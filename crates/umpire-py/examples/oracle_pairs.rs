//! Writes the independent oracle's paired histories (`umpire_testkit::pairing`, the pairs the
//! Rust leak suite checks) as JSON on standard output, for the Python bindings' leak test
//! (`tests/python/test_leak.py`), which replays both histories of each pair through the
//! bindings and compares what the observer is given after every command.
//!
//! Each pair: `{"rules", "fen" (null for the standard start), "observer", "a", "b"}`, with
//! `a` and `b` lists of `[side, command]` (the command as records write it).
//!
//! ```text
//! cargo run --profile ci -p umpire-py --example oracle_pairs > pairs.json
//! ```

use serde_json::{Value, json};
use umpire_rules::RuleSetId;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;
use umpire_testkit::pairing::{PairConfig, paired_records};

/// Set-up starts besides the standard one (the Rust suite's, `tests/leak.rs`).
const SETUPS: [&str; 3] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 40",
    "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R2QKB1R w KQkq - 0 8",
];

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn commands(r: &Record) -> Value {
    Value::Array(
        r.entries
            .iter()
            .map(|e| json!([side_name(e.side), e.command.to_text()]))
            .collect(),
    )
}

fn main() {
    let mut pairs = Vec::new();
    for id in RuleSetId::ALL {
        for observer in [Color::White, Color::Black] {
            let starts = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (i, fen) in starts.enumerate() {
                let cfg = PairConfig {
                    rules: *id.rules(),
                    fen: fen.clone(),
                    observer,
                    seed: 11 + i as u64,
                    max_commands: 300,
                };
                let (a, b, ex) = paired_records(&cfg);
                pairs.push(json!({
                    "rules": id.as_str(),
                    "fen": fen,
                    "observer": side_name(observer),
                    "plies_apart": ex.plies_apart,
                    "unheard": ex.unheard,
                    "a": commands(&a),
                    "b": commands(&b),
                }));
            }
        }
    }
    println!("{}", Value::Array(pairs));
}
