//! The documentation holds together: README.md and every page under docs/ are read, and
//! - every `parcrypt …` command line in their shell code blocks (```sh, ```bash, ```console,
//!   or a block without a language; output is in ```text blocks) parses: the built binary is
//!   run with the line's arguments and `--help`, so clap checks that the subcommand path
//!   exists and that every option named before it exists and takes its value, then prints the
//!   help instead of running anything;
//! - every relative Markdown link resolves to an existing file, and an anchor (`page.md#part`,
//!   `#part`) to a heading of that page (GitHub's slugs) or an `<a id="…">` in it;
//! - the README's two set-up commands are the ones `.ci/run` runs.
//!
//! The checkers work on text, so the tests at the end plant a broken link, a missing anchor and
//! a subcommand that does not exist, and see each flagged.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the lab's manifest folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `.md` under docs/, sorted.
fn pages(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut out);
    out.sort();
    out
}

/// A fenced code block: the line its first line is on (1-based), its language and its lines.
#[derive(Debug)]
struct Block {
    line: usize,
    lang: String,
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown text (``` or ~~~ fences, indented or not).
fn code_blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Block)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                for fence in ["```", "~~~"] {
                    if let Some(info) = trimmed.strip_prefix(fence) {
                        let lang = info.trim_start_matches(&fence[..1]).trim();
                        let lang = lang.split([' ', ',', '{']).next().unwrap_or("");
                        open = Some((
                            fence.to_string(),
                            Block {
                                line: n + 2,
                                lang: lang.to_string(),
                                lines: Vec::new(),
                            },
                        ));
                        break;
                    }
                }
            }
            Some((fence, block)) => {
                if trimmed.starts_with(fence.as_str()) {
                    let (_, block) = open.take().expect("open");
                    out.push(block);
                } else {
                    block.lines.push(line.to_string());
                }
            }
        }
    }
    out
}

/// The lines outside fenced code blocks, with their line numbers (1-based).
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if let Some(f) = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f)) {
            fence = Some(f);
            continue;
        }
        out.push((n + 1, line.to_string()));
    }
    out
}

/// `line` without its inline code spans (`` `…` ``).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        match after.find(&"`".repeat(ticks)) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The shell lines of a block that run `parcrypt`, each as its line number and arguments: lines
/// of sh/bash/shell blocks and blocks without a language, `$ ` lines of console blocks;
/// continuation lines (`\` at the end) joined; `parcrypt`, `target/release/parcrypt` and
/// `cargo run --release --` count, after any `VAR=value` prefixes.
fn commands(block: &Block) -> Vec<(usize, Vec<String>)> {
    let console = block.lang == "console";
    if !matches!(
        block.lang.as_str(),
        "" | "sh" | "bash" | "shell" | "console"
    ) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < block.lines.len() {
        let at = block.line + i;
        let mut line = block.lines[i].trim().to_string();
        while line.ends_with('\\') && i + 1 < block.lines.len() {
            line.pop();
            i += 1;
            line.push(' ');
            line.push_str(block.lines[i].trim());
        }
        i += 1;
        let line = if console {
            match line.strip_prefix("$ ") {
                Some(l) => l.to_string(),
                None => continue,
            }
        } else {
            line
        };
        if let Some(args) = parcrypt_args(&words(&line)) {
            out.push((at, args));
        }
    }
    out
}

/// The shell words of `line` up to its first operator or comment (`|`, `;`, `&&`, `>`, `#`…),
/// quotes removed.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            ' ' | '\t' => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '|' | ';' | '&' | '>' | '<' => {
                // `2>` and the like: the digit belongs to the operator.
                if in_word && !(word.chars().all(|d| d.is_ascii_digit()) && c == '>') {
                    out.push(std::mem::take(&mut word));
                }
                return out;
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// The arguments `parcrypt` gets from a command line's words, or `None` when the line does not
/// run `parcrypt`.
fn parcrypt_args(words: &[String]) -> Option<Vec<String>> {
    let mut rest = words;
    while let Some((first, tail)) = rest.split_first() {
        let is_assignment = first.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if is_assignment || first == "sudo" {
            rest = tail;
        } else {
            break;
        }
    }
    let (first, tail) = rest.split_first()?;
    if first == "parcrypt" || first.ends_with("/release/parcrypt") {
        return Some(tail.to_vec());
    }
    let cargo_run = ["cargo", "run", "--release", "--"];
    if rest.len() >= cargo_run.len() && rest[..cargo_run.len()] == cargo_run {
        return Some(rest[cargo_run.len()..].to_vec());
    }
    None
}

/// Runs `parcrypt ARGS --help` (`--help` before a `--`, whose command is not parcrypt's):
/// `Err` with clap's message when the arguments do not parse.
fn parses(binary: &Path, args: &[String]) -> Result<(), String> {
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let out = Command::new(binary)
        .args(&args[..end])
        .arg("--help")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if out.status.success() && !out.stdout.is_empty() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        Err(stderr.lines().next().unwrap_or("no output").to_string())
    }
}

/// Every `parcrypt` command line of `pages` that does not parse, as "page:line: `args`: why";
/// and how many were checked.
fn command_faults(root: &Path, pages: &[(PathBuf, String)], binary: &Path) -> (Vec<String>, usize) {
    let mut faults = Vec::new();
    let mut checked = 0;
    for (path, text) in pages {
        for block in code_blocks(text) {
            for (line, args) in commands(&block) {
                checked += 1;
                if let Err(why) = parses(binary, &args) {
                    faults.push(format!(
                        "{}:{line}: `parcrypt {}`: {why}",
                        shown(root, path),
                        args.join(" ")
                    ));
                }
            }
        }
    }
    (faults, checked)
}

/// The link targets of a Markdown line: inline links and images `[text](target "title")` and
/// reference definitions `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let trimmed = line.trim_start();
    if let Some(end) = trimmed.find("]:").filter(|_| trimmed.starts_with('[')) {
        let target = trimmed[end + 2..].split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(['<', '>']).to_string());
        return out;
    }
    for (at, _) in line.match_indices("](") {
        let rest = &line[at + 2..];
        // The target ends at the parenthesis that closes this one.
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        if let Some(end) = end {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            out.push(target.trim_matches(['<', '>']).to_string());
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores
/// kept), spaces as hyphens; a link in the heading counts by its text.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // [text](target) -> text
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").map(|m| open + m) {
            Some(mid) => {
                let close = rest[mid..].find(')').map_or(rest.len(), |c| mid + c + 1);
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..mid]);
                rest = &rest[close..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors a page offers: its headings' slugs (a repeated heading gets `-1`, `-2`, … as
/// on GitHub) and every `id="…"` in its HTML.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for block_free in prose(text) {
        let line = block_free.1.trim_start().to_string();
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&line[hashes..]);
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
    }
    for (at, _) in text.match_indices("id=\"") {
        let rest = &text[at + 4..];
        if let Some(end) = rest.find('"') {
            out.insert(rest[..end].to_string());
        }
    }
    out
}

/// Every relative link of `pages` that does not resolve, as "page:line: target: why"; and how
/// many were checked.
fn link_faults(root: &Path, pages: &[(PathBuf, String)]) -> (Vec<String>, usize) {
    let mut faults = Vec::new();
    let mut checked = 0;
    for (path, text) in pages {
        for (line, prose_line) in prose(text) {
            for target in link_targets(&without_code_spans(&prose_line)) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, anchor) = match target.split_once('#') {
                    Some((f, a)) => (f, Some(a)),
                    None => (target.as_str(), None),
                };
                let here = shown(root, path);
                let dest = if file.is_empty() {
                    path.clone()
                } else {
                    path.parent().expect("a folder").join(file)
                };
                if !dest.exists() {
                    faults.push(format!("{here}:{line}: {target}: no such file"));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if dest.extension().is_none_or(|e| e != "md") {
                    continue;
                }
                let dest_text = if dest == *path {
                    text.clone()
                } else {
                    std::fs::read_to_string(&dest).unwrap_or_default()
                };
                if !anchors(&dest_text).contains(anchor) {
                    faults.push(format!(
                        "{here}:{line}: {target}: no heading or id '{anchor}'"
                    ));
                }
            }
        }
    }
    (faults, checked)
}

/// `path` relative to `root`, for messages.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read_pages(root: &Path) -> Vec<(PathBuf, String)> {
    pages(root)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read a page");
            (p, text)
        })
        .collect()
}

#[test]
fn every_parcrypt_command_in_the_docs_parses() {
    let root = root();
    let pages = read_pages(&root);
    assert!(pages.len() > 5, "README.md and the docs/ pages: {pages:?}");
    let (faults, checked) =
        command_faults(&root, &pages, Path::new(env!("CARGO_BIN_EXE_parcrypt")));
    eprintln!("{checked} parcrypt command lines checked");
    assert!(checked >= 30, "only {checked} command lines found");
    assert!(
        faults.is_empty(),
        "commands that do not parse:\n{}",
        faults.join("\n")
    );
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let root = root();
    let pages = read_pages(&root);
    let (faults, checked) = link_faults(&root, &pages);
    eprintln!("{checked} relative links checked");
    assert!(checked >= 30, "only {checked} relative links found");
    assert!(faults.is_empty(), "broken links:\n{}", faults.join("\n"));
}

#[test]
fn the_readme_s_two_commands_are_what_ci_runs() {
    let readme = include_str!("../README.md");
    let ci = include_str!("../.ci/run");
    let blocks = code_blocks(readme);
    let first: Vec<&str> = blocks
        .iter()
        .flat_map(|b| b.lines.iter().map(|l| l.trim()))
        .filter(|l| l.starts_with("cargo "))
        .take(2)
        .collect();
    assert_eq!(
        first,
        [
            "cargo run --release -- study --quick",
            "cargo test --release"
        ],
        "the README's first two cargo commands"
    );
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --release"),
        ".ci/run runs the README's test command"
    );
}

/// A throw-away docs tree: README.md with `readme`, docs/page.md with `page`.
fn planted(readme: &str, page: &str) -> (tempfile::TempDir, Vec<(PathBuf, String)>) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("docs")).expect("docs/");
    std::fs::write(dir.path().join("README.md"), readme).expect("README");
    std::fs::write(dir.path().join("docs/page.md"), page).expect("page");
    let pages = read_pages(dir.path());
    (dir, pages)
}

#[test]
fn a_planted_broken_link_and_missing_anchor_are_flagged() {
    let readme = "# Top\n\nSee [the page](docs/page.md), [its part](docs/page.md#a-part), \
                  [gone](docs/gone.md), [no part](docs/page.md#nowhere) and [up](#top).\n\
                  `[not a link](in/code.md)` and <https://example.com>, [web](https://x.y/z).\n\
                  ```sh\n[also not](a/link.md)\n```\n";
    let page = "# Page\n\n## A part\n\n<a id=\"custom\"></a>\nBack [home](../README.md#top), \
                [custom](#custom), [twice](#twice-1).\n\n## Twice\n\n## Twice\n";
    let (dir, pages) = planted(readme, page);
    let (faults, checked) = link_faults(dir.path(), &pages);
    assert_eq!(checked, 8, "{faults:?}");
    assert_eq!(faults.len(), 2, "{faults:?}");
    assert!(
        faults[0].contains("README.md:3: docs/gone.md: no such file"),
        "{faults:?}"
    );
    assert!(
        faults[1].contains("docs/page.md#nowhere: no heading or id 'nowhere'"),
        "{faults:?}"
    );
}

#[test]
fn a_planted_unknown_subcommand_and_option_are_flagged() {
    let readme = "# Top\n\n```sh\nparcrypt bench rsa-private --bits 2048 --methods crt   # fine\n\
                  parcrypt bench frobnicate --bits 2048\n\
                  cargo run --release -- study --quick --no-such-option\n\
                  PARCRYPT_X=1 target/release/parcrypt cipher encrypt --alg rc4 --key 00 \\\n  \
                  --in a --out b | tee log\n\
                  parcrypt energy --meter model -- sleep --help-me-not\n```\n\n\
                  ```text\nparcrypt study --quick: 17 experiment(s) to measure\n```\n\n\
                  ```console\n$ parcrypt modexp --list\nparcrypt frobnicate (output, not run)\n```\n";
    let (dir, pages) = planted(readme, "# Page\n");
    let binary = Path::new(env!("CARGO_BIN_EXE_parcrypt"));
    let (faults, checked) = command_faults(dir.path(), &pages, binary);
    assert_eq!(checked, 6, "{faults:?}");
    assert_eq!(faults.len(), 2, "{faults:?}");
    assert!(
        faults[0].contains("README.md:5: `parcrypt bench frobnicate"),
        "{faults:?}"
    );
    assert!(faults[0].contains("frobnicate"), "{faults:?}");
    assert!(faults[1].contains("--no-such-option"), "{faults:?}");
}

#[test]
fn shell_words_stop_at_operators_and_comments() {
    assert_eq!(
        words("parcrypt bench leak --pairs 'a b' --samples 20000 2>/dev/null # note"),
        [
            "parcrypt",
            "bench",
            "leak",
            "--pairs",
            "a b",
            "--samples",
            "20000"
        ]
    );
    assert_eq!(words("parcrypt presets | head -3"), ["parcrypt", "presets"]);
    assert_eq!(
        parcrypt_args(&words(
            "OPENSSL_ia32cap=\":~0x200000\" parcrypt bench peers"
        )),
        Some(vec!["bench".to_string(), "peers".to_string()])
    );
    assert_eq!(parcrypt_args(&words("cargo build --release")), None);
    assert_eq!(
        slug("The timing-leak test (`bench leak`)"),
        "the-timing-leak-test-bench-leak"
    );
    assert_eq!(
        slug("Glossary: verdicts and reason codes"),
        "glossary-verdicts-and-reason-codes"
    );
    assert_eq!(
        slug("[`parcrypt study`](study.md) diff"),
        "parcrypt-study-diff"
    );
}

/// The kept runs' times are stated in one place, the README, and agree with the runs kept in
/// results/: the quick run's summary line (experiments, claims, minutes as the command prints
/// them) and the full run's minutes.
#[test]
fn the_readme_s_study_times_are_the_kept_runs() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let kept = |profile: &str| -> serde_json::Value {
        let path = root.join(format!("results/study-{profile}/results.json"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let minutes = |v: &serde_json::Value| (v["elapsed_s"].as_f64().unwrap() / 60.0).round();
    let quick = kept("quick");
    let line = format!(
        "{} experiments ({} resumed), {} claims, {} min:",
        quick["experiments"].as_array().unwrap().len(),
        quick["resumed"].as_array().map_or(0, Vec::len),
        quick["claims"].as_array().unwrap().len(),
        minutes(&quick)
    );
    assert!(
        readme.contains(&line),
        "the README's quick summary is not the kept run's: {line:?}"
    );
    let full = format!("{} min on the", minutes(&kept("full")));
    assert!(
        readme.contains(&full),
        "the README's full-study time is not the kept run's: {full:?}"
    );
    for page in ["docs/study.md", "docs/install.md"] {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        assert!(
            !text.contains(" min on 2 cores") && !text.contains("minutes there"),
            "{page} states a study time of its own; the README is the one place"
        );
    }
}

/// Python's `%.4g`: four significant digits, trailing zeros dropped (the findings pages'
/// intervals are written so).
fn g4(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let sci = format!("{x:.3e}");
    let exp: i32 = sci.split('e').nth(1).unwrap().parse().unwrap();
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (-4..4).contains(&exp) {
        trim(format!("{:.*}", (3 - exp) as usize, x))
    } else {
        let (m, _) = sci.split_once('e').unwrap();
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(m.to_string()), exp.abs())
    }
}

/// A findings page's figure cell and verdict cell for one claim of a run, as the pages write
/// them; `None`: the claim is not in the run.
fn findings_cells(claim: Option<&serde_json::Value>) -> (String, String) {
    let Some(c) = claim else {
        return ("—".into(), "(not in this run)".into());
    };
    let verdict = c["verdict"].as_str().unwrap();
    let ours = &c["ours"];
    let text = ours["text"].as_str().unwrap_or("");
    let mut fig = if verdict == "not-testable" || text.is_empty() {
        "—".to_string()
    } else {
        text.replace('|', "\\|")
    };
    if let (Some(lo), Some(hi)) = (ours["ci_low"].as_f64(), ours["ci_high"].as_f64())
        && fig != "—"
        && !fig.contains('[')
        && lo != hi
    {
        fig = format!("{fig} [{}, {}]", g4(lo), g4(hi));
    }
    let verdict = match c["reason"].as_str() {
        Some(r) => format!("{verdict} ({r})"),
        None => verdict.to_string(),
    };
    (fig, verdict)
}

/// docs/findings/<paper>.md is the kept runs: every row of its central claims (each headline
/// claim of the paper has one) carries the kind, setting, figure and verdict the kept full and
/// quick runs gave, and its counts table their counts by kind and verdict.
#[test]
fn the_findings_pages_are_the_kept_runs() {
    use std::collections::BTreeMap;
    let root = root();
    let claims = |profile: &str| -> Vec<serde_json::Value> {
        let path = root.join(format!("results/study-{profile}/results.json"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v["claims"].as_array().unwrap().clone()
    };
    let (full, quick) = (claims("full"), claims("quick"));
    let by_id = |cs: &[serde_json::Value], id: &str| cs.iter().find(|c| c["id"] == id).cloned();
    for paper in [
        "parsa",
        "scc-blowfish",
        "crsa",
        "mary-karatsuba",
        "cipher-energy",
    ] {
        let page_path = root.join(format!("docs/findings/{paper}.md"));
        let page = std::fs::read_to_string(&page_path).unwrap();
        let mut rows = BTreeSet::new();
        let mut counted: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
        for line in page.lines().filter(|l| l.starts_with("| ")) {
            let cells: Vec<String> = line
                .replace("\\|", "\u{0}")
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "\\|"))
                .collect();
            if cells.len() == 7 && cells[0].starts_with('`') {
                let id = cells[0].trim_matches('`').to_string();
                let f = by_id(&full, &id).unwrap_or_else(|| panic!("{paper}: no claim {id}"));
                let setting = f["setting"].as_str().unwrap_or("—");
                let (ff, fv) = findings_cells(Some(&f));
                let (qf, qv) = findings_cells(by_id(&quick, &id).as_ref());
                let want = [
                    cells[0].clone(),
                    f["kind"].as_str().unwrap().to_string(),
                    setting.to_string(),
                    ff,
                    fv,
                    qf,
                    qv,
                ];
                assert_eq!(
                    cells[..],
                    want[..],
                    "docs/findings/{paper}.md, row of {id}: the kept runs say otherwise"
                );
                rows.insert(id);
            } else if cells.len() == 4
                && let (Ok(a), Ok(b)) = (cells[2].parse::<usize>(), cells[3].parse::<usize>())
            {
                counted.insert((cells[0].clone(), cells[1].clone()), (a, b));
            }
        }
        let headline: BTreeSet<String> = full
            .iter()
            .filter(|c| c["paper_id"] == paper && c["headline"] == true)
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            rows, headline,
            "docs/findings/{paper}.md: its central claims"
        );
        let mut want: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
        for (run, cs) in [(0, &full), (1, &quick)] {
            for c in cs.iter().filter(|c| c["paper_id"] == paper) {
                let key = (
                    c["kind"].as_str().unwrap().to_string(),
                    c["verdict"].as_str().unwrap().to_string(),
                );
                let e = want.entry(key).or_default();
                if run == 0 { e.0 += 1 } else { e.1 += 1 }
            }
        }
        assert_eq!(counted, want, "docs/findings/{paper}.md: the counts table");
    }
}

#[test]
fn g4_writes_four_significant_digits_as_python_does() {
    assert_eq!(g4(0.08256274768824307), "0.08256");
    assert_eq!(g4(41.66666666666667), "41.67");
    assert_eq!(g4(-26.860672360970106), "-26.86");
    assert_eq!(g4(1.0), "1");
    assert_eq!(g4(2043.0), "2043");
    assert_eq!(g4(12345.0), "1.234e+04");
}
