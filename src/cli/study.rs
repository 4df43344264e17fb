//! `parcrypt study`: every seed paper's experiments, the report beside the papers' figures.
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::study::{self, Profile, SEEDS, StudyOptions};
use std::path::PathBuf;

/// Arguments of `parcrypt study`.
#[derive(Args, Debug)]
pub struct StudyArgs {
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

/// Runs `parcrypt study`.
pub fn run(args: StudyArgs) -> Result<()> {
    let profile = if args.full {
        Profile::Full
    } else {
        Profile::Quick
    };
    let only = args.only.unwrap_or_default();
    let expected = study::estimate(&only, profile)?;
    eprintln!(
        "parcrypt study --{}: {} experiments, expected about {} on a 2-core machine; writing to {}",
        profile.name(),
        study::select(&only)?.len(),
        human_duration(expected),
        args.out.display()
    );
    let opts = StudyOptions {
        profile,
        out: args.out.clone(),
        only,
    };
    let total = study::select(&opts.only)?.len();
    let progress = parcrypt::bench::Progress::new(total as u64 + 1, "study", args.quiet);
    let results = study::run(&opts, |done, _, id| {
        progress.set_position(done as u64);
        progress.set_message(id.to_string());
    })?;
    progress.finish();
    let (h, d, n) = parcrypt::report::verdict_counts(&results);
    println!(
        "{} experiments ({} resumed); claims: {h} hold, {d} do not hold, {n} not testable here",
        results.experiments.len(),
        results.resumed.len()
    );
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
