//! The guided action space: sound filters never hide a legal move (checked against the true
//! umpire in random and guided-random games under every rule set), and each filter hides
//! what it should in hand-built positions.
//!
//! The default run checks a few tens of thousands of decisions. The full audit of issue 3:
//! `UMPIRE_GUIDED_DECISIONS=1000000 cargo test --release -p umpire-view --test guided -- --nocapture`

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::playout::random_game;
use umpire_rules::shakmaty::{Color, Position, Role, Square};
use umpire_rules::{Attempt, AttemptList, Command, OwnBoard, RuleSet, RuleSetId, Umpire};
use umpire_view::guided::{FilterId, FilterSet, GuidedSpace, Soundness, why_hidden};
use umpire_view::{EnemyMaterial, PlayerView};

// ---------------------------------------------------------------------------------------------
// Soundness as a property
// ---------------------------------------------------------------------------------------------

/// What the audit counts.
#[derive(Default)]
struct Audit {
    decisions: u64,
    /// Own-board attempts each filter hid.
    fired: [u64; FilterId::ALL.len()],
    /// Legal attempts each filter hid.
    hid_legal: [u64; FilterId::ALL.len()],
    legal_checked: u64,
    violations: Vec<String>,
}

impl Audit {
    /// Checks the decision the side to move faces now.
    fn check(&mut self, umpire: &Umpire, view: &PlayerView, ctx: &dyn Fn() -> String) {
        if !view.is_my_turn() {
            return;
        }
        self.decisions += 1;
        let space = GuidedSpace::new(view, FilterSet::all());
        let own = view.own_board();
        let queen_only = view.rules().promotion_always_queen;
        let mut all = AttemptList::new();
        own.attempts(queen_only, &mut all);
        for &a in &all {
            for id in space.hidden_by(a).iter() {
                self.fired[id as usize] += 1;
            }
        }
        let obliged = view.turn().must_try_pawn_capture;
        for m in umpire.legal_moves() {
            let a = Attempt::from_move(&m).expect("no drops in chess");
            if queen_only && a.promotion.is_some_and(|r| r != Role::Queen) {
                continue;
            }
            if obliged && !own.is_pawn_capture(a) {
                continue;
            }
            self.legal_checked += 1;
            for id in space.hidden_by(a).iter() {
                self.hid_legal[id as usize] += 1;
                if id.filter().soundness == Soundness::Sound && self.violations.len() < 20 {
                    self.violations.push(format!(
                        "{}: legal {a} hidden by sound {id} (FEN {})",
                        ctx(),
                        umpire_rules::shakmaty::fen::Fen::from_position(
                            umpire.position(),
                            umpire_rules::shakmaty::EnPassantMode::Legal
                        )
                    ));
                }
            }
        }
        // The sound space offers exactly what `why_hidden` does not hide.
        let sound = GuidedSpace::new(view, FilterSet::all_sound());
        let mut offered = AttemptList::new();
        sound.options(&mut offered);
        for &a in &all {
            let shown = offered.contains(&a);
            let allowed = !obliged || own.is_pawn_capture(a);
            assert_eq!(
                shown,
                allowed && sound.why_hidden(a).is_empty(),
                "{}: {a}",
                ctx()
            );
        }
    }

    fn report(&self, label: &str) {
        eprintln!(
            "{label}: {} decisions, {} legal attempts checked",
            self.decisions, self.legal_checked
        );
        for id in FilterId::ALL {
            let i = id as usize;
            let tag = id.filter().soundness.as_str();
            let rate = if self.fired[i] > 0 {
                self.hid_legal[i] as f64 / self.fired[i] as f64
            } else {
                0.0
            };
            eprintln!(
                "  {:5} {:9} fired {:9}  hid legal {:7} ({:.2}% of its hides)",
                id.as_str(),
                tag,
                self.fired[i],
                self.hid_legal[i],
                100.0 * rate
            );
        }
    }
}

/// Feeds one outcome to both views.
fn feed(views: &mut [PlayerView; 2], command: Command, outcome: &umpire_rules::Outcome) {
    for view in views.iter_mut() {
        if let Some(seen) = outcome.observation(command, view.side()) {
            view.observe(&seen).expect("observation fits the view");
        }
    }
}

/// The view of the side to move.
fn mover_of<'v>(umpire: &Umpire, views: &'v [PlayerView; 2]) -> &'v PlayerView {
    if views[0].side() == umpire.turn() {
        &views[0]
    } else {
        &views[1]
    }
}

fn budget() -> u64 {
    std::env::var("UMPIRE_GUIDED_DECISIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

/// Random games (uniform over the own-board attempts, rejections included), replayed with the
/// true umpire and both views; every decision is audited.
fn audit_random_games(rules: RuleSet, decisions: u64, audit: &mut Audit) {
    let goal = audit.decisions + decisions;
    let mut seed = 0u64;
    while audit.decisions < goal {
        let mut driver = Umpire::new(rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut log = Vec::new();
        random_game(&mut driver, &mut rng, 400, |command, _| log.push(command));
        let mut umpire = Umpire::new(rules);
        let mut views = [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c));
        for (i, command) in log.into_iter().enumerate() {
            let ctx = || format!("{} random seed {seed} command {i}", rules.id);
            audit.check(&umpire, mover_of(&umpire, &views), &ctx);
            let outcome = umpire.submit(command);
            feed(&mut views, command, &outcome);
        }
        seed += 1;
    }
}

/// Guided-random games: the mover picks uniformly among the attempts the sound filters offer
/// (and "Any?" where it may be asked); every decision is audited.
fn audit_guided_games(rules: RuleSet, decisions: u64, audit: &mut Audit) {
    let goal = audit.decisions + decisions;
    let mut seed = 1_000_000u64;
    while audit.decisions < goal {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(rules);
        let mut views = [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c));
        let mut commands = 0;
        while !umpire.is_over() && umpire.plies() < 400 && audit.decisions < goal {
            let ctx = || format!("{} guided seed {seed} command {commands}", rules.id);
            let view = mover_of(&umpire, &views);
            audit.check(&umpire, view, &ctx);
            let mut offered = AttemptList::new();
            let may_ask = GuidedSpace::new(view, FilterSet::all_sound()).options(&mut offered);
            let n = offered.len() + usize::from(may_ask);
            assert!(n > 0, "{}: nothing offered", ctx());
            let pick = rng.random_range(0..n);
            let command = offered
                .get(pick)
                .map_or(Command::AskAny, |&a| Command::Attempt(a));
            let outcome = umpire.submit(command);
            feed(&mut views, command, &outcome);
            commands += 1;
        }
        seed += 1;
    }
}

#[test]
fn sound_filters_never_hide_a_legal_move_under_any_rule_set() {
    let total = budget();
    let per_run = (total / (2 * RuleSetId::ALL.len() as u64)).max(1);
    let mut overall = Audit::default();
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let mut audit = Audit::default();
        audit_random_games(rules, per_run, &mut audit);
        audit_guided_games(rules, per_run, &mut audit);
        audit.report(id.as_str());
        assert!(
            audit.violations.is_empty(),
            "soundness violations under {id}:\n{}",
            audit.violations.join("\n")
        );
        overall.decisions += audit.decisions;
        overall.legal_checked += audit.legal_checked;
        for i in 0..FilterId::ALL.len() {
            overall.fired[i] += audit.fired[i];
            overall.hid_legal[i] += audit.hid_legal[i];
        }
    }
    overall.report("all rule sets");
    assert!(overall.decisions >= total.min(1000));
    // Every sound filter but the rarest ones must have fired somewhere, or the audit proves
    // nothing about it.
    for id in [
        FilterId::A1,
        FilterId::A2,
        FilterId::A3,
        FilterId::A3_2,
        FilterId::A4_1_1,
        FilterId::B4,
        FilterId::C1,
        FilterId::C2,
        FilterId::C3,
        FilterId::C6,
        FilterId::C7,
    ] {
        assert!(overall.fired[id as usize] > 0, "{id} never fired");
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-built positions
// ---------------------------------------------------------------------------------------------

/// A game from a FEN with both players' views (enemy material as the organiser tells it).
struct Table {
    umpire: Umpire,
    views: [PlayerView; 2],
}

impl Table {
    fn from_fen(rules: RuleSet, fen: &str) -> Table {
        let umpire = Umpire::from_fen(rules, fen).expect("valid FEN");
        let pos = umpire.position();
        let views = [Color::White, Color::Black].map(|side| {
            let enemy = pos.board().by_color(!side);
            let mut view = PlayerView::new(
                rules,
                OwnBoard::of(pos, side),
                pos.turn(),
                EnemyMaterial {
                    men: enemy.count() as u8,
                    pawns_at_most: (enemy & pos.board().pawns()).count() as u8,
                },
            );
            view.hear_opening(
                umpire
                    .opening_announcements()
                    .iter()
                    .map(|h| h.announcement),
            );
            view
        });
        Table { umpire, views }
    }

    fn standard(rules: RuleSet) -> Table {
        Table {
            umpire: Umpire::new(rules),
            views: [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c)),
        }
    }

    /// Submits an attempt; returns whether it was accepted.
    fn play(&mut self, uci: &str) -> bool {
        let command = Command::Attempt(uci.parse().expect("UCI"));
        let outcome = self.umpire.submit(command);
        feed(&mut self.views, command, &outcome);
        outcome.is_accepted()
    }

    /// Plays a line of attempts, each of which must be accepted.
    fn line(&mut self, ucis: &[&str]) {
        for uci in ucis {
            assert!(self.play(uci), "{uci} should be legal");
        }
    }

    fn mover(&self) -> &PlayerView {
        mover_of(&self.umpire, &self.views)
    }

    fn hidden(&self, uci: &str) -> Vec<FilterId> {
        why_hidden(self.mover(), &FilterSet::all(), uci.parse().expect("UCI"))
    }

    /// Asserts that `uci` is legal in the true position.
    fn assert_legal(&self, uci: &str) {
        let a: Attempt = uci.parse().expect("UCI");
        assert!(
            self.umpire
                .legal_moves()
                .iter()
                .any(|m| Attempt::from_move(m) == Some(a)),
            "{uci} should be legal"
        );
    }

    fn assert_illegal(&self, uci: &str) {
        let a: Attempt = uci.parse().expect("UCI");
        assert!(
            !self
                .umpire
                .legal_moves()
                .iter()
                .any(|m| Attempt::from_move(m) == Some(a)),
            "{uci} should be illegal"
        );
    }
}

#[test]
fn own_board_rules_b1_b2_b3_are_reported_for_impossible_attempts() {
    let t = Table::from_fen(RuleSet::WILD16, "r3k2r/8/8/8/8/8/8/R3KB1R w Qkq - 0 1");
    // A rook moving diagonally: movement pattern.
    assert_eq!(t.hidden("a1b2"), [FilterId::B1]);
    // From an empty square.
    assert_eq!(t.hidden("c3c4"), [FilterId::B1]);
    // Through its own bishop.
    assert_eq!(t.hidden("h1e1"), [FilterId::B2]);
    // Kingside castling: the right is gone and the bishop stands between.
    assert_eq!(t.hidden("e1g1"), [FilterId::B3]);
    // Queenside castling is possible on the own board and legal.
    assert!(t.hidden("e1c1").is_empty());
    t.assert_legal("e1c1");
    // Switched off, the own-board rule is not reported.
    let none = FilterSet::all().with(FilterId::B1, false);
    assert!(why_hidden(t.mover(), &none, "a1b2".parse().unwrap()).is_empty());
}

#[test]
fn a1_hides_a_rejected_attempt_and_its_other_promotions() {
    // The black knight on b8 blocks b7b8.
    let mut t = Table::from_fen(RuleSet::WILD16, "1n2k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(t.hidden("b7b8r").is_empty());
    assert!(!t.play("b7b8q"));
    // The pawn cannot be pinned, so the square ahead is held (A3, sonar).
    assert_eq!(t.hidden("b7b8q"), [FilterId::A1, FilterId::A3]);
    assert!(t.hidden("b7b8r").contains(&FilterId::A1));
    t.assert_illegal("b7b8r");
    // Another attempt of the same pawn is not hidden by A1.
    assert!(!t.hidden("b7a8q").contains(&FilterId::A1));
}

#[test]
fn a2_stops_a_slider_beyond_a_rejected_destination_out_of_check() {
    // A black pawn on a4 blocks the rook's way up the a-file.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/p7/8/8/R3K3 w - - 0 1");
    assert!(!t.play("a1a5"));
    for beyond in ["a1a6", "a1a7", "a1a8"] {
        assert!(t.hidden(beyond).contains(&FilterId::A2), "{beyond}");
        t.assert_illegal(beyond);
    }
    // Nearer squares, and other rays, stay offered.
    for near in ["a1a2", "a1a3", "a1a4", "a1b1"] {
        assert!(!t.hidden(near).contains(&FilterId::A2), "{near}");
    }
    // A rejected single pawn step hides the double step.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert!(!t.play("e2e3"));
    assert!(t.hidden("e2e4").contains(&FilterId::A2));
}

#[test]
fn a2_is_off_in_check() {
    // The white king on b1 is checked along the first rank by the rook on h1. The rook on c3
    // tries c2, which does not answer the check; c1 interposes and is legal.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/2R5/8/1K5r w - - 0 1");
    assert!(!t.mover().turn().checks.is_empty());
    assert!(!t.play("c3c2"));
    assert!(!t.hidden("c3c1").contains(&FilterId::A2));
    t.assert_legal("c3c1");
}

#[test]
fn a3_sonar_marks_the_square_of_a_rejected_pawn_step() {
    // A black knight on e3 stops the pawn; the pawn cannot be pinned off its file.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/R3n3/4P3/4K3 w - - 0 1");
    assert!(!t.play("e2e3"));
    assert!(
        GuidedSpace::new(t.mover(), FilterSet::all())
            .inference()
            .sonar()
            .contains(Square::E3)
    );
    for beyond in ["a3f3", "a3g3", "a3h3"] {
        assert!(t.hidden(beyond).contains(&FilterId::A3), "{beyond}");
        t.assert_illegal(beyond);
    }
    assert!(t.hidden("a3e3").is_empty());
    t.assert_legal("a3e3");
}

#[test]
fn a3_does_not_trust_a_step_of_a_pawn_that_may_be_pinned() {
    // The pawn on d2 may be pinned along the diagonal e1-a5 (it is: by the queen on a5).
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/q7/8/8/3P4/R3K3 w - - 0 1");
    assert!(!t.play("d2d3"));
    assert!(
        GuidedSpace::new(t.mover(), FilterSet::all())
            .inference()
            .sonar()
            .is_empty()
    );
    // d3 is empty: a rook passing d3 could be legal, and A3 says nothing.
    assert!(!t.hidden("a1a2").contains(&FilterId::A3));
}

#[test]
fn a4_1_guesses_a_pin_and_can_be_wrong() {
    // Right: the bishop on d2 is pinned by the queen on a5; d2e3 is rejected.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/q7/8/8/3B4/4K3 w - - 0 1");
    assert!(!t.play("d2e3"));
    assert!(t.hidden("d2f4").contains(&FilterId::A4_1));
    t.assert_illegal("d2f4");
    assert!(t.hidden("d2c3").is_empty());
    t.assert_legal("d2c3");
    // Wrong: a black knight on e3 blocks d2f4; nothing pins the bishop, yet d2c1 is hidden.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/4n3/3B4/4K3 w - - 0 1");
    assert!(!t.play("d2f4"));
    assert_eq!(t.hidden("d2c1"), [FilterId::A4_1]);
    t.assert_legal("d2c1");
    assert!(why_hidden(t.mover(), &FilterSet::all_sound(), "d2c1".parse().unwrap()).is_empty());
}

#[test]
fn a3_2_a_rejected_pawn_step_onto_the_check_line_drops_the_check_sites_beyond() {
    // Rank check from the rook on d3 against the king on a3. The pawn on e2 cannot be pinned;
    // its step to e3 lands beyond the checker and is rejected.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/K2r4/2P1P3/5R2 w - - 0 1");
    assert_eq!(t.mover().turn().checks.len(), 1);
    // Before the rejection f3 is a CheckSite: C6 lets the rook try it.
    assert!(t.hidden("f1f3").is_empty());
    assert!(!t.play("e2e3"));
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(
        inference.check_cut(),
        [Square::F3, Square::G3, Square::H3].into_iter().collect()
    );
    assert_eq!(t.hidden("f1f3"), [FilterId::A3_2]);
    t.assert_illegal("f1f3");
    // The interposition nearer the king stays offered and is legal.
    assert!(t.hidden("c2c3").is_empty());
    t.assert_legal("c2c3");
    // Without the rejection nothing is cut.
    let t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/K2r4/2P1P3/5R2 w - - 0 1");
    assert!(
        GuidedSpace::new(t.mover(), FilterSet::all())
            .inference()
            .check_cut()
            .is_empty()
    );
}

#[test]
fn a3_2_trusts_no_step_of_a_pawn_that_may_be_pinned() {
    // Rank check from h3 against the king on a3. The pawn on b2 is pinned along the diagonal
    // a3-c1 by the bishop on c1, so its step to b3 (which would interpose) is rejected though
    // the checker stands far beyond. The pawn may be pinned off its file: nothing is cut.
    let mut t = Table::from_fen(RuleSet::WILD16, "7k/8/8/8/8/K6r/1P6/2b1R3 w - - 0 1");
    assert_eq!(t.mover().turn().checks.len(), 1);
    assert!(!t.play("b2b3"));
    assert!(
        GuidedSpace::new(t.mover(), FilterSet::all())
            .inference()
            .check_cut()
            .is_empty()
    );
    assert!(t.hidden("e1e3").is_empty());
    t.assert_legal("e1e3");
}

#[test]
fn a4_1_1_a_certain_pin_keeps_the_man_on_its_line_and_locates_the_pinner() {
    // The bishop on c3 pins the bishop on d2; the pawn on b4 leaves c3 the only square
    // beyond d2 on the diagonal.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/1P6/R1b5/2PB4/4K3 w - - 0 1");
    // d2e3 goes to a neighbouring square: only a pin can make it illegal.
    assert!(!t.play("d2e3"));
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert!(inference.certain_pins().contains(Square::D2));
    assert_eq!(inference.pinner_sites(), Square::C3.into());
    // Off the pin line: hidden, illegal.
    for off in ["d2c1", "d2f4", "d2g5"] {
        assert!(t.hidden(off).contains(&FilterId::A4_1_1), "{off}");
        t.assert_illegal(off);
    }
    // Taking the pinner stays offered and is legal.
    assert!(t.hidden("d2c3").is_empty());
    t.assert_legal("d2c3");
    // The rook does not pass the pinner, the pawn does not advance onto it.
    for blocked in ["a3d3", "a3h3", "c2c3"] {
        assert!(t.hidden(blocked).contains(&FilterId::A4_1_1), "{blocked}");
        t.assert_illegal(blocked);
    }
    assert!(t.hidden("a3c3").is_empty());
    t.assert_legal("a3c3");
}

#[test]
fn a4_1_1_a_rejected_knight_move_freezes_the_knight_and_a_far_rejection_proves_nothing() {
    // The knight on d2 is pinned by the bishop on a5; any knight move out of check that is
    // rejected proves the pin. Three squares lie beyond it: the pinner is not located.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1");
    assert!(!t.play("d2f3"));
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert!(inference.certain_pins().contains(Square::D2));
    assert!(inference.pinner_sites().is_empty());
    for other in ["d2b3", "d2c4", "d2e4", "d2b1", "d2f1"] {
        assert!(t.hidden(other).contains(&FilterId::A4_1_1), "{other}");
        t.assert_illegal(other);
    }
    // A rejected bishop move two squares away may be blocked: no certain pin.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/4n3/3B4/4K3 w - - 0 1");
    assert!(!t.play("d2f4"));
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert!(inference.certain_pins().is_empty());
    assert!(!t.hidden("d2c1").contains(&FilterId::A4_1_1));
    t.assert_legal("d2c1");
}

#[test]
fn a4_2_a_rejected_capture_onto_the_attacker_site_freezes_the_pawn_off_its_pin_line() {
    // Black's knight takes on e3; the pawn on d2 is pinned by the bishop on a5. Berkeley has
    // no pawn-capture announcement, so d2xe3 is tried and rejected as illegal.
    let mut t = Table::from_fen(RuleSet::BERKELEY, "4k3/8/8/b7/6n1/4N3/3P4/4K3 b - - 0 1");
    t.line(&["g4e3"]);
    assert!(!t.play("d2e3"));
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(inference.attacker_site(), Some(Square::E3));
    assert!(inference.frozen_pawns().contains(Square::D2));
    for off in ["d2d3", "d2d4"] {
        assert_eq!(t.hidden(off), [FilterId::A4_2], "{off}");
        t.assert_illegal(off);
    }
    // Its capture along the pin line is not frozen.
    assert!(!t.hidden("d2c3").contains(&FilterId::A4_2));
    // An unpinnable pawn's rejected capture never freezes it (it cannot be rejected: legal).
    let mut t = Table::from_fen(RuleSet::BERKELEY, "4k3/8/8/8/6n1/4N3/3P4/2K5 b - - 0 1");
    t.line(&["g4e3"]);
    t.assert_legal("d2e3");
    assert!(t.play("d2e3"));
}

#[test]
fn a3_and_a4_1_1_apply_c4_to_the_squares_they_show_held() {
    // Sonar: e4-e5 is rejected (a knight stands on e5); the one try is d4xe5, the only
    // certain capture onto a held square, so no other capture is offered.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/4n3/3PP3/8/6P1/7K w - - 0 1");
    assert_eq!(t.mover().turn().pawn_tries, Some(1));
    assert!(!t.hidden("g2f3").contains(&FilterId::A3));
    assert!(!t.play("e4e5"));
    for other in ["g2f3", "g2h3", "d4c5", "e4d5", "e4f5"] {
        assert!(t.hidden(other).contains(&FilterId::A3), "{other}");
        t.assert_illegal(other);
    }
    assert!(t.hidden("d4e5").is_empty());
    t.assert_legal("d4e5");
    // Pinner: the bishop on d2 is certainly pinned and c3 holds the pinner; the one try is
    // b2xc3.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/1P6/R1b5/1PPB4/4K3 w - - 0 1");
    assert_eq!(t.mover().turn().pawn_tries, Some(1));
    assert!(!t.play("d2e3"));
    for other in ["c2b3", "c2d3", "b4a5", "b4c5"] {
        assert!(t.hidden(other).contains(&FilterId::A4_1_1), "{other}");
        t.assert_illegal(other);
    }
    assert!(t.hidden("b2c3").is_empty());
    t.assert_legal("b2c3");
    // Two tries but one certain capture onto the held square: nothing follows.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/4n3/3PP3/7p/6P1/7K w - - 0 1");
    assert_eq!(t.mover().turn().pawn_tries, Some(2));
    assert!(!t.play("e4e5"));
    assert!(!t.hidden("g2h3").contains(&FilterId::A3));
    t.assert_legal("g2h3");
}

#[test]
fn b4_bounds_pawn_captures_by_enemy_reachability() {
    // Berkeley says nothing about pawn captures, so only B4 can hide them.
    let mut t = Table::standard(RuleSet::BERKELEY);
    assert_eq!(t.hidden("e2d3"), [FilterId::B4]);
    t.line(&["e2e4", "e7e6", "d2d4"]);
    // Black, two White moves made: a bishop can be on a6, nothing on c6.
    assert!(t.hidden("b7a6").is_empty());
    assert_eq!(t.hidden("b7c6"), [FilterId::B4]);
    t.line(&["f8a3"]);
    // White's third turn: the bishop can be on a3 (it is), nothing can be on c3.
    assert!(t.hidden("b2a3").is_empty());
    t.assert_legal("b2a3");
    assert_eq!(t.hidden("b2c3"), [FilterId::B4]);
    // Not from a set-up position, where the enemy's start is unknown.
    let t = Table::from_fen(
        RuleSet::BERKELEY,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(t.hidden("e2d3").is_empty());
}

#[test]
fn c1_follows_the_pawn_capture_announcement_of_each_rule_set() {
    let t = Table::standard(RuleSet::WILD16);
    assert!(t.hidden("e2d3").contains(&FilterId::C1));
    // RAND names the pawns that have tries: e4 has one (exd5), a2 has none.
    let t = Table::from_fen(RuleSet::RAND, "4k3/8/8/3p4/4P3/8/P7/4K3 w - - 0 1");
    assert!(t.hidden("a2b3").contains(&FilterId::C1));
    assert!(t.hidden("e4d5").is_empty());
    assert!(!t.hidden("e4f5").contains(&FilterId::C1));
    // Berkeley says nothing: C1 never applies.
    let t = Table::from_fen(RuleSet::BERKELEY, "4k3/8/8/3p4/4P3/8/P7/4K3 w - - 0 1");
    assert!(!t.hidden("a2b3").contains(&FilterId::C1));
}

/// Black's bishop takes the knight on d4; White knows an enemy man stands there.
fn bishop_took_on_d4() -> Table {
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/6b1/8/8/R2N4/4P3/1P1P4/7K b - - 0 1");
    t.line(&["g7d4"]);
    t
}

#[test]
fn c2_c3_sliders_and_pawns_stop_at_the_attacker_site() {
    let t = bishop_took_on_d4();
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(inference.attacker_site(), Some(Square::D4));
    for beyond in ["a4e4", "a4h4"] {
        assert!(t.hidden(beyond).contains(&FilterId::C2), "{beyond}");
        t.assert_illegal(beyond);
    }
    assert!(t.hidden("a4d4").is_empty());
    t.assert_legal("a4d4");
    assert!(t.hidden("d2d4").contains(&FilterId::C3));
    t.assert_illegal("d2d4");
    assert!(t.hidden("d2d3").is_empty());
}

#[test]
fn c4_tries_accounted_for_by_captures_on_the_attacker_site() {
    let t = bishop_took_on_d4();
    assert_eq!(t.mover().turn().pawn_tries, Some(1));
    for other in ["b2c3", "b2a3", "d2c3", "e3f4"] {
        assert!(t.hidden(other).contains(&FilterId::C4), "{other}");
        t.assert_illegal(other);
    }
    assert!(t.hidden("e3d4").is_empty());
    t.assert_legal("e3d4");
}

#[test]
fn c4_does_not_count_a_capture_that_a_pin_may_forbid() {
    // The pawn on e3 stands on the king's file with room beyond: its capture onto d4 may be
    // illegal, so one try does not prove that the other captures are illegal.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/6b1/8/8/3N4/4P3/1P6/4K3 b - - 0 1");
    t.line(&["g7d4"]);
    assert_eq!(t.mover().turn().pawn_tries, Some(1));
    assert!(!t.hidden("b2c3").contains(&FilterId::C4));
}

#[test]
fn c5_no_capture_onto_the_square_of_a_pawn_just_taken_en_passant() {
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/8/3p4/5P2/4P3/4K3 w - - 0 1");
    t.line(&["e2e4", "d4e3"]);
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(inference.vacated_site(), Some(Square::E4));
    assert_eq!(inference.attacker_site(), Some(Square::E3));
    assert!(t.hidden("f3e4").contains(&FilterId::C5));
    t.assert_illegal("f3e4");
    // Where en passant is not announced the capture may have been either: no site at all.
    let mut t = Table::from_fen(RuleSet::BERKELEY, "4k3/8/8/8/3p4/5P2/4P3/4K3 w - - 0 1");
    t.line(&["e2e4", "d4e3"]);
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(inference.attacker_site(), None);
    assert_eq!(inference.vacated_site(), None);
}

#[test]
fn c6_in_check_only_king_moves_or_moves_onto_check_sites() {
    // File check from e8.
    let t = Table::from_fen(RuleSet::WILD16, "4r2k/8/8/8/8/R7/8/R3K3 w Q - 0 1");
    assert!(t.hidden("a3e3").is_empty());
    t.assert_legal("a3e3");
    for off in ["a3a4", "a3b3", "a1b1"] {
        assert!(t.hidden(off).contains(&FilterId::C6), "{off}");
        t.assert_illegal(off);
    }
    assert!(t.hidden("e1c1").contains(&FilterId::C6));
    assert!(!t.hidden("e1d1").contains(&FilterId::C6));
    // A pawn check answered en passant: the capture lands off the line but takes the checker.
    let mut t = Table::from_fen(RuleSet::WILD16, "4k3/2p5/8/1P6/3K4/8/8/8 b - - 0 1");
    t.line(&["c7c5"]);
    assert!(!t.mover().turn().checks.is_empty());
    assert!(!t.hidden("b5c6").contains(&FilterId::C6));
    t.assert_legal("b5c6");
}

#[test]
fn c6_1_double_check_leaves_only_king_moves() {
    // The knight leaves the e-file with check: knight check and file check.
    let mut t = Table::from_fen(RuleSet::WILD16, "4r2k/8/8/4n3/8/8/8/R3K3 b Q - 0 1");
    t.line(&["e5d3"]);
    assert_eq!(t.mover().turn().checks.len(), 2);
    assert!(t.hidden("a1a2").contains(&FilterId::C6_1));
    t.assert_illegal("a1a2");
    assert!(t.hidden("e1c1").contains(&FilterId::C6_1));
    assert!(!t.hidden("e1d2").contains(&FilterId::C6_1));
}

#[test]
fn c7_pawns_do_not_advance_onto_a_terminal_check_site() {
    // Rank check from h5 against the king on a5.
    let t = Table::from_fen(RuleSet::WILD16, "4k3/8/8/K6r/6PP/8/8/8 w - - 0 1");
    assert!(t.hidden("h4h5").contains(&FilterId::C7));
    t.assert_illegal("h4h5");
    assert!(t.hidden("g4g5").is_empty());
    t.assert_legal("g4g5");
}

#[test]
fn c8_c9_check_by_the_capturing_man() {
    // The rook takes the knight on e5 and checks the king on e2 from three squares away.
    let mut t = Table::from_fen(RuleSet::WILD16, "4r2k/R7/8/4N3/6R1/8/4K3/8 b - - 0 1");
    t.line(&["e8e5"]);
    let inference = GuidedSpace::new(t.mover(), FilterSet::all())
        .inference()
        .clone();
    assert_eq!(inference.attacker_site(), Some(Square::E5));
    assert!(inference.checker_sites().is_some());
    // C8: neither toward nor away along the file.
    for step in ["e2e3", "e2e1"] {
        assert!(t.hidden(step).contains(&FilterId::C8), "{step}");
        t.assert_illegal(step);
    }
    assert!(!t.hidden("e2d2").contains(&FilterId::C8));
    t.assert_legal("e2d2");
    // C9: e7 is on the visible file (C6 allows it) but beyond the checker.
    assert_eq!(t.hidden("a7e7"), [FilterId::C9]);
    t.assert_illegal("a7e7");
    assert!(t.hidden("g4e4").is_empty());
    t.assert_legal("g4e4");
    // Seed 000's implemented rules do not know it.
    assert!(
        why_hidden(
            t.mover(),
            &FilterSet::seed000_implemented(),
            "a7e7".parse().unwrap()
        )
        .is_empty()
    );
}

#[test]
fn guided_options_is_the_own_board_minus_what_is_hidden() {
    let t = bishop_took_on_d4();
    let mut own = AttemptList::new();
    let mut guided = AttemptList::new();
    t.mover().options(&mut own);
    umpire_view::guided::guided_options(t.mover(), &FilterSet::own_board_only(), &mut guided);
    assert_eq!(own.len(), guided.len());
    guided.clear();
    umpire_view::guided::guided_options(t.mover(), &FilterSet::all_sound(), &mut guided);
    assert!(guided.len() < own.len());
    for a in &own {
        assert_eq!(
            guided.contains(a),
            why_hidden(t.mover(), &FilterSet::all_sound(), *a).is_empty(),
            "{a}"
        );
    }
    // Not the player's turn: nothing offered.
    let other = &t.views[1];
    guided.clear();
    assert!(!umpire_view::guided::guided_options(
        other,
        &FilterSet::all(),
        &mut guided
    ));
    assert!(guided.is_empty());
}

#[test]
fn filter_ids_and_presets() {
    for id in FilterId::ALL {
        assert_eq!(FilterId::from_name(id.as_str()), Some(id));
        assert!(!id.filter().summary.is_empty());
    }
    assert_eq!(FilterId::from_name("c6.1"), Some(FilterId::C6_1));
    assert!(!FilterSet::all_sound().contains(FilterId::A4_1));
    assert!(FilterSet::all().contains(FilterId::A4_1));
    assert_eq!(FilterSet::default(), FilterSet::all_sound());
    let seed: Vec<&str> = FilterSet::seed000_implemented()
        .iter()
        .map(FilterId::as_str)
        .collect();
    assert_eq!(
        seed,
        [
            "A1", "A2", "B1", "B2", "B3", "B4", "C1", "C2", "C3", "C4", "C5", "C6", "C7"
        ]
    );
}
