//! The file format: determinism, round trip, and clear errors on bad files.

mod common;

use common::krk;
use umpire_tablebase::{BuildOptions, Ending, FormatError, MAGIC, Tablebase};

fn build(max_depth: u8, threads: usize) -> Tablebase {
    Tablebase::build(Ending::Krk, BuildOptions { max_depth, threads }, |_| {})
}

#[test]
fn building_twice_gives_identical_bytes_whatever_the_threads() {
    let one = build(15, 1);
    let two = build(15, 2);
    assert!(!one.is_complete());
    assert_eq!(one.to_bytes(), two.to_bytes());
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
