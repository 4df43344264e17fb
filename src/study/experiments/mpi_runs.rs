//! MPI runs in the study: the results a `mpirun -n N parcrypt-mpi <program> --json F` wrote
//! (named with `study --mpi-results F`, or dropped in the study folder's `mpi/`), read as JSON
//! — the study never links MPI — checked, and shown as one experiment each under its seed,
//! beside that seed's thread experiments: every row labelled by backend (`mpi` or the
//! `threads` form measured in the same run), ranks and hosts. They judge no claim: the
//! study's verdicts stay on its own runs, so without MPI nothing changes.
use super::{int, num, opt, text};
use crate::bench::MachineInfo;
use crate::error::{Error, Result};
use crate::study::{Chart, ExperimentResult, Point, Provenance, Quality, Series, Table};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The folder inside a study's output folder searched for MPI results (`*.json`).
pub const FOLDER: &str = "mpi";

/// The `parcrypt-mpi` programs, told apart by their records' fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// Batch RSA (PaRSA).
    Rsa,
    /// The Blowfish round pipeline (SCC Blowfish).
    Pipeline,
    /// The CRSA hypercube (CRSA).
    Crsa,
    /// PBlock / PARC4 over a file (cipher-energy).
    Cipher,
}

impl Program {
    /// The program a record comes from.
    fn of(r: &Map<String, Value>) -> Option<Self> {
        let has = |k: &str| r.contains_key(k);
        if has("stage_stats") && has("hop_us") {
            Some(Self::Pipeline)
        } else if has("pes") && has("mulmods") {
            Some(Self::Crsa)
        } else if has("schedule") && has("bits") {
            Some(Self::Rsa)
        } else if has("baseline") && has("alg") {
            Some(Self::Cipher)
        } else {
            None
        }
    }

    /// `parcrypt-mpi`'s name for it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rsa => "rsa",
            Self::Pipeline => "pipeline",
            Self::Crsa => "crsa",
            Self::Cipher => "cipher",
        }
    }

    /// The paper it belongs to.
    pub fn paper_id(self) -> &'static str {
        match self {
            Self::Rsa => "parsa",
            Self::Pipeline => "scc-blowfish",
            Self::Crsa => "crsa",
            Self::Cipher => "cipher-energy",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Self::Rsa => "Batch RSA over MPI ranks",
            Self::Pipeline => "Round-pipelined Blowfish over MPI ranks",
            Self::Crsa => "CRSA hypercube over MPI ranks",
            Self::Cipher => "PBlock / PARC4 over MPI ranks",
        }
    }

    /// The program's own figure shown as the last column, and its field.
    fn extra(self) -> &'static str {
        match self {
            Self::Rsa => "msgs_per_s",
            Self::Pipeline => "hop_us",
            Self::Crsa => "mulmods",
            Self::Cipher => "mb_per_s",
        }
    }

    /// What the record measured, for people.
    fn configuration(self, r: &Map<String, Value>) -> String {
        let s = |k: &str| r.get(k).map_or("-".into(), plain);
        match self {
            Self::Rsa => format!(
                "{}-bit {} of {} messages, {} schedule, chunk {}, {} threads",
                s("bits"),
                s("op"),
                s("messages"),
                s("schedule"),
                s("chunk"),
                s("threads")
            ),
            Self::Pipeline => match r.get("chunk_bytes").and_then(Value::as_u64) {
                Some(c) => format!("{} {} stages, {c} B chunks", s("alg"), s("stages")),
                None => format!("{} (sequential)", s("alg")),
            },
            Self::Crsa => format!(
                "{}, {} PEs, {} blocks",
                s("strategy"),
                s("pes"),
                s("blocks")
            ),
            Self::Cipher => format!("{} {}, {} threads", s("alg"), s("op"), s("threads")),
        }
    }
}

/// A JSON value as plain text ("null" → "-").
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// One checked record.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    backend: String,
    ranks: u64,
    hosts: u64,
    configuration: String,
    median_s: f64,
    min_s: f64,
    max_s: f64,
    runs: u64,
    speedup: f64,
    /// Relative half-width of the median's 95 % interval (of min–max when not recorded).
    spread: f64,
    extra: Option<f64>,
}

impl Row {
    /// "mpi: 2 ranks on 1 host" or "threads".
    fn label(&self) -> String {
        let n = |k: u64, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
        match self.backend.as_str() {
            "mpi" => format!(
                "mpi: {} on {}",
                n(self.ranks, "rank"),
                n(self.hosts, "host")
            ),
            other => other.to_string(),
        }
    }
}

fn bad(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::InvalidParameter(format!(
        "{}: not a parcrypt-mpi result (mpirun -n N parcrypt-mpi <program> --json FILE): {why}",
        path.display()
    ))
}

fn row(path: &Path, i: usize, r: &Map<String, Value>, program: Program) -> Result<Row> {
    let field = |k: &str| bad(path, format!("result {i} has no valid '{k}'"));
    let count = |k: &str| {
        r.get(k)
            .and_then(Value::as_u64)
            .filter(|&n| n >= 1)
            .ok_or_else(|| field(k))
    };
    let seconds = |k: &str| {
        r.get(k)
            .and_then(Value::as_f64)
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| field(k))
    };
    let backend = match r.get("backend").and_then(Value::as_str) {
        Some(b @ ("mpi" | "threads")) => b.to_string(),
        _ => return Err(field("backend")),
    };
    let (ranks, hosts) = (count("ranks")?, count("hosts")?);
    if hosts > ranks {
        return Err(bad(
            path,
            format!("result {i} has more hosts ({hosts}) than ranks ({ranks})"),
        ));
    }
    let (median_s, min_s, max_s) = (seconds("median_s")?, seconds("min_s")?, seconds("max_s")?);
    if !(min_s <= median_s && median_s <= max_s) {
        return Err(bad(
            path,
            format!("result {i}: median_s is not between min_s and max_s"),
        ));
    }
    if r.get("verified").and_then(Value::as_bool) == Some(false) {
        return Err(bad(
            path,
            format!("result {i} was not verified against the sequential reference"),
        ));
    }
    let speedup = r
        .get("speedup")
        .and_then(Value::as_f64)
        .filter(|x| x.is_finite())
        .ok_or_else(|| field("speedup"))?;
    let (lo, hi) = match (r.get("ci95_low_s"), r.get("ci95_high_s")) {
        (Some(l), Some(h)) => (l.as_f64().unwrap_or(min_s), h.as_f64().unwrap_or(max_s)),
        _ => (min_s, max_s),
    };
    Ok(Row {
        backend,
        ranks,
        hosts,
        configuration: program.configuration(r),
        median_s,
        min_s,
        max_s,
        runs: count("runs")?,
        speedup,
        spread: if median_s > 0.0 {
            (hi - lo) / 2.0 / median_s
        } else {
            0.0
        },
        extra: r.get(program.extra()).and_then(Value::as_f64),
    })
}

/// Reads and checks one MPI result file: its program and its experiment (id left empty).
pub fn read(path: &Path) -> Result<(Program, ExperimentResult)> {
    let bytes = std::fs::read(path).map_err(|e| {
        Error::InvalidParameter(format!(
            "{}: cannot read the MPI results: {e}",
            path.display()
        ))
    })?;
    let doc: Value =
        serde_json::from_slice(&bytes).map_err(|e| bad(path, format!("not JSON ({e})")))?;
    let results = doc
        .get("results")
        .and_then(Value::as_array)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| bad(path, "no 'results' list"))?;
    let machine = doc
        .get("machine")
        .cloned()
        .and_then(|m| serde_json::from_value::<MachineInfo>(m).ok())
        .ok_or_else(|| bad(path, "no 'machine' it was measured on"))?;
    let records: Vec<&Map<String, Value>> = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.as_object()
                .ok_or_else(|| bad(path, format!("result {i} is not an object")))
        })
        .collect::<Result<_>>()?;
    let program =
        Program::of(records[0]).ok_or_else(|| bad(path, "results of no known program"))?;
    let mut rows = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if Program::of(r) != Some(program) {
            return Err(bad(
                path,
                format!("result {i} is not from the same program as result 0"),
            ));
        }
        rows.push(row(path, i, r, program)?);
    }
    if !rows.iter().any(|r| r.backend == "mpi") {
        return Err(bad(path, "no result with backend 'mpi'"));
    }
    Ok((program, experiment(path, program, &machine, &rows)))
}

fn experiment(
    path: &Path,
    program: Program,
    machine: &MachineInfo,
    rows: &[Row],
) -> ExperimentResult {
    let mpi = rows
        .iter()
        .find(|r| r.backend == "mpi")
        .map_or(String::new(), Row::label);
    ExperimentResult::new(
        String::new(),
        program.paper_id(),
        program.title(),
        format!("an MPI run (parcrypt-mpi {})", program.name()),
        Provenance::Measured,
        format!(
            "Read from {} (written by `mpirun -n N parcrypt-mpi {} --json`), measured on {}: backend {mpi}, beside \
             the thread form of the same work measured in the same run (backend threads); every output was checked \
             against the sequential reference by parcrypt-mpi. Not timed by this study and judging no claim: the \
             verdicts stay on the study's own runs. Each row's spread is its 95 % interval where the file records \
             one, its min–max otherwise.",
            path.display(),
            program.name(),
            machine.one_line()
        ),
    )
    .with_table(table(program, rows))
    .with_charts(vec![chart(program, rows)])
    .with_quality(quality(rows))
}

/// One row per configuration and backend, with the program's own column.
fn table(program: Program, rows: &[Row]) -> Table {
    let mut table = Table::new(&[
        "backend",
        "ranks",
        "hosts",
        "configuration",
        "median_s",
        "min_s",
        "max_s",
        "runs",
        "speedup_x",
        program.extra(),
    ]);
    for r in rows {
        table.push(vec![
            text(&r.backend),
            int(r.ranks),
            int(r.hosts),
            text(&r.configuration),
            num(r.median_s),
            num(r.min_s),
            num(r.max_s),
            int(r.runs),
            num(r.speedup),
            opt(r.extra),
        ]);
    }
    table
}

/// Median time by backend: a bar per configuration, a series per backend.
fn chart(program: Program, rows: &[Row]) -> Chart {
    let mut categories: Vec<String> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for r in rows {
        if !categories.contains(&r.configuration) {
            categories.push(r.configuration.clone());
        }
        if !labels.contains(&r.label()) {
            labels.push(r.label());
        }
    }
    let mut chart = Chart::bar(
        format!("{} — median time by backend", program.title()),
        "configuration",
        "median time (s)",
        categories.clone(),
    );
    for label in &labels {
        let points = rows
            .iter()
            .filter(|r| &r.label() == label)
            .filter_map(|r| {
                let x = categories.iter().position(|c| c == &r.configuration)?;
                Some(Point::with_ci(x as f64, r.median_s, r.min_s, r.max_s))
            })
            .collect();
        chart = chart.with(Series::new(label.clone(), points, Provenance::Measured));
    }
    chart
}

/// How sure the rows are: the fewest runs, the median spread, and whether any row is wider
/// than ±10 %.
fn quality(rows: &[Row]) -> Quality {
    let mut spreads: Vec<f64> = rows.iter().map(|r| r.spread * 100.0).collect();
    spreads.sort_by(f64::total_cmp);
    Quality {
        rounds: rows.iter().map(|r| r.runs as usize).min().unwrap_or(0),
        extra_rounds: 0,
        spread_pct: spreads[spreads.len() / 2],
        noisy: spreads.iter().any(|&s| s > 10.0),
        ..Quality::default()
    }
}

/// The `*.json` files in `out`'s [`FOLDER`], sorted (none if there is no such folder).
pub fn discover(out: &Path) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(out.join(FOLDER)) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    v.sort();
    v
}

/// Reads every file (each must be a good MPI result), ids `<seed>-mpi-<program>` with `-2`,
/// `-3`, … for a program's later files.
pub fn load(paths: &[PathBuf]) -> Result<Vec<ExperimentResult>> {
    let mut out: Vec<ExperimentResult> = Vec::new();
    for p in paths {
        let (program, mut e) = read(p)?;
        let base = format!("{}-mpi-{}", program.paper_id(), program.name());
        let n = out
            .iter()
            .filter(|o| o.id == base || o.id.starts_with(&format!("{base}-")))
            .count();
        e.id = if n == 0 {
            base
        } else {
            format!("{base}-{}", n + 1)
        };
        out.push(e);
    }
    Ok(out)
}

/// The files named plus those [`discover`] finds in `out`, read by [`load`].
pub fn find_and_load(named: &[PathBuf], out: &Path) -> Result<Vec<ExperimentResult>> {
    let mut paths = named.to_vec();
    paths.extend(discover(out));
    load(&paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::Cell;

    fn record(backend: &str, ranks: u64, chunk: Option<u64>) -> Value {
        serde_json::json!({
            "alg": if chunk.is_some() { "bf-folded" } else { "blowfish-ecb" },
            "threads": ranks, "stages": ranks, "size_bytes": 1024, "chunk_bytes": chunk,
            "median_s": 0.02, "min_s": 0.01, "max_s": 0.03, "runs": 3, "speedup": 0.5,
            "verified": true, "backend": backend, "ranks": ranks, "hosts": 1,
            "hop_us": chunk.map(|_| 12.5), "stage_stats": [],
        })
    }

    fn file(results: Vec<Value>) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.json");
        let doc = serde_json::json!({ "machine": MachineInfo::detect(), "results": results });
        std::fs::write(&p, serde_json::to_vec(&doc).unwrap()).unwrap();
        (dir, p)
    }

    #[test]
    fn a_pipeline_run_is_labelled_by_backend_under_scc_blowfish() {
        let (_d, p) = file(vec![
            record("threads", 1, None),
            record("mpi", 2, Some(8192)),
            record("threads", 1, Some(8192)),
        ]);
        let e = load(&[p.clone(), p]).unwrap();
        assert_eq!(e[0].id, "scc-blowfish-mpi-pipeline");
        assert_eq!(e[1].id, "scc-blowfish-mpi-pipeline-2");
        assert_eq!(e[0].paper_id, "scc-blowfish");
        let t = &e[0].table;
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[1][0], Cell::text("mpi"));
        assert_eq!(t.rows[1][1], Cell::Int(2));
        assert_eq!(t.rows[1][9], Cell::Num(12.5));
        let names: Vec<&str> = e[0].charts[0]
            .series
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["threads", "mpi: 2 ranks on 1 host"]);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let why = |results: Vec<Value>| {
            let (_d, p) = file(results);
            read(&p).unwrap_err().to_string()
        };
        assert!(why(vec![]).contains("no 'results'"));
        assert!(why(vec![record("threads", 1, None)]).contains("no result with backend 'mpi'"));
        for (key, value, needle) in [
            ("backend", Value::from("openmp"), "'backend'"),
            ("hosts", Value::from(3), "more hosts"),
            ("verified", Value::from(false), "not verified"),
            ("median_s", Value::from(1.0), "between min_s and max_s"),
        ] {
            let mut r = record("mpi", 2, Some(8));
            r[key] = value;
            assert!(why(vec![r]).contains(needle), "{key}");
        }
        assert!(why(vec![serde_json::json!({"x": 1})]).contains("no known program"));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        std::fs::write(&p, "{not json").unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(e.contains("not JSON") && !e.contains('\n'), "{e}");
        assert!(read(&dir.path().join("missing.json")).is_err());
    }

    #[test]
    fn discovery_finds_json_files_in_the_mpi_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        assert!(discover(dir.path()).is_empty());
        std::fs::create_dir_all(dir.path().join(FOLDER)).unwrap();
        for f in ["b.json", "a.json", "notes.txt"] {
            std::fs::write(dir.path().join(FOLDER).join(f), "{}").unwrap();
        }
        let found = discover(dir.path());
        let names: Vec<_> = found
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["a.json", "b.json"]);
    }
}
