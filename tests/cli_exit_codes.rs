//! Errors by class (issue 23): the exit status says what failed, as the README's "Exit codes"
//! lists: 2 a usage error, 1 a runtime failure (a file), 70 an internal error (a bug: the one
//! line asks for a report). The internal case is shown with the test-only fault hook
//! (`PARCRYPT_FAULT=cipher-timed`), which corrupts one output inside `bench cipher`'s timed
//! loop: the check after timing must catch it in a release build. Usage (2) and runtime (1)
//! errors are held by `tests/cli.rs` (a missing input file, a missing output folder) and the
//! other command-line tests.
use common::assert_one_line_error;
use std::process::Command;

mod common;

/// A tiny `bench cipher` (4 KiB, one measured run, no warm-up) writing JSON to `json`.
fn tiny_cipher_bench(json: &str) -> Vec<String> {
    [
        "bench",
        "cipher",
        "--alg",
        "rc4,blowfish-ecb",
        "--threads",
        "2",
        "--size",
        "4K",
        "-w",
        "0",
        "-r",
        "1",
        "-M",
        "1",
        "--min-time",
        "0",
        "--quiet",
        "--json",
        json,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_wrong_output_inside_a_timed_closure_exits_70_with_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let args = tiny_cipher_bench(json.to_str().unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_parcrypt"))
        .args(&args)
        .env("PARCRYPT_FAULT", "cipher-timed")
        .output()
        .expect("run parcrypt");
    assert_one_line_error(&out, 70, "gave a wrong result while timed");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: internal error: "), "{stderr}");
    assert!(stderr.contains("please report it"), "{stderr}");
    assert!(!json.exists(), "no output file after an internal error");

    // The same run without the fault succeeds and writes the file: the check is what failed.
    let out = Command::new(env!("CARGO_BIN_EXE_parcrypt"))
        .args(&args)
        .env_remove("PARCRYPT_FAULT")
        .output()
        .expect("run parcrypt");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"verified\": true"), "{text}");
}

#[test]
fn the_readme_lists_the_exit_codes() {
    let readme = include_str!("../README.md");
    let at = readme
        .find("## Exit codes")
        .expect("README has an \"Exit codes\" section");
    let section = &readme[at..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    for code in ["| 0 ", "| 1 ", "| 2 ", "| 70 "] {
        assert!(section.contains(code), "{code} missing from: {section}");
    }
}
