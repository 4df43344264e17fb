//! Helpers shared by the command-line integration tests.
#![allow(dead_code)] // each test crate uses its own subset

use std::process::{Command, Output};

/// Runs the `parcrypt` binary built for these tests.
pub fn parcrypt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parcrypt"))
        .args(args)
        .output()
        .expect("run parcrypt")
}

/// `parcrypt rsa keygen --out KEY ARGS…`, asserting that it succeeded (its stderr shown if
/// not); returns the run for what it printed.
pub fn keygen_ok(key: &std::path::Path, args: &[&str]) -> Output {
    let key = key.to_str().expect("a UTF-8 temporary path");
    let out = parcrypt(&[&["rsa", "keygen", "--out", key][..], args].concat());
    assert!(
        out.status.success(),
        "keygen {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Asserts a failed run as the project promises it: exit `code`, exactly one line on stderr,
/// starting "error: " and containing `needle`, and no panic.
pub fn assert_one_line_error(out: &Output, code: i32, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line expected, got: {stderr}"
    );
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(needle), "'{needle}' not in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Whether the `openssl` binary is there for interoperability tests; when it is not, the
/// `suite` is reported skipped ([`tool_missing`]).
pub fn have_openssl(suite: &str) -> bool {
    let found = Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        tool_missing("openssl", "OpenSSL", suite);
    }
    found
}

/// Says that a test skips because `tool` is missing, where the person running the tests sees
/// it: one line straight to stderr (the harness captures `eprintln!`, not direct writes), once
/// per test binary and tool. Under CI (`CI` set to anything but `false` or empty, as
/// `.ci/run` does) a missing tool is a failure instead: CI installs every tool.
pub fn tool_missing(tool: &str, package: &str, suite: &str) {
    use std::io::Write;
    if ci() {
        panic!("CI is set but `{tool}` is missing: install {package} ({suite} needs it)");
    }
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.iter().any(|t| t == tool) {
        said.push(tool.to_string());
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: `{tool}` not found (install {package}); {suite} tests skipped"
        );
    }
}

/// Whether the tests run under CI (`CI` set, not empty, not `false`/`0`).
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}
