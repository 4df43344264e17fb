//! `study diff`: the claims whose verdict differs between two studies. A claim that moved
//! between holds and does-not-hold is a *flip*: the two runs contradict each other, which a
//! verdict built on confidence intervals should make rare.
use crate::results::{StudyResults, Verdict};
use std::fmt::Write;

/// One claim whose verdict differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The claim's id.
    pub id: String,
    /// Verdict in the first study.
    pub before: Verdict,
    /// Verdict in the second study.
    pub after: Verdict,
    /// Our figure in each, for people.
    pub ours: (String, String),
}

impl Change {
    /// Holds in one study and does not hold in the other.
    pub fn is_flip(&self) -> bool {
        self.before.is_definite() && self.after.is_definite() && self.before != self.after
    }
}

/// The differences between two studies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diff {
    /// Claims in both studies.
    pub compared: usize,
    /// Claims whose verdict differs, in the first study's order.
    pub changes: Vec<Change>,
    /// Claim ids only the first study has.
    pub only_first: Vec<String>,
    /// Claim ids only the second study has.
    pub only_second: Vec<String>,
}

impl Diff {
    /// How many changes are flips between holds and does-not-hold.
    pub fn flips(&self) -> usize {
        self.changes.iter().filter(|c| c.is_flip()).count()
    }

    /// The diff for people: one line per change, then a summary line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in &self.changes {
            let _ = writeln!(
                s,
                "{} {}: {} -> {} (ours: {} | {})",
                if c.is_flip() { "FLIP" } else { "    " },
                c.id,
                c.before.name(),
                c.after.name(),
                c.ours.0,
                c.ours.1
            );
        }
        for id in &self.only_first {
            let _ = writeln!(s, "only in the first: {id}");
        }
        for id in &self.only_second {
            let _ = writeln!(s, "only in the second: {id}");
        }
        let _ = writeln!(
            s,
            "{} of {} claims differ; {} moved between holds and does-not-hold",
            self.changes.len(),
            self.compared,
            self.flips()
        );
        s
    }
}

/// Compares two studies claim by claim.
pub fn diff(first: &StudyResults, second: &StudyResults) -> Diff {
    let mut d = Diff::default();
    for a in &first.claims {
        match second.claims.iter().find(|b| b.id == a.id) {
            Some(b) => {
                d.compared += 1;
                if a.verdict != b.verdict {
                    d.changes.push(Change {
                        id: a.id.clone(),
                        before: a.verdict,
                        after: b.verdict,
                        ours: (a.ours.text.clone(), b.ours.text.clone()),
                    });
                }
            }
            None => d.only_first.push(a.id.clone()),
        }
    }
    d.only_second = second
        .claims
        .iter()
        .filter(|b| !first.claims.iter().any(|a| a.id == b.id))
        .map(|b| b.id.clone())
        .collect();
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{ClaimResult, Kind, Ours, Profile};

    fn claim(id: &str, verdict: Verdict) -> ClaimResult {
        ClaimResult {
            id: id.into(),
            seed: "seed000".into(),
            reference: "Fig. 0".into(),
            claim: "c".into(),
            kind: Kind::Measured,
            model: None,
            verdict,
            reason: None,
            paper: "p".into(),
            paper_values: Vec::new(),
            ours: Ours::default(),
            rule: "r".into(),
            rule_data: crate::results::Rule::Report,
            tolerance: "t".into(),
            why: "w".into(),
            beside: None,
            experiment: "seed000-x".into(),
        }
    }

    fn study(claims: Vec<ClaimResult>) -> StudyResults {
        StudyResults {
            machine: crate::bench::MachineInfo::detect(),
            profile: Profile::Quick,
            parcrypt_version: "test".into(),
            claims,
            experiments: vec![],
            resumed: vec![],
            elapsed_s: 0.0,
        }
    }

    #[test]
    fn flips_are_counted_apart_from_moves_to_inconclusive() {
        use Verdict::*;
        let a = study(vec![
            claim("a", Holds),
            claim("b", Holds),
            claim("c", DoesNotHold),
            claim("d", Holds),
            claim("x", Holds),
        ]);
        let b = study(vec![
            claim("a", Holds),
            claim("b", Inconclusive),
            claim("c", Holds),
            claim("d", Holds),
            claim("y", Holds),
        ]);
        let d = diff(&a, &b);
        assert_eq!(d.compared, 4);
        assert_eq!(d.changes.len(), 2);
        assert_eq!(d.flips(), 1);
        assert!(d.changes[1].is_flip() && !d.changes[0].is_flip());
        assert_eq!(
            (d.only_first.clone(), d.only_second.clone()),
            (vec!["x".to_string()], vec!["y".to_string()])
        );
        let text = d.render();
        assert!(text.contains("FLIP c: does-not-hold -> holds"), "{text}");
        assert!(text.ends_with("2 of 4 claims differ; 1 moved between holds and does-not-hold\n"));
        assert_eq!(diff(&a, &a).changes.len(), 0);
    }
}
