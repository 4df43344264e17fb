//! Writing benchmark reports: one [`Exporter`] trait, one file per format (JSON, CSV,
//! Markdown, plain table), and [`exporter_for`], the one place that picks the format.
//!
//! A report is the [`MachineInfo`] plus a list of result records of any `R: Serialize`. JSON
//! writes everything, nested records included. CSV, Markdown and the plain table write one row
//! per record and only the records (the machine goes to JSON, or to a line printed from
//! [`MachineInfo::one_line`]); their records must be *flat*: every field a number, string,
//! bool, unit enum or `Option` of one, the same fields in every record. `#[serde(flatten)]`
//! is fine (a record can flatten its parameters and a [`Summary`](super::Summary)); a nested
//! struct, list or map is an error, except a record's per-run samples, the list named
//! `times` (as in hyperfine's export), which JSON alone writes. Columns appear in field order.
mod columns;
mod csv;
mod flat;
mod json;
mod markdown;
mod table;

pub use self::columns::format_number;
pub use self::csv::CsvExporter;
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;
pub use self::table::TableExporter;

use super::machine::MachineInfo;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A benchmark report, serialized as `{"machine": {...}, "results": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport<R> {
    /// The machine the results were measured on.
    pub machine: MachineInfo,
    /// One record per benchmark (per point of a sweep).
    pub results: Vec<R>,
}

impl<R> BenchReport<R> {
    /// A report of `results` measured on `machine`.
    pub fn new(machine: MachineInfo, results: Vec<R>) -> Self {
        Self { machine, results }
    }
}

/// Turns result records, and the machine they ran on if known, into one output format.
pub trait Exporter<R: Serialize> {
    /// The records in this format. Only JSON writes the machine.
    fn render(&self, machine: Option<&MachineInfo>, results: &[R]) -> Result<String>;

    /// Writes the report to `path` atomically (a complete file or none).
    fn write(&self, report: &BenchReport<R>, path: &Path) -> Result<()> {
        let text = self.render(Some(&report.machine), &report.results)?;
        Ok(parcrypt::io::write_atomic(path, text.as_bytes(), None)?)
    }
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// Pretty-printed JSON: machine and results.
    Json,
    /// Comma-separated values: a header row and one row per record.
    Csv,
    /// A GitHub-flavoured Markdown table with aligned columns.
    Markdown,
    /// A plain-text table with aligned columns, for terminals.
    Table,
}

impl ExportFormat {
    /// Every format, in the order shown to users.
    pub const ALL: [ExportFormat; 4] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Markdown,
        ExportFormat::Table,
    ];

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Markdown => "md",
            ExportFormat::Table => "txt",
        }
    }

    /// The format a file name's extension asks for (`.json`, `.csv`, `.md`, `.txt`, ...).
    pub fn from_path(path: &Path) -> Option<ExportFormat> {
        path.extension()?.to_str()?.parse().ok()
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Markdown => "markdown",
            ExportFormat::Table => "table",
        })
    }
}

impl FromStr for ExportFormat {
    type Err = Error;

    /// `json`, `csv`, `markdown` or `md`, `table`, `text` or `txt`, in any case.
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(ExportFormat::Json),
            "csv" => Ok(ExportFormat::Csv),
            "markdown" | "md" => Ok(ExportFormat::Markdown),
            "table" | "text" | "txt" => Ok(ExportFormat::Table),
            _ => Err(Error::InvalidParameter(format!(
                "unknown export format '{s}' (expected json, csv, markdown or table)"
            ))),
        }
    }
}

/// The exporter for a format.
pub fn exporter_for<R: Serialize>(format: ExportFormat) -> Box<dyn Exporter<R>> {
    match format {
        ExportFormat::Json => Box::new(JsonExporter),
        ExportFormat::Csv => Box::new(CsvExporter),
        ExportFormat::Markdown => Box::new(MarkdownExporter),
        ExportFormat::Table => Box::new(TableExporter),
    }
}

/// Records alone in `format` (for the screen; JSON gives `{"results": [...]}`).
pub fn render<R: Serialize>(records: &[R], format: ExportFormat) -> Result<String> {
    exporter_for(format).render(None, records)
}

/// A whole report in `format` (only JSON includes the machine).
pub fn render_report<R: Serialize>(
    report: &BenchReport<R>,
    format: ExportFormat,
) -> Result<String> {
    exporter_for(format).render(Some(&report.machine), &report.results)
}

/// Writes a report in `format` to `path`, atomically.
pub fn export<R: Serialize>(
    report: &BenchReport<R>,
    format: ExportFormat,
    path: &Path,
) -> Result<()> {
    exporter_for(format).write(report, path)
}

/// An export failure: the format and what went wrong.
fn export_error(format: ExportFormat, detail: impl fmt::Display) -> Error {
    Error::Export(format!("cannot export as {format}: {detail}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small flat record for the snapshot tests of every format.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Row {
        pub name: String,
        pub threads: usize,
        pub median: f64,
        pub note: Option<String>,
    }

    /// A fixed machine, so snapshots do not depend on where the tests run.
    pub fn machine() -> MachineInfo {
        MachineInfo {
            cpu_model: "Test CPU".into(),
            arch: "x86_64".into(),
            logical_cores: 4,
            physical_cores: 2,
            gmp_version: "6.2.1".into(),
            parcrypt_version: "0.1.0".into(),
            rustc_version: "rustc 1.85.0".into(),
            os: "Test OS".into(),
            kernel: "6.1.0".into(),
            caches: vec!["L1d 32K".into()],
            detected_at: "2024-05-01T12:00:00Z".into(),
            cpu: Default::default(),
        }
    }

    /// Two records, one with a `|` and a comma to escape.
    pub fn report() -> BenchReport<Row> {
        let row = |name: &str, threads, median, note: Option<&str>| Row {
            name: name.into(),
            threads,
            median,
            note: note.map(str::to_string),
        };
        BenchReport::new(
            machine(),
            vec![
                row("rsa", 1, 0.0123456, None),
                row("rsa|crt, 4t", 4, 0.003, Some("noisy")),
            ],
        )
    }

    #[test]
    fn formats_parse_and_pick_their_exporter() {
        for format in ExportFormat::ALL {
            assert_eq!(format.to_string().parse::<ExportFormat>().unwrap(), format);
            let path = format!("out.{}", format.extension());
            assert_eq!(ExportFormat::from_path(Path::new(&path)), Some(format));
        }
        assert_eq!(
            "MD".parse::<ExportFormat>().unwrap(),
            ExportFormat::Markdown
        );
        assert_eq!(ExportFormat::from_path(Path::new("out.pdf")), None);
        let err = "xml".parse::<ExportFormat>().unwrap_err().to_string();
        assert!(err.contains("unknown export format 'xml'"), "{err}");
        // exporter_for gives the same text as the exporter itself.
        let r = report();
        let csv = render_report(&r, ExportFormat::Csv).unwrap();
        assert_eq!(csv, CsvExporter.render(None, &r.results).unwrap());
        assert_eq!(render(&r.results, ExportFormat::Csv).unwrap(), csv);
    }

    #[test]
    fn writing_is_atomic_and_complete() {
        let dir = tempfile::tempdir().unwrap();
        for format in ExportFormat::ALL {
            let path = dir.path().join(format!("report.{}", format.extension()));
            export(&report(), format, &path).unwrap();
            let written = std::fs::read_to_string(&path).unwrap();
            assert_eq!(written, render_report(&report(), format).unwrap());
        }
        let files = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files, ExportFormat::ALL.len(), "no temporary left");
        let missing = dir.path().join("no/such/dir/report.json");
        assert!(JsonExporter.write(&report(), &missing).is_err());
    }
}
