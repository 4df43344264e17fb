//! Every benchmark record keeps its columns: a record as `parcrypt bench ...` wrote it
//! (tests/fixtures/records, see its README) reads into today's type, and written again it has
//! the same JSON keys in the same order, the same values and the same CSV header; without its
//! `times` (older files) it still reads. A deliberate change of columns regenerates the fixture
//! (issue 21 did: `wide_spread` gave way to `outliers_mild`/`outliers_severe`, and the `ci95_*`
//! columns are empty below 6 runs instead of holding min..max).
use parcrypt::bench::{ExportFormat, render};
use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;

const FIXTURE: &str = include_str!("fixtures/records/columns.json");

/// A JSON object's members in the order they are written (a `Value` map would sort them).
#[derive(Debug, Clone, PartialEq)]
struct Ordered(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, Value>()? {
                    members.push(member);
                }
                Ok(Ordered(members))
            }
        }
        d.deserialize_map(Members)
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl Ordered {
    fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|(k, _)| k.as_str()).collect()
    }
}

/// One record as it was written, and the first line of its CSV file (thread benchmarks).
#[derive(serde::Deserialize)]
struct Entry {
    record: Ordered,
    csv_header: Option<String>,
}

/// The fixture's entry `name`.
fn fixture(name: &str) -> Entry {
    let mut all: HashMap<String, Entry> = serde_json::from_str(FIXTURE).unwrap();
    all.remove(name)
        .unwrap_or_else(|| panic!("no fixture '{name}'"))
}

/// Reads fixture `name` as an `R`, writes it again and compares keys, values and CSV header.
fn keeps_its_columns<R: Serialize + DeserializeOwned>(name: &str) -> R {
    let Entry {
        record: before,
        csv_header: csv,
    } = fixture(name);
    let record: R = serde_json::from_str(&serde_json::to_string(&before).unwrap())
        .unwrap_or_else(|e| panic!("{name}: the old record no longer reads: {e}"));
    let after: Ordered = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
    assert_eq!(
        after.keys(),
        before.keys(),
        "{name}: JSON keys or their order"
    );
    assert_eq!(after, before, "{name}: values");
    if let Some(header) = csv {
        let table = render(std::slice::from_ref(&record), ExportFormat::Csv).unwrap();
        assert_eq!(table.lines().next(), Some(header.as_str()), "{name}: CSV");
    }
    // A file written before records kept their per-run times still reads.
    let mut old = before.clone();
    old.0.retain(|(k, _)| k != "times");
    let text = serde_json::to_string(&old).unwrap();
    let without: Value = serde_json::to_value(serde_json::from_str::<R>(&text).unwrap()).unwrap();
    assert!(without.get("times").is_none(), "{name}");
    record
}

#[test]
fn thread_benchmark_records_keep_their_columns() {
    use parcrypt::suites::{cipher, cipher_pipeline, modexp, mul, mul_handoff, rsa, rsa_latency};
    let r: rsa::RsaBenchRecord = keeps_its_columns("rsa");
    assert_eq!(r.timing.runs, 2);
    assert!(r.timing.mean_s.is_some() && r.timing.stddev_s.is_some());
    // Two runs: the interval columns are there and empty (no min..max under their name).
    assert_eq!(
        (r.timing.ci95_low_s, r.timing.ci95_high_s),
        (Some(None), Some(None))
    );
    let r: modexp::ModexpRecord = keeps_its_columns("modexp");
    assert!(r.timing.ci95_low_s == Some(None) && r.timing.mean_s.is_none());
    assert_eq!(
        (r.timing.outliers_mild, r.timing.outliers_severe),
        (Some(0), Some(0))
    );
    let r: rsa_latency::LatencyRecord = keeps_its_columns("rsa-private");
    assert!(r.timing.ci95_low_s.is_none(), "no interval columns at all");
    let r: mul::MulBenchRecord = keeps_its_columns("mul");
    assert!(r.timing.mean_s.is_some() && r.timing.stddev_s.is_none());
    keeps_its_columns::<mul_handoff::HandoffRecord>("handoff");
    let r: cipher::CipherBenchRecord = keeps_its_columns("cipher");
    assert_eq!(r.timing.times.len(), 2);
    keeps_its_columns::<cipher_pipeline::PipelineBenchRecord>("pipeline");
}

#[cfg(feature = "mpi")]
#[test]
fn mpi_records_keep_their_columns() {
    use parcrypt::mpi::{batch_bench, bulk_bench, crsa_bench, pipeline_bench};
    keeps_its_columns::<batch_bench::BatchRecord>("mpi-rsa");
    keeps_its_columns::<pipeline_bench::PipelineMpiRecord>("mpi-pipeline");
    keeps_its_columns::<bulk_bench::BulkMpiRecord>("mpi-cipher");
    let r: crsa_bench::CrsaMpiRecord = keeps_its_columns("mpi-crsa");
    assert!(r.timing.times.is_empty());
}
