//! The endgame tables' disk cache: a built table is written once and read back the same; a
//! damaged or foreign file is rebuilt and replaced, never trusted.

use std::path::PathBuf;

use umpire_ai::endgame::tables::{Source, cache_file, load_or_build, obtain, take_lock};
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
    // No temporary file is left beside it: the table and the ending's lock file only.
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let table_name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(names, [".krk.lock".to_owned(), table_name]);
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

#[test]
fn builders_sharing_an_empty_cache_build_each_table_once_and_end_with_the_same_table() {
    let dir = scratch("shared");
    // Four builders at once, each opening the lock file on its own as separate processes do
    // (the lock belongs to the open file, so threads contend for it as processes would).
    let results: Vec<(Vec<u8>, Source)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let (table, source) = obtain(Ending::Krk, Some(&dir));
                    (table.as_bytes().to_vec(), source)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let built = results.iter().filter(|(_, s)| *s == Source::Built).count();
    assert_eq!(
        built,
        1,
        "{:?}",
        results.iter().map(|r| r.1).collect::<Vec<_>>()
    );
    let on_disk = std::fs::read(cache_file(&dir, Ending::Krk)).unwrap();
    for (bytes, _) in &results {
        assert_eq!(bytes, &on_disk);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_waiting_builder_loads_what_the_lock_holder_wrote_and_a_dead_builders_leftovers_go() {
    let dir = scratch("waiter");
    std::fs::create_dir_all(&dir).unwrap();
    // A builder killed while writing left a half-written temporary file.
    let leftover = dir.join(".krk.999999.tmp");
    std::fs::write(&leftover, b"half a table").unwrap();
    let lock = take_lock(&dir, Ending::Krk).expect("the lock is taken");
    let waiter = std::thread::spawn({
        let dir = dir.clone();
        move || obtain(Ending::Krk, Some(&dir))
    });
    // While the lock is held the waiter cannot build; the holder writes the table, as the
    // builder in another process would, then lets go.
    let table = load_or_build(Ending::Krk, None);
    std::fs::write(cache_file(&dir, Ending::Krk), table.as_bytes()).unwrap();
    drop(lock);
    let (got, source) = waiter.join().unwrap();
    assert_eq!(source, Source::Loaded);
    assert_eq!(got.as_bytes(), table.as_bytes());
    // The leftover is removed by the next build under the lock.
    assert!(leftover.exists());
    std::fs::remove_file(cache_file(&dir, Ending::Krk)).unwrap();
    let (_, source) = obtain(Ending::Krk, Some(&dir));
    assert_eq!(source, Source::Built);
    assert!(!leftover.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_the_endings_without_a_cache_file_are_to_build() {
    use umpire_ai::endgame::tables::to_build_in;
    let dir = scratch("to-build");
    // KQK, KBBK and KBNK are never built in this test process, so memory does not hide them.
    let endings = [Ending::Kqk, Ending::Kbbk, Ending::Kbnk];
    assert_eq!(to_build_in(None, &endings), endings);
    assert_eq!(to_build_in(Some(&dir), &endings), endings);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(cache_file(&dir, Ending::Kbbk), b"any file counts as there").unwrap();
    assert_eq!(
        to_build_in(Some(&dir), &endings),
        [Ending::Kqk, Ending::Kbnk]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
