//! The Markdown exporter: a GitHub-flavoured table with aligned columns, numbers right-aligned
//! and shown to 4 significant digits, text left-aligned.
use super::columns::Columns;
use super::flat::table;
use super::{ExportFormat, Exporter, export_error};
use crate::bench::machine::MachineInfo;
use crate::error::Result;
use serde::Serialize;

/// Writes the records as a Markdown table; the machine is not written.
///
/// A column whose values are all numbers (or empty) is right-aligned; floats are shown with
/// [`format_number`](super::format_number), integers as they are. `|` in text is escaped.
/// No records give an empty string.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownExporter;

impl<R: Serialize> Exporter<R> for MarkdownExporter {
    fn render(&self, _machine: Option<&MachineInfo>, results: &[R]) -> Result<String> {
        let table = table(results).map_err(|e| export_error(ExportFormat::Markdown, e))?;
        if table.rows.is_empty() {
            return Ok(String::new());
        }
        // Width 3 at least, so every rule cell has a colon and two dashes or more.
        let columns = Columns::new(&table, |s| s.replace('|', "\\|"), 3);
        let rule: Vec<String> = columns
            .widths
            .iter()
            .zip(&columns.numeric)
            .map(|(&w, &numeric)| {
                let dashes = "-".repeat(w + 1);
                if numeric {
                    format!("{dashes}:")
                } else {
                    format!(":{dashes}")
                }
            })
            .collect();
        let mut out = format!("| {} |\n", columns.padded(&columns.header).join(" | "));
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &columns.rows {
            out.push_str(&format!("| {} |\n", columns.padded(row).join(" | ")));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Row, report};
    use super::*;

    #[test]
    fn markdown_snapshot() {
        let r = report();
        let text = MarkdownExporter
            .render(Some(&r.machine), &r.results)
            .unwrap();
        let expected = "\
| name         | threads |   median | note  |
|:-------------|--------:|---------:|:------|
| rsa          |       1 |  0.01235 |       |
| rsa\\|crt, 4t |       4 | 0.003000 | noisy |
";
        assert_eq!(text, expected);
    }

    #[test]
    fn narrow_columns_still_have_a_valid_rule() {
        #[derive(Serialize)]
        struct N {
            n: u8,
        }
        let text = MarkdownExporter.render(None, &[N { n: 1 }]).unwrap();
        assert_eq!(text, "|   n |\n|----:|\n|   1 |\n");
    }

    #[test]
    fn empty_report_is_empty() {
        assert_eq!(MarkdownExporter.render(None, &[] as &[Row]).unwrap(), "");
    }
}
