//! The option groups every `bench` subcommand shares — repetition and output ([`RunOpts`]),
//! thread-count lists — and the flags column of their screen tables, in one module that
//! `bench.rs` and each `bench_*.rs` import (none of them imports another for these).
use super::output::{self, Output};
use super::{parse_list, parse_positive};
use anyhow::Result;
use clap::Args;
use parcrypt_lab::bench::{
    BenchConfig, BenchReport, ExportFormat, Progress, render, render_report,
};

/// Comma-separated thread counts, each at least 1.
#[derive(Clone, Debug)]
pub struct Threads(pub Vec<usize>);

/// Parses `--threads`: comma-separated thread counts, each at least 1.
pub fn threads_list(s: &str) -> Result<Threads, String> {
    parse_list(s, "thread", |t| parse_positive(t, "thread count")).map(Threads)
}

impl Threads {
    /// The given counts, or a sweep's default: one thread and the logical CPUs
    /// ([`default_threads`](super::default_threads)), once when they are the same.
    pub fn or_default_sweep(given: Option<Threads>) -> Vec<usize> {
        given.map_or_else(
            || {
                let mut v = vec![1, super::default_threads()];
                v.dedup();
                v
            },
            |t| t.0,
        )
    }
}

/// A positive integer option (`--runs`, `--messages`, ...).
pub fn positive(s: &str) -> Result<usize, String> {
    parse_positive(s, "value")
}

/// Repetition and output options shared by every benchmark, with the same defaults in every
/// `bench` subcommand.
#[derive(Args, Debug, Clone)]
pub struct RunOpts {
    /// Warm-up runs per configuration (not measured).
    #[arg(short = 'w', long, default_value_t = 1)]
    pub warmup: u32,
    /// Fewest measured runs per configuration.
    #[arg(short = 'r', long, default_value = "5", value_parser = positive)]
    pub runs: usize,
    /// Least measured seconds per configuration.
    #[arg(long, default_value = "0.5", value_parser = seconds)]
    pub min_time: f64,
    /// Most measured runs per configuration.
    #[arg(short = 'M', long, default_value = "1000", value_parser = positive)]
    pub max_runs: usize,
    /// Write the results as JSON to F (`-`: stdout): {"machine": {...}, "results": [...]},
    /// each record with its per-run `times` in seconds beside the summary.
    #[arg(long, value_name = "F", value_parser = output::parse)]
    pub json: Option<Output>,
    /// Write the results as CSV to F (`-`: stdout); units in the column names.
    #[arg(long, value_name = "F", value_parser = output::parse)]
    pub csv: Option<Output>,
    /// Write the table as Markdown to F (`-`: stdout, instead of the plain table).
    #[arg(long, value_name = "F", value_parser = output::parse)]
    pub markdown: Option<Output>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A number of seconds: finite and not negative.
pub fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "must be a non-negative number of seconds, got '{s}'"
        )),
    }
}

impl RunOpts {
    /// The harness configuration, after checking the options and every output target, so a
    /// bad path fails before minutes of measuring.
    pub fn config(&self) -> Result<BenchConfig> {
        if self.max_runs < self.runs {
            return Err(super::usage(format!(
                "--max-runs ({}) must be at least --runs ({})",
                self.max_runs, self.runs
            )));
        }
        output::check(&[
            ("--json", self.json.as_ref()),
            ("--csv", self.csv.as_ref()),
            ("--markdown", self.markdown.as_ref()),
        ])?;
        Ok(BenchConfig {
            warmup_runs: self.warmup,
            min_runs: self.runs as u32,
            min_time: self.min_time,
            max_runs: self.max_runs as u32,
        })
    }

    /// Refuses an output file that is one of the command's `inputs` (`(option, path)`, e.g.
    /// `--key`), before any work.
    pub fn check_not_inputs(&self, inputs: &[(&str, Option<&std::path::Path>)]) -> Result<()> {
        output::check_not_inputs(
            &[
                ("--json", self.json.as_ref()),
                ("--csv", self.csv.as_ref()),
                ("--markdown", self.markdown.as_ref()),
            ],
            inputs,
        )
    }

    /// Whether the tables and notes for people go to stdout: not when an output is `-`.
    pub fn screen(&self) -> bool {
        ![&self.json, &self.csv, &self.markdown]
            .into_iter()
            .any(|o| *o == Some(Output::Stdout))
    }

    /// A progress bar over `total` steps (hidden with --quiet or off a terminal).
    pub fn progress(&self, total: usize, label: &str) -> Progress {
        Progress::new(total as u64, label, self.quiet)
    }

    /// The main table: printed plain for people (unless stdout is taken), and as Markdown
    /// where --markdown says.
    pub fn print_table<T: serde::Serialize>(&self, rows: &[T]) -> Result<()> {
        if self.screen() {
            print!("{}", render(rows, ExportFormat::Table)?);
        }
        if let Some(target) = &self.markdown {
            target.write(&render(rows, ExportFormat::Markdown)?)?;
        }
        Ok(())
    }

    /// Writes the JSON and CSV outputs asked for.
    pub fn write_files<R: serde::Serialize>(&self, report: &BenchReport<R>) -> Result<()> {
        if let Some(target) = &self.json {
            target.write(&render_report(report, ExportFormat::Json)?)?;
        }
        if let Some(target) = &self.csv {
            target.write(&render_report(report, ExportFormat::Csv)?)?;
        }
        Ok(())
    }
}

/// The flags column of a screen table: `oversubscribed`, and the outliers by Tukey's fences
/// ("2 mild + 1 severe outliers"), comma-separated.
pub fn flags(oversubscribed: bool, timing: &parcrypt_lab::bench::TimingFields) -> String {
    let outliers = timing.outlier_flag();
    [
        oversubscribed.then_some("oversubscribed"),
        (!outliers.is_empty()).then_some(outliers.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ")
}

/// The 95 % interval of the median for a screen table, `low-high` to 4 decimals; empty when
/// the runs were too few to give one (min and max stand beside it).
pub fn ci95_cell(timing: &parcrypt_lab::bench::TimingFields) -> String {
    timing
        .ci95()
        .map_or(String::new(), |(lo, hi)| format!("{lo:.4}-{hi:.4}"))
}

/// The notes under a screen table about its statistics: too few runs for an interval, and
/// outliers found (hyperfine's and criterion's warning), each said once.
pub fn statistics_notes<'a>(
    timings: impl IntoIterator<Item = &'a parcrypt_lab::bench::TimingFields>,
) -> Vec<String> {
    let timings: Vec<&parcrypt_lab::bench::TimingFields> = timings.into_iter().collect();
    let mut notes = Vec::new();
    if timings
        .iter()
        .any(|t| t.runs < parcrypt_lab::bench::MIN_RUNS_FOR_CI)
    {
        notes.push(format!(
            "note: fewer than {} runs give no 95 % interval of the median: ci95 is left empty there (min and max are the range)",
            parcrypt_lab::bench::MIN_RUNS_FOR_CI
        ));
    }
    let with = timings
        .iter()
        .filter(|t| !t.outlier_flag().is_empty())
        .count();
    if with > 0 {
        notes.push(format!(
            "note: {with} of {} results have outliers (Tukey's fences: mild beyond 1.5 IQR of a quartile, severe beyond 3 IQR); \
             the machine was probably busy; run again on a quiet machine, or with more --runs",
            timings.len()
        ));
    }
    notes
}
