//! The five seed papers as the report cites them: authors, title, venue, and a short name for
//! the navigation. The same facts as the README's "The papers".

/// One seed paper, as cited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The seed id, e.g. "seed000" (also the report's anchor of its section).
    pub seed: &'static str,
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

/// The seed papers, in report order.
pub const PAPERS: [Paper; 5] = [
    Paper {
        seed: "seed000",
        short: "PaRSA on multicores",
        authors: "Mutaz Al-Tarawneh and Ashraf Alkhresheh",
        title: "Towards an Optimal Multicore Processor Design for Cryptographic Algorithms – A Case Study on RSA",
        venue: "WSEAS journal article (the copy names no issue)",
        topic: "PaRSA schedules, design space, power, energy and lifetime",
    },
    Paper {
        seed: "seed001",
        short: "Blowfish on the SCC",
        authors: "Kamak Ebadi, Victor Pena and Chen Liu",
        title: "High-Performance Implementation and Evaluation of Blowfish Cryptographic Algorithm on Single-Chip Cloud Computer: A Pipelined Approach",
        venue: "Intel Labs' SCC research programme (the copy names no venue)",
        topic: "Blowfish pipelined round by round over 36 cores",
    },
    Paper {
        seed: "seed002",
        short: "CRSA hypercube",
        authors: "Masumeh Damrudi and Kamal Jadidy Aval",
        title: "Cube Based RSA Analysis and Optimization",
        venue: "the copy names no venue",
        topic: "modular exponentiation on a hypercube of processing elements",
    },
    Paper {
        seed: "seed003",
        short: "m-ary, slicing, Karatsuba",
        authors: "Sandro Bartolini and Biagio Peccerillo",
        title: "Why we should care about parallel programming in securing Cyber-physical systems",
        venue: "Cyber Physical Security Education Workshop (CPSEd), Paris, 2017",
        topic: "parallel m-ary and slicing exponentiation, parallel Karatsuba, against GMP",
    },
    Paper {
        seed: "seed004",
        short: "Energy of ciphers",
        authors: "Disha Handa",
        title: "Comparative Analysis of Energy Cost of Sequential and Parallel Cryptographic Algorithms on Different Platforms",
        venue: "open-access journal article, 2022",
        topic: "energy of sequential and parallel Blowfish, RC4 and RC4A",
    },
];

/// The paper of `seed`, if it is one of the five.
pub fn paper(seed: &str) -> Option<&'static Paper> {
    PAPERS.iter().find(|p| p.seed == seed)
}

impl Paper {
    /// "Authors, *Title*, venue." in Markdown.
    pub fn citation_md(&self) -> String {
        format!("{}, *{}*, {}", self.authors, self.title, self.venue)
    }

    /// The section heading: the short name, the topic and the seed number.
    pub fn heading(&self) -> String {
        format!("{}: {} ({})", self.short, self.topic, self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seed_has_one_paper_and_the_readme_cites_the_same() {
        let readme = include_str!("../../README.md");
        for (i, p) in PAPERS.iter().enumerate() {
            assert_eq!(p.seed, format!("seed00{i}"));
            assert_eq!(paper(p.seed), Some(p));
            // The README wraps lines; compare with its whitespace collapsed.
            let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(p.title), "README lacks {}", p.title);
        }
        assert!(paper("seed009").is_none());
    }
}
