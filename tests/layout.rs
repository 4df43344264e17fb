//! The layers the README promises, held by reading the sources. Every `crate::name` path (and
//! every name in a `crate::{...}` group) in a library file is an edge from its top-level module
//! to `name`:
//! - docs/architecture.md's "Layout" list names the lab's modules in the order of [`LAYERS`],
//!   the crypto crate's in the order of [`CRYPTO_LAYERS`] and the harness's in the order of
//!   [`HARNESS_LAYERS`], and every edge goes down that order (a module imports only modules
//!   below it); the crypto crate depends on no lab crate;
//! - no two modules import each other, directly or round a longer loop;
//! - inside `src/study` and `src/cli` the files form an order too: no cycle among them, the
//!   shared types and helpers in leaf files that import no sibling ([`LEAVES`]), and `mod.rs`
//!   only dispatches (no file imports an item defined there; a `pub use` in it that re-exports
//!   a child's item counts as that child).
//!
//! The checkers work on text, so the tests at the end plant an upward import and a cycle and
//! see them fail.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The lab's layers from the bottom up, as docs/architecture.md's "Layout" lists them (`cli`,
/// the command, last): a module imports only modules before it here.
/// The harness's `error`, `bench` and `energy`, re-exported at the lab's root, sit below them
/// all ([`HARNESS_LAYERS`]).
const LAYERS: [&str; 9] = [
    "results",
    "claims",
    "reliability",
    "scc",
    "dse",
    "suites",
    "report",
    "study",
    "cli",
];

/// The crypto crate's layers (crates/parcrypt/src), from the bottom up. It cannot import the
/// lab at all: the compiler holds that boundary.
const CRYPTO_LAYERS: [&str; 9] = [
    "error", "io", "parallel", "bignum", "mul", "modexp", "rsa", "cipher", "hazmat",
];

/// The harness's layers (crates/parcrypt-harness/src), from the bottom up: what the lab and
/// the MPI programs share. It cannot import the lab (the compiler holds that boundary).
const HARNESS_LAYERS: [&str; 5] = ["error", "bench", "energy", "records", "parse"];

/// The leaf files of each folder checked inside: shared types and helpers, importing no
/// sibling.
const LEAVES: [(&str, &[&str]); 2] = [("study", &["options"]), ("cli", &["common"])];

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
        out.extend(names_at(&text[at + prefix.len()..]));
    }
    out.retain(|n| !n.is_empty());
    out
}

/// The first path segment at the start of `rest`, or of each item of a group `{a::x, b}`.
fn names_at(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(group) = rest.strip_prefix('{') {
        // Top-level items of the group: split on commas at brace depth 0.
        let mut depth = 0usize;
        let mut item_start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.push(ident(group[item_start..i].trim()).to_string());
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(ident(group[item_start..i].trim()).to_string());
                    item_start = i + 1;
                }
                _ => {}
            }
        }
    } else {
        out.push(ident(rest).to_string());
    }
    out.retain(|n| !n.is_empty());
    out
}

/// The names after every run of exactly `k` `super::` in `text` (`super::super::x` is a run
/// of two: it names nothing at one).
fn names_after_supers(text: &str, k: usize) -> BTreeSet<String> {
    const S: &str = "super::";
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices(S) {
        if text[..at].ends_with(S) {
            continue; // inside a longer run
        }
        let mut end = at;
        let mut run = 0;
        while text[end..].starts_with(S) {
            end += S.len();
            run += 1;
        }
        if run == k {
            out.extend(names_at(&text[end..]));
        }
    }
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

fn crypto_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/parcrypt/src")
}

fn harness_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/parcrypt-harness/src")
}

/// docs/architecture.md, which lists the layers.
fn architecture() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
        .expect("read docs/architecture.md")
}

/// One source file: its top-level module, its path and its code.
struct Source {
    module: String,
    path: PathBuf,
    code: String,
}

/// The lab's files (`src/<name>.rs` or `src/<name>/`), with their modules.
fn library_sources() -> Vec<Source> {
    sources_under(&src())
}

/// The files of the library rooted at `root`, with their top-level modules (by where the
/// module tree puts them: [`logical_paths`]).
fn sources_under(root: &Path) -> Vec<Source> {
    let root = root.to_path_buf();
    let outside = ["lib", "main", "bin", "cli"];
    logical_paths(&root)
        .into_iter()
        .map(|(f, logical)| Source {
            module: module_of(Path::new(""), &logical),
            code: code(&f),
            path: f,
        })
        .filter(|s| !outside.contains(&s.module.as_str()))
        .collect()
}

/// Every `.rs` file under `root` with the path the module tree gives it, relative to `root`:
/// its own, except for a file a `mod` declares with `#[path = "…"]` (a paper's files live in
/// `src/papers/<paper>/` and are compiled into the layer that declares them), which takes
/// the path its declaration gives (`claims/parsa/mod.rs`), and so do the files below such a
/// `mod.rs`.
fn logical_paths(root: &Path) -> BTreeMap<PathBuf, PathBuf> {
    let real = |p: &Path| std::fs::canonicalize(p).expect("canonical path");
    let files: Vec<PathBuf> = rust_files(root).iter().map(|f| real(f)).collect();
    let root = real(root);
    let mut map: BTreeMap<PathBuf, PathBuf> = files
        .iter()
        .map(|f| {
            (
                f.clone(),
                f.strip_prefix(&root).expect("under root").to_path_buf(),
            )
        })
        .collect();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read source");
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(target) = line.trim().strip_prefix("#[path = \"") else {
                continue;
            };
            let target = target.trim_end_matches("\"]");
            let decl = lines.next().unwrap_or("").trim();
            let name = ident(decl.trim_start_matches("pub ").trim_start_matches("mod "));
            let physical = real(&f.parent().expect("a folder").join(target));
            let declaring = map[f].clone();
            let dir = match declaring.file_name().and_then(|n| n.to_str()) {
                Some("mod.rs" | "lib.rs") => declaring.parent().expect("a folder").to_path_buf(),
                _ => declaring.with_extension(""),
            };
            if physical.ends_with("mod.rs") {
                let home = physical.parent().expect("a folder").to_path_buf();
                for g in files.iter().filter(|g| g.starts_with(&home)) {
                    let rest = g.strip_prefix(&home).expect("below");
                    map.insert(g.clone(), dir.join(name).join(rest));
                }
            } else {
                map.insert(physical, dir.join(format!("{name}.rs")));
            }
        }
    }
    map
}

/// The edges between the top-level modules of `sources`.
fn library_graph(sources: &[Source]) -> Graph {
    let modules: BTreeSet<&str> = sources.iter().map(|s| s.module.as_str()).collect();
    let mut graph = Graph::new();
    for s in sources {
        for to in names_after(&s.code, "crate::") {
            if to != s.module && modules.contains(to.as_str()) {
                add(&mut graph, &s.module, &to, &s.path);
            }
        }
    }
    graph
}

/// The modules of [`LAYERS`] above `from` that `code` imports (`from` unknown: itself).
fn upward_imports(from: &str, code: &str) -> Vec<String> {
    upward_in(&LAYERS, from, code)
}

/// The modules of `layers` above `from` that `code` imports (`from` unknown: itself).
fn upward_in(layers: &[&str], from: &str, code: &str) -> Vec<String> {
    let Some(at) = layers.iter().position(|l| *l == from) else {
        return vec![format!("{from} (a module missing from the layers)")];
    };
    names_after(code, "crate::")
        .into_iter()
        .filter(|n| layers.iter().position(|l| l == n).is_some_and(|i| i > at))
        .collect()
}

/// The modules the "Layout" section names (`src/<name>` in backquotes), in order, without
/// the entry points (`lib`, `main`, `bin`).
fn readme_layers(readme: &str) -> Vec<String> {
    layers_named(readme, "`src/")
}

/// The modules the "Layout" section names after `prefix` (a backquote and a source root), in
/// order, without the entry points.
fn layers_named(readme: &str, prefix: &str) -> Vec<String> {
    let start = readme.find("\n## Layout").expect("a Layout section");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    // The list itself: from its first item on.
    let section = &section[section.find("\n- ").unwrap_or(section.len())..];
    let mut out: Vec<String> = Vec::new();
    for (at, _) in section.match_indices(prefix) {
        let name = ident(&section[at + prefix.len()..]).to_string();
        if !["lib", "main", "bin", ""].contains(&name.as_str()) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[test]
fn the_architecture_page_lists_the_layers_of_the_test() {
    let page = architecture();
    assert_eq!(
        readme_layers(&page),
        LAYERS,
        "docs/architecture.md's Layout list (lab)"
    );
    assert_eq!(
        layers_named(&page, "`crates/parcrypt/src/"),
        CRYPTO_LAYERS,
        "docs/architecture.md's Layout list (crypto crate)"
    );
    assert_eq!(
        layers_named(&page, "`crates/parcrypt-harness/src/"),
        HARNESS_LAYERS,
        "docs/architecture.md's Layout list (harness)"
    );
    // LAYERS names every module of the lab (and the command's `cli`), no other; likewise the
    // crypto crate's.
    for (root, layers, extra) in [
        (src(), &LAYERS[..], Some("cli")),
        (crypto_src(), &CRYPTO_LAYERS[..], None),
        (harness_src(), &HARNESS_LAYERS[..], None),
    ] {
        let lib = code(&root.join("lib.rs"));
        let mut declared: Vec<String> = names_after(&lib, "pub mod ")
            .into_iter()
            .chain(names_after(&lib, "pub(crate) mod "))
            .collect();
        declared.extend(extra.map(String::from));
        declared.sort();
        let mut layers: Vec<String> = layers.iter().map(|s| s.to_string()).collect();
        layers.sort();
        assert_eq!(declared, layers, "{}'s modules", root.display());
    }
}

/// Every import under `root` that goes up `layers`, as "from -> to in file".
fn upward_imports_under(root: &Path, layers: &[&str]) -> Vec<String> {
    sources_under(root)
        .iter()
        .flat_map(|s| {
            upward_in(layers, &s.module, &s.code)
                .into_iter()
                .map(move |to| format!("{} -> {to} in {}", s.module, s.path.display()))
        })
        .collect()
}

#[test]
fn the_crypto_crate_imports_go_down_its_layers() {
    let files = sources_under(&crypto_src()).len();
    assert!(files > 60, "files found: {files}");
    let wrong = upward_imports_under(&crypto_src(), &CRYPTO_LAYERS);
    assert!(
        wrong.is_empty(),
        "upward imports in the crypto crate:\n{}",
        wrong.join("\n")
    );
}

/// (A lab module the harness named would not compile: the compiler holds that boundary.)
#[test]
fn the_harness_imports_go_down_its_layers() {
    let files = sources_under(&harness_src()).len();
    assert!(files > 30, "files found: {files}");
    let wrong = upward_imports_under(&harness_src(), &HARNESS_LAYERS);
    assert!(
        wrong.is_empty(),
        "upward imports in the harness:\n{}",
        wrong.join("\n")
    );
}

/// What the crypto crate must not depend on: the lab's plotting, templates, command line,
/// progress bars and CSV (`cargo tree -p parcrypt` in CI shows the whole tree).
#[test]
fn the_crypto_crate_depends_on_no_lab_crate() {
    let manifest = std::fs::read_to_string(crypto_src().join("../Cargo.toml")).expect("manifest");
    let deps = &manifest[manifest.find("[dependencies]").expect("dependencies")..];
    for lab in [
        "plotters",
        "minijinja",
        "clap",
        "indicatif",
        "csv",
        "toml",
        "parcrypt-lab",
        "anyhow",
    ] {
        assert!(
            !deps
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{lab} "))
                    || l.trim_start().starts_with(&format!("{lab}="))),
            "the crypto crate depends on {lab}"
        );
    }
}

#[test]
fn every_import_goes_down_the_layers() {
    let files = library_sources().len();
    assert!(files > 100, "files found: {files}");
    let wrong = upward_imports_under(&src(), &LAYERS);
    assert!(
        wrong.is_empty(),
        "imports from a lower layer to a higher one:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_library_modules_import_each_other() {
    let graph = library_graph(&library_sources());
    assert!(graph.len() >= 7, "modules found: {:?}", graph.keys());
    // The reader sees real edges (a parser that found none would pass anything).
    assert!(graph["suites"].contains_key("claims"), "{graph:?}");
    assert!(graph["study"].contains_key("report"), "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "modules import each other: {}\n{}",
            cycle.join(" -> "),
            explain(&graph, &cycle)
        );
    }
}

/// The code before a file's `#[cfg(test)] mod tests` (the folder order is about the code the
/// command runs; a test module's `super::` names its own file).
fn without_tests(code: &str) -> &str {
    code.find("#[cfg(test)]\nmod tests")
        .map_or(code, |at| &code[..at])
}

/// The files of folder `src/<folder>` as the module tree has it ([`logical_paths`]: a
/// paper's experiments count as `study/experiments/…`), paths relative to it, with their code.
fn folder_sources(folder: &str) -> Vec<(PathBuf, String)> {
    logical_paths(&src())
        .into_iter()
        .filter_map(|(f, logical)| {
            let rel = logical.strip_prefix(folder).ok()?.to_path_buf();
            Some((rel, without_tests(&code(&f)).to_string()))
        })
        .collect()
}

/// Each paper's files live in one folder, `src/papers/<paper>/`, and the module tree still puts
/// them in their layers: its claims under `claims`, its experiments under
/// `study/experiments`.
#[test]
fn each_paper_has_one_folder_and_its_files_keep_their_layers() {
    let logical = logical_paths(&src());
    let papers = std::fs::canonicalize(src().join("papers")).expect("src/papers");
    for paper in [
        "parsa",
        "scc_blowfish",
        "crsa",
        "mary_karatsuba",
        "cipher_energy",
    ] {
        let home = papers.join(paper);
        assert!(home.join("coverage.md").exists(), "{paper}: coverage.md");
        let mine: Vec<&PathBuf> = logical
            .iter()
            .filter(|(f, _)| f.starts_with(&home))
            .map(|(_, l)| l)
            .collect();
        assert!(
            mine.iter()
                .any(|l| l.to_string_lossy().starts_with(&format!("claims/{paper}"))),
            "{paper}: its claims are in the claims layer: {mine:?}"
        );
        assert!(
            mine.iter().any(|l| l.starts_with("study/experiments")),
            "{paper}: its experiments are in the study layer: {mine:?}"
        );
        // No file of the paper is left outside the module tree (it would keep its own path).
        assert!(
            mine.iter().all(|l| !l.starts_with("papers")),
            "{paper}: a file no `#[path]` declares: {mine:?}"
        );
    }
    // Nothing of a paper is left in the layers' own folders.
    for f in logical.keys() {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !f.starts_with(&papers) {
            for paper in ["parsa", "scc_blowfish", "mary_karatsuba", "cipher_energy"] {
                assert!(
                    !name.starts_with(paper),
                    "{} belongs in src/papers/{paper}/",
                    f.display()
                );
            }
        }
    }
}

/// The unit of a file in a folder: `x.rs` and everything in `x/` are `x`; the folder's own
/// `mod.rs` is `mod`.
fn unit_of(rel: &Path) -> String {
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// What the folder's `mod.rs` re-exports from its children: item name -> unit (items it
/// re-exports from outside the folder map to "").
fn reexports(mod_code: &str, units: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (at, _) in mod_code.match_indices("pub use ") {
        let stmt = &mod_code[at + 8..];
        let stmt = &stmt[..stmt.find(';').unwrap_or(stmt.len())];
        let origin = ident(stmt);
        let unit = if units.contains(origin) { origin } else { "" };
        let items = stmt.rsplit_once("::").map_or(stmt, |(_, last)| last);
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim();
            let name = item.rsplit_once(" as ").map_or(item, |(_, alias)| alias);
            let name = ident(name.rsplit("::").next().unwrap_or(name).trim());
            if !name.is_empty() {
                out.insert(name.to_string(), unit.to_string());
            }
        }
    }
    out
}

/// The graph among the units of folder `folder` (`study`, `cli`), from its files' text: an
/// edge from a file's unit to the sibling it names through `super::` (as many as reach the
/// folder) or `crate::<folder>::`; a name defined in `mod.rs` is an edge to `mod`, one that
/// `mod.rs` re-exports from a child an edge to that child. `mod.rs`'s own edges (the
/// dispatch) are left out.
fn folder_graph(folder: &str, files: &[(PathBuf, String)]) -> Graph {
    let units: BTreeSet<String> = files.iter().map(|(p, _)| unit_of(p)).collect();
    let mod_code = files
        .iter()
        .find(|(p, _)| p == Path::new("mod.rs"))
        .map_or("", |(_, c)| c.as_str());
    let reexported = reexports(mod_code, &units);
    let mut graph = Graph::new();
    for (rel, text) in files {
        let from = unit_of(rel);
        if from == "mod" {
            continue;
        }
        // The module path inside the folder: `a.rs` [a], `a/mod.rs` [a], `a/b.rs` [a, b].
        let depth = rel.components().count() - usize::from(rel.ends_with("mod.rs"));
        let names = names_after_supers(text, depth)
            .into_iter()
            .chain(names_after(text, &format!("crate::{folder}::")));
        for name in names {
            let to = if units.contains(&name) {
                name.clone()
            } else {
                match reexported.get(&name) {
                    Some(unit) if unit.is_empty() => continue,
                    Some(unit) => unit.clone(),
                    None => "mod".to_string(),
                }
            };
            if to != from {
                let what = if to == "mod" {
                    format!("{} ({name})", rel.display())
                } else {
                    rel.display().to_string()
                };
                add(&mut graph, &from, &to, Path::new(&what));
            }
        }
    }
    graph
}

/// What is wrong with the order of a folder's files: a cycle, a file importing what `mod.rs`
/// defines, a leaf importing a sibling.
fn folder_faults(graph: &Graph, leaves: &[&str]) -> Vec<String> {
    let mut faults = Vec::new();
    if let Some(cycle) = find_cycle(graph) {
        faults.push(format!(
            "files import each other: {}\n{}",
            cycle.join(" -> "),
            explain(graph, &cycle)
        ));
    }
    for (from, tos) in graph {
        if let Some(files) = tos.get("mod") {
            faults.push(format!(
                "{from} imports an item defined in mod.rs (in {files:?}): mod.rs only dispatches"
            ));
        }
        if leaves.contains(&from.as_str()) {
            faults.push(format!(
                "leaf {from} imports siblings {:?}",
                tos.keys().collect::<Vec<_>>()
            ));
        }
    }
    faults
}

#[test]
fn the_files_of_study_and_cli_form_an_order() {
    let mut faults = Vec::new();
    for (folder, leaves) in LEAVES {
        for leaf in leaves {
            let path = src().join(folder).join(format!("{leaf}.rs"));
            if !path.exists() {
                faults.push(format!("leaf {} is missing", path.display()));
            }
        }
        let graph = folder_graph(folder, &folder_sources(folder));
        faults.extend(
            folder_faults(&graph, leaves)
                .into_iter()
                .map(|f| format!("src/{folder}: {f}")),
        );
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // The reader sees real edges.
    let cli = folder_graph("cli", &folder_sources("cli"));
    assert!(cli["bench"].contains_key("bench_opts"), "{cli:?}");
    let study = folder_graph("study", &folder_sources("study"));
    assert!(study["sampling"].contains_key("judge"), "{study:?}");
}

#[test]
fn a_planted_upward_import_fails() {
    let planted = "use crate::bench::Bench;\nuse crate::suites::modexp::operands;\n";
    assert_eq!(upward_imports("dse", planted), ["suites"]);
    assert!(upward_imports("suites", planted).is_empty());
    assert_eq!(
        upward_imports("nowhere", "").len(),
        1,
        "an unknown module fails"
    );
    // And the README reader sees the order it is given.
    let readme = "x\n## Layout\n\n- `src/error` · `src/io.rs`\n- `src/bench` (`src/bin/x`)\n## Next\n`src/cli`";
    assert_eq!(readme_layers(readme), ["error", "io", "bench"]);
}

#[test]
fn a_planted_cycle_inside_study_fails() {
    let (folder, leaves) = LEAVES[0];
    assert_eq!(folder, "study");
    let files = folder_sources(folder);
    assert!(folder_faults(&folder_graph(folder, &files), leaves).is_empty());
    let plant = |file: &str, line: &str| {
        let mut planted = files.clone();
        let (_, text) = planted
            .iter_mut()
            .find(|(p, _)| p == Path::new(file))
            .expect("the file");
        text.push_str(line);
        folder_faults(&folder_graph(folder, &planted), leaves)
    };
    // `sampling` imports `judge`: `judge` importing `sampling` back closes a cycle.
    let faults = plant("judge.rs", "\nuse super::sampling::Plan;\n");
    assert!(
        faults
            .iter()
            .any(|f| f.contains("judge -> sampling -> judge")
                || f.contains("sampling -> judge -> sampling")),
        "{faults:?}"
    );
    // A leaf importing a sibling, and a file importing an item defined in mod.rs, fail too.
    let faults = plant("options.rs", "\nuse super::judge::Estimate;\n");
    assert!(
        faults.iter().any(|f| f.contains("leaf options")),
        "{faults:?}"
    );
    let faults = plant("diff.rs", "\nuse crate::study::run_everything;\n");
    assert!(
        faults.iter().any(|f| f.contains("mod.rs only")),
        "{faults:?}"
    );
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
    let supers = "use super::{a::X, b}; super::super::c::f(); super::d";
    assert_eq!(
        names_after_supers(supers, 1),
        ["a", "b", "d"].map(String::from).into_iter().collect()
    );
    assert_eq!(
        names_after_supers(supers, 2),
        ["c"].map(String::from).into_iter().collect()
    );
}

/// parcrypt-mpi builds without the lab: it depends on the harness and the crypto crate, and
/// includes no file of another crate by `#[path]`.
#[test]
fn the_mpi_crate_is_free_of_the_lab() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/parcrypt-mpi");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("manifest");
    assert!(
        !manifest
            .lines()
            .any(|l| l.trim_start().starts_with("parcrypt-lab")),
        "parcrypt-mpi depends on the lab"
    );
    assert!(manifest.contains("parcrypt-harness"), "{manifest}");
    for f in rust_files(&root.join("src"))
        .into_iter()
        .chain(rust_files(&root.join("tests")))
    {
        let text = code(&f);
        assert!(
            !text.contains("#[path") && !text.contains("parcrypt_lab"),
            "{} reaches into another crate's files or the lab",
            f.display()
        );
    }
}
