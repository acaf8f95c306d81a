//! The process-wide tablebases: each loaded or built at its first need, once, and shared by
//! every agent of the process (a [`OnceLock`] per ending).
//!
//! A built table is kept in a cache directory so that the next process maps it from disk
//! instead of building it again (KBNK takes about 31 s to build, a few milliseconds to load).
//! The directory is `$UMPIRE_TABLE_DIR` if set, else `$XDG_CACHE_HOME/umpire/tables`, else
//! `$HOME/.cache/umpire/tables`; `UMPIRE_TABLE_DIR=` (empty) turns the cache off. A cached file
//! that cannot be read (truncated, another format version, another ending) is rebuilt and
//! replaced; a cache that cannot be written is skipped. Either way the table is the same, so
//! the agents' play never depends on the cache.
//!
//! Several processes on one machine share the cache (a server, engines, matches started at
//! once): a process builds an ending only while it holds that ending's lock file in the cache
//! directory (`.krk.lock`, …; an advisory lock of the operating system, released when the
//! process ends however it ends, so a killed builder leaves no lock behind). Another process
//! that needs the same ending meanwhile waits for the lock, then loads the file the builder
//! wrote instead of building it again ([`obtain`]). A table is written to a temporary name and
//! renamed into place, so no reader ever maps a half-written file; the temporary file of a
//! builder killed while writing is removed by the next builder.
//!
//! A load is not free either (KBNK's file is about 120 MB, checked as it is read: a few hundred
//! milliseconds), and a build takes seconds, so whoever runs agents under a budget loads the
//! tables before the first decision ([`prepare`]: the match runner before its games, the
//! server at start-up); a decision then only looks the table up. Without that a decision loads
//! the table at its first need, as before ([`loaded_at_need`] counts those), so an agent built
//! anywhere still plays the same moves: the tables change when a decision pays, never what it
//! decides.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use umpire_tablebase::{BuildOptions, Ending, FORMAT_VERSION, Tablebase};

static KRK: OnceLock<Tablebase> = OnceLock::new();
static KQK: OnceLock<Tablebase> = OnceLock::new();
static KBBK: OnceLock<Tablebase> = OnceLock::new();
static KBNK: OnceLock<Tablebase> = OnceLock::new();

/// Tables loaded or built at a decision's first need rather than by [`prepare`].
static AT_NEED: AtomicU64 = AtomicU64::new(0);

fn cell(ending: Ending) -> &'static OnceLock<Tablebase> {
    match ending {
        Ending::Krk => &KRK,
        Ending::Kqk => &KQK,
        Ending::Kbbk => &KBBK,
        Ending::Kbnk => &KBNK,
    }
}

/// The complete table of `ending`: from the cache directory if a valid copy is there, else
/// built (KRK about 0.6 s, KQK 2.7 s, KBBK 10 s, KBNK 31 s on the project's two-core machine)
/// and written to the cache. Callers at the same time wait for one load or build. A table
/// not [`prepare`]d yet is loaded here, at the caller's expense ([`loaded_at_need`]).
pub fn table(ending: Ending) -> &'static Tablebase {
    cell(ending).get_or_init(|| {
        AT_NEED.fetch_add(1, Ordering::Relaxed);
        load_or_build(ending, cache_dir().as_deref())
    })
}

/// Loads (or builds) the tables of `endings` now, each once per process, so that no decision
/// pays for them later (issue 28 goal 3: a decision keeps to its budget, table loads included).
/// Blocks until they are in memory: call it before the first game, or on a thread of its own.
/// Answers where each came from: `None` for one in memory already (or put there meanwhile by a
/// decision's first need).
pub fn prepare(endings: &[Ending]) -> Vec<(Ending, Option<Source>)> {
    endings
        .iter()
        .map(|&ending| {
            let mut source = None;
            cell(ending).get_or_init(|| {
                let (table, from) = obtain(ending, cache_dir().as_deref());
                source = Some(from);
                table
            });
            (ending, source)
        })
        .collect()
}

/// Which of `endings` a [`prepare`] with the cache directory `dir` would build rather than load:
/// those not in memory in this process whose cache file is absent from `dir` (every one not in
/// memory when there is no directory). Only looks for the files, so it is instant; a damaged
/// file, which [`obtain`] rebuilds, counts as present. For the command line's notice before a
/// first run's build (KBNK alone takes about 31 s).
pub fn to_build_in(dir: Option<&Path>, endings: &[Ending]) -> Vec<Ending> {
    endings
        .iter()
        .copied()
        .filter(|&ending| !is_built(ending))
        .filter(|&ending| dir.is_none_or(|dir| !cache_file(dir, ending).is_file()))
        .collect()
}

/// How many tables this process loaded or built at a decision's first need ([`table`]) instead
/// of beforehand ([`prepare`]): each was a decision that paid for a load or build.
pub fn loaded_at_need() -> u64 {
    AT_NEED.load(Ordering::Relaxed)
}

/// Whether the table of `ending` is loaded or built already in this process.
pub fn is_built(ending: Ending) -> bool {
    cell(ending).get().is_some()
}

/// The cache directory, if any (see the [module documentation](self)).
pub fn cache_dir() -> Option<PathBuf> {
    let nonempty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = std::env::var_os("UMPIRE_TABLE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    if let Some(dir) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("umpire").join("tables"));
    }
    nonempty("HOME").map(|home| {
        PathBuf::from(home)
            .join(".cache")
            .join("umpire")
            .join("tables")
    })
}

/// The file of `ending` in a cache directory (the name carries the format version, so a build
/// with another format never reads it).
pub fn cache_file(dir: &Path, ending: Ending) -> PathBuf {
    dir.join(format!("{}-v{FORMAT_VERSION}.umptb", ending.as_str()))
}

/// Where [`obtain`] got a table from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from the cache directory.
    Loaded,
    /// Built by this call (and written to the cache directory, if it could be).
    Built,
}

/// The table of `ending` from `dir` if a complete, valid copy of that ending is there; else
/// built and, when `dir` is given, written there (to a temporary file renamed into place, so a
/// reader never maps a half-written file). See [`obtain`].
pub fn load_or_build(ending: Ending, dir: Option<&Path>) -> Tablebase {
    obtain(ending, dir).0
}

/// The table of `ending` and where it came from: loaded from `dir` if a complete, valid copy
/// is there; else built under `dir`'s lock for `ending`, so that processes sharing `dir` build
/// each ending once (the others wait for the lock, then load the builder's file). Without
/// `dir`, or when its lock file cannot be created, the table is built without a lock.
pub fn obtain(ending: Ending, dir: Option<&Path>) -> (Tablebase, Source) {
    let Some(dir) = dir else {
        return (build(ending), Source::Built);
    };
    if let Some(table) = load_valid(dir, ending) {
        return (table, Source::Loaded);
    }
    // Held until the table is in place (dropping the file releases the lock).
    let lock = take_lock(dir, ending);
    if lock.is_some()
        && let Some(table) = load_valid(dir, ending)
    {
        // Another process built it while this one waited.
        return (table, Source::Loaded);
    }
    if lock.is_some() {
        remove_stale_temporaries(dir, ending);
    }
    let table = build(ending);
    // A cache that cannot be written only costs the next process a rebuild.
    let _ = store(&table, dir, ending);
    drop(lock);
    (table, Source::Built)
}

fn build(ending: Ending) -> Tablebase {
    Tablebase::build(ending, BuildOptions::default(), |_| {})
}

/// The cached table of `ending` in `dir`, if a complete, valid copy of that ending is there.
fn load_valid(dir: &Path, ending: Ending) -> Option<Tablebase> {
    let table = Tablebase::load(&cache_file(dir, ending)).ok()?;
    (table.ending() == ending && table.is_complete()).then_some(table)
}

/// The lock file of `ending` in `dir` (`.krk.lock`, …), locked exclusively: waits while
/// another process (or another open of it) holds it. `None` if it cannot be created or locked
/// (an unwritable cache, a file system without locks): the caller builds without it.
pub fn take_lock(dir: &Path, ending: Ending) -> Option<std::fs::File> {
    std::fs::create_dir_all(dir).ok()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(format!(".{}.lock", ending.as_str())))
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

/// Removes the temporary files of `ending` a builder killed while writing left in `dir`; only
/// called under `ending`'s lock, so no live builder is writing one.
fn remove_stale_temporaries(dir: &Path, ending: Ending) {
    let prefix = format!(".{}.", ending.as_str());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn store(table: &Tablebase, dir: &Path, ending: Ending) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = cache_file(dir, ending);
    let tmp = dir.join(format!(".{}.{}.tmp", ending.as_str(), std::process::id()));
    table
        .save(&tmp)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    std::fs::rename(&tmp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
