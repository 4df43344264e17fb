//! Issue 10's bad inputs (items 5, 7, 8 and 10) as a user would meet them: a closed pipe,
//! sizes beyond the machine's memory, negative numbers, physical inputs out of range, file
//! modes, a missing sensor, and README/module docs that must match the program. Each failure
//! is one line on stderr with a non-zero exit (2 for usage), no output file, never a panic.
use common::{assert_one_line_error, parcrypt};
use std::process::{Command, Stdio};

mod common;

/// Runs parcrypt with its stdout a pipe whose reading end is already closed.
fn run_into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parcrypt"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parcrypt");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for parcrypt")
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    for args in [
        &["presets"][..],
        &["power", "--json", "-"],
        &["reliability"],
        &["modexp", "--list"],
        &["bench", "handoff", "--runs", "5", "--warmup", "1"],
    ] {
        let out = run_into_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            let quiet = out.status.code() == Some(0) || out.status.signal() == Some(13);
            assert!(quiet, "{args:?}: {:?}, stderr: {stderr}", out.status);
        }
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn sizes_beyond_the_machines_memory_are_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    // 10^8 GiB: more than any machine has; the parser refuses it before any work.
    let out = parcrypt(&[
        "bench",
        "cipher",
        "--alg",
        "rc4",
        "--size",
        "100000000GiB",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_one_line_error(&out, 2, "MemTotal");
    let out = parcrypt(&[
        "bench",
        "rsa",
        "--bits",
        "512",
        "--messages",
        "400000000000",
        "--threads",
        "1",
    ]);
    assert_one_line_error(&out, 2, "MemTotal");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--messages 400000000000"),
        "the line names what was asked"
    );
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn negative_numbers_are_values_where_they_make_sense_and_one_line_elsewhere() {
    // (-5)^3 mod 0x65 = 0x4d.
    let out = parcrypt(&[
        "modexp", "--method", "binary", "--base", "-5", "--exp", "3", "--mod", "65",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4d");
    let out = parcrypt(&[
        "modexp", "--method", "binary", "--base", "5", "--exp", "-3", "--mod", "65",
    ]);
    assert_one_line_error(&out, 2, "--exp must be a non-negative hex number");
    let out = parcrypt(&[
        "modexp",
        "--method",
        "binary",
        "--base",
        "5",
        "--exp",
        "3",
        "--mod",
        "65",
        "--threads",
        "-1",
    ]);
    assert_one_line_error(&out, 2, "positive integer, got '-1'");
}

#[test]
fn physical_inputs_out_of_range_are_one_line() {
    for (args, needle) in [
        (
            &["reliability", "--temp-c", "500"][..],
            "outside -55 to 150 °C",
        ),
        (
            &["reliability", "--temp-c", "-300"],
            "outside -55 to 150 °C",
        ),
        (
            &["power", "--freq", "1e9", "--interpolate"],
            "at most 10000",
        ),
        (&["power", "--freq", "-5"], "positive number of MHz"),
        (&["power", "--node", "0"], "0 nm"),
        (&["scc", "--mpb-bytes", "1e30"], "at most 1 GiB"),
        (&["scc", "--size", "100000M"], "at most 1 GiB"),
    ] {
        assert_one_line_error(&parcrypt(args), 2, needle);
    }
    let ok = parcrypt(&["reliability", "--temp-c", "-10", "--preset", "core2duo"]);
    assert!(!String::from_utf8_lossy(&ok.stderr).contains("unexpected argument"));
}

#[test]
fn sensors_say_when_none_was_found() {
    let out = parcrypt(&["reliability", "--sensors"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    // Whatever this machine has, the output and the note agree.
    let fell_back = stdout.contains("no temperature sensor found");
    assert_eq!(
        fell_back,
        stderr.contains("no temperature sensor found under")
    );
    if fell_back {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[cfg(unix)]
#[test]
fn reports_are_0644_and_private_keys_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |name: &str| {
        std::fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    let json = dir.path().join("scc.json");
    let out = parcrypt(&["scc", "--json", json.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mode("scc.json"), 0o644);
    let key = dir.path().join("k.pem");
    let out = parcrypt(&[
        "rsa",
        "keygen",
        "--bits",
        "1024",
        "--out",
        key.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mode("k.pem"), 0o600);
    assert_eq!(mode("k.pub.pem"), 0o644);
    // A ciphertext is public like any output; the recovered plaintext is the owner's only.
    std::fs::write(dir.path().join("p.bin"), b"attack at dawn").unwrap();
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    for (dir_cmd, from, to) in [("encrypt", "p.bin", "p.enc"), ("decrypt", "p.enc", "p.dec")] {
        let out = parcrypt(&[
            "cipher",
            dir_cmd,
            "--alg",
            "blowfish-cbc",
            "--key",
            "00112233445566778899aabbccddeeff",
            "--iv",
            "0001020304050607",
            "--in",
            &path(from),
            "--out",
            &path(to),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(mode("p.enc"), 0o644);
    assert_eq!(mode("p.dec"), 0o600);
    assert_eq!(std::fs::read(path("p.dec")).unwrap(), b"attack at dawn");
}

#[test]
fn the_readme_counts_the_strategies_modexp_lists() {
    let out = parcrypt(&["modexp", "--list"]);
    let listed = String::from_utf8_lossy(&out.stdout).lines().count();
    let readme = include_str!("../README.md");
    let said = readme
        .split("one of ")
        .skip(1)
        .find_map(|rest| rest.strip_suffix_before(" strategies"))
        .expect("README says how many strategies modexp has");
    assert_eq!(
        said, listed,
        "README's strategy count against `modexp --list`"
    );
}

#[test]
fn the_readme_gives_ctr_modes_iv_and_nonce_to_parc4_only() {
    let readme = include_str!("../README.md");
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `parcrypt cipher encrypt"))
        .expect("README's cipher row");
    assert!(row.contains("`--iv` (8 bytes) is the CBC IV and the CTR modes' initial counter"));
    assert!(row.contains("`--nonce` (16 bytes) is for `parc4`/`parc4i` only"));
    let help = parcrypt(&["cipher", "encrypt", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("CTR initial counter") && help.contains("(parc4, parc4i)"));
}

#[test]
fn the_module_map_names_every_module() {
    for (lib, at_least) in [
        (include_str!("../src/lib.rs"), 8),
        (include_str!("../crates/parcrypt/src/lib.rs"), 8),
        (include_str!("../crates/parcrypt-harness/src/lib.rs"), 5),
    ] {
        let map: String = lib
            .lines()
            .filter(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let modules: Vec<&str> = lib
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub mod "))
            .map(|m| m.trim_end_matches(';'))
            .collect();
        assert!(modules.len() >= at_least, "{modules:?}");
        for m in modules {
            assert!(
                map.contains(&format!("`{m}`")),
                "lib.rs's module map lacks {m}"
            );
        }
    }
}

/// "14 strategies" → 14.
trait CountBefore {
    fn strip_suffix_before(&self, word: &str) -> Option<usize>;
}

impl CountBefore for str {
    fn strip_suffix_before(&self, word: &str) -> Option<usize> {
        let (number, _) = self.split_once(word)?;
        number.trim().parse().ok()
    }
}

/// `study --only` into a folder that holds another seed's finished experiments adds to them:
/// the report, results.json and the CSVs keep both (issue 10: it used to replace them).
#[test]
fn study_only_adds_to_a_folder_and_keeps_what_was_there() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for seed in ["crsa", "cipher-energy"] {
        let run = parcrypt(&["study", "--quick", "--quiet", "--only", seed, "--out", out]);
        assert!(
            run.status.success(),
            "{seed}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("results.json")).unwrap()).unwrap();
    let ids: Vec<&str> = results["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["id"].as_str())
        .collect();
    for seed in ["crsa", "cipher-energy"] {
        assert!(
            ids.iter().any(|id| id.starts_with(seed)),
            "{seed} missing from {ids:?}"
        );
    }
    // The summary keeps both papers' findings and experiments, report.html their sections.
    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    for seed in ["crsa", "cipher-energy"] {
        assert!(
            report.contains(&format!("<a id=\"findings-{seed}\"></a>"))
                && html.contains(&format!("<section id=\"{seed}\">")),
            "{seed} gone from the report"
        );
    }
    assert!(report.contains("](report.html#crsa-table1) — "), "{report}");
    assert!(dir.path().join("crsa-table1.csv").exists());
    assert!(
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| e
                .file_name()
                .to_string_lossy()
                .starts_with("cipher-energy-"))
    );
}

/// Issue 20: no command writes its result over one of its inputs, whatever name or link leads
/// there — `cipher` (`--out` as `--in`), `bench rsa` (`--json`/`--csv`/`--markdown` as
/// `--key`), `power`, `reliability` and `presets` (`--json` as `--profile`): one line, exit 2,
/// the input untouched.
#[test]
fn no_command_writes_over_its_input_through_any_link() {
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    std::fs::write(path("input"), b"precious").unwrap();
    std::fs::hard_link(path("input"), path("hard")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(path("input"), path("soft")).unwrap();
    #[cfg(not(unix))]
    std::fs::hard_link(path("input"), path("soft")).unwrap();
    let dotted = format!("{}/./input", dir.path().display());
    let input = path("input");
    for out in [path("input"), path("hard"), path("soft"), dotted] {
        for dir_cmd in ["encrypt", "decrypt"] {
            let r = parcrypt(&[
                "cipher",
                dir_cmd,
                "--alg",
                "rc4",
                "--key",
                "0011",
                "--in",
                &path("input"),
                "--out",
                &out,
            ]);
            assert_one_line_error(&r, 2, "is the same file as --in");
        }
        for flag in ["--json", "--csv", "--markdown"] {
            let r = parcrypt(&["bench", "rsa", "--key", &path("input"), flag, &out]);
            assert_one_line_error(&r, 2, &format!("{flag} {out} is the same file as --key"));
        }
        for cmd in [
            &["power", "--preset", "this-machine"][..],
            &["reliability", "--preset", "this-machine"],
            &["presets"],
        ] {
            let mut args = cmd.to_vec();
            args.extend(["--profile", &input, "--json", &out]);
            let r = parcrypt(&args);
            assert_one_line_error(&r, 2, "is the same file as --profile");
        }
    }
    assert_eq!(std::fs::read(path("input")).unwrap(), b"precious");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        3,
        "nothing written"
    );
}
