//! Drawing the decision chart: each claim's header and verdict, then per figure its name, its
//! strip (the accepted band shaded, its edges, our interval and estimate, the paper's figures)
//! with ticks under it, and the line of numbers under that; a legend of what the strips use.
use super::{Figure, Scale, edges, figures, info, scale};
use crate::error::Result;
use crate::report::plot::axis::{self, TEXT_PX, font_size, text_w};
use crate::report::plot::{W, err, wrap};
use crate::results::{ClaimResult, Kind, Verdict};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Margin left and right of the chart, pixels.
pub(super) const MARGIN: i32 = 12;
/// Size of the lines under the strips and the note, pixels.
const SMALL_PX: f64 = 12.5;
/// Width of the column naming each strip's figure.
const NAME_W: i32 = 150;
const STRIP_H: i32 = 22;
const LINE: i32 = 17;
const HEADER: i32 = 19;
const OURS: RGBColor = RGBColor(0x00, 0x55, 0x99);
const PAPER: RGBColor = RGBColor(0x22, 0x22, 0x22);
const ACCEPTED: RGBColor = RGBColor(0xCF, 0xEB, 0xCF);
const EDGE: RGBColor = RGBColor(0x1B, 0x7A, 0x3A);
const GREY: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// The colour of a verdict, as the report's tables write it.
fn verdict_colour(v: Verdict) -> RGBColor {
    match v {
        Verdict::Holds => RGBColor(0x0A, 0x6B, 0x2D),
        Verdict::DoesNotHold => RGBColor(0xB3, 0x26, 0x1E),
        Verdict::Inconclusive => RGBColor(0x8A, 0x4B, 0x00),
        Verdict::Consistent => RGBColor(0x0A, 0x5A, 0x6B),
        Verdict::Inconsistent => RGBColor(0x7A, 0x1E, 0x6B),
        _ => GREY,
    }
}

/// `text` cut to at most `px` wide at `size`, with "…" where cut.
fn fit(text: &str, px: f64, size: f64) -> String {
    if text_w(text, size) <= px {
        return text.to_string();
    }
    let mut s: String = text.to_string();
    while !s.is_empty() && text_w(&s, size) + text_w("…", size) > px {
        s.pop();
    }
    format!("{}…", s.trim_end())
}

/// One claim's block, laid out.
struct Block<'a> {
    claim: &'a ClaimResult,
    header: Vec<String>,
    rows: Vec<(Figure, Scale, Vec<String>)>,
}

impl Block<'_> {
    fn height(&self) -> i32 {
        HEADER * self.header.len() as i32
            + self
                .rows
                .iter()
                .map(|(_, _, info)| 6 + STRIP_H + 22 + LINE * info.len() as i32)
                .sum::<i32>()
            + 14
    }
}

/// Characters of `px` wide text at `size`, for wrapping.
fn chars(px: f64, size: f64) -> usize {
    ((px - 2.0) / (size * 0.6)).floor().max(10.0) as usize
}

fn layout<'a>(claims: &[&'a ClaimResult]) -> Vec<Block<'a>> {
    let strip_px = f64::from(W as i32 - 2 * MARGIN - NAME_W - 8);
    claims
        .iter()
        .filter_map(|c| {
            let figures = figures(c);
            if figures.is_empty() {
                return None;
            }
            let verdict_w = text_w(c.verdict.label(), 14.0) * 1.1;
            let room = f64::from(W as i32 - 2 * MARGIN) - verdict_w - 12.0;
            let mut header = wrap(
                &format!("{} ({}) — {}", c.reference, c.kind.name(), c.claim),
                chars(room, 13.5),
            );
            if header.len() > 2 {
                header.truncate(2);
                header[1] = fit(&format!("{} …", header[1]), room, 13.5);
            }
            let rows = figures
                .into_iter()
                .map(|f| {
                    let s = scale(&f, strip_px);
                    let lines = wrap(
                        &info(&f, &s, c.kind == Kind::PaperCheck),
                        chars(f64::from(W as i32 - 2 * MARGIN), SMALL_PX),
                    );
                    (f, s, lines)
                })
                .collect();
            Some(Block {
                claim: c,
                header,
                rows,
            })
        })
        .collect()
}

const LEGEND_ROW: i32 = 22;

/// The legend's entries: (sample, text).
const LEGEND: [(&str, &str); 4] = [
    ("band", "accepted by the rule"),
    (
        "ours",
        "ours with its interval (measured: 95 %; a model: its range over its assumptions)",
    ),
    ("paper", "the paper's figure"),
    ("beyond", "the paper's figure, off the scale"),
];

/// The legend's rows, each entry with its x and its index into [`LEGEND`]: only the entries
/// some strip of `blocks` uses.
fn legend_rows(blocks: &[Block]) -> Vec<Vec<(i32, usize)>> {
    let rows_of = || blocks.iter().flat_map(|b| b.rows.iter());
    let used = [
        true,
        true,
        rows_of().any(|(_, s, _)| !s.paper.is_empty()),
        rows_of().any(|(_, s, _)| !s.beyond.is_empty()),
    ];
    let mut rows: Vec<Vec<(i32, usize)>> = vec![Vec::new()];
    let mut x = MARGIN;
    for (i, (_, text)) in LEGEND.iter().enumerate().filter(|(i, _)| used[*i]) {
        let w = 34 + text_w(text, TEXT_PX) as i32 + 16;
        if x > MARGIN && x + w > W as i32 - MARGIN {
            rows.push(Vec::new());
            x = MARGIN;
        }
        rows.last_mut()
            .unwrap_or_else(|| unreachable!())
            .push((x, i));
        x += w;
    }
    rows
}

/// The decision chart of `claims` (one experiment's) as one `<svg>`, or `None` when none of
/// them has a judged figure.
pub fn render(claims: &[&ClaimResult]) -> Result<Option<String>> {
    let blocks = layout(claims);
    if blocks.is_empty() {
        return Ok(None);
    }
    let title = "How each claim was decided: our figure against the band its rule accepts";
    let note = "Each strip has its own scale, fitted to the interval, the rule's edges and the \
                paper's figures (logarithmic where they span a decade or more), so the gap a \
                verdict rests on shows; the axes do not start at zero.";
    let title_lines = wrap(title, chars(f64::from(W) - 24.0, 15.0));
    let note_lines = wrap(note, chars(f64::from(W) - 24.0, SMALL_PX));
    let legend = legend_rows(&blocks);
    let top = 10 + 20 * title_lines.len() as i32 + 6;
    let body: i32 = blocks.iter().map(Block::height).sum();
    let total = top + body + LEGEND_ROW * legend.len() as i32 + 16 * note_lines.len() as i32 + 12;
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (W, total as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let bold = TextStyle::from(
            ("sans-serif", font_size(15.0))
                .into_font()
                .style(FontStyle::Bold),
        )
        .pos(Pos::new(HPos::Left, VPos::Top));
        for (i, line) in title_lines.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (MARGIN, 8 + 20 * i as i32),
                bold.clone(),
            ))
            .map_err(err)?;
        }
        let mut y = top;
        for b in &blocks {
            draw_block(&root, b, y)?;
            y += b.height();
        }
        draw_legend(&root, &legend, y)?;
        y += LEGEND_ROW * legend.len() as i32 + 4;
        let grey = ("sans-serif", font_size(SMALL_PX))
            .into_font()
            .color(&GREY)
            .pos(Pos::new(HPos::Left, VPos::Top));
        for (i, line) in note_lines.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (MARGIN, y + 16 * i as i32),
                grey.clone(),
            ))
            .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(Some(buf.replacen(
        "<svg ",
        r#"<svg role="img" class="decision" aria-label="How each claim was decided" "#,
        1,
    )))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn text_style(px: f64, colour: RGBColor, pos: Pos) -> TextStyle<'static> {
    ("sans-serif", font_size(px))
        .into_font()
        .color(&colour)
        .pos(pos)
}

fn draw_block(root: &Area, b: &Block, top: i32) -> Result<()> {
    let left = Pos::new(HPos::Left, VPos::Top);
    let mut y = top;
    for (i, line) in b.header.iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (MARGIN, y + HEADER * i as i32),
            text_style(13.5, RGBColor(0x1A, 0x1A, 0x1A), left),
        ))
        .map_err(err)?;
    }
    let verdict = ("sans-serif", font_size(14.0))
        .into_font()
        .style(FontStyle::Bold)
        .color(&verdict_colour(b.claim.verdict))
        .pos(Pos::new(HPos::Right, VPos::Top));
    root.draw(&Text::new(
        b.claim.verdict.label(),
        (W as i32 - MARGIN, y),
        verdict,
    ))
    .map_err(err)?;
    y += HEADER * b.header.len() as i32;
    for (f, s, lines) in &b.rows {
        y += 6;
        draw_strip(root, f, s, y)?;
        y += STRIP_H + 22;
        for line in lines {
            root.draw(&Text::new(
                line.clone(),
                (MARGIN, y),
                text_style(SMALL_PX, GREY, left),
            ))
            .map_err(err)?;
            y += LINE;
        }
    }
    Ok(())
}

/// One strip's geometry: where it lies and how the scale maps values onto it.
struct Strip<'a> {
    scale: &'a Scale,
    x0: i32,
    x1: i32,
    top: i32,
    mid: i32,
    bottom: i32,
}

impl Strip<'_> {
    /// The pixel column of value `v` (a little beyond either end where it is off the scale).
    fn px(&self, v: f64) -> i32 {
        let axis = &self.scale.axis;
        let (lo, hi) = (axis.to(axis.lo), axis.to(axis.hi));
        let t = if axis.log && v <= 0.0 {
            f64::NEG_INFINITY
        } else {
            axis.to(v)
        };
        let t = ((t - lo) / (hi - lo)).clamp(-0.02, 1.02);
        self.x0 + (t * f64::from(self.x1 - self.x0)).round() as i32
    }
}

fn draw_strip(root: &Area, f: &Figure, s: &Scale, top: i32) -> Result<()> {
    let st = Strip {
        scale: s,
        x0: MARGIN + NAME_W + 8,
        x1: W as i32 - MARGIN,
        top,
        mid: top + STRIP_H / 2,
        bottom: top + STRIP_H,
    };
    root.draw(&Text::new(
        fit(&f.name, f64::from(NAME_W), TEXT_PX),
        (MARGIN, st.mid),
        text_style(
            TEXT_PX,
            RGBColor(0x1A, 0x1A, 0x1A),
            Pos::new(HPos::Left, VPos::Center),
        ),
    ))
    .map_err(err)?;
    let band = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    draw_band(root, &st, band)?;
    draw_axis(root, &st)?;
    draw_edges(root, &st, band)?;
    draw_paper(root, &st)?;
    draw_ours(root, &st, f)
}

/// The accepted band, clipped to the strip.
fn draw_band(root: &Area, st: &Strip, (a, b): (f64, f64)) -> Result<()> {
    let (ba, bb) = (
        if a.is_finite() {
            st.px(a).max(st.x0)
        } else {
            st.x0
        },
        if b.is_finite() {
            st.px(b).min(st.x1)
        } else {
            st.x1
        },
    );
    if bb > ba {
        root.draw(&Rectangle::new(
            [(ba, st.top), (bb, st.bottom)],
            ACCEPTED.filled(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// The grid lines, ticks and their labels, and the frame.
fn draw_axis(root: &Area, st: &Strip) -> Result<()> {
    let grid = ShapeStyle::from(&RGBColor(0xE0, 0xE0, 0xE0)).stroke_width(1);
    let tick = ShapeStyle::from(&RGBColor(0x44, 0x44, 0x44)).stroke_width(1);
    let labels = text_style(
        TEXT_PX,
        RGBColor(0x33, 0x33, 0x33),
        Pos::new(HPos::Center, VPos::Top),
    );
    for &t in &st.scale.axis.ticks {
        let x = st.px(t);
        root.draw(&PathElement::new(vec![(x, st.top), (x, st.bottom)], grid))
            .map_err(err)?;
        root.draw(&PathElement::new(
            vec![(x, st.bottom), (x, st.bottom + 4)],
            tick,
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            axis::number(t),
            (x, st.bottom + 5),
            labels.clone(),
        ))
        .map_err(err)?;
    }
    root.draw(&Rectangle::new(
        [(st.x0, st.top), (st.x1, st.bottom)],
        ShapeStyle::from(&RGBColor(0x99, 0x99, 0x99)).stroke_width(1),
    ))
    .map_err(err)?;
    Ok(())
}

/// The rule's edges, where they fall on the strip.
fn draw_edges(root: &Area, st: &Strip, (a, b): (f64, f64)) -> Result<()> {
    let edge = ShapeStyle::from(&EDGE).stroke_width(2);
    for e in edges((a, b)) {
        let x = st.px(e);
        if (st.x0..=st.x1).contains(&x) {
            root.draw(&PathElement::new(
                vec![(x, st.top - 3), (x, st.bottom + 3)],
                edge,
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// The paper's figures: hollow diamonds; beyond the scale, a hollow arrowhead at the end.
fn draw_paper(root: &Area, st: &Strip) -> Result<()> {
    let outline = ShapeStyle::from(&PAPER).stroke_width(2);
    for &p in &st.scale.paper {
        let x = st.px(p);
        root.draw(&PathElement::new(
            vec![
                (x, st.mid - 7),
                (x - 7, st.mid),
                (x, st.mid + 7),
                (x + 7, st.mid),
                (x, st.mid - 7),
            ],
            outline,
        ))
        .map_err(err)?;
    }
    for &(_, right) in &st.scale.beyond {
        let (x, d) = if right {
            (st.x1 - 2, -9)
        } else {
            (st.x0 + 2, 9)
        };
        root.draw(&PathElement::new(
            vec![
                (x + d, st.mid - 6),
                (x, st.mid),
                (x + d, st.mid + 6),
                (x + d, st.mid - 6),
            ],
            outline,
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// Ours: the interval as a bar with caps (open-ended where it runs off the scale), the
/// estimate as a dot.
fn draw_ours(root: &Area, st: &Strip, f: &Figure) -> Result<()> {
    let bar = ShapeStyle::from(&OURS).stroke_width(3);
    let (l, h) = (
        st.px(f.low.max(st.scale.axis.lo)),
        st.px(f.high.min(st.scale.axis.hi)),
    );
    if h > l {
        root.draw(&PathElement::new(vec![(l, st.mid), (h, st.mid)], bar))
            .map_err(err)?;
        for (x, finite) in [(l, f.low.is_finite()), (h, f.high.is_finite())] {
            if finite {
                root.draw(&PathElement::new(
                    vec![(x, st.mid - 6), (x, st.mid + 6)],
                    ShapeStyle::from(&OURS).stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
    }
    let v = st.px(f.value);
    root.draw(&Circle::new((v, st.mid), 5, WHITE.filled()))
        .map_err(err)?;
    root.draw(&Circle::new((v, st.mid), 4, OURS.filled()))
        .map_err(err)?;
    Ok(())
}

fn draw_legend(root: &Area, rows: &[Vec<(i32, usize)>], top: i32) -> Result<()> {
    let font = text_style(
        TEXT_PX,
        RGBColor(0x1A, 0x1A, 0x1A),
        Pos::new(HPos::Left, VPos::Center),
    );
    let outline = ShapeStyle::from(&PAPER).stroke_width(2);
    for (r, row) in rows.iter().enumerate() {
        let y = top + LEGEND_ROW * r as i32 + LEGEND_ROW / 2;
        for &(x, i) in row {
            let (sample, text) = LEGEND[i];
            let mid = x + 14;
            match sample {
                "band" => {
                    root.draw(&Rectangle::new(
                        [(x, y - 7), (x + 28, y + 7)],
                        ACCEPTED.filled(),
                    ))
                    .map_err(err)?;
                    root.draw(&PathElement::new(
                        vec![(x, y - 9), (x, y + 9)],
                        ShapeStyle::from(&EDGE).stroke_width(2),
                    ))
                    .map_err(err)?;
                }
                "ours" => {
                    root.draw(&PathElement::new(
                        vec![(x + 2, y), (x + 26, y)],
                        ShapeStyle::from(&OURS).stroke_width(3),
                    ))
                    .map_err(err)?;
                    root.draw(&Circle::new((mid, y), 4, OURS.filled()))
                        .map_err(err)?;
                }
                "paper" => {
                    root.draw(&PathElement::new(
                        vec![
                            (mid, y - 7),
                            (mid - 7, y),
                            (mid, y + 7),
                            (mid + 7, y),
                            (mid, y - 7),
                        ],
                        outline,
                    ))
                    .map_err(err)?;
                }
                _ => {
                    root.draw(&PathElement::new(
                        vec![
                            (mid - 4, y - 6),
                            (mid + 5, y),
                            (mid - 4, y + 6),
                            (mid - 4, y - 6),
                        ],
                        outline,
                    ))
                    .map_err(err)?;
                }
            }
            root.draw(&Text::new(text, (x + 34, y), font.clone()))
                .map_err(err)?;
        }
    }
    Ok(())
}
