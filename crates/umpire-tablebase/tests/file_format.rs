//! The file format: determinism, round trip, and clear errors on bad files.

mod common;

use common::krk;
use umpire_tablebase::{BuildOptions, Ending, FormatError, MAGIC, Tablebase};

fn build(max_depth: u8, threads: usize) -> Tablebase {
    build_of(Ending::Krk, max_depth, threads)
}

fn build_of(ending: Ending, max_depth: u8, threads: usize) -> Tablebase {
    Tablebase::build(ending, BuildOptions { max_depth, threads }, |_| {})
}

#[test]
fn building_twice_gives_identical_bytes_whatever_the_threads() {
    let one = build(15, 1);
    let two = build(15, 2);
    assert!(!one.is_complete());
    assert_eq!(one.to_bytes(), two.to_bytes());
    for (ending, depth) in [(Ending::Kqk, 6), (Ending::Kbbk, 6), (Ending::Kbnk, 6)] {
        let one = build_of(ending, depth, 1);
        let two = build_of(ending, depth, 2);
        assert!(one.len() > 1000, "{ending}");
        assert!(one.as_bytes() == two.as_bytes(), "{ending}");
    }
}

#[test]
fn a_saved_table_is_memory_mapped_back_unchanged() {
    let table = krk();
    let path = std::env::temp_dir().join(format!("umpire-tb-test-{}.tb", std::process::id()));
    table.save(&path).unwrap();
    let loaded = Tablebase::load(&path);
    std::fs::remove_file(&path).unwrap();
    let loaded = loaded.unwrap();
    assert!(loaded.as_bytes() == table.as_bytes());
    assert_eq!(loaded.len(), table.len());
    assert_eq!(loaded.longest_mate(), table.longest_mate());
    for i in (0..table.layouts().len()).step_by(37) {
        assert!(loaded.entries_of(i).eq(table.entries_of(i)));
    }
    let empty = std::env::temp_dir().join(format!("umpire-tb-empty-{}.tb", std::process::id()));
    std::fs::write(&empty, b"").unwrap();
    let err = Tablebase::load(&empty);
    std::fs::remove_file(&empty).unwrap();
    assert!(matches!(err, Err(FormatError::Truncated)));
}

#[test]
fn version_one_files_are_refused_with_a_clear_error() {
    // The header of a version 1 file: magic, version 1, KRK, wild16, complete.
    let mut old = MAGIC.to_vec();
    old.extend_from_slice(&1u16.to_le_bytes());
    old.extend_from_slice(&[1, 1, 1, 6, 2, 0, 0]);
    let err = Tablebase::from_bytes(&old).unwrap_err();
    assert!(matches!(err, FormatError::Version(1)));
    assert!(err.to_string().contains("rebuild"), "{err}");
}

/// Two complete builds (a few seconds each): `cargo test --release -p umpire-tablebase -- --ignored`.
#[test]
#[ignore]
fn two_complete_builds_give_identical_bytes() {
    assert!(krk().to_bytes() == build(u8::MAX, 1).to_bytes());
}

#[test]
fn round_trip_keeps_every_entry() {
    let table = krk();
    let bytes = table.to_bytes();
    assert_eq!(&bytes[..8], &MAGIC);
    let read = Tablebase::from_bytes(&bytes).unwrap();
    assert_eq!(read.to_bytes(), bytes);
    assert_eq!(read.len(), table.len());
    assert!(read.is_complete());
    let mut via_io = Vec::new();
    table.write_to(&mut via_io).unwrap();
    assert_eq!(
        Tablebase::read_from(via_io.as_slice()).unwrap().to_bytes(),
        bytes
    );
}

#[test]
fn bad_files_give_errors_not_panics() {
    let bytes = krk().to_bytes();
    assert!(matches!(
        Tablebase::from_bytes(b"hello"),
        Err(FormatError::Truncated)
    ));
    assert!(matches!(
        Tablebase::from_bytes(b"NOTATABLEBASE..."),
        Err(FormatError::Magic)
    ));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(
        Tablebase::from_bytes(&version),
        Err(FormatError::Version(9))
    ));
    // Any truncation is caught, and so is a flipped bit anywhere after the header.
    for cut in [0, 9, 10, 20, 100, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            Tablebase::from_bytes(&bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    for at in [10, 11, 12, 13, 17, 1000, bytes.len() / 3, bytes.len() - 3] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        let err = Tablebase::from_bytes(&bad).unwrap_err();
        assert!(!err.to_string().is_empty());
    }
    // A wrong field with a correct checksum is still refused, with a reason.
    let mut forged = bytes[..bytes.len() - 8].to_vec();
    forged[11] = 7; // rule-set code
    let sum = {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &forged {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    };
    forged.extend_from_slice(&sum.to_le_bytes());
    assert!(matches!(
        Tablebase::from_bytes(&forged),
        Err(FormatError::Rules(7))
    ));
    let missing = std::path::Path::new("/nonexistent/umpire/krk.tb");
    assert!(matches!(Tablebase::load(missing), Err(FormatError::Io(_))));
}
