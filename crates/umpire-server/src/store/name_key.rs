//! [`name_key`]: a user name as names are compared — `alice`, `ALICE` and `ａｌｉｃｅ` are one
//! name. Stored in `users.name_key` (unique) beside the name as written.

use unicode_normalization::UnicodeNormalization;

/// The key of `name`: Unicode compatibility normalisation (NFKC), then lower case, then NFKC
/// again (lower-casing can leave a string unnormalised).
pub fn name_key(name: &str) -> String {
    let lowered: String = name.nfkc().collect::<String>().to_lowercase();
    lowered.nfkc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_and_compatibility_forms_are_one_name() {
        assert_eq!(name_key("alice"), "alice");
        assert_eq!(name_key("ALICE"), "alice");
        assert_eq!(name_key("AlIcE"), "alice");
        assert_eq!(name_key("ａｌｉｃｅ"), "alice");
        assert_ne!(name_key("alice"), name_key("alice2"));
    }
}
