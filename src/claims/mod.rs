//! The papers' claims as data: one registry per seed paper, each claim with a stable id, the
//! paper's reference, wording and figure(s), the metric ours is compared on, the rule with a
//! one-line reason for its tolerance, its kind, and the experiment that feeds it evidence.
//!
//! Every figure the study, the benchmarks and the models quote from a paper lives in these
//! files once (the seed-000 power Tables 4–7 live in `crates/parcrypt-harness/src/energy/parsa_power_tables.csv`, read by
//! [`crate::energy::parsa`]); the rest of the code reads them from here. Verdicts are not
//! here: [`crate::study::judge::judge`] computes them from a claim and its evidence.
//!
//! To add a claim fed by a model: add it to its seed's `claims()` with
//! [`Claim::modelled`] naming the model and the experiment, and have that experiment push
//! [`crate::study::judge::Evidence::modelled`] for the claim's id.
#[path = "../papers/cipher_energy/claims.rs"]
pub mod cipher_energy;
pub mod coverage;
#[path = "../papers/crsa/claims.rs"]
pub mod crsa;
#[path = "../papers/mary_karatsuba/claims/mod.rs"]
pub mod mary_karatsuba;
pub mod papers;
#[path = "../papers/parsa/claims/mod.rs"]
pub mod parsa;
#[path = "../papers/scc_blowfish/claims.rs"]
pub mod scc_blowfish;
pub mod settings;
pub mod statements;

use crate::results::Kind;
pub use crate::results::{Assumption, Confirms, Load, Rule, Setting, Test, num};
use std::sync::OnceLock;

/// The relative noise band of an ordering between two timings measured here: a ratio must
/// clear 1 by more than 2 % either way before the ordering counts as shown or refuted.
pub const ORDER_NOISE: f64 = 0.02;

/// Where [`ORDER_NOISE`] comes from, said beside every rule that uses it.
pub const ORDER_NOISE_WHY: &str = "the ±2 % noise band is the run-to-run reproducibility of a paired time ratio on this kind of machine: two back-to-back quick studies on a quiet 2-core VM moved such medians by up to 1.9 % (criterion calls changes under 1 % noise); an interval wholly inside the band is within-noise-band, neither shown nor refuted";

/// "Ours is above 1 by more than the noise band": a measured ordering such as "slower than".
pub fn above_one() -> Rule {
    Rule::Above {
        min: 1.0,
        noise: ORDER_NOISE,
    }
}

/// "Ours is below 1 by more than the noise band": a measured ordering such as "faster than".
pub fn below_one() -> Rule {
    Rule::Below {
        max: 1.0,
        noise: ORDER_NOISE,
    }
}

/// One claim of a paper.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Stable id, e.g. "parsa-fig6-guided-best".
    pub id: String,
    /// The paper's id ([`papers::IDS`]).
    pub paper_id: &'static str,
    /// The experiment that feeds it evidence.
    pub experiment: &'static str,
    /// The paper's table, figure or section.
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// The paper's figure(s), as the paper gives them.
    pub paper: String,
    /// What ours is compared on.
    pub metric: String,
    /// Unit of the metric.
    pub unit: String,
    /// The rule.
    pub rule: Rule,
    /// One line: why the tolerance is what it is.
    pub tolerance: String,
    /// The kind, which decides the verdicts it can get.
    pub kind: Kind,
    /// For modelled claims, the model.
    pub model: Option<String>,
    /// For by-construction claims why no measurement can move it; for not-testable ones why,
    /// and what hardware would test it.
    pub note: String,
    /// A claim about a parallel method: judged only on runs with at least 2 threads, and
    /// only on as many threads as the machine has logical CPUs (unless `oversubscription`).
    pub parallel: bool,
    /// Which way load on the machine can move the figure ([`Load`]): a result load could
    /// have caused is judged only when the free-core probe found the cores free.
    pub load: Load,
    /// The claim is about running more threads than cores (time-sharing): evidence with more
    /// threads than logical CPUs is what it needs, not a reason to refuse.
    pub oversubscription: bool,
    /// The paper's figures as numbers, as printed (empty for a claim with none).
    pub paper_values: Vec<f64>,
    /// For judged claims: the range our figure can plausibly take on some machine this tool
    /// runs on, one per estimate, and the stated, checkable limit that sets it (e.g. "2
    /// threads bound slicing's gain at −25 %"). A rule must be both satisfiable and
    /// violable inside it ([`Rule::can_pass_and_fail`]).
    pub plausible: Vec<(f64, f64)>,
    /// Why the plausible range is what it is.
    pub plausible_why: String,
    /// One of the paper's headline claims: its abstract or conclusion states it. The report
    /// opens with these.
    pub headline: bool,
    /// For a paper-check: the id of the one defect of the paper it rests on (a garbled cell,
    /// a pair of printed figures that disagree). Paper-checks with the same id are one
    /// finding; ids are unique within a paper.
    pub defect: Option<&'static str>,
    /// For a judged claim: whether its verdict confirms the paper's figure or only the
    /// ordering it implies (`None` until set; paper-checks confirm nothing of ours).
    pub confirms: Option<Confirms>,
    /// For a claim that confirms an ordering: what of the paper's statement is not tested
    /// here, in words the report prints ("the paper's −40 % at 4 threads").
    pub untested: Option<String>,
    /// For a modelled claim: each input that replaces the paper's setting with one of ours,
    /// and the range the claim is judged over (it covers the paper's setting).
    pub assumptions: Vec<Assumption>,
    /// The root cause this claim shares with others (one fact scored by several claims of
    /// any kind: a defect of the paper, or one property of our system several claims
    /// measure); `None` when the claim is its own root (a paper-check's defect counts).
    pub root: Option<&'static str>,
}

impl Claim {
    /// A claim of the paper `paper_id` fed by `experiment`; kind measured and rule [`Rule::Report`] until
    /// set.
    pub fn new(
        id: impl Into<String>,
        paper_id: &'static str,
        experiment: &'static str,
        reference: impl Into<String>,
        claim: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            paper_id,
            experiment,
            reference: reference.into(),
            claim: claim.into(),
            paper: String::new(),
            metric: String::new(),
            unit: String::new(),
            rule: Rule::Report,
            tolerance: String::new(),
            kind: Kind::Measured,
            model: None,
            note: String::new(),
            parallel: false,
            load: Load::None,
            oversubscription: false,
            paper_values: Vec::new(),
            plausible: Vec::new(),
            plausible_why: String::new(),
            headline: false,
            defect: None,
            confirms: None,
            untested: None,
            assumptions: Vec::new(),
            root: None,
        }
    }

    /// The setting a judged claim's evidence has against the paper's: scaled when its verdict
    /// confirms only an ordering ([`Claim::scaled`]), the paper's when it confirms the figure
    /// ([`Claim::paper_setting`]); `None` for claims that are not judged.
    pub fn setting(&self) -> Option<Setting> {
        match (self.kind, self.confirms) {
            (Kind::Measured | Kind::Modelled, Some(Confirms::Ordering)) => Some(Setting::Scaled),
            (Kind::Measured | Kind::Modelled, _) => Some(Setting::Paper),
            _ => None,
        }
    }

    /// The evidence is obtained at the paper's setting, or at one that preserves it on every
    /// dimension the claim depends on (a model evaluated over a range that includes the
    /// paper's setting counts): the verdict can refute.
    pub fn paper_setting(self) -> Self {
        self.confirms_figure()
    }

    /// The evidence is obtained at a scaled setting; `differs` says on which dimension and how
    /// ("2 threads against the paper's 4"). Its verdict shows an ordering at our scale and is
    /// never `does-not-hold` on the paper's claim.
    pub fn scaled(self, differs: impl Into<String>) -> Self {
        self.confirms_ordering(differs)
    }

    /// The root cause this claim shares with others ([`Claim::root`]).
    pub fn root(mut self, id: &'static str) -> Self {
        self.root = Some(id);
        self
    }

    /// The root cause the claim counts under: its root, its defect, else its own id.
    pub fn root_id(&self) -> &str {
        self.root.or(self.defect).unwrap_or(&self.id)
    }

    /// One of the paper's headline claims (its abstract or conclusion states it).
    pub fn headline(mut self) -> Self {
        self.headline = true;
        self
    }

    /// [`Claim::headline`] where `yes`: for claims built in a loop, of which the abstract or
    /// conclusion states only some.
    pub fn headline_if(self, yes: bool) -> Self {
        if yes { self.headline() } else { self }
    }

    /// A paper-check resting on the paper's defect `id` (shared by every check on the same
    /// cell or pair of printed figures).
    pub fn defect(mut self, id: &'static str) -> Self {
        self.defect = Some(id);
        self
    }

    /// The verdict confirms the paper's figure (at its setting, or one that preserves it).
    pub fn confirms_figure(mut self) -> Self {
        self.confirms = Some(Confirms::Figure);
        self.untested = None;
        self
    }

    /// The verdict confirms only the ordering the paper's figure implies, at a scaled
    /// setting; `untested` says what is not tested here ("the paper's −40 % at 4 threads").
    pub fn confirms_ordering(mut self, untested: impl Into<String>) -> Self {
        self.confirms = Some(Confirms::Ordering);
        self.untested = Some(untested.into());
        self
    }

    /// A model input that replaces the paper's setting: `ours` is the point the model takes,
    /// `range` the span the claim is judged over, `paper` the paper's own setting (where it
    /// gives one; the range must include it).
    pub fn assumption(
        mut self,
        name: &str,
        unit: &str,
        ours: f64,
        range: (f64, f64),
        paper: Option<f64>,
        why: &str,
    ) -> Self {
        self.assumptions.push(Assumption {
            name: name.into(),
            unit: unit.into(),
            ours,
            range,
            paper,
            why: why.into(),
        });
        self
    }

    /// The assumption named `name`, if the claim declares one (experiments read the range a
    /// model is evaluated over from here, so what the test on the data holds is what is
    /// judged).
    pub fn assumed(&self, name: &str) -> Option<&Assumption> {
        self.assumptions.iter().find(|a| a.name == name)
    }

    /// The paper's figure(s).
    pub fn paper(mut self, paper: impl Into<String>) -> Self {
        self.paper = paper.into();
        self
    }

    /// What ours is compared on, and its unit.
    pub fn metric(mut self, metric: impl Into<String>, unit: &str) -> Self {
        self.metric = metric.into();
        self.unit = unit.into();
        self
    }

    /// The rule and why its tolerance is what it is.
    ///
    /// A rule with a noise band ([`above_one`], [`below_one`]) gets [`ORDER_NOISE_WHY`]
    /// after the tolerance, so every such claim says where its band comes from.
    pub fn rule(mut self, rule: Rule, tolerance: impl Into<String>) -> Self {
        let banded = rule
            .part_rules()
            .iter()
            .any(|r| matches!(r, Rule::Above { .. } | Rule::Below { .. }));
        self.rule = rule;
        self.tolerance = tolerance.into();
        if banded {
            self.tolerance = format!("{}; {ORDER_NOISE_WHY}", self.tolerance);
        }
        self
    }

    /// Judged on a measured interval.
    pub fn measured(mut self) -> Self {
        self.kind = Kind::Measured;
        self
    }

    /// A measured claim about a parallel method: judged on runs with ≥ 2 threads only, and
    /// needing free cores for any definite verdict (load may move its figure either way;
    /// [`Claim::speedup`] and [`Claim::parallel_time`] say which way when it is known).
    pub fn parallel(mut self) -> Self {
        self.kind = Kind::Measured;
        self.parallel = true;
        self.load = Load::Any;
        self
    }

    /// A measured claim on a parallel form's speedup or throughput over a sequential one:
    /// load can only lower the figure, so an "at least" result whose interval lies inside
    /// stands on a busy machine.
    pub fn speedup(self) -> Self {
        self.parallel().load(Load::Lowers)
    }

    /// A measured claim on a parallel form's time, or its time change against a sequential
    /// one in % (negative = faster): load can only raise the figure.
    pub fn parallel_time(self) -> Self {
        self.parallel().load(Load::Raises)
    }

    /// Which way load can move the figure.
    pub fn load(mut self, load: Load) -> Self {
        self.load = load;
        self
    }

    /// A claim whose figure comes from a parallel timing (a modelled claim fed by one, say):
    /// judged, like a parallel measured claim, only on runs with ≥ 2 threads, and on free
    /// cores where load could have caused the result (set the direction with [`Claim::load`];
    /// unknown until set).
    pub fn parallel_input(mut self) -> Self {
        self.parallel = true;
        if self.load == Load::None {
            self.load = Load::Any;
        }
        self
    }

    /// The claim is about more threads than cores: oversubscribed evidence is what it needs.
    pub fn oversubscription(mut self) -> Self {
        self.oversubscription = true;
        self
    }

    /// The range our figure can plausibly take (one `(low, high)` per estimate) and the
    /// stated limit that sets it.
    pub fn plausible(mut self, ranges: &[(f64, f64)], why: impl Into<String>) -> Self {
        self.plausible = ranges.to_vec();
        self.plausible_why = why.into();
        self
    }

    /// The paper's figures as numbers, as printed.
    pub fn paper_values(mut self, values: &[f64]) -> Self {
        self.paper_values = values.to_vec();
        self
    }

    /// Judged on the output of `model`.
    pub fn modelled(mut self, model: impl Into<String>) -> Self {
        self.kind = Kind::Modelled;
        self.model = Some(model.into());
        self
    }

    /// Arithmetic on the paper's own numbers.
    pub fn paper_check(mut self) -> Self {
        self.kind = Kind::PaperCheck;
        self
    }

    /// No measurement can move it, because `why`.
    pub fn by_construction(mut self, why: impl Into<String>) -> Self {
        self.kind = Kind::ByConstruction;
        self.note = why.into();
        self
    }

    /// Not testable here, because `why` (which says what hardware would test it).
    pub fn not_testable(mut self, why: impl Into<String>) -> Self {
        self.kind = Kind::NotTestable;
        self.note = why.into();
        self
    }
}

/// Every claim of every seed, in report order; built once.
pub fn all() -> &'static [Claim] {
    static ALL: OnceLock<Vec<Claim>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = parsa::claims();
        v.extend(scc_blowfish::claims());
        v.extend(crsa::claims());
        v.extend(mary_karatsuba::claims());
        v.extend(cipher_energy::claims());
        v.extend(statements::claims());
        settings::apply(&mut v);
        v
    })
}

/// The claim with this id.
pub fn find(id: &str) -> Option<&'static Claim> {
    all().iter().find(|c| c.id == id)
}

/// The range claim `id` declares for its assumption `name` (`None` when it declares none).
pub fn assumption_range(id: &str, name: &str) -> Option<(f64, f64)> {
    find(id).and_then(|c| c.assumed(name)).map(|a| a.range)
}

/// The claims an experiment feeds, in registry order.
pub fn of_experiment(experiment: &str) -> Vec<&'static Claim> {
    all()
        .iter()
        .filter(|c| c.experiment == experiment)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_name_their_seed() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id.as_str()), "duplicate id {}", c.id);
            assert!(
                c.id.starts_with(c.paper_id),
                "{} is not under {}",
                c.id,
                c.paper_id
            );
            assert!(c.experiment.starts_with(c.paper_id), "{}", c.id);
            assert!(!c.claim.is_empty() && !c.reference.is_empty(), "{}", c.id);
            assert!(!c.paper.is_empty(), "{} quotes no figure", c.id);
        }
    }

    /// No rule that cannot pass or cannot fail: within the range a claim's figure can
    /// plausibly take, some figure satisfies its rule and some violates it.
    #[test]
    fn every_rule_can_pass_and_can_fail_on_plausible_evidence() {
        let mut bad = Vec::new();
        for c in all() {
            if matches!(c.kind, Kind::Measured | Kind::Modelled) && c.plausible.is_empty() {
                bad.push(format!("{}: a judged claim with no plausible range", c.id));
                continue;
            }
            if c.plausible.is_empty() {
                continue;
            }
            assert!(
                !c.plausible_why.is_empty(),
                "{}: plausible range without its limit",
                c.id
            );
            let (pass, fail) = c.rule.can_pass_and_fail(&c.plausible);
            if !pass {
                bad.push(format!(
                    "{}: no plausible figure satisfies {}",
                    c.id,
                    c.rule.describe(&c.unit)
                ));
            }
            if !fail {
                bad.push(format!(
                    "{}: no plausible figure violates {}",
                    c.id,
                    c.rule.describe(&c.unit)
                ));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// The paper's figures as numbers are the ones its text quotes.
    #[test]
    fn paper_values_appear_in_the_quoted_figures() {
        for c in all() {
            for v in &c.paper_values {
                let printed = [num(*v), num(v.abs()), format!("{v}")];
                assert!(
                    printed.iter().any(|p| c.paper.contains(p.as_str())),
                    "{}: {} is not in its quoted figures '{}'",
                    c.id,
                    num(*v),
                    c.paper
                );
            }
        }
    }

    /// No refutation from an assumption: every range a model is judged over holds our point
    /// and the paper's own setting where the paper gives one; only modelled claims assume.
    #[test]
    fn assumption_ranges_cover_the_papers_setting() {
        for c in all() {
            for a in &c.assumptions {
                assert!(
                    a.covers_its_points(),
                    "{}: '{}' is judged over {:?}, which leaves out ours ({}) or the paper's ({:?})",
                    c.id,
                    a.name,
                    a.range,
                    a.ours,
                    a.paper
                );
                assert!(!a.why.is_empty(), "{}: '{}' says not why", c.id, a.name);
            }
            assert!(
                c.assumptions.is_empty() || c.kind == Kind::Modelled,
                "{}: only a modelled claim assumes",
                c.id
            );
            assert!(
                c.defect.is_none() || c.kind == Kind::PaperCheck,
                "{}: only a paper-check rests on a defect",
                c.id
            );
            assert!(
                c.confirms.is_none() || matches!(c.kind, Kind::Measured | Kind::Modelled),
                "{}: only a judged claim confirms",
                c.id
            );
        }
    }

    /// Every measured and modelled claim says at which setting its evidence is obtained,
    /// from one source (its registry or the settings table, not both), and a scaled one says
    /// what differs from the paper's.
    #[test]
    fn every_judged_claim_states_its_setting_once() {
        let mut bad = Vec::new();
        for c in all() {
            let listed = settings::SETTINGS
                .iter()
                .filter(|(id, _)| *id == c.id)
                .count();
            if !matches!(c.kind, Kind::Measured | Kind::Modelled) {
                if listed > 0 {
                    bad.push(format!("{}: not judged, but in the settings table", c.id));
                }
                continue;
            }
            if c.confirms.is_none() {
                bad.push(format!("{}: no setting", c.id));
            }
            if listed > 1 {
                bad.push(format!("{}: twice in the settings table", c.id));
            }
            if c.setting() == Some(Setting::Scaled)
                && c.untested.as_deref().is_none_or(str::is_empty)
            {
                bad.push(format!("{}: scaled, but says not what differs", c.id));
            }
        }
        let mut raw = parsa::claims();
        raw.extend(scc_blowfish::claims());
        raw.extend(crsa::claims());
        raw.extend(mary_karatsuba::claims());
        raw.extend(cipher_energy::claims());
        for id in settings::ROOTS.iter().flat_map(|(_, ids)| ids.iter()) {
            if find(id).is_none() {
                bad.push(format!("{id}: under a root, not registered"));
            }
            if settings::ROOTS
                .iter()
                .flat_map(|(_, ids)| ids.iter())
                .filter(|i| *i == id)
                .count()
                > 1
            {
                bad.push(format!("{id}: under two roots"));
            }
        }
        for (id, _) in settings::SETTINGS {
            match raw.iter().find(|c| c.id == *id) {
                None => bad.push(format!("{id}: in the settings table, not registered")),
                Some(c) if c.confirms.is_some() => bad.push(format!(
                    "{id}: states its setting in its registry and the table"
                )),
                Some(_) => {}
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn every_judged_claim_has_a_rule_a_metric_and_a_reason() {
        for c in all() {
            match c.kind {
                Kind::Measured | Kind::Modelled | Kind::PaperCheck => {
                    assert_ne!(c.rule, Rule::Report, "{} has no rule", c.id);
                    assert!(!c.metric.is_empty(), "{} has no metric", c.id);
                    assert!(!c.tolerance.is_empty(), "{} has no tolerance reason", c.id);
                }
                Kind::ByConstruction | Kind::NotTestable => {
                    assert!(!c.note.is_empty(), "{} says not why", c.id)
                }
            }
            assert_eq!(c.kind == Kind::Modelled, c.model.is_some(), "{}", c.id);
            assert!(
                !c.parallel || matches!(c.kind, Kind::Measured | Kind::Modelled),
                "{}",
                c.id
            );
        }
    }
}
