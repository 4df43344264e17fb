//! `parcrypt energy [--meter auto|rapl|model] -- COMMAND ARGS`: runs any command and reports
//! the joules, watts and seconds it took and where the figure came from (`measured:rapl` or
//! `model:<preset>`), then exits with the command's own status.
//!
//! The report goes to stderr (like `time`), so the command's stdout stays its own; `--format
//! json` shows it as JSON there, `--json F` writes it to a file (`--output F` is the old name).
//! `--json -` makes stdout the report's alone: the command's own stdout then goes to stderr,
//! so the two never mix. `auto` falls back to the model when RAPL cannot be read, and says
//! so; `rapl` fails instead.
//!
//! What the joules are, in the help, the text and the JSON (`basis`) alike: RAPL's package
//! counters (the whole machine, every process) when measured; without a meter, the model's
//! chip power at the command's average busy cores (its CPU time / wall time) × wall time, so
//! a command that sleeps still costs the chip's idle power.
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use parcrypt_lab::energy::meter::{MeterChoice, Reading, open_meter, powercap_root};
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
    /// The software model: the preset's chip power at the command's average busy cores
    /// (CPU time / wall time), times the wall time (idle power counts while it sleeps).
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
    /// The report (on stderr, as text or with --format json as JSON); --json F writes it to
    /// a file, `--json -` to stdout (the command's own stdout then goes to stderr).
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
    /// What the joules are: measured by which counters, or modelled how.
    basis: String,
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
    let json_on_stdout = [&args.out.json, &args.output]
        .into_iter()
        .any(|o| *o == Some(super::output::Output::Stdout));
    if json_on_stdout {
        // stdout is the report's alone: the command's own output goes to stderr.
        use std::os::fd::AsFd;
        let err = std::io::stderr().as_fd().try_clone_to_owned()?;
        cmd.stdout(std::process::Stdio::from(err));
    }
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
        basis: basis(&reading),
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
        eprintln!(
            "energy: {:.3} J, {:.3} W average over {:.3} s ({}: {})",
            reading.joules, reading.watts, reading.seconds, reading.source, report.basis
        );
    }
    // exit() skips destructors: flush what `--json -` printed.
    std::io::Write::flush(&mut std::io::stdout())?;
    std::process::exit(exit_code);
}

/// What a reading's joules are, in words: measured by RAPL's counters, or modelled as the
/// chip's power at the average busy cores times the wall time (the model meter's formula).
fn basis(reading: &parcrypt_lab::energy::meter::Reading) -> String {
    match reading.cpu_seconds {
        Some(cpu) => {
            let busy = if reading.seconds > 0.0 {
                cpu / reading.seconds
            } else {
                0.0
            };
            format!(
                "modelled: chip power at {busy:.2} busy cores (CPU {cpu:.2} s / wall {:.3} s) x wall time; idle power counts while the command waits",
                reading.seconds
            )
        }
        None => {
            "measured: RAPL package counters over the wall time (the whole machine, every process)"
                .into()
        }
    }
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
