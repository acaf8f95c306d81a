//! Hashing of position keys that are already Zobrist hashes: mixing them again is wasted work.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys made of Zobrist hashes (uniformly random already): it folds the words it
/// is given with one multiplication each.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

/// A map keyed by (Zobrist hash, halfmove clock).
pub(crate) type KeyMap<V> = HashMap<(u64, u32), V, BuildHasherDefault<KeyHasher>>;

/// A set of (Zobrist hash, halfmove clock) keys.
pub(crate) type KeySet = HashSet<(u64, u32), BuildHasherDefault<KeyHasher>>;
