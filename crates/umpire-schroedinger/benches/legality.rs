//! Legality-check times per move over long random games: the SAT umpire on each solver
//! backend compiled in, and the brute-force enumeration, measured in the same run. It also
//! writes the games' constraint facts for `bench/schroedinger/python_constraint_bench.py`.
//!
//! ```sh
//! cargo bench -p umpire-schroedinger --features cadical,varisat --bench legality -- \
//!     --games 10 --min-plies 100 --max-plies 200 --seed 1 --facts /tmp/facts.json --summary /tmp/rust.json
//! ```

use std::time::Instant;

use serde_json::json;
use umpire_schroedinger::backend::Backend;
use umpire_schroedinger::batsat_backend::Batsat;
use umpire_schroedinger::brute::BruteForce;
use umpire_schroedinger::geometry::{natures_reaching, pawn_attacks, reach};
use umpire_schroedinger::shakmaty::{Bitboard, Color};
use umpire_schroedinger::{Board, Kind, ManId, Move, Nature, NatureSet, RandomPlayer, Umpire};

struct Args {
    games: usize,
    min_plies: usize,
    max_plies: usize,
    seed: u64,
    facts: Option<String>,
    summary: Option<String>,
    brute: bool,
}

fn args() -> Args {
    let mut a = Args {
        games: 10,
        min_plies: 100,
        max_plies: 200,
        seed: 1,
        facts: None,
        summary: None,
        brute: true,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let value = argv.get(i + 1).cloned().unwrap_or_default();
        let number = || {
            value
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{}: a number", argv[i]))
        };
        match argv[i].as_str() {
            "--games" => a.games = number() as usize,
            "--min-plies" => a.min_plies = number() as usize,
            "--max-plies" => a.max_plies = number() as usize,
            "--seed" => a.seed = number(),
            "--facts" => a.facts = Some(value),
            "--summary" => a.summary = Some(value),
            "--no-brute" => {
                a.brute = false;
                i += 1;
                continue;
            }
            "--bench" => {
                i += 1;
                continue;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    a
}

/// Random games (played by the default umpire) of at least `min` plies.
fn games(args: &Args) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let mut seed = args.seed;
    while out.len() < args.games {
        let mut umpire = Umpire::new();
        let mut player = RandomPlayer::new(seed);
        let mut moves = Vec::new();
        while moves.len() < args.max_plies {
            let Some(mv) = player.choose(&mut umpire) else {
                break;
            };
            umpire.play(mv);
            moves.push(mv);
        }
        if moves.len() >= args.min_plies {
            out.push(moves);
        }
        seed += 1;
    }
    out
}

#[derive(Default)]
struct Times {
    judge_played: Vec<f64>,
    judge_candidates: Vec<f64>,
    update: Vec<f64>,
}

fn micros(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e6
}

fn candidates(board: &Board, out: &mut Vec<Move>) {
    out.clear();
    let turn = board.turn();
    for (man, from) in board.men(turn) {
        let targets = match board.kind(man) {
            Kind::Pawn => {
                pawn_attacks(turn, from) | Bitboard::from_square(from).shift(turn.fold_wb(8, -8))
            }
            _ => Nature::ALL.iter().fold(Bitboard::EMPTY, |b, &n| {
                b | reach(n, from, board.occupied())
            }),
        };
        for to in targets & !board.occupied_by(turn) {
            out.push(Move { from, to });
        }
    }
}

fn measure_sat<B: Backend>(games: &[Vec<Move>], shortcut: bool) -> (String, Times) {
    let mut times = Times::default();
    let mut name = String::new();
    let mut list = Vec::new();
    for game in games {
        let mut umpire = Umpire::<B>::with_backend();
        umpire.set_shortcut(shortcut);
        name = format!(
            "SAT, {}{}",
            umpire.backend_name(),
            if shortcut { "" } else { ", every check solved" }
        );
        for &mv in game {
            candidates(umpire.board(), &mut list);
            for &c in &list {
                let start = Instant::now();
                let _ = std::hint::black_box(umpire.judge(c));
                times.judge_candidates.push(micros(start));
            }
            let start = Instant::now();
            let judged = umpire.judge(mv);
            times.judge_played.push(micros(start));
            assert!(judged.is_legal(), "{name}: {mv} should be legal");
            let start = Instant::now();
            umpire.play(mv);
            times.update.push(micros(start));
        }
    }
    (name, times)
}

fn measure_brute(games: &[Vec<Move>]) -> Times {
    let mut times = Times::default();
    for game in games {
        let mut brute = BruteForce::new();
        for &mv in game {
            let start = Instant::now();
            let legal = brute.is_legal(mv);
            times.judge_played.push(micros(start));
            assert!(legal, "brute force: {mv} should be legal");
            let start = Instant::now();
            brute.play(mv);
            times.update.push(micros(start));
        }
    }
    times
}

fn stats(v: &mut [f64]) -> serde_json::Value {
    if v.is_empty() {
        return serde_json::Value::Null;
    }
    v.sort_by(f64::total_cmp);
    let pick = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    json!({
        "count": v.len(),
        "median_us": pick(0.5),
        "p99_us": pick(0.99),
        "max_us": v[v.len() - 1],
        "mean_us": v.iter().sum::<f64>() / v.len() as f64,
    })
}

fn id(man: ManId) -> usize {
    man.color().fold_wb(0, 16) + man.index()
}

/// The facts a move adds in the seed's model, from the known board only: which natures the
/// mover may have, which man it captures, which man promotes, and for each man of the mover
/// that might be its king, which enemy man under which nature (or an enemy pawn) attacks it.
fn facts(game: &[Move]) -> serde_json::Value {
    let mut board = Board::new();
    let mut plies = Vec::new();
    for &mv in game {
        let turn = board.turn();
        let man = board.man_at(mv.from).expect("a played move has a mover");
        let allowed = match board.kind(man) {
            Kind::Pawn => None,
            Kind::BackRank => Some(natures_reaching(
                NatureSet::ALL,
                mv.from,
                mv.to,
                board.occupied(),
            )),
            Kind::Promoted => Some(natures_reaching(
                NatureSet::PROMOTED,
                mv.from,
                mv.to,
                board.occupied(),
            )),
        };
        let captured = board.man_at(mv.to);
        let mut after = board.clone();
        let played = after.play(mv).expect("a played move plays");
        let mut pairs = Vec::new();
        let mut pawn_attacked = Vec::new();
        for (king, king_sq) in after.men(turn).filter(|(m, _)| m.is_back_rank()) {
            for (enemy, sq) in after.men(!turn) {
                match after.kind(enemy) {
                    Kind::Pawn => {
                        if pawn_attacks(!turn, sq).contains(king_sq) {
                            pawn_attacked.push(id(king));
                        }
                    }
                    kind => {
                        let natures = if kind == Kind::BackRank {
                            NatureSet::ALL
                        } else {
                            NatureSet::PROMOTED
                        };
                        for n in natures.iter() {
                            if reach(n, sq, after.occupied()).contains(king_sq) {
                                pairs.push(json!([id(king), id(enemy), n.letter().to_string()]));
                            }
                        }
                    }
                }
            }
        }
        plies.push(json!({
            "move": mv.to_string(),
            "mover": id(man),
            "allowed": allowed.map(|a| a.to_string()),
            "captured": captured.map(id),
            "promoted": played.promotion.then(|| id(man)),
            "pairs": pairs,
            "pawn_attacked": pawn_attacked,
        }));
        board = after;
    }
    let _ = Color::White;
    serde_json::Value::Array(plies)
}

fn main() {
    let args = args();
    let started = Instant::now();
    let games = games(&args);
    let plies: Vec<usize> = games.iter().map(Vec::len).collect();
    eprintln!(
        "{} games, plies {:?}, generated in {:.1} s",
        games.len(),
        plies,
        started.elapsed().as_secs_f64()
    );
    let mut rows = Vec::new();
    let mut runs: Vec<(String, Times)> = Vec::new();
    for shortcut in [true, false] {
        runs.push(measure_sat::<Batsat>(&games, shortcut));
        #[cfg(feature = "cadical")]
        runs.push(measure_sat::<umpire_schroedinger::cadical_backend::Cadical>(&games, shortcut));
        #[cfg(feature = "varisat")]
        runs.push(measure_sat::<umpire_schroedinger::varisat_backend::Varisat>(&games, shortcut));
    }
    if args.brute {
        runs.push((
            "brute force (5,040 arrangements per side)".to_owned(),
            measure_brute(&games),
        ));
    }
    for (name, mut t) in runs {
        let row = json!({
            "umpire": name,
            "judge_played": stats(&mut t.judge_played),
            "judge_candidates": stats(&mut t.judge_candidates),
            "play_update": stats(&mut t.update),
        });
        println!("{row}");
        rows.push(row);
    }
    if let Some(path) = &args.facts {
        let all: Vec<serde_json::Value> = games.iter().map(|g| facts(g)).collect();
        std::fs::write(path, serde_json::to_string(&all).expect("JSON")).expect("write facts");
    }
    if let Some(path) = &args.summary {
        let summary = json!({"games": games.len(), "plies": plies, "rows": rows});
        std::fs::write(path, serde_json::to_string_pretty(&summary).expect("JSON"))
            .expect("write summary");
    }
}
