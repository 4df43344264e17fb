//! What a study writes and reads back: results.json, each experiment's table and each chart's
//! data as CSV. A leaf: it imports nothing else from the study.
use crate::error::{Error, Result};
use crate::results::StudyResults;
use parcrypt::io::write_atomic;
use std::path::Path;

/// An I/O error on `path`, as the library's error.
pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes results.json, each experiment's table as CSV, and the data behind each chart as
/// CSV ([`crate::results::chart_csv_name`]).
pub fn write_outputs(study: &StudyResults, out: &Path) -> Result<()> {
    let json = serde_json::to_vec_pretty(study)
        .map_err(|e| Error::Export(format!("results.json: {e}")))?;
    write_atomic(&out.join("results.json"), &json, None)?;
    for e in &study.experiments {
        write_atomic(
            &out.join(format!("{}.csv", e.id)),
            e.table.to_csv().as_bytes(),
            None,
        )?;
        for (i, chart) in e.charts.iter().enumerate() {
            let name = crate::results::chart_csv_name(&e.id, i);
            write_atomic(&out.join(name), chart.to_csv().as_bytes(), None)?;
        }
    }
    Ok(())
}

/// Reads a study's results.json: `path` is the study's folder or the file itself.
pub fn load(path: &Path) -> Result<StudyResults> {
    let path = if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    };
    let bytes = std::fs::read(&path).map_err(io_err(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Error::InvalidParameter(format!("{}: not a study's results ({e})", path.display()))
    })
}
