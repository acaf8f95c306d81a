//! A copy of the workspace to inject a leak into: the tests that show a hiding suite bites
//! (`tests/injected_leaks.rs` of `umpire-view` and `umpire-server`) copy the workspace, patch
//! one line of it and require the suite to fail there.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (two levels above this crate, as above every crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("workspace root")
        .to_path_buf()
}

/// Copies the workspace's files (as git lists them, with their current contents) to `to`.
pub fn copy_workspace(to: &Path) {
    for (src, dst) in workspace_files(to) {
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&src, &dst).expect("copy");
    }
}

/// Brings an earlier copy at `to` back to the workspace's current contents: writes only the
/// files whose contents differ (a file patched for the previous leak, say), so the others keep
/// their modification times and cargo rebuilds only the crates that changed. Files removed
/// from the workspace since stay in the copy.
pub fn sync_workspace(to: &Path) {
    for (src, dst) in workspace_files(to) {
        let text = std::fs::read(&src).expect("read");
        if std::fs::read(&dst).is_ok_and(|old| old == text) {
            continue;
        }
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::write(&dst, text).expect("write");
    }
}

/// Each workspace file (as git lists them) and where it goes in a copy at `to`.
fn workspace_files(to: &Path) -> Vec<(PathBuf, PathBuf)> {
    let root = workspace_root();
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
    out.stdout
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(|name| Path::new(std::str::from_utf8(name).expect("UTF-8 path")))
        .map(|rel| (root.join(rel), to.join(rel)))
        .filter(|(src, _)| src.is_file())
        .collect()
}

/// Replaces `from` (which must occur exactly once) by `to` in `file` of the copy at `root`.
pub fn patch(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        text.matches(from).count(),
        1,
        "{file}: the text to patch moved"
    );
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}
