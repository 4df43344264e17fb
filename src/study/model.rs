//! The study's plain data model: what results.json holds and what the report renders.
//!
//! Nothing here measures, judges or renders: experiments fill [`ExperimentResult`]s (tables,
//! charts, how sure they are), the judge fills [`ClaimResult`]s, and [`crate::report`] reads
//! both. The report depends on this module only, so the study never imports the report.
use crate::bench::MachineInfo;
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

/// One point of a series, with the 95 % interval of `y` when the value is an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Abscissa (an index into the categories for bar charts).
    pub x: f64,
    /// Value.
    pub y: f64,
    /// Lower end of the 95 % interval of `y`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_low: Option<f64>,
    /// Upper end of the 95 % interval of `y`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_high: Option<f64>,
}

impl Point {
    /// A point without an interval.
    pub fn new(x: f64, y: f64) -> Self {
        Self {
            x,
            y,
            y_low: None,
            y_high: None,
        }
    }

    /// A point with its 95 % interval.
    pub fn with_ci(x: f64, y: f64, low: f64, high: f64) -> Self {
        Self {
            x,
            y,
            y_low: Some(low),
            y_high: Some(high),
        }
    }

    /// `(x, y)`.
    pub fn xy(&self) -> (f64, f64) {
        (self.x, self.y)
    }
}

impl From<(f64, f64)> for Point {
    fn from((x, y): (f64, f64)) -> Self {
        Point::new(x, y)
    }
}

/// One line or bar group of a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points, in x order for line charts.
    pub points: Vec<Point>,
    /// Where the values came from.
    pub provenance: Provenance,
}

impl Series {
    /// A series from `(x, y)` pairs.
    pub fn from_xy(
        name: impl Into<String>,
        points: impl IntoIterator<Item = (f64, f64)>,
        provenance: Provenance,
    ) -> Self {
        Self {
            name: name.into(),
            points: points.into_iter().map(Point::from).collect(),
            provenance,
        }
    }
}

/// A value the paper gives, drawn as a reference line across a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// What it is, e.g. "paper: 8 KB" or "paper: −26 %".
    pub label: String,
    /// Its value on the chart's y axis (or x axis when `on_x`).
    pub value: f64,
    /// A vertical line at x = `value` instead of a horizontal one.
    #[serde(default)]
    pub on_x: bool,
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
    /// The paper's reference values, drawn as lines.
    #[serde(default)]
    pub references: Vec<Reference>,
}

impl Chart {
    /// A line chart with no series yet.
    pub fn line(title: impl Into<String>, x_label: &str, y_label: &str, log_x: bool) -> Self {
        Self {
            title: title.into(),
            kind: ChartKind::Line,
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x,
            categories: vec![],
            series: vec![],
            references: vec![],
        }
    }

    /// A bar chart over `categories` with no series yet.
    pub fn bar(
        title: impl Into<String>,
        x_label: &str,
        y_label: &str,
        categories: Vec<String>,
    ) -> Self {
        Self {
            title: title.into(),
            kind: ChartKind::Bar,
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            categories,
            series: vec![],
            references: vec![],
        }
    }

    /// Adds a series.
    pub fn with(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }

    /// Adds a horizontal reference line at the paper's value.
    pub fn reference(mut self, label: impl Into<String>, value: f64) -> Self {
        self.references.push(Reference {
            label: label.into(),
            value,
            on_x: false,
        });
        self
    }
}

/// What kind of claim this is, which decides which verdicts it can get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Judged on the 95 % interval of a figure measured here.
    Measured,
    /// Judged like a measured one, on a named model's output.
    Modelled,
    /// Arithmetic on the paper's own numbers: consistent or inconsistent.
    PaperCheck,
    /// A figure no measurement can move (the reason is given): reported, never a "holds".
    ByConstruction,
    /// Cannot be tested here (the reason and the hardware that would test it are given).
    NotTestable,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 5] = [
        Kind::Measured,
        Kind::Modelled,
        Kind::PaperCheck,
        Kind::ByConstruction,
        Kind::NotTestable,
    ];

    /// "measured", "modelled", "paper-check", "by-construction", "not-testable".
    pub fn name(self) -> &'static str {
        match self {
            Kind::Measured => "measured",
            Kind::Modelled => "modelled",
            Kind::PaperCheck => "paper-check",
            Kind::ByConstruction => "by-construction",
            Kind::NotTestable => "not-testable",
        }
    }
}

/// A verdict on one of the paper's claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The whole 95 % interval of our figure satisfies the claim's rule.
    Holds,
    /// The whole 95 % interval of our figure violates the claim's rule.
    DoesNotHold,
    /// The interval straddles the rule's threshold: this run cannot tell.
    Inconclusive,
    /// The paper's numbers agree with each other (paper-check).
    Consistent,
    /// The paper's numbers disagree with each other (paper-check).
    Inconsistent,
    /// Reported, but no measurement could have moved it.
    ByConstruction,
    /// Cannot be tested on this machine or profile.
    NotTestable,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 7] = [
        Verdict::Holds,
        Verdict::DoesNotHold,
        Verdict::Inconclusive,
        Verdict::Consistent,
        Verdict::Inconsistent,
        Verdict::ByConstruction,
        Verdict::NotTestable,
    ];

    /// The name in results.json: "holds", "does-not-hold", ….
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does-not-hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Consistent => "consistent",
            Verdict::Inconsistent => "inconsistent",
            Verdict::ByConstruction => "by-construction",
            Verdict::NotTestable => "not-testable",
        }
    }

    /// For people: "holds", "does not hold", "not testable here", ….
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "does not hold",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Consistent => "consistent",
            Verdict::Inconsistent => "inconsistent",
            Verdict::ByConstruction => "by construction",
            Verdict::NotTestable => "not testable here",
        }
    }

    /// Holds or does not hold: the two verdicts a run must never swap.
    pub fn is_definite(self) -> bool {
        matches!(self, Verdict::Holds | Verdict::DoesNotHold)
    }
}

/// Our figure for a claim.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ours {
    /// The point estimate (`None` when nothing could be measured or modelled).
    pub value: Option<f64>,
    /// Lower end of its 95 % interval (equal to `value` for exact figures).
    pub ci_low: Option<f64>,
    /// Upper end of its 95 % interval.
    pub ci_high: Option<f64>,
    /// Unit of the three numbers.
    pub unit: String,
    /// Paired rounds or runs behind the figure (0 for models and the paper's arithmetic).
    pub runs: usize,
    /// Threads of the configuration that decided (0 when not a timing).
    pub threads: usize,
    /// The figure for people, with whatever else it needs (e.g. several mechanisms).
    pub text: String,
}

/// One claim of a paper, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// Stable id, e.g. "seed003-mary-precomp-2048".
    pub id: String,
    /// Seed id, e.g. "seed003".
    pub seed: String,
    /// The paper's table, figure or section.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// Measured, modelled, paper-check, by-construction or not-testable.
    pub kind: Kind,
    /// For modelled claims: the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The paper's figure(s).
    pub paper: String,
    /// Our figure.
    pub ours: Ours,
    /// The rule ours is judged by, with its tolerance.
    pub rule: String,
    /// Why the tolerance is what it is.
    pub tolerance: String,
    /// How ours was obtained and why the verdict follows.
    pub why: String,
    /// A figure shown beside that does not decide (e.g. the 1-thread result of a parallel
    /// method).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<String>,
    /// The experiment that produced the evidence.
    pub experiment: String,
}

/// How sure an experiment's measurements are.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// Paired rounds measured (every configuration once per round).
    pub rounds: usize,
    /// Rounds added after the first judgement because a claim was inconclusive.
    pub extra_rounds: usize,
    /// Median over configurations of the relative half-width of the 95 % interval of the
    /// median, in %.
    pub spread_pct: f64,
    /// Some configuration's interval is wider than ±10 % of its median.
    pub noisy: bool,
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

/// Everything one experiment produced for people (its claims are judged apart).
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
    /// How sure the measurements are (`None` for models and the paper's arithmetic).
    #[serde(default)]
    pub quality: Option<Quality>,
    /// Seconds the experiment took.
    pub elapsed_s: f64,
}

/// Which profile a study ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Small sizes: the whole study in under 10 minutes on a 2-core machine.
    Quick,
    /// The papers' sizes where feasible: hours.
    Full,
}

impl Profile {
    /// "quick" or "full".
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Full => "full",
        }
    }
}

/// Everything the study wrote, as stored in results.json.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyResults {
    /// The machine.
    pub machine: MachineInfo,
    /// The profile used.
    pub profile: Profile,
    /// parcrypt's version.
    pub parcrypt_version: String,
    /// Every claim of the selected seeds, judged, in registry order.
    pub claims: Vec<ClaimResult>,
    /// The experiments, in report order.
    pub experiments: Vec<ExperimentResult>,
    /// Ids of experiments reused from an earlier, interrupted run.
    pub resumed: Vec<String>,
    /// Seconds the whole study took (resumed experiments count their first run).
    #[serde(default)]
    pub elapsed_s: f64,
}

impl StudyResults {
    /// How many claims of `kind` got `verdict`.
    pub fn count(&self, kind: Kind, verdict: Verdict) -> usize {
        self.claims
            .iter()
            .filter(|c| c.kind == kind && c.verdict == verdict)
            .count()
    }

    /// One line per kind with its verdicts, e.g. "measured: 20 holds, 3 inconclusive".
    pub fn summary_lines(&self) -> Vec<String> {
        Kind::ALL
            .iter()
            .filter_map(|&k| {
                let parts: Vec<String> = Verdict::ALL
                    .iter()
                    .filter_map(|&v| {
                        let n = self.count(k, v);
                        (n > 0).then(|| format!("{n} {}", v.label()))
                    })
                    .collect();
                (!parts.is_empty()).then(|| format!("{}: {}", k.name(), parts.join(", ")))
            })
            .collect()
    }

    /// The claims of one experiment.
    pub fn claims_of<'a>(&'a self, experiment: &'a str) -> impl Iterator<Item = &'a ClaimResult> {
        self.claims
            .iter()
            .filter(move |c| c.experiment == experiment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_kinds_serialise_as_their_names() {
        for v in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.name())
            );
        }
        for k in Kind::ALL {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.name())
            );
        }
        assert!(Verdict::Holds.is_definite() && !Verdict::Inconclusive.is_definite());
    }

    #[test]
    fn points_without_an_interval_stay_small_in_json() {
        let p = serde_json::to_string(&Point::new(1.0, 2.0)).unwrap();
        assert_eq!(p, r#"{"x":1.0,"y":2.0}"#);
        let q = Point::with_ci(1.0, 2.0, 1.5, 2.5);
        assert_eq!(
            serde_json::from_str::<Point>(&serde_json::to_string(&q).unwrap()).unwrap(),
            q
        );
    }

    #[test]
    fn tables_become_csv() {
        let mut t = Table::new(&["a", "b"]);
        t.push(vec![serde_json::json!(1.5), serde_json::json!("x")]);
        assert_eq!(t.to_csv(), "a,b\n1.500,x\n");
    }
}
