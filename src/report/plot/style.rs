//! How each series of a chart looks: a colour from a palette whose neighbours differ in
//! lightness as well as hue, a marker shape and a line pattern, so that a chart printed in
//! greyscale still tells its series apart. Series whose names agree up to " (" share colour and
//! marker; their provenance tells them apart (measured: solid and filled; modelled: dashed and
//! lighter; the paper's: hollow markers and hatched bars).
use crate::results::{Chart, Provenance};
use plotters::style::{RGBColor, ShapeStyle};

/// Okabe–Ito colours (colour-blind safe), ordered so that neighbours alternate dark and light.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x1A, 0x1A, 0x1A),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x99, 0x99, 0x99),
];

/// A marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// ●
    Circle,
    /// ■
    Square,
    /// ▲
    Triangle,
    /// ◆
    Diamond,
    /// ✕
    Cross,
    /// ▼
    Down,
}

const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
    Marker::Down,
];

/// How one series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// Its colour.
    pub colour: RGBColor,
    /// Its marker.
    pub marker: Marker,
    /// Where its values came from.
    pub kind: Source,
}

/// The three provenances, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Solid line, filled marker, filled bar.
    Measured,
    /// Dashed line, filled marker, lighter bar.
    Modelled,
    /// No line, hollow marker, bar filled with a light tint and hatched in its colour.
    Paper,
}

impl Look {
    /// The stroke of its line and marker outline.
    pub fn stroke(&self) -> ShapeStyle {
        ShapeStyle::from(&self.colour).stroke_width(2)
    }

    /// Its marker's style: filled, or a hollow outline for the paper's values.
    pub fn marker_style(&self) -> ShapeStyle {
        if self.kind == Source::Paper {
            self.stroke()
        } else {
            ShapeStyle::from(&self.colour).filled()
        }
    }

    /// A bar's fill.
    pub fn bar_fill(&self) -> ShapeStyle {
        match self.kind {
            Source::Measured => ShapeStyle::from(&self.colour).filled(),
            Source::Modelled => ShapeStyle::from(&lighten(self.colour)).filled(),
            Source::Paper => ShapeStyle::from(&lighten(self.colour)).filled(),
        }
    }

    /// A bar's outline.
    pub fn bar_outline(&self) -> ShapeStyle {
        ShapeStyle::from(&self.colour).stroke_width(if self.kind == Source::Paper { 2 } else { 1 })
    }
}

/// Halfway to white.
fn lighten(c: RGBColor) -> RGBColor {
    let m = |v: u8| ((u16::from(v) + 255) / 2) as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

/// The part of a series name that names the thing, not the source: "CRT" of "CRT (paper)".
/// A name that starts with a source ("paper (low)") is its own stem.
pub fn stem(name: &str) -> &str {
    let st = name.split(" (").next().unwrap_or(name).trim();
    match st {
        "paper" | "ours" | "measured" | "model" | "modelled" => name,
        _ => st,
    }
}

/// The grey of markers shown as context behind lines (e.g. every configuration behind a
/// Pareto front).
pub const CONTEXT: RGBColor = RGBColor(0xB8, 0xB8, 0xB8);

/// The look of each series of `chart`, in order; series that share a stem share colour and
/// marker. `None` for a series with no point to draw (it gets no legend entry either). A
/// points-only series in a chart that also has lines is context: grey circles, leaving the
/// colours to the lines.
pub fn looks(chart: &Chart) -> Vec<Option<Look>> {
    let mut stems: Vec<&str> = Vec::new();
    let has_lines = chart.series.iter().any(|s| !s.points_only);
    chart
        .series
        .iter()
        .map(|s| {
            if !s.points.iter().any(|p| p.x.is_finite() && p.y.is_finite()) {
                return None;
            }
            if s.points_only && has_lines {
                return Some(Look {
                    colour: CONTEXT,
                    marker: Marker::Circle,
                    kind: Source::Measured,
                });
            }
            let st = stem(&s.name);
            let i = stems.iter().position(|x| *x == st).unwrap_or_else(|| {
                stems.push(st);
                stems.len() - 1
            });
            Some(Look {
                colour: PALETTE[i % PALETTE.len()],
                marker: MARKERS[i % MARKERS.len()],
                kind: match s.provenance {
                    Provenance::Measured => Source::Measured,
                    Provenance::Modelled(_) => Source::Modelled,
                    Provenance::Paper => Source::Paper,
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Series;

    #[test]
    fn ours_and_the_papers_share_a_look_and_empty_series_get_none() {
        let c = Chart::line("t", "x", "y", false)
            .with(Series::from_xy(
                "CRT (paper)",
                [(1.0, 2.0)],
                Provenance::Paper,
            ))
            .with(Series::from_xy("core-i7", [], Provenance::Measured))
            .with(Series::from_xy(
                "CRT (ours)",
                [(1.0, 2.5)],
                Provenance::Measured,
            ))
            .with(Series::from_xy(
                "binary",
                [(1.0, 3.0)],
                Provenance::Measured,
            ));
        let l = looks(&c);
        let (a, b, d) = (l[0].unwrap(), l[2].unwrap(), l[3].unwrap());
        assert!(l[1].is_none());
        assert_eq!((a.colour, a.marker), (b.colour, b.marker));
        assert_ne!(a.marker, d.marker);
        assert_eq!(a.kind, Source::Paper);
        assert_eq!(stem("paper (low)"), "paper (low)");
        assert!(!a.marker_style().filled && b.marker_style().filled);
    }
}
