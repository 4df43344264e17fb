//! What an experiment of the study is ([`Experiment`]), what it receives ([`Context`]) and
//! what it gives ([`Output`]: results for people, evidence [`Fed`] to claims), and when more
//! rounds could not change a verdict ([`settled`]).
use super::judge::{self, Evidence};
use super::sampling;
use crate::bench::MachineInfo;
use crate::claims;
use crate::error::Result;
use crate::results::{ExperimentResult, Profile};
use serde::{Deserialize, Serialize};

/// What every experiment receives.
pub struct Context {
    /// The profile.
    pub profile: Profile,
    /// The machine the study runs on.
    pub machine: MachineInfo,
    /// How many paired rounds timed experiments run.
    pub plan: sampling::Plan,
}

impl Context {
    /// The context for `profile` on this machine.
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            machine: MachineInfo::detect(),
            plan: sampling::Plan::for_profile(profile),
        }
    }
}

/// Evidence for one claim, by the claim's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fed {
    /// The claim's id in the registry.
    pub claim: String,
    /// The evidence.
    pub evidence: Evidence,
}

/// `Fed` for `claim`.
pub fn fed(claim: &str, evidence: Evidence) -> Fed {
    Fed {
        claim: claim.into(),
        evidence,
    }
}

/// What an experiment produced: the tables and charts for people, and evidence for every
/// claim the registry says it feeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// Tables, charts, summary.
    pub result: ExperimentResult,
    /// Evidence, one per claim fed.
    pub evidence: Vec<Fed>,
}

/// One experiment of the study.
pub trait Experiment {
    /// Stable id, e.g. "seed000-fig6".
    fn id(&self) -> &'static str;
    /// The seed it belongs to, e.g. "seed000".
    fn seed(&self) -> &'static str {
        self.id().split('-').next().unwrap_or("")
    }
    /// Expected seconds under `profile` on a 2-core machine (for the time estimate).
    fn estimate_s(&self, profile: Profile) -> f64;
    /// Runs it.
    fn run(&self, ctx: &Context) -> Result<Output>;
}

/// Whether more rounds could not change any claim `evidence` feeds: none is left open by an
/// interval that straddles its rule (a model's range included: a range over assumptions
/// takes in a measured input's interval), or by cores that were busy or unclear while a
/// result load could have caused was measured. An interval wholly inside a noise band is
/// settled: more rounds narrow it inside the band. The sampling's stopping rule for
/// re-measuring.
pub fn settled(evidence: &[Fed]) -> bool {
    use crate::results::Reason;
    evidence.iter().all(|f| {
        claims::find(&f.claim).is_none_or(|c| {
            !matches!(
                judge::assess(c, &f.evidence).1,
                Reason::IntervalStraddles
                    | Reason::ModelRangeStraddles
                    | Reason::CoresBusy
                    | Reason::CoresUnclear
            )
        })
    })
}
