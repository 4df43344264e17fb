//! The results archive by machine (issue 40): `results/machines/<cpu>/` keeps one quick run per
//! CPU met — `results.json` and `report.md` as the study wrote them, `machine.json` (the CPU's
//! record: vendor, family, model, stepping, SIMD extensions, L1d, SMT) and `provenance.md` —
//! and the folder's `reasons.json` keeps the measured reasons found for verdicts that differ
//! by machine.
//!
//! [`Archive::compare`] sets a run beside every CPU of the archive: one verdict per CPU (this
//! run stands for its own CPU, replacing that CPU's archived run), and a claim is
//! *machine-dependent* when the CPUs' verdicts differ; a *flip* when one CPU says holds and
//! another does not hold. `parcrypt study --archive DIR` stores the comparison in results.json
//! and the report lists the machine-dependent claims with their reasons; `parcrypt study diff
//! RUN --archive DIR` prints it; `parcrypt study archive RUN` files a run into the archive.
use super::diff::{current_ids, figure_of};
use super::files::io_err;
use crate::bench::cpu_id::CpuId;
use crate::claims::papers::current_id;
use crate::error::{Error, Result};
use crate::results::{
    ClaimResult, CpuColumn, CpuVerdict, MachineClaim, MachineComparison, MachineReason,
    StudyResults, Verdict,
};
use parcrypt::io::write_atomic;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The file of reasons in an archive folder.
pub const REASONS: &str = "reasons.json";

/// An archive entry's `machine.json`: what the comparison needs of it (hand-written records
/// of older runs carry more, which is kept in the file and ignored here).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineRecord {
    /// The folder's key (`amd-f25-m17`).
    pub key: String,
    /// The CPU in one line.
    pub description: String,
    /// The identity as detected, when the run recorded it.
    #[serde(default)]
    pub cpu: Option<CpuId>,
    /// Where the record comes from ("detected by the study" or how it was written).
    #[serde(default)]
    pub source: String,
}

/// One CPU's archived run.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its folder.
    pub dir: PathBuf,
    /// Its machine record.
    pub machine: MachineRecord,
    /// Its study.
    pub study: StudyResults,
}

/// An archive folder read whole.
#[derive(Clone, Debug)]
pub struct Archive {
    /// The folder.
    pub dir: PathBuf,
    /// Its entries, by key.
    pub entries: Vec<Entry>,
    /// Its reasons file (empty when it has none).
    pub reasons: Vec<MachineReason>,
}

impl Archive {
    /// Reads every `<dir>/<key>/` with a `machine.json` and a `results.json`, and
    /// `<dir>/reasons.json` when present. A folder that is not an archive (missing, or with
    /// no entry), or an entry that does not read, is an error naming the file.
    pub fn load(dir: &Path) -> Result<Self> {
        let mut entries = Vec::new();
        let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io_err(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        subdirs.sort();
        for sub in subdirs {
            let record = sub.join("machine.json");
            if !record.is_file() {
                continue;
            }
            let bytes = std::fs::read(&record).map_err(io_err(&record))?;
            let machine: MachineRecord = serde_json::from_slice(&bytes).map_err(|e| {
                Error::InvalidParameter(format!("{}: not a machine record ({e})", record.display()))
            })?;
            let study = super::load(&sub)?;
            entries.push(Entry {
                dir: sub,
                machine,
                study,
            });
        }
        if entries.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "{}: no archived run in it (expected folders <cpu>/ with machine.json and results.json)",
                dir.display()
            )));
        }
        let reasons_path = dir.join(REASONS);
        let reasons = if reasons_path.is_file() {
            let bytes = std::fs::read(&reasons_path).map_err(io_err(&reasons_path))?;
            serde_json::from_slice(&bytes).map_err(|e| {
                Error::InvalidParameter(format!(
                    "{}: not a list of reasons ({e})",
                    reasons_path.display()
                ))
            })?
        } else {
            Vec::new()
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            entries,
            reasons,
        })
    }

    /// `study` beside every CPU of the archive. `study`'s CPU key (from its machine record)
    /// names its column; an archived run of the same CPU is left out (this run stands for it).
    pub fn compare(&self, study: &StudyResults) -> MachineComparison {
        let m = &study.machine;
        let this_key = m.cpu.key().unwrap_or_else(|| "this run".to_string());
        let mut cpus = vec![CpuColumn {
            key: this_key.clone(),
            description: m.cpu.describe(&m.cpu_model, m.logical_cores),
            source: "this run".into(),
            at: m.detected_at.clone(),
            older_judge: older_judge(study),
        }];
        let mut runs: Vec<(String, Vec<ClaimResult>)> =
            vec![(this_key.clone(), current_ids(&study.claims))];
        for e in self.entries.iter().filter(|e| e.machine.key != this_key) {
            cpus.push(CpuColumn {
                key: e.machine.key.clone(),
                description: e.machine.description.clone(),
                source: e.dir.display().to_string(),
                at: e.study.machine.detected_at.clone(),
                older_judge: older_judge(&e.study),
            });
            runs.push((e.machine.key.clone(), current_ids(&e.study.claims)));
        }
        let mut compared = 0;
        let mut dependent = Vec::new();
        for c in &runs[0].1 {
            let verdicts: Vec<CpuVerdict> = runs
                .iter()
                .filter_map(|(key, claims)| {
                    let other = claims.iter().find(|o| o.id == c.id)?;
                    Some(CpuVerdict {
                        cpu: key.clone(),
                        verdict: other.verdict,
                        figure: figure_of(other),
                    })
                })
                .collect();
            if verdicts.len() < 2 {
                continue;
            }
            compared += 1;
            if verdicts.iter().all(|v| v.verdict == verdicts[0].verdict) {
                continue;
            }
            let has = |x: Verdict| verdicts.iter().any(|v| v.verdict == x);
            let older = |key: &str| cpus.iter().any(|col| col.key == key && col.older_judge);
            let judge_may_differ = rests_on_new_rules(c)
                && verdicts
                    .iter()
                    .any(|v| v.verdict != c.verdict && older(&v.cpu));
            dependent.push(MachineClaim {
                judge_may_differ,
                id: c.id.clone(),
                flip: has(Verdict::Holds) && has(Verdict::DoesNotHold),
                reason: self
                    .reasons
                    .iter()
                    .find(|r| r.claims.iter().any(|id| current_id(id) == c.id))
                    .cloned(),
                verdicts,
            });
        }
        MachineComparison {
            archive: self.dir.display().to_string(),
            cpus,
            compared,
            dependent,
        }
    }
}

/// Whether `study` was judged before per-claim settings (issue 39): no measured or modelled
/// claim records one.
fn older_judge(study: &StudyResults) -> bool {
    !study.claims.iter().any(|c| c.setting.is_some())
}

/// Whether this run's verdict on `c` rests on a rule the older judge lacked: a scaled setting,
/// a model's own error, a named assumption's range.
fn rests_on_new_rules(c: &ClaimResult) -> bool {
    use crate::results::{Reason, Setting};
    c.setting == Some(Setting::Scaled)
        || matches!(
            c.reason,
            Some(
                Reason::ScaledSetting
                    | Reason::WithinModelError
                    | Reason::ModelRangeStraddles
                    | Reason::ModelRangeOutside
                    | Reason::ModelRangeInside
            )
        )
}

/// The comparison for people: the CPUs, then each machine-dependent claim with every CPU's
/// verdict and figure and its reason (or "unexplained"), and a summary line.
pub fn render(m: &MachineComparison) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "beside the archive {}:", m.archive);
    for c in &m.cpus {
        let _ = writeln!(s, "  {:<16} {} ({})", c.key, c.description, c.provenance());
    }
    for c in &m.dependent {
        let _ = writeln!(
            s,
            "{} {}{}",
            if c.flip { "FLIP" } else { "    " },
            c.id,
            if c.judge_may_differ {
                " (may be the judge's: an older run's verdict, this one rests on a newer rule)"
            } else {
                ""
            }
        );
        for v in &c.verdicts {
            let _ = writeln!(
                s,
                "       {:<16} {:<14} {}",
                v.cpu,
                v.verdict.name(),
                v.figure
            );
        }
        let _ = match &c.reason {
            Some(r) if r.explained => writeln!(s, "       reason (measured): {}", r.title),
            Some(r) => writeln!(
                s,
                "       reason (direction measured, cause not): {}",
                r.title
            ),
            None => writeln!(s, "       reason: unexplained"),
        };
    }
    let _ = writeln!(
        s,
        "{} of {} claims judged on {} CPUs differ by machine ({} of them may be the judge's); {} flip between holds and does-not-hold; {} have a reason on file ({} with the mechanism measured)",
        m.dependent.len(),
        m.compared,
        m.cpus.len(),
        m.judge_may_differ(),
        m.flips(),
        m.dependent.iter().filter(|c| c.reason.is_some()).count(),
        m.dependent
            .iter()
            .filter(|c| c.reason.as_ref().is_some_and(|r| r.explained))
            .count()
    );
    s
}

/// Files the run at `run` (its folder) into the archive `into`: `<into>/<key>/` with its
/// results.json and report.md copied, machine.json from the run's own CPU record and
/// provenance.md (one line: which run, when, how long, the load it saw is the caller's to
/// add). Refuses a run whose results.json names no CPU (written before the record existed),
/// and an existing entry unless `replace`. Returns the folder written.
pub fn file_run(run: &Path, into: &Path, replace: bool, note: Option<&str>) -> Result<PathBuf> {
    let study = super::load(run)?;
    let m = &study.machine;
    let key = m.cpu.key().ok_or_else(|| {
        Error::InvalidParameter(format!(
            "{}: its results.json names no CPU family and model (a run of an older parcrypt); write its machine.json by hand",
            run.display()
        ))
    })?;
    let dir = into.join(&key);
    if dir.join("results.json").exists() && !replace {
        return Err(Error::InvalidParameter(format!(
            "{}: the archive already holds a run of this CPU (--replace to replace it)",
            dir.display()
        )));
    }
    let folder = if run.is_dir() {
        run.to_path_buf()
    } else {
        run.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let report = folder.join("report.md");
    let report_md = std::fs::read(&report).map_err(io_err(&report))?;
    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    let record = MachineRecord {
        key: key.clone(),
        description: m.cpu.describe(&m.cpu_model, m.logical_cores),
        cpu: Some(m.cpu.clone()),
        source: "detected by the study (/proc/cpuinfo), recorded in its results.json".into(),
    };
    let record_json = serde_json::to_string_pretty(&record)
        .map_err(|e| Error::Export(format!("machine.json: {e}")))?
        + "\n";
    write_atomic(&dir.join("machine.json"), record_json.as_bytes(), None)?;
    let results = folder.join("results.json");
    let results_bytes = std::fs::read(&results).map_err(io_err(&results))?;
    write_atomic(&dir.join("results.json"), &results_bytes, None)?;
    write_atomic(&dir.join("report.md"), &report_md, None)?;
    let provenance = format!(
        "- `{key}/` — {}. `parcrypt study --{}` (parcrypt {}), {:.0} s, started {}.{}\n",
        record.description,
        study.profile.name(),
        study.parcrypt_version,
        study.elapsed_s,
        m.detected_at,
        note.map_or(String::new(), |n| format!(" {n}"))
    );
    write_atomic(&dir.join("provenance.md"), provenance.as_bytes(), None)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept archive's folder (inside the repository).
    fn kept() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/machines")
    }

    /// The kept Xeon run with its CPU record filled in (the archived one predates it).
    fn xeon() -> StudyResults {
        let mut s = crate::study::load(&kept().join("intel-f6-m167")).unwrap();
        s.machine.cpu = CpuId {
            vendor: "Intel".into(),
            family: Some(6),
            model: Some(167),
            ..CpuId::default()
        };
        s
    }

    #[test]
    fn the_kept_archive_gives_the_two_cpus_verdicts_that_differ_and_their_reasons() {
        let archive = Archive::load(&kept()).unwrap();
        assert!(archive.entries.len() >= 2);
        let m = archive.compare(&xeon());
        // The Xeon run stands for its own CPU: its archived twin is not a second column.
        assert_eq!(
            m.cpus.iter().filter(|c| c.key == "intel-f6-m167").count(),
            1
        );
        assert_eq!(m.cpus[0].source, "this run");
        let zen5_only = Archive {
            entries: archive
                .entries
                .iter()
                .filter(|e| e.machine.key == "amd-f26-m2")
                .cloned()
                .collect(),
            ..archive.clone()
        };
        let m = zen5_only.compare(&xeon());
        // What results/machines/README.md counts by hand: 10 of 273 differ, 2 flip.
        assert_eq!((m.compared, m.dependent.len(), m.flips()), (273, 10, 2));
        let lockfree = m.claim("mary-karatsuba-kara-lockfree-16384").unwrap();
        assert!(lockfree.flip);
        assert!(
            lockfree
                .reason
                .as_ref()
                .unwrap()
                .title
                .contains("Lock-free")
        );
        assert!(m.claim("parsa-parsa2").unwrap().reason.is_none());
        let text = render(&m);
        assert!(text.contains("FLIP mary-karatsuba-mary-ondemand-1024"));
        assert!(text.contains("reason: unexplained"));
        assert!(text.contains("10 of 273 claims judged on 2 CPUs differ by machine (0 of them may be the judge's); 2 flip"));
    }

    #[test]
    fn a_flip_needs_holds_and_does_not_hold_and_same_verdicts_are_not_listed() {
        let archive = Archive::load(&kept()).unwrap();
        let mut zen5_like = archive
            .entries
            .iter()
            .find(|e| e.machine.key == "amd-f26-m2")
            .unwrap()
            .study
            .clone();
        zen5_like.machine.cpu = CpuId {
            vendor: "AMD".into(),
            family: Some(26),
            model: Some(2),
            ..CpuId::default()
        };
        // The Zen 5 run against itself (its own archived twin is left out) and the Xeon.
        let m = archive.compare(&zen5_like);
        assert_eq!(m.cpus.len(), archive.entries.len());
        let before = m.dependent.len();
        // A claim every CPU agrees on, held (so not inconclusive) everywhere.
        let id = zen5_like
            .claims
            .iter()
            .find(|c| c.verdict == Verdict::Holds && m.claim(&c.id).is_none())
            .unwrap()
            .id
            .clone();
        let id = id.as_str();
        let mut changed = zen5_like.clone();
        let c = changed.claims.iter_mut().find(|c| c.id == id).unwrap();
        let was = c.verdict;
        c.verdict = Verdict::Inconclusive;
        let m2 = archive.compare(&changed);
        assert_ne!(was, Verdict::Inconclusive);
        assert_eq!(m2.dependent.len(), before + 1);
        assert!(!m2.claim(id).unwrap().flip);
    }

    #[test]
    fn filing_a_run_writes_the_entry_and_refuses_to_overwrite_or_guess_the_cpu() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        std::fs::create_dir_all(&run).unwrap();
        let study = xeon();
        std::fs::write(
            run.join("results.json"),
            serde_json::to_vec(&study).unwrap(),
        )
        .unwrap();
        std::fs::write(run.join("report.md"), "# report\n").unwrap();
        let into = tmp.path().join("machines");
        let dir = file_run(&run, &into, false, Some("quiet")).unwrap();
        assert_eq!(dir, into.join("intel-f6-m167"));
        for f in ["results.json", "report.md", "machine.json", "provenance.md"] {
            assert!(dir.join(f).is_file(), "{f}");
        }
        let record: MachineRecord =
            serde_json::from_slice(&std::fs::read(dir.join("machine.json")).unwrap()).unwrap();
        assert_eq!(record.key, "intel-f6-m167");
        let provenance = std::fs::read_to_string(dir.join("provenance.md")).unwrap();
        assert!(provenance.contains("family 6 model 167") && provenance.ends_with("quiet\n"));
        // The archive reads back.
        assert_eq!(Archive::load(&into).unwrap().entries.len(), 1);
        let again = file_run(&run, &into, false, None).unwrap_err().to_string();
        assert!(again.contains("--replace"), "{again}");
        file_run(&run, &into, true, None).unwrap();
        // A run with no CPU record is refused, nothing written.
        let mut old = study.clone();
        old.machine.cpu = CpuId::default();
        std::fs::write(run.join("results.json"), serde_json::to_vec(&old).unwrap()).unwrap();
        let e = file_run(&run, &tmp.path().join("other"), false, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("names no CPU"), "{e}");
        assert!(!tmp.path().join("other").exists());
        // Not an archive: one clear error.
        let e = Archive::load(&run).unwrap_err().to_string();
        assert!(e.contains("no archived run"), "{e}");
    }
}
