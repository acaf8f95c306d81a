//! Information hiding of the Python channels (issue 26): for two true histories paired by the
//! independent oracle's entitlements (`umpire_testkit::pairing`, as in `umpire-view`'s
//! `tests/entitlement.rs`), the observer's observation tensor, observation string,
//! information-state string and legal actions (plain and guided) are byte-identical after
//! every command.

use umpire_rules::RuleSetId;
use umpire_rules::record::PlayerView as RecordView;
use umpire_rules::shakmaty::Color;
use umpire_testkit::pairing::{Channel, Exercised, PairConfig, paired_game};
use umpire_view::PlayerView;

use umpire_py::{state, tensor, text};

const SETUPS: [&str; 3] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 40",
    "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R2QKB1R w KQkq - 0 8",
];

/// The views at the start and now, from the filtered record: what the state keeps (its
/// views equal these, `state.rs` tests).
fn views(v: &RecordView) -> (PlayerView, PlayerView) {
    let start = PlayerView::at_start_of(v);
    let mut view = start.clone();
    for o in &v.observations {
        view.observe(o).expect("an observation that fits");
    }
    (start, view)
}

fn tensor_bytes(v: &RecordView) -> Vec<u8> {
    let mut t = Vec::new();
    tensor::observation_tensor(&views(v).1, &mut t);
    t.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn stacked_bytes(v: &RecordView) -> Vec<u8> {
    let (start, now) = views(v);
    let mut t = Vec::new();
    tensor::stacked_observation_tensor(&start, &now, 4, &mut t);
    t.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn belief_bytes(v: &RecordView) -> Vec<u8> {
    let mut t = Vec::new();
    match tensor::belief_planes(&views(v).1, &mut t) {
        Some(()) => t.iter().flat_map(|x| x.to_le_bytes()).collect(),
        None => b"none".to_vec(),
    }
}

fn observation_string_bytes(v: &RecordView) -> Vec<u8> {
    text::observation_string(&views(v).1).into_bytes()
}

fn information_state_bytes(v: &RecordView) -> Vec<u8> {
    let (start, now) = views(v);
    text::information_state_string(&start, &now).into_bytes()
}

fn legal_actions_bytes(v: &RecordView) -> Vec<u8> {
    let (_, view) = views(v);
    let mut out = Vec::new();
    let mut bytes = Vec::new();
    for guided in [false, true] {
        out.clear();
        state::legal_actions_of(&view, guided, &mut out);
        bytes.extend(format!("{out:?}\n").into_bytes());
    }
    bytes
}

const CHANNELS: [Channel<'static>; 5] = [
    ("observation_tensor", &tensor_bytes),
    ("stacked_observation_tensor", &stacked_bytes),
    ("observation_string", &observation_string_bytes),
    ("information_state_string", &information_state_bytes),
    ("legal_actions", &legal_actions_bytes),
];

#[test]
fn paired_histories_give_identical_python_observations() {
    let mut total = Exercised::default();
    let mut apart = Vec::new();
    for id in RuleSetId::ALL {
        for observer in [Color::White, Color::Black] {
            let starts = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (i, fen) in starts.enumerate() {
                let cfg = PairConfig {
                    rules: *id.rules(),
                    fen,
                    observer,
                    seed: 11 + i as u64,
                    max_commands: 300,
                };
                let ex = paired_game(&cfg, |a, b, ctx| {
                    for (name, channel) in CHANNELS {
                        let (x, y) = (channel(a), channel(b));
                        assert!(
                            x == y,
                            "{id} {observer:?} seed {} {ctx}: {name} differs",
                            cfg.seed
                        );
                    }
                });
                apart.push(ex.plies_apart);
                total.add(&ex);
            }
        }
    }
    apart.sort_unstable();
    let median = apart[apart.len() / 2];
    eprintln!(
        "python channels: {} pairs, median plies apart {median}, {total:?}",
        apart.len()
    );
    assert!(median >= 10, "paired games part too soon: median {median}");
    assert!(
        total.captures > 0 && total.checks > 0 && total.unheard > 0,
        "{total:?}"
    );
}

/// The belief planes (slow: a belief per call, so short pairs) from the standard start.
#[test]
fn paired_histories_give_identical_belief_planes() {
    let mut total = Exercised::default();
    for id in [RuleSetId::Wild16, RuleSetId::BerkeleyAny] {
        for observer in [Color::White, Color::Black] {
            let cfg = PairConfig {
                rules: *id.rules(),
                fen: None,
                observer,
                seed: 3,
                max_commands: 12,
            };
            let ex = paired_game(&cfg, |a, b, ctx| {
                assert!(
                    belief_bytes(a) == belief_bytes(b),
                    "{id} {observer:?} {ctx}: belief planes differ"
                );
            });
            total.add(&ex);
        }
    }
    eprintln!("belief planes: {total:?}");
    assert!(total.plies_apart > 0, "{total:?}");
}

/// OpenSpiel's leak (issue 26): after 1.e4 e5 and after 1.e4 Nf6 White has heard the same,
/// and its channels here are identical; a tensor that, like OpenSpiel's, carries the true
/// half-move clock (reset by Black's pawn move, not by the knight's) differs.
#[test]
fn openspiels_counter_leak_is_absent_here_and_would_be_caught() {
    use umpire_py::state::{GameConfig, KriegspielState};
    use umpire_rules::shakmaty::Position;
    use umpire_rules::{Attempt, Command};
    let play = |moves: &[&str]| {
        let mut s = KriegspielState::new(GameConfig::new("wild16", None, false).unwrap()).unwrap();
        for m in moves {
            let out = s.submit(Command::Attempt(Attempt::from_uci(m).unwrap()));
            assert!(out.is_accepted(), "{m}");
        }
        s
    };
    let a = play(&["e2e4", "e7e5"]);
    let b = play(&["e2e4", "g8f6"]);
    let mut ta = Vec::new();
    let mut tb = Vec::new();
    a.observation_tensor(Color::White, &mut ta);
    b.observation_tensor(Color::White, &mut tb);
    assert_eq!(ta, tb);
    assert_eq!(
        a.observation_string(Color::White),
        b.observation_string(Color::White)
    );
    assert_eq!(
        a.information_state_string(Color::White),
        b.information_state_string(Color::White)
    );
    // The leaky variant: a plane of the true half-move clock / 100.
    let leaky = |s: &KriegspielState, t: &[f32]| {
        let mut t = t.to_vec();
        let clock = s.game().umpire().position().halfmoves() as f32 / 100.0;
        t.extend(std::iter::repeat_n(clock, 64));
        t
    };
    assert_ne!(leaky(&a, &ta), leaky(&b, &tb));
}
