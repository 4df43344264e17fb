//! The decision chart under an experiment's charts: every judged claim's figure with its 95 %
//! interval (or a model's range over its assumptions) against the band its rule accepts,
//! shaded. One strip per figure (per part for a claim judged on several), each on its own
//! scale, fitted to the interval, the rule's edges and the paper's figures so that the gap a
//! verdict rests on shows — logarithmic where they span a decade or more, never forced to
//! start at zero. The numbers are written in a line under each strip, never on the data.
mod render;

pub use render::render;

use super::axis::{self, Axis, TEXT_PX, text_w};
use crate::results::{ClaimResult, Rule, Verdict, short};

/// One figure of a claim, with the rule it is held to.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What it is: "ours" for a claim judged on one figure, else the part's name.
    pub name: String,
    /// The point estimate.
    pub value: f64,
    /// Lower end of its interval (the value itself for an exact figure; may be infinite).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Its unit.
    pub unit: String,
    /// The rule this figure alone is held to.
    pub rule: Rule,
    /// The paper's figures for it (none where the paper gives none, or not one per part).
    pub paper: Vec<f64>,
}

/// The verdicts a decision chart shows: those an interval or the paper's numbers decided.
fn judged(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Holds
            | Verdict::DoesNotHold
            | Verdict::Inconclusive
            | Verdict::Consistent
            | Verdict::Inconsistent
    )
}

/// The paper's figures for a figure judged by `rule`: `given` where the claim has them, else the
/// target of a "within a factor of" or "within a tolerance of" rule, which is the paper's figure.
fn paper_of(given: Vec<f64>, rule: &Rule) -> Vec<f64> {
    if !given.is_empty() {
        return given;
    }
    match *rule {
        Rule::Ratio { target, .. } | Rule::Diff { target, .. } if target.is_finite() => {
            vec![target]
        }
        _ => Vec::new(),
    }
}

/// The figures of a judged claim, each with its own rule, from `ours` (its parts for a
/// claim judged on several) and `rule_data`; empty where the claim was not judged or has no
/// figure that matches its rule.
pub fn figures(c: &ClaimResult) -> Vec<Figure> {
    if !judged(c.verdict) {
        return Vec::new();
    }
    let rules = c.rule_data.part_rules();
    let names = c.rule_data.part_names();
    let finite_or = |x: Option<f64>, v: f64| x.filter(|x| !x.is_nan()).unwrap_or(v);
    if names.is_empty() {
        // A scalar rule: one figure, ours.
        let (Some(rule), Some(value)) = (rules.first(), c.ours.value) else {
            return Vec::new();
        };
        if !value.is_finite() || rule.band().is_none() {
            return Vec::new();
        }
        return vec![Figure {
            name: "ours".into(),
            value,
            low: finite_or(c.ours.ci_low, value),
            high: finite_or(c.ours.ci_high, value),
            unit: c.ours.unit.clone(),
            rule: rule.clone(),
            paper: paper_of(
                c.paper_values
                    .iter()
                    .copied()
                    .filter(|v| v.is_finite())
                    .collect(),
                rule,
            ),
        }];
    }
    if c.ours.parts.len() != rules.len() {
        return Vec::new();
    }
    let per_part = c.paper_values.len() == rules.len();
    c.ours
        .parts
        .iter()
        .zip(rules)
        .enumerate()
        .filter(|(_, (p, r))| p.value.is_finite() && r.band().is_some())
        .map(|(i, (p, rule))| Figure {
            name: if p.name.is_empty() {
                names[i].clone()
            } else {
                p.name.clone()
            },
            value: p.value,
            low: if p.ci_low.is_nan() { p.value } else { p.ci_low },
            high: if p.ci_high.is_nan() {
                p.value
            } else {
                p.ci_high
            },
            unit: p.unit.clone(),
            paper: paper_of(
                if per_part {
                    vec![c.paper_values[i]]
                } else {
                    Vec::new()
                },
                &rule,
            ),
            rule,
        })
        .collect()
}

/// Where a figure's strip is drawn: its scale, and the paper's figures that fit on it and
/// those beyond it (with the side: true for the right).
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    /// The axis (its ticks include the band's finite edges).
    pub axis: Axis,
    /// The paper's figures on the axis.
    pub paper: Vec<f64>,
    /// The paper's figures beyond it, and whether beyond the right end.
    pub beyond: Vec<(f64, bool)>,
}

/// The band's finite edges.
fn edges(band: (f64, f64)) -> Vec<f64> {
    [band.0, band.1]
        .into_iter()
        .filter(|v| v.is_finite())
        .collect()
}

/// The scale of `f`'s strip, `px` pixels long: fitted to the interval and the band's finite
/// edges (the verdict's gap), logarithmic when all are positive and span a decade or more;
/// the paper's figures are on it unless they would squeeze that gap to under a fifth of the
/// strip.
pub fn scale(f: &Figure, px: f64) -> Scale {
    let band = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let mut core: Vec<f64> = [f.value, f.low, f.high]
        .into_iter()
        .chain(edges(band))
        .filter(|v| v.is_finite())
        .collect();
    core.sort_by(f64::total_cmp);
    let (min, max) = (core[0], core[core.len() - 1]);
    let log = min > 0.0 && max / min >= 10.0;
    let to = |v: f64| if log { v.log10() } else { v };
    let (cmin, cmax) = (to(min), to(max));
    // A single point (an exact figure on the rule's edge) gets a tenth of its size either way.
    let span = if cmax > cmin {
        cmax - cmin
    } else if log {
        0.05
    } else {
        (cmax.abs() * 0.1).max(1e-9)
    };
    let (mut lo, mut hi) = (cmin.min(cmax - span / 2.0), cmax.max(cmin + span / 2.0));
    let mut paper = Vec::new();
    let mut beyond = Vec::new();
    for &p in &f.paper {
        if log && p <= 0.0 {
            beyond.push((p, false));
            continue;
        }
        let t = to(p);
        if t >= cmin - 2.0 * span && t <= cmax + 2.0 * span {
            lo = lo.min(t);
            hi = hi.max(t);
            paper.push(p);
        } else {
            beyond.push((p, t > cmax));
        }
    }
    let pad = (hi - lo) * 0.07;
    let (lo, hi) = (lo - pad, hi + pad);
    let from = |t: f64| if log { 10f64.powf(t) } else { t };
    let (dlo, dhi) = (from(lo), from(hi));
    let round = if log {
        axis::log_ticks(dlo, dhi)
    } else {
        axis::nice_ticks(dlo, dhi, 6)
    };
    let axis = Axis {
        log,
        lo: dlo,
        hi: dhi,
        ticks: Vec::new(),
    };
    let ticks = ticks(&axis, &edges(band), &round, px);
    Scale {
        axis: Axis { ticks, ..axis },
        paper,
        beyond,
    }
}

/// The ticks of a strip: the band's edges first, then round numbers wherever their labels
/// keep clear of those already placed.
fn ticks(axis: &Axis, edges: &[f64], round: &[f64], px: f64) -> Vec<f64> {
    let (lo, hi) = (axis.to(axis.lo), axis.to(axis.hi));
    let at = |t: f64| (axis.to(t) - lo) / (hi - lo) * px;
    let half = |t: f64| text_w(&axis::number(t), TEXT_PX) / 2.0 + 4.0;
    let mut kept: Vec<f64> = Vec::new();
    for &t in edges.iter().chain(round) {
        if t < axis.lo || t > axis.hi || (axis.log && t <= 0.0) {
            continue;
        }
        // A label must fit inside the strip's width and clear every label kept so far.
        if at(t) - half(t) < -20.0 || at(t) + half(t) > px + f64::from(render::MARGIN) - 4.0 {
            continue;
        }
        if kept
            .iter()
            .all(|&k| (at(t) - at(k)).abs() >= half(t) + half(k))
        {
            kept.push(t);
        }
    }
    kept.sort_by(f64::total_cmp);
    kept
}

/// What an interval does against a band, in words. A paper-check is consistent unless its
/// range lies wholly outside, so for it a straddling range "overlaps" the band.
fn against(f: &Figure, paper_check: bool) -> &'static str {
    let (a, b) = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    if a <= f.low && f.high <= b {
        "inside the band"
    } else if f.high < a || f.low > b {
        "outside the band"
    } else if paper_check {
        "overlaps the band"
    } else {
        "straddles an edge"
    }
}

/// The line under a strip: the part it is (in full), ours with its interval, the rule, the
/// paper's figures, the scale.
fn info(f: &Figure, s: &Scale, paper_check: bool) -> String {
    // A no-break space keeps each number with its unit when the line wraps.
    let u = if f.unit.is_empty() {
        String::new()
    } else {
        format!("\u{a0}{}", f.unit)
    };
    let name = if f.name == "ours" {
        String::new()
    } else {
        format!("{}: ", f.name)
    };
    let mut t = format!("{name}ours {}{u}", short(f.value));
    if f.low != f.high {
        t.push_str(&format!(" [{}, {}]", short(f.low), short(f.high)));
    }
    t.push_str(&format!(
        " · accepted: {} · {}",
        f.rule.describe(&f.unit).replace(' ', "\u{a0}"),
        against(f, paper_check)
    ));
    let paper: Vec<String> = s
        .paper
        .iter()
        .map(|p| short(*p))
        .chain(s.beyond.iter().map(|(p, right)| {
            format!(
                "{} (off the scale, {})",
                short(*p),
                if *right { "→" } else { "←" }
            )
        }))
        .collect();
    if !paper.is_empty() {
        t.push_str(&format!(" · paper {}{u}", paper.join(", ")));
    }
    if s.axis.log {
        t.push_str(" · log scale");
    }
    t
}

/// How many of `claims` a decision chart would plot.
pub fn plotted(claims: &[&ClaimResult]) -> usize {
    claims.iter().filter(|c| !figures(c).is_empty()).count()
}

#[cfg(test)]
mod tests;
