//! The axes of the report's charts: which scale (linear from zero, fitted, or logarithmic
//! where values span decades), where the ticks go (the data's own x values where they are
//! few, round numbers otherwise, thinned so that no two labels overlap) and how they read.
use crate::results::ValueAxis;

/// Size in pixels of the charts' ordinary text (ticks, legends, labels): at least 12 px when
/// a chart is shown at its own width (760 px), which it is at the least on an 800 px window.
pub const TEXT_PX: f64 = 12.5;

/// plotters' SVG backend writes a font size of `size / 1.24` (its em-box convention): the size
/// to ask for so that the SVG says `px`.
pub fn font_size(px: f64) -> f64 {
    px * 1.24
}

/// Estimated width in pixels of `text` in sans-serif at `px` (a little generous, so that text
/// placed by this estimate never overlaps: DejaVu Sans, the widest common default, averages
/// about 0.6 em a character).
pub fn text_w(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.6 + 2.0
}

/// Estimated width in pixels of `text` at [`TEXT_PX`].
pub fn text_px(text: &str) -> f64 {
    text_w(text, TEXT_PX)
}

/// One axis: its range, whether it is logarithmic, and its ticks, all in data units.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Logarithmic (drawn in log10 units).
    pub log: bool,
    /// Lower end, in data units.
    pub lo: f64,
    /// Upper end, in data units.
    pub hi: f64,
    /// Tick positions, in data units.
    pub ticks: Vec<f64>,
}

impl Axis {
    /// An empty linear axis over [0, 1].
    pub const NONE: Axis = Axis {
        log: false,
        lo: 0.0,
        hi: 1.0,
        ticks: Vec::new(),
    };

    /// A value in drawing units (log10 on a logarithmic axis).
    pub fn to(&self, v: f64) -> f64 {
        if self.log { v.log10() } else { v }
    }

    /// The axis' range in drawing units.
    pub fn range(&self) -> std::ops::Range<f64> {
        self.to(self.lo)..self.to(self.hi)
    }

    /// The ticks in drawing units.
    pub fn key_points(&self) -> Vec<f64> {
        self.ticks.iter().map(|&t| self.to(t)).collect()
    }

    /// The label of the tick at `v` (drawing units).
    pub fn label(&self, v: f64) -> String {
        number(if self.log { 10f64.powf(v) } else { v })
    }

    /// Drops ticks until no two labels overlap on an axis `px` pixels long (`along`: the
    /// labels' width counts; across, as on a y axis, their height of about 16 px).
    pub fn thin(mut self, px: f64, along: bool) -> Self {
        let (lo, hi) = (self.to(self.lo), self.to(self.hi));
        if hi <= lo || self.ticks.len() < 2 {
            return self;
        }
        let at = |t: f64| (self.to(t) - lo) / (hi - lo) * px;
        let size = |t: f64| {
            if along {
                text_px(&number(t)) + 6.0
            } else {
                TEXT_PX + 6.0
            }
        };
        let widest = self.ticks.iter().map(|&t| size(t)).fold(0.0, f64::max);
        let mut kept: Vec<f64> = Vec::new();
        for &t in &self.ticks {
            if kept.last().is_none_or(|&k| at(t) - at(k) >= widest) {
                kept.push(t);
            }
        }
        self.ticks = kept;
        self
    }
}

/// A number as a tick reads it: integers plainly, others with at most 4 significant digits
/// and no trailing zeros, very large or small ones in e-notation.
pub fn number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_finite() {
            "0".into()
        } else {
            v.to_string()
        };
    }
    let a = v.abs();
    if !(1e-4..1e7).contains(&a) {
        let s = format!("{v:.2e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{e}", trim(m));
    }
    let digits = (3 - a.log10().floor() as i32).clamp(0, 8) as usize;
    trim(&format!("{v:.digits$}"))
}

fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Round-number ticks covering [lo, hi], about `n` of them.
pub fn nice_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag);
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks of a logarithmic axis over [lo, hi]: 1-2-5 in each decade over a few decades, the
/// decades alone over many, and round numbers inside a range narrower than a decade.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let decades = (hi / lo).log10();
    let steps: &[f64] = if decades <= 1.2 {
        &[1.0, 2.0, 3.0, 5.0, 7.0]
    } else if decades <= 3.5 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let every = if decades > 8.0 { 2 } else { 1 };
    let mut v = Vec::new();
    for k in (lo.log10().floor() as i32)..=(hi.log10().ceil() as i32) {
        if k.rem_euclid(every) != 0 {
            continue;
        }
        for m in steps {
            let t = m * 10f64.powi(k);
            if t >= lo * 0.9999 && t <= hi * 1.0001 {
                v.push(t);
            }
        }
    }
    if v.len() < 3 {
        v = nice_ticks(lo, hi, 4)
            .into_iter()
            .filter(|t| *t > 0.0)
            .collect();
    }
    v
}

/// The value axis for `values` (data, intervals and reference values), scaled as `mode`
/// says; `auto` decides between logarithmic (positive values over two decades or more) and
/// linear from zero.
pub fn value_axis(values: &[f64], mode: ValueAxis, allow_log: bool) -> Axis {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    let (min, max) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if v.is_empty() {
        return Axis {
            log: false,
            lo: 0.0,
            hi: 1.0,
            ticks: nice_ticks(0.0, 1.0, 5),
        };
    }
    let positive = min > 0.0;
    let log = allow_log
        && positive
        && match mode {
            ValueAxis::Log => true,
            ValueAxis::Auto => max / min >= 100.0,
            _ => false,
        };
    if log {
        let lo = 10f64.powf(min.log10().floor());
        let mut hi = 10f64.powf(max.log10().ceil());
        if hi <= lo {
            hi = lo * 10.0;
        }
        return Axis {
            log: true,
            lo,
            hi,
            ticks: log_ticks(lo, hi),
        };
    }
    let (lo, hi) = if mode == ValueAxis::Fit {
        let pad = ((max - min) * 0.1).max(max.abs() * 0.01).max(1e-12);
        (min - pad, max + pad)
    } else {
        (min.min(0.0), max.max(0.0))
    };
    let hi = if hi > lo { hi } else { lo + 1.0 };
    let ticks = nice_ticks(lo, hi, 5);
    let step = if ticks.len() > 1 {
        ticks[1] - ticks[0]
    } else {
        hi - lo
    };
    // Extend to the tick just outside the data at either end.
    let lo2 = if ticks[0] > lo + 1e-12 {
        ticks[0] - step
    } else {
        lo
    };
    let last = *ticks.last().unwrap_or(&hi);
    let hi2 = if last < hi - 1e-12 { last + step } else { hi };
    let mut ticks = nice_ticks(lo2, hi2, 5);
    ticks.retain(|t| *t >= lo2 - 1e-12 && *t <= hi2 + 1e-12);
    Axis {
        log: false,
        lo: lo2,
        hi: hi2,
        ticks,
    }
}

/// The x axis of a line chart over the x values `xs`: logarithmic when `log` (and all are
/// positive); ticks at the data's own x values (nodes, threads, sizes) when there are at most
/// 12 of them, else round numbers; padded so that no marker sits on the frame.
pub fn x_axis(xs: &[f64], log: bool) -> Axis {
    let mut d: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    d.sort_by(f64::total_cmp);
    d.dedup();
    let (Some(&min), Some(&max)) = (d.first(), d.last()) else {
        return Axis {
            log: false,
            lo: 0.0,
            hi: 1.0,
            ticks: vec![0.0, 1.0],
        };
    };
    let log = log && min > 0.0 && max > min;
    if log {
        let pad = ((max / min).log10() * 0.04).max(0.02);
        let (lo, hi) = (min / 10f64.powf(pad), max * 10f64.powf(pad));
        let ticks = if d.len() <= 12 { d } else { log_ticks(lo, hi) };
        return Axis {
            log: true,
            lo,
            hi,
            ticks,
        };
    }
    let span = if max > min {
        max - min
    } else {
        max.abs().max(1.0)
    };
    let (lo, hi) = (min - span * 0.04, max + span * 0.04);
    let ticks = if d.len() <= 12 {
        d
    } else {
        nice_ticks(lo, hi, 6)
    };
    Axis {
        log: false,
        lo,
        hi,
        ticks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_plainly() {
        assert_eq!(number(400.0), "400");
        assert_eq!(number(0.03), "0.03");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(0.4567891), "0.4568");
        assert_eq!(number(123456.0), "123456");
        assert_eq!(number(2.5e9), "2.5e9");
        assert_eq!(number(10f64.powf(2f64.log10())), "2");
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(
            nice_ticks(0.0, 10.0, 5),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(
            log_ticks(1.0, 1000.0),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]
        );
    }

    #[test]
    fn ratios_start_at_zero_and_decades_go_log() {
        let a = value_axis(&[0.42, 0.46], ValueAxis::Auto, true);
        assert!(!a.log && a.lo == 0.0 && a.hi >= 0.46, "{a:?}");
        let b = value_axis(&[0.5, 1.0, 90.0], ValueAxis::Auto, true);
        assert!(b.log && b.lo == 0.1 && b.hi == 100.0, "{b:?}");
        assert!(b.ticks.contains(&1.0));
        let c = value_axis(&[0.5, 90.0], ValueAxis::Zero, true);
        assert!(!c.log && c.lo == 0.0);
        let f = value_axis(&[300.0, 340.0], ValueAxis::Fit, true);
        assert!(f.lo > 250.0 && f.hi < 400.0, "{f:?}");
    }

    #[test]
    fn few_x_values_are_the_ticks_and_crowded_ones_thin_out() {
        let a = x_axis(&[22.0, 32.0, 45.0, 65.0, 90.0, 22.0], false);
        assert_eq!(a.ticks, vec![22.0, 32.0, 45.0, 65.0, 90.0]);
        let b = x_axis(&[0.03, 0.031, 0.032, 0.09], true);
        assert!(b.log && b.ticks.len() == 4);
        let many: Vec<f64> = (0..12).map(|i| 1000.0 + i as f64).collect();
        let c = x_axis(&many, false).thin(200.0, true);
        assert!(c.ticks.len() < 12 && c.ticks.len() >= 2, "{c:?}");
    }
}
