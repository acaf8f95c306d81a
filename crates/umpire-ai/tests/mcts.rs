//! The `mcts` agent and the tablebase endgame wrapper: complete games under every rule set,
//! choices that depend only on observations, hand-built positions (mate in one, a hanging
//! queen, tablebase endings against every defence).
//!
//! `UMPIRE_MCTS_GAMES` (default 1) sets the games per rule set of the first test.

use std::collections::HashSet;

use umpire_ai::endgame::{Endgame, EndgameConfig};
use umpire_ai::mcts::{MctsAgent, MctsConfig, Opponent, Variant};
use umpire_ai::{Agent, AgentConfig, AgentKind, Budget, RandomAgent, play_match, setup_view};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{Bitboard, Chess, Color, EnPassantMode, Position, Role};
use umpire_rules::{Command, EndReason, RuleSet, RuleSetId, Umpire, Verdict};
use umpire_testkit::pairing::{PairConfig, paired_game};
use umpire_view::PlayerView;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

use umpire_testkit::pos;

fn config(nodes: u64, variant: Variant) -> MctsConfig {
    MctsConfig {
        budget: Budget::Nodes(nodes),
        variant,
        ..MctsConfig::default()
    }
}

/// An mcts agent for `side` in a game set up from `start`, which it is told.
fn mcts_at(start: &Chess, side: Color, seed: u64, cfg: MctsConfig) -> MctsAgent {
    MctsAgent::new(
        setup_view(RuleSet::WILD16, start, side),
        seed,
        Some(start.clone()),
        cfg,
    )
}

/// Submits the agent's commands until one is accepted (or the game ends); returns the
/// accepted command, if any, and asserts no command is refused as impossible or repeated.
fn play_turn(umpire: &mut Umpire, agent: &mut dyn Agent, other: &mut dyn Agent) -> Option<Command> {
    let side = agent.view().side();
    for _ in 0..200 {
        let command = agent.choose();
        let outcome = umpire.submit(command);
        assert!(
            !matches!(
                outcome.verdict,
                Verdict::Impossible | Verdict::Repeat | Verdict::Invalid(_)
            ),
            "{command:?} refused: {:?}",
            outcome.verdict
        );
        umpire_ai::play_observations(agent, side, command, &outcome).unwrap();
        umpire_ai::play_observations(other, !side, command, &outcome).unwrap();
        if outcome.verdict == Verdict::Accepted || umpire.is_over() {
            return Some(command);
        }
    }
    None
}

/// Asserts that `0`'s commands are never impossible, repeated or refused.
struct NoRefusal(Color);

impl umpire_ai::Watcher<Umpire> for NoRefusal {
    fn before(&mut self, _table: &Umpire, _mover: &dyn Agent) {}

    fn after(&mut self, table: &Umpire, command: Command, outcome: &umpire_rules::Outcome) {
        if outcome.side == self.0 {
            assert!(
                !matches!(
                    outcome.verdict,
                    Verdict::Impossible | Verdict::Repeat | Verdict::Invalid(_)
                ),
                "{:?} at ply {}: {command:?} refused ({:?})",
                table.rules().id,
                table.plies(),
                outcome.verdict
            );
        }
    }
}

#[test]
fn mcts_plays_complete_games_under_every_rule_set() {
    let games = env("UMPIRE_MCTS_GAMES", 1);
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for g in 0..games {
            for side in [Color::White, Color::Black] {
                let cfg = AgentConfig {
                    budget: Budget::Nodes(24),
                    ..AgentConfig::default()
                };
                let mut me = AgentKind::Mcts.build(PlayerView::standard(rules, side), g, &cfg);
                let mut other = RandomAgent::new(PlayerView::standard(rules, !side), g + 99);
                let mut umpire = Umpire::new(rules);
                let agents: [&mut dyn Agent; 2] = if side == Color::White {
                    [me.as_mut(), &mut other]
                } else {
                    [&mut other, me.as_mut()]
                };
                let mut refused = NoRefusal(side);
                let stats = play_match(&mut umpire, agents, 300, &mut refused).unwrap();
                assert!(stats.plies > 0, "{id} {side:?}");
                // Agents are fed only observations; the mcts agent's view matches the truth.
                assert_eq!(
                    me.view().own_board(),
                    &umpire_rules::OwnBoard::of(umpire.position(), side),
                    "{id}"
                );
                if let Some(a) = me.analysis() {
                    assert!((-1.0..=1.0).contains(&a.value), "{id}: {}", a.value);
                }
            }
        }
    }
}

/// The agent's choice, from a player's filtered record alone: a fresh agent (fixed seed, node
/// budget) fed the record's observations, asked for its command on its turn.
fn choice_bytes(record: &umpire_rules::record::PlayerView) -> Vec<u8> {
    let view = PlayerView::at_start_of(record);
    if !view.standard_start() {
        return b"set-up".to_vec();
    }
    let cfg = MctsConfig {
        belief_bound: 64,
        ..config(48, Variant::TreeAverage)
    };
    let mut agent = Endgame::new(MctsAgent::new(view, 5, Some(Chess::default()), cfg));
    for obs in &record.observations {
        agent.observe(obs).unwrap();
    }
    if !agent.view().is_my_turn() || agent.view().result().is_some() {
        return b"waiting".to_vec();
    }
    let command = agent.choose();
    let mut out = command.to_text().into_bytes();
    if let Some(a) = agent.analysis() {
        out.extend(format!(" {:.12} {} {:?}", a.value, a.nodes, a.line).bytes());
    }
    out
}

#[test]
fn paired_histories_give_the_agent_the_same_choices() {
    let seeds = env("UMPIRE_MCTS_PAIRED_SEEDS", 1);
    let mut apart = 0;
    for id in [RuleSetId::Wild16, RuleSetId::BerkeleyAny] {
        for observer in [Color::White, Color::Black] {
            for seed in 0..seeds {
                let cfg = PairConfig {
                    rules: *id.rules(),
                    fen: None,
                    observer,
                    seed: seed * 11 + 3,
                    max_commands: 40,
                };
                let ex = paired_game(&cfg, |a, b, ctx| {
                    let (x, y) = (choice_bytes(a), choice_bytes(b));
                    assert!(
                        x == y,
                        "{id} {observer:?} {ctx}: the agent's choice differs:\n{}\n----\n{}",
                        String::from_utf8_lossy(&x),
                        String::from_utf8_lossy(&y)
                    );
                });
                apart += ex.plies_apart;
            }
        }
    }
    assert!(apart > 0, "the paired games never parted");
}

#[test]
fn mate_in_one_is_found_when_certain() {
    for variant in Variant::ALL {
        for (fen, mate) in [
            ("7k/Q7/5K2/8/8/8/8/8 w - - 0 1", "a7g7"),
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"),
            ("r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1"),
        ] {
            let start = pos(fen);
            let side = start.turn();
            for seed in 0..3 {
                let mut agent = mcts_at(&start, side, seed, config(3000, variant));
                let command = agent.choose();
                assert_eq!(command.to_text(), mate, "{variant} {fen} seed {seed}");
                let a = agent.analysis().unwrap();
                assert!(a.value > 0.9, "{variant} {fen}: value {}", a.value);
                assert_eq!(a.line[0], command);
            }
        }
    }
}

#[test]
fn a_hanging_queen_is_not_left_en_prise_after_an_announced_capture() {
    // Black's rook takes on d5, announced; from there it attacks the white queen on d1.
    let start = pos("6k1/5ppp/8/r2P4/8/8/5PPP/3Q2K1 b - - 0 1");
    for variant in Variant::ALL {
        for seed in 0..3 {
            let mut umpire = Umpire::from_position(RuleSet::WILD16, start.clone()).unwrap();
            let mut white = mcts_at(&start, Color::White, seed, config(2000, variant));
            let mut black = RandomAgent::new(setup_view(RuleSet::WILD16, &start, Color::Black), 0);
            let capture = Command::Attempt("a5d5".parse().unwrap());
            let outcome = umpire.submit(capture);
            assert_eq!(outcome.verdict, Verdict::Accepted);
            umpire_ai::play_observations(&mut white, Color::White, capture, &outcome).unwrap();
            umpire_ai::play_observations(&mut black, Color::Black, capture, &outcome).unwrap();
            play_turn(&mut umpire, &mut white, &mut black).unwrap();
            let after = umpire.position();
            let queen = after.board().queens() & after.board().white();
            assert!(queen.any(), "{variant} seed {seed}: the queen is gone");
            let takes_queen = after
                .legal_moves()
                .iter()
                .any(|m| m.capture() == Some(Role::Queen));
            assert!(
                !takes_queen,
                "{variant} seed {seed}: the queen is en prise after {}",
                Fen::from_position(after, EnPassantMode::Legal)
            );
        }
    }
}

#[test]
fn the_search_looks_beyond_its_first_move_when_pawn_captures_are_ruled_out() {
    // At the start every pawn has an empty diagonal, and no pawn try has been heard: the
    // umpire calls those captures impossible below the root. They must not end the search
    // there: the principal line goes on to the agent's later commands.
    let start = Chess::default();
    for variant in Variant::ALL {
        for seed in 0..2 {
            let mut agent = mcts_at(&start, Color::White, seed, config(2000, variant));
            agent.choose();
            let a = agent.analysis().unwrap();
            assert!(
                a.line.len() >= 3,
                "{variant} seed {seed}: line {:?}",
                a.line
            );
        }
    }
}

#[test]
fn the_adversarial_opponent_model_sees_the_fork_that_a_near_random_one_misses() {
    // Qxd4 wins a rook, but Ne2+ forks the king and the queen, and Nxd4 follows. The
    // near-random reply model (the best capture, else any move) rarely finds the quiet fork;
    // the bandit tries the check early and learns that it refutes the capture. The queen
    // falls only after White's retries under check, so both search through them instead of
    // scoring them (with them scored, 3,000 nodes do not reach the capture).
    let start = pos("6k1/5p1p/6p1/8/3r1n2/8/5P1P/Q5K1 w - - 0 1");
    let trap = "a1d4";
    let through = MctsConfig {
        score_rejections: false,
        ..config(3000, Variant::TreeAverage)
    };
    let mut policy_took = 0;
    for seed in 0..3 {
        let policy = MctsConfig {
            opponent: Opponent::Policy,
            ..through
        };
        let mut agent = mcts_at(&start, Color::White, seed, policy);
        policy_took += usize::from(agent.choose().to_text() == trap);
        let mut agent = mcts_at(&start, Color::White, seed, through);
        let command = agent.choose();
        assert_ne!(command.to_text(), trap, "seed {seed}: walked into the fork");
    }
    // The position tells the two models apart: the near-random model takes the rook.
    assert!(
        policy_took >= 2,
        "the policy model took the rook {policy_took} times of 3"
    );
}

/// Plays the table side (White's agent, `Endgame` around a random agent) against every black
/// reply, depth first, with a transposition set on (position, tracked set). Returns the
/// number of lines ending in mate; asserts every line does, within `max_moves` White moves.
fn every_defence(
    umpire: &Umpire,
    agent: &Endgame<RandomAgent>,
    moves: u32,
    max_moves: u32,
    seen: &mut HashSet<(String, Option<u64>)>,
) -> u64 {
    let fen = Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string();
    if !seen.insert((fen.clone(), agent.tracked_set())) {
        return 0;
    }
    assert!(moves < max_moves, "no mate within {max_moves} moves: {fen}");
    let mut umpire = umpire.clone();
    let mut agent = agent.clone();
    let mut black = RandomAgent::new(
        PlayerView::new(
            RuleSet::WILD16,
            umpire_rules::OwnBoard::of(umpire.position(), Color::Black),
            Color::White,
            umpire_rules::EnemyCount::told(umpire.position(), Color::Black).into(),
        ),
        0,
    );
    let before = agent.table_moves();
    play_turn(&mut umpire, &mut agent, &mut black).expect("an accepted move");
    assert!(
        agent.table_moves() > before,
        "the table did not choose at {fen}"
    );
    if let Some(result) = umpire.result() {
        assert_eq!(result.winner, Some(Color::White), "{fen}: {result:?}");
        assert_eq!(result.reason, EndReason::Checkmate, "{fen}");
        return 1;
    }
    let mut mates = 0;
    for m in umpire.legal_moves() {
        let mut u = umpire.clone();
        let mut a = agent.clone();
        let command = Command::Attempt(umpire_rules::Attempt::from_move(&m).unwrap());
        let outcome = u.submit(command);
        assert_eq!(outcome.verdict, Verdict::Accepted);
        umpire_ai::play_observations(&mut a, Color::White, command, &outcome).unwrap();
        assert!(!u.is_over(), "black drew by {m}");
        mates += every_defence(&u, &a, moves + 1, max_moves, seen);
    }
    mates
}

#[test]
fn tablebase_endings_mate_against_every_defence() {
    for (fen, max_moves) in [
        ("k7/8/1K6/8/8/8/7Q/8 w - - 0 1", 1),
        ("8/8/8/8/4k3/8/7Q/4K3 w - - 0 1", 12),
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1),
        ("3k4/8/2K5/8/8/8/8/7R w - - 0 1", 8),
        // Black's view mirrored.
        ("6q1/8/8/8/8/1k6/8/K7 b - - 0 1", 1),
    ] {
        let start = pos(fen);
        let side = start.turn();
        let lone = start.board().king_of(!side).unwrap();
        let inner = RandomAgent::new(setup_view(RuleSet::WILD16, &start, side), 1);
        let agent = Endgame::knowing(
            inner,
            EndgameConfig::default(),
            Bitboard::from_square(lone).0,
        );
        let umpire = Umpire::from_position(RuleSet::WILD16, start.clone()).unwrap();
        if side == Color::White {
            let mut seen = HashSet::new();
            let mates = every_defence(&umpire, &agent, 0, max_moves, &mut seen);
            assert!(mates > 0, "{fen}");
        } else {
            // One move: the mirrored table mates at once.
            let mut agent = agent;
            let mut white = RandomAgent::new(setup_view(RuleSet::WILD16, &start, Color::White), 0);
            let mut umpire = umpire;
            play_turn(&mut umpire, &mut agent, &mut white).unwrap();
            let result = umpire.result().expect("mate");
            assert_eq!(result.winner, Some(Color::Black), "{fen}");
            assert_eq!(result.reason, EndReason::Checkmate, "{fen}");
        }
    }
}

#[test]
fn a_table_ending_is_recognised_only_against_a_lone_king_under_wild16() {
    use umpire_ai::endgame::table_position;
    let cfg = EndgameConfig::default();
    let krk = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    assert!(table_position(&setup_view(RuleSet::WILD16, &krk, Color::White), cfg).is_some());
    assert!(table_position(&setup_view(RuleSet::WILD16, &krk, Color::Black), cfg).is_none());
    let other_rules = RuleSetId::ALL
        .into_iter()
        .find(|id| *id != RuleSetId::Wild16)
        .unwrap();
    assert!(table_position(&setup_view(*other_rules.rules(), &krk, Color::White), cfg).is_none());
    let with_pawn = pos("k7/7p/1K6/8/8/8/8/7R w - - 0 1");
    assert!(table_position(&setup_view(RuleSet::WILD16, &with_pawn, Color::White), cfg).is_none());
    let kbnk = pos("k7/8/1K6/8/8/8/8/5BN1 w - - 0 1");
    assert!(table_position(&setup_view(RuleSet::WILD16, &kbnk, Color::White), cfg).is_some());
    let off = EndgameConfig {
        kbnk: false,
        ..EndgameConfig::default()
    };
    assert!(table_position(&setup_view(RuleSet::WILD16, &kbnk, Color::White), off).is_none());
}

#[test]
fn node_budgets_make_the_agent_deterministic() {
    let rules = RuleSet::WILD16;
    let run = || {
        let mut umpire = Umpire::new(rules);
        let mut white = AgentKind::Mcts.build(
            PlayerView::standard(rules, Color::White),
            3,
            &AgentConfig {
                budget: Budget::Nodes(40),
                ..AgentConfig::default()
            },
        );
        let mut black = RandomAgent::new(PlayerView::standard(rules, Color::Black), 4);
        let mut values = Vec::new();
        struct Log<'a>(&'a mut Vec<String>);
        impl umpire_ai::Watcher<Umpire> for Log<'_> {
            fn after(&mut self, _t: &Umpire, c: Command, o: &umpire_rules::Outcome) {
                self.0.push(format!("{} {:?}", c.to_text(), o.verdict));
            }
        }
        play_match(
            &mut umpire,
            [white.as_mut(), &mut black],
            60,
            &mut Log(&mut values),
        )
        .unwrap();
        values.push(format!("{:?}", white.analysis()));
        values
    };
    assert_eq!(run(), run());
}

/// Counts the "Any?" questions `0` asks and the decisions it searched.
struct Questions {
    side: Color,
    asked: u32,
    decisions: u32,
    searched: u32,
}

impl umpire_ai::Watcher<Umpire> for Questions {
    fn before(&mut self, _table: &Umpire, mover: &dyn Agent) {
        if mover.view().side() == self.side {
            self.decisions += 1;
            self.searched += u32::from(mover.analysis().is_some_and(|a| a.nodes > 0));
        }
    }

    fn after(&mut self, _table: &Umpire, command: Command, outcome: &umpire_rules::Outcome) {
        if outcome.side == self.side && command == Command::AskAny {
            assert_eq!(outcome.verdict, Verdict::Answered);
            self.asked += 1;
        }
    }
}

/// Under the rule sets where the player asks "Any?" and hears every rejected attempt of the
/// opponent (Berkeley with "Any?", English), mcts plays a whole game against a random mover
/// through its observations alone, asks "Any?", keeps its belief to the end (no turn with many
/// heard rejections makes it give up: a belief that dies is restarted from a guess, whose enemy
/// king is moved off squares our men now attack; with seeds 4 and 6 it was lost before that) and
/// searches most of its decisions.
#[test]
fn mcts_keeps_its_belief_and_asks_any_under_berkeley_any_and_english() {
    for id in [RuleSetId::BerkeleyAny, RuleSetId::English] {
        let rules = *id.rules();
        for (side, seed) in [Color::White, Color::Black]
            .into_iter()
            .flat_map(|side| [4, 6].map(|seed| (side, seed)))
        {
            let mut me = MctsAgent::new(
                PlayerView::standard(rules, side),
                seed,
                Some(Chess::default()),
                config(60, Variant::TreeAverage),
            );
            let mut other = RandomAgent::new(PlayerView::standard(rules, !side), 17);
            let mut umpire = Umpire::new(rules);
            let mut watch = Questions {
                side,
                asked: 0,
                decisions: 0,
                searched: 0,
            };
            let agents: [&mut dyn Agent; 2] = if side == Color::White {
                [&mut me, &mut other]
            } else {
                [&mut other, &mut me]
            };
            let stats = play_match(&mut umpire, agents, 160, &mut watch).unwrap();
            assert!(stats.plies > 0, "{id} {side:?}");
            assert_eq!(
                me.view().own_board(),
                &umpire_rules::OwnBoard::of(umpire.position(), side),
                "{id}"
            );
            assert!(watch.asked > 0, "{id} {side:?}: never asked Any?");
            let belief = me.belief().expect("the belief is kept");
            // Alive: holding positions, or empty for a ply or two while a repair from its
            // recent checkpoints is under way (the agent plans from a fallback meanwhile).
            assert!(!belief.is_dead(), "{id} {side:?}: the belief died");
            assert!(
                belief.held() > 0 || !belief.is_exact(),
                "{id} {side:?}: an empty exact belief is never repaired"
            );
            if !umpire.is_over() && me.reseeds() == 0 {
                assert!(
                    belief.contains(umpire.position()) || !belief.is_exact(),
                    "{id} {side:?}: an exact belief must hold the true position"
                );
            }
            assert!(
                watch.searched * 2 >= watch.decisions,
                "{id} {side:?}: searched {} of {} decisions",
                watch.searched,
                watch.decisions
            );
        }
    }
}
