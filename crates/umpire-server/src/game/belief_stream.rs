//! One side's belief followed along a game ([`BeliefStream`]) and the bounded set of them the
//! server keeps ([`BeliefStreams`]): stepping a review forward, or a live overlay after each
//! move, then costs the observations since the last answer, not a replay from the start.
//!
//! A stream is a [`Belief`] (the belief crate's public API) and the number of the side's
//! observations it has taken in. A record only grows, so the side's observations at any later
//! point start with the ones a stream has taken: the stream goes on by feeding the rest. It is
//! seeded from the game and the side only ([`belief_seed`]), so the belief
//! after `n` observations is the same, byte for byte, whether it was followed along or computed
//! afresh ([`crate::game::belief::belief_body`]).

use std::collections::VecDeque;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use umpire_belief::{Belief, BeliefConfig, Marginals};
use umpire_protocol::http::belief::{BeliefBody, SquareBelief};
use umpire_rules::Observation;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

/// Positions kept exactly before the set is sampled: the bound of a review capped in time
/// (`umpire belief --max-seconds`), small enough that one computation stays short.
pub const BELIEF_BOUND: usize = 20_000;

/// Positions kept once the set is sampled (the fast review path's particles, below the bound).
pub const BELIEF_PARTICLES: usize = 2_000;

/// The seed of the belief of `side` in game `game`: a hash of those two public things, the
/// same in every true history. It does not depend on the point of the game, so one belief
/// followed along the game ([`BeliefStream`]) answers at every point as a fresh computation.
pub fn belief_seed(game: &str, side: Color) -> u64 {
    let mut h = Sha256::new();
    h.update(b"umpire belief overlay\0");
    h.update(game.as_bytes());
    h.update(b"\0");
    h.update(side.fold_wb(b"white".as_slice(), b"black".as_slice()));
    let digest = h.finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// Streams kept by default: each holds at most [`BELIEF_BOUND`] positions while exact and
/// [`BELIEF_PARTICLES`] once sampled, so the streams together hold at most
/// `BELIEF_STREAMS × BELIEF_BOUND` positions (a few hundred bytes each).
pub const BELIEF_STREAMS: usize = 8;

/// One side's belief in one game after the first [`BeliefStream::taken`] of its observations.
#[derive(Clone, Debug)]
pub struct BeliefStream {
    belief: Belief,
    taken: usize,
}

impl BeliefStream {
    /// The belief of `side` in game `game` (of `record`) before any observation.
    pub fn new(game: &str, record: &Record, side: Color) -> Result<BeliefStream, String> {
        let start = umpire_belief::review::record_start(record).map_err(|e| e.to_string())?;
        let config = BeliefConfig {
            bound: BELIEF_BOUND,
            particles: Some(BELIEF_PARTICLES),
            seed: belief_seed(game, side),
            threads: 1,
            ..BeliefConfig::default()
        };
        let belief =
            Belief::new(*record.rules.rules(), start, side, config).map_err(|e| e.to_string())?;
        Ok(BeliefStream { belief, taken: 0 })
    }

    /// The side's observations taken in so far.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// Takes in `observations[self.taken()..]`, where `observations` are the side's
    /// observations from the start of the game (the ones taken already among them). Refuses a
    /// list shorter than what was taken (the stream cannot go back); a refused observation
    /// ends the stream's use (the error says which).
    pub fn advance(&mut self, observations: &[Observation]) -> Result<(), String> {
        let rest = observations
            .get(self.taken..)
            .ok_or_else(|| "the belief has gone past this point".to_owned())?;
        for obs in rest {
            self.belief.observe(obs).map_err(|e| e.to_string())?;
            self.taken += 1;
        }
        Ok(())
    }

    /// The body of the belief now, `plies` the moves played at this point.
    pub fn body(&self, plies: u32) -> BeliefBody {
        let marginals = Marginals::of(&self.belief);
        let squares = marginals
            .p
            .iter()
            .map(|p| SquareBelief {
                any: rounded(1.0 - p[6]),
                pawn: rounded(p[0]),
                knight: rounded(p[1]),
                bishop: rounded(p[2]),
                rook: rounded(p[3]),
                queen: rounded(p[4]),
                king: rounded(p[5]),
            })
            .collect();
        BeliefBody {
            side: self.belief.side().into(),
            plies,
            exact: marginals.exact,
            size: marginals.positions as u64,
            squares,
        }
    }
}

/// `x` rounded to 3 decimals (and never `-0`).
fn rounded(x: f64) -> f64 {
    let r = (x * 1000.0).round() / 1000.0;
    if r == 0.0 { 0.0 } else { r }
}

/// At most a fixed number of streams, one per (game, side), the least recently used dropped
/// first. A stream is taken out while it is advanced (so two requests never share one) and
/// put back after.
#[derive(Debug)]
pub struct BeliefStreams {
    capacity: usize,
    /// Most recently used last.
    streams: Mutex<VecDeque<(String, Color, BeliefStream)>>,
}

impl BeliefStreams {
    /// No streams, at most `capacity` of them (at least one).
    pub fn new(capacity: usize) -> BeliefStreams {
        let capacity = capacity.max(1);
        BeliefStreams {
            capacity,
            streams: Mutex::new(VecDeque::with_capacity(capacity)),
        }
    }

    /// Takes out the stream of `side` in `game` if one is kept and has taken in at most
    /// `observations` observations (one further on cannot answer and is left in place).
    pub fn take(&self, game: &str, side: Color, observations: usize) -> Option<BeliefStream> {
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        let i = streams
            .iter()
            .position(|(g, s, st)| g == game && *s == side && st.taken <= observations)?;
        streams.remove(i).map(|(_, _, st)| st)
    }

    /// Keeps `stream` for `side` in `game` as the most recently used (of two streams for the
    /// same key, the one further on), dropping the least recently used if full.
    pub fn put(&self, game: &str, side: Color, stream: BeliefStream) {
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        let mut stream = stream;
        if let Some(i) = streams.iter().position(|(g, s, _)| g == game && *s == side)
            && let Some((_, _, kept)) = streams.remove(i)
            && kept.taken > stream.taken
        {
            stream = kept;
        }
        while streams.len() >= self.capacity {
            streams.pop_front();
        }
        streams.push_back((game.to_owned(), side, stream));
    }

    /// The streams kept.
    pub fn len(&self) -> usize {
        self.streams.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no stream is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for BeliefStreams {
    fn default() -> BeliefStreams {
        BeliefStreams::new(BELIEF_STREAMS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::record::Game;

    /// A random game of 24 moves (rejected attempts among them): long enough for the belief
    /// to pass the bound and be sampled, where the seed matters.
    fn record() -> Record {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut game = Game::new(RuleSet::BERKELEY_ANY);
        game.play_random(&mut rng, 24);
        game.into_record()
    }

    #[test]
    fn followed_along_it_answers_as_a_fresh_replay_at_every_point() {
        let record = record();
        let mut sampled = false;
        for side in [Color::White, Color::Black] {
            let mut stream = BeliefStream::new("g", &record, side).unwrap();
            let (_, played) = record.observations_until(side, None);
            for plies in 0..=played {
                let (observations, at) = record.observations_until(side, Some(plies));
                stream.advance(&observations).unwrap();
                assert_eq!(stream.taken(), observations.len());
                // Computed afresh from the start, as `belief::belief_body` does.
                let mut again = BeliefStream::new("g", &record, side).unwrap();
                again.advance(&observations).unwrap();
                let fresh = again.body(at);
                assert_eq!(
                    serde_json::to_string(&stream.body(at)).unwrap(),
                    serde_json::to_string(&fresh).unwrap(),
                    "{side:?} at {plies}"
                );
                sampled |= !fresh.exact;
            }
            // It cannot go back.
            assert!(stream.taken() == 0 || stream.advance(&[]).is_err());
        }
        assert!(
            sampled,
            "the game never left the exact set: the seed was not tested"
        );
    }

    #[test]
    fn keeps_at_most_its_capacity_and_never_hands_out_a_stream_gone_too_far() {
        let record = record();
        let streams = BeliefStreams::new(2);
        let mut w = BeliefStream::new("a", &record, Color::White).unwrap();
        let (obs, _) = record.observations_until(Color::White, Some(2));
        w.advance(&obs).unwrap();
        streams.put("a", Color::White, w);
        streams.put(
            "a",
            Color::Black,
            BeliefStream::new("a", &record, Color::Black).unwrap(),
        );
        // Too far on for one observation: left in place.
        assert!(streams.take("a", Color::White, 1).is_none());
        assert_eq!(streams.len(), 2);
        let w = streams.take("a", Color::White, obs.len()).unwrap();
        assert_eq!(w.taken(), obs.len());
        streams.put("a", Color::White, w);
        // A third stream drops the least recently used (Black's).
        streams.put(
            "b",
            Color::White,
            BeliefStream::new("b", &record, Color::White).unwrap(),
        );
        assert_eq!(streams.len(), 2);
        assert!(streams.take("a", Color::Black, 100).is_none());
        assert!(streams.take("a", Color::White, 100).is_some());
    }
}
