//! Where a sample's lean appears (issue 30, goal 4; `docs/BENCHMARKS.md`, "Session 9: the lean
//! at ply 40"): ply by ply, one run's positions held, its size estimate and the share of the
//! held positions with a few of Black's men on their home squares (a8 rook, d8 and e8 king, h8
//! rook, b8 knight, c8 bishop).
//!
//! ```text
//! belief_lean RECORD.json [--side white|black] [--particles P (0: the bound)] [--bound B]
//!     [--seed S] [--threads T] [--read-at N] [--from A] [--to B] [--dump P1,P2,…] [--grandparents] [--uniform]
//! ```
//!
//! `--read-at N`: the run knows the observations up to ply N (`PlyStream::read_at_ply`, the
//! lookahead of `umpire belief --ply N`). `--dump`: at those plies also the enemy king's, rooks'
//! and queen's squares held by at least 1 % of the positions, and the a8 rook's share among the
//! positions of each king square. The squares are named as White sees Black's men.
//! `--grandparents`: count the parents beyond the held ones (`PlyStream::count_grandparents`);
//! `--uniform`: a read at a ply keeps each sampled turn's particles by a uniform choice, not the
//! systematic one (`PlyStream::choose_uniformly`).

use umpire_belief::review::PlyStream;
use umpire_belief::{BeliefConfig, Marginals};
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("RECORD.json");
    let (mut side, mut particles, mut seed, mut read_at, mut from, mut to) =
        (Color::White, 10_000usize, 1u64, None, 20u32, 40u32);
    let mut threads = 1usize;
    let mut bound = umpire_belief::DEFAULT_BOUND;
    let mut dump: Vec<u32> = Vec::new();
    let mut grandparents = false;
    let mut uniform = false;
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value");
        match a.as_str() {
            "--side" => {
                side = if value() == "black" {
                    Color::Black
                } else {
                    Color::White
                }
            }
            "--particles" => particles = value().parse().expect("P"),
            "--seed" => seed = value().parse().expect("S"),
            "--read-at" => read_at = Some(value().parse().expect("N")),
            "--from" => from = value().parse().expect("A"),
            "--to" => to = value().parse().expect("B"),
            "--threads" => threads = value().parse().expect("T"),
            "--bound" => bound = value().parse().expect("B"),
            "--grandparents" => grandparents = true,
            "--uniform" => uniform = true,
            "--dump" => {
                dump = value()
                    .split(',')
                    .map(|p| p.parse().expect("ply"))
                    .collect()
            }
            other => panic!("unknown {other}"),
        }
    }
    let record = Record::from_json(&std::fs::read_to_string(&path).expect("record")).expect("json");
    let config = BeliefConfig {
        particles: (particles > 0).then_some(particles),
        seed,
        threads,
        bound,
        ..BeliefConfig::default()
    };
    let mut stream = PlyStream::of_record(&record, side, config)
        .expect("record")
        .count_grandparents(grandparents)
        .choose_uniformly(uniform);
    if let Some(n) = read_at {
        stream = stream.read_at_ply(n);
    }
    // a8 rook, d8 king, e8 king, h8 rook (black's home squares as white sees them).
    let watch = [
        (56usize, 3usize, "a8R"),
        (59, 5, "d8K"),
        (60, 5, "e8K"),
        (63, 3, "h8R"),
        (57, 1, "b8N"),
        (58, 2, "c8B"),
    ];
    while let Some(step) = stream.next_ply() {
        let b = step.expect("fits");
        let at = b.plies();
        if at >= from {
            let m = Marginals::of(b);
            let shares: Vec<String> = watch
                .iter()
                .map(|&(sq, t, name)| format!("{name} {:.3}", m.p[sq][t]))
                .collect();
            println!(
                "ply {at:>3} held {:>6} size {:.4e} refreshes {} repairs {} {}",
                b.held(),
                b.size_estimate().value,
                b.refreshes(),
                b.repairs(),
                shares.join(" ")
            );
        }
        if dump.contains(&at) {
            let m = Marginals::of(b);
            for (t, name) in [(5usize, "K"), (3, "R"), (4, "Q")] {
                let mut items: Vec<(f64, usize)> = (0..64)
                    .map(|s| (m.p[s][t], s))
                    .filter(|x| x.0 > 0.01)
                    .collect();
                items.sort_by(|a, b| b.0.total_cmp(&a.0));
                let text: Vec<String> = items
                    .iter()
                    .map(|&(v, s)| {
                        format!("{}{}:{v:.3}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
                    })
                    .collect();
                println!("  {name} {}", text.join(" "));
            }
        }
        if dump.contains(&at) {
            // a8 rook's share per king square (king squares held by at least 1 %).
            let enemy = !b.side();
            let mut by_king = std::collections::BTreeMap::<u32, (usize, usize)>::new();
            for pos in b.positions() {
                use umpire_rules::shakmaty::{Position, Role, Square};
                let board = pos.board();
                let k = board.king_of(enemy).map_or(64, u32::from);
                let rook = board
                    .piece_at(Square::A8)
                    .is_some_and(|p| p.color == enemy && p.role == Role::Rook);
                let e = by_king.entry(k).or_default();
                e.0 += 1;
                e.1 += usize::from(rook);
            }
            let n = b.held().max(1);
            let text: Vec<String> = by_king
                .iter()
                .filter(|(_, (c, _))| *c * 100 >= n)
                .map(|(&k, &(c, r))| {
                    format!(
                        "{}{}:{:.3}/{:.3}",
                        (b'a' + (k % 8) as u8) as char,
                        k / 8 + 1,
                        c as f64 / n as f64,
                        r as f64 / c as f64
                    )
                })
                .collect();
            println!("  a8R by king square (share/a8R): {}", text.join(" "));
        }
        if at >= to {
            break;
        }
    }
}
