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
