//! The decision chart under an experiment's charts: every judged claim's figure with its 95 %
//! interval (or a model's range over its assumptions) against the band its rule accepts,
//! shaded. One strip per figure (per part for a claim judged on several), each on its own
//! scale, fitted to the interval, the rule's edges and the paper's figures so that the gap a
//! verdict rests on shows — logarithmic where they span a decade or more, never forced to
//! start at zero. The numbers are written in a line under each strip, never on the data.
use super::axis::{self, Axis, TEXT_PX, font_size, text_w};
use super::{W, err, wrap};
use crate::error::Result;
use crate::results::{ClaimResult, Kind, Rule, Verdict, short};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One figure of a claim, with the rule it is held to.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What it is: "ours" for a claim judged on one figure, else the part's name.
    pub name: String,
    /// The point estimate.
    pub value: f64,
    /// Lower end of its interval (the value itself for an exact figure; may be infinite).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Its unit.
    pub unit: String,
    /// The rule this figure alone is held to.
    pub rule: Rule,
    /// The paper's figures for it (none where the paper gives none, or not one per part).
    pub paper: Vec<f64>,
}

/// The verdicts a decision chart shows: those an interval or the paper's numbers decided.
fn judged(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Holds
            | Verdict::DoesNotHold
            | Verdict::Inconclusive
            | Verdict::Consistent
            | Verdict::Inconsistent
    )
}

/// The paper's figures for a figure judged by `rule`: `given` where the claim has them, else the
/// target of a "within a factor of" or "within a tolerance of" rule, which is the paper's figure.
fn paper_of(given: Vec<f64>, rule: &Rule) -> Vec<f64> {
    if !given.is_empty() {
        return given;
    }
    match *rule {
        Rule::Ratio { target, .. } | Rule::Diff { target, .. } if target.is_finite() => {
            vec![target]
        }
        _ => Vec::new(),
    }
}

/// The figures of a judged claim, each with its own rule, from `ours` (its parts for a
/// claim judged on several) and `rule_data`; empty where the claim was not judged or has no
/// figure that matches its rule.
pub fn figures(c: &ClaimResult) -> Vec<Figure> {
    if !judged(c.verdict) {
        return Vec::new();
    }
    let rules = c.rule_data.part_rules();
    let names = c.rule_data.part_names();
    let finite_or = |x: Option<f64>, v: f64| x.filter(|x| !x.is_nan()).unwrap_or(v);
    if names.is_empty() {
        // A scalar rule: one figure, ours.
        let (Some(rule), Some(value)) = (rules.first(), c.ours.value) else {
            return Vec::new();
        };
        if !value.is_finite() || rule.band().is_none() {
            return Vec::new();
        }
        return vec![Figure {
            name: "ours".into(),
            value,
            low: finite_or(c.ours.ci_low, value),
            high: finite_or(c.ours.ci_high, value),
            unit: c.ours.unit.clone(),
            rule: rule.clone(),
            paper: paper_of(
                c.paper_values
                    .iter()
                    .copied()
                    .filter(|v| v.is_finite())
                    .collect(),
                rule,
            ),
        }];
    }
    if c.ours.parts.len() != rules.len() {
        return Vec::new();
    }
    let per_part = c.paper_values.len() == rules.len();
    c.ours
        .parts
        .iter()
        .zip(rules)
        .enumerate()
        .filter(|(_, (p, r))| p.value.is_finite() && r.band().is_some())
        .map(|(i, (p, rule))| Figure {
            name: if p.name.is_empty() {
                names[i].clone()
            } else {
                p.name.clone()
            },
            value: p.value,
            low: if p.ci_low.is_nan() { p.value } else { p.ci_low },
            high: if p.ci_high.is_nan() {
                p.value
            } else {
                p.ci_high
            },
            unit: p.unit.clone(),
            paper: paper_of(
                if per_part {
                    vec![c.paper_values[i]]
                } else {
                    Vec::new()
                },
                &rule,
            ),
            rule,
        })
        .collect()
}

/// Where a figure's strip is drawn: its scale, and the paper's figures that fit on it and
/// those beyond it (with the side: true for the right).
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    /// The axis (its ticks include the band's finite edges).
    pub axis: Axis,
    /// The paper's figures on the axis.
    pub paper: Vec<f64>,
    /// The paper's figures beyond it, and whether beyond the right end.
    pub beyond: Vec<(f64, bool)>,
}

/// The band's finite edges.
fn edges(band: (f64, f64)) -> Vec<f64> {
    [band.0, band.1]
        .into_iter()
        .filter(|v| v.is_finite())
        .collect()
}

/// The scale of `f`'s strip, `px` pixels long: fitted to the interval and the band's finite
/// edges (the verdict's gap), logarithmic when all are positive and span a decade or more;
/// the paper's figures are on it unless they would squeeze that gap to under a fifth of the
/// strip.
pub fn scale(f: &Figure, px: f64) -> Scale {
    let band = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let mut core: Vec<f64> = [f.value, f.low, f.high]
        .into_iter()
        .chain(edges(band))
        .filter(|v| v.is_finite())
        .collect();
    core.sort_by(f64::total_cmp);
    let (min, max) = (core[0], core[core.len() - 1]);
    let log = min > 0.0 && max / min >= 10.0;
    let to = |v: f64| if log { v.log10() } else { v };
    let (cmin, cmax) = (to(min), to(max));
    // A single point (an exact figure on the rule's edge) gets a tenth of its size either way.
    let span = if cmax > cmin {
        cmax - cmin
    } else if log {
        0.05
    } else {
        (cmax.abs() * 0.1).max(1e-9)
    };
    let (mut lo, mut hi) = (cmin.min(cmax - span / 2.0), cmax.max(cmin + span / 2.0));
    let mut paper = Vec::new();
    let mut beyond = Vec::new();
    for &p in &f.paper {
        if log && p <= 0.0 {
            beyond.push((p, false));
            continue;
        }
        let t = to(p);
        if t >= cmin - 2.0 * span && t <= cmax + 2.0 * span {
            lo = lo.min(t);
            hi = hi.max(t);
            paper.push(p);
        } else {
            beyond.push((p, t > cmax));
        }
    }
    let pad = (hi - lo) * 0.07;
    let (lo, hi) = (lo - pad, hi + pad);
    let from = |t: f64| if log { 10f64.powf(t) } else { t };
    let (dlo, dhi) = (from(lo), from(hi));
    let round = if log {
        axis::log_ticks(dlo, dhi)
    } else {
        axis::nice_ticks(dlo, dhi, 6)
    };
    let axis = Axis {
        log,
        lo: dlo,
        hi: dhi,
        ticks: Vec::new(),
    };
    let ticks = ticks(&axis, &edges(band), &round, px);
    Scale {
        axis: Axis { ticks, ..axis },
        paper,
        beyond,
    }
}

/// The ticks of a strip: the band's edges first, then round numbers wherever their labels
/// keep clear of those already placed.
fn ticks(axis: &Axis, edges: &[f64], round: &[f64], px: f64) -> Vec<f64> {
    let (lo, hi) = (axis.to(axis.lo), axis.to(axis.hi));
    let at = |t: f64| (axis.to(t) - lo) / (hi - lo) * px;
    let half = |t: f64| text_w(&axis::number(t), TEXT_PX) / 2.0 + 4.0;
    let mut kept: Vec<f64> = Vec::new();
    for &t in edges.iter().chain(round) {
        if t < axis.lo || t > axis.hi || (axis.log && t <= 0.0) {
            continue;
        }
        // A label must fit inside the strip's width and clear every label kept so far.
        if at(t) - half(t) < -20.0 || at(t) + half(t) > px + f64::from(MARGIN) - 4.0 {
            continue;
        }
        if kept
            .iter()
            .all(|&k| (at(t) - at(k)).abs() >= half(t) + half(k))
        {
            kept.push(t);
        }
    }
    kept.sort_by(f64::total_cmp);
    kept
}

const MARGIN: i32 = 12;
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

/// What an interval does against a band, in words. A paper-check is consistent unless its
/// range lies wholly outside, so for it a straddling range "overlaps" the band.
fn against(f: &Figure, paper_check: bool) -> &'static str {
    let (a, b) = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    if a <= f.low && f.high <= b {
        "inside the band"
    } else if f.high < a || f.low > b {
        "outside the band"
    } else if paper_check {
        "overlaps the band"
    } else {
        "straddles an edge"
    }
}

/// The line under a strip: the part it is (in full), ours with its interval, the rule, the
/// paper's figures, the scale.
fn info(f: &Figure, s: &Scale, paper_check: bool) -> String {
    // A no-break space keeps each number with its unit when the line wraps.
    let u = if f.unit.is_empty() {
        String::new()
    } else {
        format!("\u{a0}{}", f.unit)
    };
    let name = if f.name == "ours" {
        String::new()
    } else {
        format!("{}: ", f.name)
    };
    let mut t = format!("{name}ours {}{u}", short(f.value));
    if f.low != f.high {
        t.push_str(&format!(" [{}, {}]", short(f.low), short(f.high)));
    }
    t.push_str(&format!(
        " · accepted: {} · {}",
        f.rule.describe(&f.unit).replace(' ', "\u{a0}"),
        against(f, paper_check)
    ));
    let paper: Vec<String> = s
        .paper
        .iter()
        .map(|p| short(*p))
        .chain(s.beyond.iter().map(|(p, right)| {
            format!(
                "{} (off the scale, {})",
                short(*p),
                if *right { "→" } else { "←" }
            )
        }))
        .collect();
    if !paper.is_empty() {
        t.push_str(&format!(" · paper {}{u}", paper.join(", ")));
    }
    if s.axis.log {
        t.push_str(" · log scale");
    }
    t
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

/// How many of `claims` a decision chart would plot.
pub fn plotted(claims: &[&ClaimResult]) -> usize {
    claims.iter().filter(|c| !figures(c).is_empty()).count()
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

fn draw_strip(root: &Area, f: &Figure, s: &Scale, top: i32) -> Result<()> {
    let x0 = MARGIN + NAME_W + 8;
    let x1 = W as i32 - MARGIN;
    let (lo, hi) = (s.axis.to(s.axis.lo), s.axis.to(s.axis.hi));
    let px = |v: f64| -> i32 {
        let t = if s.axis.log && v <= 0.0 {
            f64::NEG_INFINITY
        } else {
            s.axis.to(v)
        };
        let t = ((t - lo) / (hi - lo)).clamp(-0.02, 1.02);
        x0 + (t * f64::from(x1 - x0)).round() as i32
    };
    let mid = top + STRIP_H / 2;
    let bottom = top + STRIP_H;
    root.draw(&Text::new(
        fit(&f.name, f64::from(NAME_W), TEXT_PX),
        (MARGIN, mid),
        text_style(
            TEXT_PX,
            RGBColor(0x1A, 0x1A, 0x1A),
            Pos::new(HPos::Left, VPos::Center),
        ),
    ))
    .map_err(err)?;
    // The accepted band, clipped to the strip.
    let (a, b) = f.rule.band().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let (ba, bb) = (
        if a.is_finite() { px(a).max(x0) } else { x0 },
        if b.is_finite() { px(b).min(x1) } else { x1 },
    );
    if bb > ba {
        root.draw(&Rectangle::new(
            [(ba, top), (bb, bottom)],
            ACCEPTED.filled(),
        ))
        .map_err(err)?;
    }
    let grid = ShapeStyle::from(&RGBColor(0xE0, 0xE0, 0xE0)).stroke_width(1);
    let tick = ShapeStyle::from(&RGBColor(0x44, 0x44, 0x44)).stroke_width(1);
    let labels = text_style(
        TEXT_PX,
        RGBColor(0x33, 0x33, 0x33),
        Pos::new(HPos::Center, VPos::Top),
    );
    for &t in &s.axis.ticks {
        let x = px(t);
        root.draw(&PathElement::new(vec![(x, top), (x, bottom)], grid))
            .map_err(err)?;
        root.draw(&PathElement::new(vec![(x, bottom), (x, bottom + 4)], tick))
            .map_err(err)?;
        root.draw(&Text::new(axis::number(t), (x, bottom + 5), labels.clone()))
            .map_err(err)?;
    }
    root.draw(&Rectangle::new(
        [(x0, top), (x1, bottom)],
        ShapeStyle::from(&RGBColor(0x99, 0x99, 0x99)).stroke_width(1),
    ))
    .map_err(err)?;
    let edge = ShapeStyle::from(&EDGE).stroke_width(2);
    for e in edges((a, b)) {
        let x = px(e);
        if (x0..=x1).contains(&x) {
            root.draw(&PathElement::new(vec![(x, top - 3), (x, bottom + 3)], edge))
                .map_err(err)?;
        }
    }
    // The paper's figures: hollow diamonds; beyond the scale, a hollow arrowhead at the end.
    let outline = ShapeStyle::from(&PAPER).stroke_width(2);
    for &p in &s.paper {
        let x = px(p);
        root.draw(&PathElement::new(
            vec![
                (x, mid - 7),
                (x - 7, mid),
                (x, mid + 7),
                (x + 7, mid),
                (x, mid - 7),
            ],
            outline,
        ))
        .map_err(err)?;
    }
    for &(_, right) in &s.beyond {
        let (x, d) = if right { (x1 - 2, -9) } else { (x0 + 2, 9) };
        root.draw(&PathElement::new(
            vec![
                (x + d, mid - 6),
                (x, mid),
                (x + d, mid + 6),
                (x + d, mid - 6),
            ],
            outline,
        ))
        .map_err(err)?;
    }
    // Ours: the interval as a bar with caps (open-ended where it runs off the scale), the
    // estimate as a dot.
    let bar = ShapeStyle::from(&OURS).stroke_width(3);
    let (l, h) = (px(f.low.max(s.axis.lo)), px(f.high.min(s.axis.hi)));
    if h > l {
        root.draw(&PathElement::new(vec![(l, mid), (h, mid)], bar))
            .map_err(err)?;
        for (x, finite) in [(l, f.low.is_finite()), (h, f.high.is_finite())] {
            if finite {
                root.draw(&PathElement::new(
                    vec![(x, mid - 6), (x, mid + 6)],
                    ShapeStyle::from(&OURS).stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
    }
    let v = px(f.value);
    root.draw(&Circle::new((v, mid), 5, WHITE.filled()))
        .map_err(err)?;
    root.draw(&Circle::new((v, mid), 4, OURS.filled()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Ours, Part};

    fn claim(verdict: Verdict, ours: Ours, rule: Rule) -> ClaimResult {
        let mut c = crate::report::tests::claim("seed000-x", Kind::Measured, verdict, ours);
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
        assert!(svg.contains(
            "ours 1.95\u{a0}s [1.92, 1.98] · accepted: ≥\u{a0}1.1\u{a0}s · inside the band"
        ));
        // Only what some strip shows is in the legend.
        assert!(!svg.contains("the paper's figure"));
        assert_eq!(plotted(&[&a, &b]), 1);
        assert!(render(&[&b]).unwrap().is_none());
    }
}
