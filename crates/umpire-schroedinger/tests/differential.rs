//! Differential test: the SAT umpire against the brute-force enumeration of every
//! assignment, over random games. At every ply, every move some nature could make (and every
//! pawn move) is judged by both, and both give the possible natures of every man.
//!
//! `UMPIRE_SCH_GAMES` (default 60) and `UMPIRE_SCH_PLIES` (default 60) scale it.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_schroedinger::brute::BruteForce;
use umpire_schroedinger::geometry::{pawn_targets, reach};
use umpire_schroedinger::shakmaty::Bitboard;
use umpire_schroedinger::{CheckStatus, EndReason, Kind, ManId, Move, Nature, Umpire};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every move any nature could make (pawns: their moves and any forward or diagonal step).
fn candidates(umpire: &Umpire) -> Vec<Move> {
    let board = umpire.board();
    let turn = board.turn();
    let mut out = Vec::new();
    for (man, from) in board.men(turn) {
        let targets = match board.kind(man) {
            Kind::Pawn => {
                pawn_targets(turn, from, Bitboard::EMPTY, Bitboard::EMPTY)
                    | umpire_schroedinger::geometry::pawn_attacks(turn, from)
                    | pawn_targets(
                        turn,
                        from,
                        board.occupied_by(turn),
                        board.occupied_by(!turn),
                    )
            }
            _ => Nature::ALL.iter().fold(Bitboard::EMPTY, |b, &n| {
                b | reach(n, from, board.occupied())
            }),
        };
        for to in targets {
            out.push(Move { from, to });
        }
    }
    out
}

fn compare_natures(umpire: &Umpire, brute: &BruteForce, context: &str) {
    for man in ManId::all() {
        assert_eq!(
            umpire.possible_natures(man),
            brute.possible_natures(man),
            "{context}: possible natures of {man}"
        );
    }
}

#[test]
fn sat_umpire_agrees_with_brute_force() {
    let games = env("UMPIRE_SCH_GAMES", 60);
    let plies = env("UMPIRE_SCH_PLIES", 60);
    let mut judged = 0usize;
    let mut illegal = 0usize;
    let mut in_check = [0usize; 3];
    let mut endings = 0usize;
    let mut promotions = 0usize;
    for game in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5C4_0000 + game as u64);
        let mut umpire = Umpire::new();
        // Every other game without the stored-world shortcut: every judgement solves.
        umpire.set_shortcut(game % 2 == 0);
        let mut brute = BruteForce::new();
        let mut history: Vec<Move> = Vec::new();
        for _ in 0..plies {
            let context = format!("game {game}, after {history:?}");
            compare_natures(&umpire, &brute, &context);
            let mut legal = Vec::new();
            if let Some(ending) = umpire.ending() {
                // Only the no-move endings can come up here; fifty quiet moves need more plies.
                let expected = match ending.reason {
                    EndReason::Checkmate => CheckStatus::Always,
                    EndReason::Stalemate => CheckStatus::Never,
                    EndReason::UnprovenMate => CheckStatus::Sometimes,
                    EndReason::FiftyMoves | EndReason::Resignation => break,
                };
                assert_eq!(umpire.check_status(), expected, "{context}: {ending:?}");
                assert!(brute.legal_moves().is_empty(), "{context}: {ending:?}");
            }
            for mv in candidates(&umpire) {
                let sat = umpire.judge(mv).is_legal();
                assert_eq!(sat, brute.is_legal(mv), "{context}: legality of {mv}");
                judged += 1;
                if sat {
                    legal.push(mv);
                } else {
                    illegal += 1;
                }
            }
            let mut listed = Vec::new();
            umpire.legal_moves(&mut listed);
            listed.sort_by_key(|m| (m.from as u8, m.to as u8));
            legal.sort_by_key(|m| (m.from as u8, m.to as u8));
            if umpire.ending().is_none() {
                assert_eq!(listed, legal, "{context}: legal move list");
            }
            let (checked, safe) = brute.check_somewhere();
            let expected = match (checked, safe) {
                (true, true) => CheckStatus::Sometimes,
                (true, false) => CheckStatus::Always,
                _ => CheckStatus::Never,
            };
            assert_eq!(umpire.check_status(), expected, "{context}: check status");
            in_check[expected as usize] += 1;
            if legal.is_empty() || umpire.ending().is_some() {
                endings += 1;
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            let pawn = umpire
                .board()
                .man_at(mv.from)
                .map(|m| umpire.board().kind(m))
                == Some(Kind::Pawn);
            assert!(umpire.play(mv).is_legal());
            assert!(brute.play(mv));
            if pawn
                && umpire.board().man_at(mv.to).map(|m| umpire.board().kind(m))
                    == Some(Kind::Promoted)
            {
                promotions += 1;
            }
            history.push(mv);
        }
        compare_natures(&umpire, &brute, &format!("game {game} at the end"));
    }
    assert!(judged > games * 20, "judged only {judged} moves");
    assert!(illegal > 0, "no illegal candidate was ever judged");
    eprintln!(
        "{games} games: {judged} moves judged ({illegal} illegal); side to move in check never/sometimes/always: {in_check:?}; {endings} games ended, {promotions} promotions"
    );
}
