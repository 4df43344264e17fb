//! `parcrypt-mpi` under `mpirun` (run with `cargo test --release -p parcrypt-mpi
//! --test mpi`): every program over 2 ranks and over 4 oversubscribed ranks, byte-equal to
//! the sequential reference, and every bad input answered with one line from rank 0, a
//! non-zero exit, no output file and no hang (each launch runs under `timeout`).
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_parcrypt-mpi");
/// Seconds before a launch is killed (a hang fails the test instead of the CI run).
const LIMIT: &str = "180";

/// `mpirun -n N` (plus `extra` launcher flags) on `args`, as root where needed, under timeout.
fn mpirun(n: usize, extra: &[&str], args: &[&str]) -> Output {
    let n = n.to_string();
    Command::new("timeout")
        .args([LIMIT, "mpirun", "-n", &n])
        .args(extra)
        .arg(BIN)
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("run mpirun")
}

fn ok(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "status {:?}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A failure as promised: not killed by the timeout, non-zero, one `error:` line (from rank 0
/// or the failing rank) containing `needle`, no panic.
fn failed(out: &Output, needle: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_ne!(out.status.code(), Some(124), "hung: {stderr}");
    assert!(!out.status.success(), "should fail: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 1, "one error line expected: {stderr}");
    assert!(errors[0].contains(needle), "'{needle}' not in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("results written")).expect("JSON")
}

#[test]
fn batch_rsa_over_2_and_4_ranks_equals_sersa_for_every_schedule() {
    let dir = tempfile::tempdir().unwrap();
    for (n, extra) in [(2, &[][..]), (4, &["--oversubscribe"][..])] {
        let path = dir.path().join(format!("rsa{n}.json"));
        let p = path.to_str().unwrap();
        for master in ["works", "waits"] {
            let args = [
                "rsa",
                "--bits",
                "512",
                "--messages",
                "13",
                "--chunk",
                "default,3",
                "--runs",
                "1",
                "--warmup",
                "0",
                "--master",
                master,
                "--json",
                p,
            ];
            let stdout = ok(&mpirun(n, extra, &args));
            assert!(stdout.contains("every output equalled SeRSA's"), "{stdout}");
            let v = json(&path);
            let results = v["results"].as_array().unwrap();
            assert_eq!(results.len(), 1 + 3 * 2, "SeRSA + 3 schedules x 2 chunks");
            assert_eq!(results[0]["backend"], "threads");
            for r in &results[1..] {
                assert_eq!(
                    (r["backend"].as_str(), r["ranks"].as_u64()),
                    (Some("mpi"), Some(n as u64))
                );
                assert_eq!(r["hosts"], 1);
                assert_eq!(r["host_names"].as_array().map(Vec::len), Some(1), "{r}");
                assert_eq!(r["verified"], true);
                assert_eq!(r["master"], master);
                assert!(r["energy_source"].is_string() && r["median_s"].as_f64().unwrap() > 0.0);
            }
        }
    }
}

/// The multi-buffer IFMA kernel over ranks (each rank's chunks in groups of eight messages):
/// equal to SeRSA where the CPU has it, one usage error from every rank agreed where not.
#[test]
fn batch_rsa_on_the_multi_buffer_kernel_equals_sersa_or_is_refused() {
    let args = [
        "rsa",
        "--bits",
        "1024",
        "--messages",
        "21",
        "--private-op",
        "crt-const-time-mb",
        "--chunk",
        "default,5",
        "--runs",
        "1",
        "--warmup",
        "0",
    ];
    let out = mpirun(2, &[], &args);
    if parcrypt::hazmat::multibuffer::unavailable_reason().is_none() {
        let stdout = ok(&out);
        assert!(stdout.contains("every output equalled SeRSA's"), "{stdout}");
    } else {
        println!("skipped: this CPU lacks AVX-512 IFMA; checking the refusal instead");
        failed(&out, "ifma-mb");
        assert_eq!(out.status.code(), Some(2));
    }
}

/// `--private-op auto`: every rank runs rank 0's measured choice (the multi-buffer kernel only
/// where every rank has it), equal to SeRSA, and the records say what was chosen and why.
#[test]
fn batch_rsa_with_auto_takes_one_agreed_const_time_op_and_records_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auto.json");
    let args = [
        "rsa",
        "--bits",
        "1024",
        "--messages",
        "24",
        "--private-op",
        "auto",
        "--schedule",
        "static",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--json",
        path.to_str().unwrap(),
    ];
    let stdout = ok(&mpirun(2, &[], &args));
    assert!(stdout.contains("every output equalled SeRSA's"), "{stdout}");
    assert!(stdout.contains("auto: "), "{stdout}");
    for r in json(&path)["results"].as_array().unwrap() {
        let op = r["private_op"].as_str().unwrap();
        let why = r["private_op_choice"].as_str().unwrap();
        assert!(why.starts_with("auto: "), "{why}");
        match op {
            "crt-const-time-mb" => assert!(why.contains("multi-buffer ifma-mb"), "{why}"),
            "crt-const-time" => assert!(!why.contains("multi-buffer ifma-mb"), "{why}"),
            other => panic!("auto ran {other}"),
        }
        if parcrypt::hazmat::multibuffer::unavailable_reason().is_some() {
            assert_eq!(op, "crt-const-time", "no IFMA here");
        }
    }
}

/// Chunks above Open MPI's eager limit (4 KiB) both ways at once: rank 0 replying with a large
/// chunk while the worker sends large results used to deadlock (each send waiting for the
/// other's receive; seen with 256 RSA-2048 messages). 600 messages of 64 bytes give guided
/// chunks of many KiB.
#[test]
fn batch_rsa_with_chunks_past_the_eager_limit_does_not_deadlock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let args = [
        "rsa",
        "--bits",
        "512",
        "--messages",
        "600",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--timeout",
        "60",
        "--json",
        path.to_str().unwrap(),
    ];
    let stdout = ok(&mpirun(2, &[], &args));
    assert!(stdout.contains("every output equalled SeRSA's"), "{stdout}");
}

#[test]
fn the_round_pipeline_over_ranks_round_trips_and_reports_hops() {
    let dir = tempfile::tempdir().unwrap();
    for (n, extra) in [(2, &[][..]), (4, &["--oversubscribe"][..])] {
        let path = dir.path().join("pipe.json");
        let args = [
            "pipeline",
            "--size",
            "100000",
            "--chunks",
            "8192,65536",
            "--hops",
            "20",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--json",
            path.to_str().unwrap(),
        ];
        ok(&mpirun(n, extra, &args));
        let v = json(&path);
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 5, "sequential + (ranks, threads) x 2 chunks");
        let mpi: Vec<_> = results.iter().filter(|r| r["backend"] == "mpi").collect();
        assert_eq!(mpi.len(), 2);
        for r in mpi {
            assert_eq!(r["ranks"], n);
            assert!(r["hop_us"].as_f64().unwrap() > 0.0);
            assert!(r["hop_mean_us"].as_f64().unwrap() > 0.0);
            assert_eq!(r["stage_stats"].as_array().unwrap().len(), n);
        }
    }
}

#[test]
fn crsa_over_4_and_8_ranks_matches_the_thread_engine_and_misfits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crsa.json");
    for (n, cubes, piped) in [(4, "1", false), (8, "1", false), (4, "2", true)] {
        let mut args = vec![
            "crsa", "--cubes", cubes, "--blocks", "5", "--bits", "256", "--runs", "1",
        ];
        if piped {
            args.push("--pipelined");
        }
        args.extend(["--json", path.to_str().unwrap()]);
        let stdout = ok(&mpirun(n, &["--oversubscribe"], &args));
        assert!(stdout.contains("counts per PE"), "{stdout}");
        // Both rows carry the coordinator / PE split, the coordinator doing nearly all of it.
        for r in json(&path)["results"].as_array().unwrap() {
            let w = &r["work_split"];
            let coordinator = w["coordinator_squarings"].as_u64().unwrap()
                + w["coordinator_multiplications"].as_u64().unwrap();
            let pes = w["pe_mulmods_total"].as_u64().unwrap();
            assert_eq!(coordinator + pes, r["mulmods"].as_u64().unwrap(), "{r}");
            assert!(coordinator > 4 * pes, "{r}");
            assert!(w["pe_mulmods_min"].as_u64() <= w["pe_mulmods_max"].as_u64());
        }
    }
    let out = mpirun(3, &["--oversubscribe"], &["crsa", "--runs", "1"]);
    failed(&out, "power-of-two number of ranks");
    assert_eq!(out.status.code(), Some(2));
    let out = mpirun(2, &[], &["crsa", "--cubes", "0"]);
    assert!(!out.status.success());
}

#[test]
fn bulk_ciphers_over_ranks_equal_the_sequential_reference_and_fail_cleanly() {
    use parcrypt::cipher::alg::{Algorithm, CipherSpec, Direction};
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.bin");
    let data: Vec<u8> = (0..300_001u32).map(|i| (i * 31 % 251) as u8).collect();
    std::fs::write(&input, &data).unwrap();
    let inp = input.to_str().unwrap();
    let key = "00112233445566778899";
    for (alg, extra, verify) in [
        ("pblock-ecb", vec![], "part"),
        ("pblock-ctr", vec!["--iv", "0001020304050607"], "full"),
        (
            "parc4",
            vec![
                "--nonce",
                "000102030405060708090a0b0c0d0e0f",
                "--chunk",
                "4096",
            ],
            "none",
        ),
    ] {
        let out = dir.path().join(format!("{alg}.out"));
        let mut args = vec!["cipher", "--alg", alg, "--key", key, "--in", inp];
        args.extend(["--out", out.to_str().unwrap(), "--threads", "2"]);
        args.extend(["--verify", verify]);
        args.extend(extra.iter().copied());
        ok(&mpirun(4, &["--oversubscribe"], &args));
        let algorithm: Algorithm = alg.parse().unwrap();
        let mut spec = CipherSpec::new(algorithm.sequential_form(), &hex::decode(key).unwrap());
        if alg == "pblock-ctr" {
            spec.iv = Some(*b"\x00\x01\x02\x03\x04\x05\x06\x07");
        }
        if alg == "parc4" {
            spec = CipherSpec::new(algorithm, &hex::decode(key).unwrap());
            spec.nonce = Some((0..16).collect());
            spec.chunk = Some(4096);
            spec.threads = Some(1);
        }
        let want =
            parcrypt::cipher::file::transform_bytes(&spec, Direction::Encrypt, &data).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), want, "{alg}");
        if alg == "pblock-ecb" {
            // Decrypted over 3 ranks (the last unpads), checked whole: the input again, 0600.
            let back = dir.path().join("back.bin");
            let args = [
                "cipher",
                "--alg",
                alg,
                "--decrypt",
                "--key",
                key,
                "--verify",
                "full",
                "--in",
                out.to_str().unwrap(),
                "--out",
                back.to_str().unwrap(),
            ];
            ok(&mpirun(3, &["--oversubscribe"], &args));
            assert_eq!(std::fs::read(&back).unwrap(), data);
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!((mode(&out), mode(&back)), (0o644, 0o600));
        }
    }
    // Timed against threads (and written as JSON), file to file and in memory; the timed runs
    // leave nothing beside the output.
    let path = dir.path().join("bulk.json");
    let out = dir.path().join("timed.out");
    for timing in ["file", "memory"] {
        let args = [
            "cipher",
            "--alg",
            "pblock-ecb",
            "--key",
            key,
            "--in",
            inp,
            "--out",
            out.to_str().unwrap(),
            "--runs",
            "2",
            "--timing",
            timing,
            "--json",
            path.to_str().unwrap(),
        ];
        ok(&mpirun(2, &[], &args));
        let results = json(&path)["results"].as_array().unwrap().clone();
        let backends: Vec<_> = results.iter().map(|r| r["backend"].clone()).collect();
        assert_eq!(backends, ["threads", "threads", "mpi"]);
        assert!(results.iter().all(|r| r["io"] == timing), "{results:?}");
        assert!(results.iter().all(|r| r["verified"] == true));
    }
    // The file cannot be read on rank 1 (MPMD: rank 1 gets another path): one line, no output.
    let missing = dir.path().join("missing.bin");
    let out = dir.path().join("never.out");
    let cmd = |i: &str| {
        format!(
            "-n 1 {BIN} cipher --alg pblock-ecb --key-hex {key} --in {i} --out {}",
            out.display()
        )
    };
    let line = format!("mpirun {} : {}", cmd(inp), cmd(missing.to_str().unwrap()));
    let res = Command::new("timeout")
        .args([LIMIT, "bash", "-c", &line])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    failed(&res, "rank 1:");
    assert!(!out.exists(), "no partial output");
    // A ciphertext with bad padding on the last rank: agreed, no output.
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, [7u8; 64]).unwrap();
    let args = [
        "cipher",
        "--alg",
        "pblock-ecb",
        "--decrypt",
        "--key",
        key,
        "--in",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    failed(&mpirun(2, &[], &args), "rank 1:");
    assert!(!out.exists());
    let leftovers = std::fs::read_dir(dir.path()).unwrap().filter(|e| {
        e.as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".parcrypt")
    });
    assert_eq!(leftovers.count(), 0, "no temporary files left");
}

#[test]
fn without_mpirun_it_runs_as_one_rank_and_too_few_ranks_are_refused() {
    let out = Command::new("timeout")
        .args([
            LIMIT,
            BIN,
            "rsa",
            "--bits",
            "512",
            "--messages",
            "4",
            "--runs",
            "1",
            "--warmup",
            "0",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("running as one rank"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("over 1 rank on 1 host ("));
    let out = Command::new("timeout")
        .args([LIMIT, BIN, "pipeline"])
        .output()
        .unwrap();
    failed(&out, "needs 2 to 35 ranks");
    assert_eq!(out.status.code(), Some(2));
    let out = mpirun(2, &[], &["rsa", "--chunk", "0"]);
    failed(&out, "chunk");
    let out = mpirun(2, &[], &["rsa", "--schedule", "steal"]);
    failed(&out, "static, dynamic or guided");
}

/// `mpirun` on a shell line (`bash -c`), as root where needed, under timeout.
fn mpirun_line(line: &str) -> Output {
    Command::new("timeout")
        .args([LIMIT, "bash", "-c", line])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("run mpirun")
}

/// A shell snippet that waits until a temporary output in `dir` holds more than a MiB, then
/// runs `then`.
fn once_writing(dir: &Path, then: &str) -> String {
    format!(
        "while :; do f=$(ls {d}/.parcrypt-*.tmp 2>/dev/null | head -n 1); \
         if [ -n \"$f\" ] && [ $(stat -c %s \"$f\" 2>/dev/null || echo 0) -gt 1048576 ]; \
         then {then}; exit; fi; sleep 0.002; done",
        d = dir.display()
    )
}

/// The input of the kill tests: 96 MiB, enough that a write takes a while.
fn big_input(dir: &Path) -> std::path::PathBuf {
    let input = dir.join("big.bin");
    let data: Vec<u8> = (0..96u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(&input, data).unwrap();
    input
}

fn names_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// How an interrupted write ended.
struct Interrupted {
    /// The job's exit status was 0.
    success: bool,
    /// Its stderr.
    stderr: String,
    /// The signal came only after the output had been renamed into place: it is there, whole.
    completed: bool,
}

/// Runs the shell line `line(input, out)` on a 96 MiB input and an empty output folder `out`;
/// checks that it did not hang or panic, and that `out` holds nothing, or (on a machine fast
/// enough to finish before the signal lands) only the whole output and no temporary file.
fn interrupted_write(line: impl Fn(&Path, &Path) -> String) -> Interrupted {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path());
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let res = mpirun_line(&line(&input, &out));
    let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
    assert_ne!(res.status.code(), Some(124), "hung: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let names = names_in(&out);
    let completed = names == ["enc.bin"];
    if completed {
        // PKCS#7 padding adds one block to a whole number of blocks.
        let len = std::fs::metadata(out.join("enc.bin")).unwrap().len();
        assert_eq!(len, (96 << 20) + 8, "{stderr}");
        assert!(!stderr.contains("no output file was written"), "{stderr}");
    } else {
        assert_eq!(names, Vec::<String>::new(), "{stderr}");
    }
    Interrupted {
        success: res.status.success(),
        stderr,
        completed,
    }
}

/// The pblock-ecb command line writing `out`/enc.bin from `input`.
fn cipher_line(input: &Path, out: &Path) -> String {
    format!(
        "{BIN} cipher --alg pblock-ecb --key 00112233445566778899 --in {} --out {}/enc.bin",
        input.display(),
        out.display()
    )
}

/// Issue 22: `kill -9` of a rank while the output is written left a full-size temporary file.
/// Now the ranks the launcher stops remove it, whichever rank died.
#[test]
fn a_rank_killed_while_the_output_is_written_leaves_nothing() {
    for victim in [1, 0] {
        let run = interrupted_write(|input, out| {
            let watcher = once_writing(out, "kill -9 $$");
            format!(
                "mpirun -n 2 bash -c 'if [ \"$OMPI_COMM_WORLD_RANK\" = {victim} ]; then \
                 ({watcher}) & fi; exec {}'",
                cipher_line(input, out)
            )
        });
        assert!(
            run.completed || !run.success,
            "rank {victim} was not killed in time: {}",
            run.stderr
        );
    }
}

/// The launcher's SIGTERM (a cancelled job) reaches every rank mid-write: the temporary file
/// goes and no output appears (a job that had finished would have left its output: the folder
/// is checked empty; one that never wrote would leave the watcher waiting until the timeout).
#[test]
fn a_job_stopped_while_the_output_is_written_leaves_nothing() {
    let run = interrupted_write(|input, out| {
        let watcher = once_writing(out, "kill -TERM $job");
        format!(
            "mpirun -n 2 {} & job=$!; {watcher}; wait $job",
            cipher_line(input, out)
        )
    });
    // mpirun exits 0 after forwarding a SIGTERM, and may go before it has passed on rank 0's
    // line; when it has, that line is the only error.
    // A job whose output was renamed before the signal says it is kept.
    let stderr = &run.stderr;
    let errors = stderr.lines().filter(|l| l.starts_with("error: ")).count();
    assert!(errors <= 1, "{stderr}");
    if errors == 1 {
        let said = if run.completed {
            "it is kept"
        } else {
            "error: stopped: another rank failed or died"
        };
        assert!(stderr.contains(said), "{stderr}");
    }
}

/// An output folder that is not shared by every host — simulated by giving rank 1 a mount
/// namespace where the folder is an empty tmpfs — is found, named once, and leaves nothing.
/// Needs `unshare -m` (root); says so and passes vacuously where that is refused.
#[test]
fn an_output_folder_not_shared_by_every_rank_is_an_error_without_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let probe = Command::new("unshare").args(["-m", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: unshare -m is refused here (needs root)");
        return;
    }
    let input = dir.path().join("in.bin");
    std::fs::write(&input, vec![5u8; 100_000]).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let cipher = cipher_line(&input, &out);
    let hidden = format!(
        "unshare -m bash -c \"mount -t tmpfs none {} && exec {cipher}\"",
        out.display()
    );
    let res = mpirun_line(&format!("mpirun -n 1 {cipher} : -n 1 {hidden}"));
    let stderr = failed(&res, "shared by every host");
    assert_eq!(res.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches(".parcrypt-").count(), 1, "{stderr}");
    assert_eq!(names_in(&out), Vec::<String>::new());
}

#[test]
fn help_starts_with_the_launcher_and_errors_name_a_path_once() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(help.starts_with("Start it with an MPI launcher"), "{help}");
    assert!(
        help.contains("mpirun -n") && help.contains("srun --mpi=pmix"),
        "{help}"
    );
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pem");
    let res = mpirun(
        2,
        &[],
        &["rsa", "--key", missing.to_str().unwrap(), "--runs", "1"],
    );
    let stderr = failed(&res, "missing.pem");
    assert_eq!(stderr.matches("missing.pem").count(), 1, "{stderr}");
    let gone = dir.path().join("gone.bin");
    let res = mpirun(
        2,
        &[],
        &[
            "cipher",
            "--alg",
            "pblock-ecb",
            "--key",
            "0011223344",
            "--in",
            gone.to_str().unwrap(),
            "--out",
            dir.path().join("o").to_str().unwrap(),
        ],
    );
    let stderr = failed(&res, "gone.bin");
    assert_eq!(stderr.matches("gone.bin").count(), 1, "{stderr}");
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_rank_that_dies_ends_the_job_without_output_and_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("never.json");
    // Rank 1 is killed a second into a batch that takes several seconds.
    let script = format!(
        "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then (sleep 1; kill -9 $$) & fi; \
         exec {BIN} rsa --bits 1024 --messages 3000 --runs 3 --json {}",
        path.display()
    );
    let out = Command::new("timeout")
        .args([LIMIT, "mpirun", "-n", "2", "bash", "-c", &script])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(124), "hung: {stderr}");
    assert!(!out.status.success(), "{stderr}");
    assert!(!path.exists(), "no output file");
}
