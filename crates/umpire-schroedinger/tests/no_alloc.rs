//! Judging a move allocates nothing outside the SAT solver: every candidate move of random
//! games, judged with and without the stored-world shortcut, counted by a global allocator that
//! tallies allocations made on this thread. The solver itself (batsat) may grow its clause
//! arena and watch lists when it learns a clause; those allocations are counted apart, and
//! must stay rare.

use std::cell::Cell;

use umpire_testkit::counting_alloc::{Counting, allocations};

use umpire_schroedinger::backend::{Backend, Lit};
use umpire_schroedinger::batsat_backend::Batsat;
use umpire_schroedinger::geometry::reach;
use umpire_schroedinger::shakmaty::Bitboard;
use umpire_schroedinger::{Kind, Move, Nature, RandomPlayer, Umpire};

#[global_allocator]
static GLOBAL: Counting = Counting;

thread_local! {
    static IN_SOLVER: Cell<u64> = const { Cell::new(0) };
}

/// Batsat, with the allocations made inside its calls tallied apart.
struct Watched(Batsat);

impl Watched {
    fn tally<T>(f: impl FnOnce() -> T) -> T {
        let before = allocations();
        let out = f();
        let made = allocations() - before;
        IN_SOLVER.with(|n| n.set(n.get() + made));
        out
    }
}

impl Backend for Watched {
    fn with_vars(vars: u32) -> Watched {
        Watched(Batsat::with_vars(vars))
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        Watched::tally(|| self.0.add_clause(lits));
    }
    fn solve(&mut self, assumptions: &[Lit]) -> bool {
        Watched::tally(|| self.0.solve(assumptions))
    }
    fn value(&self, var: u32) -> bool {
        self.0.value(var)
    }
    fn name(&self) -> &'static str {
        "watched batsat"
    }
}

#[test]
fn judging_moves_allocates_nothing_outside_the_solver() {
    let before_any = allocations();
    let probe = vec![1u8; 16];
    assert!(
        allocations() > before_any,
        "the counter must see allocations"
    );
    drop(probe);

    let mut judged = 0u64;
    let mut outside = 0u64;
    let mut solver_allocating = 0u64;
    let mut candidates: Vec<Move> = Vec::with_capacity(512);
    for seed in 0..6 {
        let mut umpire = Umpire::<Watched>::with_backend();
        umpire.set_shortcut(seed % 2 == 0);
        let mut player = RandomPlayer::new(seed);
        for _ in 0..120 {
            candidates.clear();
            let board = umpire.board();
            for (man, from) in board.men(board.turn()) {
                if board.kind(man) != Kind::Pawn {
                    let targets = Nature::ALL.iter().fold(Bitboard::EMPTY, |b, &n| {
                        b | reach(n, from, board.occupied())
                    });
                    candidates.extend(targets.into_iter().map(|to| Move { from, to }));
                }
            }
            for &mv in &candidates {
                let before = allocations();
                let in_solver = IN_SOLVER.with(Cell::get);
                let _ = umpire.judge(mv);
                judged += 1;
                let solver = IN_SOLVER.with(Cell::get) - in_solver;
                outside += allocations() - before - solver;
                solver_allocating += u64::from(solver > 0);
            }
            let Some(mv) = player.choose(&mut umpire) else {
                break;
            };
            umpire.play(mv);
        }
    }
    assert!(judged > 1000, "only {judged} judgements");
    assert_eq!(
        outside, 0,
        "judging allocated {outside} times outside the solver"
    );
    // Learning is rare on these formulas: well under 1 % of judgements grow the solver.
    assert!(
        solver_allocating * 100 < judged,
        "the solver allocated in {solver_allocating} of {judged} judgements"
    );
    eprintln!("{judged} judgements; the solver allocated in {solver_allocating}");
}
