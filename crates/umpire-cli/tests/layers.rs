//! The module graph of the `umpire` binary, read from `src/`: no two modules may use each
//! other, directly or round a longer circle, and the console's shared pieces (`src/console/`)
//! use nothing of the commands or the screens.
//!
//! A module is one file. Module A uses module B when A names a path into B: a `use` line
//! (braces expanded) or a path in the code (`crate::console::record_file::save(…)`), from the
//! crate root (`crate::`, or a bare path in `main.rs`) or relative to A (`super::`, `self::`).
//! A path stands for the deepest module file it reaches. `mod x;` lines and the unit tests at
//! the end of a file (`#[cfg(test)] mod tests`) do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module: its path from the crate root (`["console", "input"]`; the root is empty).
type Module = Vec<String>;

/// Every module file below `src`, by module path, with its text (tests cut off).
fn modules(src: &Path) -> BTreeMap<Module, (PathBuf, String)> {
    let mut found = BTreeMap::new();
    let mut dirs = vec![src.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("below src/");
            let mut module: Module = relative
                .with_extension("")
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod" || l == "main") {
                module.pop();
            }
            let text = fs::read_to_string(&path).expect("a readable source file");
            let text = match text.find("#[cfg(test)]\nmod tests") {
                Some(i) => text[..i].to_owned(),
                None => text,
            };
            found.insert(module, (relative.to_owned(), text));
        }
    }
    found
}

/// The text without comments (`//` to the end of the line) and string literals, so that
/// neither prose nor messages count as paths.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut escaped = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '\'' {
                // A character literal ('"', '\\'), not a lifetime: skip it whole.
                let ahead: Vec<char> = chars.clone().take(3).collect();
                if ahead.get(1) == Some(&'\'') {
                    chars.nth(1);
                    continue;
                }
                if ahead.first() == Some(&'\\') && ahead.get(2) == Some(&'\'') {
                    chars.nth(2);
                    continue;
                }
            }
            if c == '"' {
                in_string = true;
                continue;
            }
            out.push(c);
        }
        out.push('\n');
    }
    out
}

/// Expands a `use` tree (`a::{b, c::{d, self}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p).into_iter().map(|e| format!("{prefix}{e}")))
        .collect()
}

/// The paths `text` names: every `use` tree expanded, and every `crate::`, `super::` or
/// `self::` path in the code.
fn paths(text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut found = Vec::new();
    // The `use` trees first, cut out of the code that is scanned next.
    let mut rest = String::new();
    let mut left = code.as_str();
    while let Some(i) = left.find("use ") {
        let before = left[..i].chars().last();
        rest.push_str(&left[..i]);
        let after = &left[i + 4..];
        match after.find(';') {
            Some(end) if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) => {
                found.extend(expand(&after[..end]));
                left = &after[end + 1..];
            }
            _ => {
                rest.push_str("use ");
                left = after;
            }
        }
    }
    rest.push_str(left);
    let chars: Vec<char> = rest.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut i = 0;
    while i < chars.len() {
        if !is_word(chars[i]) || (i > 0 && is_word(chars[i - 1])) {
            i += 1;
            continue;
        }
        // A path: words joined by `::`.
        let mut j = i;
        loop {
            while j < chars.len() && is_word(chars[j]) {
                j += 1;
            }
            if chars.get(j) == Some(&':')
                && chars.get(j + 1) == Some(&':')
                && chars.get(j + 2).is_some_and(|c| is_word(*c))
            {
                j += 2;
            } else {
                break;
            }
        }
        let word: String = chars[i..j].iter().collect();
        let word = word.trim_start_matches('$');
        if ["crate::", "super::", "self::"]
            .iter()
            .any(|p| word.starts_with(p))
        {
            found.push(word.to_owned());
        }
        i = j;
    }
    found
}

/// The module a path names from `from` (the deepest module file it reaches), if any.
fn target(
    path: &str,
    from: &Module,
    is_root_file: bool,
    all: &BTreeMap<Module, (PathBuf, String)>,
) -> Option<Module> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let (mut at, rest): (Module, &[&str]) = match *segments.first()? {
        "crate" => (Vec::new(), &segments[1..]),
        "super" => {
            let mut up = from.clone();
            let mut k = 0;
            while segments.get(k) == Some(&"super") {
                up.pop();
                k += 1;
            }
            (up, &segments[k..])
        }
        "self" => (from.clone(), &segments[1..]),
        _ if is_root_file => (Vec::new(), &segments[..]),
        _ => return None,
    };
    let start = at.len();
    for s in rest {
        let mut next = at.clone();
        next.push((*s).to_owned());
        if !all.contains_key(&next) {
            break;
        }
        at = next;
    }
    // A bare path in main.rs that reaches no module is an extern crate, not the root.
    if is_root_file && at.len() == start && segments.first() != Some(&"crate") {
        return None;
    }
    Some(at)
}

/// Who uses whom: module → (module used → a path that shows it).
fn graph(
    src: &Path,
) -> (
    BTreeMap<Module, BTreeMap<Module, String>>,
    BTreeMap<Module, PathBuf>,
) {
    let all = modules(src);
    let mut uses: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for (module, (file, text)) in &all {
        let is_root_file = module.is_empty();
        let edges = uses.entry(module.clone()).or_default();
        for path in paths(text) {
            if let Some(to) = target(&path, module, is_root_file, &all)
                && &to != module
            {
                edges
                    .entry(to)
                    .or_insert(format!("{}: {path}", file.display()));
            }
        }
    }
    let files = all.into_iter().map(|(m, (f, _))| (m, f)).collect();
    (uses, files)
}

/// The circles: every strongly connected set of two or more modules (Tarjan).
fn circles(uses: &BTreeMap<Module, BTreeMap<Module, String>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        uses: &'a BTreeMap<Module, BTreeMap<Module, String>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let uses = s.uses;
        for w in uses.get(v).into_iter().flat_map(BTreeMap::keys) {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.clone());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.found.push(set);
            }
        }
    }
    let mut state = State {
        uses,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in uses.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

#[test]
fn no_two_modules_use_each_other() {
    let (uses, files) = graph(&src());
    assert!(files.len() > 20, "the modules were not found: {files:?}");
    // The graph is read, not assumed: the play command reaches the shared console.
    let play: Module = ["commands", "game", "play"].map(String::from).to_vec();
    let input: Module = ["console", "input"].map(String::from).to_vec();
    assert!(uses[&play].contains_key(&input), "{:?}", uses[&play]);
    let mut report = String::new();
    for circle in circles(&uses) {
        report.push_str("a circle:\n");
        for from in &circle {
            for (to, shown) in &uses[from] {
                if circle.contains(to) {
                    report.push_str(&format!("  {} uses {} ({shown})\n", name(from), name(to)));
                }
            }
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn the_console_uses_no_command_and_no_screen() {
    let (uses, _) = graph(&src());
    let mut wrong = Vec::new();
    for (from, edges) in &uses {
        if from.first().is_some_and(|m| m == "console") {
            for (to, shown) in edges {
                if to.first().is_none_or(|m| m != "console") {
                    wrong.push(format!("{} uses {} ({shown})", name(from), name(to)));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn use_trees_expand_and_paths_resolve() {
    assert_eq!(
        expand("crate::console::{input::{Line, Lines}, stdout::say}"),
        [
            "crate::console::input::Line",
            "crate::console::input::Lines",
            "crate::console::stdout::say"
        ]
    );
    let found = paths(
        "use super::bot_token::{self, TokenSource};\n// crate::not::this\nlet s = \"crate::nor::this\";\nx = crate::console::record_file::save(r);\n",
    );
    assert_eq!(
        found,
        [
            "super::bot_token::self",
            "super::bot_token::TokenSource",
            "crate::console::record_file::save"
        ]
    );
}
