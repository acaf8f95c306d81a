//! [`KeyTable`]: an open-addressing hash set of [`Key`]s, for the pool of an opponent turn's
//! children. Keys are uniformly random already, so a slot is chosen by the key's bits directly,
//! and a slot is the key itself (16 bytes, four to a cache line): a lookup in a table of 10⁶
//! keys costs one cache miss (two for a standard hash set: control bytes, then the bucket), and
//! [`KeyTable::prefetch`] lets that miss overlap with other work. The misses were the largest
//! single cost of an exact update.

use crate::zobrist_key::Key;

/// The free slot. A key equal to it is stored as [`STAND_IN`] (so those two keys are taken as
/// one: like any two keys colliding on all 128 bits, a chance of 2⁻¹²⁸ per pair).
const FREE: Key = (0, 0);
/// What [`FREE`] is stored as.
const STAND_IN: Key = (0, 1);

/// A set of [`Key`]s with linear probing, at most half full.
pub(crate) struct KeyTable {
    slots: Vec<Key>,
    mask: usize,
    len: usize,
}

impl KeyTable {
    /// A table for about `expected` keys without regrowth.
    pub fn with_capacity(expected: usize) -> KeyTable {
        let cap = expected.saturating_mul(2).max(16).next_power_of_two();
        KeyTable {
            slots: vec![FREE; cap],
            mask: cap - 1,
            len: 0,
        }
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    fn slot_of(&self, key: Key) -> usize {
        // The second half of a key is a well-mixed hash: any of its bits pick the slot.
        (key.1.rotate_left(21) as usize) & self.mask
    }

    /// Starts loading the slot where `key` is looked up, so that a lookup a little later finds
    /// it in the cache (a hint; it changes nothing).
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = self.slots.as_ptr().wrapping_add(self.slot_of(key));
            // SAFETY: a prefetch never faults and reads nothing the program can observe; the
            // address is inside `slots` anyway. SSE is part of every x86-64 target.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Whether `key` is held.
    #[cfg(test)]
    pub fn contains(&self, key: Key) -> bool {
        let key = if key == FREE { STAND_IN } else { key };
        let mut i = self.slot_of(key);
        loop {
            let s = self.slots[i];
            if s == key {
                return true;
            }
            if s == FREE {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Adds `key`; returns whether it was new (one probe either way).
    pub fn insert(&mut self, key: Key) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let key = if key == FREE { STAND_IN } else { key };
        let mut i = self.slot_of(key);
        loop {
            let s = &mut self.slots[i];
            if *s == key {
                return false;
            }
            if *s == FREE {
                *s = key;
                self.len += 1;
                return true;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Doubles the slots and re-inserts every key.
    fn grow(&mut self) {
        let doubled = vec![FREE; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        self.len = 0;
        for k in old.into_iter().filter(|&k| k != FREE) {
            self.insert(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_and_only_that_across_growth() {
        let mut t = KeyTable::with_capacity(4);
        let key = |i: u64| (i, i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for i in 1..=1000u64 {
            assert!(t.insert(key(i)));
        }
        assert_eq!(t.len(), 1000);
        for i in 1..=1000u64 {
            assert!(t.contains(key(i)));
            // A second insert finds the key and adds nothing.
            assert!(!t.insert(key(i)));
        }
        assert_eq!(t.len(), 1000);
        assert!(!t.contains(key(5000)));
        // Same first half, other second half: a different key.
        assert!(!t.contains((1, 2)));
        // The free slot's value is a key like any other.
        assert!(!t.contains(FREE));
        assert!(t.insert(FREE));
        assert!(t.contains(FREE));
        assert!(!t.insert(FREE));
    }
}
