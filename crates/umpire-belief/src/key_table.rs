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

/// Bytes per slot.
const SLOT: usize = 16;
/// Tables of at least this many bytes live in an anonymous memory map (zero pages mapped
/// lazily, huge pages asked for on Linux); smaller ones in a vector.
const MAP_FROM: usize = 4 << 20;
/// The huge page size the map is aligned to.
const HUGE: usize = 2 << 20;

/// Where the slots live: a vector, or an anonymous map aligned to huge pages (a table of 10⁶
/// keys spans 8,000 small pages, and nearly every probe would also miss the TLB: on a virtual
/// machine a two-level page walk, more expensive than the cache miss itself).
enum Storage {
    Vec(Vec<u8>),
    Map {
        map: memmap2::MmapMut,
        offset: usize,
    },
}

impl Storage {
    /// Zeroed storage for `bytes` bytes.
    fn zeroed(bytes: usize) -> Storage {
        if bytes >= MAP_FROM
            && let Ok(map) = memmap2::MmapMut::map_anon(bytes + HUGE)
        {
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage);
            let offset = (HUGE - map.as_ptr() as usize % HUGE) % HUGE;
            return Storage::Map { map, offset };
        }
        Storage::Vec(vec![0; bytes])
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Vec(v) => v,
            Storage::Map { map, offset } => &map[*offset..],
        }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        match self {
            Storage::Vec(v) => v,
            Storage::Map { map, offset } => &mut map[*offset..],
        }
    }
}

/// A set of [`Key`]s with linear probing, at most half full.
pub(crate) struct KeyTable {
    slots: Storage,
    /// Slots (a power of two).
    cap: usize,
    mask: usize,
    len: usize,
}

/// The key stored in slot `i` of `bytes`.
fn read(bytes: &[u8], i: usize) -> Key {
    let b = &bytes[i * SLOT..(i + 1) * SLOT];
    let word = |r: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(r);
        u64::from_ne_bytes(w)
    };
    (word(&b[..8]), word(&b[8..]))
}

/// Stores `key` in slot `i` of `bytes`.
fn write(bytes: &mut [u8], i: usize, key: Key) {
    let b = &mut bytes[i * SLOT..(i + 1) * SLOT];
    b[..8].copy_from_slice(&key.0.to_ne_bytes());
    b[8..].copy_from_slice(&key.1.to_ne_bytes());
}

impl Clone for KeyTable {
    /// A copy of every slot (the copy lives in a vector or a map by its size, as a new table).
    fn clone(&self) -> KeyTable {
        let bytes = self.cap * SLOT;
        let mut slots = Storage::zeroed(bytes);
        slots.bytes_mut()[..bytes].copy_from_slice(&self.slots.bytes()[..bytes]);
        KeyTable {
            slots,
            cap: self.cap,
            mask: self.mask,
            len: self.len,
        }
    }
}

impl std::fmt::Debug for KeyTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyTable")
            .field("len", &self.len)
            .field("cap", &self.cap)
            .finish()
    }
}

impl KeyTable {
    /// A table for about `expected` keys without regrowth.
    pub fn with_capacity(expected: usize) -> KeyTable {
        let cap = expected.saturating_mul(2).max(16).next_power_of_two();
        KeyTable {
            slots: Storage::zeroed(cap * SLOT),
            cap,
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
            let slot = self
                .slots
                .bytes()
                .as_ptr()
                .wrapping_add(self.slot_of(key) * SLOT);
            // SAFETY: a prefetch never faults and reads nothing the program can observe; the
            // address is inside the slots anyway. SSE is part of every x86-64 target.
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
        let bytes = self.slots.bytes();
        let mut i = self.slot_of(key);
        loop {
            let s = read(bytes, i);
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
        if (self.len + 1) * 2 > self.cap {
            self.grow();
        }
        let key = if key == FREE { STAND_IN } else { key };
        let mut i = self.slot_of(key);
        let mask = self.mask;
        let bytes = self.slots.bytes_mut();
        loop {
            let s = read(bytes, i);
            if s == key {
                return false;
            }
            if s == FREE {
                write(bytes, i, key);
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots and re-inserts every key.
    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, Storage::zeroed(self.cap * 2 * SLOT));
        let old_cap = self.cap;
        self.cap *= 2;
        self.mask = self.cap - 1;
        self.len = 0;
        let bytes = old.bytes();
        for i in 0..old_cap {
            let k = read(bytes, i);
            if k != FREE {
                self.insert(k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_holds_the_same_keys_and_grows_apart() {
        let mut t = KeyTable::with_capacity(4);
        for i in 1..40u64 {
            t.insert((i, i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        }
        let mut c = t.clone();
        assert_eq!(c.len(), t.len());
        for i in 1..40u64 {
            assert!(c.contains((i, i.wrapping_mul(0x9E37_79B9_7F4A_7C15))));
        }
        assert!(c.insert((99, 7)));
        assert!(!t.contains((99, 7)));
    }

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

    #[test]
    fn a_mapped_table_behaves_the_same() {
        // 2^18 expected keys: 2^19 slots of 16 bytes, past `MAP_FROM`; growth maps anew.
        let n = 1u64 << 18;
        let mut t = KeyTable::with_capacity(n as usize);
        assert!(matches!(t.slots, Storage::Map { .. }));
        let key = |i: u64| (i.wrapping_mul(31), i.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        for i in 1..=2 * n {
            assert!(t.insert(key(i)), "{i}");
        }
        assert_eq!(t.len(), 2 * n as usize);
        for i in 1..=2 * n {
            assert!(!t.insert(key(i)));
        }
        assert!(!t.contains(key(3 * n)));
    }
}
