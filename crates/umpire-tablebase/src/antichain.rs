//! [`Antichain`]: a family of sets of squares none of which contains another — the maximal
//! won sets of one layout.

/// Sets of squares (as `u64`), none a subset of another. A set is *covered* when it is a subset
/// of a member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Antichain {
    sets: Vec<u64>,
}

impl Antichain {
    /// An empty family.
    pub fn new() -> Antichain {
        Antichain { sets: Vec::new() }
    }

    /// The maximal sets among `sets` (duplicates and subsets dropped), in increasing order.
    pub fn of(sets: impl IntoIterator<Item = u64>) -> Antichain {
        let mut all: Vec<u64> = sets.into_iter().collect();
        // Larger sets first, so that a set is only ever compared with possible supersets.
        all.sort_unstable_by(|a, b| b.count_ones().cmp(&a.count_ones()).then(a.cmp(b)));
        all.dedup();
        let mut chain = Antichain::new();
        for s in all {
            if !chain.covers(s) {
                chain.sets.push(s);
            }
        }
        chain.sets.sort_unstable();
        chain
    }

    /// Whether `set` is a subset of some member.
    #[inline]
    pub fn covers(&self, set: u64) -> bool {
        self.sets.iter().any(|&m| set & !m == 0)
    }

    /// Adds `set` unless it is covered, removing the members it covers; returns whether it was
    /// added.
    pub fn insert(&mut self, set: u64) -> bool {
        if self.covers(set) {
            return false;
        }
        self.sets.retain(|&m| m & !set != 0);
        self.sets.push(set);
        true
    }

    /// The members, in no particular order.
    pub fn sets(&self) -> &[u64] {
        &self.sets
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The members in increasing order.
    pub fn into_sorted(mut self) -> Vec<u64> {
        self.sets.sort_unstable();
        self.sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_maximal_sets() {
        let c = Antichain::of([0b0011, 0b0001, 0b0110, 0b0011, 0b1000, 0]);
        assert_eq!(c.sets(), &[0b0011, 0b0110, 0b1000]);
        let mut c = c;
        assert!(!c.insert(0b0010));
        assert!(c.insert(0b0111));
        assert_eq!(c.clone().into_sorted(), vec![0b0111, 0b1000]);
        assert!(c.covers(0b0101));
        assert!(!c.covers(0b1001));
    }
}
