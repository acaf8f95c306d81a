//! `umpire match`, `umpire engine` and agent names: a full game through the example Python
//! engine, the differential of `cmd:umpire engine --agent random` against the built-in
//! `random`, the JSON summary, records that verify, the round robin, and clear errors.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

fn example_engine() -> String {
    format!(
        "cmd:python3 {}/../../examples/engine/random_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

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
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn run_err(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "umpire {args:?} should fail");
    assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-match-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// The records of a directory, by file name, with the White/Black tags (the agents' names)
/// taken out.
fn records(dir: &Path) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = fs::read_dir(dir)
        .expect("the directory exists")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let verified = run_ok(&["record", "verify", path.to_str().expect("UTF-8")]);
        assert!(verified.contains(": ok"), "{verified}");
        let mut v: Value =
            serde_json::from_str(&fs::read_to_string(&path).expect("readable")).expect("JSON");
        if let Some(tags) = v.get_mut("tags").and_then(Value::as_object_mut) {
            tags.remove("White");
            tags.remove("Black");
        }
        out.push((name, v));
    }
    out
}

fn summary(stdout: &str) -> Value {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one JSON object: {stdout}");
    serde_json::from_str(lines[0]).expect("JSON")
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn the_python_example_engine_plays_full_games_through_match() {
    let dir = temp_dir("python");
    let engine = example_engine();
    let out = run_ok(&[
        "match",
        &engine,
        "random",
        "--games",
        "2",
        "--json",
        "--out",
        dir.to_str().expect("UTF-8"),
    ]);
    let s = summary(&out);
    assert_eq!(
        count(&s, "wins") + count(&s, "draws") + count(&s, "losses"),
        2
    );
    assert_eq!(s["faults"], Value::Array(vec![]), "{s}");
    assert!(s["reasons"].get("engine_failure").is_none(), "{s}");
    let recs = records(&dir);
    assert_eq!(recs.len(), 2);
    for (name, r) in &recs {
        // A full game: it ended (not cut at the ply cap) with many moves.
        assert!(r["result"].is_object(), "{name}: {}", r["result"]);
        assert!(r["entries"].as_array().map_or(0, Vec::len) > 20, "{name}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn umpire_engine_plays_the_same_games_as_the_built_in_agent() {
    // Differential: `cmd:umpire engine --agent random` against `random` gives the same
    // records (but for the players' names) and counts as `random` against `random`.
    let (d1, d2) = (temp_dir("engine"), temp_dir("builtin"));
    let engine = format!("cmd:{BIN} engine --agent random");
    let common = [
        "--games",
        "4",
        "--seed",
        "9",
        "--concurrency",
        "2",
        "--json",
    ];
    let mut a1 = vec![
        "match",
        engine.as_str(),
        "random",
        "--out",
        d1.to_str().unwrap(),
    ];
    a1.extend(common);
    let mut a2 = vec!["match", "random", "random", "--out", d2.to_str().unwrap()];
    a2.extend(common);
    let (s1, s2) = (summary(&run_ok(&a1)), summary(&run_ok(&a2)));
    let (r1, r2) = (records(&d1), records(&d2));
    assert_eq!(r1.len(), 4);
    assert_eq!(r1, r2);
    for key in [
        "wins",
        "draws",
        "losses",
        "checkmates",
        "reasons",
        "mean_plies",
    ] {
        assert_eq!(s1[key], s2[key], "{key}");
    }
    let _ = fs::remove_dir_all(&d1);
    let _ = fs::remove_dir_all(&d2);
}

#[test]
fn match_json_summary_counts_games_and_reasons() {
    let out = run_ok(&[
        "match",
        "guided-random",
        "random",
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
        "--max-plies",
        "150",
    ]);
    let s = summary(&out);
    let (w, d, l) = (count(&s, "wins"), count(&s, "draws"), count(&s, "losses"));
    assert_eq!(w + d + l, 6);
    assert_eq!(count(&s, "games"), 6);
    // The per-reason counts add up to the totals.
    let reasons = s["reasons"].as_object().expect("reasons");
    let sum = |k: &str| {
        reasons
            .values()
            .map(|r| r[k].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!((sum("wins"), sum("draws"), sum("losses")), (w, d, l));
    let mates = reasons
        .get("checkmate")
        .map_or(0, |r| r["wins"].as_u64().unwrap());
    assert_eq!(count(&s, "checkmates"), mates);
    // Material lost per game, per agent: random play over 150 plies takes men.
    let lost: Vec<f64> = s["material_lost_per_game"]
        .as_array()
        .expect("material_lost_per_game")
        .iter()
        .map(|v| v.as_f64().expect("a mean"))
        .collect();
    assert_eq!(lost.len(), 2);
    assert!(
        lost.iter().all(|&m| m >= 0.0) && lost.iter().sum::<f64>() > 0.0,
        "{lost:?}"
    );
    // Threefold repetitions with a side ahead are among the threefold draws.
    let ahead: u64 = s["threefold_ahead"]
        .as_array()
        .expect("threefold_ahead")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let threefold = reasons
        .get("threefold_repetition")
        .map_or(0, |r| r["draws"].as_u64().unwrap());
    assert!(ahead <= threefold, "{ahead} of {threefold}");
    let score = s["score"].as_f64().expect("score");
    assert!((score - (w as f64 + d as f64 / 2.0) / 6.0).abs() < 1e-12);
    for key in [
        "score_interval",
        "elo",
        "elo_interval",
        "mean_plies",
        "sprt",
        "a",
        "b",
    ] {
        assert!(s.get(key).is_some(), "{key} missing: {s}");
    }
}

#[test]
fn round_robin_prints_a_ratings_table() {
    let out = run_ok(&[
        "match",
        "--round-robin",
        "random",
        "guided-random",
        "random",
        "--games",
        "2",
        "--max-plies",
        "100",
    ]);
    assert!(out.contains("rating"), "{out}");
    let rows = out.matches("  random ").count() + out.matches("  guided-random ").count();
    assert!(rows >= 3, "{out}");
    let json = run_ok(&[
        "match",
        "--round-robin",
        "random",
        "guided-random",
        "--games",
        "2",
        "--max-plies",
        "100",
        "--json",
    ]);
    let v = summary(&json);
    assert_eq!(v["table"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["pairings"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_json_budget_is_what_the_seats_played_under() {
    let common = ["--games", "1", "--seed", "3", "--max-plies", "10", "--json"];
    let with = |agents: &[&str], extra: &[&str]| {
        let mut args = vec!["match"];
        args.extend(agents);
        args.extend(common);
        args.extend(extra);
        summary(&run_ok(&args))
    };
    // Both seats carry their own budget: the run's (100 ms by default) is nobody's.
    let own = with(&["guided-random@7", "random@9"], &[]);
    assert!(own["budget"].is_null(), "{own}");
    assert_eq!(own["budgets"], serde_json::json!(["7 nodes", "9 nodes"]));
    // One seat takes the run's budget.
    let one = with(&["guided-random@7", "random"], &["--nodes", "8"]);
    assert_eq!(one["budget"], "8 nodes", "{one}");
    assert_eq!(one["budgets"], serde_json::json!(["7 nodes", "8 nodes"]));
    let none = with(&["guided-random", "random"], &[]);
    assert_eq!(none["budget"], "100 ms", "{none}");
    // A round robin names each agent's budget, and each pairing's.
    let rr = with(&["--round-robin", "random@5", "random@6", "random@7"], &[]);
    assert!(rr["budget"].is_null(), "{rr}");
    assert_eq!(
        rr["budgets"],
        serde_json::json!(["5 nodes", "6 nodes", "7 nodes"])
    );
    assert_eq!(
        rr["pairings"][2]["budgets"],
        serde_json::json!(["6 nodes", "7 nodes"]),
        "{rr}"
    );
    let mixed = with(
        &["--round-robin", "random@5", "random"],
        &["--movetime", "20"],
    );
    assert_eq!(mixed["budget"], "20 ms", "{mixed}");
}

#[test]
fn bad_agent_names_and_options_are_clear_errors() {
    let e = run_err(&["match", "random", "rnadom"]);
    assert!(
        e.contains("unknown agent \"rnadom\"") && e.contains("guided-random"),
        "{e}"
    );
    let e = run_err(&["match", "random"]);
    assert!(e.contains("agents") || e.contains("AGENTS"), "{e}");
    let e = run_err(&["match", "random", "random", "random"]);
    assert!(e.contains("--round-robin"), "{e}");
    let e = run_err(&["match", "random", "random", "--sprt", "5"]);
    assert!(e.contains("ELO0,ELO1"), "{e}");
    let e = run_err(&[
        "play",
        "--opponent",
        "nobody",
        "--record",
        "/dev/null/x.json",
    ]);
    assert!(
        e.contains("unknown agent \"nobody\"") && e.contains("cmd:PROGRAM"),
        "{e}"
    );
    let e = run_err(&["selfplay", "--agent", "cmd:"]);
    assert!(e.contains("unknown agent"), "{e}");
    let e = run_err(&["engine", "--agent", "cmd:python3"]);
    assert!(e.contains("built-in agents only"), "{e}");
    let e = run_err(&["engine", "--agent", "mcts@40", "--nodes", "5"]);
    assert!(e.contains("carries its own budget"), "{e}");
    let e = run_err(&["engine", "--agent", "mcts@fast"]);
    assert!(e.contains("unknown agent \"mcts@fast\""), "{e}");
}

#[test]
fn umpire_engine_serves_an_agent_with_its_own_budget() {
    // `cmd:umpire engine --agent mcts@30` plays the games `mcts@30` plays built in.
    let (d1, d2) = (temp_dir("engine-budget"), temp_dir("builtin-budget"));
    let engine = format!("cmd:{BIN} engine --agent mcts@30");
    let common = ["--games", "2", "--seed", "4", "--max-plies", "40", "--json"];
    let mut a1 = vec![
        "match",
        engine.as_str(),
        "random",
        "--out",
        d1.to_str().unwrap(),
    ];
    a1.extend(common);
    let mut a2 = vec!["match", "mcts@30", "random", "--out", d2.to_str().unwrap()];
    a2.extend(common);
    let (s1, s2) = (summary(&run_ok(&a1)), summary(&run_ok(&a2)));
    assert_eq!(s1["faults"], Value::Array(vec![]), "{s1}");
    assert_eq!(s1["mean_plies"], s2["mean_plies"]);
    // The built-in agent reports its search: at most its 30 nodes per decision; random none.
    let nodes = &s2["nodes_per_decision"];
    let mcts_nodes = nodes[0].as_f64().expect("mcts reports nodes");
    assert!(mcts_nodes > 0.0 && mcts_nodes <= 30.0, "{s2}");
    assert!(nodes[1].is_null(), "{s2}");
    let decisions: u64 = (0..2).map(|i| s2["decisions"][i].as_u64().unwrap()).sum();
    assert!(
        decisions as f64 >= 2.0 * s2["mean_plies"].as_f64().unwrap(),
        "{s2}"
    );
    assert!(s2["ms_per_decision"][0].as_f64().is_some(), "{s2}");
    let (r1, r2) = (records(&d1), records(&d2));
    assert_eq!(r1.len(), 2);
    assert_eq!(r1, r2);
    let _ = fs::remove_dir_all(&d1);
    let _ = fs::remove_dir_all(&d2);
}

#[test]
fn a_broken_engine_loses_its_games_with_the_reason() {
    let out = run(&[
        "match",
        "cmd:/nonexistent/engine",
        "random",
        "--games",
        "2",
        "--json",
    ]);
    assert!(out.status.success());
    let s = summary(&String::from_utf8(out.stdout).expect("UTF-8"));
    assert_eq!(count(&s, "losses"), 2, "{s}");
    assert_eq!(s["reasons"]["engine_failure"]["losses"], 2, "{s}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot start"), "{stderr}");
}

#[test]
fn without_a_seed_the_run_key_is_secret_and_replays_the_run() {
    // Issue 31: with no --seed the run's key is drawn from the system. The engine's requests
    // never carry it (nor its opponent's seed); the summary prints it for the referee, and
    // --run-key plays the very same games again.
    let (d1, d2, d3) = (temp_dir("key-1"), temp_dir("key-2"), temp_dir("key-3"));
    fs::create_dir_all(&d3).expect("scratch");
    let log = d3.join("requests.jsonl");
    let spy = d3.join("spy.py");
    fs::write(
        &spy,
        // A seeded random choice (from the first request's seed: the games replay).
        "import json, random, sys\n\
         log = open(sys.argv[1], 'a')\n\
         rng = None\n\
         for line in sys.stdin:\n    \
             log.write(line); log.flush()\n    \
             r = json.loads(line)\n    \
             rng = rng or random.Random(r.get('seed', 0))\n    \
             c = rng.choice(r['options']) if r['request'] == 'choose' and r['options'] else ('draw decline' if r['request'] == 'draw' else 'resign')\n    \
             print(json.dumps({'command': c}), flush=True)\n",
    )
    .expect("writes the spy");
    let engine = format!("cmd:python3 {} {}", spy.display(), log.display());
    let common = ["--games", "2", "--max-plies", "20", "--json"];
    let mut a1 = vec![
        "match",
        engine.as_str(),
        "random",
        "--out",
        d1.to_str().unwrap(),
    ];
    a1.extend(common);
    let s1 = summary(&run_ok(&a1));
    assert!(s1["seed"].is_null(), "{s1}");
    let key = s1["run_key"].as_str().expect("the run key").to_owned();
    assert!(
        key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit()),
        "{key}"
    );
    let requests = fs::read_to_string(&log).expect("the spy logged its requests");
    assert!(!requests.is_empty());
    assert!(!requests.contains(&key), "a request carries the run key");
    let r1 = records(&d1);
    assert_eq!(r1.len(), 2);
    for (i, (name, record)) in r1.iter().enumerate() {
        assert!(!record.to_string().contains(&key), "{name} names the key");
        // The engine is White in game 1, Black in game 2: it read its own seat's seed only.
        let tags = &record["tags"];
        let seat = |tag: &str| {
            tags[tag]
                .as_str()
                .expect(tag)
                .parse::<u64>()
                .expect("a seed")
        };
        let (own, other) = if i == 0 {
            (seat("WhiteSeed"), seat("BlackSeed"))
        } else {
            (seat("BlackSeed"), seat("WhiteSeed"))
        };
        assert!(requests.contains(&format!("\"seed\":{own}")), "{name}");
        assert!(!requests.contains(&other.to_string()), "{name}");
    }
    // The key replays the run exactly; another run draws another key.
    let mut a2 = vec!["match", "random", "random", "--out", d2.to_str().unwrap()];
    a2.extend(common);
    a2.extend(["--run-key", key.as_str()]);
    let mut a3 = vec!["match", "random", "random", "--out", d3.to_str().unwrap()];
    a3.extend(common);
    fs::remove_dir_all(&d3).expect("cleans");
    let s3 = summary(&run_ok(&a3));
    assert_ne!(s3["run_key"], s1["run_key"]);
    let s2 = summary(&run_ok(&a2));
    assert_eq!(s2["run_key"], s1["run_key"]);
    let r2 = records(&d2);
    let seeds = |r: &[(String, Value)]| -> Vec<Value> {
        r.iter()
            .map(|(_, v)| json_pair(&v["tags"]["WhiteSeed"], &v["tags"]["BlackSeed"]))
            .collect()
    };
    assert_eq!(seeds(&r1), seeds(&r2));
    // `random` against `random` under the key replays its own run byte for byte.
    let mut a4 = vec!["match", "random", "random", "--out", d1.to_str().unwrap()];
    a4.extend(common);
    a4.extend(["--run-key", key.as_str()]);
    fs::remove_dir_all(&d1).expect("cleans");
    run_ok(&a4);
    assert_eq!(records(&d1), r2);
    let e = run_err(&[
        "match",
        "random",
        "random",
        "--seed",
        "1",
        "--run-key",
        &key,
    ]);
    assert!(e.contains("--run-key") && e.contains("--seed"), "{e}");
    let e = run_err(&["match", "random", "random", "--run-key", "12ab"]);
    assert!(e.contains("64 hexadecimal digits"), "{e}");
    for d in [&d1, &d2, &d3] {
        let _ = fs::remove_dir_all(d);
    }
}

/// Issue 31: an engine that always takes the first option used to loop for ever (an attempt
/// the umpire judged impossible stayed first among its options: the view offered pawn captures
/// and moves that the announcements had ruled out). Now every game ends, for several run keys,
/// and no game is forfeited for passing the limit of commands per turn.
#[test]
fn an_engine_taking_the_first_option_finishes_its_games() {
    let dir = temp_dir("first-option");
    fs::create_dir_all(&dir).expect("scratch");
    let spy = dir.join("first.py");
    fs::write(
        &spy,
        "import json, sys\n\
         for line in sys.stdin:\n    \
             r = json.loads(line)\n    \
             c = (r['options'][0] if r['options'] else 'any' if r['may_ask_any'] else 'resign') if r['request'] == 'choose' else ('draw decline' if r['request'] == 'draw' else 'resign')\n    \
             print(json.dumps({'command': c}), flush=True)\n",
    )
    .expect("writes the spy");
    let engine = format!("cmd:python3 {}", spy.display());
    for rules in ["wild16", "rand", "cincinnati"] {
        for _key in 0..2 {
            let s = summary(&run_ok(&[
                "match",
                engine.as_str(),
                "random",
                "--games",
                "2",
                "--max-plies",
                "150",
                "--rules",
                rules,
                "--json",
            ]));
            assert_eq!(count(&s, "games"), 2, "{rules}: {s}");
            assert_eq!(s["faults"], Value::Array(Vec::new()), "{rules}: {s}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

fn json_pair(a: &Value, b: &Value) -> Value {
    Value::Array(vec![a.clone(), b.clone()])
}

#[test]
fn the_cheating_yardstick_needs_the_flag_and_decision_times_are_reported() {
    let e = run_err(&["match", "peek", "random"]);
    assert!(e.contains("--allow-cheating-agents"), "{e}");
    let e = run_err(&["play", "--opponent", "peek", "--record", "/dev/null/x.json"]);
    assert!(e.contains("unknown agent \"peek\""), "{e}");
    let e = run_err(&["engine", "--agent", "peek"]);
    assert!(e.contains("unknown agent \"peek\""), "{e}");
    let json = run_ok(&[
        "match",
        "peek",
        "random",
        "--allow-cheating-agents",
        "--games",
        "2",
        "--seed",
        "1",
        "--max-plies",
        "80",
        "--json",
    ]);
    let v = summary(&json);
    assert_eq!(v["games"].as_u64(), Some(2), "{v}");
    assert_eq!(v["losses"].as_u64(), Some(0), "{v}");
    for seat in 0..2 {
        let q = |k: &str| v["decision_ms"][k][seat].as_f64().expect("a time");
        assert!(q("p50") <= q("p99") && q("p99") <= q("max"), "{v}");
    }
}
