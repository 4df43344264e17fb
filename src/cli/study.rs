//! `parcrypt study`: every seed paper's experiments, every claim judged, the report beside the
//! papers' figures; `parcrypt study diff A B`: the claims whose verdict differs between two
//! study folders.
use super::parse_list;
use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use parcrypt::study::{self, Profile, SEEDS, StudyOptions};
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
    /// The claims whose verdict differs between two study folders; exits non-zero when a claim
    /// moved between holds and does-not-hold.
    Diff(DiffArgs),
}

/// Arguments of `parcrypt study diff`.
#[derive(Args, Debug)]
struct DiffArgs {
    /// The first study's folder (with results.json).
    first: PathBuf,
    /// The second study's folder.
    second: PathBuf,
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
    /// Output folder (created; an earlier run there is resumed).
    #[arg(long, default_value = "parcrypt-study")]
    out: PathBuf,
    /// Only these seeds, comma-separated: seed000, seed001, seed002, seed003, seed004.
    #[arg(long, value_parser = seeds_list)]
    only: Option<std::vec::Vec<String>>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// An MPI run to show beside the thread figures: the JSON of `mpirun -n N parcrypt-mpi
    /// <program> --json FILE` (repeatable; the `*.json` in OUT/mpi/ are read too).
    #[arg(long, value_name = "FILE")]
    mpi_results: Vec<PathBuf>,
}

fn seeds_list(s: &str) -> Result<Vec<String>, String> {
    parse_list(s, "seed", |t| {
        let t = t.to_ascii_lowercase();
        if SEEDS.contains(&t.as_str()) {
            Ok(t)
        } else {
            Err(format!(
                "unknown seed '{t}' (expected one of {})",
                SEEDS.join(", ")
            ))
        }
    })
}

/// Runs `parcrypt study` or `parcrypt study diff`.
pub fn run(args: StudyArgs) -> Result<()> {
    match args.command {
        Some(StudyCommand::Diff(d)) => diff(d),
        None => run_study(args.run),
    }
}

fn diff(args: DiffArgs) -> Result<()> {
    let first = study::load(&args.first)?;
    let second = study::load(&args.second)?;
    let d = study::diff::diff(&first, &second);
    print!("{}", d.render());
    if d.flips() > 0 {
        bail!(
            "{} claim(s) moved between holds and does-not-hold",
            d.flips()
        );
    }
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
    study::experiments::mpi_runs::find_and_load(&args.mpi_results, &args.out)?;
    let expected = study::estimate(&only, profile)?;
    eprintln!(
        "parcrypt study --{}: {} experiments, expected about {} on a quiet 2-core machine; timings in {}; writing to {}",
        profile.name(),
        study::select(&only)?.len(),
        human_duration(expected),
        study::sampling::Plan::for_profile(profile).describe(),
        args.out.display()
    );
    let opts = StudyOptions {
        profile,
        out: args.out.clone(),
        only,
        mpi_results: args.mpi_results,
    };
    // One step per experiment, as many as the header says; the message names the one running.
    let total = study::select(&opts.only)?.len();
    let progress = parcrypt::bench::Progress::new(total as u64, "study", args.quiet);
    let results = study::run(&opts, |done, _, id, measured| {
        if measured {
            progress.set_position(done as u64);
        } else {
            progress.skip_to(done as u64);
        }
        progress.set_message(if id == "results" {
            "writing results and report".to_string()
        } else {
            id.to_string()
        });
    })?;
    parcrypt::report::write(&results, &args.out)?;
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
    Ok(())
}

fn human_duration(s: f64) -> String {
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}
