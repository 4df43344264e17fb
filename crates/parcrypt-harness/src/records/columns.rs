//! The record-columns check both programs' tests use (the lab's `tests/record_columns.rs` and
//! the MPI crate's): a record read from the fixture (`columns.json` beside this file, described
//! in `columns.md`), written again, keeps its JSON keys, values and CSV header. Test support
//! only (feature `test-support`, which the two crates' dev-dependencies turn on): it panics.
use crate::bench::{ExportFormat, render};
use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;

const FIXTURE: &str = include_str!("columns.json");

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
pub fn keeps_its_columns<R: Serialize + DeserializeOwned>(name: &str) -> R {
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
