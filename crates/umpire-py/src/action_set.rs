//! [`ActionSet`]: a set of the 4,673 actions as the bits of the action ids, written a man at
//! a time (the 73 planes of its starting square at once) and read in ascending order, counted,
//! or picked by rank ([`ActionSet::nth`]) without a sorted list.

use crate::action::{ANY_ACTION, PLANES};

/// Words of the bit set of the 4,672 moves, and two more: a man's 73 planes written at the
/// last starting square reach past the last word that holds an action (they are zero there),
/// and "Any?" ([`ANY_ACTION`], bit 0 of word 73) has its own bit.
const WORDS: usize = ANY_ACTION.div_ceil(64) + 2;

/// The set of moves of one player's turn, as a bit per action id with a summary of its
/// non-empty words (cheaper than sorting a list, and than scanning all 73 words).
#[derive(Clone, Debug)]
pub struct ActionSet {
    bits: [u64; WORDS],
    /// Bit `w % 64` of `used[w / 64]` is set when word `w` may hold an action (`WORDS` is
    /// below 128). Two 64-bit halves: shifts and counts on a `u128` cost several
    /// instructions each, and these run for every man and every action.
    used: [u64; 2],
}

impl Default for ActionSet {
    fn default() -> ActionSet {
        ActionSet::new()
    }
}

impl ActionSet {
    /// The empty set.
    pub fn new() -> ActionSet {
        ActionSet {
            bits: [0; WORDS],
            used: [0; 2],
        }
    }

    /// Adds action `x` (at most [`ANY_ACTION`]; larger ones are ignored).
    pub fn insert(&mut self, x: usize) {
        if x > ANY_ACTION {
            return;
        }
        let w = x / 64;
        if let Some(word) = self.bits.get_mut(w) {
            *word |= 1 << (x % 64);
            if let Some(used) = self.used.get_mut(w / 64) {
                *used |= 1 << (w % 64);
            }
        }
    }

    /// Adds the actions of the man on the (oriented) starting square `from` (below 64): bit
    /// `p` of `planes` is its plane `p` (only the 73 low bits count), so the action
    /// `from * 73 + p`. One write of up to three words instead of one per move.
    pub fn insert_planes(&mut self, from: usize, planes: u128) {
        let planes = planes & ((1 << PLANES) - 1);
        let base = from * PLANES;
        let (w, offset) = (base / 64, (base % 64) as u32);
        // The 73 bits shifted by `offset` (below 64) span three words: the low two as a
        // 128-bit value, the third from the bits shifted out of it.
        let low = planes << offset;
        let high = (planes >> 64) >> (64 - offset);
        let words = [low as u64, (low >> 64) as u64, high as u64];
        let mut nonzero = 0u64;
        for (k, part) in words.into_iter().enumerate() {
            if let Some(word) = self.bits.get_mut(w + k) {
                *word |= part;
                nonzero |= u64::from(part != 0) << k;
            }
        }
        // Words `w` to `w + 2` (below 128): one shift into the two halves.
        let marks = u128::from(nonzero) << (w % 128);
        self.used[0] |= marks as u64;
        self.used[1] |= (marks >> 64) as u64;
    }

    /// Takes action `x` out.
    pub fn remove(&mut self, x: usize) {
        if let Some(word) = self.bits.get_mut(x / 64) {
            *word &= !(1 << (x % 64));
        }
    }

    /// Whether action `x` is in the set.
    pub fn contains(&self, x: usize) -> bool {
        self.bits
            .get(x / 64)
            .is_some_and(|word| word & (1 << (x % 64)) != 0)
    }

    /// Empties the set, touching only the words that may hold an action.
    pub fn clear(&mut self) {
        for (half, used) in std::mem::take(&mut self.used).into_iter().enumerate() {
            let mut used = used;
            while used != 0 {
                let w = half * 64 + used.trailing_zeros() as usize;
                used &= used - 1;
                if let Some(word) = self.bits.get_mut(w) {
                    *word = 0;
                }
            }
        }
    }

    /// The number of actions in the set.
    pub fn len(&self) -> usize {
        let mut n = 0;
        for (half, &used) in self.used.iter().enumerate() {
            let mut used = used;
            while used != 0 {
                let w = half * 64 + used.trailing_zeros() as usize;
                used &= used - 1;
                n += self
                    .bits
                    .get(w)
                    .map_or(0, |word| word.count_ones() as usize);
            }
        }
        n
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The actions in ascending order.
    pub fn iter(&self) -> Actions<'_> {
        Actions {
            set: self,
            half: 0,
            used: self.used[0],
            base: 0,
            word: 0,
        }
    }

    /// The `k`-th action in ascending order (from 0), if the set holds more than `k`: what
    /// `iter().nth(k)` gives, by counting whole words instead of reading every action.
    pub fn nth(&self, k: usize) -> Option<u16> {
        let mut k = k;
        for (half, &used) in self.used.iter().enumerate() {
            let mut used = used;
            while used != 0 {
                let w = half * 64 + used.trailing_zeros() as usize;
                used &= used - 1;
                let mut word = self.bits.get(w).copied().unwrap_or(0);
                let ones = word.count_ones() as usize;
                if k < ones {
                    // A word holds few actions (the moves of one or two men): skipping them
                    // one by one costs less here than halving the word by counts.
                    for _ in 0..k {
                        word &= word - 1;
                    }
                    // Below 4,673: a word index below 75 times 64 plus a bit index.
                    return Some((w * 64 + word.trailing_zeros() as usize) as u16);
                }
                k -= ones;
            }
        }
        None
    }

    /// Appends the actions in ascending order and empties the set (taken by reference: the set
    /// is 600 bytes, and moving it would copy them).
    pub fn drain_into(&mut self, out: &mut Vec<u16>) {
        for (half, used) in std::mem::take(&mut self.used).into_iter().enumerate() {
            let mut used = used;
            while used != 0 {
                let w = half * 64 + used.trailing_zeros() as usize;
                used &= used - 1;
                let Some(slot) = self.bits.get_mut(w) else {
                    continue;
                };
                let mut word = std::mem::take(slot);
                while word != 0 {
                    // Below 4,672: a word index below 73 times 64 plus a bit index.
                    out.push((w * 64 + word.trailing_zeros() as usize) as u16);
                    word &= word - 1;
                }
            }
        }
    }
}

/// The actions of an [`ActionSet`] in ascending order ([`ActionSet::iter`]).
#[derive(Clone, Debug)]
pub struct Actions<'a> {
    set: &'a ActionSet,
    /// The half of the summary being read (0 or 1), and what is left of it.
    half: usize,
    used: u64,
    /// The first action id of the word being read, and what is left of it.
    base: usize,
    word: u64,
}

impl Iterator for Actions<'_> {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        while self.word == 0 {
            while self.used == 0 {
                self.half += 1;
                self.used = *self.set.used.get(self.half)?;
            }
            let w = self.half * 64 + self.used.trailing_zeros() as usize;
            self.used &= self.used - 1;
            self.base = w * 64;
            self.word = self.set.bits.get(w).copied().unwrap_or(0);
        }
        // Below 4,673: a word index below 75 times 64 plus a bit index.
        let x = (self.base + self.word.trailing_zeros() as usize) as u16;
        self.word &= self.word - 1;
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drained(set: &mut ActionSet) -> Vec<u16> {
        let mut out = Vec::new();
        set.drain_into(&mut out);
        out
    }

    /// A man's planes land on its starting square's actions, at every square (every offset
    /// within a word), and the set reads out sorted and empty afterwards.
    #[test]
    fn planes_land_on_their_actions_at_every_square() {
        let mut set = ActionSet::new();
        for from in 0..64 {
            // Planes 0, 5, 63, 64 and 72 (the first and last, and both sides of bit 64).
            let planes: u128 = 1 | 1 << 5 | 1 << 63 | 1 << 64 | 1 << 72 | 1 << 100;
            set.insert_planes(from, planes);
            let want: Vec<u16> = [0, 5, 63, 64, 72]
                .iter()
                .map(|p| (from * PLANES + p) as u16)
                .collect();
            for &x in &want {
                assert!(set.contains(usize::from(x)));
            }
            assert_eq!(drained(&mut set), want, "from {from}");
            assert_eq!(drained(&mut set), Vec::<u16>::new());
        }
    }

    #[test]
    fn single_actions_in_and_out() {
        let mut set = ActionSet::new();
        for x in [4671, 0, 64, 63, 1000] {
            set.insert(x);
        }
        set.remove(64);
        set.insert(ANY_ACTION + 500);
        assert!(!set.contains(64));
        assert_eq!(drained(&mut set), vec![0, 63, 1000, 4671]);
    }

    /// `iter`, `len`, `nth` and `contains` agree with the sorted list read out of the same
    /// set, for sets of random actions spread over every word ("Any?" included), and `clear`
    /// empties a set so that it is filled again as a new one.
    #[test]
    fn counting_ranking_and_iterating_agree_with_the_sorted_list() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut set = ActionSet::new();
        for round in 0..300 {
            set.clear();
            let mut want = std::collections::BTreeSet::new();
            let size = rng.random_range(0..if round % 10 == 0 { 400 } else { 60 });
            for _ in 0..size {
                if rng.random_range(0..8) == 0 {
                    let from = rng.random_range(0..64);
                    let planes: u128 = rng.random::<u128>() & rng.random::<u128>();
                    set.insert_planes(from, planes);
                    for p in 0..PLANES {
                        if planes >> p & 1 == 1 {
                            want.insert((from * PLANES + p) as u16);
                        }
                    }
                } else {
                    let x = rng.random_range(0..=ANY_ACTION);
                    set.insert(x);
                    want.insert(x as u16);
                }
            }
            if let Some(&x) = want.iter().nth(want.len() / 2) {
                set.remove(usize::from(x));
                want.remove(&x);
            }
            let want: Vec<u16> = want.into_iter().collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), want, "round {round}");
            assert_eq!(set.len(), want.len());
            assert_eq!(set.is_empty(), want.is_empty());
            for (k, &x) in want.iter().enumerate() {
                assert_eq!(set.nth(k), Some(x));
                assert!(set.contains(usize::from(x)));
            }
            assert_eq!(set.nth(want.len()), None);
            assert_eq!(set.clone().iter().count(), want.len());
            let mut copy = set.clone();
            assert_eq!(drained(&mut copy), want);
        }
        set.clear();
        assert!(set.is_empty());
        assert_eq!(set.iter().next(), None);
        assert!(!set.contains(ANY_ACTION));
    }
}
