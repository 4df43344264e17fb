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

/// Whether the `openssl` binary is there for interoperability tests. Under CI (`CI=true`) a
/// missing binary is a failure, not a skip; elsewhere one notice goes straight to stderr (the
/// harness captures `eprintln!`) naming the `suite` skipped.
pub fn have_openssl(suite: &str) -> bool {
    use std::io::Write;
    let found = Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("CI=true but the `openssl` binary is missing: install OpenSSL");
        }
        static NOTICE: std::sync::Once = std::sync::Once::new();
        NOTICE.call_once(|| {
            let _ = writeln!(
                std::io::stderr(),
                "notice: `openssl` not found on PATH; {suite} tests skipped"
            );
        });
    }
    found
}
