//! Keeps the layers: every module of `src/` may import only the layers below its own, and
//! no two files of one folder import each other, directly or round a ring.
//!
//! Test code (files named `tests.rs`, `*_tests.rs` or `fixtures.rs`, and `#[cfg(test)]`
//! items) is left out: a test may build its input with a higher layer, as a round-trip
//! test of a reader writes with the exporter.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, top to bottom. A module may import those after its own; modules in one
/// row are peers that import nothing of each other.
const LAYERS: &[&[&str]] = &[
    &["commands"],
    &["config"],
    &["cli"],
    &["lab"],
    &["servers"],
    &["export"],
    &["analysis"],
    &["live"],
    &["http"],
    &["bench"],
    &["results"],
    &["stats"],
    &["codec"],
    &["payload"],
    &["vocab", "format", "process", "error"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|row| row.contains(&module))
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name == "tests.rs" || name.ends_with("_tests.rs") || name == "fixtures.rs"
}

/// `text` without its `#[cfg(test)]` items: the line after the attribute, and its block
/// to the matching brace when it opens one.
fn without_tests(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        let mut depth = 0i32;
        for skipped in lines.by_ref() {
            depth += skipped.matches('{').count() as i32 - skipped.matches('}').count() as i32;
            if depth <= 0 && (skipped.contains('}') || skipped.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    kept
}

/// `code` without its comment lines (doc links name modules without importing them).
fn without_comments(code: &str) -> String {
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first name of every path after `prefix` in `code`: `crate::codec::Codec` gives
/// `codec`, and `crate::{payload, results::Run}` gives both, across lines.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let identifier = |text: &str| -> String {
        text.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let Some(list) = rest.strip_prefix('{') else {
            names.insert(identifier(rest));
            continue;
        };
        // The top-level items of the braced list, up to its matching brace.
        let (mut depth, mut start) = (0, 0);
        for (i, c) in list.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    names.insert(identifier(&list[start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.insert(identifier(&list[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
    }
    names.remove("");
    names
}

/// The top-level modules a file imports.
fn imported_modules(code: &str) -> BTreeSet<String> {
    names_after(&without_comments(code), "crate::")
}

/// The top-level module `path` (under `src/`) belongs to.
fn module_of(src: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap();
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

fn library_files() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    files.retain(|f| !is_test_file(f));
    files.sort();
    (src, files)
}

#[test]
fn every_module_imports_only_the_layers_below_it() {
    let (src, files) = library_files();
    let mut violations = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "main" || module == "lib" {
            continue;
        }
        let Some(own) = rank(&module) else {
            violations.push(format!(
                "{module}: not in the layer table of tests/layers.rs"
            ));
            continue;
        };
        let code = without_tests(&fs::read_to_string(file).unwrap());
        for imported in imported_modules(&code) {
            if imported == module {
                continue;
            }
            match rank(&imported) {
                Some(theirs) if theirs > own => {}
                _ => violations.push(format!(
                    "{} imports crate::{imported}, which is not below {module}",
                    file.strip_prefix(&src).unwrap().display()
                )),
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The names `mod.rs` brings in from its children, each with the child's module name:
/// `pub(crate) use row::{Direction, Row as Line};` gives `Direction` and `Line` from
/// `row`.
fn re_exports(mod_code: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in mod_code.split(';') {
        let Some((_, path)) = statement.split_once("use ") else {
            continue;
        };
        let path = path.trim().trim_start_matches("self::");
        let Some((child, items)) = path.split_once("::") else {
            continue;
        };
        for item in items.split([',', '{', '}']) {
            let last = item.rsplit("::").next().unwrap_or("");
            let name = last.rsplit(" as ").next().unwrap_or("").trim();
            if !name.is_empty() && name != "self" && name != "*" {
                names.insert(name.to_string(), child.trim().to_string());
            }
        }
    }
    names
}

/// The sibling files each file of a folder names through `super::`: by the sibling's
/// module name, or by a name `mod.rs` re-exports from it, so that a ring through a
/// re-export is a ring too. `files` maps each path to its code.
fn sibling_graph(files: &BTreeMap<PathBuf, String>) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut graph = BTreeMap::new();
    for (file, code) in files.iter().filter(|(f, _)| !f.ends_with("mod.rs")) {
        let dir = file.parent().unwrap();
        let through_mod = files
            .get(&dir.join("mod.rs"))
            .map(|code| re_exports(code))
            .unwrap_or_default();
        let named: BTreeSet<String> = names_after(code, "super::")
            .into_iter()
            .map(|name| through_mod.get(&name).cloned().unwrap_or(name))
            .collect();
        let edges = files
            .keys()
            .filter(|f| f.parent() == Some(dir) && *f != file && !f.ends_with("mod.rs"))
            .filter(|f| named.contains(&*f.file_stem().unwrap().to_string_lossy()))
            .cloned()
            .collect();
        graph.insert(file.clone(), edges);
    }
    graph
}

/// Each library file's code, without its tests and comments.
fn library_code() -> (PathBuf, BTreeMap<PathBuf, String>) {
    let (src, files) = library_files();
    let code = files
        .into_iter()
        .map(|f| {
            let text = without_comments(&without_tests(&fs::read_to_string(&f).unwrap()));
            (f, text)
        })
        .collect();
    (src, code)
}

/// The files of `graph` that reach themselves through their siblings.
fn files_in_rings(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<&PathBuf> {
    let mut rings = Vec::new();
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&PathBuf> = graph[start].iter().collect();
        while let Some(next) = stack.pop() {
            if next == start {
                rings.push(start);
                break;
            }
            if seen.insert(next.clone()) {
                stack.extend(graph.get(next).into_iter().flatten());
            }
        }
    }
    rings
}

#[test]
fn no_two_files_of_a_folder_import_each_other() {
    let (src, files) = library_code();
    let graph = sibling_graph(&files);
    let rings: Vec<_> = files_in_rings(&graph)
        .into_iter()
        .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(rings.is_empty(), "files in an import ring: {rings:?}");
}

/// A type has one path: a module re-exports only its own children's items, never
/// another module's (`pub(crate) use crate::vocab::CodecKind` in `codec` would give
/// `CodecKind` a second path). `lib.rs` is the crate's public face and may.
#[test]
fn no_module_re_exports_another_modules_items() {
    let (src, files) = library_code();
    let mut second_paths = Vec::new();
    for (file, code) in &files {
        if file.ends_with("lib.rs") {
            continue;
        }
        for line in code.lines().map(str::trim) {
            let Some(rest) = line.strip_prefix("pub") else {
                continue;
            };
            let rest = rest.split_once(')').map_or(rest, |(_, r)| r).trim_start();
            if let Some(path) = rest.strip_prefix("use ") {
                if path.starts_with("crate::") || path.starts_with("super::") {
                    let file = file.strip_prefix(&src).unwrap().display();
                    second_paths.push(format!("{file}: {line}"));
                }
            }
        }
    }
    assert!(second_paths.is_empty(), "{}", second_paths.join("\n"));
}

#[test]
fn the_checks_see_an_upward_import_and_a_ring() {
    let code = "use crate::export::thousands;\n#[cfg(test)]\nmod tests {\n    use crate::commands::x;\n}\n";
    let modules = imported_modules(&without_tests(code));
    assert_eq!(modules, BTreeSet::from(["export".to_string()]));
    assert!(rank("export") < rank("results"));
    assert!(imported_modules("/// [`crate::export`]\n").is_empty());
    let braced = imported_modules("use crate::{\n    payload,\n    results::{Run, Cell},\n};\n");
    assert_eq!(braced, BTreeSet::from(["payload".into(), "results".into()]));
    let siblings = names_after("use super::{brotli_c::{self, X}, Codec};", "super::");
    assert_eq!(
        siblings,
        BTreeSet::from(["brotli_c".into(), "Codec".into()])
    );
}

#[test]
fn a_ring_through_a_re_export_is_found() {
    let folder = Path::new("src/analysis/compare");
    let file = |name: &str, code: &str| (folder.join(name), code.to_string());
    let files = BTreeMap::from([
        file(
            "mod.rs",
            "mod judge;\nmod row;\npub(crate) use row::Direction;\n",
        ),
        file(
            "row.rs",
            "use super::judge::Verdict;\npub(crate) enum Direction {}\n",
        ),
        file(
            "judge.rs",
            "use super::Direction;\npub(crate) struct Verdict;\n",
        ),
        file("other.rs", "use super::Direction;\n"),
    ]);
    let graph = sibling_graph(&files);
    let rings = files_in_rings(&graph);
    assert_eq!(
        rings,
        [&folder.join("judge.rs"), &folder.join("row.rs")],
        "judge names row's Direction through mod.rs"
    );
    let names = re_exports("use a::{B, c::D as E};\npub(crate) use self::f::G;\nmod x;");
    assert_eq!(names.keys().collect::<Vec<_>>(), ["B", "E", "G"]);
    assert_eq!(names["E"], "a");
}

/// What a `mod.rs` may hold besides comments and attributes: module declarations and
/// re-exports of its children's items. Logic goes in a named file beside it.
fn declares_only(statement: &str) -> bool {
    let rest = statement.trim();
    let rest = match rest.strip_prefix("pub") {
        Some(after) => after.split_once(')').map_or(after, |(_, r)| r).trim_start(),
        None => rest,
    };
    let is_pub = statement.trim().starts_with("pub");
    rest.starts_with("mod ") || (is_pub && rest.starts_with("use "))
}

/// The statements of `code` (tests and comments gone) outside attributes: each `;`- or
/// `}`-ended item at the top level, as one string.
fn top_level_statements(code: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let (mut current, mut depth) = (String::new(), 0i32);
    for line in code.lines().map(str::trim) {
        if line.is_empty() || (depth == 0 && line.starts_with("#[")) {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if depth == 0 && (line.ends_with(';') || line.ends_with('}')) {
            statements.push(std::mem::take(&mut current));
        }
    }
    statements
}

/// The children `code` declares `pub(crate) mod` or `pub mod`, and those it re-exports from.
fn public_children_re_exported(code: &str) -> Vec<String> {
    let public: Vec<String> = top_level_statements(code)
        .iter()
        .filter_map(|s| {
            let s = s.trim();
            let rest = s.strip_prefix("pub")?;
            let rest = rest.split_once(')').map_or(rest, |(_, r)| r).trim_start();
            Some(
                rest.strip_prefix("mod ")?
                    .trim_end_matches(';')
                    .trim()
                    .to_string(),
            )
        })
        .collect();
    let re_exported: BTreeSet<String> = re_exports(code).into_values().collect();
    public
        .into_iter()
        .filter(|child| re_exported.contains(child))
        .collect()
}

#[test]
fn mod_rs_files_only_declare_and_re_export() {
    let (src, files) = library_code();
    let mut found = Vec::new();
    for (file, code) in files.iter().filter(|(f, _)| f.ends_with("mod.rs")) {
        let name = file.strip_prefix(&src).unwrap().display().to_string();
        for statement in top_level_statements(code) {
            if !declares_only(&statement) {
                let first = statement.lines().next().unwrap_or("");
                found.push(format!("{name}: logic in mod.rs: {first}"));
            }
        }
        for child in public_children_re_exported(code) {
            found.push(format!(
                "{name}: `{child}` is a public module and re-exported: two paths to its items"
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_mod_rs_check_sees_logic_and_two_paths() {
    let code = "mod a;\npub(crate) mod b;\n#[cfg(feature = \"x\")]\npub(crate) use a::{X, Y};\npub(crate) use b::Z;\n";
    assert!(top_level_statements(code).iter().all(|s| declares_only(s)));
    assert_eq!(public_children_re_exported(code), ["b"]);
    let logic = "mod a;\nuse std::fmt;\nconst N: u32 = 3;\nfn f() {\n    g();\n}\n";
    let refused: Vec<bool> = top_level_statements(logic)
        .iter()
        .map(|s| declares_only(s))
        .collect();
    assert_eq!(refused, [true, false, false, false]);
}
