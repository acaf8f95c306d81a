//! [`ActionSet`]: a set of the 4,672 moves as the bits of the action ids, written a man at a
//! time (the 73 planes of its starting square at once) and read out in ascending order.

use crate::action::{ANY_ACTION, PLANES};

/// Words of the bit set of the 4,672 moves, and two more: a man's 73 planes written at the
/// last starting square reach past the last word that holds an action (they are zero there).
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

    /// Adds action `x` (below [`ANY_ACTION`]).
    pub fn insert(&mut self, x: usize) {
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
}
