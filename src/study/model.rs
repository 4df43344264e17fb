//! What an experiment of the study produces: tables, charts and verdicts on the papers'
//! claims, each saying whether its numbers were measured here or modelled.
use serde::{Deserialize, Serialize};

/// Where a number came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "by")]
pub enum Provenance {
    /// Measured on this machine (timings; energy where a meter exists).
    Measured,
    /// Computed from a model; the string names it (e.g. "power model: core-i7 preset").
    Modelled(String),
    /// Copied from the paper.
    Paper,
}

impl Provenance {
    /// "measured", "modelled (…)", "paper".
    pub fn label(&self) -> String {
        match self {
            Provenance::Measured => "measured".into(),
            Provenance::Modelled(by) => format!("modelled ({by})"),
            Provenance::Paper => "paper".into(),
        }
    }
}

/// One line or bar group of a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// (x, y) points, in x order for line charts.
    pub points: Vec<(f64, f64)>,
    /// Where the values came from.
    pub provenance: Provenance,
}

/// How a chart is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChartKind {
    /// Lines with markers over a numeric x axis.
    Line,
    /// Grouped bars over categorical x values (the points' x are indices into `categories`).
    Bar,
}

/// A chart in the style of the paper's figure it answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    /// Title, naming the paper's figure or table.
    pub title: String,
    /// Line or bar.
    pub kind: ChartKind,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis (base 2), for sizes and chunk sweeps.
    pub log_x: bool,
    /// For bar charts: the category names (x = 0, 1, ...).
    pub categories: Vec<String>,
    /// The data.
    pub series: Vec<Series>,
}

/// A verdict on one of the paper's claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Our figure supports the claim.
    Holds,
    /// Our figure contradicts the claim.
    DoesNotHold,
    /// This machine cannot test it (the reason is given).
    NotTestable,
}

impl Verdict {
    /// "holds", "does not hold", "not testable here".
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does not hold",
            Verdict::NotTestable => "not testable here",
        }
    }
}

/// One claim of a paper beside our figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// Seed id, e.g. "seed000".
    pub seed: String,
    /// The paper's table or figure, e.g. "Fig. 6".
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// The paper's figure.
    pub paper: String,
    /// Our figure.
    pub ours: String,
    /// Holds, does not hold, or not testable here.
    pub verdict: Verdict,
    /// Why (and how our figure was obtained: measured or modelled).
    pub why: String,
}

/// A table of results: named columns and rows of cells (numbers or text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one cell per column.
    pub rows: Vec<Vec<serde_json::Value>>,
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
    pub fn push(&mut self, row: Vec<serde_json::Value>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    /// The table as CSV text.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(&self.columns);
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(cell_text).collect();
            let _ = w.write_record(&cells);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// A cell as text: numbers with up to 4 significant digits, strings as they are.
pub fn cell_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => crate::bench::format_number(f),
            _ => n.to_string(),
        },
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// Everything one experiment produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentResult {
    /// Stable id, e.g. "seed000-fig6"; also the CSV file name.
    pub id: String,
    /// Seed id, e.g. "seed000".
    pub seed: String,
    /// Title.
    pub title: String,
    /// The paper's tables or figures it answers, e.g. "Fig. 6".
    pub answers: String,
    /// Measured or modelled (for the experiment as a whole; series say it too).
    pub provenance: Provenance,
    /// A paragraph: what was run, at which sizes, and what it shows.
    pub summary: String,
    /// The numbers.
    pub table: Table,
    /// Charts (every experiment has at least one).
    pub charts: Vec<Chart>,
    /// Verdicts on the claims this experiment answers.
    pub claims: Vec<Claim>,
    /// Seconds the experiment took.
    pub elapsed_s: f64,
}
