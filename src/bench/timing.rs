//! The timing columns of a benchmark record — median, min, max, optionally mean, standard
//! deviation and the median's 95 % interval, runs and the per-run `times` — as one struct that
//! every record flattens (`#[serde(flatten)]`) where its timing columns stand.
//!
//! Records differ in which optional columns they carry (a record that never had `mean_s`
//! must not gain it); [`TimingColumns`] says which, and the columns a record does not carry
//! are `None` and left out of its JSON, CSV and Markdown. The order is always
//! `median_s, min_s, max_s, mean_s, stddev_s, ci95_low_s, ci95_high_s, runs, times`, so each
//! record keeps the column order it had when it spelled the fields out.
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
    /// Lower end of the 95 % confidence interval of the median, seconds (records with
    /// [`TimingColumns::ci95`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95_low_s: Option<Seconds>,
    /// Upper end of the 95 % confidence interval of the median, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95_high_s: Option<Seconds>,
    /// Measured runs.
    pub runs: usize,
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
            ci95_low_s: pick(columns.ci95, summary.ci95_low),
            ci95_high_s: pick(columns.ci95, summary.ci95_high),
            runs: summary.runs,
            times,
        }
    }

    /// The median's 95 % interval `(low, high)`, when the record carries it.
    pub fn ci95(&self) -> Option<(Seconds, Seconds)> {
        self.ci95_low_s.zip(self.ci95_high_s)
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
                ci95_low_s: Some(s.ci95_low),
                ci95_high_s: Some(s.ci95_high),
                runs: 6,
                times: times.clone(),
            }
        );
        assert_eq!((s.median, s.mean), (0.4375, 0.4791666666666667));
        assert_eq!(all.ci95(), Some((s.ci95_low, s.ci95_high)));
        let range = TimingFields::new(&s, times.clone(), TimingColumns::RANGE);
        assert_eq!(
            (range.mean_s, range.stddev_s, range.ci95()),
            (None, None, None)
        );
        assert_eq!((range.median_s, range.runs), (all.median_s, 6));
        let mean_ci = TimingFields::new(&s, times, TimingColumns::MEAN_CI95);
        assert_eq!((mean_ci.mean_s, mean_ci.stddev_s), (Some(s.mean), None));
        assert_eq!(mean_ci.ci95(), all.ci95());
    }

    #[test]
    fn each_column_set_writes_its_keys_in_the_records_order() {
        let s = summary();
        let keys =
            |c, times: &[Seconds]| json_keys(&TimingFields::new(&s, times.to_vec(), c)).join(" ");
        let cases = [
            (
                TimingColumns::ALL,
                "median_s min_s max_s mean_s stddev_s ci95_low_s ci95_high_s runs times",
            ),
            (
                TimingColumns::MEAN_CI95,
                "median_s min_s max_s mean_s ci95_low_s ci95_high_s runs times",
            ),
            (
                TimingColumns::CI95,
                "median_s min_s max_s ci95_low_s ci95_high_s runs times",
            ),
            (TimingColumns::RANGE, "median_s min_s max_s runs times"),
        ];
        for (columns, want) in cases {
            assert_eq!(keys(columns, &[1.0]), want, "{columns:?}");
        }
        // No per-run samples: no `times` key.
        assert_eq!(keys(TimingColumns::RANGE, &[]), "median_s min_s max_s runs");
    }

    #[test]
    fn flattened_fields_read_back_and_old_files_without_times_still_read() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Rec {
            name: String,
            #[serde(flatten)]
            timing: TimingFields,
            note: String,
        }
        let rec = Rec {
            name: "x".into(),
            timing: TimingFields::new(&summary(), vec![0.25, 0.5], TimingColumns::CI95),
            note: String::new(),
        };
        let json = serde_json::to_string(&rec).unwrap();
        assert_eq!(serde_json::from_str::<Rec>(&json).unwrap(), rec);
        assert_eq!(
            json_keys(&rec).join(" "),
            "name median_s min_s max_s ci95_low_s ci95_high_s runs times note"
        );
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
                times: Vec::new(),
            }
        );
    }
}
