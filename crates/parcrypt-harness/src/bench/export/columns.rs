//! Aligned text columns, shared by the Markdown and plain-table exporters: cells as text,
//! numbers to 4 significant digits and right-aligned, text left-aligned.
use super::flat::{Table, plain};
use serde_json::Value;

/// A float to 4 significant digits, in plain notation from 1e-4 up to 1e6 (`0.01235`,
/// `1235`, `123457`) and in scientific notation outside (`1.235e-5`, `1.235e7`).
/// Trailing zeros are kept (`0.5000`), so a column reads at a constant precision.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    // The exponent after rounding to 4 digits (9.9996 rounds to 1.000e1, exponent 1).
    let scientific = format!("{x:.3e}");
    let exponent: i32 = scientific
        .rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    if (-4..6).contains(&exponent) {
        let decimals = (3 - exponent).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        scientific
    }
}

/// A table laid out as text: every cell rendered, each column's width and alignment known.
#[derive(Debug, Clone)]
pub(super) struct Columns {
    /// Header cells.
    pub header: Vec<String>,
    /// Body cells, row by row.
    pub rows: Vec<Vec<String>>,
    /// Whether each column holds only numbers (or empty cells): right-aligned.
    pub numeric: Vec<bool>,
    /// Width of each column in characters.
    pub widths: Vec<usize>,
}

impl Columns {
    /// Lays out `table`; `escape` is applied to text cells and header names, and no column is
    /// narrower than `min_width`.
    pub fn new(table: &Table, escape: impl Fn(&str) -> String, min_width: usize) -> Self {
        let cell = |value: &Value| match value {
            Value::Number(n) if n.is_f64() => format_number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => escape(s),
            other => plain(other),
        };
        let header: Vec<String> = table.header.iter().map(|h| escape(h)).collect();
        let rows: Vec<Vec<String>> = table
            .rows
            .iter()
            .map(|row| row.iter().map(cell).collect())
            .collect();
        let numeric = (0..header.len())
            .map(|c| {
                table
                    .rows
                    .iter()
                    .all(|row| matches!(row[c], Value::Number(_) | Value::Null))
            })
            .collect();
        let widths = (0..header.len())
            .map(|c| {
                rows.iter()
                    .map(|row| row[c].chars().count())
                    .chain([header[c].chars().count(), min_width])
                    .max()
                    .unwrap_or(min_width)
            })
            .collect();
        Self {
            header,
            rows,
            numeric,
            widths,
        }
    }

    /// Each cell of a row padded to its column's width and alignment.
    pub fn padded(&self, cells: &[String]) -> Vec<String> {
        cells
            .iter()
            .zip(self.widths.iter().zip(&self.numeric))
            .map(|(text, (&w, &numeric))| {
                if numeric {
                    format!("{text:>w$}")
                } else {
                    format!("{text:<w$}")
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_four_significant_digits() {
        let cases = [
            (0.0123456, "0.01235"),
            (1.0, "1.000"),
            (1234.56, "1235"),
            (123456.7, "123457"),
            (9.99996, "10.00"),
            (0.00012346, "0.0001235"),
            (0.0000123456, "1.235e-5"),
            (12345678.0, "1.235e7"),
            (-2.5, "-2.500"),
            (0.0, "0"),
        ];
        for (x, shown) in cases {
            assert_eq!(format_number(x), shown, "{x}");
        }
        assert_eq!(format_number(f64::NAN), "NaN");
    }

    #[test]
    fn columns_know_their_width_and_alignment() {
        let table = Table {
            header: vec!["name".into(), "t".into(), "x".into()],
            rows: vec![
                vec![Value::from("µs-long"), Value::from(12), Value::Null],
                vec![Value::from("a"), Value::from(0.5), Value::from(true)],
            ],
        };
        let columns = Columns::new(&table, str::to_string, 2);
        assert_eq!(columns.widths, [7, 6, 4]);
        assert_eq!(columns.numeric, [false, true, false]);
        assert_eq!(columns.rows[1], ["a", "0.5000", "true"]);
        assert_eq!(
            columns.padded(&columns.header),
            ["name   ", "     t", "x   "]
        );
    }
}
