//! Statistics of a set of timing samples: median, mean, spread, a distribution-free 95 %
//! confidence interval of the median (only where the runs can give one), and the outliers by
//! Tukey's fences, as criterion and hyperfine classify them, with a note for people when the
//! machine looked noisy.
//!
//! Timings are skewed (a run can only be slowed down, not sped up), so the median and an
//! order-statistic interval around it are the honest summary; the mean and standard deviation
//! are reported too because papers use them. Fewer than [`MIN_RUNS_FOR_CI`] runs cannot give
//! a 95 % interval of the median: the interval is then absent (`None`), never min..max under
//! the interval's name.
use super::clock::Seconds;
use serde::{Deserialize, Serialize};

/// The confidence level of [`Summary::ci95_low`]..[`Summary::ci95_high`].
pub const CONFIDENCE: f64 = 0.95;
/// Fewest runs for which an order-statistic interval can reach 95 % (5 runs give 93.75 %).
pub const MIN_RUNS_FOR_CI: usize = 6;
/// Tukey's inner fences: a sample more than this many interquartile ranges below the first
/// quartile or above the third is an outlier ("mild" up to [`SEVERE_IQR`]).
pub const MILD_IQR: f64 = 1.5;
/// Tukey's outer fences: beyond this many interquartile ranges, a "severe" outlier.
pub const SEVERE_IQR: f64 = 3.0;

/// The samples outside Tukey's fences, by side and distance (criterion's four classes).
///
/// The quartiles are interpolated between order statistics (criterion's and numpy's default);
/// fewer than 4 samples can never have an outlier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Outliers {
    /// Below `Q1 - 3 IQR`.
    pub low_severe: usize,
    /// Between `Q1 - 3 IQR` and `Q1 - 1.5 IQR`.
    pub low_mild: usize,
    /// Between `Q3 + 1.5 IQR` and `Q3 + 3 IQR`.
    pub high_mild: usize,
    /// Above `Q3 + 3 IQR`.
    pub high_severe: usize,
}

impl Outliers {
    /// Classifies samples sorted in ascending order.
    pub fn of_sorted(sorted: &[f64]) -> Self {
        let mut out = Outliers::default();
        if sorted.len() < 4 {
            return out;
        }
        let (q1, q3) = (
            quantile_of_sorted(sorted, 0.25),
            quantile_of_sorted(sorted, 0.75),
        );
        let iqr = q3 - q1;
        for &x in sorted {
            if x < q1 - SEVERE_IQR * iqr {
                out.low_severe += 1;
            } else if x < q1 - MILD_IQR * iqr {
                out.low_mild += 1;
            } else if x > q3 + SEVERE_IQR * iqr {
                out.high_severe += 1;
            } else if x > q3 + MILD_IQR * iqr {
                out.high_mild += 1;
            }
        }
        out
    }

    /// Mild outliers, both sides.
    pub fn mild(&self) -> usize {
        self.low_mild + self.high_mild
    }

    /// Severe outliers, both sides.
    pub fn severe(&self) -> usize {
        self.low_severe + self.high_severe
    }

    /// Every outlier.
    pub fn total(&self) -> usize {
        self.mild() + self.severe()
    }

    /// Criterion's sentence, e.g. "2 outliers among 10 runs (20 %): 1 high mild, 1 high
    /// severe"; `None` without outliers.
    pub fn describe(&self, runs: usize) -> Option<String> {
        if self.total() == 0 {
            return None;
        }
        let parts: Vec<String> = [
            (self.low_severe, "low severe"),
            (self.low_mild, "low mild"),
            (self.high_mild, "high mild"),
            (self.high_severe, "high severe"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        Some(format!(
            "{} outlier{} among {runs} runs ({:.0} %, Tukey's fences): {}",
            self.total(),
            if self.total() == 1 { "" } else { "s" },
            100.0 * self.total() as f64 / runs.max(1) as f64,
            parts.join(", ")
        ))
    }
}

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
    /// Lower end of the 95 % confidence interval of the median (an order statistic); `None`
    /// with fewer than [`MIN_RUNS_FOR_CI`] runs, which cannot give one.
    pub ci95_low: Option<Seconds>,
    /// Upper end of the 95 % confidence interval of the median; `None` as `ci95_low`.
    pub ci95_high: Option<Seconds>,
    /// The samples outside Tukey's fences.
    pub outliers: Outliers,
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

/// Bootstrap resamples per interval, here and in the study.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// `resamples` bootstrap resamples of `n` paired rounds: each the indices of `n` rounds drawn
/// with replacement (whole rounds, so values measured together stay together), from a
/// generator seeded with `seed`, so the same rounds always give the same interval.
pub fn bootstrap_resamples(
    n: usize,
    resamples: usize,
    seed: u64,
) -> impl Iterator<Item = Vec<usize>> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..resamples).map(move |_| (0..n).map(|_| rng.gen_range(0..n.max(1))).collect())
}

/// The 95 % percentile interval of a statistic's bootstrap values — their 2.5th and 97.5th
/// percentiles (non-finite values dropped) — or `None` when fewer than half of `resamples`
/// were finite.
pub fn percentile_interval(mut values: Vec<f64>, resamples: usize) -> Option<(f64, f64)> {
    values.retain(|v| v.is_finite());
    if values.is_empty() || values.len() < resamples / 2 {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Some((at(0.025), at(0.975)))
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

/// The median of samples in any order (`NaN` when empty).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    median_of_sorted(&values)
}

/// The `q` quantile (0 to 1) of samples sorted in ascending order, interpolated linearly
/// between order statistics (`NaN` when empty).
pub fn quantile_of_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => {
            let at = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let (i, frac) = (at.floor() as usize, at.fract());
            match sorted.get(i + 1) {
                Some(next) if frac > 0.0 => sorted[i] + frac * (next - sorted[i]),
                _ => sorted[i],
            }
        }
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
        let (ci95_low, ci95_high) = if ci.reaches_95() {
            (
                Some(sorted[ci.low_rank - 1]),
                Some(sorted[ci.high_rank - 1]),
            )
        } else {
            (None, None)
        };
        Some(Summary {
            runs: n,
            median,
            mean,
            min: sorted[0],
            max: sorted[n - 1],
            stddev,
            ci95_low,
            ci95_high,
            outliers: Outliers::of_sorted(&sorted),
        })
    }

    /// The 95 % interval of the median `(low, high)`, when the runs can give one.
    pub fn ci95(&self) -> Option<(Seconds, Seconds)> {
        self.ci95_low.zip(self.ci95_high)
    }

    /// A warning for people, or `None` when the numbers can be trusted as they are.
    ///
    /// For example "1 outlier among 10 runs (10 %, Tukey's fences): 1 high severe; machine
    /// noisy?", or a remark that fewer than 6 runs give no 95 % interval of the median.
    pub fn note(&self) -> Option<String> {
        let mut notes = Vec::new();
        if self.runs < MIN_RUNS_FOR_CI {
            notes.push(format!(
                "only {} run(s): too few for a 95 % interval of the median (ci95 left empty; min and max given)",
                self.runs
            ));
        }
        if let Some(outliers) = self.outliers.describe(self.runs) {
            notes.push(format!("{outliers}; machine noisy?"));
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
        assert_eq!(s.ci95(), Some((2.0, 9.0)));
        // An even spread has no outlier, however wide it is.
        assert_eq!(s.outliers, Outliers::default());
        assert!(s.note().is_none());
    }

    #[test]
    fn five_runs_give_no_interval_and_say_so() {
        let s = Summary::from_samples(&[1.0, 1.02, 0.98, 1.01, 0.99]).unwrap();
        assert_eq!((s.median, s.min, s.max), (1.0, 0.98, 1.02));
        assert_eq!((s.ci95_low, s.ci95_high, s.ci95()), (None, None, None));
        assert!(close(s.mean, 1.0));
        assert!(close(s.stddev, 0.00025f64.sqrt()));
        assert_eq!(
            s.note().unwrap(),
            "only 5 run(s): too few for a 95 % interval of the median (ci95 left empty; min and max given)"
        );
        let six = Summary::from_samples(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.0]).unwrap();
        assert_eq!(
            six.ci95(),
            Some((0.98, 1.02)),
            "6 runs: min..max covers 96.9 %"
        );
    }

    #[test]
    fn even_median_single_sample_and_empty() {
        let s = Summary::from_samples(&[3.0, 1.0, 4.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        let one = Summary::from_samples(&[0.5]).unwrap();
        assert_eq!((one.median, one.stddev, one.ci95()), (0.5, 0.0, None));
        assert_eq!(one.outliers.total(), 0);
        assert!(Summary::from_samples(&[]).is_none());
        assert!(Summary::from_samples(&[f64::NAN]).is_none());
    }

    #[test]
    fn quartiles_interpolate_between_order_statistics() {
        let v = [1.0, 2.0, 3.0, 4.0];
        // numpy.percentile([1, 2, 3, 4], [0, 25, 50, 75, 100]) = 1, 1.75, 2.5, 3.25, 4.
        let q: Vec<f64> = [0.0, 0.25, 0.5, 0.75, 1.0]
            .iter()
            .map(|&q| quantile_of_sorted(&v, q))
            .collect();
        assert_eq!(q, [1.0, 1.75, 2.5, 3.25, 4.0]);
        assert!(quantile_of_sorted(&[], 0.5).is_nan());
        assert_eq!(quantile_of_sorted(&[7.0], 0.25), 7.0);
    }

    #[test]
    fn tukeys_fences_classify_mild_and_severe_outliers_on_both_sides() {
        // Twenty runs of 1.00..1.19 and five more: sorted, Q1 is the 7th (1.04) and Q3 the
        // 19th (1.16), IQR = 0.12; mild beyond 1.5 IQR (0.86, 1.34), severe beyond 3 IQR
        // (0.68, 1.52).
        let mut v: Vec<f64> = (0..20).map(|i| 1.0 + 0.01 * f64::from(i)).collect();
        v.extend([1.5, 1.6, 2.0, 0.85, 0.5]);
        let s = Summary::from_samples(&v).unwrap();
        let o = s.outliers;
        assert_eq!(
            (o.low_severe, o.low_mild, o.high_mild, o.high_severe),
            (1, 1, 1, 2),
            "{o:?}"
        );
        assert_eq!((o.mild(), o.severe(), o.total()), (2, 3, 5));
        assert_eq!(
            s.note().unwrap(),
            "5 outliers among 25 runs (20 %, Tukey's fences): 1 low severe, 1 low mild, 1 high mild, 2 high severe; machine noisy?"
        );
        // Three samples can never be outliers; four can.
        assert_eq!(Outliers::of_sorted(&[1.0, 1.0, 100.0]).total(), 0);
        assert_eq!(Outliers::of_sorted(&[1.0, 1.0, 1.0, 10.0]).high_mild, 1);
        // Identical runs: IQR 0, nothing outside.
        let quiet = Summary::from_samples(&[1.0; 20]).unwrap();
        assert!(quiet.outliers.total() == 0 && quiet.note().is_none());
    }

    #[test]
    fn bootstrap_resamples_are_seeded_rounds_with_replacement() {
        let a: Vec<Vec<usize>> = bootstrap_resamples(5, 3, 7).collect();
        let b: Vec<Vec<usize>> = bootstrap_resamples(5, 3, 7).collect();
        assert_eq!(a, b, "the same seed gives the same resamples");
        assert_eq!(a.len(), 3);
        assert!(a.iter().all(|r| r.len() == 5 && r.iter().all(|&i| i < 5)));
        let other: Vec<Vec<usize>> = bootstrap_resamples(5, 3, 8).collect();
        assert_ne!(a, other);
        // 0..=1000 as the bootstrap values: the 2.5th and 97.5th percentiles are 25 and 975.
        let values: Vec<f64> = (0..=1000).map(f64::from).collect();
        assert_eq!(percentile_interval(values, 1001), Some((25.0, 975.0)));
        // One finite value of four resamples: fewer than half, no interval.
        let mostly_nan = vec![f64::NAN, f64::NAN, f64::NAN, 1.0];
        assert_eq!(percentile_interval(mostly_nan, 4), None);
    }

    #[test]
    fn summary_round_trips_through_json() {
        let s = Summary::from_samples(&[1.0, 2.0, 3.0]).unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.starts_with("{\"runs\":3,\"median\":2.0,"));
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), s);
    }
}
