//! The study's tables as data: typed cells (numbers, measured values with their 95 %
//! interval, text) that the report renders for people and the CSV writes at full precision.
//!
//! Column names follow one rule: a column holding a quantity ends in its unit (`median_s`,
//! `power_w`, `vs_binary_pct`, `speedup_x` for a ratio) or is a count named by what it counts
//! (`threads`, `bits`); a table whose rows hold different quantities has a text column `unit`.
//! A column of [`Cell::Measured`] values becomes three CSV columns: `NAME`, `NAME_ci95_low`,
//! `NAME_ci95_high`.
use serde::{Deserialize, Serialize};

/// What the report shows for a missing value (the CSV leaves the cell empty).
pub const MISSING: &str = "—";

/// Endings that name a column's unit. `_x` and `_ratio` mark dimensionless ratios.
#[rustfmt::skip]
const UNIT_SUFFIXES: [&str; 20] = [
    "_s", "_ms", "_us", "_ns", "_pct", "_x", "_ratio", "_w", "_j", "_c", "_mhz", "_nm", "_years",
    "_bytes", "_bits", "_per_s", "_per_b", "_mulmods", "_messages", "_count",
];

/// Counts named by what they count: the name is the unit.
#[rustfmt::skip]
const COUNTS: [&str; 11] = [
    "threads", "messages", "stages", "ranks", "hosts", "runs", "cubes", "bits", "rounds", "mulmods",
    "lanes",
];

/// A value estimated from repeated runs, with its 95 % interval and unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The point estimate (a median, a ratio of medians, a change in %).
    pub value: f64,
    /// Lower end of its 95 % interval (none when too few rounds give one).
    pub ci95_low: Option<f64>,
    /// Upper end of its 95 % interval.
    pub ci95_high: Option<f64>,
    /// The unit for people: "s", "µs", "%", "×", "MB/s".
    pub unit: String,
}

/// One cell of a table. Stored in results.json as a plain JSON value (null, true, 2, 0.5,
/// "text") or, for a measured value, an object; older results whose cells were plain values
/// read back unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    /// No value: an empty CSV cell, "—" in the report.
    Missing,
    /// Yes or no.
    Flag(bool),
    /// A whole number (counts, sizes, ids).
    Int(i64),
    /// A number, at full precision.
    Num(f64),
    /// A value with its 95 % interval and unit.
    Measured(Measured),
    /// Text: names, verdicts, provenance, notes.
    Text(String),
}

impl Cell {
    /// A number; missing when it is not finite (NaN marks "not measured").
    pub fn num(x: f64) -> Self {
        if x.is_finite() {
            Cell::Num(x)
        } else {
            Cell::Missing
        }
    }

    /// An optional number.
    pub fn opt(x: Option<f64>) -> Self {
        x.map_or(Cell::Missing, Cell::num)
    }

    /// A whole number.
    pub fn int(n: impl TryInto<i64>) -> Self {
        n.try_into().map_or(Cell::Missing, Cell::Int)
    }

    /// Text.
    pub fn text(s: impl Into<String>) -> Self {
        Cell::Text(s.into())
    }

    /// A measured value with its interval; missing when the value is not finite, and without
    /// an interval where an end is not (fewer than 3 rounds give no interval).
    pub fn measured(value: f64, low: f64, high: f64, unit: &str) -> Self {
        if !value.is_finite() {
            return Cell::Missing;
        }
        let finite = low.is_finite() && high.is_finite();
        Cell::Measured(Measured {
            value,
            ci95_low: finite.then_some(low),
            ci95_high: finite.then_some(high),
            unit: unit.into(),
        })
    }

    /// Holds a number (or is missing, which a numeric column allows).
    pub fn is_numeric(&self) -> bool {
        matches!(self, Cell::Int(_) | Cell::Num(_) | Cell::Measured(_))
    }

    /// Holds no value (also the "-" and "—" older results stored as text).
    pub fn is_missing(&self) -> bool {
        match self {
            Cell::Missing => true,
            Cell::Text(s) => matches!(s.trim(), "-" | MISSING | ""),
            _ => false,
        }
    }

    /// The cell for people: up to 4 significant digits, a measured value as
    /// "1.23 µs [1.20, 1.30]", "—" when missing.
    pub fn display(&self) -> String {
        match self {
            _ if self.is_missing() => MISSING.into(),
            Cell::Flag(b) => if *b { "yes" } else { "no" }.into(),
            Cell::Int(n) => n.to_string(),
            Cell::Num(x) => trim_zeros(&fixed(*x, decimals(*x, 4))),
            Cell::Measured(m) => measured_text(m),
            Cell::Text(s) => s.clone(),
            Cell::Missing => MISSING.into(),
        }
    }

    /// The cell as CSV fields: one, or three (value, low, high) in a `measured` column.
    fn csv_fields(&self, measured: bool) -> Vec<String> {
        let (v, lo, hi) = match self {
            _ if self.is_missing() => (String::new(), String::new(), String::new()),
            Cell::Flag(b) => (b.to_string(), String::new(), String::new()),
            Cell::Int(n) => (n.to_string(), String::new(), String::new()),
            Cell::Num(x) => (full(*x), String::new(), String::new()),
            Cell::Measured(m) => (
                full(m.value),
                m.ci95_low.map_or(String::new(), full),
                m.ci95_high.map_or(String::new(), full),
            ),
            Cell::Text(s) => (s.clone(), String::new(), String::new()),
            Cell::Missing => (String::new(), String::new(), String::new()),
        };
        if measured { vec![v, lo, hi] } else { vec![v] }
    }
}

impl From<bool> for Cell {
    fn from(b: bool) -> Self {
        Cell::Flag(b)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::text(s)
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

/// A number at full precision: the shortest text that reads back exactly ("2" for 2.0).
pub(super) fn full(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

/// Decimals that show `x` to `sig` significant digits (0 for large numbers).
fn decimals(x: f64, sig: i32) -> usize {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let exponent = x.abs().log10().floor() as i32;
    (sig - 1 - exponent).clamp(0, 12) as usize
}

/// `x` with `d` decimals, or in scientific notation where that would be unreadable.
fn fixed(x: f64, d: usize) -> String {
    let a = x.abs();
    if a != 0.0 && !(1e-4..1e9).contains(&a) {
        format!("{x:.3e}")
    } else {
        format!("{x:.d$}")
    }
}

/// "2.500" → "2.5", "3.000" → "3"; scientific and whole numbers are left alone.
pub(super) fn trim_zeros(s: &str) -> String {
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// "1.23 µs [1.20, 1.30]": 3 significant digits for the value, its interval to the same
/// decimals.
fn measured_text(m: &Measured) -> String {
    let d = decimals(m.value, 3);
    let unit = if m.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", m.unit)
    };
    match (m.ci95_low, m.ci95_high) {
        (Some(lo), Some(hi)) => format!(
            "{}{unit} [{}, {}]",
            fixed(m.value, d),
            fixed(lo, d),
            fixed(hi, d)
        ),
        _ => format!("{}{unit}", fixed(m.value, d)),
    }
}

/// Whether a column name says its unit (see the module's rule).
pub fn names_unit(column: &str) -> bool {
    COUNTS.contains(&column) || UNIT_SUFFIXES.iter().any(|u| column.ends_with(u))
}

/// A table of results: named columns and rows of typed cells.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Column names (ending in their unit where they hold a quantity).
    pub columns: Vec<String>,
    /// Rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table with these columns and no rows.
    pub fn new(columns: &[&str]) -> Self {
        Self {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (must have one cell per column).
    pub fn push(&mut self, row: Vec<Cell>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    /// The cells of column `i` (missing where a row is short).
    fn column(&self, i: usize) -> impl Iterator<Item = &Cell> {
        self.rows
            .iter()
            .map(move |r| r.get(i).unwrap_or(&Cell::Missing))
    }

    /// Whether column `i` holds measured values (three CSV columns).
    fn is_measured(&self, i: usize) -> bool {
        self.column(i).any(|c| matches!(c, Cell::Measured(_)))
    }

    /// Whether column `i` holds numbers (and nothing but numbers or missing values).
    pub fn is_numeric(&self, i: usize) -> bool {
        self.column(i).any(Cell::is_numeric)
    }

    /// The CSV header: each measured column followed by its `_ci95_low` and `_ci95_high`.
    pub fn csv_header(&self) -> Vec<String> {
        let mut h = Vec::new();
        for (i, c) in self.columns.iter().enumerate() {
            h.push(c.clone());
            if self.is_measured(i) {
                h.push(format!("{c}_ci95_low"));
                h.push(format!("{c}_ci95_high"));
            }
        }
        h
    }

    /// The table as CSV data: numbers at full precision, empty cells for missing values,
    /// measured values as three columns. The machine is in results.json beside it.
    pub fn to_csv(&self) -> String {
        let measured: Vec<bool> = (0..self.columns.len())
            .map(|i| self.is_measured(i))
            .collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(self.csv_header());
        for row in &self.rows {
            let mut fields = Vec::new();
            for (i, m) in measured.iter().enumerate() {
                fields.extend(row.get(i).unwrap_or(&Cell::Missing).csv_fields(*m));
            }
            let _ = w.write_record(&fields);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The rows for people ([`Cell::display`]).
    pub fn display_rows(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|r| r.iter().map(Cell::display).collect())
            .collect()
    }

    /// What breaks the rules for data tables: rows of the wrong length, text in a numeric
    /// column, a numeric column whose name does not say its unit (unless a `unit` column
    /// gives each row's), measured cells of different units in one column.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        for (r, row) in self.rows.iter().enumerate() {
            if row.len() != self.columns.len() {
                p.push(format!(
                    "row {r} has {} cells for {} columns",
                    row.len(),
                    self.columns.len()
                ));
            }
        }
        let per_row_units = self.columns.iter().any(|c| c == "unit");
        for (i, name) in self.columns.iter().enumerate() {
            if !self.is_numeric(i) {
                continue;
            }
            if !per_row_units && !names_unit(name) {
                p.push(format!("column '{name}' holds numbers but names no unit"));
            }
            for (r, c) in self.column(i).enumerate() {
                if !c.is_numeric() && !c.is_missing() {
                    p.push(format!(
                        "column '{name}' row {r} holds {} in a numeric column",
                        c.display()
                    ));
                }
            }
            let units: Vec<&String> = self
                .column(i)
                .filter_map(|c| match c {
                    Cell::Measured(m) => Some(&m.unit),
                    _ => None,
                })
                .collect();
            if units.windows(2).any(|w| w[0] != w[1]) {
                p.push(format!("column '{name}' mixes units"));
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_back_from_json_including_older_plain_values() {
        let cells = vec![
            Cell::Missing,
            Cell::Flag(true),
            Cell::Int(7),
            Cell::Num(2.0),
            Cell::Num(0.125),
            Cell::measured(1.5, 1.25, 1.75, "µs"),
            Cell::text("guided"),
        ];
        let json = serde_json::to_string(&cells).unwrap();
        assert_eq!(
            json,
            r#"[null,true,7,2.0,0.125,{"value":1.5,"ci95_low":1.25,"ci95_high":1.75,"unit":"µs"},"guided"]"#
        );
        assert_eq!(serde_json::from_str::<Vec<Cell>>(&json).unwrap(), cells);
        // A row as results.json held it before cells were typed.
        let old: Vec<Cell> = serde_json::from_str(r#"[1.5, "x", null, "-", 3, false]"#).unwrap();
        assert_eq!(old[0], Cell::Num(1.5));
        assert_eq!(old[4], Cell::Int(3));
        assert!(old[2].is_missing() && old[3].is_missing());
    }

    #[test]
    fn measured_columns_become_three_csv_columns_at_full_precision() {
        let mut t = Table::new(&["method", "threads", "time_us", "speedup_x"]);
        t.push(vec![
            "a".into(),
            Cell::int(2),
            Cell::measured(1.2345678, 1.2, 1.3, "µs"),
            Cell::num(0.123456789),
        ]);
        t.push(vec![
            "b".into(),
            Cell::int(4),
            Cell::Missing,
            Cell::num(f64::NAN),
        ]);
        t.push(vec!["c".into(), Cell::int(1), Cell::num(2.0), "-".into()]);
        assert_eq!(
            t.to_csv(),
            "method,threads,time_us,time_us_ci95_low,time_us_ci95_high,speedup_x\n\
             a,2,1.2345678,1.2,1.3,0.123456789\n\
             b,4,,,,\n\
             c,1,2,,,\n"
        );
        assert!(t.problems().is_empty(), "{:?}", t.problems());
    }

    #[test]
    fn cells_for_people() {
        assert_eq!(
            Cell::measured(1.2345, 1.2, 1.3, "µs").display(),
            "1.23 µs [1.20, 1.30]"
        );
        assert_eq!(
            Cell::measured(21.19, 2.567, 34.2, "%").display(),
            "21.2 % [2.6, 34.2]"
        );
        assert_eq!(Cell::measured(0.0, 0.0, 0.0, "%").display(), "0 % [0, 0]");
        let no_interval = Cell::measured(1.5, f64::NEG_INFINITY, f64::INFINITY, "s");
        assert_eq!(no_interval.display(), "1.50 s");
        let back: Cell =
            serde_json::from_str(&serde_json::to_string(&no_interval).unwrap()).unwrap();
        assert_eq!(back, no_interval);
        assert_eq!(Cell::int(2).display(), "2");
        assert_eq!(Cell::num(2.0).display(), "2");
        assert_eq!(Cell::num(0.123456).display(), "0.1235");
        assert_eq!(Cell::num(12345.678).display(), "12346");
        assert_eq!(Cell::num(2.5e-7).display(), "2.500e-7");
        assert_eq!(Cell::Missing.display(), "—");
        assert_eq!(Cell::Flag(false).display(), "no");
    }

    #[test]
    fn problems_name_text_in_numbers_and_columns_without_units() {
        let mut t = Table::new(&["name", "speedup", "time_s"]);
        t.push(vec!["a".into(), Cell::num(1.0), Cell::text("1.23 s")]);
        t.push(vec!["b".into(), Cell::num(1.0), Cell::num(1.0)]);
        let p = t.problems();
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("'speedup'") && p[0].contains("no unit"));
        assert!(p[1].contains("'time_s' row 0"));
        let mut per_row = Table::new(&["quantity", "paper", "unit"]);
        per_row.push(vec!["PEs".into(), Cell::int(16), "PEs".into()]);
        assert!(per_row.problems().is_empty());
    }
}
