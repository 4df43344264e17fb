//! The house rule of issue 13: no two modules import each other, directly or round a longer
//! loop. Read from the sources: every `crate::name` path (and every name in a `crate::{...}`
//! group) in a library file is an edge from its top-level module to `name`; in the command's
//! `src/cli/`, every `super::name` is an edge between two sibling files. Each graph must be
//! acyclic; a cycle fails with the files that make it.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The text without `//` comments (doc links name modules without importing them).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .expect("read source")
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segment after every `prefix` in `text`, groups (`prefix{a::x, b}`) included.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: split on commas at brace depth 0.
            let mut depth = 0usize;
            let mut item_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(ident(group[item_start..i].trim()).to_string());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(ident(group[item_start..i].trim()).to_string());
                        item_start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest).to_string());
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// The module a file under `root` belongs to: its first path component, `.rs` stripped.
fn module_of(root: &Path, file: &Path) -> String {
    let first = file
        .strip_prefix(root)
        .expect("under root")
        .components()
        .next();
    let name = first.expect("a component").as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

fn add(graph: &mut Graph, from: &str, to: &str, file: &Path) {
    graph
        .entry(from.to_string())
        .or_default()
        .entry(to.to_string())
        .or_default()
        .insert(file.display().to_string());
}

/// A cycle in `graph`, as the modules round it, if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|n| n == node) {
            let mut cycle = path[i..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|m| m.keys()) {
            if let Some(c) = visit(graph, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(graph, n, &mut Vec::new(), &mut done))
}

fn explain(graph: &Graph, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|w| format!("{} -> {} in {:?}", w[0], w[1], graph[&w[0]][&w[1]]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The library's top-level modules (`src/<name>.rs` or `src/<name>/`).
fn library_graph() -> (BTreeSet<String>, Graph) {
    let root = src();
    let outside = ["lib", "main", "bin", "cli"];
    let files: Vec<PathBuf> = rust_files(&root)
        .into_iter()
        .filter(|f| !outside.contains(&module_of(&root, f).as_str()))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut graph = Graph::new();
    for f in &files {
        let from = module_of(&root, f);
        for to in names_after(&code(f), "crate::") {
            if to != from && modules.contains(&to) {
                add(&mut graph, &from, &to, f);
            }
        }
    }
    (modules, graph)
}

#[test]
fn no_two_library_modules_import_each_other() {
    let (modules, graph) = library_graph();
    assert!(modules.len() >= 15, "modules found: {modules:?}");
    // The reader sees real edges (a parser that found none would pass anything).
    assert!(graph["suites"].contains_key("bench"), "{graph:?}");
    assert!(graph["study"].contains_key("report"), "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "modules import each other: {}\n{}",
            cycle.join(" -> "),
            explain(&graph, &cycle)
        );
    }
}

#[test]
fn no_two_command_files_import_each_other() {
    let root = src().join("cli");
    let mut graph = Graph::new();
    for f in rust_files(&root) {
        let from = module_of(&root, &f);
        if from == "mod" {
            continue; // The parent dispatches to every file; its helpers are below them all.
        }
        let text = code(&f);
        let depth = f.strip_prefix(&root).unwrap().components().count();
        // `super::` from a direct child names a sibling (or the parent's own items).
        let prefix = if depth == 1 {
            "super::"
        } else {
            "super::super::"
        };
        for to in names_after(&text, prefix)
            .into_iter()
            .chain(names_after(&text, "crate::cli::"))
        {
            if to != from && root.join(format!("{to}.rs")).exists() {
                add(&mut graph, &from, &to, &f);
            }
        }
    }
    assert!(graph["bench"].contains_key("bench_opts"), "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "command files import each other: {}\n{}",
            cycle.join(" -> "),
            explain(&graph, &cycle)
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let file = Path::new("x.rs");
    let mut graph = Graph::new();
    add(&mut graph, "a", "b", file);
    add(&mut graph, "b", "c", file);
    assert_eq!(find_cycle(&graph), None);
    add(&mut graph, "c", "a", file);
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let names = names_after("use crate::{bench::X, cipher}; crate::io::f()", "crate::");
    assert_eq!(
        names,
        ["bench", "cipher", "io"]
            .map(String::from)
            .into_iter()
            .collect()
    );
}
