//! [`TableLoading`]: when a long-running process (`umpire serve`, `umpire engine`) loads the
//! endgame tables its agents play: all at start, on a thread of their own (the default), or
//! each at a decision's first need.
//!
//! Loading at start keeps every decision within its budget (issue 28 goal 3): the first
//! decision to reach an ending finds the table in memory instead of reading it (a few hundred
//! milliseconds for KBNK's 120 MB) or, on a machine without the cache, building it (KBNK about
//! 31 s). The price is memory (about 200 MB once every table is in) and, on a machine without
//! the cache, the builds' CPU at start (about 45 s of two cores). A test or a small
//! deployment that starts many short-lived processes whose agents rarely or never reach an
//! ending chooses [`TableLoading::Lazy`]: the same moves, only the first decision in an
//! ending pays for its table.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use umpire_tablebase::Ending;

use super::tables::Source;
use super::{EndgameConfig, prepare_tables};

/// The environment variable a process reads its [`TableLoading`] from when no option names
/// one (`UMPIRE_TABLES=lazy`): test harnesses set it once for every process they start.
pub const TABLES_ENV: &str = "UMPIRE_TABLES";

/// When a process loads the endgame tables (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableLoading {
    /// Every table the agents use, at start, on a thread of its own (loaded from the cache,
    /// or built and cached on a machine without it).
    #[default]
    Eager,
    /// Each table at the first decision that needs it, which pays for the load.
    Lazy,
}

impl TableLoading {
    /// Both, as the option spells them.
    pub const ALL: [TableLoading; 2] = [TableLoading::Eager, TableLoading::Lazy];

    /// The name: `"eager"` or `"lazy"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TableLoading::Eager => "eager",
            TableLoading::Lazy => "lazy",
        }
    }

    /// `option` if given, else what [`TABLES_ENV`] says, else [`TableLoading::Eager`]. An
    /// unknown value in the environment is an error, as it is in the option.
    pub fn from_option_or_env(option: Option<TableLoading>) -> Result<TableLoading, String> {
        if let Some(loading) = option {
            return Ok(loading);
        }
        match std::env::var(TABLES_ENV) {
            Ok(value) if !value.is_empty() => value
                .parse()
                .map_err(|e: String| format!("{TABLES_ENV}: {e}")),
            _ => Ok(TableLoading::Eager),
        }
    }

    /// Starts loading the tables of `config` on a thread of its own if `self` is
    /// [`TableLoading::Eager`]; the thread answers how long it took and what it did
    /// ([`describe`]). `None` when lazy or when no thread could be started (then each table
    /// loads at its first need).
    pub fn start(
        self,
        config: EndgameConfig,
    ) -> Option<std::thread::JoinHandle<(Duration, String)>> {
        if self == TableLoading::Lazy {
            return None;
        }
        std::thread::Builder::new()
            .name("endgame-tables".to_owned())
            .spawn(move || {
                let start = Instant::now();
                let done = prepare_tables(config);
                (start.elapsed(), describe(&done))
            })
            .ok()
    }
}

/// What [`prepare_tables`] did, in a few words for a log: `krk loaded, kqk built, …`.
pub fn describe(done: &[(Ending, Option<Source>)]) -> String {
    let words: Vec<String> = done
        .iter()
        .map(|(ending, source)| {
            let how = match source {
                Some(Source::Loaded) => "loaded",
                Some(Source::Built) => "built",
                None => "in memory already",
            };
            format!("{} {how}", ending.as_str())
        })
        .collect();
    words.join(", ")
}

impl fmt::Display for TableLoading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TableLoading {
    type Err = String;

    fn from_str(text: &str) -> Result<TableLoading, String> {
        TableLoading::ALL
            .into_iter()
            .find(|l| l.as_str() == text)
            .ok_or_else(|| format!("{text:?} is not a way to load the tables (eager or lazy)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_read_back_and_others_are_refused() {
        for loading in TableLoading::ALL {
            assert_eq!(loading.as_str().parse::<TableLoading>(), Ok(loading));
        }
        assert!("off".parse::<TableLoading>().is_err());
        assert!("Eager".parse::<TableLoading>().is_err());
    }

    #[test]
    fn an_option_wins_over_the_environment() {
        assert_eq!(
            TableLoading::from_option_or_env(Some(TableLoading::Lazy)),
            Ok(TableLoading::Lazy)
        );
    }

    #[test]
    fn a_log_says_where_each_table_came_from() {
        let done = [
            (Ending::Krk, Some(Source::Loaded)),
            (Ending::Kbnk, Some(Source::Built)),
            (Ending::Kqk, None),
        ];
        assert_eq!(
            describe(&done),
            "krk loaded, kbnk built, kqk in memory already"
        );
    }

    #[test]
    fn lazy_starts_nothing() {
        assert!(TableLoading::Lazy.start(EndgameConfig::default()).is_none());
    }
}
