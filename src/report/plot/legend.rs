//! The legend under a chart: every series that has a point, its full name, and a sample drawn
//! exactly as the series is (the same fill, hatching, outline, dash and marker), laid out in as many
//! rows as the names need.
use super::axis::{TEXT_PX, font_size, text_px};
use super::draw::{hatch, marker};
use super::style::{Look, Source};
use super::{Frame, W, err};
use crate::error::Result;
use crate::results::{Chart, ChartKind};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ROW: u32 = 22;
const SAMPLE: i32 = 30;

/// How an entry's sample is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    /// A short line with a marker.
    Line,
    /// A bar's swatch.
    Bar,
    /// A marker alone.
    Dot,
}

/// One legend entry, placed.
pub struct Entry {
    label: String,
    look: Look,
    sample: Sample,
    x: i32,
    row: u32,
}

/// The entries of `chart`'s legend, laid out in rows across the chart's width.
pub fn entries(chart: &Chart, looks: &[Option<Look>], frame: &Frame) -> Vec<Entry> {
    let sample = match chart.kind {
        ChartKind::Line => Sample::Line,
        ChartKind::Bar if frame.y.log => Sample::Dot,
        _ => Sample::Bar,
    };
    let (mut x, mut row) = (12i32, 0u32);
    let mut out = Vec::new();
    for (s, look) in chart.series.iter().zip(looks) {
        let Some(look) = look else { continue };
        let width = SAMPLE + 8 + text_px(&s.name) as i32 + 18;
        if x > 12 && x + width > W as i32 - 8 {
            x = 12;
            row += 1;
        }
        out.push(Entry {
            label: s.name.clone(),
            look: *look,
            sample: if s.points_only && sample == Sample::Line {
                Sample::Dot
            } else {
                sample
            },
            x,
            row,
        });
        x += width;
    }
    out
}

/// The legend's height, pixels.
pub fn height(entries: &[Entry]) -> u32 {
    entries.last().map_or(0, |e| (e.row + 1) * ROW + 6)
}

/// Draws `entries` on `area`.
pub fn draw(area: &DrawingArea<SVGBackend<'_>, Shift>, entries: &[Entry]) -> Result<()> {
    let font = TextStyle::from(("sans-serif", font_size(TEXT_PX)).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center));
    for e in entries {
        let y = (e.row * ROW + ROW / 2) as i32;
        let mid = (e.x + SAMPLE / 2, y);
        match e.sample {
            Sample::Bar => {
                let r = [(e.x + 6, y - 6), (e.x + SAMPLE - 6, y + 6)];
                area.draw(&Rectangle::new(r, e.look.bar_fill()))
                    .map_err(err)?;
                if e.look.kind == Source::Paper {
                    hatch(area, r[0], r[1], e.look.colour)?;
                }
                area.draw(&Rectangle::new(r, e.look.bar_outline()))
                    .map_err(err)?;
            }
            Sample::Line => {
                let ends = [(e.x, y), (e.x + SAMPLE, y)];
                match e.look.kind {
                    Source::Measured => area
                        .draw(&PathElement::new(ends.to_vec(), e.look.stroke()))
                        .map_err(err)?,
                    Source::Modelled => {
                        for (a, b) in [(0, 8), (12, 18), (22, SAMPLE)] {
                            area.draw(&PathElement::new(
                                vec![(e.x + a, y), (e.x + b, y)],
                                e.look.stroke(),
                            ))
                            .map_err(err)?;
                        }
                    }
                    Source::Paper => {}
                }
                marker(area, mid, e.look.marker, e.look.marker_style())?;
            }
            Sample::Dot => {
                marker(area, mid, e.look.marker, e.look.marker_style())?;
            }
        }
        area.draw(&Text::new(
            e.label.clone(),
            (e.x + SAMPLE + 6, y),
            font.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}
