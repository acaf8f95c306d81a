//! The belief is an output channel like any other: over two true games paired by entitlement
//! (the observer entitled to exactly the same things, the true positions apart), the belief's
//! JSON for the observer — exactness, size, marginals, metaposition — is byte-identical.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig, Marginals, Metaposition};
use umpire_rules::RuleSetId;
use umpire_rules::record::PlayerView as RecordView;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Position};
use umpire_testkit::pairing::{PairConfig, paired_game};

/// The belief's JSON for the view's player: what `umpire belief --json` prints, without the
/// time taken, plus the first sampled positions. `belief` has taken in the view's first
/// observations already (the view only grows during a paired game); it takes in the rest.
fn belief_json(belief: &mut Belief, view: &RecordView) -> Vec<u8> {
    for obs in &view.observations[belief.transcript().len()..] {
        belief.observe(obs).unwrap();
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let samples: Vec<String> = belief
        .sample(3, &mut rng)
        .iter()
        .map(|p| Fen::from_position(p, umpire_rules::shakmaty::EnPassantMode::Legal).to_string())
        .collect();
    let json = serde_json::json!({
        "exact": belief.is_exact(),
        "size": belief.size(),
        "size_estimate": belief.size_estimate(),
        "held": belief.held(),
        "marginals": serde_json::from_str::<serde_json::Value>(&Marginals::of(belief).to_json()).unwrap(),
        "metaposition": Metaposition::of(belief),
        "samples": samples,
    });
    serde_json::to_vec(&json).unwrap()
}

#[test]
fn the_belief_is_identical_over_histories_paired_by_entitlement() {
    let setups = [
        None,
        Some("r3k2r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/R3K2R w KQkq - 0 1"),
    ];
    let mut apart = 0;
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for (i, fen) in setups.iter().enumerate() {
            let start: Chess = match fen {
                Some(f) => f
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap(),
                None => Chess::default(),
            };
            for observer in [Color::White, Color::Black] {
                let cfg = PairConfig {
                    rules,
                    fen: fen.map(str::to_owned),
                    observer,
                    seed: 11 + i as u64,
                    max_commands: 30,
                };
                let config = BeliefConfig {
                    bound: 60,
                    particles: None,
                    seed: 5,
                    ..BeliefConfig::default()
                };
                let fresh = || Belief::new(rules, start.clone(), observer, config).unwrap();
                let (mut ba, mut bb) = (fresh(), fresh());
                let ex = paired_game(&cfg, |a, b, ctx| {
                    let (ja, jb) = (belief_json(&mut ba, a), belief_json(&mut bb, b));
                    assert!(
                        ja == jb,
                        "{id} {observer:?} {ctx}: the belief differs:\n{}\n----\n{}",
                        String::from_utf8_lossy(&ja),
                        String::from_utf8_lossy(&jb)
                    );
                });
                apart += ex.plies_apart;
                assert!(start.turn() == Color::White);
            }
        }
    }
    assert!(
        apart > 50,
        "the paired games were seldom apart ({apart} plies)"
    );
}
