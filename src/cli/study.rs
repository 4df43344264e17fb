//! `parcrypt study`: every seed paper's experiments, every claim judged, the report beside the
//! papers' figures; `parcrypt study diff A B`: two studies claim by claim — verdicts with their
//! reasons, figures with their intervals, and the numeric change with its interval.
//!
//! Run again in the same folder, the study reuses every experiment already measured there and
//! says so first (which, when, and how to measure again: `--fresh`, or deleting the folder's
//! `experiments/`); the header's time estimate counts only what will run, per experiment,
//! from a short calibration or the folder's previous run ([`study::estimate`]), and the
//! closing line sets each experiment's time beside it.
use super::parse_list;
use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use parcrypt_lab::study::{self, Next, PAPER_IDS, Profile, StudyOptions, StudyPlan, estimate};
use std::path::PathBuf;

/// Arguments of `parcrypt study`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct StudyArgs {
    #[command(subcommand)]
    command: Option<StudyCommand>,
    #[command(flatten)]
    run: RunArgs,
}

/// `parcrypt study` subcommands.
#[derive(Subcommand, Debug)]
enum StudyCommand {
    /// Two studies claim by claim: each changed verdict with both reasons, both figures with
    /// their intervals and the numeric change with its interval; exits non-zero when a claim
    /// moved between holds and does-not-hold.
    Diff(DiffArgs),
    /// Files a study run into the results archive by machine: `<INTO>/<cpu>/` with its
    /// results.json, report.md, the CPU's record (machine.json) and a provenance line.
    Archive(ArchiveArgs),
}

/// Arguments of `parcrypt study archive`.
#[derive(Args, Debug)]
struct ArchiveArgs {
    /// The study to file: its folder, or its results.json (report.md is taken beside it).
    run: PathBuf,
    /// The archive folder; the run goes into its `<vendor>-f<family>-m<model>/`.
    #[arg(long, default_value = "results/machines")]
    into: PathBuf,
    /// Replace the archive's run of the same CPU.
    #[arg(long)]
    replace: bool,
    /// Added to the provenance line: the load beside the run, the commit, anything a reader
    /// needs to weigh it.
    #[arg(long)]
    note: Option<String>,
}

/// Arguments of `parcrypt study diff`.
#[derive(Args, Debug)]
struct DiffArgs {
    /// The first study: its folder, or its results.json.
    first: PathBuf,
    /// The second study: its folder, or its results.json (optional with --archive).
    #[arg(required_unless_present = "archive")]
    second: Option<PathBuf>,
    /// Set the first study beside every CPU of this results archive (`results/machines`):
    /// each claim whose verdict differs by machine with every CPU's verdict and figure, and the
    /// archive's reason for it or "unexplained".
    #[arg(long, value_name = "DIR")]
    archive: Option<PathBuf>,
    /// Also list the numeric change of every claim (as criterion reports change), not only
    /// of the claims whose verdict changed.
    #[arg(long)]
    all: bool,
    /// What the terminal shows, and the JSON file: {"first", "second" (path, time, machine),
    /// "compared", "verdicts_changed", "flips", "claims" (every claim in both, each with both
    /// sides and its change), "only_first", "only_second"}.
    #[command(flatten)]
    out: super::output::ReportOpts,
}

/// Arguments of a study run.
#[derive(Args, Debug)]
struct RunArgs {
    /// Small sizes: the whole study in under 10 minutes on a 2-core machine (the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The papers' sizes where feasible (hours; the expected time is printed first).
    #[arg(long)]
    full: bool,
    /// Output folder (created; what an earlier run measured there is reused, see --fresh).
    #[arg(long, default_value = "parcrypt-study")]
    out: PathBuf,
    /// Measure every selected experiment again, even those the folder holds finished.
    #[arg(long)]
    fresh: bool,
    /// Only these papers, comma-separated: parsa, scc-blowfish, crsa, mary-karatsuba,
    /// cipher-energy (the old ids seed000 … seed004 are taken too).
    #[arg(long, value_parser = seeds_list)]
    only: Option<std::vec::Vec<String>>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// An MPI run to show beside the thread figures: the JSON of `mpirun -n N parcrypt-mpi
    /// <program> --json FILE` (repeatable; the `*.json` in OUT/mpi/ are read too).
    #[arg(long, value_name = "FILE")]
    mpi_results: Vec<PathBuf>,
    /// Set the run beside a results archive by machine (`results/machines`): results.json
    /// and the report then show the verdicts other CPUs gave and list those that differ by
    /// machine, with the archive's reasons.
    #[arg(long, value_name = "DIR")]
    archive: Option<PathBuf>,
}

fn seeds_list(s: &str) -> Result<Vec<String>, String> {
    parse_list(s, "paper_id", |t| {
        let t = parcrypt_lab::claims::papers::current_id(&t.to_ascii_lowercase());
        if PAPER_IDS.contains(&t.as_str()) {
            Ok(t)
        } else {
            Err(format!(
                "unknown paper_id '{t}' (expected one of {})",
                PAPER_IDS.join(", ")
            ))
        }
    })
}

/// Runs `parcrypt study` or `parcrypt study diff`.
pub fn run(args: StudyArgs) -> Result<()> {
    match args.command {
        Some(StudyCommand::Diff(d)) => diff(d),
        Some(StudyCommand::Archive(a)) => archive(a),
        None => run_study(args.run),
    }
}

fn diff(args: DiffArgs) -> Result<()> {
    args.out.check(&[])?;
    let first = study::load(&args.first)?;
    let Some(second_path) = &args.second else {
        // A run beside the archive: machine-dependent verdicts are expected, so no exit code
        // for them.
        let Some(dir) = args.archive.as_deref() else {
            bail!("study diff needs a second study or --archive DIR");
        };
        let archive = study::archive::Archive::load(dir)?;
        let m = archive.compare(&first);
        return args.out.emit(&m, || study::archive::render(&m));
    };
    let second = study::load(second_path)?;
    let paths = (
        args.first.display().to_string(),
        second_path.display().to_string(),
    );
    let d = study::diff::diff(&first, &second, (&paths.0, &paths.1));
    let archive = match &args.archive {
        Some(dir) => Some(study::archive::Archive::load(dir)?.compare(&first)),
        None => None,
    };
    // The diff's JSON, with "machines" added when an archive was named.
    let mut json = serde_json::to_value(&d)?;
    if let Some(m) = &archive {
        json["machines"] = serde_json::to_value(m)?;
    }
    args.out.emit(&json, || {
        let mut s = d.render(args.all);
        if let Some(m) = &archive {
            s.push_str(&study::archive::render(m));
        }
        s
    })?;
    if d.flips() > 0 {
        bail!(
            "{} claim(s) moved between holds and does-not-hold",
            d.flips()
        );
    }
    Ok(())
}

fn archive(args: ArchiveArgs) -> Result<()> {
    let dir = study::archive::file_run(&args.run, &args.into, args.replace, args.note.as_deref())?;
    println!(
        "filed {} into {} (results.json, report.md, machine.json, provenance.md)",
        args.run.display(),
        dir.display()
    );
    Ok(())
}

fn run_study(args: RunArgs) -> Result<()> {
    let profile = if args.full {
        Profile::Full
    } else {
        Profile::Quick
    };
    let only = args.only.unwrap_or_default();
    // A bad MPI file is refused before anything is said or written.
    let plan = StudyPlan::new(StudyOptions {
        profile,
        out: args.out.clone(),
        only,
        mpi_results: args.mpi_results,
        fresh: args.fresh,
        archive: args.archive,
    })?;
    let opts = plan.options();
    let selected = plan.selected();
    let reused = if opts.fresh {
        Vec::new()
    } else {
        plan.already_measured()
    };
    let ids: Vec<String> = reused.iter().map(|f| f.id.clone()).collect();
    let to_measure = selected - reused.len();
    // The calibration (about a sixth of a second) only when something is to be measured.
    let calibration = if to_measure > 0 {
        estimate::calibrate()
    } else {
        estimate::Calibration::reference()
    };
    let expected = plan.expected(&ids, &calibration);
    if let Some(line) = reuse_line(&reused, selected, opts) {
        eprintln!("{line}");
    }
    if to_measure > 0 {
        eprintln!(
            "parcrypt study --{}: {to_measure} experiment(s) to measure, expected about {} here ({}); timings in {}; writing to {}",
            profile.name(),
            human_duration(expected.iter().map(|e| e.seconds).sum()),
            basis_line(&expected, &calibration),
            study::sampling::Plan::for_profile(profile).describe(),
            opts.out.display()
        );
        eprintln!("  expected: {}", per_experiment(&expected));
    }
    let mut plan = plan;
    plan.record_expected(&expected);
    // One step per experiment, as many as the header says; the message names the one running,
    // its estimate and the study's time left, rescaled as experiments finish.
    let progress = parcrypt_lab::bench::Progress::new(selected as u64, "study", args.quiet);
    let mut actual: Vec<f64> = Vec::new();
    let mut started: Option<std::time::Instant> = None;
    let results = plan.run(|done, _, next, measured| {
        if let Next::FirstBlock(id) = next {
            progress.set_message(format!("{id}: first block of rounds"));
            return;
        }
        if let (true, Some(t0)) = (measured, started.take()) {
            actual.push(t0.elapsed().as_secs_f64());
        }
        if measured {
            progress.set_position(done as u64);
        } else {
            progress.skip_to(done as u64);
        }
        progress.set_message(match next {
            Next::Results => "writing results and report".to_string(),
            Next::FirstBlock(id) => id.to_string(),
            Next::Experiment(id) => match expected.iter().find(|e| e.id == id) {
                Some(e) => {
                    started = Some(std::time::Instant::now());
                    format!(
                        "{id} (about {}; about {} left)",
                        human_duration(e.seconds),
                        human_duration(estimate::time_left(&expected, &actual))
                    )
                }
                None => id.to_string(),
            },
        });
    })?;
    parcrypt_lab::report::write(&results, &args.out)?;
    progress.finish();
    println!(
        "{} experiments ({} resumed), {} claims, {}:",
        results.experiments.len(),
        results.resumed.len(),
        results.claims.len(),
        human_duration(results.elapsed_s)
    );
    for line in results.summary_lines() {
        println!("  {line}");
    }
    for name in ["report.html", "report.md", "results.json"] {
        println!("{}", args.out.join(name).display());
    }
    if let Some(line) = against_actual(&results) {
        eprintln!("{line}");
    }
    Ok(())
}

/// Where the header's estimate comes from: the calibration, and how many experiments are
/// expected to take what their previous run in the folder took.
fn basis_line(expected: &[estimate::Expected], cal: &estimate::Calibration) -> String {
    let previous = expected
        .iter()
        .filter(|e| e.basis == estimate::Basis::Previous)
        .count();
    let mut text = cal.describe();
    if previous > 0 {
        text.push_str(&format!(
            "; {previous} from their previous run in this folder"
        ));
    }
    text
}

/// "parsa-fig5 2 min, parsa-fig6 40 s, …" in run order.
fn per_experiment(expected: &[estimate::Expected]) -> String {
    expected
        .iter()
        .map(|e| format!("{} {}", e.id, human_duration(e.seconds)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The experiments measured in this run, each with the time it took against the one the
/// header expected, and how much longer it took in % of that ("parsa-fig5 3.1 min against
/// 2.5 min (+24 %)").
fn against_actual(results: &study::StudyResults) -> Option<String> {
    let parts: Vec<String> = results
        .experiments
        .iter()
        .filter(|e| !results.resumed.contains(&e.id))
        .filter_map(|e| {
            let expected = e.estimate_s?;
            // A share of a second or two says nothing about the estimate.
            let off = if e.elapsed_s >= 5.0 {
                format!(" ({:+.0} %)", estimate::error_pct(expected, e.elapsed_s))
            } else {
                String::new()
            };
            Some(format!(
                "{} {} against {}{off}",
                e.id,
                human_duration(e.elapsed_s),
                human_duration(expected),
            ))
        })
        .collect();
    (!parts.is_empty())
        .then(|| format!("took, against the header's estimate: {}", parts.join(", ")))
}

/// What the header says about experiments an earlier run measured in the folder: all of
/// them (nothing to measure; how to measure again), some (reused, the rest run), or none.
fn reuse_line(reused: &[study::Finished], selected: usize, opts: &StudyOptions) -> Option<String> {
    let first = reused.iter().map(|f| f.at.as_str()).min()?;
    let last = reused.iter().map(|f| f.at.as_str()).max()?;
    let when = if first == last {
        format!("on {first}")
    } else {
        format!("between {first} and {last}")
    };
    let again = format!(
        "to measure again, add --fresh (or delete {})",
        opts.out.join("experiments").display()
    );
    Some(if reused.len() == selected {
        format!(
            "parcrypt study --{}: all {selected} experiment(s) were already measured in {} ({when}, {} of measuring); nothing new is measured, the results and report are written again from them; {again}",
            opts.profile.name(),
            opts.out.display(),
            human_duration(reused.iter().map(|f| f.elapsed_s).sum())
        )
    } else {
        format!(
            "parcrypt study --{}: {} of {selected} experiment(s) were already measured in {} ({when}) and are reused: {}; {again}",
            opts.profile.name(),
            reused.len(),
            opts.out.display(),
            reused
                .iter()
                .map(|f| f.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn human_duration(s: f64) -> String {
    if s < 0.5 {
        "under 1 s".into()
    } else if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}
