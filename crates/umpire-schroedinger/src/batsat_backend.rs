//! [`Backend`] on `batsat`, a pure-Rust MiniSat-style CDCL solver (the default backend).

use batsat::{BasicSolver, SolverInterface, lbool};

use crate::backend::{Backend, Lit};

/// The `batsat` solver with reusable buffers (no allocation per query once warm).
pub struct Batsat {
    solver: BasicSolver,
    vars: Vec<batsat::Var>,
    clause: Vec<batsat::Lit>,
    assumptions: Vec<batsat::Lit>,
    model: Vec<bool>,
}

impl Batsat {
    fn lit(&self, lit: Lit) -> batsat::Lit {
        batsat::Lit::new(self.vars[lit.var() as usize], !lit.is_neg())
    }
}

impl Backend for Batsat {
    fn with_vars(vars: u32) -> Batsat {
        let mut solver = BasicSolver::default();
        let vars: Vec<batsat::Var> = (0..vars).map(|_| solver.new_var_default()).collect();
        let count = vars.len();
        Batsat {
            solver,
            vars,
            clause: Vec::with_capacity(64),
            assumptions: Vec::with_capacity(256),
            model: vec![false; count],
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        let mut clause = std::mem::take(&mut self.clause);
        clause.clear();
        clause.extend(lits.iter().map(|&l| self.lit(l)));
        self.solver.add_clause_reuse(&mut clause);
        self.clause = clause;
    }

    fn solve(&mut self, assumptions: &[Lit]) -> bool {
        let mut assumed = std::mem::take(&mut self.assumptions);
        assumed.clear();
        assumed.extend(assumptions.iter().map(|&l| self.lit(l)));
        let sat = self.solver.solve_limited(&assumed) == lbool::TRUE;
        self.assumptions = assumed;
        if sat {
            let model = self.solver.get_model();
            for (value, var) in self.model.iter_mut().zip(&self.vars) {
                *value = model[var.idx() as usize] == lbool::TRUE;
            }
        }
        sat
    }

    fn value(&self, var: u32) -> bool {
        self.model[var as usize]
    }

    fn name(&self) -> &'static str {
        "batsat 0.6"
    }
}
