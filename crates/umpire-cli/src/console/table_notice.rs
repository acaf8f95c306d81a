//! The notice a command prints before it builds the endgame tables: on a machine that has
//! never run `umpire`, the first game of an agent that plays the tables would otherwise sit at
//! "0 games" for a minute or more while they are built (KBNK alone takes about 31 s of CPU on a
//! quiet two-core machine, longer on a busy one), with no word of why. Later runs load them from
//! the cache in about a second and print nothing.

use std::path::Path;
use std::time::Instant;

use umpire_ai::endgame::{EndgameConfig, prepare_tables, table_endings, tables};
use umpire_tablebase::Ending;

/// What to say before building `to_build` (empty: nothing to say) for `command`, with the
/// cache directory `dir` the tables will be kept in, if any.
pub fn notice(command: &str, to_build: &[Ending], dir: Option<&Path>) -> Option<String> {
    if to_build.is_empty() {
        return None;
    }
    let names: Vec<&str> = to_build.iter().map(|e| e.as_str()).collect();
    let kept = match dir {
        Some(dir) => format!(
            "they are kept in {} and later runs load them in about a second",
            dir.display()
        ),
        None => "no cache directory (set UMPIRE_TABLE_DIR to keep them), so every run builds them"
            .to_owned(),
    };
    Some(format!(
        "{command}: building the endgame tables ({}) before the first game: about a minute of CPU \
         on a quiet machine; {kept}.",
        names.join(", ")
    ))
}

/// Loads the tables of the default endgame configuration before any decision needs them,
/// saying on stderr first if they must be built, and when they are ready.
pub fn prepare_with_notice(command: &str) {
    let dir = tables::cache_dir();
    let endings = table_endings(EndgameConfig::default());
    let to_build = tables::to_build_in(dir.as_deref(), &endings);
    let Some(text) = notice(command, &to_build, dir.as_deref()) else {
        prepare_tables(EndgameConfig::default());
        return;
    };
    eprintln!("{text}");
    let start = Instant::now();
    prepare_tables(EndgameConfig::default());
    eprintln!(
        "{command}: endgame tables ready in {:.0} s.",
        start.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silent_when_nothing_is_to_build_and_names_the_endings_otherwise() {
        let dir = Path::new("cache");
        assert_eq!(notice("umpire match", &[], Some(dir)), None);
        let text = notice("umpire match", &[Ending::Kqk, Ending::Kbnk], Some(dir)).unwrap();
        assert!(text.starts_with("umpire match: building the endgame tables (kqk, kbnk)"));
        assert!(text.contains("kept in cache"));
        let text = notice("umpire play", &[Ending::Krk], None).unwrap();
        assert!(text.contains("(krk)"));
        assert!(text.contains("UMPIRE_TABLE_DIR"));
    }
}
