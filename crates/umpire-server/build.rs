//! Embeds the web site: lists every file of the committed `web/dist` (built by `npm run build`
//! in `web/`) as an `include_bytes!` in `$OUT_DIR/site_files.rs`, so that building the server
//! needs no Node. Without `web/dist` (the crate built outside its workspace) the list is empty and
//! the site's pages answer 404.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, base, out);
        } else if let Ok(rel) = path.strip_prefix(base) {
            let name = rel.to_string_lossy().replace('\\', "/");
            out.push((name, path.clone()));
        }
    }
}

fn main() {
    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dist = manifest.join("../../web/dist");
    println!("cargo:rerun-if-changed={}", dist.display());
    let mut files = Vec::new();
    walk(&dist, &dist, &mut files);
    let mut code = String::from("/// Every file of `web/dist`: its path there and its bytes.\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let abs = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("site_files.rs");
    fs::write(out, code).expect("write site_files.rs");
}
