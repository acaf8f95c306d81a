//! [`Backend`] on CaDiCaL through the `cadical` crate (C++, built by `cc`); behind the
//! `cadical` feature, for the solver comparison in `docs/BENCHMARKS.md`.

use crate::backend::{Backend, Lit};

/// CaDiCaL with a copy of the last model.
pub struct Cadical {
    solver: cadical::Solver,
    model: Vec<bool>,
}

fn dimacs(lit: Lit) -> i32 {
    let v = lit.var() as i32 + 1;
    if lit.is_neg() { -v } else { v }
}

impl Backend for Cadical {
    fn with_vars(vars: u32) -> Cadical {
        let mut solver = cadical::Solver::new();
        solver.reserve(vars as i32);
        Cadical {
            solver,
            model: vec![false; vars as usize],
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.solver.add_clause(lits.iter().map(|&l| dimacs(l)));
    }

    fn solve(&mut self, assumptions: &[Lit]) -> bool {
        let sat = self
            .solver
            .solve_with(assumptions.iter().map(|&l| dimacs(l)))
            == Some(true);
        if sat {
            for (v, value) in self.model.iter_mut().enumerate() {
                *value = self.solver.value(v as i32 + 1) == Some(true);
            }
        }
        sat
    }

    fn value(&self, var: u32) -> bool {
        self.model[var as usize]
    }

    fn name(&self) -> &'static str {
        "CaDiCaL (cadical 0.1)"
    }
}
