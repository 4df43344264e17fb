//! Tests of the decision chart: which figures it plots, how each strip is scaled, what it says.
use super::*;
use crate::results::Kind;
use crate::results::{Ours, Part};

fn claim(verdict: Verdict, ours: Ours, rule: Rule) -> ClaimResult {
    let mut c = crate::report::tests::claim("parsa-x", Kind::Measured, verdict, ours);
    c.reference = "Fig. 6".into();
    c.claim = "Guided scheduling always outperforms static and dynamic".into();
    c.rule_data = rule;
    c
}

fn ours(v: f64, lo: f64, hi: f64) -> Ours {
    Ours {
        value: Some(v),
        ci_low: Some(lo),
        ci_high: Some(hi),
        unit: "s".into(),
        runs: 8,
        threads: 2,
        text: String::new(),
        parts: Vec::new(),
    }
}

/// Where `v` falls on the strip, 0 at its left end and 1 at its right.
fn at(s: &Scale, v: f64) -> f64 {
    let (lo, hi) = (s.axis.to(s.axis.lo), s.axis.to(s.axis.hi));
    (s.axis.to(v) - lo) / (hi - lo)
}

#[test]
fn a_two_percent_gap_fills_the_strip_instead_of_hiding_near_zero() {
    // Fig. 6: 0.294 s [0.290, 0.297] against at most 0.288 s, 2 % apart.
    let c = claim(
        Verdict::DoesNotHold,
        ours(0.294, 0.29, 0.297),
        Rule::AtMost { max: 0.288 },
    );
    let f = &figures(&c)[0];
    let s = scale(f, 580.0);
    assert!(!s.axis.log && s.axis.lo > 0.2, "{:?}", s.axis);
    // The gap between the rule's edge and our interval is a sizeable part of the strip.
    assert!(at(&s, 0.29) - at(&s, 0.288) > 0.1, "{:?}", s.axis);
    // The edge is a tick, so its number is written under it.
    assert!(s.axis.ticks.contains(&0.288), "{:?}", s.axis.ticks);
}

#[test]
fn decades_apart_go_log_and_a_far_paper_figure_goes_off_the_scale() {
    // CRSA: 0.40 × [0.39, 0.42] against at least 31.6 ×.
    let mut c = claim(
        Verdict::DoesNotHold,
        ours(0.4, 0.39, 0.42),
        Rule::AtLeast { min: 31.6 },
    );
    c.paper_values = vec![100.0, 1e9];
    let s = scale(&figures(&c)[0], 580.0);
    assert!(s.axis.log);
    assert!(at(&s, 31.6) - at(&s, 0.42) > 0.5);
    assert_eq!(s.paper, vec![100.0]);
    assert_eq!(s.beyond, vec![(1e9, true)]);
}

#[test]
fn parts_get_a_strip_each_with_the_rules_target_as_the_papers_figure() {
    let part = |name: &str, value: f64| Part {
        name: name.into(),
        value,
        ci_low: value,
        ci_high: value,
        unit: "%".into(),
    };
    let o = Ours {
        parts: vec![part("EM", 517.6), part("SM", 45.7)],
        ..Ours::default()
    };
    let rule = Rule::Each {
        parts: vec!["EM".into(), "SM".into()],
        rules: vec![
            Rule::Ratio {
                target: 368.5,
                factor: 2.0,
            },
            Rule::Ratio {
                target: 251.2,
                factor: 2.0,
            },
        ],
    };
    let c = claim(Verdict::DoesNotHold, o.clone(), rule.clone());
    let f = figures(&c);
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[1].name.as_str(), f[1].paper.clone()),
        ("SM", vec![251.2])
    );
    assert_eq!(against(&f[0], false), "inside the band");
    assert_eq!(against(&f[1], false), "outside the band");
    // Not judged, or parts that do not match the rule: nothing to plot.
    assert!(figures(&claim(Verdict::NotTestable, o.clone(), rule.clone())).is_empty());
    let one = Ours {
        parts: o.parts[..1].to_vec(),
        ..o
    };
    assert!(figures(&claim(Verdict::DoesNotHold, one, rule)).is_empty());
    assert!(
        figures(&claim(
            Verdict::Holds,
            Ours::default(),
            Rule::AtLeast { min: 1.0 }
        ))
        .is_empty()
    );
}

#[test]
fn the_chart_names_each_claim_its_verdict_and_its_numbers() {
    let a = claim(
        Verdict::Holds,
        ours(1.95, 1.92, 1.98),
        Rule::AtLeast { min: 1.1 },
    );
    let b = claim(
        Verdict::NotTestable,
        ours(1.0, 0.9, 1.1),
        Rule::AtLeast { min: 1.1 },
    );
    let svg = render(&[&a, &b]).unwrap().unwrap();
    assert!(svg.starts_with("<svg role=\"img\" class=\"decision\""));
    assert!(svg.contains("Fig. 6 (measured) — Guided scheduling"));
    assert!(svg.contains(">\nholds\n</text>"));
    assert!(
        svg.contains(
            "ours 1.95\u{a0}s [1.92, 1.98] · accepted: ≥\u{a0}1.1\u{a0}s · inside the band"
        )
    );
    // Only what some strip shows is in the legend.
    assert!(!svg.contains("the paper's figure"));
    assert_eq!(plotted(&[&a, &b]), 1);
    assert!(render(&[&b]).unwrap().is_none());
}
