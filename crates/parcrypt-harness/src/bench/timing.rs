//! The timing columns of a benchmark record — median, min, max, optionally mean, standard
//! deviation and the median's 95 % interval, runs, the outliers by Tukey's fences and the
//! per-run `times` — as one struct that every record flattens (`#[serde(flatten)]`) where its
//! timing columns stand.
//!
//! Records differ in which optional columns they carry (a record that never had `mean_s`
//! must not gain it); [`TimingColumns`] says which, and the columns a record does not carry
//! are left out of its JSON, CSV and Markdown. A record that carries the `ci95_*` columns
//! always has them, but they hold only a confidence interval: from fewer than
//! [`MIN_RUNS_FOR_CI`](super::MIN_RUNS_FOR_CI) runs they are empty (`null` in JSON, an empty
//! CSV cell) and `min_s`/`max_s` give the range. The order is always `median_s, min_s,
//! max_s, mean_s, stddev_s, ci95_low_s, ci95_high_s, runs, outliers_mild, outliers_severe,
//! times`.
use super::clock::Seconds;
use super::stats::Summary;
use serde::{Deserialize, Serialize};

/// Which optional timing columns a record carries; `median_s`, `min_s`, `max_s` and `runs`
/// are always there, `times` whenever the record has per-run samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingColumns {
    /// `mean_s`.
    pub mean: bool,
    /// `stddev_s`.
    pub stddev: bool,
    /// `ci95_low_s` and `ci95_high_s`.
    pub ci95: bool,
}

impl TimingColumns {
    /// Median, min, max and runs only.
    pub const RANGE: Self = Self {
        mean: false,
        stddev: false,
        ci95: false,
    };
    /// With the median's 95 % interval.
    pub const CI95: Self = Self {
        ci95: true,
        ..Self::RANGE
    };
    /// With the mean and the median's 95 % interval.
    pub const MEAN_CI95: Self = Self {
        mean: true,
        ..Self::CI95
    };
    /// Every statistic of a [`Summary`].
    pub const ALL: Self = Self {
        mean: true,
        stddev: true,
        ci95: true,
    };
}

/// A record's timing columns, in seconds; the field names are the JSON/CSV columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingFields {
    /// Median time of one run, seconds.
    pub median_s: Seconds,
    /// Fastest run, seconds.
    pub min_s: Seconds,
    /// Slowest run, seconds.
    pub max_s: Seconds,
    /// Mean, seconds (records with [`TimingColumns::mean`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_s: Option<Seconds>,
    /// Sample standard deviation, seconds (records with [`TimingColumns::stddev`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stddev_s: Option<Seconds>,
    /// Lower end of the 95 % confidence interval of the median, seconds: the outer `None` for
    /// a record without [`TimingColumns::ci95`] (no column), the inner `None` (an empty
    /// column) when fewer than 6 runs cannot give a 95 % interval.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "column")]
    pub ci95_low_s: Option<Option<Seconds>>,
    /// Upper end of the 95 % confidence interval of the median, seconds (as `ci95_low_s`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "column")]
    pub ci95_high_s: Option<Option<Seconds>>,
    /// Measured runs.
    pub runs: usize,
    /// Runs outside Tukey's inner fences (1.5 IQR beyond a quartile) but inside the outer
    /// ones (3 IQR), both sides. `None` only in files written before outliers were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outliers_mild: Option<usize>,
    /// Runs beyond Tukey's outer fences (3 IQR beyond a quartile), both sides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outliers_severe: Option<usize>,
    /// Every measured run's time, seconds, in run order, warm-ups excluded (hyperfine's
    /// `times`); written by JSON only, the tables keep the summary. Empty (and not written)
    /// for a record without per-run samples; old files without it read as empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<Seconds>,
}

impl TimingFields {
    /// The columns `columns` asks for from `summary`, with the per-run `times` it summarises
    /// (empty for a record that keeps no per-run samples).
    pub fn new(summary: &Summary, times: Vec<Seconds>, columns: TimingColumns) -> Self {
        let pick = |on: bool, x: Seconds| on.then_some(x);
        Self {
            median_s: summary.median,
            min_s: summary.min,
            max_s: summary.max,
            mean_s: pick(columns.mean, summary.mean),
            stddev_s: pick(columns.stddev, summary.stddev),
            ci95_low_s: columns.ci95.then_some(summary.ci95_low),
            ci95_high_s: columns.ci95.then_some(summary.ci95_high),
            runs: summary.runs,
            outliers_mild: Some(summary.outliers.mild()),
            outliers_severe: Some(summary.outliers.severe()),
            times,
        }
    }

    /// The median's 95 % interval `(low, high)`, when the record carries one.
    pub fn ci95(&self) -> Option<(Seconds, Seconds)> {
        self.ci95_low_s.flatten().zip(self.ci95_high_s.flatten())
    }

    /// The outliers for a flags column: "2 mild + 1 severe outliers", "1 severe outlier";
    /// empty when there are none (or the record predates their count).
    pub fn outlier_flag(&self) -> String {
        let (mild, severe) = (
            self.outliers_mild.unwrap_or(0),
            self.outliers_severe.unwrap_or(0),
        );
        let parts: Vec<String> = [(mild, "mild"), (severe, "severe")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        match mild + severe {
            0 => String::new(),
            1 => format!("{} outlier", parts.join(" + ")),
            _ => format!("{} outliers", parts.join(" + ")),
        }
    }
}

/// A column a record may lack (outer `None`: not written) or leave empty (inner `None`:
/// written as `null`).
mod column {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Option<f64>>, s: S) -> Result<S::Ok, S::Error> {
        v.flatten().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
        Option::<f64>::deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

    /// The keys of a record's JSON object, in the order they are written.
    fn json_keys<R: Serialize>(record: &R) -> Vec<String> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(keys)
            }
        }
        let json = serde_json::to_string(record).unwrap();
        serde_json::Deserializer::from_str(&json)
            .deserialize_map(Keys)
            .unwrap()
    }

    fn summary() -> Summary {
        Summary::from_samples(&[0.5, 0.125, 0.25, 1.0, 0.375, 0.625]).unwrap()
    }

    #[test]
    fn the_constructor_copies_the_summary_and_only_the_columns_asked_for() {
        let s = summary();
        let times = vec![0.5, 0.125, 0.25, 1.0, 0.375, 0.625];
        let all = TimingFields::new(&s, times.clone(), TimingColumns::ALL);
        assert_eq!(
            all,
            TimingFields {
                median_s: s.median,
                min_s: 0.125,
                max_s: 1.0,
                mean_s: Some(s.mean),
                stddev_s: Some(s.stddev),
                ci95_low_s: Some(Some(0.125)),
                ci95_high_s: Some(Some(1.0)),
                runs: 6,
                outliers_mild: Some(0),
                outliers_severe: Some(0),
                times: times.clone(),
            }
        );
        assert_eq!((s.median, s.mean), (0.4375, 0.4791666666666667));
        assert_eq!(all.ci95(), Some((0.125, 1.0)));
        let range = TimingFields::new(&s, times.clone(), TimingColumns::RANGE);
        assert_eq!(
            (range.mean_s, range.stddev_s, range.ci95_low_s, range.ci95()),
            (None, None, None, None)
        );
        assert_eq!((range.median_s, range.runs), (all.median_s, 6));
        let mean_ci = TimingFields::new(&s, times, TimingColumns::MEAN_CI95);
        assert_eq!((mean_ci.mean_s, mean_ci.stddev_s), (Some(s.mean), None));
        assert_eq!(mean_ci.ci95(), all.ci95());
    }

    #[test]
    fn too_few_runs_leave_the_interval_columns_empty_not_min_max() {
        let five = Summary::from_samples(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        let t = TimingFields::new(&five, vec![1.0, 2.0, 3.0, 4.0, 5.0], TimingColumns::CI95);
        assert_eq!(
            (t.ci95_low_s, t.ci95_high_s, t.ci95()),
            (Some(None), Some(None), None)
        );
        let json: serde_json::Value = serde_json::to_value(&t).unwrap();
        assert!(
            json["ci95_low_s"].is_null() && json["ci95_high_s"].is_null(),
            "{json}"
        );
        assert_eq!(
            (json["min_s"].as_f64(), json["max_s"].as_f64()),
            (Some(1.0), Some(5.0))
        );
        // It reads back as written: present and empty.
        assert_eq!(serde_json::from_value::<TimingFields>(json).unwrap(), t);
    }

    #[test]
    fn outliers_are_counted_per_record_and_flagged_for_people() {
        let mut times: Vec<f64> = (0..20).map(|i| 1.0 + 0.01 * f64::from(i)).collect();
        times.extend([1.5, 1.6, 2.0]);
        let s = Summary::from_samples(&times).unwrap();
        let t = TimingFields::new(&s, times, TimingColumns::RANGE);
        assert_eq!(
            (t.outliers_mild, t.outliers_severe),
            (Some(s.outliers.mild()), Some(s.outliers.severe()))
        );
        assert!(s.outliers.total() > 0);
        assert!(
            t.outlier_flag().ends_with("outliers"),
            "{}",
            t.outlier_flag()
        );
        let quiet = TimingFields::new(&summary(), vec![], TimingColumns::RANGE);
        assert_eq!(quiet.outlier_flag(), "");
        let one = TimingFields {
            outliers_mild: Some(0),
            outliers_severe: Some(1),
            ..quiet.clone()
        };
        assert_eq!(one.outlier_flag(), "1 severe outlier");
        let both = TimingFields {
            outliers_mild: Some(2),
            ..one
        };
        assert_eq!(both.outlier_flag(), "2 mild + 1 severe outliers");
    }

    #[test]
    fn each_column_set_writes_its_keys_in_the_records_order() {
        let s = summary();
        let keys =
            |c, times: &[Seconds]| json_keys(&TimingFields::new(&s, times.to_vec(), c)).join(" ");
        let tail = "runs outliers_mild outliers_severe times";
        let cases = [
            (
                TimingColumns::ALL,
                format!("median_s min_s max_s mean_s stddev_s ci95_low_s ci95_high_s {tail}"),
            ),
            (
                TimingColumns::MEAN_CI95,
                format!("median_s min_s max_s mean_s ci95_low_s ci95_high_s {tail}"),
            ),
            (
                TimingColumns::CI95,
                format!("median_s min_s max_s ci95_low_s ci95_high_s {tail}"),
            ),
            (TimingColumns::RANGE, format!("median_s min_s max_s {tail}")),
        ];
        for (columns, want) in cases {
            assert_eq!(keys(columns, &[1.0]), want, "{columns:?}");
        }
        // No per-run samples: no `times` key.
        assert_eq!(
            keys(TimingColumns::RANGE, &[]),
            "median_s min_s max_s runs outliers_mild outliers_severe"
        );
    }

    #[test]
    fn flattened_fields_read_back_and_old_files_still_read() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Rec {
            name: String,
            #[serde(flatten)]
            timing: TimingFields,
            note: String,
        }
        for runs in [vec![0.25, 0.5], vec![0.25, 0.5, 0.5, 0.5, 0.5, 0.75]] {
            let s = Summary::from_samples(&runs).unwrap();
            let rec = Rec {
                name: "x".into(),
                timing: TimingFields::new(&s, runs, TimingColumns::CI95),
                note: String::new(),
            };
            let json = serde_json::to_string(&rec).unwrap();
            assert_eq!(serde_json::from_str::<Rec>(&json).unwrap(), rec, "{json}");
            assert_eq!(
                json_keys(&rec).join(" "),
                "name median_s min_s max_s ci95_low_s ci95_high_s runs outliers_mild outliers_severe times note"
            );
        }
        // Written before per-run times, interval columns and outlier counts.
        let old = r#"{"name":"y","median_s":2.0,"min_s":1.0,"max_s":3.0,"runs":4,"note":""}"#;
        let old: Rec = serde_json::from_str(old).unwrap();
        assert_eq!(
            old.timing,
            TimingFields {
                median_s: 2.0,
                min_s: 1.0,
                max_s: 3.0,
                mean_s: None,
                stddev_s: None,
                ci95_low_s: None,
                ci95_high_s: None,
                runs: 4,
                outliers_mild: None,
                outliers_severe: None,
                times: Vec::new(),
            }
        );
    }
}
