//! Regression tests for issue 10: the match harness seats each agent itself (leak 4), and a
//! set-up position tells an agent what the player's filtered record says it is told (leak 6).

use umpire_ai::{AgentConfig, AgentKind, MatchError, play_match, play_observations, setup_view};
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, RuleSet, RuleSetId, Umpire};
use umpire_view::guided::FilterSet;
use umpire_view::{EnemyMaterial, PlayerView, ViewError};

#[test]
fn the_harness_refuses_an_agent_that_claims_the_other_side() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let mut umpire = Umpire::new(rules);
        // Both agents claim White; the one seated as Black would hear White's own commands.
        let mut white = AgentKind::Random.build(
            PlayerView::standard(rules, Color::White),
            1,
            &AgentConfig::with_filters(FilterSet::all()),
        );
        let mut liar = AgentKind::Random.build(
            PlayerView::standard(rules, Color::White),
            2,
            &AgentConfig::with_filters(FilterSet::all()),
        );
        let result = play_match(&mut umpire, [&mut *white, &mut *liar], 40, &mut ());
        assert_eq!(
            result,
            Err(MatchError::WrongSeat {
                seat: "black",
                claimed: "white"
            }),
            "{id}"
        );
        // Refused before anything was said: no command judged, nothing heard.
        assert_eq!(umpire.plies(), 0);
        assert!(liar.view().transcript().is_empty());
        assert!(white.view().transcript().is_empty());
    }
}

#[test]
fn play_observations_tells_the_seat_not_the_agents_claim() {
    let mut umpire = Umpire::new(RuleSet::WILD16);
    let command = Command::Attempt("e2e4".parse().unwrap());
    let outcome = umpire.submit(command);
    let mut liar = AgentKind::Random.build(
        PlayerView::standard(RuleSet::WILD16, Color::White),
        3,
        &AgentConfig::with_filters(FilterSet::all()),
    );
    assert_eq!(
        play_observations(&mut *liar, Color::Black, command, &outcome),
        Err(ViewError::WrongPlayer {
            view: Color::White,
            observer: Color::Black
        })
    );
    assert!(liar.view().transcript().is_empty());
    // Seated as what it claims, it hears its own move.
    play_observations(&mut *liar, Color::White, command, &outcome).unwrap();
    assert_eq!(liar.view().transcript().len(), 1);
}

#[test]
fn a_set_up_agent_is_told_what_its_filtered_record_says() {
    for fen in [
        "4k3/pp6/8/8/8/8/3PPP2/R3K2N w Q - 0 1",
        "r3k2r/pppp4/8/8/8/8/8/4K3 b kq - 0 12",
        "8/8/8/3k4/8/8/6P1/7K w - - 0 1",
    ] {
        let game = Game::from_fen(RuleSet::BERKELEY, fen).unwrap();
        for side in [Color::White, Color::Black] {
            let agent_view = setup_view(RuleSet::BERKELEY, game.umpire().position(), side);
            let record_view = game.record().player_view(side).unwrap();
            assert_eq!(
                agent_view.enemy(),
                EnemyMaterial::from(record_view.enemy_start),
                "{fen} {side:?}"
            );
            assert_eq!(agent_view.own_board(), &record_view.own_start);
            let pgn = record_view.to_pgn();
            let told = format!(
                "[KriegspielEnemyStart \"{} {}\"]",
                agent_view.enemy().men,
                agent_view.enemy().pawns_at_most
            );
            assert!(pgn.contains(&told), "{pgn}");
        }
    }
}
