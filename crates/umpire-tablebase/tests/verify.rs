//! Verification of the table independent of its construction: the umpire of `umpire-rules`
//! referees real positions, White follows the table, and an exhaustive adversary tries every
//! black-king square of the set, every legal black reply and so every umpire answer. White's
//! knowledge is updated only from what the umpire says, by replaying the attempt on every
//! candidate position.

mod common;

use std::collections::HashMap;

use common::{kbbk_full, kbbk_partial, kbnk_full, kbnk_partial, kqk, krk};
use shakmaty::{Bitboard, Color, Position, Role, Square};
use umpire_rules::{Announcement, Attempt, Command, RuleSet, Umpire, Verdict};
use umpire_tablebase::{Layout, Tablebase, squares_text};

/// A real game with the black king on `bk`, White to move.
fn umpire_at(layout: Layout, bk: Square) -> Umpire {
    Umpire::from_fen(RuleSet::WILD16, &layout.fen(bk))
        .unwrap_or_else(|e| panic!("{} with the king on {bk}: {e}", layout.fen(bk)))
}

/// What White learns from an attempt: the verdict and the announcements White hears.
fn heard(umpire: &mut Umpire, attempt: Attempt) -> (Verdict, Vec<Announcement>) {
    let outcome = umpire.submit(Command::Attempt(attempt));
    (outcome.verdict, outcome.heard_by(Color::White).collect())
}

fn layout_of(umpire: &Umpire) -> Layout {
    let board = umpire.position().board();
    let king = board.king_of(Color::White).expect("white king");
    let men: Vec<(Role, Square)> = board
        .clone()
        .into_iter()
        .filter(|(_, p)| p.color == Color::White && p.role != Role::King)
        .map(|(sq, p)| (p.role, sq))
        .collect();
    Layout::new(king, &men).expect("a table layout")
}

struct Adversary<'a> {
    table: &'a Tablebase,
    memo: HashMap<(Layout, u64, Square), u32>,
}

impl Adversary<'_> {
    /// The most White moves to mate, the black king truly on `bk`, White knowing only
    /// `known`; an error if White fails or exceeds the table's promise.
    fn worst(&mut self, layout: Layout, known: u64, bk: Square) -> Result<u32, String> {
        if let Some(&v) = self.memo.get(&(layout, known, bk)) {
            return Ok(v);
        }
        let here = format!("{layout} set {{{}}} king {bk}", squares_text(known));
        let promised = self
            .table
            .distance(layout, known)
            .ok_or_else(|| format!("{here}: the table knows no mate"))?;
        let probe = self.table.probe(layout, known).map_err(|e| e.to_string())?;
        let attempt = *probe
            .best
            .first()
            .ok_or_else(|| format!("{here}: no best attempt"))?;
        let mut truth = umpire_at(layout, bk);
        let answer = heard(&mut truth, attempt);
        // Every candidate square that would have given the same answer.
        let mut same = 0u64;
        for c in Bitboard(known) {
            if heard(&mut umpire_at(layout, c), attempt) == answer {
                same |= Bitboard::from_square(c).0;
            }
        }
        let moves = match answer.0 {
            Verdict::Illegal => {
                if same == known {
                    return Err(format!("{here}: {attempt} teaches nothing"));
                }
                self.worst(layout, same, bk)?
            }
            Verdict::Accepted => {
                if let Some(result) = truth.result() {
                    if result.reason != umpire_rules::EndReason::Checkmate {
                        return Err(format!("{here}: {attempt} ends in {result}"));
                    }
                    1
                } else {
                    // Black's possible squares after its (silent) reply.
                    let mut next = 0u64;
                    for c in Bitboard(same) {
                        let mut u = umpire_at(layout, c);
                        u.submit(Command::Attempt(attempt));
                        for m in u.legal_moves() {
                            if !m.is_capture() {
                                next |= Bitboard::from_square(m.to()).0;
                            }
                        }
                    }
                    let mut worst = 0;
                    for m in truth.legal_moves() {
                        if m.is_capture() {
                            return Err(format!("{here}: after {attempt} Black takes the rook"));
                        }
                        let mut after = truth.clone();
                        let reply = Attempt::new(m.from().expect("a king move"), m.to());
                        if after.submit(Command::Attempt(reply)).verdict != Verdict::Accepted {
                            return Err(format!("{here}: umpire refused {reply}"));
                        }
                        if let Some(result) = after.result() {
                            return Err(format!("{here}: game over after {reply}: {result}"));
                        }
                        worst = worst.max(1 + self.worst(layout_of(&after), next, m.to())?);
                    }
                    worst
                }
            }
            other => return Err(format!("{here}: unexpected verdict {other:?}")),
        };
        if moves > u32::from(promised) {
            return Err(format!("{here}: mate took {moves} > {promised}"));
        }
        self.memo.insert((layout, known, bk), moves);
        Ok(moves)
    }
}

/// Every `step`-th stored entry (deterministic), with its layout.
fn sample(table: &Tablebase, step: usize) -> Vec<(Layout, u64, u8)> {
    let mut all = Vec::new();
    for (i, &l) in table.layouts().iter().enumerate() {
        for (s, d) in table.entries_of(i) {
            all.push((l, s, d));
        }
    }
    all.into_iter().step_by(step).collect()
}

/// Plays the adversary against every `step`-th entry of at most `max_depth` moves; returns the
/// deepest entry checked.
fn adversary_on_sample(table: &Tablebase, step: usize, max_depth: u8) -> u8 {
    let mut adversary = Adversary {
        table,
        memo: HashMap::new(),
    };
    let mut deepest = 0;
    for (layout, set, depth) in sample(table, step) {
        if depth > max_depth {
            continue;
        }
        let mut exact = 0;
        for bk in Bitboard(set) {
            let moves = adversary
                .worst(layout, set, bk)
                .unwrap_or_else(|e| panic!("{e}"));
            exact = exact.max(moves);
        }
        // Some defence reaches the stored distance: following the table is not faster than
        // the table says, so the stored distance is exact for the table's own play.
        assert_eq!(exact, u32::from(depth), "{layout} {}", squares_text(set));
        deepest = deepest.max(depth);
    }
    deepest
}

#[test]
fn krk_sampled_entries_are_mated_within_their_distance() {
    // About 250 entries, spread over all depths.
    let table = krk();
    assert!(table.is_complete());
    let deepest = adversary_on_sample(table, 1999, u8::MAX);
    assert!(deepest >= 30, "the sample reaches long mates ({deepest})");
}

#[test]
fn kqk_sampled_entries_are_mated_within_their_distance() {
    let table = kqk();
    assert!(table.is_complete());
    let deepest = adversary_on_sample(table, 6007, u8::MAX);
    assert!(deepest >= 14, "the sample reaches long mates ({deepest})");
}

#[test]
fn kbbk_and_kbnk_partial_entries_are_mated_within_their_distance() {
    for (table, step) in [(kbbk_partial(), 101), (kbnk_partial(), 53)] {
        assert!(!table.is_complete());
        let deepest = adversary_on_sample(table, step, u8::MAX);
        assert!(deepest >= 8, "{}: deepest {deepest}", table.ending());
    }
}

/// About 5,000 KRK entries (about 30 s):
/// `cargo test --release -p umpire-tablebase -- --ignored`.
#[test]
#[ignore]
fn dense_sample_is_mated_within_its_distance() {
    assert!(adversary_on_sample(krk(), 101, u8::MAX) >= 36);
    assert!(adversary_on_sample(kqk(), 601, u8::MAX) >= 17);
}

/// The complete KBBK and KBNK tables (about a minute to build) on sampled entries. KBNK
/// entries deeper than 49 moves are skipped: the `wild16` umpire would end those games by the
/// fifty-move rule, which the tables do not model.
#[test]
#[ignore]
fn complete_kbbk_and_kbnk_samples_are_mated_within_their_distance() {
    assert!(adversary_on_sample(kbbk_full(), 20011, u8::MAX) >= 35);
    assert!(adversary_on_sample(kbnk_full(), 40009, 49) >= 40);
}

fn recurrence_and_maximality(table: &Tablebase, step: usize) {
    for (layout, set, depth) in sample(table, step) {
        let text = format!(
            "{} {layout} {{{}}} at {depth}",
            table.ending(),
            squares_text(set)
        );
        assert_eq!(table.distance(layout, set), Some(depth), "{text}");
        assert_eq!(table.lookahead(layout, set), Some(depth), "{text}");
        // A subset is never slower.
        for sq in Bitboard(set) {
            let smaller = set & !Bitboard::from_square(sq).0;
            assert!(
                table.distance(layout, smaller).is_some_and(|d| d <= depth),
                "{text}"
            );
        }
        // Adding any possible square makes it slower or lost, by the table and by one more
        // step of look-ahead.
        for sq in Bitboard(layout.domain() & !set) {
            let larger = set | Bitboard::from_square(sq).0;
            assert!(
                table.distance(layout, larger).is_none_or(|d| d > depth),
                "{text} + {sq}"
            );
            assert!(
                table.lookahead(layout, larger).is_none_or(|d| d > depth),
                "{text} + {sq}"
            );
        }
    }
}

#[test]
fn sampled_entries_satisfy_the_recurrence_and_are_maximal() {
    recurrence_and_maximality(krk(), 401);
    recurrence_and_maximality(kqk(), 1601);
    recurrence_and_maximality(kbbk_partial(), 97);
    recurrence_and_maximality(kbnk_partial(), 89);
}
