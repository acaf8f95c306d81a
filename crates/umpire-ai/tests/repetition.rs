//! Repetition: a winning agent does not shuffle back into its own boards.
//!
//! The shuffle is the pattern of the issue-28 games in which `mcts` won on material but drew by
//! threefold repetition: its queen went back and forth (here b1–b2) while the lone enemy king
//! did the same (h5–h6). Replayed to the point where the queen's next step back would stand an
//! own board again (and the position a second time), the agent must play something else.

use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, Budget, play_observations, setup_view};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color};
use umpire_rules::{Attempt, Command, OwnBoard, RuleSet, Umpire, Verdict};

fn start() -> Chess {
    "8/8/8/7k/8/8/8/KQR5 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn a_winning_agent_leaves_the_shuffle() {
    let shuffle = ["b1b2", "h5h6", "b2b1", "h6h5", "b1b2", "h5h6"];
    for seed in 0..3 {
        let rules = RuleSet::WILD16;
        let pos = start();
        let mut umpire = Umpire::from_position(rules, pos.clone()).unwrap();
        let config = MctsConfig {
            budget: Budget::Nodes(300),
            ..MctsConfig::default()
        };
        let mut agent = MctsAgent::new(
            setup_view(rules, &pos, Color::White),
            seed,
            Some(pos),
            config,
        );
        for uci in shuffle {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, Verdict::Accepted, "{uci}");
            play_observations(&mut agent, Color::White, command, &outcome).unwrap();
        }
        // The queen's step back to b1 would stand its own board again (and the whole position
        // for the second time, one short of threefold).
        let mut back = agent.view().own_board().clone();
        back.play(Attempt::from_uci("b2b1").unwrap());
        let command = agent.choose();
        let Command::Attempt(chosen) = command else {
            panic!("seed {seed}: {command:?}, {:?}", umpire.result());
        };
        let mut after: OwnBoard = agent.view().own_board().clone();
        after.play(chosen);
        assert_ne!(after, back, "seed {seed}: {chosen} repeats the shuffle");
        assert!(
            agent.analysis().is_some_and(|a| a.value > 0.3),
            "seed {seed}: the agent should stand to win"
        );
    }
}
