//! The report's charts, drawn with plotters' SVG backend (text is left to the browser, so no
//! font files are needed): the frame (title, orientation, axes and their size), then the data
//! (`draw`), the legend under the plot (`legend`) and the notes under that (where the
//! values came from, a logarithmic axis, the chart's own note).
pub mod axis;
pub mod decision;
mod draw;
mod legend;
mod refs;
pub mod style;

use crate::error::{Error, Result};
use crate::results::{Chart, ChartKind, ValueAxis};
use axis::{Axis, TEXT_PX, font_size, text_px, text_w};
use plotters::prelude::*;

/// Width of every chart, pixels: the SVG's own size and its viewBox, so the page can stretch
/// it to its width; at this width (an 800 px window) its text is at least 12 px.
pub const W: u32 = 760;
const PLOT_H: u32 = 330;
/// Category names up to this wide (pixels) never make bars lie down.
const SHORT_PX: f64 = 40.0;

fn err(e: impl std::fmt::Display) -> Error {
    Error::Export(format!("chart: {e}"))
}

/// Where everything goes: the orientation, the axes and the sizes around the plot.
pub(crate) struct Frame {
    /// Bars lying down, categories on the vertical axis (when their names are long).
    pub horizontal: bool,
    /// Bar or stacked bar chart.
    pub bars: bool,
    /// The category axis (bars) or the x axis (lines), in data units.
    pub x: Axis,
    /// The value axis.
    pub y: Axis,
    /// Category names (bars).
    pub categories: Vec<String>,
    /// Every how many categories a name is written (1: all; more where many short names
    /// would overlap, e.g. 36 pipeline stages).
    pub label_every: usize,
    /// Height of the plot, axes and labels included.
    pub height: u32,
    /// Width of the left label area.
    pub left: u32,
    /// Width of the gutter right of the plot (the names of horizontal reference lines).
    pub right: u32,
    /// Height of the gutter above the plot (the names of vertical reference lines).
    pub top: u32,
    /// The reference lines' labels.
    pub refs: Vec<refs::Label>,
    /// For each label above the plot, its row (0 nearest the plot); 0 for side labels.
    pub ref_rows: Vec<usize>,
}

impl Frame {
    fn new(chart: &Chart) -> Self {
        let y = Self::value_axis(chart);
        if chart.kind != ChartKind::Line {
            return Self::bar_frame(chart, y);
        }
        let xs: Vec<f64> = chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter(|p| p.y.is_finite()).map(|p| p.x))
            .chain(chart.references.iter().filter(|r| r.on_x).map(|r| r.value))
            .collect();
        let y = y.thin(f64::from(PLOT_H) - 70.0, false);
        let left = left_for(&y);
        let x = axis::x_axis(&xs, chart.log_x);
        let frame = Self {
            horizontal: false,
            bars: false,
            x,
            y,
            categories: vec![],
            label_every: 1,
            height: PLOT_H,
            left,
            ..Self::EMPTY
        }
        .with_refs(chart);
        let x = frame.x.clone().thin(frame.plot_w(), true);
        Self { x, ..frame }
    }

    /// The value axis over every value drawn (a stacked chart's sums per category, from 0)
    /// and the horizontal reference lines, before thinning its ticks.
    fn value_axis(chart: &Chart) -> Axis {
        let stacked = chart.kind == ChartKind::Stacked;
        let mut values: Vec<f64> = Vec::new();
        if stacked {
            for i in 0..chart.categories.len() {
                let sum: f64 = chart
                    .series
                    .iter()
                    .flat_map(|s| s.points.iter())
                    .filter(|p| p.x as usize == i && p.y.is_finite())
                    .map(|p| p.y.max(0.0))
                    .sum();
                values.push(sum);
            }
        } else {
            for p in chart.series.iter().flat_map(|s| s.points.iter()) {
                if p.x.is_finite() {
                    values.extend([Some(p.y), p.y_low, p.y_high].into_iter().flatten());
                }
            }
        }
        values.extend(chart.references.iter().filter(|r| !r.on_x).map(|r| r.value));
        let mode = if stacked {
            ValueAxis::Zero
        } else {
            chart.value_axis
        };
        axis::value_axis(&values, mode, !stacked)
    }

    /// A bar chart's frame with value axis `y`: bars standing up, or lying down where the
    /// category names are too long to stand under them.
    fn bar_frame(chart: &Chart, y: Axis) -> Self {
        let n = chart.categories.len().max(1);
        let x = Axis {
            log: false,
            lo: -0.5,
            hi: n as f64 - 0.5,
            ticks: (0..n).map(|i| i as f64).collect(),
        };
        let widest = chart
            .categories
            .iter()
            .map(|c| text_px(c))
            .fold(0.0, f64::max);
        let slot = (f64::from(W) - 110.0) / n as f64;
        // Many short names stand up and name every k-th category; long ones lie down.
        let horizontal = widest + 8.0 > slot && widest > SHORT_PX;
        let label_every = ((widest + 8.0) / slot).ceil().max(1.0) as usize;
        let frame = if horizontal {
            let band = (chart.series.len() as u32 * 9 + 12).max(24);
            Self {
                y: y.thin(f64::from(W) - widest - 80.0, true),
                label_every: 1,
                height: n as u32 * band + 70,
                left: (widest as u32 + 40).min(W / 2),
                ..Self::EMPTY
            }
        } else {
            let y = y.thin(f64::from(PLOT_H) - 70.0, false);
            Self {
                left: left_for(&y),
                y,
                label_every,
                height: PLOT_H,
                ..Self::EMPTY
            }
        };
        Self {
            horizontal,
            bars: true,
            x,
            categories: chart.categories.clone(),
            ..frame
        }
        .with_refs(chart)
    }

    /// A frame with nothing in it, for `..` in the constructors.
    const EMPTY: Self = Self {
        horizontal: false,
        bars: false,
        x: Axis::NONE,
        y: Axis::NONE,
        categories: Vec::new(),
        label_every: 1,
        height: PLOT_H,
        left: 40,
        right: 24,
        top: 8,
        refs: Vec::new(),
        ref_rows: Vec::new(),
    };

    /// Width of the plot itself, pixels.
    pub fn plot_w(&self) -> f64 {
        f64::from(W) - f64::from(self.left) - f64::from(self.right)
    }

    /// Places the names of `chart`'s reference lines: sets the gutters they need.
    fn with_refs(mut self, chart: &Chart) -> Self {
        self.refs = refs::labels(chart, &self);
        self.right = refs::right_gutter(&self.refs);
        let centres: Vec<(f64, f64)> = self
            .refs
            .iter()
            .map(|l| {
                let r = &chart.references[l.index];
                let axis = if r.on_x { &self.x } else { &self.y };
                let (lo, hi) = (axis.to(axis.lo), axis.to(axis.hi));
                let t = if hi > lo {
                    (axis.to(r.value) - lo) / (hi - lo)
                } else {
                    0.5
                };
                let width = l
                    .lines
                    .iter()
                    .map(|s| text_w(s, TEXT_PX))
                    .fold(0.0, f64::max);
                (f64::from(self.left) + t * self.plot_w(), width)
            })
            .collect();
        let vertical: Vec<usize> = (0..self.refs.len())
            .filter(|&i| self.refs[i].vertical)
            .collect();
        let rows = refs::top_rows(&vertical.iter().map(|&i| centres[i]).collect::<Vec<_>>());
        self.ref_rows = vec![0; self.refs.len()];
        for (k, &i) in vertical.iter().enumerate() {
            self.ref_rows[i] = rows[k];
        }
        self.top = if vertical.is_empty() {
            8
        } else {
            refs::top_gutter(rows.iter().max().map_or(0, |r| r + 1))
        };
        self
    }

    /// The label of a tick on the category or x axis (drawing units).
    fn x_label(&self, v: f64) -> String {
        if !self.bars {
            return self.x.label(v);
        }
        let n = self.categories.len();
        let i = v.round();
        if i < 0.0 || i as usize >= n || (v - i).abs() > 1e-6 || i as usize % self.label_every != 0
        {
            return String::new();
        }
        let i = if self.horizontal {
            n - 1 - i as usize
        } else {
            i as usize
        };
        self.categories[i].clone()
    }

    /// A category's position on its axis (the first category on top when lying down).
    pub fn slot(&self, i: usize) -> f64 {
        if self.horizontal {
            (self.categories.len().max(1) - 1 - i) as f64
        } else {
            i as f64
        }
    }

    /// `(along, value)` in drawing units → the plot's `(x, y)`.
    pub fn at(&self, along: f64, value: f64) -> (f64, f64) {
        if self.horizontal {
            (value, along)
        } else {
            (along, value)
        }
    }
}

fn left_for(y: &Axis) -> u32 {
    let widest = y
        .key_points()
        .iter()
        .map(|&t| text_px(&y.label(t)))
        .fold(0.0, f64::max);
    widest as u32 + 42
}

/// Splits `text` into lines of at most `chars` characters, at plain spaces (a no-break space
/// keeps a number with its unit).
pub(crate) fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split([' ', '\n', '\t']).filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= chars => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// How many characters of text at `px` fit on a line of the chart's width.
fn line_chars(px: f64) -> usize {
    ((f64::from(W) - 26.0) / (px * 0.6)) as usize
}

/// The lines under a chart: where its values came from, its scale, its own note.
fn notes(chart: &Chart, frame: &Frame) -> Vec<String> {
    let mut labels: Vec<String> = chart.series.iter().map(|s| s.provenance.label()).collect();
    labels.sort();
    labels.dedup();
    let mut s = format!("Values: {}.", labels.join("; "));
    if frame.y.log {
        s.push_str(" Logarithmic value axis.");
    }
    // Stacked bars draw no error bars (their intervals stay in the data).
    if chart.kind != ChartKind::Stacked
        && chart
            .series
            .iter()
            .any(|s| s.points.iter().any(|p| p.y_low.is_some()))
    {
        s.push_str(" Error bars: 95 % intervals.");
    }
    if chart.series.iter().any(|s| !s.rounds.is_empty()) {
        s.push_str(" Small dots: the single rounds.");
        if draw::rounds_off_scale(chart, frame) {
            s.push_str(" Triangles at the end of the value axis: rounds beyond it.");
        }
    }
    if !chart.note.is_empty() {
        s.push(' ');
        s.push_str(&chart.note);
    }
    wrap(&s, line_chars(NOTE_PX))
}

/// Size of the notes under a chart, pixels.
const NOTE_PX: f64 = 12.5;
/// Size of a chart's title, pixels.
const TITLE_PX: f64 = 15.0;

/// Renders `chart` as one `<svg>` element.
pub fn render(chart: &Chart) -> Result<String> {
    let looks = style::looks(chart);
    let frame = Frame::new(chart);
    let entries = legend::entries(chart, &looks, &frame);
    let legend_h = legend::height(&entries);
    let title = wrap(&chart.title, line_chars(TITLE_PX));
    let notes = notes(chart, &frame);
    let empty = looks.iter().all(Option::is_none);
    let top = 10 + 20 * title.len() as u32;
    let plot_h = if empty {
        60
    } else {
        frame.height + frame.top - 8
    };
    let total = top + plot_h + legend_h + 16 * notes.len() as u32 + 8;
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (W, total)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let bold = ("sans-serif", font_size(TITLE_PX))
            .into_font()
            .style(FontStyle::Bold);
        for (i, line) in title.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (12, 8 + 20 * i as i32),
                bold.clone(),
            ))
            .map_err(err)?;
        }
        let (_, rest) = root.split_vertically(top);
        let (plot, rest) = rest.split_vertically(plot_h);
        let (legend_area, note_area) = rest.split_vertically(legend_h);
        if empty {
            plot.draw(&Text::new(
                "no data",
                (W as i32 / 2 - 30, 20),
                ("sans-serif", font_size(13.0)),
            ))
            .map_err(err)?;
        } else {
            draw::plot(&plot, chart, &frame, &looks)?;
            legend::draw(&legend_area, &entries)?;
        }
        let grey = ("sans-serif", font_size(NOTE_PX))
            .into_font()
            .color(&RGBColor(0x55, 0x55, 0x55));
        for (i, line) in notes.iter().enumerate() {
            note_area
                .draw(&Text::new(
                    line.clone(),
                    (12, 2 + 16 * i as i32),
                    grey.clone(),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    let label = format!(
        r#"<svg role="img" aria-label="{}" "#,
        chart
            .title
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
    );
    Ok(buf.replacen("<svg ", &label, 1))
}

#[cfg(test)]
mod tests;
