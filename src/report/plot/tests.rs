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

/// The estimated box `(left, top, right, bottom)` and text of every unrotated `<text>` of
/// `svg`, from its position, anchor and size (widths as [`axis::text_w`] estimates them).
fn text_boxes(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let (tag, body) = rest.split_once('>')?;
            let text = body.split("</text>").next()?.trim().to_string();
            if text.is_empty() || tag.contains("transform=") {
                return None;
            }
            let num = |n: &str| attr(tag, n).and_then(|v| v.parse::<f64>().ok());
            let (x, y, size) = (num("x")?, num("y")?, num("font-size")?);
            let w = axis::text_w(&text, size);
            let left = match attr(tag, "text-anchor").as_deref() {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            let top = match attr(tag, "dy").as_deref() {
                Some("0.76em") => y,
                Some("0.5ex") => y - size / 2.0,
                _ => y - size,
            };
            Some((left, top, left + w, top + size, text))
        })
        .collect()
}

/// Pairs of texts of `svg` whose estimated boxes overlap.
fn overlaps(svg: &str) -> Vec<(String, String)> {
    let b = text_boxes(svg);
    let mut out = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let w = b[i].2.min(b[j].2) - b[i].0.max(b[j].0);
            let h = b[i].3.min(b[j].3) - b[i].1.max(b[j].1);
            if w > 1.0 && h > 1.0 {
                out.push((b[i].4.clone(), b[j].4.clone()));
            }
        }
    }
    out
}

#[test]
fn reference_names_sit_outside_the_plot_and_apart() {
    // Three of the paper's levels close together, as Figs. 7–10 have them, and one vertical.
    let c = Chart::line("refs", "threads", "time reduction (%)", false)
        .with(Series::from_xy(
            "PaRSA",
            [(1.0, 0.0), (8.0, 80.0)],
            Provenance::Measured,
        ))
        .reference("paper, PaRSA-2: 47 %", 47.0)
        .reference("paper, PaRSA-4: 50 %", 50.0)
        .reference("paper, PaRSA-8: 79 %", 79.0)
        .reference_x("paper: 8 threads", 8.0);
    let f = Frame::new(&c);
    assert!(f.right > 100 && f.top > 8, "{} {}", f.right, f.top);
    let svg = render(&c).unwrap();
    assert!(overlaps(&svg).is_empty(), "{:?}", overlaps(&svg));
    let right_of_plot = f64::from(W - f.right);
    for (left, _, _, _, text) in text_boxes(&svg) {
        if text.starts_with("paper, PaRSA") {
            assert!(left > right_of_plot, "{text} inside the plot");
        }
    }
}

#[test]
fn chart_text_is_at_least_12_px_and_no_two_labels_overlap() {
    let many: Vec<String> = (0..36).map(|i| format!("E{i}")).collect();
    let charts = [
        line(false),
        line(true).reference("GMP", 1.5),
        bar(&["condvar-other-core", "spin-same-core", "lock-free"]).with(Series::from_xy(
            "wake-up",
            [(0.0, 30.0), (1.0, 2.0), (2.0, 0.05)],
            Provenance::Measured,
        )),
        Chart::stacked("stages", "stage", "time (s)", many).with(Series::from_xy(
            "busy",
            (0..36).map(|i| (f64::from(i), 1.0)),
            Provenance::Measured,
        )),
    ];
    for c in &charts {
        let svg = render(c).unwrap();
        assert!(
            overlaps(&svg).is_empty(),
            "{}: {:?}",
            c.title,
            overlaps(&svg)
        );
        for size in svg.split("font-size=\"").skip(1) {
            let px: f64 = size.split('"').next().unwrap().parse().unwrap();
            assert!(px >= 12.0, "{}: {px} px text", c.title);
        }
    }
}

#[test]
fn paper_bars_are_filled_and_hatched_and_rounds_are_drawn() {
    let c =
        bar(&["a", "b"])
            .with(Series::from_xy(
                "energy (paper)",
                [(0.0, 593.0), (1.0, 563.0)],
                Provenance::Paper,
            ))
            .with(
                Series::from_xy("energy (ours)", [(0.0, 590.0)], Provenance::Measured)
                    .with_rounds([(0.0, 588.0), (0.0, 592.0), (0.0, 590.5)]),
            );
    let svg = render(&c).unwrap();
    let l = style::looks(&c);
    let paper = l[0].unwrap();
    assert!(paper.bar_fill().filled && paper.bar_fill().color != WHITE.to_rgba());
    // Hatching: more thin lines than the axes and ticks alone have.
    let plain = render(&bar(&["a", "b"]).with(Series::from_xy(
        "energy (ours)",
        [(0.0, 593.0), (1.0, 563.0)],
        Provenance::Measured,
    )))
    .unwrap();
    assert!(svg.matches("<polyline").count() > plain.matches("<polyline").count() + 10);
    assert!(svg.contains("Small dots: the single rounds."));
    assert!(svg.matches("r=\"2\"").count() >= 3, "three rounds drawn");
}

#[test]
fn each_series_strip_has_its_own_lane_and_rounds_off_the_axis_sit_at_its_end() {
    let series = |name: &str, y: f64| {
        Series::new(
            name,
            vec![Point::with_ci(1.0, y, y - 0.1, y + 0.1), Point::new(2.0, y)],
            Provenance::Measured,
        )
        .with_rounds([(1.0, y - 0.05), (1.0, y), (1.0, y + 0.05)])
    };
    let c = Chart::line("strips", "x", "y", false)
        .with(series("a", 1.0))
        .with(series("b", 1.02));
    let svg = render(&c).unwrap();
    let dots: Vec<&str> = svg
        .split("<circle")
        .skip(1)
        .filter(|c| c.contains("r=\"2\""))
        .map(|c| c.split("cx=\"").nth(1).unwrap().split('"').next().unwrap())
        .collect();
    let mut across = dots.clone();
    across.sort_unstable();
    across.dedup();
    assert_eq!(
        (dots.len(), across.len()),
        (6, 6),
        "two lanes of three: {dots:?}"
    );
    let note = |c: &Chart| notes(c, &Frame::new(c)).join(" ");
    assert!(!note(&c).contains("Triangles"));
    // A round far above every interval: the axis keeps to the points, the round is a
    // triangle at its top, and the note says what the triangles are.
    let mut c = c;
    c.series[0].rounds.push((1.0, 50.0));
    let beyond = render(&c).unwrap();
    assert_eq!(beyond.matches("r=\"2\"").count(), 6);
    assert!(note(&c).contains("Triangles at the end of the value axis: rounds beyond it."));
    assert_eq!(
        beyond.matches("<polygon").count(),
        svg.matches("<polygon").count() + 1,
        "the round beyond the axis"
    );
    assert!(
        !beyond.contains(">50<"),
        "the axis does not stretch to the round"
    );
}
