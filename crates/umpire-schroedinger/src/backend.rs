//! The SAT solver interface the umpire needs, so that solvers can be swapped and compared.

/// A literal: a variable (from 0) and a sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit(u32);

impl Lit {
    /// The literal "variable `var` is true".
    pub const fn pos(var: u32) -> Lit {
        Lit(var << 1)
    }

    /// The literal "variable `var` is false".
    pub const fn neg(var: u32) -> Lit {
        Lit((var << 1) | 1)
    }

    /// Its variable.
    pub const fn var(self) -> u32 {
        self.0 >> 1
    }

    /// Whether it is the negative literal.
    pub const fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// An incremental SAT solver: clauses are only ever added, and each query may assume
/// literals that hold for that query only.
pub trait Backend {
    /// A solver with variables `0..vars` and no clauses.
    fn with_vars(vars: u32) -> Self
    where
        Self: Sized;
    /// Adds a clause for good.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Whether the clauses and the assumptions can all hold; when they can, the model is kept
    /// for [`Backend::value`].
    fn solve(&mut self, assumptions: &[Lit]) -> bool;
    /// The value of `var` in the model of the last satisfiable [`Backend::solve`].
    fn value(&self, var: u32) -> bool;
    /// The solver's name, for benchmarks.
    fn name(&self) -> &'static str;
}
