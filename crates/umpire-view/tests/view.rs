//! A player's view agrees with the truth wherever the player can know it, and depends on
//! nothing else.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::playout::random_game;
use umpire_rules::shakmaty::{Color, Position, Role};
use umpire_rules::{AttemptList, Command, OwnBoard, RuleSetId, Umpire, Verdict};
use umpire_view::{PlayerView, ViewError};

fn sorted(list: &AttemptList) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// Plays random games and checks both views after every command.
#[test]
fn views_follow_the_truth_in_random_games_under_every_rule_set() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let mut commands = 0u64;
        for seed in 0..12u64 {
            let mut umpire = Umpire::new(rules);
            let mut views = [
                PlayerView::standard(rules, Color::White),
                PlayerView::standard(rules, Color::Black),
            ];
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            // Drive the umpire with a copy, checking the views against the real one.
            let mut driver = umpire.clone();
            let mut log: Vec<Command> = Vec::new();
            random_game(&mut driver, &mut rng, 300, |command, _| log.push(command));
            for command in log {
                let outcome = umpire.submit(command);
                commands += 1;
                for view in &mut views {
                    if let Some(seen) = outcome.observation(command, view.side()) {
                        view.observe(&seen).unwrap();
                    }
                }
                let pos = umpire.position();
                for view in &views {
                    let side = view.side();
                    let ctx = format!("{id} seed {seed} after {command}");
                    assert_eq!(
                        view.own_board(),
                        &OwnBoard::of(pos, side),
                        "{ctx}: own board"
                    );
                    assert_eq!(view.to_move(), pos.turn(), "{ctx}: turn");
                    assert_eq!(view.result(), umpire.result(), "{ctx}: result");
                    let enemy = pos.board().by_color(!side);
                    assert_eq!(
                        u32::from(view.enemy().men),
                        enemy.count() as u32,
                        "{ctx}: men"
                    );
                    let pawns = (enemy & pos.board().pawns()).count() as u32;
                    assert!(
                        u32::from(view.enemy().pawns_at_most) >= pawns,
                        "{ctx}: pawns"
                    );
                    if view.is_my_turn() {
                        assert_eq!(
                            view.turn().must_try_pawn_capture,
                            umpire.must_try_pawn_capture(),
                            "{ctx}"
                        );
                        let (mut mine, mut theirs) = (AttemptList::new(), AttemptList::new());
                        let may_ask = view.options(&mut mine);
                        assert_eq!(may_ask, umpire.mover_options(&mut theirs), "{ctx}: Any?");
                        // The view offers the umpire's options but those the umpire would judge
                        // impossible from what the mover heard (`umpire_view::ruled_out`).
                        let kept: AttemptList = theirs
                            .iter()
                            .copied()
                            .filter(|&a| {
                                umpire.clone().submit(Command::Attempt(a)).verdict
                                    != Verdict::Impossible
                            })
                            .collect();
                        assert_eq!(sorted(&mine), sorted(&kept), "{ctx}: options");
                        if let Some(tries) = view.turn().pawn_tries {
                            assert_eq!(tries, umpire.pawn_capture_count(), "{ctx}: tries");
                        }
                        if let Some(yes) = view.turn().has_pawn_capture {
                            assert_eq!(yes, umpire.pawn_capture_count() > 0, "{ctx}: yes/no");
                        }
                        assert_eq!(
                            view.turn().checks.len(),
                            pos.checkers().count(),
                            "{ctx}: checks"
                        );
                    }
                }
            }
        }
        assert!(commands > 2000, "{id}: only {commands} commands");
    }
}

/// Issue 31 (`umpire match` looped for ever with an engine that always took `options[0]`): no
/// option a view offers is ever judged `Impossible`. The umpire rules some attempts out from
/// what the mover heard alone (a pawn capture when none was announced, under
/// `pawn_info_binds`; a move that cannot answer the announced check, under `check_binds`), and
/// the view offered them. Each decision tries every option on a copy of the umpire; the game
/// takes the first option (seed 0, as such an engine does) or one at random, and a turn never
/// takes more commands than the options it began with.
#[test]
fn no_option_is_ever_judged_impossible_and_first_option_games_end() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for seed in 0..6u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut umpire = Umpire::new(rules);
            let mut views = [
                PlayerView::standard(rules, Color::White),
                PlayerView::standard(rules, Color::Black),
            ];
            let (mut this_turn, mut turn_began_with) = (0usize, usize::MAX);
            while !umpire.is_over() && umpire.plies() < 200 {
                let mover = usize::from(umpire.turn() == Color::Black);
                let view = &views[mover];
                let mut options = AttemptList::new();
                let may_ask = view.options(&mut options);
                if this_turn == 0 {
                    turn_began_with = options.len() + usize::from(may_ask);
                }
                let ctx = format!("{id} seed {seed} ply {}", umpire.plies());
                for &a in &options {
                    let verdict = umpire.clone().submit(Command::Attempt(a)).verdict;
                    assert_ne!(verdict, Verdict::Impossible, "{ctx}: option {a} offered");
                }
                let command = match (options.len(), may_ask) {
                    (0, true) => Command::AskAny,
                    (0, false) => panic!("{ctx}: nothing to say"),
                    (_, _) if seed == 0 => Command::Attempt(options[0]),
                    (n, _) => Command::Attempt(options[rng.random_range(0..n)]),
                };
                let outcome = umpire.submit(command);
                for view in &mut views {
                    if let Some(seen) = outcome.observation(command, view.side()) {
                        view.observe(&seen).unwrap();
                    }
                }
                this_turn = if outcome.verdict == Verdict::Accepted {
                    0
                } else {
                    this_turn + 1
                };
                assert!(
                    this_turn <= turn_began_with,
                    "{ctx}: {this_turn} commands in a turn that began with {turn_began_with} options"
                );
            }
        }
    }
}

fn play(umpire: &mut Umpire, views: &mut [PlayerView; 2], uci: &str) {
    let command = Command::Attempt(uci.parse().unwrap());
    let outcome = umpire.submit(command);
    for view in views.iter_mut() {
        if let Some(seen) = outcome.observation(command, view.side()) {
            view.observe(&seen).unwrap();
        }
    }
}

/// Two histories that sound the same to White give White identical views; Black's differ.
#[test]
fn a_view_does_not_depend_on_what_its_player_did_not_hear() {
    let rules = *RuleSetId::Wild16.rules();
    let mut a = (
        Umpire::new(rules),
        [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c)),
    );
    let mut b = (
        Umpire::new(rules),
        [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c)),
    );
    for (uci_a, uci_b) in [
        ("e2e4", "e2e4"),
        ("a7a6", "h7h6"),
        ("g1f3", "g1f3"),
        ("b8c6", "g8f6"),
    ] {
        play(&mut a.0, &mut a.1, uci_a);
        play(&mut b.0, &mut b.1, uci_b);
    }
    // White's knight captures nothing on e5 in either history: still nothing to tell apart.
    play(&mut a.0, &mut a.1, "f3e5");
    play(&mut b.0, &mut b.1, "f3e5");
    // Black tries a move its own board rules out; under wild16 only Black hears of it.
    play(&mut a.0, &mut a.1, "e8h5");
    play(&mut b.0, &mut b.1, "e8h5");
    assert_ne!(a.0.position(), b.0.position());
    assert_eq!(
        a.1[0], b.1[0],
        "White heard the same, so White's views must be equal"
    );
    assert_ne!(
        a.1[1], b.1[1],
        "Black's own moves differ, so Black's views must differ"
    );
}

#[test]
fn observations_of_the_other_player_are_refused() {
    let rules = *RuleSetId::Wild16.rules();
    let mut umpire = Umpire::new(rules);
    let command = Command::Attempt("e2e4".parse().unwrap());
    let outcome = umpire.submit(command);
    let for_white = outcome.observation(command, Color::White).unwrap();
    let mut black = PlayerView::standard(rules, Color::Black);
    assert_eq!(
        black.observe(&for_white),
        Err(ViewError::WrongPlayer {
            view: Color::Black,
            observer: Color::White
        })
    );
    assert_eq!(black.transcript().len(), 0);
}

#[test]
fn enemy_pawn_bound_tightens_on_named_captures() {
    let rules = *RuleSetId::Wild16.rules();
    let mut umpire = Umpire::new(rules);
    let mut views = [Color::White, Color::Black].map(|c| PlayerView::standard(rules, c));
    for uci in ["e2e4", "d7d5", "e4d5"] {
        play(&mut umpire, &mut views, uci);
    }
    assert_eq!(views[0].enemy().men, 15);
    assert_eq!(views[0].enemy().pawns_at_most, 7);
    assert_eq!(views[1].own_board().board().by_role(Role::Pawn).count(), 7);
}
