//! End-to-end tests of `parcrypt power`, `reliability`, `energy` and `presets`: the 90 rows of
//! PaRSA's Tables 4-7 reproduced through the command line, the RAPL meter on a fake
//! powercap tree, `auto` falling back to the model here, and every bad input answered by one
//! `error:` line and the right exit status.
mod common;
use parcrypt_lab::energy::parsa;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn parcrypt_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_parcrypt"));
    cmd.args(args).env_remove("PARCRYPT_PROFILE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run parcrypt")
}

fn parcrypt(args: &[&str]) -> Output {
    parcrypt_env(args, &[])
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Exit `code`, one `error:` line on stderr containing `needle`, no panic.
fn assert_error(out: &Output, code: i32, needle: &str) {
    common::assert_one_line_error(out, code, needle);
}

fn preset_of(processor: &str) -> &'static str {
    match processor {
        "core2duo" => "core2duo",
        "core_i3" => "core-i3",
        "core_i5" => "core-i5",
        _ => "core-i7",
    }
}

#[test]
fn power_reproduces_all_90_rows_of_tables_4_to_7() {
    let rows = parsa::power_rows();
    assert_eq!(rows.len(), 90);
    for r in rows {
        let (node, freq) = (r.node_nm.to_string(), r.freq_mhz.to_string());
        let preset = preset_of(&r.processor);
        let v = stdout_json(&parcrypt(&[
            "power", "--preset", preset, "--node", &node, "--freq", &freq, "--json", "-",
        ]));
        for (key, table) in [
            ("p_dynamic_w", r.p_dynamic_w),
            ("p_leak_w", r.p_leak_total_w),
            ("p_total_w", r.p_total_w()),
            ("area_mm2", r.area_mm2),
        ] {
            let ours = v[key].as_f64().unwrap();
            assert!(
                (ours - table).abs() <= 0.005 * table,
                "{preset} {node} nm {freq} MHz {key}: {ours} vs Table {} {table}",
                r.table
            );
        }
        // A table row read as printed is the paper's figure, labelled so; a rebuilt row says so.
        assert_eq!(v["source"], format!("paper:parsa-table-{}", r.table));
        let notes = v["notes"].to_string();
        assert_eq!(notes.contains("rebuilt"), !r.note.is_empty(), "{notes}");
    }
    // Power gating: gate + power-gated subthreshold (Core2Duo 22 nm: 0.01 + 3.82 W).
    let v = stdout_json(&parcrypt(&[
        "power",
        "--preset",
        "core2duo",
        "--node",
        "22",
        "--freq",
        "800",
        "--power-gating",
        "--json",
        "-",
    ]));
    assert!((v["p_leak_w"].as_f64().unwrap() - 3.83).abs() < 1e-9);
}

#[test]
fn power_bad_inputs_are_usage_errors() {
    assert_error(
        &parcrypt(&["power", "--preset", "pentium"]),
        2,
        "known: core2duo, core-i3",
    );
    assert_error(
        &parcrypt(&[
            "power", "--preset", "core-i7", "--node", "28", "--freq", "2400",
        ]),
        2,
        "nodes: 90, 65, 45, 32, 22",
    );
    assert_error(
        &parcrypt(&[
            "power", "--preset", "core2duo", "--node", "22", "--freq", "1000",
        ]),
        2,
        "frequencies: 800, 1600, 2130, 2800",
    );
    assert_error(
        &parcrypt(&["power", "--preset", "fx-8320", "--freq", "3000"]),
        2,
        "states: p1, p2, p3, p4, default, calibrated",
    );
    assert_error(
        &parcrypt(&["power", "--preset", "core-i7", "--active-cores", "5"]),
        2,
        "between 0 and 4",
    );
    assert_error(
        &parcrypt(&["power", "--preset", "core-i7", "--freq=0"]),
        2,
        "positive",
    );
    assert_error(
        &parcrypt(&[
            "power",
            "--preset",
            "core-i7",
            "--node",
            "14",
            "--interpolate",
        ]),
        2,
        "22-90 nm",
    );
    // Interpolation only when asked, and labelled.
    let v = stdout_json(&parcrypt(&[
        "power",
        "--preset",
        "core2duo",
        "--node",
        "22",
        "--freq",
        "1000",
        "--interpolate",
        "--json",
        "-",
    ]));
    assert_eq!(v["basis"], "table-interpolated");
    assert_eq!(v["source"], "model:core2duo");
    // The first-principles model says so.
    let v = stdout_json(&parcrypt(&[
        "power",
        "--preset",
        "core-i7",
        "--node",
        "22",
        "--freq",
        "2400",
        "--model",
        "first-principles",
        "--json",
        "-",
    ]));
    assert_eq!(v["source"], "model:first-principles");
}

#[test]
fn a_malformed_or_missing_profile_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "static_w = [oops").unwrap();
    let b = bad.to_str().unwrap();
    assert_error(
        &parcrypt(&["power", "--preset", "this-machine", "--profile", b]),
        2,
        "bad.toml",
    );
    assert_error(
        &parcrypt(&["presets", "--profile", "/nonexistent/profile.toml"]),
        2,
        "profile",
    );
    let incomplete = dir.path().join("incomplete.toml");
    std::fs::write(
        &incomplete,
        "idle_activity = 0.1\nambient_c = 45\nr_th_k_per_w = 1\nstatic_w = 5\n",
    )
    .unwrap();
    assert_error(
        &parcrypt(&["power", "--profile", incomplete.to_str().unwrap()]),
        2,
        "at least one [[state]]",
    );
    // The same, through the environment.
    assert_error(
        &parcrypt_env(&["power"], &[("PARCRYPT_PROFILE", b)]),
        2,
        "bad.toml",
    );
    // A good profile is used and named.
    let good = dir.path().join("good.toml");
    std::fs::write(
        &good,
        "cores = 4\nnode_nm = 22\nstatic_w = 5.0\nc_eff_nf = 2.0\nidle_activity = 0.0\ndefault_state = \"n\"\nidle_state = \"n\"\nambient_c = 40\nr_th_k_per_w = 1\n[[state]]\nname = \"n\"\nmhz = 2000.0\nvolts = 1.0\n",
    )
    .unwrap();
    let v = stdout_json(&parcrypt(&[
        "power",
        "--profile",
        good.to_str().unwrap(),
        "--json",
        "-",
    ]));
    assert!((v["p_total_w"].as_f64().unwrap() - (5.0 + 4.0 * 4.0)).abs() < 1e-9);
    assert_eq!(v["source"], "model:this-machine");
}

#[test]
fn reliability_prints_mttf_and_the_change_between_two_clocks() {
    let v = stdout_json(&parcrypt(&[
        "reliability",
        "--preset",
        "core2duo",
        "--node",
        "22",
        "--freq",
        "800",
        "--vs-freq",
        "2800",
        "--json",
        "-",
    ]));
    for key in ["em_pct", "sm_pct", "tddb_pct", "tc_pct", "combined_pct"] {
        assert!(v["change_pct"][key].as_f64().unwrap() > 0.0, "{key}");
    }
    assert!(
        v["this"]["temperature"]["source"]
            .as_str()
            .unwrap()
            .starts_with("model:core2duo")
    );
    let text = parcrypt(&[
        "reliability",
        "--preset",
        "core-i7",
        "--node",
        "22",
        "--freq",
        "1200",
        "--vs-freq",
        "2400",
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("MTTF of 1200 MHz over 2400 MHz: EM +"),
        "{text}"
    );
    assert!(
        text.contains("reference: each mechanism 120 years"),
        "{text}"
    );
    assert_error(
        &parcrypt(&["reliability", "--preset", "nope"]),
        2,
        "unknown preset 'nope'",
    );
    assert_error(
        &parcrypt(&[
            "reliability",
            "--preset",
            "core-i7",
            "--node",
            "22",
            "--freq",
            "1300",
        ]),
        2,
        "frequencies: 1200",
    );
    assert_error(
        &parcrypt(&["reliability", "--preset", "core-i7", "--vs-temp-c", "50"]),
        2,
        "--vs-freq",
    );
    assert_error(
        &parcrypt(&["reliability", "--preset", "core-i7", "--sensors"]),
        2,
        "this-machine",
    );
    assert_error(
        &parcrypt(&[
            "reliability",
            "--preset",
            "core-i7",
            "--node",
            "22",
            "--freq",
            "1200",
            "--temp-c",
            "30",
        ]),
        2,
        "above ambient",
    );
}

/// A fake powercap tree with one package at `uj` microjoules.
fn powercap(dir: &Path, uj: u64) {
    let d = dir.join("intel-rapl:0");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("name"), "package-0\n").unwrap();
    std::fs::write(d.join("energy_uj"), format!("{uj}\n")).unwrap();
    std::fs::write(d.join("max_energy_range_uj"), "262143328850\n").unwrap();
}

#[test]
fn energy_measures_any_command_and_keeps_its_exit_status() {
    let none = tempfile::tempdir().unwrap();
    let root = none.path().to_str().unwrap();
    let env = [("PARCRYPT_POWERCAP_ROOT", root)];
    // No RAPL here: auto falls back to the model and says so; the child's status is kept.
    let out = parcrypt_env(&["energy", "--", "sh", "-c", "exit 7"], &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(7), "{stderr}");
    assert!(
        stderr.contains("note: RAPL not used") && stderr.contains("model:this-machine"),
        "{stderr}"
    );
    assert!(
        stderr.contains("energy: ") && stderr.contains(" J, "),
        "{stderr}"
    );
    // JSON report, also to a file.
    let file = none.path().join("report.json");
    let out = parcrypt_env(
        &[
            "energy",
            "--json",
            "-",
            "--output",
            file.to_str().unwrap(),
            "--preset",
            "core-i7",
            "--",
            "true",
        ],
        &env,
    );
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(v["source"], "model:core-i7");
    assert_eq!(v["exit_code"], 0);
    assert!(
        v["fallback"]
            .as_str()
            .unwrap()
            .contains("no RAPL energy counters")
    );
    assert!(v["joules"].as_f64().unwrap() >= 0.0 && v["seconds"].as_f64().unwrap() > 0.0);
    // --meter rapl never falls back.
    assert_error(
        &parcrypt_env(&["energy", "--meter", "rapl", "--", "true"], &env),
        1,
        "no RAPL energy counters",
    );
    // A fake powercap tree is read as RAPL.
    let tree = tempfile::tempdir().unwrap();
    powercap(tree.path(), 5_000_000);
    let out = parcrypt_env(
        &["energy", "--format", "json", "--", "true"],
        &[("PARCRYPT_POWERCAP_ROOT", tree.path().to_str().unwrap())],
    );
    let v: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["source"], "measured:rapl");
    assert_eq!(v["domains"][0]["name"], "package-0");
    assert!(v.get("fallback").is_none());
    // Bad input.
    assert_error(
        &parcrypt_env(&["energy", "--", "/nonexistent/program"], &env),
        1,
        "cannot run",
    );
    assert_error(
        &parcrypt(&["energy", "--preset", "nope", "--", "true"]),
        2,
        "unknown preset",
    );
    assert_error(
        &parcrypt(&["energy", "--meter", "joulemeter", "--", "true"]),
        2,
        "joulemeter",
    );
}

#[test]
fn presets_lists_all_eight() {
    let v = stdout_json(&parcrypt(&["presets", "--json", "-"]));
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "core2duo",
            "core-i3",
            "core-i5",
            "core-i7",
            "t5270",
            "fx-8320",
            "scc",
            "this-machine"
        ]
    );
    let text = String::from_utf8(parcrypt(&["presets"]).stdout).unwrap();
    assert!(
        text.contains("a guess"),
        "the default profile says it is a guess: {text}"
    );
}
