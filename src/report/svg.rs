//! Charts as inline SVG: line charts (linear or log2 x axis) and grouped bar charts, with
//! axes, ticks, a legend and a provenance note. No fonts or scripts are needed: text is drawn
//! by the browser with its default sans-serif font.
use crate::study::model::{Chart, ChartKind, Provenance};
use std::fmt::Write;

const W: f64 = 720.0;
const H: f64 = 380.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;
/// Colour-blind-safe palette (Okabe–Ito).
const COLOURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
];

/// Escapes text for XML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// "Nice" tick values covering [lo, hi].
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).floor() * step;
    let mut v = Vec::new();
    let mut t = start;
    while t <= hi + step * 1e-9 {
        if t >= lo - step * 1e-9 {
            v.push(t);
        }
        t += step;
    }
    v
}

/// A tick or value label: integers without decimals, others with at most 4 significant digits
/// and no trailing zeros.
fn label(v: f64) -> String {
    if v == v.round() && v.abs() < 1e7 {
        return format!("{}", v as i64);
    }
    let text = crate::bench::format_number(v);
    if text.contains('.') && !text.contains('e') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Scale {
    fn map(&self, v: f64) -> f64 {
        let (lo, hi, v) = if self.log {
            (self.lo.log2(), self.hi.log2(), v.max(1e-300).log2())
        } else {
            (self.lo, self.hi, v)
        };
        if hi == lo {
            return (self.from + self.to) / 2.0;
        }
        self.from + (v - lo) / (hi - lo) * (self.to - self.from)
    }
}

fn provenance_note(chart: &Chart) -> String {
    let mut labels: Vec<String> = chart.series.iter().map(|s| s.provenance.label()).collect();
    labels.sort();
    labels.dedup();
    if labels.is_empty() {
        labels.push(Provenance::Measured.label());
    }
    labels.join("; ")
}

/// Renders `chart` as a standalone `<svg>` element.
pub fn render(chart: &Chart) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="{}" font-family="sans-serif" font-size="12">"#,
        escape(&chart.title)
    );
    let _ = write!(s, r##"<rect width="{W}" height="{H}" fill="#ffffff"/>"##);
    let _ = write!(
        s,
        r#"<text x="{}" y="22" font-size="14" font-weight="bold">{}</text>"#,
        LEFT,
        escape(&chart.title)
    );
    let points: Vec<(f64, f64)> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.xy()))
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    if points.is_empty() {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}">no data</text></svg>"#,
            W / 2.0 - 30.0,
            H / 2.0
        );
        return s;
    }
    let (plot_l, plot_r, plot_t, plot_b) = (LEFT, W - RIGHT, TOP, H - BOTTOM);
    let bar = chart.kind == ChartKind::Bar;
    let (mut xlo, mut xhi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| {
            (a.min(*x), b.max(*x))
        });
    if bar {
        xlo = -0.5;
        xhi = chart.categories.len().max(1) as f64 - 0.5;
    }
    let log_x = chart.log_x && !bar && xlo > 0.0;
    let ymax = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let data_min = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    // Bars and widely spread lines start at zero; lines whose values sit close together are
    // zoomed in on (the axis labels say where it starts), so differences stay visible.
    let zoom = !bar && data_min > 0.0 && data_min > 0.6 * ymax;
    let ymin = if zoom {
        data_min - (ymax - data_min).max(ymax * 0.02) * 0.5
    } else {
        data_min.min(0.0)
    };
    let yt = ticks(ymin, if ymax > ymin { ymax } else { ymin + 1.0 }, 5);
    let (ylo, yhi) = (
        yt[0].min(ymin),
        yt.last().cloned().unwrap_or(ymax).max(ymax),
    );
    let xs = Scale {
        lo: xlo,
        hi: xhi,
        log: log_x,
        from: plot_l,
        to: plot_r,
    };
    let ys = Scale {
        lo: ylo,
        hi: yhi,
        log: false,
        from: plot_b,
        to: plot_t,
    };
    // Grid and y ticks.
    for t in &yt {
        let y = ys.map(*t);
        let _ = write!(
            s,
            r##"<line x1="{plot_l}" y1="{y:.1}" x2="{plot_r}" y2="{y:.1}" stroke="#e0e0e0"/>"##
        );
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            plot_l - 6.0,
            y + 4.0,
            label(*t)
        );
    }
    // X ticks.
    let xt: Vec<(f64, String)> = if bar {
        chart
            .categories
            .iter()
            .enumerate()
            .map(|(i, c)| (i as f64, c.clone()))
            .collect()
    } else if log_x {
        let mut v = Vec::new();
        let mut t = 2f64.powf(xlo.log2().floor());
        while t <= xhi * 1.0001 {
            if t >= xlo / 1.0001 {
                v.push((t, label(t)));
            }
            t *= 2.0;
        }
        v
    } else {
        ticks(xlo, xhi, 6)
            .into_iter()
            .map(|t| (t, label(t)))
            .collect()
    };
    for (t, l) in &xt {
        let x = xs.map(*t);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{plot_b}" x2="{x:.1}" y2="{:.1}" stroke="#444"/>"##,
            plot_b + 4.0
        );
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            plot_b + 17.0,
            escape(l)
        );
    }
    // Axes and labels.
    let _ = write!(
        s,
        r##"<line x1="{plot_l}" y1="{plot_b}" x2="{plot_r}" y2="{plot_b}" stroke="#444"/><line x1="{plot_l}" y1="{plot_t}" x2="{plot_l}" y2="{plot_b}" stroke="#444"/>"##
    );
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (plot_l + plot_r) / 2.0,
        H - 22.0,
        escape(&chart.x_label)
    );
    let _ = write!(
        s,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (plot_t + plot_b) / 2.0,
        escape(&chart.y_label)
    );
    // Data.
    let n = chart.series.len().max(1);
    for (i, series) in chart.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dashed = !matches!(series.provenance, Provenance::Measured);
        let pts: Vec<(f64, f64)> = series
            .points
            .iter()
            .map(|p| p.xy())
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        if bar {
            let slot = (plot_r - plot_l) / chart.categories.len().max(1) as f64;
            let width = slot * 0.8 / n as f64;
            for (x, y) in &pts {
                let left = xs.map(*x) - slot * 0.4 + width * i as f64;
                let (top, base) = (ys.map(y.max(ylo)), ys.map(0f64.max(ylo)));
                let _ = write!(
                    s,
                    r#"<rect x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}"{}><title>{}: {}</title></rect>"#,
                    top.min(base),
                    width.max(1.0),
                    (base - top).abs(),
                    if dashed {
                        r#" fill-opacity="0.55""#
                    } else {
                        ""
                    },
                    escape(&series.name),
                    label(*y)
                );
            }
        } else {
            let path: Vec<String> = pts
                .iter()
                .map(|(x, y)| format!("{:.1},{:.1}", xs.map(*x), ys.map(*y)))
                .collect();
            if path.len() > 1 {
                let _ = write!(
                    s,
                    r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{}/>"#,
                    path.join(" "),
                    if dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    }
                );
            }
            for (x, y) in &pts {
                let _ = write!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}: ({}, {})</title></circle>"#,
                    xs.map(*x),
                    ys.map(*y),
                    escape(&series.name),
                    label(*x),
                    label(*y)
                );
            }
        }
        // Legend.
        let ly = plot_t + 10.0 + 18.0 * i as f64;
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="12" height="12" fill="{colour}"/>"#,
            plot_r + 12.0,
            ly - 10.0
        );
        let name: String = series.name.chars().take(24).collect();
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{ly:.1}">{}</text>"#,
            plot_r + 30.0,
            escape(&name)
        );
    }
    let _ = write!(
        s,
        r##"<text x="{plot_r}" y="{:.1}" text-anchor="end" font-size="11" fill="#555">{}</text>"##,
        H - 6.0,
        escape(&provenance_note(chart))
    );
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::model::Series;

    fn chart(kind: ChartKind, log_x: bool) -> Chart {
        Chart {
            title: "Fig. <6> & co".into(),
            kind,
            x_label: "chunk".into(),
            y_label: "time (s)".into(),
            log_x,
            categories: vec!["a".into(), "b".into()],
            series: vec![
                Series::from_xy("measured", [(0.0, 1.0), (1.0, 2.0)], Provenance::Measured),
                Series::from_xy(
                    "model",
                    [(0.0, 1.5), (1.0, 2.5)],
                    Provenance::Modelled("x".into()),
                ),
            ],
            references: vec![],
        }
    }

    #[test]
    fn charts_are_escaped_svg_with_data_and_provenance() {
        for (kind, log) in [
            (ChartKind::Line, false),
            (ChartKind::Bar, false),
            (ChartKind::Line, true),
        ] {
            let svg = render(&chart(kind, log));
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
            assert!(svg.contains("Fig. &lt;6&gt; &amp; co"));
            assert!(!svg.contains("<6>"));
            assert!(svg.contains("modelled (x)") && svg.contains("measured"));
            assert!(svg.contains(if kind == ChartKind::Bar {
                "<rect x="
            } else {
                "<circle"
            }));
        }
    }

    #[test]
    fn empty_charts_say_so() {
        let mut c = chart(ChartKind::Line, false);
        c.series.clear();
        assert!(render(&c).contains("no data"));
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(3.0, 3.0, 5), vec![3.0]);
        assert_eq!(label(400.0), "400");
        assert_eq!(label(0.0300), "0.03");
        assert_eq!(label(1.5), "1.5");
    }
}
