//! An SVG heatmap of [`Marginals`]: per square, how likely an enemy man stands there (the
//! redder, the likelier), the likeliest enemy man with its probability, and the player's own
//! men, drawn unlike the enemy's (a white figure on a dark disc); a caption above names whose
//! belief it is and how it was made, and a legend below says how to read it.

use std::fmt::Write;

use shakmaty::{Chess, Color, File, Position, Rank, Square};

use crate::marginals::{MAN_TYPES, Marginals};

const CELL: u32 = 64;
/// Left and right margin (rank labels on the left).
const SIDE: u32 = 24;
/// Above the board: the caption.
const TOP: u32 = 56;
/// Below the board: the file labels and the legend.
const BOTTOM: u32 = 112;

/// The heatmap as an SVG document, seen from `side`'s end of the board, under `caption` (for
/// example "White's belief after 12 plies: exact, 4,210 positions"). `own` is any held
/// position (the player's own men are the same in all of them).
pub fn heatmap_svg(
    marginals: &Marginals,
    side: Color,
    own: Option<&Chess>,
    caption: &str,
) -> String {
    let width = CELL * 8 + 2 * SIDE;
    let height = TOP + CELL * 8 + BOTTOM;
    let caption = escape(caption);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n\
         <title>{caption}</title>\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">{caption}</text>\n\
         <text x=\"{}\" y=\"44\" font-size=\"12\" text-anchor=\"middle\">Where the enemy men may stand ({} positions, {})</text>\n",
        width / 2,
        width / 2,
        marginals.positions,
        if marginals.exact { "exact" } else { "sampled" }
    );
    let own_board = own.map(|pos| pos.board().clone());
    for sq in Square::ALL {
        let (col, row) = if side == Color::White {
            (u32::from(sq.file()), 7 - u32::from(sq.rank()))
        } else {
            (7 - u32::from(sq.file()), u32::from(sq.rank()))
        };
        let (x, y) = (SIDE + col * CELL, TOP + row * CELL);
        let p = marginals.occupied(sq).clamp(0.0, 1.0);
        let light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
        let (r, g) = heat(p, light);
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"rgb({r},{g},{g})\"><title>{sq}: {}</title></rect>",
            describe(marginals, sq)
        );
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let probs = &marginals.p[usize::from(sq)];
        let best = (0..6).max_by(|&a, &b| probs[a].total_cmp(&probs[b]));
        if let Some(best) = best.filter(|&b| probs[b] > 0.0) {
            let _ = writeln!(
                s,
                "<text x=\"{cx}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\">{}</text>\
                 <text x=\"{cx}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                y + 30,
                letter(best).to_ascii_lowercase(),
                y + 50,
                escape(&percent(p))
            );
        } else if let Some(piece) = own_board
            .as_ref()
            .and_then(|b| b.piece_at(sq))
            .filter(|pc| pc.color == side)
        {
            let _ = writeln!(
                s,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"20\" fill=\"#234\"/>\
                 <text x=\"{cx}\" y=\"{}\" font-size=\"22\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"white\">{}</text>",
                cy + 8,
                piece.role.upper_char()
            );
        }
    }
    let labels_y = TOP + CELL * 8 + 18;
    for i in 0..8u32 {
        let (file, rank) = if side == Color::White {
            (File::new(i), Rank::new(7 - i))
        } else {
            (File::new(7 - i), Rank::new(i))
        };
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{labels_y}\" font-size=\"14\" text-anchor=\"middle\">{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            SIDE + i * CELL + CELL / 2,
            file.char(),
            SIDE / 2,
            TOP + i * CELL + CELL / 2 + 5,
            rank.char()
        );
    }
    legend(&mut s, TOP + CELL * 8 + 32);
    s.push_str("</svg>\n");
    s
}

/// The legend: the colour scale from 0 % to 100 %, and how men are drawn.
fn legend(s: &mut String, top: u32) {
    let steps = 10u32;
    let step_width = 16;
    let _ = writeln!(
        s,
        "<text x=\"{SIDE}\" y=\"{}\" font-size=\"12\">Chance that an enemy man stands on the square:</text>",
        top + 12
    );
    for i in 0..=steps {
        let p = f64::from(i) / f64::from(steps);
        let (r, g) = heat(p, true);
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{step_width}\" height=\"14\" fill=\"rgb({r},{g},{g})\" stroke=\"#999\" stroke-width=\"0.5\"/>",
            SIDE + i * step_width,
            top + 18
        );
    }
    let scale_end = SIDE + (steps + 1) * step_width;
    let _ = writeln!(
        s,
        "<text x=\"{SIDE}\" y=\"{}\" font-size=\"11\">0 %</text>\
         <text x=\"{scale_end}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">100 %</text>",
        top + 44,
        top + 44
    );
    let x = scale_end + 24;
    let _ = writeln!(
        s,
        "<text x=\"{x}\" y=\"{}\" font-size=\"12\">p n b r q k: likeliest enemy man, its chance</text>\
         <circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"#234\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"white\">N</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"12\">your own men (P N B R Q K)</text>\
         <text x=\"{x}\" y=\"{}\" font-size=\"12\">Point at a square for every man it may hold.</text>",
        top + 12,
        x + 9,
        top + 27,
        x + 9,
        top + 31,
        x + 24,
        top + 31,
        top + 52
    );
}

/// The fill of a square where an enemy man stands with probability `p`: the board's shade
/// turning red. Returns the red and the green-and-blue components.
fn heat(p: f64, light: bool) -> (u32, u32) {
    let base = if light { 240.0 } else { 200.0 };
    let g = (base * (1.0 - p)).round() as u32;
    let r = (base + (255.0 - base) * p).round() as u32;
    (r, g)
}

/// A probability as shown on a square: whole per cents, "<1%" below one per cent, ">99%"
/// above 99 without being certain (never "0%" for a man that may be there).
fn percent(p: f64) -> String {
    if p < 0.01 {
        "<1%".to_owned()
    } else if p > 0.99 && p < 1.0 {
        ">99%".to_owned()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

/// The letter of man type `i` of [`MAN_TYPES`] (pawn to king).
fn letter(i: usize) -> char {
    match i {
        0 => 'P',
        1 => 'N',
        2 => 'B',
        3 => 'R',
        4 => 'Q',
        _ => 'K',
    }
}

/// `text` safe inside SVG text and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_chances_never_read_as_nothing() {
        assert_eq!(percent(0.001), "<1%");
        assert_eq!(percent(0.5), "50%");
        assert_eq!(percent(0.996), ">99%");
        assert_eq!(percent(1.0), "100%");
    }

    /// Every `<` of the document opens a tag (a bare one, as in "<1%", makes the file
    /// unreadable as XML: browsers show an error instead of the heatmap).
    #[test]
    fn the_document_has_no_bare_angle_bracket() {
        let mut m = Marginals {
            enemy: Color::Black,
            positions: 3,
            exact: true,
            p: [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]; 64],
        };
        // A pawn on e5 in 0.4 % of the positions, a knight on d5 in 99.6 % (index 6: empty).
        m.p[usize::from(Square::E5)] = [0.004, 0.0, 0.0, 0.0, 0.0, 0.0, 0.996];
        m.p[usize::from(Square::D5)] = [0.0, 0.996, 0.0, 0.0, 0.0, 0.0, 0.004];
        let svg = heatmap_svg(&m, Color::White, Some(&Chess::default()), "a < b");
        for (i, _) in svg.match_indices('<') {
            let next = svg[i + 1..].chars().next();
            assert!(
                next.is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '?' || c == '!'),
                "bare '<' at byte {i}: {}",
                &svg[i..(i + 20).min(svg.len())]
            );
        }
        assert!(svg.contains("&lt;1%") && svg.contains("&gt;99%"));
    }

    #[test]
    fn the_caption_is_escaped() {
        assert_eq!(escape("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
    }
}
