//! [`Visits`]: the boards the player's own men stood on after its recent moves in an ending
//! played with surplus men, so that the wrapper can prefer a move to a board it has not stood
//! on twice: there the table's plan may be blocked by a surplus man and two moves of equal
//! value can take turns forever, towards a threefold repetition or the fifty-move rule.

use std::collections::VecDeque;

/// How many of the player's last boards are kept: the fifty-move rule's horizon.
pub const KEPT: usize = 50;

/// The keys of the player's last [`KEPT`] boards ([`super::Board::key`]), newest last.
#[derive(Clone, Debug, Default)]
pub struct Visits {
    keys: VecDeque<u64>,
}

impl Visits {
    /// The player's men now stand on the board of `key`.
    pub fn push(&mut self, key: u64) {
        if self.keys.len() == KEPT {
            self.keys.pop_front();
        }
        self.keys.push_back(key);
    }

    /// How often the board of `key` was stood on among the kept ones.
    pub fn count(&self, key: u64) -> usize {
        self.keys.iter().filter(|&&k| k == key).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_the_last_boards() {
        let mut v = Visits::default();
        v.push(7);
        v.push(7);
        assert_eq!(v.count(7), 2);
        assert_eq!(v.count(8), 0);
        for k in 0..KEPT as u64 {
            v.push(100 + k);
        }
        assert_eq!(v.count(7), 0);
        assert_eq!(v.count(100), 1);
    }
}
