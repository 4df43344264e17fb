//! The plain-text exporter: the table a person reads in a terminal, columns aligned and
//! separated by two spaces, a dashed rule under the header.
use super::columns::Columns;
use super::flat::table;
use super::{ExportFormat, Exporter, export_error};
use crate::bench::machine::MachineInfo;
use crate::error::Result;
use serde::Serialize;

/// Writes the records as an aligned plain-text table; the machine is not written.
///
/// Numbers are right-aligned and shown with [`format_number`](super::format_number), text
/// is left as it is, lines carry no trailing spaces. No records give an empty string.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableExporter;

impl<R: Serialize> Exporter<R> for TableExporter {
    fn render(&self, _machine: Option<&MachineInfo>, results: &[R]) -> Result<String> {
        let table = table(results).map_err(|e| export_error(ExportFormat::Table, e))?;
        if table.rows.is_empty() {
            return Ok(String::new());
        }
        let columns = Columns::new(&table, str::to_string, 1);
        let rule: Vec<String> = columns.widths.iter().map(|&w| "-".repeat(w)).collect();
        let mut out = String::new();
        for cells in [&columns.header, &rule].into_iter().chain(&columns.rows) {
            let line = columns.padded(cells).join("  ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Row, report};
    use super::*;

    #[test]
    fn table_snapshot() {
        let r = report();
        let text = TableExporter.render(Some(&r.machine), &r.results).unwrap();
        let expected = "\
name         threads    median  note
-----------  -------  --------  -----
rsa                1   0.01235
rsa|crt, 4t        4  0.003000  noisy
";
        assert_eq!(text, expected);
    }

    #[test]
    fn empty_table_is_empty() {
        assert_eq!(TableExporter.render(None, &[] as &[Row]).unwrap(), "");
    }
}
