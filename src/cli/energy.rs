//! `parcrypt energy [--meter auto|rapl|model] -- COMMAND ARGS`: runs any command and reports
//! the joules, watts and seconds it took and where the figure came from (`measured:rapl` or
//! `model:<preset>`), then exits with the command's own status.
//!
//! The report goes to stderr (like `time`), so the command's stdout stays its own; `--format
//! json` prints it as JSON there, `--json F` writes it to a file (`--output F` is the old name),
//! `--json -` prints it on stdout after the command's own output. `auto` falls back to the
//! model when RAPL cannot be read, and says so; `rapl` fails instead.
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use parcrypt::energy::meter::{MeterChoice, Reading, open_meter, powercap_root};
use serde::Serialize;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use super::power::PointArgs;

/// How often the meter is polled while the command runs.
const POLL_EVERY: Duration = Duration::from_secs(10);

/// `--meter` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MeterArg {
    /// RAPL when readable, else the model (and a note saying so).
    Auto,
    /// RAPL package counters only (root is needed on most kernels).
    Rapl,
    /// The software model: CPU time x the preset's power.
    Model,
}

/// Arguments of `parcrypt energy`.
#[derive(Args, Debug)]
pub struct EnergyArgs {
    /// Which meter.
    #[arg(long, value_enum, default_value_t = MeterArg::Auto)]
    meter: MeterArg,
    /// The preset and operating point the model meter uses.
    #[command(flatten)]
    point: PointArgs,
    /// The report (on stderr with --format; --json F writes it to a file, - to stdout).
    #[command(flatten)]
    out: super::output::ReportOpts,
    /// The old name of --json F.
    #[arg(long, hide = true, value_parser = super::output::parse)]
    output: Option<super::output::Output>,
    /// The command to measure, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    reading: &'a Reading,
    command: &'a [String],
    exit_code: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<String>,
}

/// Runs `parcrypt energy`; on success the process exits with the command's status.
pub fn run(args: EnergyArgs) -> Result<()> {
    super::output::check(&[
        ("--json", args.out.json.as_ref()),
        ("--output", args.output.as_ref()),
    ])?;
    let preset = args.point.preset()?;
    let choice = match args.meter {
        MeterArg::Auto => MeterChoice::Auto,
        MeterArg::Rapl => MeterChoice::Rapl,
        MeterArg::Model => MeterChoice::Model,
    };
    let query = args.point.query(None, None);
    let mut opened = open_meter(choice, &preset, &query, &powercap_root())?;
    let (program, rest) = args.command.split_first().expect("clap requires a command");
    let mut cmd = std::process::Command::new(program);
    cmd.args(rest);
    opened.meter.start()?;
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run '{program}'"))?;
    // Wait on another thread so the meter can be polled meanwhile: RAPL counters wrap
    // (after minutes to hours) and a poll per wrap period keeps long readings right.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = loop {
        match rx.recv_timeout(POLL_EVERY) {
            Ok(status) => break status.with_context(|| format!("waiting for '{program}'"))?,
            Err(RecvTimeoutError::Timeout) => opened.meter.poll()?,
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!("lost track of '{program}'"),
        }
    };
    let reading = opened.meter.stop()?;
    let exit_code = exit_code(&status);
    let profile = (preset.name == "this-machine" && reading.source.starts_with("model:"))
        .then(|| preset.notes.first().cloned())
        .flatten();
    let report = Report {
        reading: &reading,
        command: &args.command,
        exit_code,
        fallback: opened.fallback.as_deref(),
        profile,
    };
    let json = serde_json::to_string_pretty(&report)?;
    for target in [&args.out.json, &args.output].into_iter().flatten() {
        target.write(&format!("{json}\n"))?;
    }
    if args.out.show_json() {
        eprintln!("{json}");
    } else {
        if let Some(why) = &opened.fallback {
            eprintln!("note: {why}");
        }
        if let Some(p) = &report.profile {
            eprintln!("note: {p}");
        }
        let cpu = reading
            .cpu_seconds
            .map(|c| format!(", CPU {c:.2} s"))
            .unwrap_or_default();
        eprintln!(
            "energy: {:.3} J, {:.3} W average over {:.3} s ({}{cpu})",
            reading.joules, reading.watts, reading.seconds, reading.source
        );
    }
    // exit() skips destructors: flush what `--json -` printed.
    std::io::Write::flush(&mut std::io::stdout())?;
    std::process::exit(exit_code);
}

/// The command's exit status; 128 + signal when a signal ended it (the shell's convention).
fn exit_code(status: &std::process::ExitStatus) -> i32 {
    if let Some(c) = status.code() {
        return c;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    1
}
