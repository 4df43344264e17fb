//! The CSV exporter: a header of field names and one row per (flat) record, quoted by the
//! `csv` crate where needed.
use super::flat::{plain, table};
use super::{ExportFormat, Exporter, export_error};
use crate::bench::machine::MachineInfo;
use crate::error::Result;
use serde::Serialize;

/// Writes the records as CSV (RFC 4180 quoting, `\n` line ends); the machine is not written.
///
/// Numbers are written as JSON writes them (the shortest text that reads back exactly),
/// `None` as an empty cell. No records give an empty file.
#[derive(Debug, Clone, Copy, Default)]
pub struct CsvExporter;

impl<R: Serialize> Exporter<R> for CsvExporter {
    fn render(&self, _machine: Option<&MachineInfo>, results: &[R]) -> Result<String> {
        let fail = |e: &dyn std::fmt::Display| export_error(ExportFormat::Csv, e);
        let table = table(results).map_err(|e| fail(&e))?;
        let mut writer = ::csv::Writer::from_writer(Vec::new());
        if !table.header.is_empty() {
            writer.write_record(&table.header).map_err(|e| fail(&e))?;
        }
        for row in &table.rows {
            writer
                .write_record(row.iter().map(plain))
                .map_err(|e| fail(&e))?;
        }
        let bytes = writer.into_inner().map_err(|e| fail(&e))?;
        String::from_utf8(bytes).map_err(|e| fail(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Row, report};
    use super::*;

    #[test]
    fn csv_snapshot() {
        let r = report();
        let text = CsvExporter.render(Some(&r.machine), &r.results).unwrap();
        let expected = "name,threads,median,note\n\
                        rsa,1,0.0123456,\n\
                        \"rsa|crt, 4t\",4,0.003,noisy\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn csv_reads_back_with_serde() {
        let text = CsvExporter.render(None, &report().results).unwrap();
        let mut reader = ::csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<Row> = reader
            .deserialize()
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        assert_eq!(rows, report().results);
    }

    #[test]
    fn empty_and_nested_records() {
        assert!(CsvExporter.render(None, &[] as &[Row]).unwrap().is_empty());
        let nested = [serde_json::json!({"a": [1, 2]})];
        let err = CsvExporter.render(None, &nested).unwrap_err().to_string();
        assert_eq!(
            err,
            "export failed: cannot export as csv: field 'a' is a list or a struct; \
             tables need flat records"
        );
    }
}
