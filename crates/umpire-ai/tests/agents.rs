//! The guided-random agent, agent names, games between agents and the audit library.

use umpire_ai::audit::{AuditConfig, audit_guided};
use umpire_ai::{Agent, AgentConfig, AgentKind, GuidedRandomAgent, RandomAgent, play_match};
use umpire_rules::shakmaty::Color;
use umpire_rules::{AttemptList, Command, RuleSet, RuleSetId, Umpire};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterId, FilterSet, GuidedSpace};

#[test]
fn agent_kinds_parse_and_build() {
    for kind in AgentKind::ALL {
        assert_eq!(kind.as_str().parse::<AgentKind>(), Ok(kind));
        let agent = kind.build(
            PlayerView::standard(RuleSet::WILD16, Color::White),
            1,
            &AgentConfig::default(),
        );
        assert_eq!(agent.name(), kind.as_str());
    }
    assert_eq!(" Guided-Random ".parse(), Ok(AgentKind::GuidedRandom));
    let err = "minimax".parse::<AgentKind>().unwrap_err();
    assert!(err.to_string().contains("minimax"), "{err}");
}

#[test]
fn the_guided_agent_picks_only_offered_attempts() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let mut umpire = Umpire::new(rules);
        let mut white = GuidedRandomAgent::new(
            PlayerView::standard(rules, Color::White),
            7,
            FilterSet::all_sound(),
        );
        let mut black = RandomAgent::new(PlayerView::standard(rules, Color::Black), 8);
        for _ in 0..400 {
            if umpire.is_over() {
                break;
            }
            let command = if umpire.turn() == Color::White {
                let mut offered = AttemptList::new();
                let may_ask =
                    GuidedSpace::new(white.view(), FilterSet::all_sound()).options(&mut offered);
                let c = white.choose();
                match c {
                    Command::Attempt(a) => assert!(offered.contains(&a), "{id}: {a}"),
                    Command::AskAny => assert!(may_ask, "{id}"),
                    other => panic!("{id}: unexpected {other:?}"),
                }
                c
            } else {
                black.choose()
            };
            let outcome = umpire.submit(command);
            for (agent, seat) in [
                (&mut white as &mut dyn Agent, Color::White),
                (&mut black, Color::Black),
            ] {
                umpire_ai::play_observations(agent, seat, command, &outcome).unwrap();
            }
        }
        // Every sound filter on: the guided agent never had to fall back.
        assert_eq!(white.fallbacks(), 0, "{id}");
    }
}

#[test]
fn games_between_agents_are_deterministic() {
    let play = |seed: u64| {
        let mut umpire = Umpire::new(RuleSet::ENGLISH);
        let mut white = AgentKind::GuidedRandom.build(
            PlayerView::standard(RuleSet::ENGLISH, Color::White),
            seed,
            &AgentConfig::default(),
        );
        let mut black = AgentKind::Random.build(
            PlayerView::standard(RuleSet::ENGLISH, Color::Black),
            seed + 1,
            &AgentConfig::default(),
        );
        let stats = play_match(&mut umpire, [&mut *white, &mut *black], 300, &mut ()).unwrap();
        // Thinking time is measured, not played: it may differ between the two runs.
        let stats = umpire_ai::MatchStats {
            think_us: [0; 2],
            times: Default::default(),
            cpu_times: Default::default(),
            ..stats
        };
        (stats, umpire.position().clone())
    };
    let (a, pa) = play(3);
    let (b, pb) = play(3);
    assert_eq!(a, b);
    assert_eq!(pa, pb);
    assert_eq!(a.games, 1);
    assert!(a.attempts >= a.plies + a.rejected);
    let (c, _) = play(4);
    assert_ne!(a, c);
}

#[test]
fn the_audit_counts_consistently_and_finds_no_sound_violation() {
    let mut config = AuditConfig::new(RuleSet::WILD16, 1000, 11, AgentKind::Random);
    config.max_decisions = Some(20_000);
    let mut calls = 0;
    let report = audit_guided(&config, |_| calls += 1).unwrap();
    assert_eq!(report.decisions, 20_000);
    assert_eq!(calls, report.games);
    assert_eq!(report.soundness_violations, 0, "{:?}", report.violations);
    for f in &report.filters {
        assert!(f.legal_hidden <= f.attempts_hidden, "{f:?}");
        assert!(f.decisions_fired <= report.decisions, "{f:?}");
    }
    // The auditor sees the hides that are wrong: the heuristic pin guess is caught hiding
    // legal moves, and its rate is their share.
    let a41 = report.filter(FilterId::A4_1);
    assert!(a41.legal_hidden > 0, "{a41:?}");
    let rate = a41.legal_hidden as f64 / a41.attempts_hidden as f64;
    assert!((a41.false_hide_rate - rate).abs() < 1e-12);
    // Deterministic.
    assert_eq!(audit_guided(&config, |_| {}).unwrap(), report);
}
