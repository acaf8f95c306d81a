//! The match runner: deterministic whatever the number of threads, colours alternating,
//! the SPRT stopping at the same game, and broken engine programs scored as losses with
//! their reason (never a panic or a hang).

use std::time::Duration;

use umpire_ai::tournament::stats::{Sprt, SprtDecision};
use umpire_ai::tournament::{GameReport, MatchConfig, Points, RunKey, Termination, run_match};
use umpire_ai::{AgentConfig, AgentKind, AgentSpec, Budget};
use umpire_rules::RuleSetId;

fn config(games: u64, concurrency: usize, seed: u64) -> MatchConfig {
    MatchConfig {
        rules: RuleSetId::Wild16,
        games,
        agent: AgentConfig {
            budget: Budget::Nodes(200),
            ..AgentConfig::default()
        },
        concurrency,
        key: RunKey::from_seed(seed),
        max_plies: 300,
        sprt: None,
        engine_timeout: None,
    }
}

fn play(a: &AgentSpec, b: &AgentSpec, cfg: &MatchConfig) -> Vec<GameReport> {
    let mut reports = Vec::new();
    run_match(a, b, cfg, |r| reports.push(r.clone())).expect("the match runs");
    reports
}

fn fingerprint(reports: &[GameReport]) -> Vec<(u64, bool, Points, Termination, u32, String)> {
    reports
        .iter()
        .map(|r| {
            (
                r.index,
                r.a_white,
                r.points,
                r.termination,
                r.plies,
                r.record.to_json_pretty(),
            )
        })
        .collect()
}

#[test]
fn match_is_deterministic_whatever_the_concurrency() {
    let a = AgentSpec::Builtin(AgentKind::GuidedRandom);
    let b = AgentSpec::Builtin(AgentKind::Random);
    let one = play(&a, &b, &config(6, 1, 11));
    let three = play(&a, &b, &config(6, 3, 11));
    assert_eq!(one.len(), 6);
    assert_eq!(fingerprint(&one), fingerprint(&three));
    // Reports come in index order; colours alternate, A White in even games.
    for (i, r) in one.iter().enumerate() {
        assert_eq!(r.index, i as u64);
        assert_eq!(r.a_white, i % 2 == 0);
        let (white, black) = (r.record.tags.get("White"), r.record.tags.get("Black"));
        let expected = if r.a_white {
            ("guided-random", "random")
        } else {
            ("random", "guided-random")
        };
        assert_eq!((white, black), (Some(expected.0), Some(expected.1)));
    }
    // Another seed plays other games.
    let other = play(&a, &b, &config(6, 2, 12));
    assert_ne!(fingerprint(&one), fingerprint(&other));
}

#[test]
fn sprt_stops_at_the_same_game_whatever_the_concurrency() {
    // Random against random is about even: a test of +300 against +600 Elo soon accepts H0.
    let a = AgentSpec::Builtin(AgentKind::Random);
    let mut cfg = config(200, 1, 5);
    cfg.sprt = Some(Sprt::new(300.0, 600.0));
    let mut n1 = 0;
    let s1 = run_match(&a, &a, &cfg, |_| n1 += 1).expect("runs");
    cfg.concurrency = 3;
    let mut n3 = 0;
    let s3 = run_match(&a, &a, &cfg, |_| n3 += 1).expect("runs");
    assert_eq!(s1.sprt, Some(SprtDecision::H0));
    assert!(n1 < 200, "stopped after {n1} games");
    assert_eq!((n1, s1.tally), (n3, s3.tally));
    assert_eq!(s1.tally.games(), n1);
}

fn broken(argv: &[&str], timeout_ms: u64) -> (GameReport, GameReport) {
    let engine = AgentSpec::Command(argv.iter().map(|s| (*s).to_owned()).collect());
    let random = AgentSpec::Builtin(AgentKind::Random);
    let mut cfg = config(2, 2, 3);
    cfg.engine_timeout = Some(Duration::from_millis(timeout_ms));
    let reports = play(&engine, &random, &cfg);
    assert_eq!(reports.len(), 2);
    (reports[0].clone(), reports[1].clone())
}

/// The engine timeout of the tests that are not about it: each program fails or answers at once,
/// so the wait is never spent, and a loaded machine (a niced `python3` starting beside other
/// jobs took over 2 s once) cannot turn the fault a test expects into a timeout.
const PATIENT_MS: u64 = 60_000;

fn assert_broken(argv: &[&str], timeout_ms: u64, reasons: &[&str]) {
    let (white, black) = broken(argv, timeout_ms);
    for r in [&white, &black] {
        assert_eq!(r.points, Points::Loss, "{argv:?}: {r:?}");
        assert_eq!(r.termination, Termination::EngineFailure);
        let fault = r.fault.as_deref().unwrap_or("");
        assert!(
            reasons.iter().any(|r| fault.contains(r)),
            "{argv:?}: {fault:?}"
        );
        // The record is still a well-formed game: the broken side resigned.
        let result = r.record.result.expect("the game ended");
        assert_eq!(result.reason, umpire_rules::EndReason::Resignation);
        assert_eq!(result.winner.map(|c| c.is_white()), Some(!r.a_white));
    }
}

#[test]
fn a_program_that_cannot_start_loses_with_the_reason() {
    assert_broken(
        &["/nonexistent/umpire-engine"],
        PATIENT_MS,
        &["cannot start"],
    );
}

#[test]
fn a_program_that_exits_loses_with_the_reason() {
    // It may be gone before the request is written, or before the answer is read.
    assert_broken(&["true"], PATIENT_MS, &["exited", "cannot send"]);
}

#[test]
fn a_program_answering_garbage_loses_with_the_reason() {
    // `yes` answers "y" to everything; `cat` echoes the request, which has no command.
    assert_broken(&["yes"], PATIENT_MS, &["not a response"]);
    assert_broken(&["cat"], PATIENT_MS, &["without a command"]);
}

#[test]
fn a_silent_program_times_out_and_loses() {
    assert_broken(&["sleep", "30"], 200, &["no answer within 200 ms"]);
}

#[test]
fn an_engine_answering_an_impossible_command_loses() {
    // A program always answering "h1h3": never among its player's options.
    let script =
        "import sys\nfor line in sys.stdin:\n print('{\"command\": \"h1h3\"}', flush=True)";
    assert_broken(&["python3", "-c", script], PATIENT_MS, &["may not say"]);
}

#[test]
fn the_example_python_engine_plays_complete_games() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/engine/random_engine.py"
    );
    let engine = AgentSpec::Command(vec!["python3".into(), path.into()]);
    let random = AgentSpec::Builtin(AgentKind::Random);
    let mut cfg = config(2, 2, 8);
    cfg.max_plies = 2000;
    let reports = play(&engine, &random, &cfg);
    for r in &reports {
        assert_eq!(r.fault, None);
        assert_ne!(r.termination, Termination::EngineFailure);
        assert!(r.plies > 10, "{r:?}");
    }
}
