//! What the replay tests share: `mcts` seated at a node budget from the standard start, with the
//! umpire of its game, the opening heard.

use umpire_ai::endgame::Endgame;
use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, Budget};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{RuleSet, Umpire};
use umpire_view::PlayerView;

/// `mcts` at `nodes` playing `side` from the standard start under `rules`, seeded `seed`, with
/// the umpire of its game; the opening announcements heard.
pub fn seated_mcts(
    rules: RuleSet,
    side: Color,
    seed: u64,
    nodes: u64,
) -> (Umpire, Endgame<MctsAgent>) {
    let umpire = Umpire::new(rules);
    let config = MctsConfig {
        budget: Budget::Nodes(nodes),
        ..MctsConfig::default()
    };
    let view = PlayerView::standard(rules, side);
    let mut agent = Endgame::new(MctsAgent::new(view, seed, Some(Chess::default()), config));
    let opening = umpire_ai::opening_heard(&umpire);
    agent.hear_opening(&opening);
    (umpire, agent)
}
