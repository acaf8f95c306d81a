//! Belief at the speed of a click (issue 30): the cost of following one side's belief through a
//! recorded game to given plies, and the quality of its marginals there against a reference run.
//!
//! ```text
//! cargo run --profile ci -p umpire-belief --example belief_click -- RECORD.json \
//!     [--side white|black] [--plies 10,20,40] [--bound B] [--particles P1,P2,…] \
//!     [--reference PARTICLES] [--reference-file FILE] [--reference-lookahead] [--seed S] [--threads T] \
//!     [--repair-budget W] [--trace] [--whole] [--grandparents] [--uniform]
//! ```
//!
//! For each configuration (the reference first, then each of `--particles`; `0` means "the
//! bound", today's behaviour): the CPU seconds of the process and the wall seconds from the
//! start to each ply, the positions held and the distinct enemy placements among them, the
//! repairs so far, and the total variation per square of the marginals against the reference's
//! at the same ply (mean over the 64 squares, and the largest). Also, over every ply up to the last asked, the
//! slowest ply's and the 99th percentile's wall and CPU milliseconds. With one thread (the
//! default) the per-ply CPU is the calling thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`): the
//! load-independent figure; with more threads, the process's (10 ms ticks).
//! `--repair-budget W`: the repair budget in work units (default the belief crate's; agents
//! under the default 100 ms budget use 15,000). `--trace`: one line per ply (its CPU, the
//! positions held, repairs so far, whether the belief is dead, the last repair's work).
//! `--lookahead`: each asked ply (outside the reference) is computed by a run of its own that
//! knows the observations up to that ply ([`PlyStream::read_at_ply`], what `umpire belief
//! --ply N` does); the CPU and wall seconds are then those of that run.
//! `--reference-lookahead`: the reference too reads each asked ply by a run of its own with
//! the lookahead (a reference without it can collapse where the runs it judges do not: at ply
//! 40 of game 3 of the session-16 benchmarks it held 6,641 positions of 17 six-move histories).
//! `--grandparents`: the runs other than the reference count each sampled turn's parents
//! beyond the held ones ([`PlyStream::count_grandparents`]).
//! `--uniform`: the runs read at a ply keep each sampled turn's particles by a uniform choice,
//! not the systematic one along the genealogy ([`PlyStream::choose_uniformly`]).
//! `--digest`: the trace lines and the asked plies' lines end with a digest of the positions
//! held, in order, with their hidden histories (and, at the asked plies, of the marginals):
//! equal digests mean the same belief, for checking that a change of the code keeps every
//! run byte-identical.
//! `--whole`: instead, both sides' beliefs through the whole game at every ply
//! ([`umpire_belief::review::whole_game`]), printing the seconds to the first ply and to the
//! last, per particles setting.
//!
//! `--reference-file FILE`: the reference's marginals are read from FILE when it exists (and
//! written there after a `--reference` run otherwise); its first line names the plies they
//! stand for, and an asked ply the file does not hold is refused (a file without that line,
//! written before it was added, is taken only with the `--plies` list it was made with).
//!
//! CPU seconds come from `/proc/self/stat` (10 ms ticks; NaN elsewhere) and count every thread.

use std::collections::HashSet;
use std::time::Instant;

use umpire_belief::review::{PlyStream, whole_game};
use umpire_belief::{Belief, BeliefConfig, Marginals};
use umpire_rules::record::Record;
use umpire_rules::shakmaty::{Color, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("RECORD.json");
    let mut side = Color::White;
    let mut plies = vec![10u32, 20, 40];
    let mut bound = umpire_belief::DEFAULT_BOUND;
    let mut particles = vec![0usize, umpire_belief::FAST_PARTICLES];
    let mut reference = 0usize;
    let mut reference_file: Option<String> = None;
    let mut reference_lookahead = false;
    let mut seed = 1u64;
    let mut threads = 1usize;
    let mut whole = false;
    let mut trace = false;
    let mut lookahead = false;
    let mut grandparents = false;
    let mut uniform = false;
    let mut digest = false;
    let mut pool = 1usize;
    let mut repair_budget = umpire_belief::REPAIR_BUDGET;
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match a.as_str() {
            "--side" => {
                side = if value() == "black" {
                    Color::Black
                } else {
                    Color::White
                }
            }
            "--plies" => {
                plies = value()
                    .split(',')
                    .map(|p| p.parse().expect("plies"))
                    .collect()
            }
            "--bound" => bound = value().parse().expect("--bound N"),
            "--particles" => {
                particles = value()
                    .split(',')
                    .map(|p| p.parse().expect("particles"))
                    .collect()
            }
            "--reference" => reference = value().parse().expect("--reference N"),
            "--reference-file" => reference_file = Some(value()),
            "--seed" => seed = value().parse().expect("--seed S"),
            "--threads" => threads = value().parse().expect("--threads T"),
            "--whole" => whole = true,
            "--trace" => trace = true,
            "--lookahead" => lookahead = true,
            "--reference-lookahead" => reference_lookahead = true,
            "--grandparents" => grandparents = true,
            "--uniform" => uniform = true,
            "--digest" => digest = true,
            "--runs" => pool = value().parse().expect("--runs K"),
            "--repair-budget" => repair_budget = value().parse().expect("--repair-budget W"),
            other => panic!("unknown argument {other}"),
        }
    }
    let text = std::fs::read_to_string(&path).expect("the record");
    let record = Record::from_json(&text).expect("a JSON record");
    let config = |p: usize| BeliefConfig {
        bound,
        particles: (p > 0).then_some(p),
        seed,
        threads,
        repair_budget,
        ..BeliefConfig::default()
    };
    // Per-ply CPU: the thread's own clock where the belief runs on it alone.
    let ply_cpu = if threads <= 1 {
        thread_cpu_seconds
    } else {
        cpu_seconds
    };
    if whole {
        println!(
            "{path}: {} plies, both sides, bound {bound}, threads {threads} per side",
            record.plies()
        );
        for &p in &particles {
            let (wall, cpu) = (Instant::now(), cpu_seconds());
            let mut first = None;
            let mut count = 0;
            whole_game(&record, config(p), Marginals::of, |_, _, _| {
                first.get_or_insert(wall.elapsed().as_secs_f64());
                count += 1;
                true
            })
            .expect("the record replays");
            println!(
                "particles {}: {count} plies of both sides, first after {:.3} s, all after {:.2} s wall, {:.2} s CPU",
                label(p, bound),
                first.unwrap_or(0.0),
                wall.elapsed().as_secs_f64(),
                cpu_seconds() - cpu
            );
        }
        return;
    }
    let last = plies.iter().copied().max().unwrap_or(0);
    println!(
        "{path}: {side:?}'s belief, bound {bound}, threads {threads}, seed {seed}, plies {plies:?}"
    );
    let mut sorted = plies.clone();
    sorted.sort_unstable();
    // A reference file names the plies its marginals stand for (older files do not: they hold
    // one line per ply of the `--plies` list they were made with, in order, so the list must
    // be that one); each asked ply is compared with the reference's line of that ply.
    let (reference_plies, mut reference_marginals) = match reference_file
        .as_deref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .map(|text| read_marginals(&text, !side))
    {
        Some((Some(at), m)) => (at, m),
        Some((None, m)) if m.len() == sorted.len() => (sorted.clone(), m),
        Some((None, m)) => {
            eprintln!(
                "{reference_file:?} holds {} plies and does not name them; give the --plies \
                 list it was made with ({} asked here)",
                m.len(),
                sorted.len()
            );
            std::process::exit(2);
        }
        None => (sorted.clone(), Vec::new()),
    };
    if !reference_marginals.is_empty() {
        if let Some(missing) = sorted.iter().find(|p| !reference_plies.contains(p)) {
            eprintln!(
                "{reference_file:?} has no marginals at ply {missing} (it holds plies \
                 {reference_plies:?})"
            );
            std::process::exit(2);
        }
        println!("reference marginals read from {reference_file:?}, plies {reference_plies:?}");
        reference = 0;
    }
    // The reference's line of each ply.
    let line_of = |at: u32| reference_plies.iter().position(|&q| q == at);
    let runs: Vec<(bool, usize)> = (reference > 0)
        .then_some((true, reference))
        .into_iter()
        .chain(particles.iter().map(|&p| (false, p)))
        .collect();
    let targets: Vec<Option<u32>> = if lookahead {
        sorted.iter().map(|&p| Some(p)).collect()
    } else {
        vec![None]
    };
    let runs: Vec<(bool, usize, Option<u32>)> = runs
        .into_iter()
        .flat_map(|(r, p)| {
            if r && !reference_lookahead {
                vec![(r, p, None)]
            } else if r {
                sorted.iter().map(|&t| (r, p, Some(t))).collect()
            } else {
                targets.iter().map(|&t| (r, p, t)).collect()
            }
        })
        .collect();
    if pool > 1 {
        // Independent runs of each asked ply, on a thread each, seeds `seed`, `seed + 1`, …,
        // their marginals pooled (what `umpire belief --runs K` does).
        for &p in &particles {
            for &t in &sorted {
                let (wall, cpu) = (Instant::now(), cpu_seconds());
                let parts: Vec<(Marginals, HashSet<Placement>, bool)> = std::thread::scope(|s| {
                    let handles: Vec<_> = (0..pool as u64)
                        .map(|i| {
                            let record = &record;
                            let config = BeliefConfig {
                                seed: seed + i,
                                ..config(p)
                            };
                            s.spawn(move || {
                                let mut stream = PlyStream::of_record(record, side, config)
                                    .expect("the record")
                                    .count_grandparents(grandparents)
                                    .choose_uniformly(uniform);
                                if lookahead {
                                    stream = stream.read_at_ply(t);
                                }
                                while let Some(step) = stream.next_ply() {
                                    if step.expect("the observations fit").plies() >= t {
                                        break;
                                    }
                                }
                                let b = stream.belief();
                                (Marginals::of(b), placement_set(b), b.is_dead())
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("a run"))
                        .collect()
                });
                let held: Vec<usize> = parts.iter().map(|(m, _, _)| m.positions).collect();
                let distinct = parts
                    .iter()
                    .flat_map(|(_, set, _)| set.iter())
                    .collect::<HashSet<_>>()
                    .len();
                let marginals: Vec<Marginals> = parts.into_iter().map(|(m, _, _)| m).collect();
                let pooled = Marginals::pooled(&marginals).expect("runs of one side");
                let (tv_mean, tv_max) = line_of(t)
                    .and_then(|k| reference_marginals.get(k))
                    .map_or((f64::NAN, f64::NAN), |r| pooled.total_variation(r));
                println!(
                    "pooled {pool} x {:>7} ply {t:>3}: {:6.2} s CPU {:6.2} s wall, held {held:?} ({} pooled), {distinct} distinct placements, TV/square mean {tv_mean:.4} max {tv_max:.4}",
                    label(p, bound),
                    cpu_seconds() - cpu,
                    wall.elapsed().as_secs_f64(),
                    pooled.positions,
                );
            }
        }
        return;
    }
    for (is_reference, p, target) in runs {
        let mut stream = PlyStream::of_record(&record, side, config(p))
            .expect("the record")
            .count_grandparents(grandparents && !is_reference)
            .choose_uniformly(uniform);
        if let Some(t) = target {
            stream = stream.read_at_ply(t);
        }
        let last = target.unwrap_or(last);
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let (mut per_ply, mut per_ply_cpu) = (Vec::new(), Vec::new());
        while let Some(step) = {
            let (t, c) = (Instant::now(), ply_cpu());
            let step = stream.next_ply().map(|s| s.map(|b| b.plies()));
            per_ply.push(t.elapsed().as_secs_f64() * 1e3);
            per_ply_cpu.push((ply_cpu() - c) * 1e3);
            step
        } {
            let at = step.expect("the observations fit");
            if trace {
                let b = stream.belief();
                println!(
                    "  trace ply {at:>3}: {:7.1} ms CPU, {} held, {}, {} repairs, dead {}, {} refreshes, last repair {} units",
                    per_ply_cpu.last().copied().unwrap_or(0.0),
                    b.held(),
                    if b.is_exact() { "exact" } else { "sampled" },
                    b.repairs(),
                    b.is_dead(),
                    b.refreshes(),
                    b.last_repair_work()
                );
                if digest {
                    println!("  digest ply {at:>3}: {:016x}", held_digest(b));
                }
            }
            if plies.contains(&at) && target.is_none_or(|t| t == at) {
                let belief = stream.belief();
                let marginals = Marginals::of(belief);
                let marginals_digest = fnv(0xcbf2_9ce4_8422_2325, marginals.to_json().as_bytes());
                let (tv_mean, tv_max) = if is_reference {
                    reference_marginals.push(marginals);
                    (f64::NAN, f64::NAN)
                } else {
                    line_of(at)
                        .and_then(|k| reference_marginals.get(k))
                        .map_or((f64::NAN, f64::NAN), |r| marginals.total_variation(r))
                };
                println!(
                    "{} {:>9} ply {at:>3}: {:6.2} s CPU {:6.2} s wall, {} held ({}), {} distinct placements, ancestors by opponent moves {{{}}}, {} repairs, dead {}, {} refreshes, TV/square mean {:.4} max {:.4}",
                    if is_reference {
                        "reference"
                    } else {
                        "particles"
                    },
                    label(p, bound),
                    cpu_seconds() - cpu,
                    wall.elapsed().as_secs_f64(),
                    belief.held(),
                    if belief.is_exact() {
                        "exact"
                    } else {
                        "sampled"
                    },
                    placements(belief),
                    ancestors(belief),
                    belief.repairs(),
                    belief.is_dead(),
                    belief.refreshes(),
                    tv_mean,
                    tv_max
                );
                if digest {
                    println!(
                        "  digest ply {at:>3}: held {:016x}, marginals {:016x}",
                        held_digest(belief),
                        marginals_digest
                    );
                }
            }
            if at >= last {
                break;
            }
        }
        if is_reference
            && target.is_none_or(|t| Some(&t) == sorted.last())
            && let Some(f) = &reference_file
        {
            std::fs::write(f, write_marginals(&sorted, &reference_marginals))
                .expect("the reference file");
        }
        let slowest_ply = (0..per_ply.len())
            .max_by(|&a, &b| per_ply[a].total_cmp(&per_ply[b]))
            .map_or(0, |i| i + 1);
        let slowest_cpu_ply = (0..per_ply_cpu.len())
            .max_by(|&a, &b| per_ply_cpu[a].total_cmp(&per_ply_cpu[b]))
            .map_or(0, |i| i + 1);
        let p99 = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (
                v[((v.len() as f64 * 0.99).ceil() as usize).saturating_sub(1)],
                v.last().copied().unwrap_or(0.0),
            )
        };
        let (wall_p99, wall_max) = p99(&mut per_ply);
        let (cpu_p99, cpu_max) = p99(&mut per_ply_cpu);
        println!(
            "          {:>9} per ply to ply {last}: wall p99 {wall_p99:.1} ms, slowest {wall_max:.1} ms (ply {slowest_ply}); CPU p99 {cpu_p99:.1} ms, slowest {cpu_max:.1} ms (ply {slowest_cpu_ply})",
            label(p, bound),
        );
    }
}

/// FNV-1a of `bytes`, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A digest of the positions held, in order (their FEN), each with its hidden history.
fn held_digest(belief: &Belief) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325;
    for (i, pos) in belief.positions().enumerate() {
        let fen = umpire_rules::shakmaty::fen::Fen::from_position(
            pos,
            umpire_rules::shakmaty::EnPassantMode::Legal,
        );
        h = fnv(h, fen.to_string().as_bytes());
        for a in belief.opponent_moves(i).unwrap_or_default() {
            h = fnv(h, a.to_string().as_bytes());
        }
        h = fnv(h, b";");
    }
    h
}

/// The particles setting as printed.
fn label(p: usize, bound: usize) -> String {
    if p == 0 {
        format!("={bound}")
    } else {
        p.to_string()
    }
}

/// The enemy men's placement: their squares, then those of each type.
type Placement = (u64, u64, u64, u64, u64, u64);

/// The distinct early histories the held positions descend from: for each of 6, 10 and 15
/// opponent moves (White's plies 12, 20 and 30), the distinct first opponent moves of that
/// many among the held positions' witnesses.
fn ancestors(belief: &Belief) -> String {
    let histories: Vec<_> = (0..belief.held())
        .filter_map(|i| belief.opponent_moves(i))
        .collect();
    [6usize, 10, 15]
        .iter()
        .map(|&m| {
            let prefixes: HashSet<_> = histories
                .iter()
                .filter(|h| h.len() >= m)
                .map(|h| &h[..m])
                .collect();
            format!("{m}: {}", prefixes.len())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Distinct placements of the enemy men (pieces and squares) among the held positions.
fn placements(belief: &Belief) -> usize {
    placement_set(belief).len()
}

/// The distinct placements of the enemy men among the held positions.
fn placement_set(belief: &Belief) -> HashSet<Placement> {
    let enemy = !belief.side();
    belief
        .positions()
        .map(|pos| {
            let board = pos.board();
            let theirs = board.by_color(enemy);
            (
                u64::from(theirs),
                u64::from(board.pawns() & theirs),
                u64::from(board.knights() & theirs),
                u64::from(board.bishops() & theirs),
                u64::from(board.rooks() & theirs),
                u64::from(board.queens() & theirs),
            )
        })
        .collect()
}

/// CPU seconds (user and system) of the whole process so far (every thread); NaN where unknown.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

/// CPU seconds of the calling thread so far (`CLOCK_THREAD_CPUTIME_ID`); NaN where unknown.
#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the valid pointer it is given and
    // reads nothing else.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// CPU seconds of the calling thread: unknown on this platform.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    f64::NAN
}

/// Marginals as text: one line each, the 64 × 7 probabilities.
fn write_marginals(plies: &[u32], all: &[Marginals]) -> String {
    let head = plies
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let lines: String = all
        .iter()
        .map(|m| {
            let mut line: Vec<String> = vec![m.positions.to_string(), m.exact.to_string()];
            line.extend(m.p.iter().flatten().map(|x| format!("{x:e}")));
            line.join(" ") + "\n"
        })
        .collect();
    format!("plies {head}\n{lines}")
}

/// Marginals written by [`write_marginals`] (of the enemy `enemy`), with the plies the file
/// names (`None` in files written before it named them).
fn read_marginals(text: &str, enemy: Color) -> (Option<Vec<u32>>, Vec<Marginals>) {
    let plies = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("plies "))
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect()
        });
    let marginals = text
        .lines()
        .skip(usize::from(plies.is_some()))
        .map(|line| {
            let mut words = line.split_whitespace();
            let positions = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
            let exact = words.next() == Some("true");
            let mut p = [[0f64; 7]; 64];
            for x in p.iter_mut().flatten() {
                *x = words.next().and_then(|w| w.parse().ok()).unwrap_or(0.0);
            }
            Marginals {
                enemy,
                positions,
                exact,
                p,
            }
        })
        .collect();
    (plies, marginals)
}
