//! CRSA (CRSA): Table 2's times — the CRSA speedups against the paper's own Table 1
//! (paper-checks) and what it says of the sequential methods, CRT against binary (measured
//! here, one thread) — and pipelining (Section 2, Fig. 4(a)) counted on our schedule. Table 1
//! and Section 4's counts are in [`super::crsa_counts`].
use super::crsa_counts::{
    Counts, counted, level_cells, mean_over, order_ratios, paper_level_max, random_exponents,
    throughput_steps,
};
use super::parsa_tables::corners;
use super::scc_blowfish_paper::half_digit;
use super::{fastest, int, measured, opt, quality_note, round_config, runs_text, strip, text};
use crate::bench::Bench;
use crate::claims::crsa::{self as paper, NC_SWEEP, TABLE2, TABLE2_METHODS, table2_column};
use crate::error::{Error, Result};
use crate::study::estimate::{reference_s, sampled_s};
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use parcrypt::modexp::crsa::{Topology, schedule};
use parcrypt::modexp::{ModExp, Params, method, pow_mod_vartime};
use parcrypt::rsa::RsaPrivateKey;
use rand::SeedableRng;
use rug::Integer;
use std::time::Instant;

/// The experiments of CRSA.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Counts), Box::new(Times), Box::new(Pipeline)]
}

/// Table 2: execution times of CRT, Montgomery, binary and CRSA.
struct Times;

/// Runs per configuration and round (the round keeps the fastest).
const REPEATS: u32 = 3;
/// Threads of CRSA with Nc = 1: eight PEs and the coordinator.
const CRSA_THREADS: usize = 9;

/// Table 2's sizes every profile runs, each with the methods it times there: quick times
/// Montgomery and CRSA (charted, no claim rests on them) at 1024 and 2048 bits only, since at
/// 4096 bits they would double CRSA's time; CRT and binary, which the measured claims
/// compare, run at every size.
fn times_sizes(profile: Profile) -> Vec<(u32, &'static [&'static str])> {
    TABLE2
        .iter()
        .map(|&(bits, _)| {
            let all = profile == Profile::Full || bits < 4096;
            (
                bits,
                if all {
                    &TABLE2_METHODS[..]
                } else {
                    &["CRT", "Binary"][..]
                },
            )
        })
        .collect()
}

/// A key, a ciphertext and the methods of Table 2 at one size, each checked against GMP.
struct SizeCase {
    bits: u32,
    methods: &'static [&'static str],
    key: RsaPrivateKey,
    c: Integer,
    /// c^d mod n as GMP gives it: every timed run's value is checked against it.
    expected: Integer,
    binary: Box<dyn ModExp>,
    montgomery: Box<dyn ModExp>,
    crsa: Box<dyn ModExp>,
}

fn crsa_params() -> Params {
    Params {
        cubes: Some(1),
        ..Params::default()
    }
}

/// c^d mod n by the Chinese remainder theorem with `binary` on the p and q halves and Garner's
/// recombination: Koç's CRT with the same square-and-multiply as the binary row.
/// Variable-time (the binary method's timing depends on dp and dq): a lab measurement on a
/// throwaway key, never a private-key path.
fn crt_binary_vartime(key: &RsaPrivateKey, c: &Integer, binary: &dyn ModExp) -> Result<Integer> {
    let (p, q) = (key.p(), key.q());
    let half = |m: &Integer, d: &Integer| -> Result<Integer> {
        Ok(pow_mod_vartime(binary, &Integer::from(c % m), d, m, &Params::default())?.value)
    };
    let (m1, m2) = (half(p, key.dp())?, half(q, key.dq())?);
    let h = rug::ops::RemRounding::rem_euc(Integer::from(&m1 - &m2) * key.qinv(), p);
    Ok(m2 + h * q)
}

fn size_case(bits: u32, methods: &'static [&'static str]) -> Result<SizeCase> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
    let key = RsaPrivateKey::generate_vartime(bits, &Integer::from(65537), &mut rng)?;
    let c = parcrypt::hazmat::bignum::random_below(&mut rng, key.public().n());
    let expected = Integer::from(c.pow_mod_ref(key.d(), key.public().n()).expect("d > 0"));
    let case = SizeCase {
        bits,
        methods,
        binary: method("binary")?,
        montgomery: method("montgomery")?,
        crsa: method("crsa")?,
        key,
        c,
        expected,
    };
    let (d, n, expected) = (case.key.d(), case.key.public().n(), &case.expected);
    let ours = [
        crt_binary_vartime(&case.key, &case.c, case.binary.as_ref())?,
        pow_mod_vartime(case.montgomery.as_ref(), &case.c, d, n, &Params::default())?.value,
        pow_mod_vartime(case.binary.as_ref(), &case.c, d, n, &Params::default())?.value,
        pow_mod_vartime(case.crsa.as_ref(), &case.c, d, n, &crsa_params())?.value,
    ];
    for (v, name) in ours.iter().zip(TABLE2_METHODS) {
        if v != expected {
            return Err(Error::internal(format!(
                "{name} gave a wrong c^d mod n at {bits} bits"
            )));
        }
    }
    Ok(case)
}

/// One paired round: each of Table 2's methods once per size, interleaved, in Table 2's order.
fn times_round(cases: &[SizeCase], i: usize) -> Result<Vec<(String, f64)>> {
    let bench = Bench::new(round_config(i, REPEATS))?;
    let mut out = Vec::new();
    let mut failures = crate::bench::Failures::new();
    for case in cases {
        let (d, n) = (case.key.d(), case.key.public().n());
        let ms = bench.run_interleaved_by(case.methods.len(), |j| {
            let t = Instant::now();
            let v = match case.methods[j] {
                "CRT" => crt_binary_vartime(&case.key, &case.c, case.binary.as_ref()),
                "Montgomery" => {
                    pow_mod_vartime(case.montgomery.as_ref(), &case.c, d, n, &Params::default())
                        .map(|o| o.value)
                        .map_err(Error::from)
                }
                "Binary" => {
                    pow_mod_vartime(case.binary.as_ref(), &case.c, d, n, &Params::default())
                        .map(|o| o.value)
                        .map_err(Error::from)
                }
                _ => pow_mod_vartime(case.crsa.as_ref(), &case.c, d, n, &crsa_params())
                    .map(|o| o.value)
                    .map_err(Error::from),
            };
            let v = std::hint::black_box(v);
            let took = t.elapsed().as_secs_f64();
            // Checked against the verified first value after the clock stops.
            if let Some(v) = failures.note(case.methods[j], v) {
                failures.check(case.methods[j], v == case.expected);
            }
            took
        });
        for (m, name) in ms.iter().zip(case.methods) {
            out.push((time_key(case.bits, name), fastest(&m.samples)));
        }
    }
    failures.result()?;
    Ok(out)
}

fn time_key(bits: u32, method: &str) -> String {
    format!("{bits}/{method}")
}

impl Experiment for Times {
    fn id(&self) -> &'static str {
        paper::TIMES
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 1.4, 3.1)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let sizes = times_sizes(ctx.profile);
        let cases = sizes
            .iter()
            .map(|&(b, m)| size_case(b, m))
            .collect::<Result<Vec<_>>>()?;
        let bits: Vec<u32> = sizes.iter().map(|s| s.0).collect();
        let evidence = |r: &Rounds| times_evidence(r, &bits);
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| times_round(&cases, i),
            |r| settled(&evidence(r)),
        )?;
        let cpus = ctx.machine.logical_cores;
        let (table, chart) = table2(&rounds, &sizes, cpus);
        let quality = rounds.quality();
        let result = ExperimentResult::new(
            self.id(),
            "crsa",
            "Execution times of CRT, Montgomery, binary and CRSA",
            "Table 2",
            Provenance::Measured,
            format!(
                "c^d mod n for keys of 1024, 2048 and 4096 bits (d full size; Montgomery and CRSA at 4096 bits in --full \
                 only), each method checked against GMP: CRT (our binary method on the p and q halves), our Montgomery REDC, binary square-and-multiply, and CRSA with \
                 Nc = 1 (one thread per PE, {CRSA_THREADS} threads on {cpus} CPUs). Table 2's CRSA is 63–331× faster than its \
                 own binary, which Table 1's counts (2044 against 2046 MulMods) rule out: those claims are checked against \
                 Table 1, not timed. CRT against binary is measured, one thread each. {}",
                quality_note(&quality, &runs_text(REPEATS))
            ),
        )
        .with_table(table)
        .with_charts(vec![chart])
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, evidence),
        })
    }
}

/// Table 2: ours against the paper's seconds per 100 exponentiations, as a table and a
/// chart.
fn table2(rounds: &Rounds, sizes: &[(u32, &[&str])], cpus: usize) -> (Table, Chart) {
    let crsa_note = if CRSA_THREADS > cpus {
        format!(" ({CRSA_THREADS} threads time-sharing {cpus} CPUs)")
    } else {
        String::new()
    };
    let mut table = Table::new(&[
        "bits",
        "method",
        "ours_100_s",
        "paper_100_s",
        "this_over_binary_x",
        "paper_this_over_binary_x",
    ]);
    let mut chart = Chart::line(
        "Table 2 — seconds per 100 exponentiations",
        "key size (bits)",
        "seconds / 100 operations (log scale)",
        true,
    )
    .log_y()
    .note(format!(
        "Ours measured on this machine, one thread each except CRSA{crsa_note}; the paper's as printed, read as \
         totals of its 100 iterations. CRT here is binary on the p and q halves; Montgomery is our sequential \
         REDC, not the paper's parallel method [5]. No verdict rests on CRSA's times: Table 2's CRSA row is \
         checked against Table 1's counts instead."
    ));
    for (j, name) in TABLE2_METHODS.iter().enumerate() {
        let (mut points, mut each) = (Vec::new(), Vec::new());
        for &(bits, methods) in sizes {
            if !methods.contains(name) {
                continue;
            }
            let k = time_key(bits, name);
            let m = rounds.median(&k).map(|e| e.map(|x| x * 100.0));
            let printed = TABLE2.iter().find(|t| t.0 == bits).map(|t| t.1);
            table.push(vec![
                int(bits),
                text(*name),
                measured(m, "s"),
                opt(printed.map(|t| t[j])),
                measured(rounds.ratio(&k, &time_key(bits, "Binary")), "×"),
                opt(printed.map(|t| t[j] / t[2])),
            ]);
            points.extend(m.map(|m| Point::with_ci(f64::from(bits), m.value, m.low, m.high)));
            each.extend(strip(rounds, f64::from(bits), |v| v(&k) * 100.0));
        }
        let ours = if *name == "CRSA" {
            format!("{name} (ours{crsa_note})")
        } else {
            format!("{name} (ours)")
        };
        chart = chart
            .with(Series::new(ours, points, Provenance::Measured).with_rounds(each))
            .with(Series::from_xy(
                format!("{name} (paper)"),
                TABLE2.iter().map(|t| (f64::from(t.0), t.1[j])),
                Provenance::Paper,
            ));
    }
    (table, chart)
}

/// Table 2's CRSA against its CRT and Montgomery times (the abstract's "other existing
/// parallel approaches"), and the time claim no machine here can test.
fn vs_others_evidence() -> Vec<Fed> {
    let printed = |x: f64| half_digit(x, 9 - x.abs().log10().floor() as i32 - 1);
    let ratios: Vec<Estimate> = TABLE2
        .iter()
        .map(|(_, t)| {
            corners(&[printed(t[0]), printed(t[1]), printed(t[3])], |x| {
                x[0].min(x[1]) / x[2]
            })
        })
        .collect();
    let shown = TABLE2
        .iter()
        .zip(&ratios)
        .map(|((b, _), e)| format!("{b} bits {}", e.text("×")))
        .collect::<Vec<_>>()
        .join("; ");
    vec![
        fed(
            "crsa-table2-vs-others",
            Evidence::arithmetic(
                ratios,
                "the faster of Table 2's CRT and Montgomery seconds over its CRSA seconds, each ± half its last printed digit",
            )
            .text(format!("{shown} (Montgomery is the faster of the two at every size)")),
        ),
        fed(
            "crsa-table2-vs-others-time",
            Evidence::report("not run: Montgomery [5] is not implemented, and CRSA's 9 PE threads need the paper's quad core"),
        ),
    ]
}

fn times_evidence(r: &Rounds, sizes: &[u32]) -> Vec<Fed> {
    let mut v = Vec::new();
    for (bits, t) in TABLE2 {
        let printed = |x: f64| half_digit(x, 9 - x.abs().log10().floor() as i32 - 1);
        let ratio = corners(&[printed(t[2]), printed(t[3])], |x| x[0] / x[1]);
        v.push(fed(
            &format!("crsa-table2-{bits}"),
            Evidence::arithmetic(vec![ratio], "Table 2's binary seconds over its CRSA seconds, each ± half its last printed digit")
                .text(format!("{} against Table 1's bound {:.3}×", ratio.text("×"), paper::table2_bound(bits))),
        ));
    }
    for (bits, _) in TABLE2 {
        let id = format!("crsa-table2-crt-{bits}");
        if !sizes.contains(&bits) {
            v.push(fed(&id, Evidence::not_run_in_profile(format!(
                "{bits} bits runs in the full profile only (study --full); quick runs 1024 and 2048 bits"))));
            continue;
        }
        let (crt, bin) = (time_key(bits, "CRT"), time_key(bits, "Binary"));
        v.push(fed(&id, Evidence::measured(
            r.ratio(&crt, &bin).into_iter().collect(),
            r.len(),
            1,
            &format!("CRT (binary on the halves) over binary, one thread, per paired round ({} rounds)", r.len()),
        )));
    }
    v.extend(vs_others_evidence());
    let mont = table2_column("Montgomery").unwrap_or(1);
    v.push(fed(
        "crsa-table2-montgomery",
        Evidence::report("not run: the paper's method [5] is not implemented").beside(
            TABLE2
                .iter()
                .filter(|(b, _)| sizes.contains(b))
                .filter_map(|(b, t)| {
                    let ours = r.ratio(&time_key(*b, "Montgomery"), &time_key(*b, "Binary"))?;
                    Some(format!(
                        "{b} bits: our sequential REDC takes {} binary's time (paper: Montgomery {:.3}× binary's)",
                        ours.text("×"),
                        t[mont] / t[2]
                    ))
                })
                .collect::<Vec<_>>()
                .join("; "),
        ),
    ));
    v
}

/// Pipelining and the levels, counted on the schedule.
struct Pipeline;

impl Experiment for Pipeline {
    fn id(&self) -> &'static str {
        paper::PIPELINE
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        reference_s(profile, 0.1, 0.1)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let long_e: Integer =
            parcrypt::hazmat::bignum::random_bits(&mut rng, 1024) | (Integer::from(1) << 1023);
        let exps = [
            ("e = 65537", Integer::from(65537)),
            ("1024-bit e", long_e.clone()),
        ];
        let mut table = Table::new(&[
            "exponent",
            "cubes",
            "pe_count",
            "main_block_mulmods",
            "pipelined_block_mulmods",
            "ideal_x",
            "paper_x",
        ]);
        let mut chart = Chart::line(
            "Pipelined / unpipelined CRSA throughput against Nc — counted on our schedule (not timed)",
            "cubes Nc",
            "throughput ratio",
            false,
        )
        .zero_y()
        .note(
            "Steps per block of our schedule, each PE its own processor (a model: nothing here is timed; one thread per \
             PE needs 9 to 33 CPUs). The coordinator's chain of MulMods sets the pipelined pace, so the gain stays near \
             1× for a full-length exponent; the paper's (Nc + 3)× assumes every level takes the same time.",
        );
        let mut ideal_long = Vec::new();
        for (label, e) in &exps {
            let mut points = Vec::new();
            for nc in 1..=4usize {
                let topo = Topology::new(nc, false)?;
                let s = schedule(&topo, e)?;
                let mut row = vec![text(*label)];
                row.extend(level_cells(nc, &s, topo.pe_count()));
                table.push(row);
                points.push((nc as f64, s.ideal_ratio));
                if e == &long_e && nc <= 2 {
                    ideal_long.push(s.ideal_ratio);
                }
            }
            chart = chart.with(Series::from_xy(
                format!("ours, {label} (counted)"),
                points,
                counted(),
            ));
        }
        chart = chart.with(Series::from_xy(
            "paper (Nc + 3)",
            (1..=4usize).map(|c| (c as f64, paper::pipelined_gain(c))),
            Provenance::Paper,
        ));
        let result = ExperimentResult::new(
            self.id(),
            "crsa",
            "Pipelined CRSA: throughput and levels, counted",
            "Section 2 (Fig. 2), Th_pipelined = (Nc + 3)·Th, Fig. 4(a)",
            counted(),
            format!(
                "Counts, not timings: blocks per step of the main and the pipelined CRSA over a 1024-bit modulus, with a short \
                 (65537) and a full-length exponent, from the schedule's MulMods with every PE its own processor. It is not \
                 timed here: one thread per PE is 9 threads at Nc = 1 and 17 at Nc = 2, against this machine's {} CPUs.",
                ctx.machine.logical_cores
            ),
        )
        .with_table(table)
        .with_charts(vec![chart]);
        Ok(Output {
            result,
            evidence: pipeline_evidence(&ideal_long, &long_e)?,
        })
    }
}

/// The pipelined / main throughput ratio and the PEs' utilisation (%) of schedule `s` on
/// `pes` PEs when the coordinator multiplies `speed` times as fast as a PE: its chain takes
/// `1/speed` of its MulMods' time, and the busiest unit, it or a PE, sets the pace.
fn at_coordinator_speed(
    s: &parcrypt::modexp::crsa::Schedule,
    pes: usize,
    speed: f64,
) -> (f64, f64) {
    let coord = s.coordinator_mulmods as f64;
    let pe_max = s
        .per_unit
        .iter()
        .skip(1)
        .map(|u| (u.squarings + u.multiplications) as f64)
        .fold(1.0, f64::max);
    let latency = s.latency_steps as f64 - coord + coord / speed;
    let period = (coord / speed).max(pe_max);
    (
        latency / period,
        s.hypercube_mulmods as f64 / (pes as f64 * period) * 100.0,
    )
}

fn pipeline_evidence(ideal_long: &[f64], long_e: &Integer) -> Result<Vec<Fed>> {
    let k = paper::TABLE1_K;
    let exps = random_exponents(k);
    let mut coordinator = Vec::new();
    let mut latency = Vec::new();
    let mut ideal = Vec::new();
    for &nc in &NC_SWEEP {
        let t = Topology::new(nc, false)?;
        coordinator.push(mean_over(&t, &exps, |s| s.coordinator_mulmods as f64)?);
        latency.push(mean_over(&t, &exps, |s| s.latency_steps as f64)?);
        ideal.push(mean_over(&t, &exps, |s| s.ideal_ratio)?);
    }
    let falling = |v: &[f64]| order_ratios(&v.iter().rev().copied().collect::<Vec<_>>());
    let eta: Vec<f64> = NC_SWEEP
        .iter()
        .map(|&nc| paper::table1_best_crsa(k, nc))
        .collect();
    let t2 = Topology::new(2, false)?;
    let busy = schedule(&t2, long_e)?;
    let utilisation =
        busy.hypercube_mulmods as f64 / (t2.pe_count() as f64 * busy.period_steps as f64) * 100.0;
    let busy_fast = at_coordinator_speed(&busy, t2.pe_count(), paper::COORDINATOR_SPEED_MAX).1;
    let coordinator_best = f64::from(k) - 1.0 - paper::paper_x(2).log2();
    let level2 = paper_level_max(2)? as f64;
    let idle = paper::PE_MULMODS_NC2.iter().filter(|&&m| m == 0).count();
    let list = |v: &[f64]| {
        v.iter()
            .zip(NC_SWEEP)
            .map(|(x, n)| format!("{x:.2} at Nc = {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let how = "our schedule's MulMods, means over 1000 random 1024-bit exponents";
    let mut v = vec![
        fed("crsa-s2-coordinator-nc", Evidence::modelled(falling(&coordinator), how).text(format!("coordinator MulMods {}", list(&coordinator)))),
        fed("crsa-s2-time-nc", Evidence::modelled(falling(&latency), how).text(format!("critical path {}", list(&latency)))),
        fed("crsa-s2-time-nc-eta", Evidence::arithmetic(falling(&eta), "k − log2(24·2^Nc − 12Nc − 26) + 5Nc − 2 at k = 1024").text(format!("η {}", list(&eta)))),
        fed("crsa-s2-t2-t3", Evidence::arithmetic(vec![Estimate::exact(level2 / paper_level_max(3)? as f64)], "the paper's per-PE counts, busiest PE of each level")),
        fed("crsa-s2-level-times", Evidence::arithmetic(vec![Estimate::exact(coordinator_best / level2)],
            "(k − 1) − log2 46 MulMods of the coordinator (Section 4) over the 1 of level 2's busiest PE")
            .text(format!("{coordinator_best:.1} MulMods against {level2}"))),
        fed("crsa-s2-throughput-nc", Evidence::modelled_range(throughput_steps(&exps)?,
            "each exponent's pipelined / main throughput at each Nc over the one before, mean over 1000 random 1024-bit exponents with its 95 % bootstrap interval, with our dataflow (the value) and with the paper's X and 5Nc − 1 hypercube (the interval spans both)",
            "the hypercube's dataflow: ours (X = 10, 42, 120; 3 MulMod times per added cube) against the paper's (X = 10, 46, 130; 5Nc − 1)")
            .text(format!("pipelined / main, ours: {}", list(&ideal)))),
        fed("crsa-s2-all-busy", Evidence::modelled_range(vec![Estimate::new(utilisation, utilisation.min(busy_fast), utilisation.max(busy_fast))],
            "the PEs' MulMods per block over PEs × the busiest unit's MulMods, a random 1024-bit exponent, Nc = 2: with the coordinator at a PE's speed (the value; it is then the busiest unit) and as fast as the paper's equal levels need (the range's other end)",
            &format!("{}: from 1× to {}×", paper::COORDINATOR_SPEED, paper::COORDINATOR_SPEED_MAX))
            .text(format!("{utilisation:.3} % ({} MulMods of {} PEs per {} steps)", busy.hypercube_mulmods, t2.pe_count(), busy.period_steps))),
        fed("crsa-s2-idle-pes", Evidence::arithmetic(vec![Estimate::exact(idle as f64)], "PEs the paper's Nc = 2 example gives no MulMod")),
        fed("crsa-fig4a-two-cubes", Evidence::arithmetic(vec![Estimate::new(1.25, 1.0, 1.25)],
            "(2 + 3)/(1 + 3) with the main CRSA's throughput unchanged, down to 1 if its Nc + 3 equal levels set it")),
    ];
    for (nc, r) in (1..).zip(ideal_long) {
        let t = Topology::new(nc, false)?;
        let fast = at_coordinator_speed(
            &schedule(&t, long_e)?,
            t.pe_count(),
            paper::COORDINATOR_SPEED_MAX,
        )
        .0;
        v.push(fed(
            &format!("crsa-pipeline-nc{nc}"),
            Evidence::modelled_range(
                vec![Estimate::new(*r, r.min(fast), r.max(fast))],
                "steps per block from the schedule: with the coordinator at a PE's speed (the value) its level does nearly all MulMods and bounds the pipeline; as fast as the paper's equal levels need (the range's other end), the busiest PE does",
                &format!("{}: from 1× to {}×", paper::COORDINATOR_SPEED, paper::COORDINATOR_SPEED_MAX),
            ),
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims;
    use crate::study::{Verdict, judge};

    #[test]
    fn crt_on_binary_halves_is_c_to_the_d() {
        let case = size_case(512, &TABLE2_METHODS).unwrap();
        let (d, n) = (case.key.d(), case.key.public().n());
        let want = Integer::from(case.c.pow_mod_ref(d, n).unwrap());
        assert_eq!(
            crt_binary_vartime(&case.key, &case.c, case.binary.as_ref()).unwrap(),
            want
        );
    }

    #[test]
    fn table2s_crsa_rows_are_inconsistent_with_table1_and_quick_names_what_it_skips() {
        let mut r = Rounds::new();
        for i in 0..4 {
            let x = 1.0 + f64::from(i) * 0.01;
            r.push(
                [1024u32, 2048]
                    .iter()
                    .flat_map(|b| {
                        TABLE2_METHODS
                            .iter()
                            .map(move |m| (time_key(*b, m), if *m == "CRT" { 0.3 * x } else { x }))
                    })
                    .collect(),
            );
        }
        let ev = times_evidence(&r, &[1024, 2048]);
        assert_eq!(
            crate::study::experiments::assert_defects(&ev),
            [paper::TABLE2_CRSA_TIMES]
        );
        let judged = crate::study::judge_experiment(paper::TIMES, &ev).unwrap();
        assert_eq!(judged.len(), claims::of_experiment(paper::TIMES).len());
        let get = |id: &str| &ev.iter().find(|f| f.claim == id).unwrap().evidence;
        for bits in [1024, 2048, 4096] {
            let id = format!("crsa-table2-{bits}");
            assert_eq!(
                judge(claims::find(&id).unwrap(), get(&id)),
                Verdict::Inconsistent
            );
        }
        assert_eq!(
            judge(
                claims::find("crsa-table2-vs-others").unwrap(),
                get("crsa-table2-vs-others")
            ),
            Verdict::Consistent
        );
        let crt = claims::find("crsa-table2-crt-1024").unwrap();
        assert_eq!(
            judge(crt, get("crsa-table2-crt-1024")),
            Verdict::DoesNotHold
        );
        let skipped = get("crsa-table2-crt-4096");
        assert_eq!(skipped.gap, Some(crate::results::Reason::NotRunInProfile));
        assert!(skipped.unavailable.as_deref().unwrap().contains("4096"));
    }

    #[test]
    fn the_pipeline_is_counted_not_timed_and_feeds_its_claims() {
        let out = Pipeline.run(&Context::new(Profile::Quick)).unwrap();
        assert!(matches!(out.result.provenance, Provenance::Modelled(_)));
        assert!(out.result.quality.is_none());
        for s in &out.result.charts[0].series {
            assert_ne!(s.provenance, Provenance::Measured, "{}", s.name);
        }
        let judged = crate::study::judge_experiment(paper::PIPELINE, &out.evidence).unwrap();
        assert_eq!(
            crate::study::experiments::assert_defects(&out.evidence),
            [
                "eta-grows-with-cubes",
                "level-times",
                "idle-pes",
                "fig4a-five-times"
            ]
        );
        let verdict = |id: &str| judged.iter().find(|c| c.id == id).unwrap().verdict;
        assert_eq!(verdict("crsa-s2-t2-t3"), Verdict::Consistent);
        assert_eq!(verdict("crsa-s2-level-times"), Verdict::Inconsistent);
        assert_eq!(verdict("crsa-s2-idle-pes"), Verdict::Inconsistent);
        assert_eq!(verdict("crsa-s2-time-nc-eta"), Verdict::Inconsistent);
        assert_eq!(verdict("crsa-s2-coordinator-nc"), Verdict::Holds);
        assert_eq!(verdict("crsa-s2-all-busy"), Verdict::DoesNotHold);
        assert_eq!(verdict("crsa-pipeline-nc2"), Verdict::DoesNotHold);
    }

    #[test]
    fn table2s_chart_draws_the_rounds_behind_our_points() {
        let sizes = times_sizes(Profile::Quick);
        let keys: Vec<String> = sizes
            .iter()
            .flat_map(|&(b, ms)| ms.iter().map(move |m| time_key(b, m)))
            .collect();
        let (_, chart) = table2(
            &crate::study::experiments::varied_rounds(&keys, 5),
            &sizes,
            2,
        );
        crate::study::experiments::assert_rounds_behind_points(&chart, 5);
    }
}
