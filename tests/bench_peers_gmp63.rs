//! `bench peers`' gmp63-* rows (issue 31, item 1): GMP 6.3 in its helper process beside the
//! system GMP. Builds nothing: the helper comes from `scripts/gmp63-peer.sh` (`.ci/run` builds
//! it), found where `bench peers` finds it (PARCRYPT_GMP63, else target/gmp63/release/). Without
//! it the run test says it skipped, and fails under CI.
mod common;

use common::{assert_one_line_error, parcrypt, tool_missing};
use serde_json::Value;
use std::path::PathBuf;

/// The helper as `bench peers` finds it by default: PARCRYPT_GMP63, else gmp63/release/ in the
/// target directory of the `parcrypt` under test.
fn helper() -> Option<PathBuf> {
    let path = match std::env::var_os("PARCRYPT_GMP63").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_parcrypt"))
            .ancestors()
            .nth(2)?
            .join("gmp63/release/gmp63-peer"),
    };
    path.is_file().then_some(path)
}

#[test]
fn gmp63_product_row_records_the_helper_s_version_and_a_ratio() {
    let Some(helper) = helper() else {
        tool_missing(
            "gmp63-peer",
            "it with scripts/gmp63-peer.sh",
            "bench peers gmp63",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("peers.json");
    let out = parcrypt(&[
        "bench",
        "peers",
        "--rows",
        "gmp63-product-64k",
        "--gmp63",
        helper.to_str().unwrap(),
        "--runs",
        "2",
        "--warmup",
        "0",
        "--min-time",
        "0",
        "--batch-ms",
        "5",
        "--quiet",
        "--json",
        json.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    let r = &rows[0];
    assert_eq!(r["row"], "gmp63-product-64k");
    // The peer names GMP 6.3 and its build; the sequential form is the system GMP, with its own.
    let peer = r["peer"].as_str().unwrap();
    assert!(
        peer.starts_with("GMP 6.3.") && peer.contains("mpz_mul"),
        "{peer}"
    );
    assert!(
        peer.contains("gmp-mpfr-sys") && peer.contains("CFLAGS="),
        "{peer}"
    );
    // `parcrypt` wipes the system GMP's frees, so the helper wipes GMP 6.3's.
    assert!(peer.contains("frees wiped"), "{peer}");
    let seq = r["seq"].as_str().unwrap();
    assert!(
        seq.starts_with("system GMP ") && seq.contains("mpz_mul") && seq.contains("CFLAGS="),
        "{seq}"
    );
    assert_eq!(r["par"], "par-gmp");
    for k in ["peer_s", "seq_s", "par_s", "peer_over_seq", "peer_over_par"] {
        let x = r[k].as_f64().unwrap_or(f64::NAN);
        assert!(x.is_finite() && x > 0.0, "{k}: {}", r[k]);
    }
    assert_eq!(r["rounds"], 2);
}

#[test]
fn a_gmp63_row_without_the_helper_is_one_usage_error_saying_how_to_build_it() {
    let out = parcrypt(&[
        "bench",
        "peers",
        "--rows",
        "gmp63-modexp-8192",
        "--gmp63",
        "/nonexistent/gmp63-peer",
        "--runs",
        "1",
        "--quiet",
    ]);
    assert_one_line_error(&out, 2, "scripts/gmp63-peer.sh");
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/gmp63-peer"));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A stand-in helper, a shell script answering the protocol with `body` (a `case` on the
/// request's first word), in `dir`.
fn fake_helper(dir: &std::path::Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("fake-gmp63-peer");
    let script = format!(
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n{body}\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn peers_with(helper: &std::path::Path, row: &str) -> std::process::Output {
    parcrypt(&[
        "bench",
        "peers",
        "--rows",
        row,
        "--gmp63",
        helper.to_str().unwrap(),
        "--runs",
        "1",
        "--warmup",
        "0",
        "--quiet",
    ])
}

#[test]
fn a_helper_with_a_wrong_result_or_no_reply_fails_the_run_before_any_row() {
    let dir = tempfile::tempdir().unwrap();
    // Right protocol, wrong product: an internal error (a verification failed), no row.
    let wrong = fake_helper(
        dir.path(),
        "    version) echo 'ok 6.3.0';;\n    result) echo 'ok 1';;\n    mul|powm) echo 'ok 1e-6 1';;\n    quit) exit 0;;\n    *) echo ok;;",
    );
    for row in ["gmp63-product-64k", "gmp63-modexp-8192"] {
        let out = peers_with(&wrong, row);
        assert_one_line_error(&out, 70, "differs from the system GMP");
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // A helper that ends at once: a runtime error naming it.
    let mute = fake_helper(dir.path(), "    *) exit 0;;");
    let out = peers_with(&mute, "gmp63-product-64k");
    assert_one_line_error(&out, 1, "ended without a reply");
    // One that is gone before it is asked anything: the write fails (EPIPE, not a silent
    // SIGPIPE end of parcrypt) or the read finds no reply; either way one line naming it.
    let gone = dir.path().join("gone-gmp63-peer");
    std::fs::write(&gone, "#!/bin/sh\nexit 0\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gone, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for _ in 0..5 {
        let out = peers_with(&gone, "gmp63-product-64k");
        assert_one_line_error(&out, 1, "gone-gmp63-peer");
    }
    // Another GMP than 6.3: refused, naming what it is.
    let other = fake_helper(
        dir.path(),
        "    version) echo 'ok 6.2.1';;\n    *) echo ok;;",
    );
    let out = peers_with(&other, "gmp63-product-64k");
    assert_one_line_error(&out, 1, "its GMP is '6.2.1', not 6.3");
    // One that answers `error:`: its text, as a runtime error.
    let refuses = fake_helper(dir.path(), "    *) echo 'error: out of luck';;");
    let out = peers_with(&refuses, "gmp63-product-1m");
    assert_one_line_error(&out, 1, "out of luck");
}
