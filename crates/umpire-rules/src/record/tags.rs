//! [`Tags`]: the descriptive tags of a game (players, event, date, …), in order.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The six descriptive tags of PGN's seven-tag roster (Result is derived from the game), with
/// their "unknown" values.
pub const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Tag names that records derive from the game itself and that therefore cannot be set.
pub const DERIVED: [&str; 4] = ["Result", "Variant", "FEN", "SetUp"];

/// The longest tag name accepted.
pub const MAX_NAME_LEN: usize = 64;

/// The longest tag value accepted, in bytes.
pub const MAX_VALUE_LEN: usize = 1024;

/// A tag that cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// The name is not a PGN symbol (a letter, then letters, digits or `_`), or too long.
    #[error(
        "tag name {0:?} is not allowed: use a letter followed by letters, digits or _ (at most 64)"
    )]
    BadName(String),
    /// The name is one the record derives from the game.
    #[error("tag {0:?} is derived from the game and cannot be set")]
    Derived(String),
    /// The value has a control character (such as a line break) or is too long.
    #[error("value of tag {0:?} is not allowed: no control characters, at most 1024 bytes")]
    BadValue(String),
}

/// The descriptive tags of a game, in order: always the six roster tags first (Event, Site,
/// Date, Round, White, Black, "?" when unknown), then any others in the order they were set.
///
/// Tags the record derives from the game (Result, Variant, FEN, SetUp, and every name
/// starting with `Kriegspiel`) are refused.
#[derive(PartialEq, Eq, Hash)]
pub struct Tags(Vec<(String, String)>);

impl Clone for Tags {
    fn clone(&self) -> Tags {
        Tags(self.0.clone())
    }

    /// Copies `source` into `self` keeping `self`'s strings where there are as many or more
    /// (a record reset to a start many times stops allocating for its tags).
    fn clone_from(&mut self, source: &Tags) {
        self.0.truncate(source.0.len());
        for ((name, value), (source_name, source_value)) in self.0.iter_mut().zip(&source.0) {
            name.clone_from(source_name);
            value.clone_from(source_value);
        }
        let kept = self.0.len();
        self.0.extend(source.0[kept..].iter().cloned());
    }
}

impl Default for Tags {
    fn default() -> Tags {
        Tags::new()
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Tags {
    /// The roster tags with their unknown values.
    pub fn new() -> Tags {
        Tags(
            ROSTER
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    /// Checks a name and value without storing them.
    pub fn check(name: &str, value: &str) -> Result<(), TagError> {
        let mut chars = name.chars();
        let good_name = name.len() <= MAX_NAME_LEN
            && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !good_name {
            return Err(TagError::BadName(name.to_owned()));
        }
        if DERIVED.contains(&name) || name.starts_with("Kriegspiel") {
            return Err(TagError::Derived(name.to_owned()));
        }
        if value.len() > MAX_VALUE_LEN || value.chars().any(char::is_control) {
            return Err(TagError::BadValue(name.to_owned()));
        }
        Ok(())
    }

    /// Sets a tag, replacing its value if it is already there.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        Tags::check(name, value)?;
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_owned(),
            None => self.0.push((name.to_owned(), value.to_owned())),
        }
        Ok(())
    }

    /// The value of a tag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Removes a tag (a roster tag goes back to its unknown value); returns the old value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        if let Some((_, unknown)) = ROSTER.iter().find(|(n, _)| *n == name) {
            let slot = self.0.iter_mut().find(|(n, _)| n == name)?;
            return Some(std::mem::replace(&mut slot.1, (*unknown).to_owned()));
        }
        let at = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(at).1)
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Builds tags from name/value pairs in order, checking each.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Tags, TagError> {
        let mut tags = Tags::new();
        for (name, value) in pairs {
            tags.set(name, value)?;
        }
        Ok(tags)
    }
}

impl Serialize for Tags {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (n, v) in self.iter() {
            map.serialize_entry(n, v)?;
        }
        map.end()
    }
}

/// Reads a JSON object of tags in order and checks every name and value as [`Tags::set`]
/// does (the roster tags come first whatever the input order).
impl<'de> Deserialize<'de> for Tags {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tags, D::Error> {
        let pairs = OrderedPairs::deserialize(deserializer)?;
        Tags::from_pairs(pairs.0.iter().map(|(n, v)| (n.as_str(), v.as_str())))
            .map_err(serde::de::Error::custom)
    }
}

/// A JSON object read with its keys in order (duplicates kept), checked later.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct OrderedPairs(Vec<(String, String)>);

impl<'de> Deserialize<'de> for OrderedPairs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OrderedPairs, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = OrderedPairs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of tag names to string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedPairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    pairs.push((k, v));
                }
                Ok(OrderedPairs(pairs))
            }
        }
        deserializer.deserialize_map(PairsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_first_then_insertion_order() {
        let tags =
            Tags::from_pairs([("Annotator", "me"), ("White", "Ann"), ("ECO", "C20")]).unwrap();
        let names: Vec<&str> = tags.iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Annotator",
                "ECO"
            ]
        );
        assert_eq!(tags.get("White"), Some("Ann"));
        assert_eq!(tags.get("Black"), Some("?"));
    }

    #[test]
    fn refuses_bad_and_derived_tags() {
        let mut tags = Tags::new();
        assert_eq!(
            tags.set("Result", "1-0"),
            Err(TagError::Derived("Result".into()))
        );
        assert_eq!(
            tags.set("KriegspielRules", "x"),
            Err(TagError::Derived("KriegspielRules".into()))
        );
        assert_eq!(
            tags.set("bad name", "x"),
            Err(TagError::BadName("bad name".into()))
        );
        assert_eq!(tags.set("", "x"), Err(TagError::BadName(String::new())));
        assert_eq!(
            tags.set("Note", "two\nlines"),
            Err(TagError::BadValue("Note".into()))
        );
        assert_eq!(tags, Tags::new());
    }

    #[test]
    fn reads_back_what_it_writes_and_checks_what_it_reads() {
        let tags = Tags::from_pairs([("Annotator", "me"), ("White", "Ann")]).unwrap();
        let json = serde_json::to_string(&tags).unwrap();
        assert_eq!(serde_json::from_str::<Tags>(&json).unwrap(), tags);
        let bad = serde_json::from_str::<Tags>(r#"{"Result": "1-0"}"#).unwrap_err();
        assert!(bad.to_string().contains("derived"), "{bad}");
        assert!(serde_json::from_str::<Tags>(r#"{"White": 3}"#).is_err());
    }

    #[test]
    fn remove_resets_roster_tags() {
        let mut tags = Tags::from_pairs([("White", "Ann"), ("Note", "x")]).unwrap();
        assert_eq!(tags.remove("White").as_deref(), Some("Ann"));
        assert_eq!(tags.remove("Note").as_deref(), Some("x"));
        assert_eq!(tags.remove("Note"), None);
        assert_eq!(tags, Tags::new());
    }
}
