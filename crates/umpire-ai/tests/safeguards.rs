//! The issue-28 safeguards of `mcts` switched off one at a time (for the A/B measurements in
//! docs/BENCHMARKS.md): each switch changes what it names and the agent still plays legal,
//! complete games.

use umpire_ai::mcts::{MctsAgent, MctsConfig, Safeguards};
use umpire_ai::{Agent, Budget, RandomAgent, play_match};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{RuleSet, Umpire};
use umpire_view::PlayerView;

fn agent(side: Color, seed: u64, budget: Budget, safeguards: Safeguards) -> MctsAgent {
    let config = MctsConfig {
        budget,
        safeguards,
        ..MctsConfig::default()
    };
    MctsAgent::new(
        PlayerView::standard(RuleSet::WILD16, side),
        seed,
        Some(Chess::default()),
        config,
    )
}

#[test]
fn unbounded_repairs_take_the_belief_crates_default_budget() {
    let budget = Budget::Nodes(3_000);
    let bounded = agent(Color::White, 1, budget, Safeguards::ALL);
    assert_eq!(
        bounded.repair_budget(),
        umpire_ai::time_bound::repair_budget(budget)
    );
    assert!(bounded.repair_budget() < umpire_belief::REPAIR_BUDGET);
    let off = Safeguards::ALL.without("repairs").unwrap();
    let unbounded = agent(Color::White, 1, budget, off);
    assert_eq!(unbounded.repair_budget(), umpire_belief::REPAIR_BUDGET);
}

#[test]
fn every_safeguard_off_still_plays_complete_games() {
    for (i, name) in Safeguards::NAMES.iter().enumerate() {
        let off = Safeguards::ALL.without(name).unwrap();
        let seed = i as u64;
        let side = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut me = agent(side, seed, Budget::Nodes(60), off);
        let mut other = RandomAgent::new(PlayerView::standard(RuleSet::WILD16, !side), seed + 9);
        let mut umpire = Umpire::new(RuleSet::WILD16);
        let agents: [&mut dyn Agent; 2] = if side == Color::White {
            [&mut me, &mut other]
        } else {
            [&mut other, &mut me]
        };
        play_match(&mut umpire, agents, 400, &mut ()).expect("a legal game");
        assert!(
            umpire.result().is_some() || umpire.plies() >= 400,
            "{name}: the game neither ended nor reached the cap"
        );
    }
}
