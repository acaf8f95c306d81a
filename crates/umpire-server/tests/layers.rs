//! The crate's layers, checked: every `crate::…` path in `src/` (in `use` lines, `use crate::{…}`
//! groups and paths written inline) may name only its own folder or one below it in the order
//! that `src/lib.rs` writes on its `//! layers:` line, and no two files use each other, even
//! through others (no cycle).
//!
//! Paths are read from the code only: comments and doc comments are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crate's `src/` folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layer order written in `lib.rs`: `//! layers: a < b < c`, lowest first.
fn layer_order(lib: &str) -> Vec<String> {
    let line = lib
        .lines()
        .find_map(|l| l.trim().strip_prefix("//! layers:"))
        .expect("src/lib.rs has a `//! layers: a < b < …` line");
    line.split('<').map(|s| s.trim().to_owned()).collect()
}

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("readable entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).expect("under src").to_path_buf());
        }
    }
}

/// `text` without its `//` comments (and doc comments); string contents are kept.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            }
            if !in_string && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// Every path `crate::…` in `code`, groups expanded (`crate::a::{b, c::d}` gives `a::b` and
/// `a::c::d`), each as its segments after `crate`, with the line it is on.
fn crate_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 7 <= chars.len() {
        let starts = chars[i..i + 7].iter().collect::<String>() == "crate::"
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'));
        if starts {
            let line = chars[..i].iter().filter(|&&c| c == '\n').count() + 1;
            let mut pos = i + 7;
            let mut paths = Vec::new();
            tree(&chars, &mut pos, Vec::new(), &mut paths);
            out.extend(paths.into_iter().map(|p| (line, p)));
            i = pos.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn skip_space(chars: &[char], pos: &mut usize) {
    while *pos < chars.len() && chars[*pos].is_whitespace() {
        *pos += 1;
    }
}

/// Reads a use tree at `pos` (segments joined by `::`, perhaps ending in a `{…}` group) below
/// `prefix`, adding each whole path to `out`.
fn tree(chars: &[char], pos: &mut usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    loop {
        skip_space(chars, pos);
        if *pos < chars.len() && chars[*pos] == '{' {
            *pos += 1;
            loop {
                skip_space(chars, pos);
                if *pos >= chars.len() {
                    return;
                }
                if chars[*pos] == '}' {
                    *pos += 1;
                    return;
                }
                if chars[*pos] == ',' {
                    *pos += 1;
                    continue;
                }
                let before = *pos;
                tree(chars, pos, prefix.clone(), out);
                if *pos == before {
                    *pos += 1;
                }
            }
        }
        let start = *pos;
        while *pos < chars.len() && (chars[*pos].is_alphanumeric() || chars[*pos] == '_') {
            *pos += 1;
        }
        if *pos == start {
            // `*`, or the end of a path such as `crate::a::` before a `<`.
            if *pos < chars.len() && chars[*pos] == '*' {
                *pos += 1;
            }
            if !prefix.is_empty() {
                out.push(prefix);
            }
            return;
        }
        prefix.push(chars[start..*pos].iter().collect());
        let ahead = *pos;
        skip_space(chars, pos);
        if chars.get(*pos) == Some(&':') && chars.get(*pos + 1) == Some(&':') {
            *pos += 2;
            continue;
        }
        *pos = ahead;
        // `self` in a group names the prefix itself; `x as y` renames the same path.
        if prefix.last().is_some_and(|s| s == "self") {
            prefix.pop();
        }
        out.push(prefix);
        return;
    }
}

/// The file a path of segments lives in: the longest prefix that is a file of the crate.
fn file_of(files: &BTreeSet<PathBuf>, segments: &[String]) -> Option<PathBuf> {
    (1..=segments.len()).rev().find_map(|n| {
        let dir: PathBuf = segments[..n].iter().collect();
        [dir.with_extension("rs"), dir.join("mod.rs")]
            .into_iter()
            .find(|f| files.contains(f))
    })
}

/// The top-level module a file belongs to: its first folder, or its own name.
fn module_of(file: &Path) -> String {
    let first = file.components().next().expect("a path");
    let first = first.as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// What is wrong with the crate's layering: uses of a higher layer, modules the layer line
/// does not name, cycles between files.
fn problems(src: &Path) -> Vec<String> {
    let lib = fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let order = layer_order(&lib);
    let rank: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut list = Vec::new();
    rust_files(src, src, &mut list);
    let files: BTreeSet<PathBuf> = list.iter().cloned().collect();
    let mut problems = Vec::new();
    let mut uses: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in list.iter().filter(|f| *f != Path::new("lib.rs")) {
        let module = module_of(file);
        let Some(&own) = rank.get(module.as_str()) else {
            problems.push(format!(
                "{}: module `{module}` is not on the layers line of lib.rs",
                file.display()
            ));
            continue;
        };
        let text = fs::read_to_string(src.join(file)).expect("readable source");
        for (line, path) in crate_paths(&code_only(&text)) {
            let Some(target) = file_of(&files, &path) else {
                continue; // an item of lib.rs (`crate::Options`) or of a crate outside.
            };
            let used = module_of(&target);
            if let Some(&theirs) = rank.get(used.as_str())
                && theirs > own
            {
                problems.push(format!(
                    "{}:{line}: `{module}` uses `crate::{}`, of the higher layer `{used}`",
                    file.display(),
                    path.join("::")
                ));
            }
            if &target != file {
                uses.entry(file.clone()).or_default().insert(target);
            }
        }
    }
    for m in &order {
        if !files.iter().any(|f| &module_of(f) == m) {
            problems.push(format!(
                "the layers line of lib.rs names `{m}`, which has no file"
            ));
        }
    }
    if let Some(cycle) = find_cycle(&uses) {
        let names: Vec<String> = cycle.iter().map(|f| f.display().to_string()).collect();
        problems.push(format!(
            "files use each other in a cycle: {}",
            names.join(" -> ")
        ));
    }
    problems
}

/// A cycle of the graph, as its files with the first repeated at the end, if there is one.
fn find_cycle(uses: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &PathBuf,
        uses: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        marks: &mut BTreeMap<PathBuf, Mark>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack
                    .iter()
                    .position(|f| f == node)
                    .expect("open nodes are stacked");
                let mut cycle = stack[from..].to_vec();
                cycle.push(node.clone());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in uses.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, uses, marks, stack) {
                return Some(c);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    uses.keys()
        .find_map(|f| visit(f, uses, &mut marks, &mut Vec::new()))
}

#[test]
fn no_module_uses_a_higher_layer_and_no_files_form_a_cycle() {
    let problems = problems(&src());
    assert!(
        problems.is_empty(),
        "layering problems:\n{}",
        problems.join("\n")
    );
}

#[test]
fn paths_are_read_in_groups_and_inline_but_not_in_comments() {
    let code = code_only(
        "use crate::{error::ApiError, game::{hub, round::{self, Seat}}};\n\
         // crate::http::state::AppState in a comment\n\
         let x = crate::store::now_ms(); let s = \"a // b\"; crate::lobby::feed::X;\n",
    );
    let paths: Vec<String> = crate_paths(&code)
        .into_iter()
        .map(|(l, p)| format!("{l}:{}", p.join("::")))
        .collect();
    assert_eq!(
        paths,
        [
            "1:error::ApiError",
            "1:game::hub",
            "1:game::round",
            "1:game::round::Seat",
            "3:store::now_ms",
            "3:lobby::feed::X",
        ]
    );
}

#[test]
fn a_use_of_a_higher_layer_and_a_cycle_are_found() {
    // A copy of a tiny crate with `store` under `http`, where `store` reaches up and two of
    // its files use each other.
    let dir = std::env::temp_dir().join(format!("umpire-layers-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("store")).expect("temp folder");
    fs::create_dir_all(dir.join("http")).expect("temp folder");
    let write = |p: &str, t: &str| fs::write(dir.join(p), t).expect("temp file");
    write(
        "lib.rs",
        "//! layers: store < http\npub mod store;\npub mod http;\n",
    );
    write("store/mod.rs", "mod a;\nmod b;\nuse crate::http::State;\n");
    write("store/a.rs", "use crate::store::b::B;\n");
    write(
        "store/b.rs",
        "pub struct B;\nfn f() { crate::store::a::g(); }\n",
    );
    write(
        "http/mod.rs",
        "pub struct State;\nuse crate::store::{a, b::B};\n",
    );
    let found = problems(&dir);
    let _ = fs::remove_dir_all(&dir);
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("store/mod.rs:3: `store` uses `crate::http::State`")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("cycle: store/a.rs -> store/b.rs -> store/a.rs")),
        "{found:?}"
    );
    assert_eq!(found.len(), 2, "{found:?}");
}
