//! The endgame tables' disk cache: a built table is written once and read back the same; a
//! damaged or foreign file is rebuilt and replaced, never trusted.

use std::path::PathBuf;

use umpire_ai::endgame::tables::{cache_file, load_or_build};
use umpire_tablebase::Ending;

/// A fresh directory under the target's temporary directory, removed by the caller.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("umpire-table-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_built_table_is_cached_and_read_back_identical() {
    let dir = scratch("roundtrip");
    let built = load_or_build(Ending::Krk, Some(&dir));
    let path = cache_file(&dir, Ending::Krk);
    let on_disk = std::fs::read(&path).expect("the build wrote the cache file");
    assert_eq!(on_disk, built.as_bytes());
    let loaded = load_or_build(Ending::Krk, Some(&dir));
    assert_eq!(loaded.as_bytes(), built.as_bytes());
    assert_eq!(loaded.ending(), Ending::Krk);
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_or_foreign_cache_file_is_rebuilt_and_replaced() {
    let dir = scratch("damaged");
    let good = load_or_build(Ending::Krk, None);
    std::fs::create_dir_all(&dir).unwrap();
    let path = cache_file(&dir, Ending::Krk);
    // Truncated.
    std::fs::write(&path, &good.as_bytes()[..good.as_bytes().len() / 2]).unwrap();
    assert_eq!(
        load_or_build(Ending::Krk, Some(&dir)).as_bytes(),
        good.as_bytes()
    );
    assert_eq!(std::fs::read(&path).unwrap(), good.as_bytes());
    // One byte flipped (the checksum catches it).
    let mut flipped = good.as_bytes().to_vec();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert_eq!(
        load_or_build(Ending::Krk, Some(&dir)).as_bytes(),
        good.as_bytes()
    );
    assert_eq!(std::fs::read(&path).unwrap(), good.as_bytes());
    // Another ending's table under KRK's name.
    let kqk = load_or_build(Ending::Kqk, None);
    std::fs::write(&path, kqk.as_bytes()).unwrap();
    let again = load_or_build(Ending::Krk, Some(&dir));
    assert_eq!(again.ending(), Ending::Krk);
    assert_eq!(again.as_bytes(), good.as_bytes());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_cache_still_gives_the_table() {
    let dir = scratch("unwritable");
    // A file where the directory should be: nothing can be created under it.
    std::fs::write(&dir, b"not a directory").unwrap();
    let table = load_or_build(Ending::Krk, Some(&dir.join("sub")));
    assert_eq!(
        table.as_bytes(),
        load_or_build(Ending::Krk, None).as_bytes()
    );
    std::fs::remove_file(&dir).unwrap();
}
