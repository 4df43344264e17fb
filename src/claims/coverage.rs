//! Coverage of the papers: for each paper, a file in its folder (`src/papers/<paper>/coverage.md`) listing every
//! claim-bearing place of the paper — each number in the abstract, text, tables and figures,
//! each stated ordering, trend, "no effect" or "always", each self-contradiction — with the
//! claim ids that judge it, or `none:` and why no claim does. The files are compiled in, so the
//! registry and its audit trail cannot drift apart: the tests fail when a file names an id that
//! is not registered, or a registered claim is in no file.
use super::all;

/// The coverage file of each seed, as written.
pub const FILES: [(&str, &str); 5] = [
    ("parsa", include_str!("../papers/parsa/coverage.md")),
    (
        "scc-blowfish",
        include_str!("../papers/scc_blowfish/coverage.md"),
    ),
    ("crsa", include_str!("../papers/crsa/coverage.md")),
    (
        "mary-karatsuba",
        include_str!("../papers/mary_karatsuba/coverage.md"),
    ),
    (
        "cipher-energy",
        include_str!("../papers/cipher_energy/coverage.md"),
    ),
];

/// One claim-bearing place of a paper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Where: section, table, figure.
    pub place: String,
    /// What the paper says there.
    pub says: String,
    /// The claim ids that cover it (empty when none does).
    pub ids: Vec<String>,
    /// Why no claim covers it (empty when some do).
    pub why_none: String,
}

/// The places of one coverage file: the rows of its tables whose header is
/// `| place | the paper says | covered by |`.
pub fn places(text: &str) -> Result<Vec<Place>, String> {
    let mut out = Vec::new();
    let mut in_table = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells = split_row(line);
        if cells.len() == 3 && cells[0] == "place" && cells[2] == "covered by" {
            in_table = true;
            continue;
        }
        if !in_table
            || cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        if cells.len() != 3 {
            return Err(format!("line {}: {} cells, expected 3", n + 1, cells.len()));
        }
        let covered = cells[2].trim();
        let (ids, why_none) = match covered.strip_prefix("none:") {
            Some(why) => (Vec::new(), why.trim().to_string()),
            None => (
                covered
                    .split([',', ' '])
                    .map(|id| id.trim().trim_matches('`'))
                    .filter(|id| !id.is_empty())
                    .map(String::from)
                    .collect(),
                String::new(),
            ),
        };
        if ids.is_empty() && why_none.len() < 10 {
            return Err(format!(
                "line {}: covered by no claim and no reason why ('none: …')",
                n + 1
            ));
        }
        out.push(Place {
            place: cells[0].clone(),
            says: cells[1].clone(),
            ids,
            why_none,
        });
    }
    Ok(out)
}

/// The cells of a Markdown table row (`\|` is a literal bar inside a cell).
fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

/// Problems with the coverage files against the registry: ids that are not registered (or
/// belong to another seed), registered claims no file names, malformed rows.
pub fn problems() -> Vec<String> {
    problems_in(&FILES)
}

/// Where the coverage file of paper `id` lives in the repository.
pub fn file_of(id: &str) -> String {
    format!("src/papers/{}/coverage.md", id.replace('-', "_"))
}

/// [`problems`] of the given files (seed, text) against the registry.
pub fn problems_in(files: &[(&str, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for &(seed, text) in files {
        let places = match places(text) {
            Ok(p) => p,
            Err(e) => {
                out.push(format!("{}: {e}", file_of(seed)));
                continue;
            }
        };
        for p in &places {
            for id in &p.ids {
                match super::find(id) {
                    None => out.push(format!(
                        "{} names '{id}', which is not a registered claim",
                        file_of(seed)
                    )),
                    Some(c) if c.paper_id != seed => out.push(format!(
                        "{} names '{id}', a claim of {}",
                        file_of(seed),
                        c.paper_id
                    )),
                    Some(_) => {}
                }
            }
        }
        for c in all().iter().filter(|c| c.paper_id == seed) {
            if !places.iter().any(|p| p.ids.contains(&c.id)) {
                out.push(format!(
                    "claim '{}' is registered but {} does not name it",
                    c.id,
                    file_of(seed)
                ));
            }
        }
    }
    out
}

/// Per seed: claim-bearing places, covered, not covered.
pub fn counts() -> Vec<(&'static str, usize, usize, usize)> {
    FILES
        .iter()
        .map(|(seed, text)| {
            let p = places(text).unwrap_or_default();
            let covered = p.iter().filter(|p| !p.ids.is_empty()).count();
            (*seed, p.len(), covered, p.len() - covered)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_claim_is_in_its_coverage_file_and_every_id_there_is_registered() {
        let problems = problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        for (seed, places, covered, none) in counts() {
            assert!(places > 0, "{seed}: empty coverage file");
            assert_eq!(places, covered + none);
        }
    }

    /// A headline claim is one the paper's abstract or conclusion states: its coverage file
    /// lists it against an Abstract or Conclusion place. Every paper has some, and each is
    /// judged (a by-construction or not-testable claim says nothing of the paper's result).
    #[test]
    fn headline_claims_judge_what_the_abstract_or_conclusion_states() {
        use crate::results::Kind;
        for (seed, text) in FILES {
            let places = places(text).unwrap();
            let stated: Vec<&String> = places
                .iter()
                .filter(|p| {
                    let place = p.place.to_lowercase();
                    place.contains("abstract") || place.contains("conclusion")
                })
                .flat_map(|p| &p.ids)
                .collect();
            let headline: Vec<_> = all()
                .iter()
                .filter(|c| c.paper_id == seed && c.headline)
                .collect();
            assert!(!headline.is_empty(), "{seed}: no headline claim");
            for c in headline {
                assert!(
                    stated.contains(&&c.id),
                    "{}: a headline claim, but {seed}'s coverage file lists it at no Abstract or Conclusion place",
                    c.id
                );
                assert!(
                    matches!(c.kind, Kind::Measured | Kind::Modelled | Kind::PaperCheck),
                    "{}: a headline claim must be judged",
                    c.id
                );
            }
        }
    }

    #[test]
    fn the_parser_reads_ids_reasons_and_escaped_bars_and_refuses_bare_rows() {
        let text = "| place | the paper says | covered by |\n|---|---|---|\n\
                    | Abstract | a \\| b | `parsa-a`, parsa-b |\n\
                    | Sec. 2 | setup | none: describes the machine, claims nothing |\n";
        let p = places(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].says, "a | b");
        assert_eq!(p[0].ids, ["parsa-a", "parsa-b"]);
        assert!(p[1].ids.is_empty() && p[1].why_none.starts_with("describes"));
        let bare =
            "| place | the paper says | covered by |\n|---|---|---|\n| Fig. 1 | x | none: |\n";
        assert!(places(bare).is_err());
    }

    #[test]
    fn a_planted_unknown_id_or_a_missing_claim_is_caught() {
        let scc_blowfish = FILES[1].1;
        let planted = format!(
            "{scc_blowfish}| Fig. 99 | x | scc-blowfish-no-such-claim |\n| Fig. 98 | y | parsa-parsa2 |\n"
        );
        let found = problems_in(&[("scc-blowfish", &planted)]);
        assert!(
            found
                .iter()
                .any(|p| p.contains("'scc-blowfish-no-such-claim', which is not"))
        );
        assert!(found.iter().any(|p| p.contains("a claim of parsa")));
        let first = all().iter().find(|c| c.paper_id == "scc-blowfish").unwrap();
        let dropped: String = scc_blowfish
            .lines()
            .filter(|l| !l.contains(first.id.as_str()))
            .map(|l| format!("{l}\n"))
            .collect();
        let found = problems_in(&[("scc-blowfish", &dropped)]);
        assert!(
            found
                .iter()
                .any(|p| p.contains(&first.id) && p.contains("does not name it")),
            "{found:?}"
        );
    }
}
