//! The suite must bite (issue 10): two leaks are injected into a copy of the workspace, and the
//! entitlement suite (`tests/entitlement.rs`) must fail under each.
//!
//! - `opponent_hears_illegal_attempts`: under wild16 the opponent hears every illegal attempt
//!   (the rebuff's audience becomes both players);
//! - `one_bit_of_the_position`: after each move the side to move is sent one bit of the true
//!   position (whether the mover has a man on e4, as an extra "pawn captures" announcement).
//!
//! Slow (it builds the copied workspace once, then the changed crate per leak): run with
//! `cargo test --release -p umpire-view --test injected_leaks -- --ignored`. Uses
//! `$CARGO_TARGET_DIR`-independent scratch space under the system temp directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire_testkit::workspace_copy::{copy_workspace, patch};

/// Runs the entitlement suite in the copy; returns the names of the failed tests.
fn failed_tests(root: &Path, target: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "--release",
            "-p",
            "umpire-view",
            "--test",
            "entitlement",
        ])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(root)
        .output()
        .expect("cargo test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.is_empty() || out.status.success(),
        "the copy did not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(str::to_owned)
        .collect()
}

fn scratch(name: &str) -> (PathBuf, PathBuf) {
    let base = std::env::temp_dir().join("umpire-injected-leaks");
    let root = base.join(name);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("mkdir");
    (root, base.join("target"))
}

const UMPIRE: &str = "crates/umpire-rules/src/umpire.rs";

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn opponent_hears_illegal_attempts() {
    let (root, target) = scratch("illegal");
    copy_workspace(&root);
    patch(
        &root,
        UMPIRE,
        "                self.rules.illegal.audience,\n                self.rebuff_word(self.rules.illegal.said_as_impossible),",
        "                Audience::Both,\n                self.rebuff_word(self.rules.illegal.said_as_impossible),",
    );
    let failed = failed_tests(&root, &target);
    assert!(
        failed.contains(&"observations_are_exactly_entitlements".to_owned()),
        "the suite stayed green under the injected leak: {failed:?}"
    );
    eprintln!("failed under the injected leak: {failed:?}");
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn one_bit_of_the_position() {
    let (root, target) = scratch("bit");
    copy_workspace(&root);
    patch(
        &root,
        UMPIRE,
        "        self.announce_checks(list);\n        match self.automatic_end() {",
        "        if self.pos.board().by_color(mover).contains(Square::E4) {\n            push(list, Audience::Opponent, Announcement::PawnCaptures);\n        }\n        self.announce_checks(list);\n        match self.automatic_end() {",
    );
    let failed = failed_tests(&root, &target);
    assert!(
        failed.contains(&"observations_are_exactly_entitlements".to_owned()),
        "the suite stayed green under the injected leak: {failed:?}"
    );
    eprintln!("failed under the injected leak: {failed:?}");
}
