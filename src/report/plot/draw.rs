//! The data of a chart on its frame: lines (straight or as a staircase) with markers and
//! error bars, markers alone for series whose points have no order, grouped bars (dots on a
//! logarithmic axis, where a bar's length means nothing; the paper's hatched), stacked bars,
//! the single rounds as strips of small dots, and the paper's reference lines (drawn and named
//! by [`refs`]).
use super::axis::{TEXT_PX, font_size};
use super::refs;
use super::style::{Look, Marker, Source};
use super::{Frame, err};
use crate::error::Result;
use crate::results::{Chart, ChartKind, Point};
use plotters::coord::CoordTranslate;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;

/// A tick's label from its position.
type Label<'a> = dyn Fn(&f64) -> String + 'a;

/// The chart context every drawing function works on.
pub(super) type Ctx<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticked, Ticked>>;

/// A linear coordinate (in drawing units) with our own ticks.
#[derive(Clone)]
pub struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ticked {
    fn new(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        Self {
            lo: range.start,
            hi: range.end,
            ticks,
        }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.0 + limit.1) / 2;
        }
        let t = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// The colour of the paper's reference lines and their names.
pub(super) const REFERENCE: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// Draws a marker of shape `m` at `at`, 4–5 px across its centre.
pub fn marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    m: Marker,
    style: ShapeStyle,
) -> Result<()>
where
    CT::From: Clone,
{
    let e = || EmptyElement::at(at.clone());
    let polygon = |pts: Vec<(i32, i32)>| {
        if style.filled {
            area.draw(&(e() + Polygon::new(pts, style)))
        } else {
            let mut closed = pts.clone();
            closed.push(pts[0]);
            area.draw(&(e() + PathElement::new(closed, style)))
        }
    };
    match m {
        Marker::Circle => area.draw(&(e() + Circle::new((0, 0), 4, style))),
        Marker::Square => area.draw(&(e() + Rectangle::new([(-4, -4), (4, 4)], style))),
        Marker::Triangle => polygon(vec![(0, -5), (-5, 4), (5, 4)]),
        Marker::Down => polygon(vec![(0, 5), (-5, -4), (5, -4)]),
        Marker::Diamond => polygon(vec![(0, -5), (-5, 0), (0, 5), (5, 0)]),
        Marker::Cross => area.draw(
            &(e()
                + PathElement::new(vec![(-4, -4), (4, 4)], style.stroke_width(2))
                + PathElement::new(vec![(-4, 4), (4, -4)], style.stroke_width(2))),
        ),
    }
    .map_err(err)
}

/// Draws the axes, the data and the references of `chart` on `area`.
pub fn plot(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &Chart,
    frame: &Frame,
    looks: &[Option<Look>],
) -> Result<()> {
    let (h, v) = if frame.horizontal {
        (&frame.y, &frame.x)
    } else {
        (&frame.x, &frame.y)
    };
    let mut cc = ChartBuilder::on(area)
        .margin_right(frame.right)
        .margin_top(frame.top)
        .x_label_area_size(50)
        .y_label_area_size(frame.left)
        .build_cartesian_2d(
            Ticked::new(h.range(), h.key_points()),
            Ticked::new(v.range(), v.key_points()),
        )
        .map_err(err)?;
    let x_label = |t: &f64| frame.x_label(*t);
    let y_label = |t: &f64| frame.y.label(*t);
    let (hf, vf): (&Label, &Label) = if frame.horizontal {
        (&y_label, &x_label)
    } else {
        (&x_label, &y_label)
    };
    let (h_desc, v_desc) = if frame.horizontal {
        (&chart.y_label, &chart.x_label)
    } else {
        (&chart.x_label, &chart.y_label)
    };
    let mut mesh = cc.configure_mesh();
    mesh.x_desc(h_desc.as_str())
        .y_desc(v_desc.as_str())
        .x_label_formatter(hf)
        .y_label_formatter(vf)
        .label_style(("sans-serif", font_size(TEXT_PX)))
        .axis_desc_style(("sans-serif", font_size(13.0)))
        .bold_line_style(RGBColor(0xE2, 0xE2, 0xE2))
        .axis_style(RGBColor(0x44, 0x44, 0x44));
    if frame.bars {
        if frame.horizontal {
            mesh.disable_y_mesh();
        } else {
            mesh.disable_x_mesh();
        }
    }
    mesh.draw().map_err(err)?;
    rounds(&mut cc, chart, frame, looks)?;
    match chart.kind {
        ChartKind::Line => lines(&mut cc, chart, frame, looks)?,
        ChartKind::Bar if frame.y.log => dots(&mut cc, chart, frame, looks)?,
        ChartKind::Bar => bars(&mut cc, chart, frame, looks)?,
        ChartKind::Stacked => stacked(&mut cc, chart, frame, looks)?,
    }
    refs::draw(area, &mut cc, chart, frame)
}

/// Where a series' point at `x` sits along the category or x axis (drawing units), or None
/// where the axis cannot show it.
fn along(chart: &Chart, frame: &Frame, k: usize, n: usize, x: f64) -> Option<f64> {
    if !x.is_finite() {
        return None;
    }
    if frame.bars {
        if x < 0.0 || x as usize >= frame.categories.len() {
            return None;
        }
        let (off, width) = if chart.kind == ChartKind::Stacked {
            (-0.35, 0.7)
        } else {
            band(n, k)
        };
        Some(frame.slot(x as usize) + off + width / 2.0)
    } else if frame.x.log && x <= 0.0 {
        None
    } else {
        Some(frame.x.to(x))
    }
}

/// The single rounds behind the points: a strip of small translucent dots beside each point,
/// spread a few pixels across so that equal values stay visible. On a line chart each series
/// with rounds has its own lane beside the points, so strips at one x do not mix. The value
/// axis fits the points and their intervals, not every round: a round beyond it is drawn at
/// the axis' end as a small triangle pointing out (see [`rounds_off_scale`]).
fn rounds(cc: &mut Ctx, chart: &Chart, frame: &Frame, looks: &[Option<Look>]) -> Result<()> {
    let drawn: Vec<usize> = (0..chart.series.len())
        .filter(|&i| looks[i].is_some())
        .collect();
    let ends = frame.y.range();
    let mut lane = 0;
    for (k, &i) in drawn.iter().enumerate() {
        let (s, look) = (&chart.series[i], looks[i].unwrap_or_else(|| unreachable!()));
        if s.rounds.is_empty() {
            continue;
        }
        let style = ShapeStyle::from(&look.colour.mix(0.45)).filled();
        // A bar's strip spreads ±4 px over its bar; on a line chart the lanes (±3 px each)
        // alternate left and right of the points, nearest first: -7, +7, -15, +15 px…
        let (spread, centre) = if frame.bars {
            (4, 0)
        } else {
            (3, (7 + 8 * (lane / 2)) * if lane % 2 == 0 { -1 } else { 1 })
        };
        lane += 1;
        // Pixel offsets from a value-axis step and a step across it.
        let px = |value: i32, across: i32| {
            if frame.horizontal {
                (value, across)
            } else {
                (across, -value)
            }
        };
        for (j, &(x, y)) in s.rounds.iter().enumerate() {
            let (Some(a), Some(v)) = (along(chart, frame, k, drawn.len(), x), value(frame, y))
            else {
                continue;
            };
            let c = ((j * 5) as i32 % (2 * spread + 1)) - spread + centre;
            let out = i32::from(v > ends.end) - i32::from(v < ends.start);
            let at = EmptyElement::at(frame.at(a, v.max(ends.start).min(ends.end)));
            if out == 0 {
                cc.draw_series([at + Circle::new(px(0, c), 2, style)])
            } else {
                let tip = vec![px(4 * out, c), px(-out, c - 3), px(-out, c + 3)];
                cc.draw_series([at + Polygon::new(tip, style)])
            }
            .map_err(err)?;
        }
    }
    Ok(())
}

/// Whether some round of `chart` lies beyond its value axis (drawn at the axis' end).
pub(super) fn rounds_off_scale(chart: &Chart, frame: &Frame) -> bool {
    let ends = frame.y.range();
    chart
        .series
        .iter()
        .flat_map(|s| &s.rounds)
        .filter_map(|&(_, y)| value(frame, y))
        .any(|v| v < ends.start || v > ends.end)
}

/// Diagonal hatching inside the rectangle with pixel corners `a` and `b`: how a bar of the
/// paper's values is filled (solid colour is for ours).
pub fn hatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    colour: RGBColor,
) -> Result<()> {
    let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
    let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
    let style = ShapeStyle::from(&colour).stroke_width(1);
    let mut c = x0 + y0 + 3;
    while c < x1 + y1 {
        // The line x + y = c, clipped to the rectangle.
        let (start, end) = ((c - y1).max(x0), (c - y0).min(x1));
        if start < end {
            area.draw(&PathElement::new(
                vec![(start, c - start), (end, c - end)],
                style,
            ))
            .map_err(err)?;
        }
        c += 6;
    }
    Ok(())
}

/// A bar from drawing-unit corners `a` to `b`, filled as its look says (hatched for the
/// paper's values).
fn bar(cc: &mut Ctx, look: &Look, a: (f64, f64), b: (f64, f64)) -> Result<()> {
    cc.draw_series([Rectangle::new([a, b], look.bar_fill())])
        .map_err(err)?;
    if look.kind == Source::Paper {
        // In pixels of the plotting area.
        let area = cc.plotting_area().strip_coord_spec();
        let base = area.get_base_pixel();
        let px = |p: (f64, f64)| {
            let (x, y) = cc.backend_coord(&p);
            (x - base.0, y - base.1)
        };
        hatch(&area, px(a), px(b), look.colour)?;
    }
    cc.draw_series([Rectangle::new([a, b], look.bar_outline())])
        .map_err(err)?;
    Ok(())
}

/// A point's value and interval in drawing units, or None where the axis cannot show it.
fn value(frame: &Frame, y: f64) -> Option<f64> {
    (y.is_finite() && (!frame.y.log || y > 0.0)).then(|| frame.y.to(y))
}

fn error_bar(cc: &mut Ctx, frame: &Frame, along: f64, p: &Point, colour: RGBColor) -> Result<()> {
    let (Some(lo), Some(hi)) = (p.y_low, p.y_high) else {
        return Ok(());
    };
    let (Some(lo), Some(hi)) = (value(frame, lo.max(frame.y.lo)), value(frame, hi)) else {
        return Ok(());
    };
    if (hi - lo).abs() < 1e-12 {
        return Ok(());
    }
    let style = ShapeStyle::from(&colour).stroke_width(1);
    let cap = |v: f64| {
        let c: Vec<(i32, i32)> = if frame.horizontal {
            vec![(0, -4), (0, 4)]
        } else {
            vec![(-4, 0), (4, 0)]
        };
        EmptyElement::at(frame.at(along, v)) + PathElement::new(c, style)
    };
    cc.draw_series([PathElement::new(
        vec![frame.at(along, lo), frame.at(along, hi)],
        style,
    )])
    .map_err(err)?;
    cc.draw_series([cap(lo), cap(hi)]).map_err(err)?;
    Ok(())
}

fn lines(cc: &mut Ctx, chart: &Chart, frame: &Frame, looks: &[Option<Look>]) -> Result<()> {
    for (s, look) in chart.series.iter().zip(looks) {
        let Some(look) = look else { continue };
        let mut pts: Vec<&Point> = s
            .points
            .iter()
            .filter(|p| p.x.is_finite() && value(frame, p.y).is_some())
            .filter(|p| !frame.x.log || p.x > 0.0)
            .collect();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x));
        let xy: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (frame.x.to(p.x), frame.y.to(p.y)))
            .collect();
        let path: Vec<(f64, f64)> = if chart.steps {
            let mut v = Vec::new();
            for (i, &(x, y)) in xy.iter().enumerate() {
                if i > 0 {
                    v.push((x, xy[i - 1].1));
                }
                v.push((x, y));
            }
            v
        } else {
            xy.clone()
        };
        match look.kind {
            _ if s.points_only => {}
            Source::Measured => {
                cc.draw_series(LineSeries::new(path, look.stroke()))
                    .map_err(err)?;
            }
            Source::Modelled => {
                cc.draw_series(DashedLineSeries::new(path, 7, 4, look.stroke()))
                    .map_err(err)?;
            }
            Source::Paper => {}
        }
        for p in &pts {
            error_bar(cc, frame, frame.x.to(p.x), p, look.colour)?;
        }
        for c in xy {
            marker(cc.plotting_area(), c, look.marker, look.marker_style())?;
        }
    }
    Ok(())
}

/// Where series `k` of `n` sits within a category's band, and how wide it is.
fn band(n: usize, k: usize) -> (f64, f64) {
    let width = 0.8 / n.max(1) as f64;
    (-0.4 + width * k as f64, width)
}

fn bars(cc: &mut Ctx, chart: &Chart, frame: &Frame, looks: &[Option<Look>]) -> Result<()> {
    let drawn: Vec<usize> = (0..chart.series.len())
        .filter(|&i| looks[i].is_some())
        .collect();
    let base = frame.y.to(0f64.clamp(frame.y.lo, frame.y.hi));
    for (k, &i) in drawn.iter().enumerate() {
        let (s, look) = (&chart.series[i], looks[i].unwrap_or_else(|| unreachable!()));
        let (off, width) = band(drawn.len(), k);
        for p in &s.points {
            let Some(y) = value(frame, p.y) else { continue };
            if p.x < 0.0 || p.x as usize >= frame.categories.len() {
                continue;
            }
            let c = frame.slot(p.x as usize);
            let (a, b) = (frame.at(c + off, base), frame.at(c + off + width, y));
            bar(cc, &look, a, b)?;
            error_bar(
                cc,
                frame,
                c + off + width / 2.0,
                p,
                RGBColor(0x22, 0x22, 0x22),
            )?;
        }
    }
    Ok(())
}

fn dots(cc: &mut Ctx, chart: &Chart, frame: &Frame, looks: &[Option<Look>]) -> Result<()> {
    let drawn: Vec<usize> = (0..chart.series.len())
        .filter(|&i| looks[i].is_some())
        .collect();
    for (k, &i) in drawn.iter().enumerate() {
        let (s, look) = (&chart.series[i], looks[i].unwrap_or_else(|| unreachable!()));
        let (off, width) = band(drawn.len(), k);
        for p in &s.points {
            let Some(y) = value(frame, p.y) else { continue };
            if p.x < 0.0 || p.x as usize >= frame.categories.len() {
                continue;
            }
            let along = frame.slot(p.x as usize) + off + width / 2.0;
            error_bar(cc, frame, along, p, look.colour)?;
            marker(
                cc.plotting_area(),
                frame.at(along, y),
                look.marker,
                look.marker_style(),
            )?;
        }
    }
    Ok(())
}

fn stacked(cc: &mut Ctx, chart: &Chart, frame: &Frame, looks: &[Option<Look>]) -> Result<()> {
    let mut top = vec![0.0f64; frame.categories.len()];
    for (s, look) in chart.series.iter().zip(looks) {
        let Some(look) = look else { continue };
        for p in &s.points {
            if p.x < 0.0 || p.x as usize >= top.len() || !p.y.is_finite() || p.y <= 0.0 {
                continue;
            }
            let i = p.x as usize;
            let c = frame.slot(i);
            let (a, b) = (frame.at(c - 0.35, top[i]), frame.at(c + 0.35, top[i] + p.y));
            top[i] += p.y;
            bar(cc, look, a, b)?;
        }
    }
    Ok(())
}
