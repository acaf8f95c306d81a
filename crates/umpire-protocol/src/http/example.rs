//! The test helper of the body types: an example body writes as the JSON the docs show and
//! reads back as itself.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `body` serialises as `want` (the JSON of `docs/SERVER.md`) and `want` reads back as `body`.
pub fn check<T>(body: &T, want: Value)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(serde_json::to_value(body).unwrap(), want);
    let back: T = serde_json::from_value(want).unwrap();
    assert_eq!(&back, body);
}
