//! Issue 31, item 4: a seat's seed gives away nothing of its opponent's. An agent is
//! deterministic given its seed and its view, so an engine that could compute its opponent's
//! seed from its own could replay the opponent and read its hidden moves. The seats' seeds come
//! from a keyed one-way function of a secret run key (`RunKey`); they are written in the
//! referee's record, so every game replays exactly, and in no player's view or request.

use std::fs;
use std::path::PathBuf;

use umpire_ai::tournament::{GameReport, MatchConfig, RunKey, play_game, run_match};
use umpire_ai::{Agent, AgentConfig, AgentKind, AgentSpec, Budget, RandomAgent, play_match};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, RuleSet, RuleSetId};
use umpire_view::PlayerView;

/// Games the attack is tried on.
const GAMES: u64 = 300;

fn config(games: u64, key: RunKey, max_plies: u32) -> MatchConfig {
    MatchConfig {
        rules: RuleSetId::Wild16,
        games,
        agent: AgentConfig {
            budget: Budget::Nodes(50),
            ..AgentConfig::default()
        },
        concurrency: 1,
        key,
        max_plies,
        sprt: None,
        engine_timeout: None,
    }
}

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
const M1: u64 = 0xBF58_476D_1CE4_E5B9;
const M2: u64 = 0x94D0_49BB_1331_11EB;

/// The old derivation (the runner's and `selfplay`'s `game_seed` before issue 31): one
/// SplitMix64 step of `seed` and `index`. Game `i` had `old(base, i)`, its seats
/// `old(that, 0)` and `old(that, 1)`.
fn old(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(M1);
    z = (z ^ (z >> 27)).wrapping_mul(M2);
    z ^ (z >> 31)
}

/// `x` from `x ^ (x >> k)`.
fn unshift(y: u64, k: u32) -> u64 {
    let mut x = y;
    for _ in 0..64 / k + 1 {
        x = y ^ (x >> k);
    }
    x
}

/// The inverse of an odd number modulo 2⁶⁴ (Newton's iteration).
fn inverse(m: u64) -> u64 {
    let mut inv = m;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    inv
}

/// The attack on the old derivation: the `seed` that `old(seed, index)` came from.
fn invert_old(out: u64, index: u64) -> u64 {
    let mut z = unshift(out, 31).wrapping_mul(inverse(M2));
    z = unshift(z, 27).wrapping_mul(inverse(M1));
    unshift(z, 30) ^ index.wrapping_add(1).wrapping_mul(GAMMA)
}

/// What Black, holding its own seed, guesses White's seed to be: the game's seed recovered by
/// inverting the SplitMix64 step, then White's seed from it.
fn guess_white_seed(black_seed: u64) -> u64 {
    old(invert_old(black_seed, 1), 0)
}

/// White's first command as `random` seeded `seed` would give it: the opponent replayed.
fn replayed_first_command(rules: RuleSet, seed: u64) -> Command {
    RandomAgent::new(PlayerView::standard(rules, Color::White), seed).choose()
}

/// White's first command in a record.
fn first_command(record: &Record) -> Command {
    record.entries[0].command
}

/// How many of `games` Black's attack predicts White's first command in: `play(i)` plays game
/// `i` and gives its record and Black's seed, as Black's engine reads it.
fn hits(games: u64, mut play: impl FnMut(u64) -> (Record, u64)) -> u64 {
    let rules = RuleSet::WILD16;
    (0..games)
        .filter(|&i| {
            let (record, black_seed) = play(i);
            first_command(&record) == replayed_first_command(rules, guess_white_seed(black_seed))
        })
        .count() as u64
}

/// Game `index` of a `random` against `random` run under the old derivation from `base`.
fn old_game(base: u64, index: u64) -> (Record, u64) {
    let rules = RuleSet::WILD16;
    let game_seed = old(base, index);
    let seats = [old(game_seed, 0), old(game_seed, 1)];
    let mut white = RandomAgent::new(PlayerView::standard(rules, Color::White), seats[0]);
    let mut black = RandomAgent::new(PlayerView::standard(rules, Color::Black), seats[1]);
    let mut game = Game::new(rules);
    play_match(&mut game, [&mut white, &mut black], 1, &mut ()).expect("plays");
    (game.into_record(), seats[1])
}

#[test]
fn the_inversion_recovers_the_old_game_seed() {
    for (seed, index) in [(0, 0), (1, 1), (20, 1), (u64::MAX, 7), (0x1234_5678, 0)] {
        assert_eq!(invert_old(old(seed, index), index), seed);
    }
}

#[test]
fn black_cannot_replay_white_from_its_own_seed() {
    // Against the old derivation the attack predicts White's first command every time.
    let old_hits = hits(GAMES, |i| old_game(20, i));
    assert_eq!(old_hits, GAMES, "the attack works on the old derivation");
    // Against the runner's seeds it does no better than chance: `random`'s first command is
    // uniform over the 34 attempts on White's own board, so about GAMES / 34 ≈ 9 hits.
    let random = AgentSpec::Builtin(AgentKind::Random);
    for key in [RunKey::from_seed(20), RunKey::from_bytes([0x5a; 32])] {
        let cfg = config(GAMES, key, 1);
        let new_hits = hits(GAMES, |i| {
            let report = play_game(&random, &random, &cfg, i).expect("plays");
            (report.record, report.seeds[1])
        });
        assert!(
            new_hits <= GAMES / 10,
            "{new_hits} hits of {GAMES} under {key:?}"
        );
    }
}

#[test]
fn simple_relations_between_the_seats_predict_nothing() {
    // Other guesses an engine might try from its own seed: the same seed, its neighbours,
    // its other bit. None predicts the opponent's first command better than chance.
    let rules = RuleSet::WILD16;
    let random = AgentSpec::Builtin(AgentKind::Random);
    let cfg = config(GAMES, RunKey::from_seed(3), 1);
    let reports: Vec<GameReport> = (0..GAMES)
        .map(|i| play_game(&random, &random, &cfg, i).expect("plays"))
        .collect();
    let guesses: [fn(u64) -> u64; 5] = [
        |s| s,
        |s| s ^ 1,
        |s| s.wrapping_add(1),
        |s| s.wrapping_sub(1),
        guess_white_seed,
    ];
    for (g, guess) in guesses.iter().enumerate() {
        let hits = reports
            .iter()
            .filter(|r| {
                first_command(&r.record) == replayed_first_command(rules, guess(r.seeds[1]))
            })
            .count() as u64;
        assert!(hits <= GAMES / 10, "guess {g}: {hits} hits of {GAMES}");
    }
}

/// The seeds a record names for the referee.
fn recorded_seeds(record: &Record) -> [u64; 2] {
    ["WhiteSeed", "BlackSeed"].map(|tag| {
        record
            .tags
            .get(tag)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{tag} in {:?}", record.tags))
    })
}

#[test]
fn every_game_replays_exactly_from_its_record() {
    // Searching agents with node budgets are deterministic: the seeds in the record and the
    // agents' names rebuild the very same game, entry for entry.
    let a = AgentSpec::Builtin(AgentKind::Mcts);
    let b = AgentSpec::Builtin(AgentKind::GuidedRandom);
    let cfg = config(4, RunKey::from_bytes([7; 32]), 40);
    let mut reports = Vec::new();
    run_match(&a, &b, &cfg, |r| reports.push(r.clone())).expect("plays");
    assert_eq!(reports.len(), 4);
    for report in &reports {
        let record = Record::from_json(&report.record.to_json_pretty()).expect("reads back");
        let seeds = recorded_seeds(&record);
        assert_eq!(seeds, report.seeds);
        assert_eq!(seeds, cfg.key.seats(report.index));
        let rules = *record.rules.rules();
        let mut game = Game::new(rules);
        *game.tags_mut() = record.tags.clone();
        let [mut white, mut black] = [Color::White, Color::Black].map(|side| {
            let name = record
                .tags
                .get(if side.is_white() { "White" } else { "Black" });
            let spec: AgentSpec = name.expect("a name").parse().expect("an agent");
            spec.build(
                PlayerView::standard(rules, side),
                seeds[usize::from(side.is_black())],
                &cfg.agent,
            )
        });
        play_match(&mut game, [&mut *white, &mut *black], 40, &mut ()).expect("plays");
        assert_eq!(game.into_record().to_json_pretty(), record.to_json_pretty());
        // The players' views name no seed.
        for color in [Color::White, Color::Black] {
            let view = record.player_view(color).expect("a view");
            for text in [view.to_json(), view.to_pgn()] {
                assert!(!text.contains("Seed"), "{text}");
                for seed in seeds {
                    assert!(!text.contains(&seed.to_string()), "{text}");
                }
            }
        }
    }
}

#[test]
fn an_engine_reads_its_own_seed_and_nothing_of_the_key() {
    // A program that logs every request and answers its first option.
    let log: PathBuf =
        std::env::temp_dir().join(format!("umpire-seed-secrecy-{}.jsonl", std::process::id()));
    let _ = fs::remove_file(&log);
    let script = "import json, sys\n\
        log = open(sys.argv[1], 'a')\n\
        for line in sys.stdin:\n \
        log.write(line); log.flush()\n \
        r = json.loads(line)\n \
        c = r['options'][0] if r['request'] == 'choose' and r['options'] else ('draw decline' if r['request'] == 'draw' else 'resign')\n \
        print(json.dumps({'command': c}), flush=True)\n";
    let engine = AgentSpec::Command(vec![
        "python3".into(),
        "-c".into(),
        script.into(),
        log.to_str().expect("UTF-8").into(),
    ]);
    let random = AgentSpec::Builtin(AgentKind::Random);
    let key = RunKey::from_bytes([0xc3; 32]);
    let cfg = config(2, key, 6);
    let mut reports = Vec::new();
    run_match(&engine, &random, &cfg, |r| reports.push(r.clone())).expect("plays");
    let text = fs::read_to_string(&log).expect("the engine logged its requests");
    let _ = fs::remove_file(&log);
    let requests: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert!(requests.len() >= 4, "{text}");
    // Game 0: the engine is White; game 1: Black. Each request carries that seat's seed.
    let mut seen = [0usize; 2];
    for request in &requests {
        let side = usize::from(request["side"] == "black");
        assert_eq!(request["seed"].as_u64(), Some(reports[side].seeds[side]));
        seen[side] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    // Never the key, never the opponent's seed.
    assert!(!text.contains(&key.to_hex()));
    for (side, report) in reports.iter().enumerate() {
        let opponent = report.seeds[1 - side];
        assert!(!text.contains(&opponent.to_string()), "{opponent}");
    }
}

#[test]
fn a_chosen_seed_is_public_but_a_drawn_key_is_not() {
    // The documented trade-off (docs/ENGINE.md, "Seeds"): `--seed N` derives the key publicly,
    // so an engine that tries small seeds finds the one behind its own seat's seed, and with
    // it its opponent's. That is why the key is drawn from the system unless a seed is given.
    let chosen = RunKey::from_seed(20);
    let black = chosen.seat_seed(5, Color::Black);
    let found = (0..1000).find(|&s| RunKey::from_seed(s).seat_seed(5, Color::Black) == black);
    assert_eq!(found, Some(20));
    // A key that is no seed's (as the system draws them) is found by no small seed.
    let drawn = RunKey::from_bytes([0x3c; 32]);
    let black = drawn.seat_seed(5, Color::Black);
    assert!((0..1000).all(|s| RunKey::from_seed(s).seat_seed(5, Color::Black) != black));
}
