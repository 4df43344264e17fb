//! Tests of the chart renderer: what each kind of chart contains, read from the SVG text.
use super::*;
use crate::results::{Point, Provenance, Series};

fn line(log_x: bool) -> Chart {
    Chart::line("Fig. <6> & co", "chunk", "time (s)", log_x)
        .with(Series::from_xy(
            "measured",
            [(1.0, 1.0), (2.0, 2.0)],
            Provenance::Measured,
        ))
        .with(Series::from_xy(
            "model",
            [(1.0, 1.5), (2.0, 2.5)],
            Provenance::Modelled("x".into()),
        ))
}

fn bar(categories: &[&str]) -> Chart {
    Chart::bar(
        "bars",
        "what",
        "ratio (×)",
        categories.iter().map(|c| c.to_string()).collect(),
    )
}

#[test]
fn charts_are_escaped_svg_with_data_and_provenance() {
    for chart in [line(false), line(true)] {
        let svg = render(&chart).unwrap();
        assert!(
            svg.starts_with("<svg role=\"img\"") && svg.trim_end().ends_with("</svg>"),
            "{svg}"
        );
        assert!(svg.contains("Fig. &lt;6&gt; &amp; co"));
        assert!(!svg.contains("<6>"));
        assert!(svg.contains("modelled (x)") && svg.contains("measured"));
        assert!(svg.contains("<circle"));
    }
}

#[test]
fn empty_charts_say_so_and_empty_series_have_no_legend() {
    let mut c = line(false);
    c.series.clear();
    assert!(render(&c).unwrap().contains("no data"));
    let c = line(false).with(Series::from_xy("core-i7", [], Provenance::Measured));
    assert!(!render(&c).unwrap().contains("core-i7"));
}

#[test]
fn long_names_lie_down_and_keep_their_full_text() {
    let names = [
        "condvar-other-core",
        "condvar-same-core",
        "spin-other-core",
        "spin-same-core",
        "lock-free",
    ];
    let c = bar(&names).with(Series::from_xy(
        "wake-up (measured, with a long legend name)",
        (0..5).map(|i| (i as f64, 1.0 + i as f64)),
        Provenance::Measured,
    ));
    let f = Frame::new(&c);
    assert!(f.horizontal);
    let svg = render(&c).unwrap();
    for n in names {
        assert!(svg.contains(n), "{n}");
    }
    assert!(svg.contains("wake-up (measured, with a long legend name)"));
}

#[test]
fn values_over_decades_go_log_with_the_papers_reference() {
    let c = bar(&["a", "b"])
        .with(Series::new(
            "ours",
            vec![
                Point::with_ci(0.0, 0.02, 0.015, 0.03),
                Point::with_ci(1.0, 40.0, 35.0, 45.0),
            ],
            Provenance::Measured,
        ))
        .reference("paper: 1 ×", 1.0);
    let f = Frame::new(&c);
    assert!(f.y.log);
    let svg = render(&c).unwrap();
    assert!(svg.contains("paper: 1 ×") && svg.contains("Logarithmic value axis"));
    assert!(svg.contains("Error bars: 95 % intervals"));
}

#[test]
fn stacked_bars_sum_and_steps_keep_their_level() {
    let c = Chart::stacked("stages", "stage", "time (s)", vec!["1".into(), "2".into()])
        .with(Series::from_xy(
            "busy",
            [(0.0, 2.0), (1.0, 1.0)],
            Provenance::Measured,
        ))
        .with(Series::from_xy(
            "wait",
            [(0.0, 3.0), (1.0, 1.0)],
            Provenance::Measured,
        ));
    let f = Frame::new(&c);
    assert!(!f.y.log && f.y.lo == 0.0 && f.y.hi >= 5.0, "{:?}", f.y);
    assert!(render(&c).unwrap().contains("<rect"));
    let s = Chart::line("front", "time", "energy", true)
        .steps()
        .with(Series::from_xy(
            "front",
            [(1.0, 4.0), (2.0, 2.0), (4.0, 1.0)],
            Provenance::Measured,
        ));
    assert!(render(&s).unwrap().contains("<polyline"));
}

#[test]
fn points_only_series_have_no_line_and_many_short_names_stand_up() {
    let joined = Series::from_xy("presets", [(1.0, 4.0), (2.0, 2.0)], Provenance::Measured);
    // Axes and ticks are grey polylines; a series' line has its colour.
    let lines = |s: Series| {
        let svg = render(&Chart::line("presets", "time", "energy", true).with(s)).unwrap();
        assert!(svg.contains("<circle"));
        svg.split("<polyline")
            .skip(1)
            .filter(|rest| !rest.split('>').next().unwrap_or("").contains("#444444"))
            .count()
    };
    assert!(lines(joined.clone()) > 0);
    assert_eq!(lines(joined.clone().points_only()), 0);
    // Beside a line, markers alone are grey context and leave the line its colour.
    let c = Chart::line("front", "time", "energy", true)
        .with(joined.clone().points_only())
        .with(joined);
    let l = style::looks(&c);
    assert_eq!(l[0].unwrap().colour, style::CONTEXT);
    assert_ne!(l[1].unwrap().colour, style::CONTEXT);
    let names: Vec<String> = (0..36).map(|i| format!("E{i}")).collect();
    let c = Chart::stacked("stages", "stage", "time (s)", names).with(Series::from_xy(
        "busy",
        (0..36).map(|i| (f64::from(i), 1.0)),
        Provenance::Measured,
    ));
    let f = Frame::new(&c);
    assert!(!f.horizontal && f.label_every == 2, "{}", f.label_every);
    assert_eq!(
        (f.x_label(0.0), f.x_label(1.0)),
        ("E0".into(), String::new())
    );
}
