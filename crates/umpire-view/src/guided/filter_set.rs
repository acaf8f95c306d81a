//! [`FilterSet`]: which filters are switched on.

use std::fmt;

use super::FilterId;

/// A set of filters (the ones switched on, or the ones that hide an attempt). A small `Copy`
/// value: one bit per [`FilterId`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FilterSet(u32);

impl FilterSet {
    /// No filter.
    pub const EMPTY: FilterSet = FilterSet(0);

    /// The set of the given filters.
    pub const fn of(ids: &[FilterId]) -> FilterSet {
        let mut bits = 0;
        let mut i = 0;
        while i < ids.len() {
            bits |= ids[i].bit();
            i += 1;
        }
        FilterSet(bits)
    }

    /// Only the own board: B1–B3 (what OpenSpiel offers).
    pub const fn own_board_only() -> FilterSet {
        FilterSet::of(&[FilterId::B1, FilterId::B2, FilterId::B3])
    }

    /// The rules seed 000's Ludii version implements: A1, A2, B1–B4, C1–C7 (C6.1 is marked not
    /// implemented there).
    pub const fn seed000_implemented() -> FilterSet {
        FilterSet::of(&[
            FilterId::A1,
            FilterId::A2,
            FilterId::B1,
            FilterId::B2,
            FilterId::B3,
            FilterId::B4,
            FilterId::C1,
            FilterId::C2,
            FilterId::C3,
            FilterId::C4,
            FilterId::C5,
            FilterId::C6,
            FilterId::C7,
        ])
    }

    /// Every sound filter (the default).
    pub const fn all_sound() -> FilterSet {
        let mut bits = 0;
        let mut i = 0;
        while i < FilterId::ALL.len() {
            if FilterId::ALL[i].is_sound() {
                bits |= FilterId::ALL[i].bit();
            }
            i += 1;
        }
        FilterSet(bits)
    }

    /// Every filter, heuristic ones included.
    pub const fn all() -> FilterSet {
        FilterSet::of(&FilterId::ALL)
    }

    /// Whether `id` is in the set.
    pub const fn contains(self, id: FilterId) -> bool {
        self.0 & id.bit() != 0
    }

    /// The set with `id` switched on or off.
    #[must_use]
    pub const fn with(self, id: FilterId, on: bool) -> FilterSet {
        if on {
            FilterSet(self.0 | id.bit())
        } else {
            FilterSet(self.0 & !id.bit())
        }
    }

    /// Switches `id` on.
    pub fn insert(&mut self, id: FilterId) {
        *self = self.with(id, true);
    }

    /// Whether no filter is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The filters in both sets.
    #[must_use]
    pub const fn intersect(self, other: FilterSet) -> FilterSet {
        FilterSet(self.0 & other.0)
    }

    /// The filters in either set.
    #[must_use]
    pub const fn union(self, other: FilterSet) -> FilterSet {
        FilterSet(self.0 | other.0)
    }

    /// The filters in the set, in seed order.
    pub fn iter(self) -> impl Iterator<Item = FilterId> {
        FilterId::ALL
            .into_iter()
            .filter(move |id| self.contains(*id))
    }
}

impl Default for FilterSet {
    /// Every sound filter.
    fn default() -> FilterSet {
        FilterSet::all_sound()
    }
}

impl fmt::Debug for FilterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<FilterId> for FilterSet {
    fn from_iter<I: IntoIterator<Item = FilterId>>(iter: I) -> FilterSet {
        let mut set = FilterSet::EMPTY;
        for id in iter {
            set.insert(id);
        }
        set
    }
}
