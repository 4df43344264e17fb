//! Welch's t-test on two classes of timings, as dudect uses it to find timing leaks (Reparaz,
//! Balasch and Verbauwhede, "Dude, is my code constant time?", DATE 2017).
//!
//! Two classes of inputs are timed, interleaved in random order; if their mean times differ, the
//! code leaks which class an input belongs to. Welch's t = (m0 − m1) / √(v0/n0 + v1/n1)
//! (sample means m, unbiased variances v, counts n) measures the difference in standard errors;
//! |t| at or above [`THRESHOLD`] = 4.5 is dudect's "leak found" (a false alarm on equal classes has a
//! probability near 10⁻⁵ per test). Timings have a long upper tail (interrupts, other
//! processes), which hides small shifts; dudect therefore also tests the samples cropped at
//! several upper percentiles ([`crop_percentiles`]) and reports the largest |t|.
//!
//! Pure arithmetic on numbers given to it: what is timed, and how, is the caller's business
//! (`crate::suites::leak`).

/// dudect's threshold on |t| for "leak found".
pub const THRESHOLD: f64 = 4.5;

/// Count, mean and sum of squared deviations of a stream of values (Welford's algorithm: no
/// loss of precision on large counts of close values).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    n: usize,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one value.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// The number of values.
    pub fn count(&self) -> usize {
        self.n
    }

    /// Their mean (0 for none).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Their unbiased variance (0 for fewer than two).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }
}

/// Welch's t of class 0 against class 1: `None` when either class has fewer than two values or
/// both have no spread at all (the statistic is undefined there).
pub fn welch_t(a: &Moments, b: &Moments) -> Option<f64> {
    Some((a.mean() - b.mean()) / standard_error(a, b)?)
}

/// The standard error of the difference of the two means, √(v0/n0 + v1/n1): the denominator of
/// Welch's t (`None` where t is undefined).
pub fn standard_error(a: &Moments, b: &Moments) -> Option<f64> {
    if a.count() < 2 || b.count() < 2 {
        return None;
    }
    let se2 = a.variance() / a.count() as f64 + b.variance() / b.count() as f64;
    (se2 > 0.0).then(|| se2.sqrt())
}

/// dudect's crop levels: the percentiles 1 − 0.5^(10·(i+1)/`count`) for i in 0..`count`
/// (dudect uses `count` = 100; 10 gives 50 %, 75 %, 87.5 %, …, 99.9 %).
pub fn crop_percentiles(count: usize) -> Vec<f64> {
    (0..count)
        .map(|i| 1.0 - 0.5f64.powf(10.0 * (i + 1) as f64 / count as f64))
        .collect()
}

/// One t-test: the samples kept (those at or below the crop level's value, all of them
/// uncropped) and its t.
#[derive(Clone, Debug, PartialEq)]
pub struct CropTest {
    /// The crop level as a fraction (0.75: the fastest 75 % of all samples); `None`: uncropped.
    pub percentile: Option<f64>,
    /// Samples of class 0 and class 1 kept.
    pub counts: [usize; 2],
    /// Welch's t (`None` where undefined).
    pub t: Option<f64>,
    /// The standard error of the difference of the means (`None` where t is undefined).
    pub standard_error: Option<f64>,
}

/// The result of a leak test on two classes of timings.
#[derive(Clone, Debug, PartialEq)]
pub struct LeakTest {
    /// Samples of class 0 and class 1.
    pub counts: [usize; 2],
    /// The uncropped test, then one per crop level.
    pub tests: Vec<CropTest>,
}

impl LeakTest {
    /// The test with the largest |t| (the first if several tie; `None` if no t is defined).
    pub fn max(&self) -> Option<&CropTest> {
        self.tests
            .iter()
            .filter(|c| c.t.is_some())
            .fold(None, |best: Option<&CropTest>, c| match best {
                Some(b) if b.t.unwrap().abs() >= c.t.unwrap().abs() => Some(b),
                _ => Some(c),
            })
    }

    /// The largest |t| (0 where no t is defined).
    pub fn max_abs_t(&self) -> f64 {
        self.max().and_then(|c| c.t).map_or(0.0, f64::abs)
    }

    /// The smallest difference of means these samples would flag: [`THRESHOLD`] times the
    /// smallest standard error over the tests (a leak that shifts every time of one class by
    /// more than this gives |t| > 4.5 at that crop level). `None` where no t is defined.
    pub fn resolution(&self) -> Option<f64> {
        self.tests
            .iter()
            .filter_map(|c| c.standard_error)
            .min_by(f64::total_cmp)
            .map(|se| THRESHOLD * se)
    }

    /// Whether the largest |t| reaches [`THRESHOLD`].
    pub fn leaks(&self) -> bool {
        self.max_abs_t() >= THRESHOLD
    }
}

/// Welch's t-test on `samples` (`(class, time)`, class `false` = 0, `true` = 1), uncropped and
/// at each of `percentiles` (fractions in (0, 1]), whose cut values are taken from all samples
/// of both classes together, as dudect does.
pub fn leak_test(samples: &[(bool, f64)], percentiles: &[f64]) -> LeakTest {
    let mut sorted: Vec<f64> = samples.iter().map(|s| s.1).collect();
    sorted.sort_by(f64::total_cmp);
    let cut = |p: f64| {
        let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
        sorted.get(rank - 1).copied().unwrap_or(f64::INFINITY)
    };
    let levels = std::iter::once(None).chain(percentiles.iter().map(|&p| Some(p)));
    let tests = levels
        .map(|percentile| {
            let limit = percentile.map_or(f64::INFINITY, cut);
            let mut classes = [Moments::default(); 2];
            for &(class, time) in samples {
                if time <= limit {
                    classes[usize::from(class)].push(time);
                }
            }
            CropTest {
                percentile,
                counts: [classes[0].count(), classes[1].count()],
                t: welch_t(&classes[0], &classes[1]),
                standard_error: standard_error(&classes[0], &classes[1]),
            }
        })
        .collect();
    let ones = samples.iter().filter(|s| s.0).count();
    LeakTest {
        counts: [samples.len() - ones, ones],
        tests,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Timing-like samples: a base, exponential noise (a long upper tail) and, one time in
    /// fifty, a large outlier.
    fn timings(rng: &mut impl Rng, n: usize, shift: f64) -> Vec<f64> {
        (0..n)
            .map(|_| {
                let u: f64 = rng.r#gen::<f64>().max(1e-12);
                let outlier = if rng.gen_range(0..50) == 0 {
                    5000.0
                } else {
                    0.0
                };
                1000.0 + shift - 100.0 * u.ln() + outlier
            })
            .collect()
    }

    fn interleave(a: &[f64], b: &[f64]) -> Vec<(bool, f64)> {
        a.iter()
            .map(|&x| (false, x))
            .chain(b.iter().map(|&x| (true, x)))
            .collect()
    }

    #[test]
    fn welch_t_matches_a_hand_computation() {
        let mut a = Moments::default();
        let mut b = Moments::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            a.push(x);
        }
        for x in [2.0, 4.0, 6.0] {
            b.push(x);
        }
        // Means 2.5 and 4, variances 5/3 and 4: t = -1.5 / sqrt(5/12 + 4/3).
        assert!((a.variance() - 5.0 / 3.0).abs() < 1e-12);
        assert!((b.variance() - 4.0).abs() < 1e-12);
        let t = welch_t(&a, &b).unwrap();
        assert!((t - (-1.5 / (5.0f64 / 12.0 + 4.0 / 3.0).sqrt())).abs() < 1e-12);
        assert_eq!(welch_t(&b, &a).unwrap(), -t);
        let se = standard_error(&a, &b).unwrap();
        assert!((se - (5.0f64 / 12.0 + 4.0 / 3.0).sqrt()).abs() < 1e-12);
        let mut one = Moments::default();
        one.push(1.0);
        assert_eq!(welch_t(&a, &one), None);
        let mut flat = Moments::default();
        flat.push(7.0);
        flat.push(7.0);
        assert_eq!(welch_t(&flat, &flat), None);
    }

    #[test]
    fn moments_stay_exact_on_large_close_values() {
        let mut m = Moments::default();
        for i in 0..1000 {
            m.push(1e9 + f64::from(i % 2));
        }
        assert!((m.mean() - (1e9 + 0.5)).abs() < 1e-6);
        assert!((m.variance() - 0.25 * 1000.0 / 999.0).abs() < 1e-9);
    }

    #[test]
    fn crop_levels_are_dudects() {
        let p = crop_percentiles(10);
        assert_eq!(p.len(), 10);
        assert!((p[0] - 0.5).abs() < 1e-12 && (p[1] - 0.75).abs() < 1e-12);
        assert!((p[9] - (1.0 - 1.0 / 1024.0)).abs() < 1e-12);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
        let p100 = crop_percentiles(100);
        assert!((p100[9] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_planted_leak_is_flagged() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let n = 5000;
        let a = timings(&mut rng, n, 0.0);
        // A shift of 15 % of the noise's standard deviation (100): ~7.5 standard errors.
        let b = timings(&mut rng, n, 15.0);
        let test = leak_test(&interleave(&a, &b), &crop_percentiles(10));
        assert_eq!(test.counts, [n, n]);
        assert_eq!(test.tests.len(), 11);
        assert!(test.leaks(), "max |t| {}", test.max_abs_t());
        // Class 1 is slower: t is negative.
        assert!(test.max().unwrap().t.unwrap() < -THRESHOLD);
        // The outliers hide it from the uncropped test; cropping finds it.
        let uncropped = test.tests[0].t.unwrap().abs();
        assert!(test.max_abs_t() > uncropped, "{uncropped}");
        let cropped = test.max().unwrap();
        assert!(cropped.percentile.is_some());
        assert!(cropped.counts[0] + cropped.counts[1] < 2 * n);
        // The shift of 15 is above what these samples resolve, and the resolution is that of
        // the tightest crop level.
        let resolution = test.resolution().unwrap();
        assert!(resolution < 15.0, "{resolution}");
        let tightest = test.tests.iter().filter_map(|c| c.standard_error);
        assert_eq!(
            resolution,
            THRESHOLD * tightest.min_by(f64::total_cmp).unwrap()
        );
    }

    #[test]
    fn identical_classes_are_not_flagged() {
        for seed in 0..5 {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(100 + seed);
            let samples: Vec<(bool, f64)> = timings(&mut rng, 20_000, 0.0)
                .into_iter()
                .map(|x| (rng.r#gen::<bool>(), x))
                .collect();
            let test = leak_test(&samples, &crop_percentiles(10));
            assert!(!test.leaks(), "seed {seed}: max |t| {}", test.max_abs_t());
            assert_eq!(test.counts[0] + test.counts[1], 20_000);
        }
    }

    #[test]
    fn too_few_samples_give_no_t_and_no_leak() {
        let test = leak_test(&[(false, 1.0), (true, 2.0)], &crop_percentiles(3));
        assert!(test.tests.iter().all(|c| c.t.is_none()));
        assert_eq!(test.max(), None);
        assert_eq!(test.resolution(), None);
        assert!(!test.leaks());
        assert!(leak_test(&[], &[0.5]).max().is_none());
    }
}
