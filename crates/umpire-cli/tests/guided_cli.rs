//! `umpire audit guided`, `selfplay --agent`, `bench --agent guided-random`: schemas, a zero-
//! violation audit on a small run, determinism, and clear errors.

use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the umpire binary runs")
}

fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "umpire {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn run_err(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "umpire {args:?} should fail");
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    stderr
}

fn count(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is a count: {v}"))
}

/// The ids of seed 000's filters, in seed order.
const FILTERS: [&str; 21] = [
    "A1", "A2", "A3", "A3.2", "A4.1", "A4.1.1", "A4.2", "B1", "B2", "B3", "B4", "C1", "C2", "C3",
    "C4", "C5", "C6", "C6.1", "C7", "C8", "C9",
];

fn check_audit(v: &Value, agent: &str) {
    for key in [
        "rules",
        "agent",
        "games",
        "decisions",
        "legal_checked",
        "soundness_violations",
        "filters",
        "violations",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["agent"], agent);
    assert!(count(v, "decisions") > 1000, "{v}");
    assert!(count(v, "legal_checked") > count(v, "decisions"), "{v}");
    assert_eq!(count(v, "soundness_violations"), 0, "{v}");
    assert_eq!(v["violations"].as_array().map(Vec::len), Some(0), "{v}");
    let filters = v["filters"].as_array().expect("filters is a list");
    let ids: Vec<&str> = filters.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, FILTERS);
    let mut total_fired = 0;
    for f in filters {
        let tag = f["soundness"].as_str().unwrap();
        assert!(tag == "sound" || tag == "heuristic", "{f}");
        let fired = count(f, "decisions_fired");
        let hidden = count(f, "attempts_hidden");
        let legal = count(f, "legal_hidden");
        assert!(fired <= count(v, "decisions") && fired <= hidden, "{f}");
        assert!(legal <= hidden, "{f}");
        if tag == "sound" {
            assert_eq!(legal, 0, "{f}");
        }
        let rate = f["false_hide_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{f}");
        if hidden > 0 {
            assert!((rate - legal as f64 / hidden as f64).abs() < 1e-9, "{f}");
        }
        total_fired += fired;
    }
    assert!(total_fired > 0, "no filter ever fired: {v}");
}

#[test]
fn audit_guided_json_schema_and_zero_violations() {
    for agent in ["random", "guided-random"] {
        let out = run_ok(&[
            "audit", "guided", "--rules", "wild16", "--games", "12", "--seed", "5", "--agent",
            agent, "--json",
        ]);
        let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
        check_audit(&v, agent);
        assert_eq!(v["rules"], "wild16");
        assert_eq!(count(&v, "games"), 12);
    }
    // Every rule set in one run, with a decision budget per rule set.
    let out = run_ok(&[
        "audit",
        "guided",
        "--rules",
        "all",
        "--games",
        "50",
        "--decisions",
        "1500",
        "--json",
    ]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    check_audit(&v, "guided-random");
    assert_eq!(count(&v, "decisions"), 7 * 1500, "{v}");
    // The same seed audits the same games.
    let a = run_ok(&["audit", "guided", "--games", "3", "--seed", "9", "--json"]);
    let b = run_ok(&["audit", "guided", "--games", "3", "--seed", "9", "--json"]);
    assert_eq!(a, b);
    // The table names every filter and the violation count.
    let table = run_ok(&["audit", "guided", "--games", "3"]);
    for id in FILTERS {
        assert!(table.lines().any(|l| l.starts_with(id)), "{id}: {table}");
    }
    assert!(table.contains("Soundness violations: 0"), "{table}");
}

#[test]
fn audit_bad_arguments_are_clear_errors() {
    let err = run_err(&["audit", "guided", "--rules", "chess960"]);
    assert!(err.contains("--rules") && err.contains("chess960"), "{err}");
    let err = run_err(&["audit", "guided", "--agent", "genius"]);
    assert!(err.contains("genius"), "{err}");
    let err = run_err(&["audit", "guided", "--decisions", "0"]);
    assert!(err.contains("--decisions"), "{err}");
}

#[test]
fn selfplay_with_the_guided_agent_is_deterministic_and_verifiable() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-guided-selfplay");
    let _ = std::fs::remove_dir_all(&dir);
    let mut summaries = Vec::new();
    for sub in ["a", "b"] {
        let out_dir = dir.join(sub);
        summaries.push(run_ok(&[
            "selfplay",
            "--agent",
            "guided-random",
            "--rules",
            "cincinnati",
            "--games",
            "3",
            "--seed",
            "4",
            "--out",
            out_dir.to_str().unwrap(),
        ]));
    }
    let first_lines = |s: &str| s.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(first_lines(&summaries[0]), first_lines(&summaries[1]));
    assert!(
        summaries[0].starts_with("3 games under cincinnati (guided-random agents)"),
        "{}",
        summaries[0]
    );
    for i in 1..=3 {
        let name = format!("game-{i:04}.json");
        let a = std::fs::read_to_string(dir.join("a").join(&name)).unwrap();
        let b = std::fs::read_to_string(dir.join("b").join(&name)).unwrap();
        assert_eq!(a, b);
        assert!(a.contains("guided-random"), "{a}");
        run_ok(&[
            "record",
            "verify",
            dir.join("a").join(&name).to_str().unwrap(),
        ]);
    }
    // From a set-up position too.
    run_ok(&[
        "selfplay",
        "--agent",
        "guided-random",
        "--games",
        "2",
        "--fen",
        "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",
    ]);
    let err = run_err(&["selfplay", "--agent", "nobody"]);
    assert!(err.contains("nobody"), "{err}");
}

#[test]
fn bench_guided_random_compares_presets_in_one_run() {
    let out = run_ok(&[
        "bench",
        "--agent",
        "guided-random",
        "--games",
        "3",
        "--max-plies",
        "60",
        "--json",
    ]);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 6, "{out}");
    // The belief filter's row, last: never a legal move hidden while the set is exact.
    let belief = &lines[5];
    assert_eq!(belief["figures"]["preset"], "(e) belief filter", "{belief}");
    assert_eq!(count(&belief["figures"], "games"), 3);
    assert_eq!(count(belief, "exact_false_hides"), 0, "{belief}");
    assert!(count(belief, "decisions") > 0, "{belief}");
    let presets: Vec<&str> = lines[..4]
        .iter()
        .map(|v| v["preset"].as_str().unwrap())
        .collect();
    assert_eq!(
        presets,
        [
            "(a) own board",
            "(b) seed 000 implemented",
            "(c) all sound",
            "(d) all"
        ]
    );
    for v in &lines[..4] {
        assert_eq!(count(v, "games"), 3);
        let share = v["rejected_share"].as_f64().unwrap();
        assert!((0.0..1.0).contains(&share), "{v}");
        assert!(v["attempts_per_game"].as_f64().unwrap() >= v["plies_per_game"].as_f64().unwrap());
    }
    // The sound filters save attempts: fewer are rejected than on the own board alone.
    let share = |i: usize| lines[i]["rejected_share"].as_f64().unwrap();
    assert!(share(2) < share(0), "{out}");
    assert!(share(1) < share(0), "{out}");
    let cost = &lines[4];
    assert!(count(cost, "decisions") > 0, "{cost}");
    assert!(cost["own_board_ns"].as_f64().unwrap() > 0.0, "{cost}");
    assert_eq!(
        cost["guided_ns"].as_array().map(Vec::len),
        Some(4),
        "{cost}"
    );
}
