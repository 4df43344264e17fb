//! The study's plain data model: what results.json holds and what the report renders.
//!
//! Nothing here measures, judges or renders: experiments fill [`ExperimentResult`]s (tables,
//! charts, how sure they are), the judge fills [`ClaimResult`]s, and [`crate::report`] reads
//! both. The report reads only this module of the study's, so it never imports the study.
use crate::bench::MachineInfo;
use serde::{Deserialize, Serialize};

mod chart;
mod machines;
mod rule;
mod table;

pub use chart::{
    Chart, ChartKind, Point, Provenance, Reference, Series, ValueAxis, chart_csv_name,
};
pub use machines::{CpuColumn, CpuVerdict, MachineClaim, MachineComparison, MachineReason};
pub use rule::{Load, Reason, Rule, Test, num};

pub use table::{Cell, MISSING, Measured, Table, names_unit};

/// What kind of claim this is, which decides which verdicts it can get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Judged on the 95 % interval of a figure measured here.
    Measured,
    /// Judged like a measured one, on a named model's output.
    Modelled,
    /// Arithmetic on the paper's own numbers: consistent or inconsistent.
    PaperCheck,
    /// A figure no measurement can move (the reason is given): reported, never a "holds".
    ByConstruction,
    /// Cannot be tested here (the reason and the hardware that would test it are given).
    NotTestable,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 5] = [
        Kind::Measured,
        Kind::Modelled,
        Kind::PaperCheck,
        Kind::ByConstruction,
        Kind::NotTestable,
    ];

    /// "measured", "modelled", "paper-check", "by-construction", "not-testable".
    pub fn name(self) -> &'static str {
        match self {
            Kind::Measured => "measured",
            Kind::Modelled => "modelled",
            Kind::PaperCheck => "paper-check",
            Kind::ByConstruction => "by-construction",
            Kind::NotTestable => "not-testable",
        }
    }
}

/// A verdict on one of the paper's claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The whole 95 % interval of our figure satisfies the claim's rule.
    Holds,
    /// The whole 95 % interval of our figure violates the claim's rule.
    DoesNotHold,
    /// The interval straddles the rule's threshold: this run cannot tell.
    Inconclusive,
    /// The paper's numbers agree with each other (paper-check).
    Consistent,
    /// The paper's numbers disagree with each other (paper-check).
    Inconsistent,
    /// Reported, but no measurement could have moved it.
    ByConstruction,
    /// Cannot be tested on this machine or profile.
    NotTestable,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 7] = [
        Verdict::Holds,
        Verdict::DoesNotHold,
        Verdict::Inconclusive,
        Verdict::Consistent,
        Verdict::Inconsistent,
        Verdict::ByConstruction,
        Verdict::NotTestable,
    ];

    /// The name in results.json: "holds", "does-not-hold", ….
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does-not-hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Consistent => "consistent",
            Verdict::Inconsistent => "inconsistent",
            Verdict::ByConstruction => "by-construction",
            Verdict::NotTestable => "not-testable",
        }
    }

    /// For people: "holds", "does not hold", "not testable here", ….
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does not hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Consistent => "consistent",
            Verdict::Inconsistent => "inconsistent",
            Verdict::ByConstruction => "by construction",
            Verdict::NotTestable => "not testable here",
        }
    }

    /// Holds or does not hold: the two verdicts a run must never swap.
    pub fn is_definite(self) -> bool {
        matches!(self, Verdict::Holds | Verdict::DoesNotHold)
    }
}

/// Our figure for a claim.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ours {
    /// The point estimate (`None` when nothing could be measured or modelled).
    pub value: Option<f64>,
    /// Lower end of its 95 % interval (equal to `value` for exact figures).
    pub ci_low: Option<f64>,
    /// Upper end of its 95 % interval.
    pub ci_high: Option<f64>,
    /// Unit of the three numbers.
    pub unit: String,
    /// Paired rounds or runs behind the figure (0 for models and the paper's arithmetic).
    pub runs: usize,
    /// Threads of the configuration that decided (0 when not a timing).
    pub threads: usize,
    /// The figure for people, with whatever else it needs (e.g. several mechanisms).
    pub text: String,
    /// For a claim judged on several figures (one per mechanism, per step of an order):
    /// each with its name and interval. Empty for a claim judged on one figure.
    #[serde(default)]
    pub parts: Vec<Part>,
}

/// One figure of a claim judged on several.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// What it is ("EM", "dynamic / guided").
    pub name: String,
    /// The point estimate.
    pub value: f64,
    /// Lower end of its 95 % interval (equal to `value` for exact figures).
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// Unit.
    pub unit: String,
}

/// What a judged claim's verdict confirms of the paper's statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confirms {
    /// The paper's figure itself, at the paper's setting or one that preserves it.
    Figure,
    /// Only the ordering the figure implies (A faster than B), at a scaled setting (2 threads
    /// against a bound derived from the paper's 4, say): the figure is not tested here.
    Ordering,
}

impl Confirms {
    /// "figure" or "ordering".
    pub fn name(self) -> &'static str {
        match self {
            Confirms::Figure => "figure",
            Confirms::Ordering => "ordering",
        }
    }
}

/// The setting a judged claim's evidence was obtained at, against the paper's, on each
/// dimension the claim depends on (threads, slices, sizes, platform, implementation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Setting {
    /// The paper's setting, or one that preserves it (a model evaluated over a range that
    /// includes the paper's setting counts): the evidence can confirm or refute the claim.
    Paper,
    /// A scaled setting (2 threads for the paper's 8, 2 slices for its 3–8, our machine for
    /// the paper's): the evidence shows an ordering at our scale, never a refutation of the
    /// paper's claim ([`crate::results::Reason::ScaledSetting`]).
    Scaled,
}

impl Setting {
    /// "paper" or "scaled".
    pub fn name(self) -> &'static str {
        match self {
            Setting::Paper => "paper",
            Setting::Scaled => "scaled",
        }
    }
}

/// An input of a model that replaces the paper's setting with one of ours (a core count, a
/// temperature, a platform effect): the claim is judged on the model's output over the whole
/// `range`, which must include the paper's own setting where the paper gives one, so no
/// verdict rests on our choice of a point inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assumption {
    /// What is assumed ("parallel efficiency at the paper's 8 cores").
    pub name: String,
    /// Its unit ("", "K", "×").
    pub unit: String,
    /// The value the model takes as its point estimate.
    pub ours: f64,
    /// The range the claim is judged over (low, high).
    pub range: (f64, f64),
    /// The paper's own setting, where the paper gives one (must lie in `range`).
    pub paper: Option<f64>,
    /// Why the range is what it is, in a sentence.
    pub why: String,
}

impl Assumption {
    /// Whether the range holds our point and the paper's setting (where given).
    pub fn covers_its_points(&self) -> bool {
        let (lo, hi) = self.range;
        let inside = |v: f64| lo <= v && v <= hi;
        lo <= hi && inside(self.ours) && self.paper.is_none_or(inside)
    }
}

/// One claim of a paper, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// Stable id, e.g. "mary-karatsuba-mary-precomp-2048".
    pub id: String,
    /// The paper's id, e.g. "mary-karatsuba" (`seed` in files written before the papers
    /// were named, read too).
    #[serde(alias = "seed")]
    pub paper_id: String,
    /// The paper's table, figure or section.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// Measured, modelled, paper-check, by-construction or not-testable.
    pub kind: Kind,
    /// For modelled claims: the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why the verdict follows, as a code ("interval-inside", "cores-busy",
    /// "needs-36-threads", …); `None` only in results written before reasons were recorded.
    #[serde(default)]
    pub reason: Option<Reason>,
    /// The paper's figure(s).
    pub paper: String,
    /// The paper's figures as numbers, as printed (empty for a claim with none).
    #[serde(default)]
    pub paper_values: Vec<f64>,
    /// Our figure.
    pub ours: Ours,
    /// The rule ours is judged by, with its tolerance.
    pub rule: String,
    /// The same rule as data, e.g. `{"kind": "at-least", "min": 1.1}`.
    #[serde(default = "no_rule")]
    pub rule_data: Rule,
    /// Why the tolerance is what it is.
    pub tolerance: String,
    /// How ours was obtained and why the verdict follows.
    pub why: String,
    /// A figure shown beside that does not decide (e.g. the 1-thread result of a parallel
    /// method).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<String>,
    /// The experiment that produced the evidence.
    pub experiment: String,
    /// One of the paper's headline claims (stated in its abstract or conclusion).
    #[serde(default)]
    pub headline: bool,
    /// For a paper-check: the one defect of the paper it rests on (a garbled cell, a pair
    /// of printed figures that disagree); paper-checks with the same id are one finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defect: Option<String>,
    /// For a judged claim: whether its verdict confirms the paper's figure or only the
    /// ordering it implies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirms: Option<Confirms>,
    /// For a claim that confirms an ordering: what of the paper's statement is not tested
    /// here ("the paper's −40 % at 4 threads").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untested: Option<String>,
    /// For a modelled claim: the inputs that replace the paper's setting, with the ranges it
    /// was judged over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<Assumption>,
    /// For a measured or modelled claim: the setting its evidence was obtained at, the
    /// paper's or a scaled one (absent in results written before settings were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting: Option<Setting>,
    /// For a scaled setting: what differs from the paper's ("2 threads against the paper's
    /// 4").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differs: Option<String>,
    /// The root cause this claim's verdict shares with others (a paper's defect, or one fact
    /// several claims score): findings and counts count roots, not claims. Absent for a claim
    /// that is its own root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
}

impl ClaimResult {
    /// The root cause this claim counts under: its `root`, its `defect`, else its own id.
    pub fn root_id(&self) -> &str {
        self.root
            .as_deref()
            .or(self.defect.as_deref())
            .unwrap_or(&self.id)
    }

    /// Whether the evidence was obtained at a scaled setting (an ordering at our scale).
    pub fn is_scaled(&self) -> bool {
        self.setting == Some(Setting::Scaled)
            || (self.setting.is_none() && self.confirms == Some(Confirms::Ordering))
    }
}

fn no_rule() -> Rule {
    Rule::Report
}

/// How sure an experiment's measurements are.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// Paired rounds measured (every configuration once per round).
    pub rounds: usize,
    /// Rounds added after the first judgement because a claim was inconclusive.
    pub extra_rounds: usize,
    /// Median over configurations of the relative half-width of the 95 % interval of the
    /// median, in %.
    pub spread_pct: f64,
    /// Some configuration's interval is wider than ±10 % of its median.
    pub noisy: bool,
    /// Rounds measured and set aside because the probes beside them read the CPUs apart (the
    /// study's `sampling::FAR`) or a core taken (`sampling::DISTURBED`); not in `rounds`.
    #[serde(default)]
    pub set_aside_rounds: usize,
    /// Of those, the rounds set aside for a core taken.
    #[serde(default)]
    pub set_aside_busy: usize,
    /// The median µs of the cross-core probe (8 KB there and back between two threads) over
    /// the rounds kept, for experiments that run parallel forms.
    #[serde(default)]
    pub cross_core_us: Option<f64>,
    /// The same over the rounds set aside with the CPUs apart.
    #[serde(default)]
    pub set_aside_us: Option<f64>,
    /// The line above which a round read the CPUs apart (µs), for experiments that set such
    /// rounds aside: `sampling::FAR` times the machine's level among the run's readings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub far_above_us: Option<f64>,
    /// Seconds spent after rounds set aside with the CPUs apart, waiting (polling the
    /// cross-core probe) for them to share a cache again before the next round.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub waited_apart_s: f64,
    /// The least share of a round's wall time that the most robbed logical CPU kept from the
    /// hypervisor (steal time, `sampling::STEAL_FREE`), over the rounds kept, for experiments
    /// that run parallel forms where the kernel counts steal (1.0: nothing taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_free: Option<f64>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Quality {
    /// "; 3 more set aside (23 % of the 13 run): 2 with the CPUs apart (moving 8 KB between
    /// them and back took 3.1 µs, against 0.67 µs in the rounds kept; the line: 1.34 µs), 1
    /// with a core taken (the free-core probe, or the share of the round a CPU kept from the
    /// hypervisor, read below 0.75)", or "; none set aside".
    pub fn set_aside_text(&self) -> String {
        if self.set_aside_rounds == 0 {
            return "; none set aside".into();
        }
        let us = |x: Option<f64>| x.map_or("?".to_string(), |v| format!("{v:.2}"));
        let apart = self.set_aside_rounds.saturating_sub(self.set_aside_busy);
        let mut why = Vec::new();
        if apart > 0 {
            why.push(format!(
                "{apart} with the CPUs apart (moving {} KB between them and back took {} µs, against {} µs in the rounds kept; the line: {} µs, {} times the level of this run's readings)",
                crate::bench::capacity::CROSS_CORE_BYTES / 1024,
                us(self.set_aside_us),
                us(self.cross_core_us),
                us(self.far_above_us),
                crate::bench::capacity::FAR
            ));
            if self.waited_apart_s > 0.0 {
                why.push(format!(
                    "{:.1} s waited after them for the CPUs to share a cache again",
                    self.waited_apart_s
                ));
            }
        }
        if self.set_aside_busy > 0 {
            why.push(format!(
                "{} with a core taken (the free-core probe, or the share of the round a CPU kept from the hypervisor, read below {})",
                self.set_aside_busy,
                crate::bench::capacity::DISTURBED
            ));
        }
        let run = self.rounds + self.set_aside_rounds;
        format!(
            "; {} more set aside ({:.0} % of the {run} run): {}",
            self.set_aside_rounds,
            100.0 * self.set_aside_rounds as f64 / run as f64,
            why.join(", ")
        )
    }
}

/// Everything one experiment produced for people (its claims are judged apart).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentResult {
    /// Stable id, e.g. "parsa-fig6"; also the CSV file name.
    pub id: String,
    /// The paper's id, e.g. "parsa" (`seed` in older files, read too).
    #[serde(alias = "seed")]
    pub paper_id: String,
    /// Title.
    pub title: String,
    /// The paper's tables or figures it answers, e.g. "Fig. 6".
    pub answers: String,
    /// Measured or modelled (for the experiment as a whole; series say it too).
    pub provenance: Provenance,
    /// A paragraph: what was run, at which sizes, and what it shows.
    pub summary: String,
    /// The numbers.
    pub table: Table,
    /// Charts (every experiment has at least one).
    pub charts: Vec<Chart>,
    /// How sure the measurements are (`None` for models and the paper's arithmetic).
    #[serde(default)]
    pub quality: Option<Quality>,
    /// Seconds the experiment took.
    pub elapsed_s: f64,
    /// Seconds the study expected it to take when it started (calibrated, or its previous
    /// run in the folder); absent in results from before estimates were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_s: Option<f64>,
}

impl ExperimentResult {
    /// A result with its id, seed, title, the paper's items it `answers`, provenance and
    /// summary; no table, charts or quality yet, and no time (the study records `elapsed_s`).
    pub fn new(
        id: impl Into<String>,
        seed: impl Into<String>,
        title: impl Into<String>,
        answers: impl Into<String>,
        provenance: Provenance,
        summary: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            paper_id: seed.into(),
            title: title.into(),
            answers: answers.into(),
            provenance,
            summary: summary.into(),
            table: Table::default(),
            charts: Vec::new(),
            quality: None,
            elapsed_s: 0.0,
            estimate_s: None,
        }
    }

    /// With its numbers.
    pub fn with_table(mut self, table: Table) -> Self {
        self.table = table;
        self
    }

    /// With its charts.
    pub fn with_charts(mut self, charts: Vec<Chart>) -> Self {
        self.charts = charts;
        self
    }

    /// With how sure its measurements are.
    pub fn with_quality(mut self, quality: Quality) -> Self {
        self.quality = Some(quality);
        self
    }
}

/// A measured number: 4 significant digits, no trailing zeros.
pub fn short(v: f64) -> String {
    if v == v.round() && v.abs() < 1e4 {
        return format!("{}", v as i64);
    }
    table::trim_zeros(&crate::bench::format_number(v))
}

/// Which profile a study ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Small sizes: the whole study in under 10 minutes on a 2-core machine.
    Quick,
    /// The papers' sizes where feasible: hours.
    Full,
}

impl Profile {
    /// "quick" or "full".
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Full => "full",
        }
    }
}

/// Everything the study wrote, as stored in results.json.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyResults {
    /// The machine.
    pub machine: MachineInfo,
    /// The profile used.
    pub profile: Profile,
    /// parcrypt's version.
    pub parcrypt_version: String,
    /// Every claim of the selected seeds, judged, in registry order.
    pub claims: Vec<ClaimResult>,
    /// The experiments, in report order.
    pub experiments: Vec<ExperimentResult>,
    /// Ids of experiments reused from an earlier, interrupted run.
    pub resumed: Vec<String>,
    /// Seconds the whole study took (resumed experiments count their first run).
    #[serde(default)]
    pub elapsed_s: f64,
    /// This run beside the results archive by machine (`study --archive DIR`): the verdicts
    /// other CPUs gave and which differ by machine; absent when no archive was named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machines: Option<MachineComparison>,
}

impl StudyResults {
    /// How many claims of `kind` got `verdict`.
    pub fn count(&self, kind: Kind, verdict: Verdict) -> usize {
        self.claims
            .iter()
            .filter(|c| c.kind == kind && c.verdict == verdict)
            .count()
    }

    /// One line per kind with its verdicts, e.g. "measured: 20 holds, 3 inconclusive".
    pub fn summary_lines(&self) -> Vec<String> {
        Kind::ALL
            .iter()
            .filter_map(|&k| {
                let parts: Vec<String> = Verdict::ALL
                    .iter()
                    .filter_map(|&v| {
                        let n = self.count(k, v);
                        (n > 0).then(|| format!("{n} {}", v.label()))
                    })
                    .collect();
                (!parts.is_empty()).then(|| format!("{}: {}", k.name(), parts.join(", ")))
            })
            .collect()
    }

    /// The claims of one experiment.
    pub fn claims_of<'a>(&'a self, experiment: &'a str) -> impl Iterator<Item = &'a ClaimResult> {
        self.claims
            .iter()
            .filter(move |c| c.experiment == experiment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_kinds_serialise_as_their_names() {
        for v in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.name())
            );
        }
        for k in Kind::ALL {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.name())
            );
        }
        assert!(Verdict::Holds.is_definite() && !Verdict::Inconclusive.is_definite());
    }
}
