//! Command-line parsing both programs share: clap's errors as one line, and comma-separated
//! lists. `parcrypt` uses it as `cli::parse`, `parcrypt-mpi` as `parcrypt_harness::parse`.
//! A leaf: it imports nothing.

/// Help and version go to stdout with status 0; a clap usage error becomes one line and 2.
/// Only a process that `speak`s prints (in `parcrypt-mpi`, rank 0: every rank parses the same
/// line).
pub fn clap_exit(e: clap::Error, speak: bool) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            if speak {
                print!("{e}");
            }
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            if speak {
                eprint!("{e}");
            }
            2
        }
        _ => {
            if speak {
                eprintln!("error: {} (see --help)", clap_line(&e.to_string()));
            }
            2
        }
    }
}

/// A clap error as one line: the message, then clap's suggestion ("tip: a similar argument
/// exists: '--threads'") after a semicolon; the usage and "For more information" lines go.
fn clap_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let (tips, message): (Vec<&str>, Vec<&str>) =
        lines.into_iter().partition(|l| l.starts_with("tip:"));
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    let tips: Vec<&str> = tips
        .iter()
        .map(|t| t.trim_start_matches("tip:").trim())
        .collect();
    if tips.is_empty() {
        message.to_string()
    } else {
        format!("{message}; {}", tips.join("; "))
    }
}

/// Parses a comma-separated list with `parse` for each item ("1,2,4").
pub fn parse_list<T>(
    s: &str,
    what: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let items: Result<Vec<T>, String> = s
        .split(',')
        .map(str::trim)
        .map(|item| {
            if item.is_empty() {
                Err(format!("empty item in {what} list '{s}'"))
            } else {
                parse(item)
            }
        })
        .collect();
    items
}
