//! The engine protocol is an output channel: over two true histories paired by the oracle's
//! entitlements (`umpire_testkit::pairing`), the requests an engine receives for the
//! observer's side — both kinds, built exactly as `EngineAgent` builds them from its view —
//! must be byte-identical. `UMPIRE_PAIRED_SEEDS=N` runs more pairs (default 2).

use umpire_ai::Budget;
use umpire_ai::engine::{Request, RequestKind, StartFacts};
use umpire_rules::RuleSetId;
use umpire_rules::record::PlayerView as RecordView;
use umpire_rules::shakmaty::Color;
use umpire_testkit::pairing::{Channel, PairConfig, paired_game};
use umpire_view::PlayerView;

/// The engine requests of the player of the filtered record `v`.
fn engine_request_bytes(v: &RecordView) -> Vec<u8> {
    let mut view = PlayerView::at_start_of(v);
    let start = StartFacts::of(&view);
    for o in &v.observations {
        view.observe(o).expect("an observation that fits");
    }
    let mut out = String::new();
    for kind in [RequestKind::Choose, RequestKind::Draw] {
        out.push_str(&Request::new(&start, &view, kind, Budget::Nodes(100), 7).to_line());
        out.push('\n');
    }
    out.into_bytes()
}

const CHANNELS: [Channel<'static>; 1] = [("engine requests", &engine_request_bytes)];

const SETUPS: [&str; 2] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

#[test]
fn paired_histories_give_identical_engine_requests() {
    let seeds: u64 = std::env::var("UMPIRE_PAIRED_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let mut apart = 0u64;
    for id in RuleSetId::ALL {
        for observer in [Color::White, Color::Black] {
            let starts = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(*f)));
            for (i, fen) in starts.enumerate() {
                for seed in 0..seeds {
                    let cfg = PairConfig {
                        rules: *id.rules(),
                        fen: fen.map(str::to_owned),
                        observer,
                        seed: seed * 7 + i as u64,
                        max_commands: 300,
                    };
                    let ex = paired_game(&cfg, |a, b, ctx| {
                        for (name, channel) in CHANNELS {
                            assert!(
                                channel(a) == channel(b),
                                "{id} {observer:?} seed {} {ctx}: {name} differ:\n{}\n----\n{}",
                                cfg.seed,
                                String::from_utf8_lossy(&channel(a)),
                                String::from_utf8_lossy(&channel(b)),
                            );
                        }
                    });
                    apart += ex.plies_apart;
                }
            }
        }
    }
    // The pairs must actually differ in their true positions for the test to mean anything.
    assert!(
        apart > 500,
        "paired games were apart for only {apart} plies"
    );
}
