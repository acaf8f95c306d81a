//! The process-wide tablebases: each built at its first need, once, and shared by every agent
//! of the process (a [`OnceLock`] per ending).

use std::sync::OnceLock;

use umpire_tablebase::{BuildOptions, Ending, Tablebase};

static KRK: OnceLock<Tablebase> = OnceLock::new();
static KQK: OnceLock<Tablebase> = OnceLock::new();
static KBBK: OnceLock<Tablebase> = OnceLock::new();
static KBNK: OnceLock<Tablebase> = OnceLock::new();

/// The complete table of `ending`, built on first call (KRK about 0.6 s, KQK 2.7 s, KBBK 10 s,
/// KBNK 31 s on the project's two-core machine; callers at the same time wait for one build).
pub fn table(ending: Ending) -> &'static Tablebase {
    let cell = match ending {
        Ending::Krk => &KRK,
        Ending::Kqk => &KQK,
        Ending::Kbbk => &KBBK,
        Ending::Kbnk => &KBNK,
    };
    cell.get_or_init(|| Tablebase::build(ending, BuildOptions::default(), |_| {}))
}

/// Whether the table of `ending` is built already.
pub fn is_built(ending: Ending) -> bool {
    match ending {
        Ending::Krk => KRK.get().is_some(),
        Ending::Kqk => KQK.get().is_some(),
        Ending::Kbbk => KBBK.get().is_some(),
        Ending::Kbnk => KBNK.get().is_some(),
    }
}
