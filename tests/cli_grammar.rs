//! One command-line grammar (issue 10, item 6): every `bench` subcommand takes the same run
//! and output options with the same defaults; `--json F` is a file everywhere (`-` for
//! stdout); every output path is checked before any work, so a bad one fails at once with one
//! line, exit 2, and no file; JSON records carry their per-run `times`.
mod common;

use common::{assert_one_line_error, parcrypt};
use serde_json::Value;
use std::path::Path;

/// Every bench subcommand, with arguments that keep a run tiny.
const BENCHES: [&[&str]; 8] = [
    &["rsa", "--bits", "512", "--messages", "2", "--threads", "1"],
    &[
        "modexp",
        "--bits",
        "64",
        "--methods",
        "binary",
        "--threads",
        "1",
    ],
    &[
        "rsa-private",
        "--bits",
        "512",
        "--methods",
        "crt",
        "--openssl-seconds",
        "0",
    ],
    &[
        "mul",
        "--bits",
        "1024",
        "--methods",
        "gmp",
        "--threads",
        "2",
    ],
    &["handoff"],
    &["cipher", "--alg", "rc4", "--size", "4KiB", "--threads", "1"],
    &[
        "pipeline", "--chunk", "64", "--stages", "4", "--size", "4KiB", "--groups", "0",
    ],
    &["peers", "--rows", "product-32k"],
];

/// The shared options and their defaults, as `--help` shows them.
const SHARED: [(&str, Option<&str>); 8] = [
    ("--warmup", Some("1")),
    ("--runs", Some("5")),
    ("--min-time", Some("0.5")),
    ("--max-runs", Some("1000")),
    ("--json", None),
    ("--csv", None),
    ("--markdown", None),
    ("--quiet", None),
];

fn bench(sub: &[&str], more: &[&str]) -> std::process::Output {
    let mut args = vec!["bench"];
    args.extend_from_slice(sub);
    args.extend_from_slice(more);
    parcrypt(&args)
}

/// A usage error that did nothing: one line, exit 2, nothing on stdout.
fn assert_refused_before_work(out: &std::process::Output, needle: &str) {
    assert_one_line_error(out, 2, needle);
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn every_bench_takes_the_same_options_with_the_same_defaults() {
    for sub in BENCHES {
        let out = bench(&sub[..1], &["--help"]);
        assert_eq!(out.status.code(), Some(0));
        let help = String::from_utf8_lossy(&out.stdout);
        for (flag, default) in SHARED {
            // "--runs <RUNS>" or, with hyperfine's short flag, "-r, --runs <RUNS>".
            let line = help
                .lines()
                .find(|l| {
                    let l = l.trim_start();
                    l.starts_with(flag) || l.get(4..).is_some_and(|r| r.starts_with(flag))
                })
                .unwrap_or_else(|| panic!("bench {}: no {flag} in\n{help}", sub[0]));
            if let Some(d) = default {
                // clap puts the default at the end of the help paragraph.
                let from = help.find(line).unwrap();
                let para = &help[from..help[from..].find("\n\n").map_or(help.len(), |e| from + e)];
                assert!(
                    para.contains(&format!("[default: {d}]")),
                    "bench {}: {flag} default is not {d}: {para}",
                    sub[0]
                );
            }
        }
    }
}

#[test]
fn a_folder_or_a_missing_folder_as_output_fails_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let missing = dir.path().join("no/such/r.json");
    let missing = missing.to_str().unwrap();
    for sub in BENCHES {
        for flag in ["--json", "--csv", "--markdown"] {
            let out = bench(sub, &["--quiet", flag, folder]);
            assert_refused_before_work(&out, &format!("{flag} {folder}: is a folder"));
        }
        let out = bench(sub, &["--quiet", "--json", missing]);
        assert_refused_before_work(&out, "does not exist");
        assert!(is_empty_dir(dir.path()), "bench {}: left a file", sub[0]);
    }
    // The same file twice, and stdout twice.
    let f = dir.path().join("r.out");
    let f = f.to_str().unwrap();
    let out = bench(BENCHES[4], &["--json", f, "--csv", f]);
    assert_refused_before_work(&out, "name the same file");
    let out = bench(BENCHES[4], &["--json", "-", "--csv", "-"]);
    assert_refused_before_work(&out, "only one output can be -");
    assert!(is_empty_dir(dir.path()));
    // Run options are checked as early.
    let out = bench(BENCHES[4], &["--min-time", "soon"]);
    assert_one_line_error(&out, 2, "non-negative number of seconds");
    let out = bench(BENCHES[4], &["--runs", "5", "--max-runs", "2"]);
    assert_refused_before_work(&out, "--max-runs (2) must be at least --runs (5)");
}

#[test]
fn dse_checks_its_json_file_before_measuring() {
    let out = parcrypt(&["dse", "--json", "/nonexistent/d.json"]);
    assert_refused_before_work(
        &out,
        "--json /nonexistent/d.json: folder /nonexistent does not exist",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = parcrypt(&["dse", "--json", dir.path().to_str().unwrap()]);
    assert_refused_before_work(&out, "is a folder");
}

#[test]
fn handoff_writes_every_format_with_per_run_times() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, md) = (
        dir.path().join("h.json"),
        dir.path().join("h.csv"),
        dir.path().join("h.md"),
    );
    let quick = [
        "--runs",
        "3",
        "--max-runs",
        "3",
        "--min-time",
        "0",
        "--warmup",
        "0",
        "--quiet",
    ];
    let mut args = quick.to_vec();
    for (flag, p) in [("--json", &json), ("--csv", &csv), ("--markdown", &md)] {
        args.extend([flag, p.to_str().unwrap()]);
    }
    let out = bench(&["handoff"], &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("median_us"));
    let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(v["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    for r in v["results"].as_array().unwrap() {
        let times = r["times"].as_array().unwrap();
        assert_eq!(times.len() as u64, r["runs"].as_u64().unwrap());
        let t: Vec<f64> = times.iter().map(|t| t.as_f64().unwrap()).collect();
        let min = t.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!((min - r["min_s"].as_f64().unwrap()).abs() <= 1e-12 * min.max(1.0));
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("median_s") && header.contains("median_us"),
        "{header}"
    );
    assert!(!header.contains("times"), "{header}");
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .starts_with("| primitive")
    );
    // `--json -` puts the JSON alone on stdout.
    let mut args = quick.to_vec();
    args.extend(["--json", "-"]);
    let out = bench(&["handoff"], &args);
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON alone");
    assert!(v["results"][0]["times"].is_array());
}

#[test]
fn one_result_commands_write_json_files_and_show_json_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let point = ["--preset", "core2duo", "--node", "90", "--freq", "1600"];
    for cmd in [&["power"][..], &["reliability"], &["presets"]] {
        let with_point = |more: &[&str]| {
            let mut a = cmd.to_vec();
            if cmd[0] != "presets" {
                a.extend(point);
            }
            a.extend_from_slice(more);
            parcrypt(&a)
        };
        // A folder is refused before anything is computed or printed.
        assert_refused_before_work(&with_point(&["--json", folder]), "is a folder");
        // --json F writes the file and keeps the text on stdout.
        let file = dir.path().join(format!("{}.json", cmd[0]));
        let out = with_point(&["--json", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        let written: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert!(
            serde_json::from_slice::<Value>(&out.stdout).is_err(),
            "text on stdout"
        );
        // --format json and --json - show the same JSON on stdout.
        for more in [&["--format", "json"][..], &["--json", "-"]] {
            let shown: Value = serde_json::from_slice(&with_point(more).stdout).unwrap();
            assert_eq!(shown, written, "{cmd:?} {more:?}");
        }
    }
}

#[test]
fn energy_checks_its_files_before_running_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    for flag in ["--json", "--output"] {
        let out = parcrypt(&[
            "energy",
            "--meter",
            "model",
            flag,
            dir.path().to_str().unwrap(),
            "--",
            "touch",
            marker.to_str().unwrap(),
        ]);
        assert_refused_before_work(&out, "is a folder");
        assert!(!marker.exists(), "the command ran");
    }
    let report = dir.path().join("e.json");
    let out = parcrypt(&[
        "energy",
        "--meter",
        "model",
        "--json",
        report.to_str().unwrap(),
        "--",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(v["source"].as_str().unwrap().starts_with("model:"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("energy: "));
}

/// Issue 21's grammar: a mistyped option or subcommand gets clap's suggestion in the one
/// error line.
#[test]
fn mistyped_options_and_subcommands_get_a_suggestion() {
    let out = parcrypt(&["bench", "rsa", "--thread", "2"]);
    assert_one_line_error(&out, 2, "unexpected argument '--thread'");
    assert_one_line_error(&out, 2, "a similar argument exists: '--threads'");
    let out = parcrypt(&["benchh"]);
    assert_one_line_error(&out, 2, "unrecognized subcommand 'benchh'");
    assert_one_line_error(&out, 2, "a similar subcommand exists: 'bench'");
    let out = parcrypt(&["dse", "--workload", "parsaa"]);
    assert_one_line_error(&out, 2, "'parsaa'");
    assert_one_line_error(&out, 2, "parsa");
}

/// hyperfine's short flags for the run options, on every benchmark.
#[test]
fn run_options_have_hyperfines_short_flags() {
    for sub in BENCHES {
        let out = bench(&sub[..1], &["--help"]);
        let help = String::from_utf8_lossy(&out.stdout);
        for (short, long) in [("-w", "--warmup"), ("-r", "--runs"), ("-M", "--max-runs")] {
            assert!(
                help.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{short}, {long}"))),
                "bench {}: no {short}, {long} in\n{help}",
                sub[0]
            );
        }
    }
    let out = bench(
        &["handoff"],
        &[
            "-r",
            "3",
            "-M",
            "3",
            "-w",
            "0",
            "--min-time",
            "0",
            "--json",
            "-",
        ],
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
    assert_eq!(v["results"][0]["runs"], 3);
}

/// `--json` takes a file (or `-`) on every command that has it; alone, it is an error.
#[test]
fn json_takes_a_file_everywhere() {
    for cmd in [
        &["presets", "--json"][..],
        &["power", "--preset", "core2duo", "--json"],
        &["reliability", "--preset", "core2duo", "--json"],
        &["dse", "--json"],
        &["study", "diff", "a", "b", "--json"],
        &["bench", "handoff", "--json"],
    ] {
        let out = parcrypt(cmd);
        assert_refused_before_work(&out, "a value is required for '--json <F>'");
    }
}

/// `bench cipher --runs 3`: too few runs for a 95 % interval, so the interval columns are
/// there but empty, in JSON, CSV, Markdown and on the screen; `min_s` and `max_s` give the
/// range; outliers are counted, the old `wide_spread` flag is gone.
#[test]
fn too_few_runs_leave_ci95_empty_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, md) = (dir.path().join("c.csv"), dir.path().join("c.md"));
    let args = |runs: &'static str, more: &[&str]| -> Vec<String> {
        let mut a = vec![
            "cipher",
            "--alg",
            "rc4",
            "--size",
            "4K",
            "--threads",
            "1",
            "-r",
            runs,
            "-M",
            runs,
            "--min-time",
            "0",
            "-w",
            "0",
            "--quiet",
        ];
        a.extend_from_slice(more);
        a.into_iter().map(String::from).collect()
    };
    let bench = |a: Vec<String>, _: &[&str]| {
        let mut all = vec!["bench".to_string()];
        all.extend(a);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        parcrypt(&refs)
    };
    let out = bench(args("3", &["--json", "-"]), &[]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
    let records = v["results"].as_array().unwrap();
    assert!(!records.is_empty());
    for r in records {
        assert_eq!(r["runs"], 3);
        assert!(
            r["ci95_low_s"].is_null() && r["ci95_high_s"].is_null(),
            "{r}"
        );
        assert!(r["min_s"].as_f64().unwrap() <= r["max_s"].as_f64().unwrap());
        assert!(
            r["outliers_mild"].is_u64() && r["outliers_severe"].is_u64(),
            "{r}"
        );
        assert!(r.get("wide_spread").is_none(), "{r}");
        assert_eq!(r["size_bytes"], 4096, "4K is 4096 bytes");
    }
    let out = bench(
        args(
            "3",
            &[
                "--csv",
                csv.to_str().unwrap(),
                "--markdown",
                md.to_str().unwrap(),
            ],
        ),
        &[],
    );
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("ci95 is left empty"), "{screen}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    for col in ["ci95_low_s", "ci95_high_s"] {
        let i = header.iter().position(|h| *h == col).unwrap();
        assert_eq!(row[i], "", "{col} in {text}");
    }
    assert!(header.contains(&"outliers_severe") && !header.contains(&"wide_spread"));
    // The Markdown table's ci95 column is empty on every row.
    let md = std::fs::read_to_string(&md).unwrap();
    let cols: Vec<&str> = md
        .lines()
        .next()
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    let ci = cols.iter().position(|c| *c == "ci95").unwrap();
    for line in md.lines().skip(2) {
        assert_eq!(line.split('|').nth(ci).unwrap().trim(), "", "{line}");
    }
    // Six runs give a 95 % interval.
    let out = bench(args("6", &["--json", "-"]), &[]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["results"][0]["ci95_low_s"].is_f64());
}

/// One size syntax: K and KiB are 1024, KB 1000, on every size option.
#[test]
fn sizes_read_as_dd_reads_them() {
    let run = |size: &'static str| {
        let out = bench(
            &[
                "cipher",
                "--alg",
                "rc4",
                "--threads",
                "1",
                "-r",
                "1",
                "-w",
                "0",
                "--min-time",
                "0",
                "--quiet",
                "--json",
                "-",
                "--size",
                size,
            ],
            &[],
        );
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        v["results"][0]["size_bytes"].as_u64().unwrap()
    };
    assert_eq!(run("8K"), 8192);
    assert_eq!(run("8KiB"), 8192);
    assert_eq!(run("8KB"), 8000);
    let out = bench(&["cipher", "--size", "8Q"], &[]);
    assert_refused_before_work(&out, "KiB, MiB, GiB = 1024^n; KB, MB, GB = 1000^n");
    let out = parcrypt(&["scc", "--chunk", "8KB,8K", "--size", "64K"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A thread count left out is the logical CPUs, on every command that has one.
#[test]
fn the_default_thread_count_is_the_logical_cpus_everywhere() {
    for cmd in [
        &["modexp"][..],
        &["mul"],
        &["bench", "rsa"],
        &["bench", "modexp"],
        &["bench", "mul"],
        &["bench", "cipher"],
        &["cipher", "encrypt"],
        &["dse"],
    ] {
        let mut args = cmd.to_vec();
        args.push("--help");
        let help = String::from_utf8_lossy(&parcrypt(&args).stdout).to_string();
        // The option's line and its continuation lines, up to the next option.
        let lines: Vec<&str> = help.lines().collect();
        let at = lines
            .iter()
            .position(|l| {
                l.trim_start()
                    .trim_start_matches("-t, ")
                    .starts_with("--threads")
            })
            .unwrap_or_else(|| panic!("{cmd:?}: no --threads in {help}"));
        let para = std::iter::once(lines[at])
            .chain(
                lines[at + 1..]
                    .iter()
                    .take_while(|l| !l.trim_start().starts_with('-'))
                    .copied(),
            )
            .collect::<Vec<&str>>()
            .join(" ");
        assert!(para.contains("logical CPUs"), "{cmd:?}: {para}");
        assert!(
            !para.contains("[default: 2]") && !para.contains("[default: 1]"),
            "{para}"
        );
    }
}

/// `modexp --base` takes negative numbers, so its error never says "non-negative".
#[test]
fn hex_errors_say_what_the_option_takes() {
    let run = |base: &'static str, exp: &'static str| {
        parcrypt(&[
            "modexp", "--method", "binary", "--base", base, "--exp", exp, "--mod", "65",
        ])
    };
    let out = run("0xZZ", "3");
    assert_one_line_error(&out, 2, "--base: not a hexadecimal integer: '0xZZ'");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("non-negative"));
    assert_one_line_error(&run("0xZZ", "3"), 2, "optional sign");
    assert_one_line_error(
        &run("5", "-3"),
        2,
        "--exp must be a non-negative hex number",
    );
    let out = parcrypt(&[
        "modexp",
        "--method",
        "binary",
        "--base=-0x_5",
        "--exp",
        "3",
        "--mod",
        "65",
    ]);
    assert_one_line_error(&out, 2, "--base: not a hexadecimal integer");
    let out = run("-5", "3");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4d");
}

/// `energy --json -`: stdout holds the JSON alone, the command's own output goes to stderr;
/// the joules say what they are, in the help, the text and the JSON alike.
#[test]
fn energy_keeps_the_commands_output_apart_and_says_what_its_joules_are() {
    let out = parcrypt(&[
        "energy", "--meter", "model", "--json", "-", "--", "echo", "hi",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON alone");
    assert!(String::from_utf8_lossy(&out.stderr).contains("hi"));
    assert!(
        v["basis"]
            .as_str()
            .unwrap()
            .starts_with("modelled: chip power at")
    );
    let out = parcrypt(&["energy", "--meter", "model", "--", "sleep", "0.3"]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("modelled: chip power at 0.0") && text.contains("x wall time"),
        "{text}"
    );
    let help = String::from_utf8_lossy(&parcrypt(&["energy", "--help"]).stdout).to_string();
    assert!(
        help.contains("(CPU time / wall time), times the wall time"),
        "{help}"
    );
    assert!(!help.contains("CPU time x the preset's power"), "{help}");
}

/// `reliability` says its MTTF years are normalised, and temperatures are °C.
#[test]
fn reliability_labels_normalised_mttf_and_degrees() {
    let out = parcrypt(&[
        "reliability",
        "--preset",
        "core-i7",
        "--node",
        "22",
        "--freq",
        "2400",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MTTF, normalised years"), "{text}");
    assert!(
        text.contains("normalised to the reference: each mechanism 120 years"),
        "{text}"
    );
    assert!(text.contains(" °C ") && !text.contains(" C ("), "{text}");
}

/// `dse` gives the fitted serial fraction and every recommendation an interval from its
/// rounds, says whether each is decided, and probes the cores.
#[test]
fn dse_carries_intervals_from_its_rounds() {
    let args = [
        "dse",
        "--workload",
        "cipher",
        "--presets",
        "core-i7",
        "--nodes",
        "22",
        "-r",
        "4",
        "--quiet",
    ];
    let mut json = args.to_vec();
    json.extend(["--json", "-"]);
    let out = parcrypt(&json);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
    let s = &v["fit"]["serial_fraction"];
    let (lo, val, hi) = (
        s["low"].as_f64().unwrap(),
        s["value"].as_f64().unwrap(),
        s["high"].as_f64().unwrap(),
    );
    assert!(
        (0.0..=1.0).contains(&lo) && lo <= val && val <= hi && hi <= 1.0,
        "{s}"
    );
    assert_eq!(v["fit"]["rounds"], 4);
    assert_eq!(v["workload"]["seconds"].as_array().unwrap().len(), 4);
    let recs = v["recommendations"].as_array().unwrap();
    assert_eq!(recs.len(), 5);
    for r in recs {
        let f = &r["figure"];
        assert!(f["low"].as_f64() <= f["value"].as_f64(), "{r}");
        assert!(f["value"].as_f64() <= f["high"].as_f64(), "{r}");
        assert!(r["decided"].is_boolean() && !r["winners"].as_array().unwrap().is_empty());
    }
    assert!(!v["results"].as_array().unwrap().is_empty());
    let text = parcrypt(&args);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("95 % interval ["), "{text}");
    assert!(text.contains("best for energy"), "{text}");
    assert!(
        text.contains("decided") || text.contains("NOT DECIDED"),
        "{text}"
    );
}
