//! Where a command's results go: `--json F`, `--csv F`, `--markdown F` name a file, `-` names
//! stdout. Every target is checked before any work starts, so a bad path costs nothing.
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// A file to write, or stdout (`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, written atomically.
    File(PathBuf),
}

/// The value parser of every output option: `-` is stdout, anything else a file name.
pub fn parse(s: &str) -> Result<Output, String> {
    match s {
        "" => Err("the file name is empty (use - for stdout)".into()),
        "-" => Ok(Output::Stdout),
        _ => Ok(Output::File(PathBuf::from(s))),
    }
}

impl Output {
    /// Writes `text` here: printed to stdout, or written atomically to the file.
    pub fn write(&self, text: &str) -> Result<()> {
        match self {
            Output::Stdout => {
                print!("{text}");
                Ok(())
            }
            Output::File(path) => Ok(parcrypt::io::write_atomic(path, text.as_bytes(), None)?),
        }
    }
}

/// Checks the targets of one command, given as (option, target), before any work: each file
/// must be writable and not a folder, no two options may name the same file, and at most one
/// may be stdout. Every failure is a usage error naming the option.
pub fn check(targets: &[(&str, Option<&Output>)]) -> Result<()> {
    let given: Vec<(&str, &Output)> = targets
        .iter()
        .filter_map(|(flag, t)| t.map(|t| (*flag, t)))
        .collect();
    let stdout: Vec<&str> = given
        .iter()
        .filter(|(_, t)| **t == Output::Stdout)
        .map(|(f, _)| *f)
        .collect();
    if stdout.len() > 1 {
        return Err(super::usage(format!(
            "only one output can be - (stdout), got {}",
            stdout.join(" and ")
        )));
    }
    for (i, (flag, t)) in given.iter().enumerate() {
        if let Output::File(path) = t {
            if let Some((other, _)) = given[..i].iter().find(|(_, u)| u == t) {
                return Err(super::usage(format!(
                    "{other} and {flag} name the same file {}",
                    path.display()
                )));
            }
            parcrypt::io::check_writable(path).map_err(|e| {
                let why = match e {
                    parcrypt::Error::InvalidParameter(why) => why,
                    other => other.to_string(),
                };
                super::usage(format!("{flag} {why}"))
            })?;
        }
    }
    Ok(())
}

/// Refuses, before any work, an output file that is one of the command's inputs (the same
/// file by device and inode: [`parcrypt::io::check_not_input`]): one line, exit 2, nothing
/// written. `targets` as [`check`] takes them; `inputs` as `(option, path)`, absent ones
/// skipped.
pub fn check_not_inputs(
    targets: &[(&str, Option<&Output>)],
    inputs: &[(&str, Option<&Path>)],
) -> Result<()> {
    let inputs: Vec<(&str, &Path)> = inputs
        .iter()
        .filter_map(|(flag, p)| p.map(|p| (*flag, p)))
        .collect();
    for (flag, target) in targets {
        if let Some(Output::File(path)) = target {
            check_file_not_input(flag, path, &inputs)?;
        }
    }
    Ok(())
}

/// [`parcrypt::io::check_not_input`] for one output file, as a usage error without the
/// library's "invalid parameter:" prefix.
pub fn check_file_not_input(flag: &str, path: &Path, inputs: &[(&str, &Path)]) -> Result<()> {
    parcrypt::io::check_not_input((flag, path), inputs).map_err(|e| match e {
        parcrypt::Error::InvalidParameter(m) => super::usage(m),
        other => other.into(),
    })
}

/// Whether the text for people goes to stderr ([`text_to_stderr`]).
static TEXT_TO_STDERR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sends what [`say`] and [`say_raw`] print to stderr from now on, for a command whose
/// `--json -` makes stdout the JSON's alone but whose text is written as it goes.
pub fn text_to_stderr() {
    TEXT_TO_STDERR.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// A line of text for people: on stdout, or stderr after [`text_to_stderr`].
pub fn say(args: std::fmt::Arguments) {
    say_raw(format_args!("{args}\n"));
}

/// Text for people without a line end ([`say`]).
pub fn say_raw(args: std::fmt::Arguments) {
    if TEXT_TO_STDERR.load(std::sync::atomic::Ordering::Relaxed) {
        eprint!("{args}");
    } else {
        print!("{args}");
    }
}

/// What stdout shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Table,
    /// JSON.
    Json,
}

/// The output options of the one-result commands (`power`, `reliability`, `presets`,
/// `energy`, `dse`): `--format` chooses what the terminal shows, `--json F` writes a file
/// (`-`: stdout, which then holds the JSON alone), as `--json F` does on every command.
#[derive(Args, Debug, Clone)]
pub struct ReportOpts {
    /// What the terminal shows: text for people, or JSON.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the result as JSON to F (`-`: stdout, instead of the text).
    #[arg(long, value_name = "F", value_parser = parse)]
    pub json: Option<Output>,
}

impl ReportOpts {
    /// Checks the file target before any work: writable, and none of the command's `inputs`
    /// (`(option, path)`, e.g. `--profile`).
    pub fn check(&self, inputs: &[(&str, Option<&Path>)]) -> Result<()> {
        let targets = [("--json", self.json.as_ref())];
        check(&targets)?;
        check_not_inputs(&targets, inputs)
    }

    /// Whether the result is shown as JSON (`--format json`).
    pub fn show_json(&self) -> bool {
        self.format == Format::Json
    }

    /// Shows the result, as JSON or `text()`, on stdout; JSON to stdout with `--json -`
    /// replaces the text there; then writes the `--json` file.
    pub fn emit<T: serde::Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> Result<()> {
        let json = format!("{}\n", serde_json::to_string_pretty(value)?);
        match &self.json {
            Some(Output::Stdout) => print!("{json}"),
            _ if self.show_json() => print!("{json}"),
            _ => print!("{}", text()),
        }
        if let Some(target @ Output::File(_)) = &self.json {
            target.write(&json)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_parsed_and_checked() {
        assert_eq!(parse("-"), Ok(Output::Stdout));
        assert!(parse("").is_err());
        let dir = tempfile::tempdir().unwrap();
        let file = Output::File(dir.path().join("r.json"));
        let folder = Output::File(dir.path().to_path_buf());
        assert!(check(&[("--json", Some(&file)), ("--csv", None)]).is_ok());
        let err = check(&[("--json", Some(&folder))]).unwrap_err().to_string();
        assert!(
            err.starts_with("--json ") && err.contains("is a folder"),
            "{err}"
        );
        let err = check(&[("--json", Some(&file)), ("--csv", Some(&file))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("same file"), "{err}");
        let out = Output::Stdout;
        let err = check(&[("--json", Some(&out)), ("--csv", Some(&out))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("only one output"), "{err}");
    }
}
