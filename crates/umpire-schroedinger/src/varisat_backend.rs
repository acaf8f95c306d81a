//! [`Backend`] on `varisat`, a pure-Rust CDCL solver; behind the `varisat` feature, for the
//! solver comparison in `docs/BENCHMARKS.md`.

use varisat::ExtendFormula;

use crate::backend::{Backend, Lit};

/// Varisat with a copy of the last model.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    model: Vec<bool>,
    scratch: Vec<varisat::Lit>,
}

fn lit(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var() as usize, !l.is_neg())
}

impl Backend for Varisat {
    fn with_vars(vars: u32) -> Varisat {
        let mut solver = varisat::Solver::new();
        // Mention every variable once so that models cover them all.
        for v in 0..vars as usize {
            let x = varisat::Lit::from_index(v, true);
            solver.add_clause(&[x, !x]);
        }
        Varisat {
            solver,
            model: vec![false; vars as usize],
            scratch: Vec::with_capacity(256),
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.scratch.clear();
        self.scratch.extend(lits.iter().map(|&l| lit(l)));
        self.solver.add_clause(&self.scratch);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> bool {
        self.scratch.clear();
        self.scratch.extend(assumptions.iter().map(|&l| lit(l)));
        self.solver.assume(&self.scratch);
        let sat = matches!(self.solver.solve(), Ok(true));
        if sat && let Some(model) = self.solver.model() {
            for l in model {
                if let Some(slot) = self.model.get_mut(l.index()) {
                    *slot = l.is_positive();
                }
            }
        }
        sat
    }

    fn value(&self, var: u32) -> bool {
        self.model[var as usize]
    }

    fn name(&self) -> &'static str {
        "varisat 0.2"
    }
}
