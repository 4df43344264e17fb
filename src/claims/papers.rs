//! The one registry of the five papers: their ids (in claim ids, results.json, file names and
//! `--only`), how the report cites them (authors, title, venue) and a short name for the
//! navigation; and the ids they had before they were named (`seed000` … `seed004`), which
//! `study diff` still reads.

/// One paper, as cited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The paper's id, e.g. "parsa" (also the report's anchor of its section and the prefix of
    /// its claim ids).
    pub id: &'static str,

    /// A few words for the navigation, e.g. "PaRSA and DSE".
    pub short: &'static str,
    /// The authors, as printed.
    pub authors: &'static str,
    /// The title, as printed.
    pub title: &'static str,
    /// Where it appeared, as far as the copy says.
    pub venue: &'static str,
    /// What parcrypt takes from it, in a phrase.
    pub topic: &'static str,
}

/// The papers, in report order; each one's facts live in its folder (`src/papers/<paper>/`).
pub const PAPERS: [Paper; 5] = [
    super::parsa::PAPER,
    super::scc_blowfish::PAPER,
    super::crsa::PAPER,
    super::mary_karatsuba::PAPER,
    super::cipher_energy::PAPER,
];

/// The papers' ids, in report order.
pub const IDS: [&str; 5] = {
    let mut out = [""; 5];
    let mut i = 0;
    while i < 5 {
        out[i] = PAPERS[i].id;
        i += 1;
    }
    out
};

/// The ids the papers had before they were named, and their names now: `study diff` reads a
/// results.json of either, and `--only` takes either.
pub const OLD_IDS: [(&str, &str); 5] = [
    ("seed000", "parsa"),
    ("seed001", "scc-blowfish"),
    ("seed002", "crsa"),
    ("seed003", "mary-karatsuba"),
    ("seed004", "cipher-energy"),
];

/// A paper id, a claim id or an experiment id with an old paper id (`seed000-fig6`) in
/// today's form (`parsa-fig6`); any other id unchanged.
pub fn current_id(id: &str) -> String {
    for (old, new) in OLD_IDS {
        if id == old {
            return new.to_string();
        }
        if let Some(rest) = id.strip_prefix(old).and_then(|r| r.strip_prefix('-')) {
            return format!("{new}-{rest}");
        }
    }
    id.to_string()
}

/// The paper whose id begins `id` (a claim's or an experiment's, `parsa-fig6`), if any.
pub fn of_id(id: &str) -> Option<&'static str> {
    IDS.into_iter()
        .find(|p| id.strip_prefix(p).is_some_and(|r| r.starts_with('-')))
}

/// The paper of `id` (today's or an old one), if it is one of the five.
pub fn paper(id: &str) -> Option<&'static Paper> {
    let id = current_id(id);
    PAPERS.iter().find(|p| p.id == id)
}

impl Paper {
    /// "Authors, *Title*, venue." in Markdown.
    pub fn citation_md(&self) -> String {
        format!("{}, *{}*, {}", self.authors, self.title, self.venue)
    }

    /// The section heading: the short name, the topic and the id.
    pub fn heading(&self) -> String {
        format!("{}: {} ({})", self.short, self.topic, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_paper_has_one_entry_and_the_readme_cites_the_same() {
        let readme = include_str!("../../README.md");
        let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
        for (p, id) in PAPERS.iter().zip(IDS) {
            assert_eq!(p.id, id);
            assert_eq!(paper(p.id), Some(p));
            // The README wraps lines; compare with its whitespace collapsed.
            assert!(flat.contains(p.title), "README lacks {}", p.title);
        }
        assert!(paper("seed009").is_none() && paper("rsa").is_none());
    }

    #[test]
    fn old_ids_read_as_today_s() {
        assert_eq!(current_id("seed000"), "parsa");
        assert_eq!(current_id("seed001-fig8"), "scc-blowfish-fig8");
        assert_eq!(
            current_id("seed003-mary-precomp-2048"),
            "mary-karatsuba-mary-precomp-2048"
        );
        assert_eq!(current_id("parsa-fig6"), "parsa-fig6");
        assert_eq!(current_id("seed0001-x"), "seed0001-x");
        assert_eq!(paper("seed004").map(|p| p.id), Some("cipher-energy"));
        for (old, new) in OLD_IDS {
            assert!(IDS.contains(&new), "{old} -> {new}");
        }
    }
}
