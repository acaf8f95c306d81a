//! Non-interference that can fail (issue 10), built on `umpire-testkit`'s independent oracle.
//!
//! - `observations_are_exactly_entitlements`: seeded random games under every rule set, from
//!   the standard start and set-up positions, with rejected attempts, "Any?", draw offers and
//!   answers (also by the wrong side), resignations and invalid commands on both sides: every
//!   observation equals what the oracle, computing from the true positions alone, says that
//!   player is entitled to.
//! - `paired_histories_give_identical_bytes`: for each player, two true histories paired by
//!   the oracle's entitlements (not by observations); everything the player receives — its
//!   observations, its `PlayerView`, the guided space (options and why each attempt is
//!   hidden), its PGN and JSON records — must be byte-identical.
//!
//! Longer runs: `UMPIRE_ENTITLEMENT_SEEDS=N` (seeds per rule set and position, default 2) and
//! `UMPIRE_PAIRED_SEEDS=N` (pairs per rule set and observer, default 2).

use umpire_rules::record::PlayerView as RecordView;
use umpire_rules::shakmaty::{Color, Square};
use umpire_rules::{AttemptList, CheckKind, RuleSetId};
use umpire_testkit::oracle::check_kind;
use umpire_testkit::pairing::{Channel, Exercised, PairConfig, paired_game};
use umpire_testkit::{GameCounts, entitlement_game};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// Set-up positions: promotions, castling, e.p. chances, checks, few men.
const SETUPS: [&str; 5] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 40",
    "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R2QKB1R w KQkq - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",
];

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn observations_are_exactly_entitlements() {
    let seeds = env("UMPIRE_ENTITLEMENT_SEEDS", 2);
    let mut total = GameCounts::default();
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let starts = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(*f)));
        for (i, fen) in starts.enumerate() {
            for seed in 0..seeds {
                let counts = entitlement_game(rules, fen, seed * 31 + i as u64, 600);
                total.add(&counts);
            }
        }
    }
    eprintln!("entitlement games: {total:?}");
    assert!(
        total.rejected > 100 && total.invalid > 100 && total.plies > 1000,
        "{total:?}"
    );
}

#[test]
fn oracle_check_geometry_agrees_with_the_rules_crate() {
    // A cross-check of two independent classifications over every pair of squares on a line
    // or a knight's move apart.
    for king in Square::ALL {
        for from in Square::ALL {
            let df = (from.file() as i32 - king.file() as i32).abs();
            let dr = (from.rank() as i32 - king.rank() as i32).abs();
            let on_line = from != king && (df == 0 || dr == 0 || df == dr);
            let knight = (df == 1 && dr == 2) || (df == 2 && dr == 1);
            if on_line || knight {
                assert_eq!(
                    check_kind(from, king),
                    CheckKind::classify(from, king),
                    "{from} -> {king}"
                );
            }
        }
    }
}

/// The player's agent view rebuilt from its filtered record: the same knowledge an agent holds.
fn agent_view(v: &RecordView) -> PlayerView {
    let mut view = PlayerView::at_start_of(v);
    for o in &v.observations {
        view.observe(o).expect("an observation that fits");
    }
    view
}

fn observations_bytes(v: &RecordView) -> Vec<u8> {
    format!("{:?}{:?}", v.opening, v.observations).into_bytes()
}

fn view_bytes(v: &RecordView) -> Vec<u8> {
    format!("{:?}", agent_view(v)).into_bytes()
}

fn guided_bytes(v: &RecordView) -> Vec<u8> {
    let view = agent_view(v);
    let mut out = String::new();
    for filters in [FilterSet::all(), FilterSet::all_sound()] {
        let space = GuidedSpace::new(&view, filters);
        let mut options = AttemptList::new();
        let may_ask = space.options(&mut options);
        out.push_str(&format!("{may_ask} {options:?} {:?}\n", space.inference()));
        let mut own = AttemptList::new();
        view.own_board()
            .attempts(view.rules().promotion_always_queen, &mut own);
        for a in own {
            out.push_str(&format!("{a} {:?}\n", space.hidden_by(a)));
        }
    }
    out.into_bytes()
}

fn pgn_bytes(v: &RecordView) -> Vec<u8> {
    v.to_pgn().into_bytes()
}

fn json_bytes(v: &RecordView) -> Vec<u8> {
    v.to_json().into_bytes()
}

/// Every channel the library has today; later channels (the `umpire play` screen, the engine
/// protocol, server frames, Python observations) add one line each.
const CHANNELS: [Channel<'static>; 5] = [
    ("observations", &observations_bytes),
    ("player view", &view_bytes),
    ("guided space", &guided_bytes),
    ("PGN view", &pgn_bytes),
    ("JSON view", &json_bytes),
];

#[test]
fn paired_histories_give_identical_bytes() {
    let seeds = env("UMPIRE_PAIRED_SEEDS", 2);
    let mut total = Exercised::default();
    let mut apart: Vec<u64> = Vec::new();
    for id in RuleSetId::ALL {
        for observer in [Color::White, Color::Black] {
            let starts =
                std::iter::once(None).chain([Some(SETUPS[0]), Some(SETUPS[2]), Some(SETUPS[3])]);
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
                                "{id} {observer:?} seed {} {ctx}: {name} differs:\n{}\n----\n{}",
                                cfg.seed,
                                String::from_utf8_lossy(&channel(a)),
                                String::from_utf8_lossy(&channel(b)),
                            );
                        }
                    });
                    apart.push(ex.plies_apart);
                    total.add(&ex);
                }
            }
        }
    }
    apart.sort_unstable();
    let median = apart[apart.len() / 2];
    eprintln!(
        "paired games: {} pairs, median plies apart {median}, {total:?}",
        apart.len()
    );
    assert!(median >= 20, "paired games part too soon: median {median}");
    for (what, n) in [
        ("captures", total.captures),
        ("checks", total.checks),
        ("any", total.any),
        ("promotions", total.promotions),
        ("en passant", total.en_passant),
        ("castling", total.castling),
        ("draws", total.draws),
        ("unheard", total.unheard),
    ] {
        assert!(n > 0, "{what} never exercised while apart: {total:?}");
    }
}
