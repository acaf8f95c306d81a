//! [`RunKey`]: the secret a run of games draws every player's seed from.
//!
//! An agent is deterministic given its seed and its view, so one seat's seed must say nothing
//! of another's: an engine program reads its own seed in every request (docs/ENGINE.md), and
//! with its opponent's seed it could replay the opponent and read its hidden moves. So no seed
//! is computed from another by a public, invertible step. Each seat's seed is HMAC-SHA-256 of
//! (game, side) under the run's 256-bit key, a keyed one-way function: without the key, seeds
//! of other seats look like independent random numbers, and the key cannot be worked back from
//! any number of seeds.
//!
//! The key is the whole secret. Drawn from the operating system ([`RunKey::from_bytes`] of
//! fresh entropy), nobody can guess it. Derived from a seed the user chose
//! ([`RunKey::from_seed`]), the run is reproducible by anyone who knows or guesses that seed,
//! an engine included: a small seed is found by trying them all. Records carry the seats'
//! seeds (the referee's tags `WhiteSeed`, `BlackSeed`), never a player's view or request.

use std::fmt;
use std::str::FromStr;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use umpire_rules::shakmaty::Color;

/// What separates the uses of the key (and of a chosen seed) from any other use of SHA-256.
const DOMAIN: &[u8] = b"umpire seeds v1";

/// The secret of a run of games (a match, a round robin's pairing, a self-play run): every
/// seed of every game comes from it by [`RunKey::seat_seed`] or [`RunKey::game_seed`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RunKey([u8; 32]);

/// What each message under the key is for: a byte after [`DOMAIN`], so no two uses share a
/// message.
#[derive(Clone, Copy)]
enum Use {
    Seat = 1,
    Game = 2,
    Pairing = 3,
}

impl RunKey {
    /// The key of these 32 bytes: for a secret run, fresh bytes from the operating system.
    pub const fn from_bytes(bytes: [u8; 32]) -> RunKey {
        RunKey(bytes)
    }

    /// The key of a seed the user chose (`--seed`): SHA-256 of the seed under this module's
    /// domain. Public by design, so the run replays from the seed alone; and so an engine that
    /// guesses the seed can compute every seat's seed (leave the seed out of matches between
    /// programs you do not trust).
    pub fn from_seed(seed: u64) -> RunKey {
        let mut hash = Sha256::new();
        hash.update(DOMAIN);
        hash.update(b" chosen seed");
        hash.update(seed.to_le_bytes());
        RunKey(hash.finalize().into())
    }

    /// The key's bytes.
    pub const fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The key as 64 lowercase hexadecimal digits (what [`RunKey::from_str`] reads back).
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// HMAC-SHA-256 under the key of this use and these numbers.
    fn mac(&self, what: Use, numbers: &[u64]) -> [u8; 32] {
        // A 32-byte key is always accepted by HMAC (any length is).
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(DOMAIN);
        mac.update(&[what as u8]);
        for n in numbers {
            mac.update(&n.to_le_bytes());
        }
        mac.finalize().into_bytes().into()
    }

    /// The first 8 bytes of a MAC as a number.
    fn number(bytes: [u8; 32]) -> u64 {
        let mut first = [0u8; 8];
        first.copy_from_slice(&bytes[..8]);
        u64::from_le_bytes(first)
    }

    /// The seed of the player of `side` in game `game` (0-based) of the run: what its agent
    /// (or engine program) is built with. Knowing it, and any other seats' seeds, tells nothing
    /// of this one without the key.
    pub fn seat_seed(&self, game: u64, side: Color) -> u64 {
        RunKey::number(self.mac(Use::Seat, &[game, u64::from(side.is_black())]))
    }

    /// Both seats' seeds of game `game`: White's, Black's.
    pub fn seats(&self, game: u64) -> [u64; 2] {
        [Color::White, Color::Black].map(|side| self.seat_seed(game, side))
    }

    /// The seed of game `game`'s own random choices where no player program chooses (a
    /// referee-side playout of both sides, as `umpire selfplay`'s `random`); never given to
    /// a player, and unrelated to the seats' seeds.
    pub fn game_seed(&self, game: u64) -> u64 {
        RunKey::number(self.mac(Use::Game, &[game]))
    }

    /// The key of pairing `pairing` (0-based) of a round robin: each pairing is a run of its
    /// own, and no seat of one says anything of another's.
    pub fn pairing(&self, pairing: u64) -> RunKey {
        RunKey(self.mac(Use::Pairing, &[pairing]))
    }
}

impl fmt::Debug for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RunKey({})", self.to_hex())
    }
}

/// A run key that is not 64 hexadecimal digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a run key is 64 hexadecimal digits (as `umpire match` prints it)")]
pub struct BadRunKey;

impl FromStr for RunKey {
    type Err = BadRunKey;

    /// Reads 64 hexadecimal digits (either case).
    fn from_str(text: &str) -> Result<RunKey, BadRunKey> {
        let digits = text.as_bytes();
        if digits.len() != 64 || !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(BadRunKey);
        }
        let value = |d: u8| match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            _ => d - b'A' + 10,
        };
        let mut key = [0u8; 32];
        for (byte, pair) in key.iter_mut().zip(digits.chunks_exact(2)) {
            *byte = value(pair[0]) << 4 | value(pair[1]);
        }
        Ok(RunKey(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_repeat_and_differ() {
        let key = RunKey::from_seed(7);
        assert_eq!(key, RunKey::from_seed(7));
        assert_ne!(key, RunKey::from_seed(8));
        assert_eq!(key.seats(3), RunKey::from_seed(7).seats(3));
        let [w, b] = key.seats(3);
        assert_ne!(w, b);
        assert_ne!(key.seats(3), key.seats(4));
        assert_ne!(key.game_seed(3), w);
        assert_ne!(key.game_seed(3), b);
        assert_ne!(key.pairing(0), key.pairing(1));
        assert_ne!(key.pairing(0).seats(0), key.seats(0));
    }

    #[test]
    fn a_key_reads_back_from_its_hex() {
        let key = RunKey::from_seed(1);
        let hex = key.to_hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(hex.parse::<RunKey>(), Ok(key));
        assert_eq!(hex.to_uppercase().parse::<RunKey>(), Ok(key));
        for bad in [
            "",
            "00",
            &hex[1..],
            &format!("{hex}0"),
            &hex.replace('0', "g"),
        ] {
            if bad != hex {
                assert_eq!(bad.parse::<RunKey>(), Err(BadRunKey), "{bad:?}");
            }
        }
        // Neither a sign (which `u8::from_str_radix` would take) nor a non-ASCII character.
        for odd in [format!("+f{}", &hex[2..]), format!("é{}", &hex[2..])] {
            assert_eq!(odd.parse::<RunKey>(), Err(BadRunKey), "{odd:?}");
        }
    }

    #[test]
    fn the_derivation_is_pinned() {
        // Records name seeds and users keep seeds and keys: a change of derivation would play
        // other games from them. The values were computed independently with Python's
        // hashlib and hmac from the description in docs/ENGINE.md.
        let key = RunKey::from_seed(1);
        assert_eq!(
            key.to_hex(),
            "d9ab2765493f9c19fa26630b19cb7b8fa0e52dd264fcb1f78d0df72549880d34"
        );
        assert_eq!(key.seats(0), [15811407900267884642, 12148657765113458698]);
        assert_eq!(key.game_seed(0), 17515113178164398462);
        let zero = RunKey::from_bytes([0; 32]);
        assert_eq!(zero.seat_seed(5, Color::Black), 16873020454552807364);
        assert_eq!(
            zero.pairing(2).to_hex(),
            "74de7aaab12f7f03a786ab0dbf0594872c79ef4e9b9c5ea7893c7066d90480bf"
        );
    }
}
