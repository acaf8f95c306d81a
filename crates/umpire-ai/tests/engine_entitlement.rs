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

/// An agent that writes down everything it is handed through [`umpire_ai::Agent`], and the
/// engine requests (both kinds) it would send after each observation, as `EngineAgent` builds
/// them.
struct Recorder {
    view: PlayerView,
    start: StartFacts,
    out: String,
}

impl umpire_ai::Agent for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[umpire_rules::Announcement]) {
        self.out.push_str(&format!("opening {announcements:?}\n"));
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(
        &mut self,
        observation: &umpire_rules::Observation,
    ) -> Result<(), umpire_view::ViewError> {
        self.out.push_str(&format!("{observation:?}\n"));
        self.view.observe(observation)?;
        for kind in [RequestKind::Choose, RequestKind::Draw] {
            let r = Request::new(&self.start, &self.view, kind, Budget::Nodes(100), 7);
            self.out.push_str(&r.to_line());
            self.out.push('\n');
        }
        Ok(())
    }

    fn choose(&mut self) -> umpire_rules::Command {
        umpire_rules::Command::Resign
    }
}

/// What the seat `observer` is handed, through `play_observations` (what the match runner and
/// `umpire selfplay` give every agent, an engine's among them), over one script.
fn handed(rules: RuleSetId, script: &[umpire_testkit::scripts::Step], observer: Color) -> String {
    let view = PlayerView::standard(*rules.rules(), observer);
    let start = StartFacts::of(&view);
    let mut agent = Recorder {
        view,
        start,
        out: String::new(),
    };
    let mut umpire = umpire_rules::Umpire::new(*rules.rules());
    for step in script {
        let outcome = umpire.submit_as(step.by, step.command);
        umpire_ai::play_observations(&mut agent, observer, step.command, &outcome)
            .expect("an observation that fits");
    }
    agent.out
}

/// Paired histories that differ in how many commands the opponent gives that the observer
/// hears nothing of (and in the opponent's heard commands, as long as they tell the observer
/// the same): an agent, and so an engine, is handed the same observations and sends the same
/// requests. Catches an agent told of commands its player hears nothing of (an empty
/// observation for each).
#[test]
fn agents_and_engines_are_handed_nothing_of_unheard_commands() {
    use umpire_testkit::scripts::{Audience, paired_scripts};
    let mut differing = 0;
    for rules in RuleSetId::ALL {
        for seed in 0..4 {
            let observer = if seed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cfg = PairConfig {
                rules: *rules.rules(),
                fen: None,
                observer,
                seed: 0xa9e7 + seed,
                max_commands: 80,
            };
            let s = paired_scripts(&cfg, Audience::Player, 3);
            let silent =
                |v: &[umpire_testkit::scripts::Step]| v.iter().filter(|x| x.silent).count();
            differing += usize::from(silent(&s.first) != silent(&s.second));
            assert_eq!(
                handed(rules, &s.first, observer),
                handed(rules, &s.second, observer),
                "{rules:?} seed {seed}"
            );
        }
    }
    assert!(differing > 0);
}
