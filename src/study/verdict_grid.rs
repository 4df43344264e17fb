//! Tests that every judged claim's rule can both pass and fail through the judge on the
//! range its experiment can measure (the claim's plausible range), that only the paper's
//! setting can refute, and that a model refutes only beyond its own error.
use super::judge::{Estimate, Evidence, MIN_ROUNDS, assess};
use crate::claims::{self, Claim, Rule};
use crate::results::{Kind, Reason, Setting, Verdict};

/// One figure per part of `claim`'s rule: inside its band (`fail == None`), or with part
/// `fail` outside the band the rule rejects, all within the plausible range.
fn figures(claim: &Claim, fail: Option<usize>) -> Option<Vec<f64>> {
    let parts = claim.rule.part_rules();
    if parts.len() != claim.plausible.len() {
        return None;
    }
    parts
        .iter()
        .zip(&claim.plausible)
        .enumerate()
        .map(|(i, (r, &(lo, hi)))| {
            let (a, b) = r.band()?;
            let (ra, rb) = r.not_rejected()?;
            if fail == Some(i) {
                if lo < ra {
                    Some(lo)
                } else if hi > rb {
                    Some(hi)
                } else {
                    None
                }
            } else {
                let (x, y) = (lo.max(a), hi.min(b));
                (x <= y).then_some((x + y) / 2.0)
            }
        })
        .collect()
}

/// Exact evidence of the claim's kind with these figures, on 2 threads with every core free.
fn evidence(claim: &Claim, figures: &[f64]) -> Evidence {
    let est: Vec<Estimate> = figures.iter().map(|&x| Estimate::exact(x)).collect();
    let mut e = match claim.kind {
        Kind::Modelled => Evidence::modelled(est, "test").on_threads(2),
        _ => Evidence::measured(est, MIN_ROUNDS, 2, "test"),
    };
    e.cpus = 2;
    e.free_cores = Some(Estimate::exact(1.0));
    e
}

/// For every measured and modelled claim: a figure inside its rule holds, and a figure the
/// rule rejects does not hold at the paper's setting, or is inconclusive (scaled-setting) at
/// a scaled one. So no rule is one that cannot pass or cannot fail, and no scaled evidence
/// refutes a paper.
#[test]
fn every_rule_passes_and_fails_through_the_judge_and_only_the_papers_setting_refutes() {
    let mut bad = Vec::new();
    for c in claims::all() {
        if !matches!(c.kind, Kind::Measured | Kind::Modelled) {
            continue;
        }
        let Some(pass) = figures(c, None) else {
            bad.push(format!(
                "{}: no figure inside its rule in {:?}",
                c.id, c.plausible
            ));
            continue;
        };
        let (v, r) = assess(c, &evidence(c, &pass));
        if v != Verdict::Holds {
            bad.push(format!(
                "{}: {pass:?} inside the rule gives {v:?} ({r:?})",
                c.id
            ));
        }
        let failing: Vec<Vec<f64>> = (0..c.rule.arity())
            .filter_map(|i| figures(c, Some(i)))
            .collect();
        if failing.is_empty() {
            bad.push(format!(
                "{}: no figure its rule rejects in {:?}",
                c.id, c.plausible
            ));
        }
        for f in failing {
            let got = assess(c, &evidence(c, &f));
            let want = match c.setting() {
                Some(Setting::Scaled) => (Verdict::Inconclusive, Reason::ScaledSetting),
                _ => (Verdict::DoesNotHold, got.1.clone()),
            };
            if got != want {
                bad.push(format!("{}: {f:?} the rule rejects gives {got:?}", c.id));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A modelled claim the model refutes by 14–19 % is inconclusive when the model's own
/// validation error is 16 %, refuted when it is 2 %, and inconclusive when the model could not
/// be validated at all.
#[test]
fn a_model_refutes_only_beyond_its_own_error() {
    let c = Claim::new(
        "scc-blowfish-x",
        "scc-blowfish",
        "scc-blowfish-x",
        "Fig. 8",
        "8 KB is best",
    )
    .paper("8 KB")
    .metric("time at 8 KB over the best smaller chunk", "×")
    .rule(Rule::AtMost { max: 1.05 }, "5 %")
    .plausible(&[(0.3, 3.0)], "test")
    .modelled("model:scc")
    .paper_setting();
    let e = Evidence::modelled_range(vec![Estimate::new(1.17, 1.14, 1.191)], "test", "x");
    assert_eq!(
        assess(&c, &e),
        (Verdict::DoesNotHold, Reason::ModelRangeOutside)
    );
    assert_eq!(
        assess(&c, &e.clone().model_error(0.16)),
        (Verdict::Inconclusive, Reason::WithinModelError)
    );
    assert_eq!(
        assess(&c, &e.clone().model_error(0.02)).0,
        Verdict::DoesNotHold
    );
    assert_eq!(
        assess(&c, &e.clone().model_error(f64::INFINITY)).1,
        Reason::WithinModelError
    );
    // A model whose figure holds well inside the rule keeps its verdict.
    let inside = Evidence::modelled_range(vec![Estimate::new(0.6, 0.55, 0.65)], "test", "x");
    assert_eq!(assess(&c, &inside.model_error(0.16)).0, Verdict::Holds);
}

/// The explanation of a scaled claim's inconclusive verdict names what differs and the
/// ordering not seen at our scale.
#[test]
fn a_scaled_refutation_says_what_differs() {
    let c = claims::find("mary-karatsuba-slice-fastest").expect("registered");
    assert_eq!(c.setting(), Some(Setting::Scaled));
    let f = figures(c, Some(0)).expect("a rejected figure");
    let e = evidence(c, &f);
    let why = super::judge::explain(c, &e);
    assert!(
        why.contains("At our scale the paper's ordering is not seen"),
        "{why}"
    );
    assert!(why.contains(c.untested.as_deref().unwrap_or("?")), "{why}");
}
