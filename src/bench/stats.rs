//! Statistics of a set of timing samples: median, mean, spread, and a distribution-free 95 %
//! confidence interval of the median, with a flag (and a note for people) when the spread says
//! the machine was noisy.
//!
//! Timings are skewed (a run can only be slowed down, not sped up), so the median and an
//! order-statistic interval around it are the honest summary; the mean and standard deviation
//! are reported too because papers use them.
use super::clock::Seconds;
use serde::{Deserialize, Serialize};

/// The confidence level of [`Summary::ci95_low`]..[`Summary::ci95_high`].
pub const CONFIDENCE: f64 = 0.95;
/// Fewest runs for which an order-statistic interval can reach 95 % (5 runs give 93.75 %).
pub const MIN_RUNS_FOR_CI: usize = 6;
/// `wide_spread` when `(max - min) / median` exceeds this.
pub const WIDE_RANGE: f64 = 0.25;
/// `wide_spread` when the interval's half-width divided by the median exceeds this.
pub const WIDE_CI: f64 = 0.10;

/// Summary statistics of the samples of one benchmark (all times in seconds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of samples summarised.
    pub runs: usize,
    /// Median (the mean of the two middle samples when `runs` is even).
    pub median: Seconds,
    /// Arithmetic mean.
    pub mean: Seconds,
    /// Fastest sample.
    pub min: Seconds,
    /// Slowest sample.
    pub max: Seconds,
    /// Sample standard deviation (divisor `runs - 1`; 0 for a single sample).
    pub stddev: Seconds,
    /// Lower end of the 95 % confidence interval of the median (an order statistic).
    pub ci95_low: Seconds,
    /// Upper end of the 95 % confidence interval of the median (an order statistic).
    pub ci95_high: Seconds,
    /// The spread is too wide to trust small differences: `(max - min) / median > 0.25` or
    /// `(ci95_high - ci95_low) / 2 / median > 0.10`.
    pub wide_spread: bool,
}

/// The ranks of the order statistics that bound a confidence interval of the median.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianCi {
    /// 1-based rank of the lower bound in the sorted samples.
    pub low_rank: usize,
    /// 1-based rank of the upper bound in the sorted samples.
    pub high_rank: usize,
    /// Probability that the true median lies between the two order statistics.
    pub coverage: f64,
}

impl MedianCi {
    /// Whether the interval reaches the 95 % confidence level (false when `n < 6`).
    pub fn reaches_95(&self) -> bool {
        self.coverage >= CONFIDENCE
    }
}

/// The narrowest symmetric order-statistic interval `[X_(j), X_(n+1-j)]` of the median of `n`
/// samples with coverage at least 95 %.
///
/// The number of samples below the true median is Binomial(n, 1/2), whatever the distribution
/// of the samples, so the interval covers the median with probability `1 - 2 P(B <= j - 1)`.
/// When even `j = 1` (min..max) falls short of 95 % (`n < 6`), min..max is returned with its
/// lower coverage; see [`MedianCi::reaches_95`]. `n = 0` gives ranks `(0, 0)`.
pub fn median_ci_ranks(n: usize) -> MedianCi {
    if n == 0 {
        return MedianCi {
            low_rank: 0,
            high_rank: 0,
            coverage: 0.0,
        };
    }
    // Binomial(n, 1/2) probabilities in log space, so n in the millions does not underflow.
    let nf = n as f64;
    let mut log_pmf = -nf * std::f64::consts::LN_2;
    let mut cdf = log_pmf.exp(); // P(B <= 0)
    let mut j = 1; // current interval [X_(j), X_(n+1-j)], coverage 1 - 2 P(B <= j - 1)
    let mut coverage = 1.0 - 2.0 * cdf;
    loop {
        // Try j + 1: its coverage is 1 - 2 P(B <= j).
        let k = j as f64;
        log_pmf += (nf - (k - 1.0)).ln() - k.ln();
        let next_cdf = cdf + log_pmf.exp();
        let next_coverage = 1.0 - 2.0 * next_cdf;
        if next_coverage < CONFIDENCE || j + 1 > n + 1 - (j + 1) {
            break;
        }
        j += 1;
        cdf = next_cdf;
        coverage = next_coverage;
    }
    MedianCi {
        low_rank: j,
        high_rank: n + 1 - j,
        coverage,
    }
}

/// Median of samples sorted in ascending order (`NaN` when empty).
pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// `part / median`, defined as 0 for no spread and infinity for spread around a zero median.
fn relative(part: f64, median: f64) -> f64 {
    if part == 0.0 {
        0.0
    } else if median > 0.0 {
        part / median
    } else {
        f64::INFINITY
    }
}

impl Summary {
    /// Summarises samples. Non-finite samples are dropped; `None` when nothing is left.
    pub fn from_samples(samples: &[Seconds]) -> Option<Summary> {
        let mut sorted: Vec<f64> = samples.iter().copied().filter(|s| s.is_finite()).collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            let ss: f64 = sorted.iter().map(|s| (s - mean) * (s - mean)).sum();
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let median = median_of_sorted(&sorted);
        let ci = median_ci_ranks(n);
        let (min, max) = (sorted[0], sorted[n - 1]);
        let (ci95_low, ci95_high) = (sorted[ci.low_rank - 1], sorted[ci.high_rank - 1]);
        let wide_spread = relative(max - min, median) > WIDE_RANGE
            || relative((ci95_high - ci95_low) / 2.0, median) > WIDE_CI;
        Some(Summary {
            runs: n,
            median,
            mean,
            min,
            max,
            stddev,
            ci95_low,
            ci95_high,
            wide_spread,
        })
    }

    /// `(max - min) / median`.
    pub fn relative_range(&self) -> f64 {
        relative(self.max - self.min, self.median)
    }

    /// Half-width of the confidence interval divided by the median.
    pub fn relative_ci_half_width(&self) -> f64 {
        relative((self.ci95_high - self.ci95_low) / 2.0, self.median)
    }

    /// A warning for people, or `None` when the numbers can be trusted as they are.
    ///
    /// For example "wide spread: (max-min)/median = 43 %; machine noisy?", or a remark that
    /// fewer than 6 runs cannot give a 95 % interval (min..max is shown instead).
    pub fn note(&self) -> Option<String> {
        let mut notes = Vec::new();
        if self.runs < MIN_RUNS_FOR_CI {
            notes.push(format!(
                "only {} run(s): too few for a 95 % interval of the median, min..max shown",
                self.runs
            ));
        }
        if self.wide_spread {
            let range = self.relative_range();
            let spread = if range > WIDE_RANGE {
                format!("(max-min)/median = {:.0} %", range * 100.0)
            } else {
                let half = self.relative_ci_half_width();
                format!("95 % interval of the median = ±{:.0} %", half * 100.0)
            };
            notes.push(format!("wide spread: {spread}; machine noisy?"));
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn ranks_match_hand_computed_binomial_tables() {
        // n = 6: min..max covers 1 - 2/64.
        assert_eq!(
            median_ci_ranks(6),
            MedianCi {
                low_rank: 1,
                high_rank: 6,
                coverage: 0.96875
            }
        );
        // n = 10: P(B <= 1) = 11/1024, P(B <= 2) = 56/1024 > 0.025, so ranks 2 and 9.
        let ci = median_ci_ranks(10);
        assert_eq!((ci.low_rank, ci.high_rank), (2, 9));
        assert!(close(ci.coverage, 1.0 - 22.0 / 1024.0));
        // n = 20: P(B <= 5) = 21700/2^20 = 0.0207, P(B <= 6) = 0.0577, so ranks 6 and 15.
        let ci = median_ci_ranks(20);
        assert_eq!((ci.low_rank, ci.high_rank), (6, 15));
        assert!(close(ci.coverage, 1.0 - 2.0 * 21700.0 / 1048576.0));
    }

    #[test]
    fn fewer_than_six_runs_cannot_reach_95_percent() {
        let ci = median_ci_ranks(5);
        assert_eq!((ci.low_rank, ci.high_rank), (1, 5));
        assert!(close(ci.coverage, 0.9375) && !ci.reaches_95());
        assert_eq!(
            (median_ci_ranks(1).low_rank, median_ci_ranks(1).high_rank),
            (1, 1)
        );
        assert_eq!(median_ci_ranks(0).low_rank, 0);
        assert!(median_ci_ranks(6).reaches_95());
    }

    #[test]
    fn large_n_does_not_underflow() {
        // Normal approximation: 500 - 1.96 * sqrt(1000) / 2 = 469.
        let ci = median_ci_ranks(1000);
        assert!((468..=470).contains(&ci.low_rank), "{ci:?}");
        assert_eq!(ci.high_rank, 1001 - ci.low_rank);
        assert!(ci.reaches_95() && ci.coverage < 0.96);
        assert!(median_ci_ranks(1_000_000).reaches_95());
    }

    #[test]
    fn summary_of_one_to_ten() {
        let samples = [7.0, 3.0, 10.0, 1.0, 5.0, 2.0, 9.0, 4.0, 8.0, 6.0];
        let s = Summary::from_samples(&samples).unwrap();
        assert_eq!(
            (s.runs, s.median, s.mean, s.min, s.max),
            (10, 5.5, 5.5, 1.0, 10.0)
        );
        // sum of squared deviations = 82.5, divided by n - 1 = 9.
        assert!(close(s.stddev, (82.5f64 / 9.0).sqrt()));
        assert_eq!((s.ci95_low, s.ci95_high), (2.0, 9.0));
        assert!(s.wide_spread);
        assert_eq!(
            s.note().unwrap(),
            "wide spread: (max-min)/median = 164 %; machine noisy?"
        );
    }

    #[test]
    fn five_quiet_runs_use_min_max_and_say_so() {
        let s = Summary::from_samples(&[1.0, 1.02, 0.98, 1.01, 0.99]).unwrap();
        assert_eq!((s.median, s.ci95_low, s.ci95_high), (1.0, 0.98, 1.02));
        assert!(close(s.mean, 1.0));
        assert!(close(s.stddev, 0.00025f64.sqrt()));
        assert!(!s.wide_spread);
        assert_eq!(
            s.note().unwrap(),
            "only 5 run(s): too few for a 95 % interval of the median, min..max shown"
        );
    }

    #[test]
    fn even_median_single_sample_and_empty() {
        let s = Summary::from_samples(&[3.0, 1.0, 4.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        let one = Summary::from_samples(&[0.5]).unwrap();
        assert_eq!(
            (one.median, one.stddev, one.ci95_low, one.ci95_high),
            (0.5, 0.0, 0.5, 0.5)
        );
        assert!(!one.wide_spread);
        assert!(Summary::from_samples(&[]).is_none());
        assert!(Summary::from_samples(&[f64::NAN]).is_none());
    }

    #[test]
    fn wide_interval_alone_flags_the_spread() {
        // 20 runs: ranks 6 and 15 are 0.88 and 1.12 (half-width 12 %), range 24 % < 25 %.
        let mut samples = vec![0.88; 6];
        samples.extend([1.0; 8]);
        samples.extend([1.12; 6]);
        let s = Summary::from_samples(&samples).unwrap();
        assert_eq!((s.ci95_low, s.ci95_high, s.median), (0.88, 1.12, 1.0));
        assert!(s.relative_range() < WIDE_RANGE);
        assert!(s.wide_spread);
        assert_eq!(
            s.note().unwrap(),
            "wide spread: 95 % interval of the median = ±12 %; machine noisy?"
        );
        let quiet = Summary::from_samples(&[1.0; 20]).unwrap();
        assert!(!quiet.wide_spread && quiet.note().is_none());
    }

    #[test]
    fn summary_round_trips_through_json() {
        let s = Summary::from_samples(&[1.0, 2.0, 3.0]).unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.starts_with("{\"runs\":3,\"median\":2.0,"));
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), s);
    }
}
