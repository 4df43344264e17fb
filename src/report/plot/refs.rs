//! Where the labels of the paper's reference lines go: outside the plot, so that they never
//! cover data. A horizontal line is named in a gutter right of the plot, at its height (moved
//! apart from its neighbours, with a leader line back to the line where moved); a vertical
//! line is named above the plot, in as many rows as keep the names apart.
use super::axis::{TEXT_PX, font_size, text_w};
use super::draw::{Ctx, REFERENCE};
use super::{Frame, W, err, wrap};
use crate::error::Result;
use crate::results::Chart;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The widest gutter right of the plot, pixels (longer names wrap).
const MAX_SIDE: f64 = 190.0;
/// Height of a label's line, pixels.
pub const LINE: i32 = 16;

/// A reference line's label and the side it goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Index into the chart's references.
    pub index: usize,
    /// The label's lines.
    pub lines: Vec<String>,
    /// The line is vertical on the drawing (its label goes above the plot).
    pub vertical: bool,
}

/// Whether reference `on_x` is drawn as a vertical line on `frame`.
pub fn vertical(on_x: bool, frame: &Frame) -> bool {
    on_x != frame.horizontal
}

/// The labels of `chart`'s references that can be drawn on `frame`'s axes.
pub fn labels(chart: &Chart, frame: &Frame) -> Vec<Label> {
    chart
        .references
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            let axis = if r.on_x { &frame.x } else { &frame.y };
            r.value.is_finite()
                && !(axis.log && r.value <= 0.0)
                && r.value >= axis.lo
                && r.value <= axis.hi
        })
        .map(|(index, r)| {
            let vertical = vertical(r.on_x, frame);
            let lines = if vertical {
                vec![r.label.clone()]
            } else {
                wrap(&r.label, ((MAX_SIDE - 2.0) / (TEXT_PX * 0.6)) as usize)
            };
            Label {
                index,
                lines,
                vertical,
            }
        })
        .collect()
}

/// The width of the gutter right of the plot: the widest side label, or a small margin.
pub fn right_gutter(labels: &[Label]) -> u32 {
    labels
        .iter()
        .filter(|l| !l.vertical)
        .flat_map(|l| l.lines.iter())
        .map(|line| text_w(line, TEXT_PX) + 14.0)
        .fold(24.0, f64::max)
        .ceil() as u32
}

/// Rows for the labels above the plot, given each label's centre `x` (pixels): the row of
/// each (0 nearest the plot), so that no two labels in a row come closer than 8 px and none
/// leaves the chart.
pub fn top_rows(centres: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..centres.len()).collect();
    order.sort_by(|&a, &b| centres[a].0.total_cmp(&centres[b].0));
    let mut row_ends: Vec<f64> = Vec::new();
    let mut rows = vec![0; centres.len()];
    for i in order {
        let (start, _) = span(centres[i]);
        let row = row_ends
            .iter()
            .position(|&end| start >= end + 8.0)
            .unwrap_or(row_ends.len());
        if row == row_ends.len() {
            row_ends.push(f64::NEG_INFINITY);
        }
        row_ends[row] = span(centres[i]).1;
        rows[i] = row;
    }
    rows
}

/// A label's extent `(start, end)` from its centre and width, kept inside the chart.
pub fn span((centre, width): (f64, f64)) -> (f64, f64) {
    let start = (centre - width / 2.0).clamp(4.0, (f64::from(W) - 4.0 - width).max(4.0));
    (start, start + width)
}

/// The tops of side labels wanted at heights `ys` (pixels; each label `heights[i]` tall),
/// moved apart so that none overlaps the next and all stay within `[top, bottom]`.
pub fn side_tops(ys: &[i32], heights: &[i32], top: i32, bottom: i32) -> Vec<i32> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by_key(|&i| ys[i]);
    let mut out = vec![0; ys.len()];
    let mut next = top;
    for &i in &order {
        let want = ys[i] - heights[i] / 2;
        out[i] = want.max(next);
        next = out[i] + heights[i] + 2;
    }
    // Pushed past the bottom: move the last ones up, keeping their order.
    let mut limit = bottom;
    for &i in order.iter().rev() {
        if out[i] + heights[i] > limit {
            out[i] = limit - heights[i];
        }
        limit = out[i] - 2;
    }
    out
}

/// The height above the plot that `rows` rows of labels take.
pub fn top_gutter(rows: usize) -> u32 {
    8 + LINE as u32 * rows as u32
}

/// The paper's values: dashed dark lines across the plot, each named outside the plot (see
/// above): a horizontal line in the gutter on the right, with a leader line where its name
/// had to move away from its neighbours; a vertical one above the plot.
pub fn draw(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    cc: &mut Ctx,
    chart: &Chart,
    frame: &Frame,
) -> Result<()> {
    let pen = Pen::new(area);
    // Side labels: wanted at their line's height, then moved apart.
    let mut side: Vec<(usize, i32, i32)> = Vec::new();
    for (k, l) in frame.refs.iter().enumerate() {
        let r = &chart.references[l.index];
        let (axis, along) = if r.on_x {
            (&frame.x, &frame.y)
        } else {
            (&frame.y, &frame.x)
        };
        let v = axis.to(r.value);
        let (a, b) = (along.to(along.lo), along.to(along.hi));
        let (p, q) = if l.vertical {
            ((v, a), (v, b))
        } else {
            ((a, v), (b, v))
        };
        cc.draw_series(DashedLineSeries::new([p, q], 8, 5, pen.style))
            .map_err(err)?;
        let (qx, qy) = pen.px(cc, q);
        if l.vertical {
            pen.top_label(&l.lines[0], frame.ref_rows[k], (qx, qy))?;
        } else {
            side.push((k, qx, qy));
        }
    }
    if side.is_empty() {
        return Ok(());
    }
    pen.side_labels(cc, frame, &side)
}

/// What the reference lines' names are drawn with: the area, the lines' style and the font.
struct Pen<'p, 'b> {
    area: &'p DrawingArea<SVGBackend<'b>, Shift>,
    style: ShapeStyle,
    font: TextStyle<'static>,
}

impl Pen<'_, '_> {
    fn new<'p, 'b>(area: &'p DrawingArea<SVGBackend<'b>, Shift>) -> Pen<'p, 'b> {
        Pen {
            area,
            style: ShapeStyle::from(&REFERENCE).stroke_width(1),
            font: ("sans-serif", font_size(TEXT_PX))
                .into_font()
                .color(&REFERENCE),
        }
    }

    /// Data point `p` in the area's pixels.
    fn px(&self, cc: &Ctx, p: (f64, f64)) -> (i32, i32) {
        let base = self.area.get_base_pixel();
        let (x, y) = cc.backend_coord(&p);
        (x - base.0, y - base.1)
    }

    /// A vertical line's name above the plot, centred on the line's top `(qx, qy)`, in
    /// `row` (0 nearest the plot; above it, with a leader line down to the line).
    fn top_label(&self, name: &str, row: usize, (qx, qy): (i32, i32)) -> Result<()> {
        let width = text_w(name, TEXT_PX);
        let (start, _) = span((f64::from(qx), width));
        let y = qy - 4 - LINE * row as i32;
        self.area
            .draw(&Text::new(
                name.to_string(),
                (start as i32, y),
                self.font.clone().pos(Pos::new(HPos::Left, VPos::Bottom)),
            ))
            .map_err(err)?;
        if row > 0 {
            self.area
                .draw(&PathElement::new(vec![(qx, qy), (qx, y - 2)], self.style))
                .map_err(err)?;
        }
        Ok(())
    }

    /// The horizontal lines' names in the gutter right of the plot: `side` holds each one's
    /// label index and the right end of its line; names are moved apart and get a leader
    /// line where they moved.
    fn side_labels(&self, cc: &Ctx, frame: &Frame, side: &[(usize, i32, i32)]) -> Result<()> {
        let (top, bottom) = {
            let (_, y0) = self.px(cc, (frame.x.to(frame.x.lo), frame.y.to(frame.y.hi)));
            let (_, y1) = self.px(cc, (frame.x.to(frame.x.lo), frame.y.to(frame.y.lo)));
            (y0.min(y1), y0.max(y1))
        };
        let heights: Vec<i32> = side
            .iter()
            .map(|&(k, _, _)| LINE * frame.refs[k].lines.len() as i32)
            .collect();
        let ys: Vec<i32> = side.iter().map(|s| s.2).collect();
        let tops = side_tops(&ys, &heights, top - 6, bottom + 6);
        for (i, &(k, qx, qy)) in side.iter().enumerate() {
            let x = qx + 10;
            if (tops[i] + heights[i] / 2 - qy).abs() > 3 {
                self.area
                    .draw(&PathElement::new(
                        vec![(qx, qy), (x - 2, tops[i] + heights[i] / 2)],
                        self.style,
                    ))
                    .map_err(err)?;
            }
            for (j, line) in frame.refs[k].lines.iter().enumerate() {
                self.area
                    .draw(&Text::new(
                        line.clone(),
                        (x, tops[i] + LINE * j as i32),
                        self.font.clone().pos(Pos::new(HPos::Left, VPos::Top)),
                    ))
                    .map_err(err)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_above_the_plot_take_new_rows_only_where_they_would_touch() {
        // Three labels 60 px wide: the first two 40 px apart collide, the third is clear.
        let rows = top_rows(&[(100.0, 60.0), (140.0, 60.0), (400.0, 60.0)]);
        assert_eq!(rows, vec![0, 1, 0]);
        // Kept inside the chart at both ends.
        assert_eq!(span((0.0, 50.0)).0, 4.0);
        assert!(span((f64::from(W), 50.0)).1 <= f64::from(W) - 4.0);
    }

    #[test]
    fn side_labels_move_apart_and_stay_in_the_plot() {
        let t = side_tops(&[100, 104, 300], &[16, 16, 16], 0, 320);
        assert_eq!(t[0], 92);
        assert!(t[1] >= t[0] + 16, "{t:?}");
        assert_eq!(t[2], 292);
        let t = side_tops(&[310, 318], &[16, 16], 0, 320);
        assert!(t[1] + 16 <= 320 && t[0] + 16 <= t[1], "{t:?}");
    }
}
