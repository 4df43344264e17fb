//! `bench peers`: parcrypt's best sequential and parallel forms against what a user would
//! otherwise run — GMP (`mpz_mul`, `mpz_powm`, in-process; GMP 6.3 in a helper process,
//! [`gmp63`]), aws-lc-rs (`awslc`, the feature `awslc`) and OpenSSL (`openssl speed` for RSA sign and the ciphers,
//! [`super::openssl`]) — one row per piece of work ([`rows`]), measured interleaved in one run.
//!
//! Within a row the forms take turns (the harness's rounds), so drift on a shared machine
//! touches them alike; every ratio is computed per round (peer time / our time: above 1 means
//! parcrypt is faster) and summarised by its median and a distribution-free 95 % interval. A
//! target from the issue is judged by the study's rule code ([`Rule::AtLeast`] on that
//! interval): *reached* when the whole interval lies at or above it, *missed* when it lies
//! below, and *inconclusive* otherwise. OpenSSL runs with `-elapsed` (wall-clock time, as
//! ours), 16 KiB per call for the ciphers.
#[cfg(feature = "awslc")]
pub mod awslc;
#[cfg(feature = "flint")]
pub mod flint;
pub mod form;
pub mod gmp63;
pub mod helper;
pub mod rows;

use crate::bench::capacity::{CAPACITY_BITS, parallel_capacity};
use crate::bench::{Bench, Summary};
use crate::error::{Error, Result};
use crate::results::{Rule, Test};
use form::Form;
pub use form::Setup;
pub use rows::{ROWS, all as all_rows, known as known_rows};
use serde::Serialize;
use std::time::Instant;

/// One row's result; the field names are the JSON/CSV columns. Times are seconds per
/// operation; ratios are per-round medians with their 95 % interval.
#[derive(Clone, Debug, Serialize)]
pub struct PeerRecord {
    /// Row id.
    pub row: String,
    /// What is computed.
    pub work: String,
    /// Bytes per operation (cipher rows), else null.
    pub bytes: Option<usize>,
    /// The peer.
    pub peer: Option<String>,
    /// Peer's median seconds per operation.
    pub peer_s: Option<f64>,
    /// parcrypt's sequential form.
    pub seq: Option<String>,
    /// Its median seconds per operation.
    pub seq_s: Option<f64>,
    /// parcrypt's parallel form.
    pub par: Option<String>,
    /// Threads of the parallel form.
    pub par_threads: Option<usize>,
    /// Its median seconds per operation.
    pub par_s: Option<f64>,
    /// Peer time / sequential time (> 1: parcrypt faster), median of the rounds' ratios.
    pub peer_over_seq: Option<f64>,
    /// Its 95 % interval, low end.
    pub peer_over_seq_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub peer_over_seq_high: Option<f64>,
    /// Peer time / parallel time.
    pub peer_over_par: Option<f64>,
    /// Its 95 % interval, low end.
    pub peer_over_par_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub peer_over_par_high: Option<f64>,
    /// Sequential time / parallel time (the parallel speedup).
    pub seq_over_par: Option<f64>,
    /// Its 95 % interval, low end.
    pub seq_over_par_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub seq_over_par_high: Option<f64>,
    /// The ceiling: as many independent copies of the sequential kernel as the parallel form
    /// has threads, run at once (`2 × rc4`); null for rows without a parallel form.
    pub ceiling: Option<String>,
    /// One copy's time / the copies' time per operation: the most any parallel form of this
    /// kernel could gain on this machine during the run (ideal: the thread count).
    pub ceiling_ratio: Option<f64>,
    /// Its 95 % interval, low end.
    pub ceiling_ratio_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub ceiling_ratio_high: Option<f64>,
    /// Paired rounds behind the ratios.
    pub rounds: usize,
    /// The targets and their verdicts: `peer/par >= 1.25: reached`, ...
    pub targets: String,
}

/// Median and 95 % interval of the per-round ratios `num[i] / den[i]`.
fn ratio(num: &[f64], den: &[f64]) -> Option<Summary> {
    let r: Vec<f64> = num.iter().zip(den).map(|(n, d)| n / d).collect();
    Summary::from_samples(&r)
}

/// A target's verdict, by the study's rule code ([`Rule::AtLeast`] tested on the 95 %
/// interval): `reached` when the whole interval is at or above `at_least`, `missed` when it
/// is below, `inconclusive` when it straddles the target or has too few rounds to be a 95 %
/// interval.
fn verdict(s: &Summary, at_least: f64) -> &'static str {
    let Some(interval) = s.ci95() else {
        return "inconclusive (too few rounds)";
    };
    let rule = Rule::AtLeast { min: at_least };
    match rule.test(&[interval]) {
        Test::Inside => "reached",
        Test::Outside => "missed",
        Test::Straddles | Test::WithinNoise | Test::Unjudgeable => "inconclusive",
    }
}

/// Measures one row: its forms interleaved, then the paired ratios.
pub fn measure(row: form::Row<'_>, bench: &Bench) -> Result<PeerRecord> {
    let form::Row {
        id,
        work,
        bytes,
        peer,
        seq,
        par,
        ceiling,
        targets,
    } = row;
    let mut forms: Vec<(usize, Form<'_>)> = [peer, seq, par, ceiling]
        .into_iter()
        .enumerate()
        .filter_map(|(k, f)| f.map(|f| (k, f)))
        .collect();
    let per_op = sample_forms(id, &mut forms, bench)?;
    let warm = bench.config().warmup_runs as usize;
    let times: Vec<&[f64]> = per_op.iter().map(|v| &v[warm.min(v.len())..]).collect();
    let rounds = times.iter().map(|t| t.len()).min().unwrap_or(0);
    let slot = |k: usize| forms.iter().position(|(kk, _)| *kk == k);
    let (p, s, q, c) = (slot(0), slot(1), slot(2), slot(3));
    let median = |i: Option<usize>| {
        i.and_then(|i| Summary::from_samples(times[i]))
            .map(|s| s.median)
    };
    let pair = |a: Option<usize>, b: Option<usize>| {
        a.zip(b)
            .and_then(|(a, b)| ratio(&times[a][..rounds], &times[b][..rounds]))
    };
    let (ps, pq, sq) = (pair(p, s), pair(p, q), pair(s, q));
    // The ceiling's base: the sequential form, or the peer where parcrypt has none (GMP's
    // product): what the copies run.
    let cap = pair(s.or(p), c);
    let checks = target_checks(&targets, [ps, pq, sq], cap);
    let name = |i: Option<usize>| i.map(|i| forms[i].1.name.clone());
    let (ps_m, ps_l, ps_h) = lo_hi(ps);
    let (pq_m, pq_l, pq_h) = lo_hi(pq);
    let (sq_m, sq_l, sq_h) = lo_hi(sq);
    let (cap_m, cap_l, cap_h) = lo_hi(cap);
    Ok(PeerRecord {
        row: id.to_string(),
        work,
        bytes,
        peer: name(p),
        peer_s: median(p),
        seq: name(s),
        seq_s: median(s),
        par: name(q),
        par_threads: q.map(|i| forms[i].1.threads),
        par_s: median(q),
        peer_over_seq: ps_m,
        peer_over_seq_low: ps_l,
        peer_over_seq_high: ps_h,
        peer_over_par: pq_m,
        peer_over_par_low: pq_l,
        peer_over_par_high: pq_h,
        seq_over_par: sq_m,
        seq_over_par_low: sq_l,
        seq_over_par_high: sq_h,
        ceiling: name(c),
        ceiling_ratio: cap_m,
        ceiling_ratio_low: cap_l,
        ceiling_ratio_high: cap_h,
        rounds,
        targets: checks,
    })
}

/// Runs a row's forms interleaved: every form's seconds per operation, one per round (warm-ups
/// included). A form's failure fails the row, an internal one named with the row's id.
fn sample_forms(id: &str, forms: &mut [(usize, Form<'_>)], bench: &Bench) -> Result<Vec<Vec<f64>>> {
    let mut per_op: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    let mut failure = None;
    bench.run_interleaved_by(forms.len(), |i| {
        let started = Instant::now();
        match (forms[i].1.sample)() {
            Ok(s) => per_op[i].push(s),
            Err(e) => failure = Some(e),
        }
        started.elapsed().as_secs_f64()
    });
    if let Some(e) = failure {
        return Err(match e {
            Error::Internal(m) => Error::Internal(format!("{id}: {m}")),
            e => e,
        });
    }
    Ok(per_op)
}

/// The targets' verdicts, `; `-separated, from the ratios peer/seq, peer/par and seq/par; a
/// parallel target the ceiling `cap` shows out of reach says so.
fn target_checks(
    targets: &[(&'static str, f64)],
    [ps, pq, sq]: [Option<Summary>; 3],
    cap: Option<Summary>,
) -> String {
    let checks: Vec<String> = targets
        .iter()
        .map(|&(what, at_least)| {
            let r = match what {
                "peer/seq" => ps,
                "peer/par" => pq,
                _ => sq,
            };
            let v = r.map_or("not measured", |r| verdict(&r, at_least));
            // A parallel target above what independent copies reach cannot be met here,
            // however the work is split: say so, with the measured ceiling.
            let beyond = match (what, cap) {
                ("peer/par" | "seq/par", Some(cap))
                    if v != "reached"
                        && cap.ci95().is_some_and(|iv| {
                            Rule::AtLeast { min: at_least }.test(&[iv]) == Test::Outside
                        }) =>
                {
                    format!(" (above this machine's ceiling {:.2})", cap.median)
                }
                _ => String::new(),
            };
            format!("{what} >= {at_least}: {v}{beyond}")
        })
        .collect();
    checks.join("; ")
}

/// A ratio's median and 95 % interval ends.
fn lo_hi(r: Option<Summary>) -> (Option<f64>, Option<f64>, Option<f64>) {
    (
        r.map(|r| r.median),
        r.and_then(|r| r.ci95_low),
        r.and_then(|r| r.ci95_high),
    )
}

/// What [`run`] gives: one record per row, and the parallel capacity probed before and after
/// (throughput of `threads` threads of independent GMP products over one thread; ideal:
/// `threads`).
#[derive(Clone, Debug)]
pub struct Peers {
    /// One record per row, in the order asked.
    pub records: Vec<PeerRecord>,
    /// The capacity probe just before the first row.
    pub capacity_before: f64,
    /// The capacity probe just after the last row.
    pub capacity_after: f64,
}

/// Runs the rows `ids` (each one of [`known_rows`]) as `setup` says, with `progress(done, total,
/// row)` before each, between two capacity probes. Errors: an unknown row, a `gmp63-*` row
/// without its helper (usage errors, before anything runs), a form that disagrees with its
/// reference (internal), a peer that gave no result.
pub fn run(
    ids: &[&'static str],
    setup: &Setup,
    bench: &Bench,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Peers> {
    let known = known_rows();
    if let Some(id) = ids
        .iter()
        .find(|id| !known.contains(id) && rows::is_awslc(id))
    {
        return Err(Error::InvalidParameter(format!(
            "row '{id}' needs aws-lc-rs, which this build leaves out: build with `cargo build --release --features awslc`"
        )));
    }
    if let Some(id) = ids.iter().find(|id| !known.contains(id)) {
        return Err(Error::InvalidParameter(format!(
            "unknown row '{id}' (known: {})",
            known.join(", ")
        )));
    }
    if let Some(id) = ids.iter().find(|id| gmp63::ROWS.contains(id)) {
        if !gmp63::available() {
            return Err(gmp63::missing_helper(id));
        }
    }
    let capacity = || parallel_capacity(setup.threads, CAPACITY_BITS, 0.05, false);
    let capacity_before = capacity();
    let mut records = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        progress(i, ids.len(), id);
        let data = rows::data(id, setup)?;
        let row = rows::row(id, setup, &data)?;
        records.push(measure(row, bench)?);
    }
    progress(ids.len(), ids.len(), "done");
    Ok(Peers {
        records,
        capacity_before,
        capacity_after: capacity(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_verdicts_follow_the_interval() {
        let peer = [2.0, 2.1, 2.0, 1.9, 2.0, 2.2, 2.0, 2.0];
        let ours = [1.0; 8];
        let r = ratio(&peer, &ours).unwrap();
        assert!((r.median - 2.0).abs() < 1e-12);
        assert_eq!(verdict(&r, 1.5), "reached");
        assert_eq!(verdict(&r, 3.0), "missed");
        assert_eq!(verdict(&r, 2.05), "inconclusive");
        // The verdicts are the study's rule code on the interval.
        let interval = r.ci95().unwrap();
        for at_least in [1.5, 3.0, 2.05] {
            let test = Rule::AtLeast { min: at_least }.test(&[interval]);
            let want = match test {
                Test::Inside => "reached",
                Test::Outside => "missed",
                _ => "inconclusive",
            };
            assert_eq!(verdict(&r, at_least), want);
        }
        let few = ratio(&[2.0; 3], &[1.0; 3]).unwrap();
        assert_eq!(verdict(&few, 1.0), "inconclusive (too few rounds)");
    }

    #[test]
    fn unknown_rows_are_refused_before_anything_runs() {
        let setup = Setup {
            threads: 2,
            openssl_seconds: 1,
            batch_s: 0.001,
            cipher_bytes: 8,
            seed: 1,
            kernel: parcrypt::hazmat::kernel::PrivateKernel::Auto,
        };
        let bench = Bench::new(crate::bench::BenchConfig::exact(1)).unwrap();
        let err = run(&["rc4", "rc5"], &setup, &bench, |_, _, _| {}).unwrap_err();
        assert!(
            err.is_usage() && err.to_string().contains("unknown row 'rc5'"),
            "{err}"
        );
    }

    /// A setup and harness small enough for a test: 2 threads, 64 KB of cipher input, two
    /// timed runs without warm-up.
    fn small_run() -> (Setup, Bench) {
        let setup = Setup {
            threads: 2,
            openssl_seconds: 1,
            batch_s: 0.001,
            cipher_bytes: 64 * 1024,
            seed: 1,
            kernel: parcrypt::hazmat::kernel::PrivateKernel::Auto,
        };
        let bench = Bench::new(crate::bench::BenchConfig {
            warmup_runs: 0,
            ..crate::bench::BenchConfig::exact(2)
        })
        .unwrap();
        (setup, bench)
    }

    /// Without the feature, an aws-lc-rs row is refused with the way to build it.
    #[cfg(not(feature = "awslc"))]
    #[test]
    fn aws_lc_rows_without_the_feature_say_how_to_get_them() {
        let (setup, bench) = small_run();
        let Err(err) = run(&["rc4", "awslc-rsa-2048"], &setup, &bench, |_, _, _| {}) else {
            panic!("an awslc row ran without the feature");
        };
        let err = err.to_string();
        assert!(err.contains("--features awslc"), "{err}");
        assert!(!known_rows().iter().any(|id| rows::is_awslc(id)));
    }

    #[cfg(feature = "awslc")]
    #[test]
    fn aws_lc_rows_sign_with_parcrypt_s_key_and_are_measured() {
        let (setup, bench) = small_run();
        for id in ["awslc-rsa-2048", "awslc-parsa-2048"] {
            let data = rows::data(id, &setup).unwrap();
            let row = rows::row(id, &setup, &data).unwrap();
            let rec = measure(row, &bench).unwrap();
            assert!(
                rec.peer.as_deref().is_some_and(|p| p.contains("aws-lc-rs")),
                "{id}"
            );
            assert!(rec.peer_s.is_some_and(|s| s > 0.0), "{id}");
            assert!(rec.par_s.is_some_and(|s| s > 0.0), "{id}");
            assert!(
                rec.targets.contains("peer/par >= 1.5"),
                "{id}: {}",
                rec.targets
            );
        }
    }

    #[test]
    fn rows_are_checked_against_their_references_and_measured() {
        let (setup, bench) = small_run();
        // In-process rows only (no openssl needed): drop the OpenSSL peers.
        for id in [
            "product-32k",
            "modexp-8192",
            "bf-pipeline",
            "bf-ecb",
            "rc4",
            "rsa-2048",
        ] {
            let data = rows::data(id, &setup).unwrap();
            let mut row = rows::row(id, &setup, &data).unwrap();
            if row
                .peer
                .as_ref()
                .is_some_and(|p| p.name.starts_with("OpenSSL"))
            {
                row.peer = None;
            }
            let rec = measure(row, &bench).unwrap();
            assert_eq!(rec.rounds, 2, "{id}");
            assert!(rec.par_s.is_some_and(|s| s > 0.0), "{id}");
            assert!(!rec.targets.is_empty() || id == "bf-ecb", "{id}");
            if id == "rsa-2048" {
                // The backend that ran is named in the work and in both forms.
                let best = parcrypt::hazmat::bignum::ct::Backend::best_for(1024).name();
                assert!(rec.work.contains(&format!("{best} kernel")), "{}", rec.work);
                assert_eq!(rec.seq.as_deref(), Some(format!("crt ({best})").as_str()));
                assert_eq!(
                    rec.par.as_deref(),
                    Some(format!("crt-parallel ({best})").as_str())
                );
            }
            // Every row with a parallel form has a ceiling of 2 copies; it can be below 1 on
            // a loaded machine, but it is a positive ratio of two measured times.
            assert!(
                rec.ceiling
                    .as_deref()
                    .is_some_and(|c| c.starts_with("2 × ")),
                "{id}"
            );
            assert!(
                rec.ceiling_ratio.is_some_and(|r| r > 0.0 && r.is_finite()),
                "{id}"
            );
        }
    }
}
