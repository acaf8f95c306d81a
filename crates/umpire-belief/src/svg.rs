//! An SVG heatmap of [`Marginals`]: per square, how likely an enemy man stands there (the
//! redder, the likelier), the likeliest man type with its probability, and the player's own men.

use std::fmt::Write;

use shakmaty::{Chess, Color, File, Position, Rank, Square};

use crate::marginals::{MAN_TYPES, Marginals};

const CELL: u32 = 64;

/// The heatmap as an SVG document, seen from `side`'s end of the board. `own` is any held
/// position (the player's own men are the same in all of them), drawn in grey.
pub fn heatmap_svg(marginals: &Marginals, side: Color, own: Option<&Chess>) -> String {
    let size = CELL * 8 + 40;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" \
         viewBox=\"0 0 {size} {size}\" font-family=\"sans-serif\">\n\
         <title>Where the enemy men may stand ({} positions, {})</title>\n",
        marginals.positions,
        if marginals.exact { "exact" } else { "sampled" }
    );
    for sq in Square::ALL {
        let (col, row) = if side == Color::White {
            (u32::from(sq.file()), 7 - u32::from(sq.rank()))
        } else {
            (7 - u32::from(sq.file()), u32::from(sq.rank()))
        };
        let (x, y) = (20 + col * CELL, 20 + row * CELL);
        let p = marginals.occupied(sq).clamp(0.0, 1.0);
        let light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
        let base = if light { 240.0 } else { 200.0 };
        let g = (base * (1.0 - p)).round() as u32;
        let r = (base + (255.0 - base) * p).round() as u32;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"rgb({r},{g},{g})\"><title>{sq}: {}</title></rect>",
            describe(marginals, sq)
        );
        let probs = &marginals.p[usize::from(sq)];
        let best = (0..6).max_by(|&a, &b| probs[a].total_cmp(&probs[b]));
        if let Some(best) = best.filter(|&b| probs[b] > 0.0) {
            let letter = match best {
                0 => "P",
                1 => "N",
                2 => "B",
                3 => "R",
                4 => "Q",
                _ => "K",
            };
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\">{letter}</text>\
                 <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{:.0}%</text>",
                x + CELL / 2,
                y + 30,
                x + CELL / 2,
                y + 50,
                p * 100.0
            );
        } else if let Some(pos) = own {
            let board = pos.board();
            if let Some(piece) = board.piece_at(sq).filter(|pc| pc.color == side) {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"#777\">{}</text>",
                    x + CELL / 2,
                    y + 40,
                    piece.role.upper_char()
                );
            }
        }
    }
    for i in 0..8u32 {
        let (file, rank) = if side == Color::White {
            (File::new(i), Rank::new(7 - i))
        } else {
            (File::new(7 - i), Rank::new(i))
        };
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>\
             <text x=\"10\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            20 + i * CELL + CELL / 2,
            size - 5,
            file.char(),
            20 + i * CELL + CELL / 2 + 5,
            rank.char()
        );
    }
    s.push_str("</svg>\n");
    s
}

/// "e4: pawn 40%, knight 10%" — the man types possible on a square.
fn describe(m: &Marginals, sq: Square) -> String {
    let probs = &m.p[usize::from(sq)];
    let parts: Vec<String> = (0..7)
        .filter(|&i| probs[i] > 0.0)
        .map(|i| format!("{} {:.1}%", MAN_TYPES[i], probs[i] * 100.0))
        .collect();
    parts.join(", ")
}
