//! A run set beside the results archive by machine (`results/machines/<cpu>/`, issue 40):
//! which verdicts other CPUs gave, and which verdicts therefore depend on the machine. Plain
//! data, filled by [`crate::study::archive`] and shown by the report.
use super::Verdict;
use serde::{Deserialize, Serialize};

/// One CPU of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpuColumn {
    /// The archive's key for it (`amd-f25-m17`), or `this run` when the run's CPU is unknown.
    pub key: String,
    /// The CPU in one line: model, family, model number, widest SIMD, L1d, logical CPUs.
    pub description: String,
    /// Where its verdicts come from: `this run`, or the archive folder.
    pub source: String,
    /// When that run started (UTC).
    pub at: String,
    /// Its verdicts came from the judge before per-claim settings and model error (issue 39:
    /// no claim of its results.json records a setting), so a verdict of this run that rests on
    /// those rules cannot be set against it.
    #[serde(default)]
    pub older_judge: bool,
}

impl CpuColumn {
    /// Where its verdicts come from, for people: "source, at", with the older judge named.
    pub fn provenance(&self) -> String {
        let judge = if self.older_judge {
            "; judged before per-claim settings"
        } else {
            ""
        };
        format!("{}, {}{judge}", self.source, self.at)
    }
}

/// One CPU's verdict on a claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpuVerdict {
    /// The CPU's key ([`CpuColumn::key`]).
    pub cpu: String,
    /// Its verdict.
    pub verdict: Verdict,
    /// Its figure with the interval, as its run showed it.
    pub figure: String,
}

/// A reason found for verdicts that differ by machine, kept in the archive's `reasons.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineReason {
    /// The claims it explains.
    pub claims: Vec<String>,
    /// One sentence: what differs on which CPU.
    pub title: String,
    /// Whether a measurement shows the mechanism (`false`: the direction is measured, the
    /// cause is not, or nothing is known).
    pub explained: bool,
    /// The measured figures behind it, for people.
    pub text: String,
}

/// A claim whose verdict is not the same on every CPU compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineClaim {
    /// The claim's id.
    pub id: String,
    /// Each CPU's verdict, in [`MachineComparison::cpus`] order (CPUs whose run lacks the
    /// claim are left out).
    pub verdicts: Vec<CpuVerdict>,
    /// One CPU says holds and another does not hold.
    pub flip: bool,
    /// The archive's reason for it, when one was written; `None`: unexplained.
    pub reason: Option<MachineReason>,
    /// A CPU that differs was judged by the older judge ([`CpuColumn::older_judge`]) and this
    /// run's verdict rests on a rule it did not have (a scaled setting, a model's own error, a
    /// named assumption's range): the difference may be the judge's, not the machine's.
    #[serde(default)]
    pub judge_may_differ: bool,
}

/// This run beside the archive: every CPU's verdicts on the claims all runs have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineComparison {
    /// The archive folder read.
    pub archive: String,
    /// The CPUs, this run's first.
    pub cpus: Vec<CpuColumn>,
    /// Claims judged on at least two CPUs.
    pub compared: usize,
    /// Of them, the claims whose verdict differs between CPUs, in this run's order.
    pub dependent: Vec<MachineClaim>,
}

impl MachineComparison {
    /// The entry of claim `id`, when its verdict depends on the machine.
    pub fn claim(&self, id: &str) -> Option<&MachineClaim> {
        self.dependent.iter().find(|c| c.id == id)
    }

    /// How many machine-dependent claims flip between holds and does-not-hold.
    pub fn flips(&self) -> usize {
        self.dependent.iter().filter(|c| c.flip).count()
    }

    /// The differing claims whose difference may be the judge's ([`MachineClaim::judge_may_differ`]).
    pub fn judge_may_differ(&self) -> usize {
        self.dependent.iter().filter(|c| c.judge_may_differ).count()
    }

    /// The CPU column of `key`.
    pub fn cpu(&self, key: &str) -> Option<&CpuColumn> {
        self.cpus.iter().find(|c| c.key == key)
    }
}
