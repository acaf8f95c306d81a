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

/// The workspace root (two levels above this crate).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("workspace root")
        .to_path_buf()
}

/// Copies the workspace's files (as git lists them, with their current contents) to `to`.
fn copy_workspace(to: &Path) {
    let root = workspace();
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(&root)
        .output()
        .expect("git ls-files");
    assert!(out.status.success());
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let rel = Path::new(std::str::from_utf8(name).expect("UTF-8 path"));
        let (src, dst) = (root.join(rel), to.join(rel));
        if src.is_file() {
            std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

/// Replaces `from` (which must occur exactly once) by `to` in `file` of the copy.
fn patch(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        text.matches(from).count(),
        1,
        "{file}: the text to patch moved"
    );
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

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
