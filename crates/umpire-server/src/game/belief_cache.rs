//! The bounded cache of computed beliefs ([`BeliefCache`]): the overlay asks again for the
//! same point as a page is redrawn or a review is stepped back and forth, and a belief costs
//! far more than a lookup.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use umpire_protocol::http::belief::BeliefBody;
use umpire_rules::shakmaty::Color;

/// Beliefs kept by default.
pub const BELIEF_CACHE_ENTRIES: usize = 64;

/// What a belief is computed from: the game, the side, the moves played and the side's
/// observations taken in (a record only grows, so these name one input for good).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeliefKey {
    /// The game's id.
    pub game: String,
    /// The side.
    pub side: Color,
    /// Moves played at that point.
    pub plies: u32,
    /// The side's observations taken in.
    pub observations: usize,
}

/// At most a fixed number of beliefs, the least recently used dropped first.
#[derive(Debug)]
pub struct BeliefCache {
    capacity: usize,
    /// Most recently used last.
    entries: Mutex<VecDeque<(BeliefKey, Arc<BeliefBody>)>>,
}

impl BeliefCache {
    /// An empty cache of at most `capacity` beliefs (at least one).
    pub fn new(capacity: usize) -> BeliefCache {
        let capacity = capacity.max(1);
        BeliefCache {
            capacity,
            entries: Mutex::new(VecDeque::with_capacity(capacity)),
        }
    }

    /// The belief kept for `key`, now the most recently used.
    pub fn get(&self, key: &BeliefKey) -> Option<Arc<BeliefBody>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let i = entries.iter().position(|(k, _)| k == key)?;
        let entry = entries.remove(i)?;
        let body = Arc::clone(&entry.1);
        entries.push_back(entry);
        Some(body)
    }

    /// Keeps `body` for `key`, dropping the least recently used belief if full.
    pub fn put(&self, key: BeliefKey, body: Arc<BeliefBody>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = entries.iter().position(|(k, _)| *k == key) {
            entries.remove(i);
        }
        while entries.len() >= self.capacity {
            entries.pop_front();
        }
        entries.push_back((key, body));
    }

    /// The beliefs kept.
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no belief is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for BeliefCache {
    fn default() -> BeliefCache {
        BeliefCache::new(BELIEF_CACHE_ENTRIES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_protocol::side::Side;

    fn key(plies: u32) -> BeliefKey {
        BeliefKey {
            game: "g".to_owned(),
            side: Color::White,
            plies,
            observations: plies as usize,
        }
    }

    fn body(plies: u32) -> Arc<BeliefBody> {
        Arc::new(BeliefBody {
            side: Side::White,
            plies,
            exact: true,
            size: 1,
            squares: Vec::new(),
        })
    }

    #[test]
    fn keeps_at_most_its_capacity_dropping_the_least_recently_used() {
        let cache = BeliefCache::new(2);
        cache.put(key(1), body(1));
        cache.put(key(2), body(2));
        // Using 1 makes 2 the least recently used.
        assert_eq!(cache.get(&key(1)).map(|b| b.plies), Some(1));
        cache.put(key(3), body(3));
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&key(2)).is_none());
        assert_eq!(cache.get(&key(1)).map(|b| b.plies), Some(1));
        assert_eq!(cache.get(&key(3)).map(|b| b.plies), Some(3));
    }
}
