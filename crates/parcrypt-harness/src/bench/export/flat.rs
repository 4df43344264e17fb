//! Flat records for the tabular formats: a record becomes its (field name, value) pairs in
//! field order, and a list of records becomes a header and rows of cells.
//!
//! The record goes through JSON and is read back by a visitor that keeps the fields in order
//! (a `serde_json::Value` map would sort them), so `#[serde(flatten)]` and `rename` work as
//! they do in the JSON output.
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// A record's fields in order.
pub(super) type Fields = Vec<(String, Value)>;

/// A table: the field names, then one row of values per record.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Table {
    /// Field names, in order.
    pub header: Vec<String>,
    /// One row per record, values in header order (numbers, strings, bools or nulls).
    pub rows: Vec<Vec<Value>>,
}

/// Deserializes a JSON object into its fields, in the order they appear.
struct OrderedFields(Fields);

impl<'de> Deserialize<'de> for OrderedFields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = OrderedFields;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a record with named fields")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedFields, A::Error> {
                let mut fields = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, Value>()? {
                    fields.push((name, value));
                }
                Ok(OrderedFields(fields))
            }
        }
        deserializer.deserialize_map(FieldsVisitor)
    }
}

/// The field of a record that holds its per-run samples (hyperfine's name): a list, written
/// by JSON only; the tables keep the summary beside it.
pub(super) const SAMPLES_FIELD: &str = "times";

/// A record's fields in order, without its per-run samples ([`SAMPLES_FIELD`]); an error
/// names the first field that is not flat.
pub(super) fn fields<R: Serialize>(record: &R) -> Result<Fields, String> {
    let json = serde_json::to_string(record).map_err(|e| e.to_string())?;
    let OrderedFields(mut fields) =
        serde_json::from_str(&json).map_err(|e: serde_json::Error| e.to_string())?;
    fields.retain(|(name, v)| !(name == SAMPLES_FIELD && matches!(v, Value::Array(_))));
    if let Some((name, _)) = fields
        .iter()
        .find(|(_, v)| matches!(v, Value::Array(_) | Value::Object(_)))
    {
        return Err(format!(
            "field '{name}' is a list or a struct; tables need flat records"
        ));
    }
    Ok(fields)
}

/// Records as a table. Every record must have the same fields in the same order; no records
/// give an empty header and no rows.
pub(super) fn table<R: Serialize>(records: &[R]) -> Result<Table, String> {
    let mut header: Option<Vec<String>> = None;
    let mut rows = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        let (names, values): (Vec<String>, Vec<Value>) = fields(record)?.into_iter().unzip();
        match &header {
            None => header = Some(names),
            Some(first) if *first != names => {
                return Err(format!(
                    "record {} has fields [{}], unlike the first record's [{}]",
                    i + 1,
                    names.join(", "),
                    first.join(", ")
                ));
            }
            Some(_) => {}
        }
        rows.push(values);
    }
    Ok(Table {
        header: header.unwrap_or_default(),
        rows,
    })
}

/// A value as plain text: strings unquoted, null empty, numbers as JSON writes them.
pub(super) fn plain(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Params {
        schedule: &'static str,
        threads: usize,
    }

    #[derive(Serialize)]
    struct Flattened {
        zeta: f64,
        #[serde(flatten)]
        params: Params,
        #[serde(rename = "alpha")]
        a: bool,
    }

    #[test]
    fn fields_keep_their_order_through_flatten_and_rename() {
        let record = Flattened {
            zeta: 1.5,
            params: Params {
                schedule: "static",
                threads: 4,
            },
            a: true,
        };
        let names: Vec<String> = fields(&record)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["zeta", "schedule", "threads", "alpha"]);
    }

    #[test]
    fn per_run_samples_stay_out_of_tables() {
        let record = serde_json::json!({"median_s": 1.0, "times": [1.0, 2.0]});
        let names: Vec<String> = fields(&record)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["median_s"]);
        let other_list = serde_json::json!({"sizes": [1, 2]});
        assert!(fields(&other_list).is_err());
    }

    #[test]
    fn nested_and_non_records_are_refused() {
        #[derive(Serialize)]
        struct Nested {
            inner: Params,
        }
        let nested = Nested {
            inner: Params {
                schedule: "s",
                threads: 1,
            },
        };
        let err = fields(&nested).unwrap_err();
        assert_eq!(
            err,
            "field 'inner' is a list or a struct; tables need flat records"
        );
        assert!(fields(&(1, 2)).is_err());
        assert!(
            fields(&vec![1u8])
                .unwrap_err()
                .contains("record with named fields")
        );
    }

    #[test]
    fn records_must_share_their_fields() {
        let a = serde_json::json!({"x": 1});
        let b = serde_json::json!({"y": 2});
        let err = table(&[a.clone(), b]).unwrap_err();
        assert_eq!(
            err,
            "record 2 has fields [y], unlike the first record's [x]"
        );
        let t = table(&[a]).unwrap();
        assert_eq!(
            (t.header, t.rows),
            (vec!["x".to_string()], vec![vec![Value::from(1)]])
        );
        assert_eq!(table::<Value>(&[]).unwrap().header.len(), 0);
    }

    #[test]
    fn plain_text_of_values() {
        assert_eq!(plain(&Value::Null), "");
        assert_eq!(plain(&Value::from("a,b")), "a,b");
        assert_eq!(plain(&Value::from(0.5)), "0.5");
        assert_eq!(plain(&Value::from(true)), "true");
    }
}
