//! The enemy's count of men is known exactly (every capture is announced): a restarted belief,
//! and the fallback planned from while the belief is empty, must not hold more enemy men than
//! that count allows (issue 28, session 10). A guess kept before the agent's own captures
//! still holds the men taken since; [`umpire_ai::restart::trim_to_count`] takes them off.
//!
//! The record is game 3 of session 8's `mcts@3000` against `raider` row (seed 28), where the
//! belief died and was restarted again and again: fed to `mcts@3000` seated as White with the
//! game's seat seed, asked at each of its decisions, the first position it plans from (the
//! belief's, or the fallback's) is counted.

mod common;

use umpire_ai::{Agent, play_observations};
use umpire_rules::Record;
use umpire_rules::shakmaty::{Color, Position};

#[test]
fn no_planned_position_holds_more_enemy_men_than_the_captures_leave() {
    let record = Record::from_json(include_str!("data/restart_loop_raider.json")).unwrap();
    let side = Color::White;
    // A belief of 64 positions: since the belief's recent checkpoints reach back (issue 30,
    // session 16), the default 256 no longer dies in this game.
    let config = umpire_ai::mcts::MctsConfig {
        belief_bound: 64,
        ..common::at_nodes(3_000)
    };
    let (mut umpire, mut agent) = umpire_ai::Seat::of_record(&record, side)
        .unwrap()
        .take_mcts(config);
    let (mut decisions, mut restarted, mut over) = (0u32, 0u32, Vec::new());
    for entry in &record.entries {
        if entry.side == side {
            agent.choose();
            let mcts = agent.inner();
            if let Some(p) = mcts.planning_belief().and_then(|b| b.position(0)) {
                decisions += 1;
                restarted += u32::from(mcts.reseeds() > 0);
                let held = p.board().by_color(!side).count();
                let known = usize::from(agent.view().enemy().men);
                if held > known {
                    over.push((umpire.plies(), held, known));
                }
            }
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    eprintln!("{decisions} decisions, {restarted} after a restart");
    assert!(
        decisions >= 40 && restarted >= 20,
        "{decisions} decisions, {restarted} after a restart"
    );
    assert!(
        over.is_empty(),
        "(ply, enemy men planned, known) over the count: {over:?}"
    );
}
