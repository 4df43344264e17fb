//! The charts of the study's data model: series of points with optional 95 % intervals and
//! the paper's reference values.
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
    /// Legend text. Series whose names agree up to a " (" (e.g. "CRT (ours)" and
    /// "CRT (paper)") share a colour and marker; their provenance tells them apart.
    /// The paper's series are drawn as hollow markers, modelled ones with dashed lines.
    pub name: String,
    /// Points, in x order for line charts.
    pub points: Vec<Point>,
    /// Where the values came from.
    pub provenance: Provenance,
    /// Markers only, never joined by a line: for points whose x order means nothing (the
    /// configurations behind a Pareto front, a scatter of presets).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub points_only: bool,
    /// The single rounds behind the points, as `(x, y)` (a point's x, one round's value),
    /// drawn as a strip of small dots beside each point, as criterion shows its samples.
    /// Empty where the rounds are not kept (older results, models, the paper's figures).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<(f64, f64)>,
}

impl Series {
    /// A series of points (with or without intervals).
    pub fn new(name: impl Into<String>, points: Vec<Point>, provenance: Provenance) -> Self {
        Self {
            name: name.into(),
            points,
            provenance,
            points_only: false,
            rounds: Vec::new(),
        }
    }

    /// The series with the single rounds behind its points, `(x, value)` each.
    pub fn with_rounds(mut self, rounds: impl IntoIterator<Item = (f64, f64)>) -> Self {
        self.rounds = rounds.into_iter().collect();
        self
    }

    /// The series as markers only, not joined by a line.
    pub fn points_only(mut self) -> Self {
        self.points_only = true;
        self
    }

    /// A series from `(x, y)` pairs.
    pub fn from_xy(
        name: impl Into<String>,
        points: impl IntoIterator<Item = (f64, f64)>,
        provenance: Provenance,
    ) -> Self {
        Self::new(
            name,
            points.into_iter().map(Point::from).collect(),
            provenance,
        )
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
    /// On a logarithmic value axis bars become dots (a bar's length means nothing there).
    Bar,
    /// Bars over categorical x values with the series stacked (e.g. busy, waiting and
    /// sending time of each pipeline stage).
    Stacked,
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
    /// How the value axis (y; the bars' length) is scaled.
    #[serde(default, skip_serializing_if = "ValueAxis::is_auto")]
    pub value_axis: ValueAxis,
    /// Line series join their markers by a staircase (Pareto fronts: each step holds until
    /// the next point) instead of straight lines.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub steps: bool,
    /// A sentence under the chart: a normalisation, a caveat.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// How a chart's value axis is scaled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueAxis {
    /// Logarithmic when the positive values span two decades or more, else linear from zero.
    #[default]
    Auto,
    /// Linear, from zero (ratios, speedups).
    Zero,
    /// Logarithmic (base 10).
    Log,
    /// Linear, fitted to the data (only where the chart says why, e.g. temperatures).
    Fit,
}

impl ValueAxis {
    fn is_auto(&self) -> bool {
        *self == ValueAxis::Auto
    }
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
            value_axis: ValueAxis::Auto,
            steps: false,
            note: String::new(),
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
            value_axis: ValueAxis::Auto,
            steps: false,
            note: String::new(),
        }
    }

    /// A stacked bar chart over `categories` with no series yet.
    pub fn stacked(
        title: impl Into<String>,
        x_label: &str,
        y_label: &str,
        categories: Vec<String>,
    ) -> Self {
        Self {
            kind: ChartKind::Stacked,
            ..Self::bar(title, x_label, y_label, categories)
        }
    }

    /// A logarithmic value axis.
    pub fn log_y(mut self) -> Self {
        self.value_axis = ValueAxis::Log;
        self
    }

    /// A linear value axis from zero, even where the values span decades.
    pub fn zero_y(mut self) -> Self {
        self.value_axis = ValueAxis::Zero;
        self
    }

    /// A linear value axis fitted to the data, not starting at zero.
    pub fn fit_y(mut self) -> Self {
        self.value_axis = ValueAxis::Fit;
        self
    }

    /// Line series as staircases (a Pareto front, its points sorted by x).
    pub fn steps(mut self) -> Self {
        self.steps = true;
        self
    }

    /// A sentence under the chart.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }

    /// Adds a vertical reference line at the paper's x value.
    pub fn reference_x(mut self, label: impl Into<String>, value: f64) -> Self {
        self.references.push(Reference {
            label: label.into(),
            value,
            on_x: true,
        });
        self
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

/// The file the data of chart `index` (from 0) of experiment `id` is written to, beside the
/// experiment's own CSV: `scc-blowfish-fig8.chart2.csv` for its second chart.
pub fn chart_csv_name(id: &str, index: usize) -> String {
    format!("{id}.chart{}.csv", index + 1)
}

impl Chart {
    /// The data behind the chart as CSV, to plot it again elsewhere: one row per point —
    /// series, provenance, x (a bar chart's category name), y and its 95 % interval, at full
    /// precision — then one row per paper reference line. The x and y columns are named by
    /// the axis labels, so their units travel with them.
    pub fn to_csv(&self) -> String {
        let full = super::table::full;
        let y = &self.y_label;
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "series".to_string(),
            "provenance".to_string(),
            self.x_label.clone(),
            y.clone(),
            format!("{y} ci95_low"),
            format!("{y} ci95_high"),
        ]);
        for s in &self.series {
            for p in &s.points {
                let x = match self.kind {
                    ChartKind::Line => full(p.x),
                    ChartKind::Bar | ChartKind::Stacked => self
                        .categories
                        .get(p.x as usize)
                        .cloned()
                        .unwrap_or_else(|| full(p.x)),
                };
                let _ = w.write_record([
                    s.name.clone(),
                    s.provenance.label(),
                    x,
                    full(p.y),
                    p.y_low.map_or(String::new(), full),
                    p.y_high.map_or(String::new(), full),
                ]);
            }
        }
        for r in &self.references {
            let (x, y) = if r.on_x {
                (full(r.value), String::new())
            } else {
                (String::new(), full(r.value))
            };
            let _ = w.write_record([
                r.label.clone(),
                "paper reference".into(),
                x,
                y,
                String::new(),
                String::new(),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_chart_s_data_as_csv_names_categories_units_and_the_paper_s_lines() {
        let bars = Chart::bar(
            "t",
            "stage",
            "time (s)",
            vec!["read".into(), "round 1".into()],
        )
        .with(Series::new(
            "busy",
            vec![Point::with_ci(1.0, 0.25, 0.2, 0.3), Point::new(0.0, 1e-7)],
            Provenance::Measured,
        ))
        .reference("paper: 8 KB", 2.0);
        assert_eq!(
            bars.to_csv(),
            "series,provenance,stage,time (s),time (s) ci95_low,time (s) ci95_high\n\
             busy,measured,round 1,0.25,0.2,0.3\n\
             busy,measured,read,0.0000001,,\n\
             paper: 8 KB,paper reference,,2,,\n"
        );
        let line = Chart::line("t", "threads", "speedup (x)", false).with(Series::from_xy(
            "ours, modelled",
            [(2.0, 1.5)],
            Provenance::Modelled("power model".into()),
        ));
        assert!(
            line.to_csv()
                .ends_with("\"ours, modelled\",modelled (power model),2,1.5,,\n"),
            "{}",
            line.to_csv()
        );
        assert_eq!(
            chart_csv_name("scc-blowfish-fig8", 1),
            "scc-blowfish-fig8.chart2.csv"
        );
    }
}
