//! Leak injection, shared by the crates' `tests/injected_leaks.rs` (included with `#[path]`):
//! copy the workspace, patch a leak into the copy, run a hiding suite there and check that
//! the tests expected to catch the leak fail.
//!
//! The copies live under the system temp directory, one scratch folder per suite, with one
//! build directory shared by that suite's leaks (the copy is built once, then only the
//! patched crate per leak). Everything is built with `--profile ci`.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire_testkit::workspace_copy::{copy_workspace, patch};

/// A hiding suite that injected leaks must turn red.
pub struct Suite {
    /// The scratch folder's name under the system temp directory.
    pub scratch: &'static str,
    /// The package holding the suite.
    pub package: &'static str,
    /// The suite's test target (`--test` name).
    pub test: &'static str,
}

/// One change to the copy: in `file` (relative to the workspace root), `from` becomes `to`.
pub type Patch<'a> = (&'a str, &'a str, &'a str);

impl Suite {
    /// Patches `patches` into a fresh copy named `name`, runs the suite there and checks that
    /// every test of `must_fail` fails; returns the names of all failed tests.
    pub fn bites(&self, name: &str, patches: &[Patch<'_>], must_fail: &[&str]) -> Vec<String> {
        let (root, target) = self.scratch(name);
        copy_workspace(&root);
        for (file, from, to) in patches {
            patch(&root, file, from, to);
        }
        let failed = self.failed_tests(&root, &target);
        for test in must_fail {
            assert!(
                failed.iter().any(|f| f == test),
                "{test} stayed green under the injected leak {name}: {failed:?}"
            );
        }
        eprintln!("{name}: failed under the injected leak: {failed:?}");
        failed
    }

    /// A fresh copy's root for `name`, and the suite's build directory.
    fn scratch(&self, name: &str) -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(self.scratch);
        let root = base.join(name);
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("mkdir");
        (root, base.join("target"))
    }

    /// Runs the suite in the copy at `root`; the names of the failed tests.
    fn failed_tests(&self, root: &Path, target: &Path) -> Vec<String> {
        let out = Command::new(env!("CARGO"))
            .args([
                "test",
                "--profile",
                "ci",
                "-p",
                self.package,
                "--test",
                self.test,
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
}
