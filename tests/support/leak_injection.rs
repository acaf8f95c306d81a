//! Leak injection, shared by the crates' `tests/injected_leaks.rs` (included with `#[path]`):
//! copy the workspace, patch a leak into the copy, run a hiding suite there and check that
//! the tests expected to catch the leak fail.
//!
//! There is **one** copy of the workspace, `umpire-injected-leaks/workspace` under the system
//! temp directory, shared by every leak of both suites; before each leak it is brought back to
//! the workspace's contents (`sync_workspace`: only changed files are written, so the others
//! keep their times). One leak at a time, across processes too (an exclusive lock on
//! `umpire-injected-leaks/lock`), so the copy is built once and then only the patched crate and
//! those above it. The build directory is `UMPIRE_LEAKS_TARGET_DIR`, or
//! `umpire-injected-leaks-target` under the system temp directory. When it is new it is seeded
//! with the third-party crates already built for the running test (its own profile
//! directory's `deps`, `build` and `.fingerprint`, without the `umpire` crates and the test
//! binaries), so the cold build of the copy compiles only the workspace's crates; cargo
//! rebuilds anything it finds stale. Everything is built with `--profile ci`.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire_testkit::workspace_copy::{patch, sync_workspace};

/// A hiding suite that injected leaks must turn red.
pub struct Suite {
    /// The package holding the suite.
    pub package: &'static str,
    /// The suite's test target (`--test` name).
    pub test: &'static str,
}

/// One change to the copy: in `file` (relative to the workspace root), `from` becomes `to`.
pub type Patch<'a> = (&'a str, &'a str, &'a str);

impl Suite {
    /// Patches `patches` into the copy (brought back to the workspace first), runs the
    /// suite there and checks that every test of `must_fail` fails; returns the names of all
    /// failed tests.
    pub fn bites(&self, name: &str, patches: &[Patch<'_>], must_fail: &[&str]) -> Vec<String> {
        let scratch = std::env::temp_dir().join("umpire-injected-leaks");
        let root = scratch.join("workspace");
        std::fs::create_dir_all(&root).expect("mkdir");
        let turn = std::fs::File::create(scratch.join("lock")).expect("the lock file");
        turn.lock().expect("one leak at a time");
        sync_workspace(&root);
        for (file, from, to) in patches {
            patch(&root, file, from, to);
        }
        let target = target_dir();
        let started = std::time::Instant::now();
        let failed = self.failed_tests(&root, &target);
        eprintln!(
            "{name}: failed under the injected leak: {failed:?} ({} s, build and run)",
            started.elapsed().as_secs()
        );
        for test in must_fail {
            assert!(
                failed.iter().any(|f| f == test),
                "{test} stayed green under the injected leak {name}: {failed:?}"
            );
        }
        failed
    }

    /// The control: the suite's copy without any leak must pass (else a failure under a leak
    /// could have another cause).
    pub fn passes_unpatched(&self) {
        let failed = self.bites("no_leak", &[], &[]);
        assert!(failed.is_empty(), "the unpatched copy failed: {failed:?}");
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
        let failed: Vec<String> = stdout
            .lines()
            .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
            .map(str::to_owned)
            .collect();
        assert!(
            out.status.success() || !failed.is_empty(),
            "the suite failed without a failed test:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        failed
    }
}

/// The copies' build directory, seeded when new (see the module's doc).
fn target_dir() -> PathBuf {
    let target = std::env::var_os("UMPIRE_LEAKS_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("umpire-injected-leaks-target"));
    let profile = target.join("ci");
    if !profile.exists() {
        // This test's binary is `<target>/ci/deps/injected_leaks-<hash>`.
        let exe = std::env::current_exe().expect("the test's path");
        if let Some(built) = exe.parent().and_then(Path::parent) {
            seed(built, &profile);
        }
    }
    target
}

/// Copies the third-party crates built in the profile directory `from` to `to` (any file or
/// folder whose name starts with `umpire`/`libumpire` is the workspace's and left out, as are
/// the test binaries).
fn seed(from: &Path, to: &Path) {
    let ours = |name: &str| name.starts_with("umpire") || name.starts_with("libumpire");
    for dir in ["deps", "build", ".fingerprint"] {
        let Ok(entries) = std::fs::read_dir(from.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let wanted = match dir {
                "deps" => !ours(&name) && (name.starts_with("lib") || name.ends_with(".d")),
                _ => !ours(&name),
            };
            if wanted {
                copy_tree(&entry.path(), &to.join(dir).join(&name));
            }
        }
    }
}

/// Copies a file, or a folder and everything in it.
fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(from, to).expect("copy");
    }
}
