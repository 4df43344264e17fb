//! The JSON exporter: the whole report, machine and results, pretty-printed.
use super::{ExportFormat, Exporter, export_error};
use crate::bench::machine::MachineInfo;
use crate::error::Result;
use serde::Serialize;

/// Writes `{"machine": {...}, "results": [...]}`, pretty-printed, with a final newline
/// (`{"results": [...]}` when the machine is not given). Records may be nested; this is the
/// format to keep for later analysis.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonExporter;

/// The report's shape, borrowed.
#[derive(Serialize)]
struct ReportRef<'a, R> {
    #[serde(skip_serializing_if = "Option::is_none")]
    machine: Option<&'a MachineInfo>,
    results: &'a [R],
}

impl<R: Serialize> Exporter<R> for JsonExporter {
    fn render(&self, machine: Option<&MachineInfo>, results: &[R]) -> Result<String> {
        let report = ReportRef { machine, results };
        let mut out = serde_json::to_string_pretty(&report)
            .map_err(|e| export_error(ExportFormat::Json, e))?;
        out.push('\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Row, report};
    use super::super::{BenchReport, render_report};
    use super::*;

    #[test]
    fn json_snapshot() {
        let text = render_report(&report(), ExportFormat::Json).unwrap();
        let expected = r#"{
  "machine": {
    "cpu_model": "Test CPU",
    "arch": "x86_64",
    "logical_cores": 4,
    "physical_cores": 2,
    "gmp_version": "6.2.1",
    "parcrypt_version": "0.1.0",
    "rustc_version": "rustc 1.85.0",
    "os": "Test OS",
    "kernel": "6.1.0",
    "caches": [
      "L1d 32K"
    ],
    "detected_at": "2024-05-01T12:00:00Z",
    "cpu": {
      "vendor": "",
      "family": null,
      "model": null,
      "stepping": null,
      "simd": [],
      "l1d_kib": null,
      "smt": null
    }
  },
  "results": [
    {
      "name": "rsa",
      "threads": 1,
      "median": 0.0123456,
      "note": null
    },
    {
      "name": "rsa|crt, 4t",
      "threads": 4,
      "median": 0.003,
      "note": "noisy"
    }
  ]
}
"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn json_round_trips_and_can_leave_the_machine_out() {
        let text = render_report(&report(), ExportFormat::Json).unwrap();
        let back: BenchReport<Row> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report());
        let bare = JsonExporter.render(None, &report().results[..1]).unwrap();
        assert!(bare.starts_with("{\n  \"results\": [\n    {\n      \"name\": \"rsa\""));
    }
}
