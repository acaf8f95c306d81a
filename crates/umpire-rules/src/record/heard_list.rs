//! [`HeardList`]: the announcements of one record entry, held in the entry itself.

use arrayvec::ArrayVec;

use crate::Heard;

/// How many announcements an entry holds without a heap allocation. Most commands draw none,
/// one or two (an "illegal", a capture, a check, the pawn tries); a record grows by an entry at
/// every command, and an allocation per entry made recording and resetting a game the
/// allocator's work.
pub const INLINE_HEARD: usize = 2;

/// The announcements of one [`crate::record::Entry`], in order: up to [`INLINE_HEARD`] inside
/// the entry, more on the heap. It reads as a slice of [`Heard`]; two lists with the same
/// announcements are equal however they are held.
#[derive(Clone)]
pub struct HeardList(Held);

#[derive(Clone)]
enum Held {
    Inline(ArrayVec<Heard, INLINE_HEARD>),
    Spilled(Vec<Heard>),
}

impl HeardList {
    /// An empty list.
    pub const fn new() -> HeardList {
        HeardList(Held::Inline(ArrayVec::new_const()))
    }

    /// A list of `heard`, inline when it fits.
    pub fn from_slice(heard: &[Heard]) -> HeardList {
        match ArrayVec::try_from(heard) {
            Ok(inline) => HeardList(Held::Inline(inline)),
            Err(_) => HeardList(Held::Spilled(heard.to_vec())),
        }
    }

    /// The announcements as a slice.
    pub fn as_slice(&self) -> &[Heard] {
        match &self.0 {
            Held::Inline(list) => list,
            Held::Spilled(list) => list,
        }
    }

    /// The announcements as a mutable slice (their number stays).
    pub fn as_mut_slice(&mut self) -> &mut [Heard] {
        match &mut self.0 {
            Held::Inline(list) => list,
            Held::Spilled(list) => list,
        }
    }

    /// Whether the list is on the heap (more than [`INLINE_HEARD`] announcements).
    pub fn is_spilled(&self) -> bool {
        matches!(self.0, Held::Spilled(_))
    }
}

impl Default for HeardList {
    fn default() -> HeardList {
        HeardList::new()
    }
}

impl std::ops::Deref for HeardList {
    type Target = [Heard];

    fn deref(&self) -> &[Heard] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for HeardList {
    fn deref_mut(&mut self) -> &mut [Heard] {
        self.as_mut_slice()
    }
}

impl From<&[Heard]> for HeardList {
    fn from(heard: &[Heard]) -> HeardList {
        HeardList::from_slice(heard)
    }
}

impl From<Vec<Heard>> for HeardList {
    fn from(heard: Vec<Heard>) -> HeardList {
        if heard.len() <= INLINE_HEARD {
            HeardList::from_slice(&heard)
        } else {
            HeardList(Held::Spilled(heard))
        }
    }
}

impl<'a> IntoIterator for &'a HeardList {
    type Item = &'a Heard;
    type IntoIter = std::slice::Iter<'a, Heard>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for HeardList {
    fn eq(&self, other: &HeardList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for HeardList {}

impl std::hash::Hash for HeardList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl std::fmt::Debug for HeardList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Announcement, Audience, CheckKind};

    fn heard(n: usize) -> Vec<Heard> {
        (0..n)
            .map(|i| Heard {
                audience: if i % 2 == 0 {
                    Audience::Both
                } else {
                    Audience::Mover
                },
                announcement: Announcement::PawnTries(i as u8),
            })
            .collect()
    }

    #[test]
    fn holds_few_inline_and_many_on_the_heap_equal_either_way() {
        for n in 0..=crate::MAX_ANNOUNCEMENTS {
            let list = heard(n);
            let from_slice = HeardList::from_slice(&list);
            let from_vec = HeardList::from(list.clone());
            assert_eq!(from_slice.as_slice(), &list[..]);
            assert_eq!(from_vec.as_slice(), &list[..]);
            assert_eq!(from_slice, from_vec);
            assert_eq!(from_slice.is_spilled(), n > INLINE_HEARD);
            assert_eq!(from_vec.is_spilled(), n > INLINE_HEARD);
            assert_eq!(from_slice.iter().count(), n);
            assert_eq!(format!("{from_slice:?}"), format!("{list:?}"));
        }
        assert_eq!(HeardList::new(), HeardList::default());
        assert!(HeardList::new().is_empty());
        assert_ne!(HeardList::from_slice(&heard(1)), HeardList::new());
    }

    #[test]
    fn announcements_change_in_place() {
        let mut list = HeardList::from_slice(&heard(3));
        list[0].announcement = Announcement::Check(CheckKind::Knight);
        assert_eq!(list.len(), 3);
        assert_eq!(list[0].announcement, Announcement::Check(CheckKind::Knight));
        assert_ne!(list, HeardList::from_slice(&heard(3)));
    }
}
