//! Seed 003: parallel m-ary (with precomputation, on demand) and slicing against
//! square-and-multiply and GMP, by key size, at 1 and 2 threads. Claims about the parallel
//! methods are judged at 2 threads; the 1-thread figure is shown beside.
use super::{
    change_pct, fastest, free_cores, free_cores_sample, int, measured, needs_threads, quality_note,
    round_config, text,
};
use crate::bench::Bench;
use crate::claims::seed003::MODEXP_BEST;
use crate::error::{Error, Result};
use crate::modexp::{ModExp, Params, method, pow_mod};
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use rug::Integer;
use std::time::Instant;

/// The exponentiation experiment of seed 003 (Karatsuba and hand-off are in `seed003_mul`).
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(ParallelModexp)]
}

struct ParallelModexp;

const PARALLEL: [&str; 3] = ["mary-precomp", "mary-ondemand", "slice"];

fn sizes(profile: Profile) -> Vec<u32> {
    match profile {
        Profile::Quick => vec![1024, 2048, 4096, 8192],
        Profile::Full => vec![1024, 2048, 4096, 8192, 16384],
    }
}

/// Runs per configuration and round (the round keeps the fastest): a 1024-bit exponentiation
/// takes about a millisecond, where one late thread wake-up weighs most.
fn repeats(bits: u32) -> u32 {
    match bits {
        0..=2048 => 3,
        4097.. => 1,
        _ => 2,
    }
}

fn config_key(bits: u32, m: &str, threads: usize) -> String {
    format!("{bits}/{m}/{threads}")
}

/// One size: operands and every configuration, checked against GMP once.
struct SizeCase {
    bits: u32,
    operands: (Integer, Integer, Integer),
    configs: Vec<(Box<dyn ModExp>, usize)>,
}

fn size_case(bits: u32) -> Result<SizeCase> {
    let (b, e, m) = crate::suites::modexp::operands(bits, 3);
    let expected = Integer::from(b.pow_mod_ref(&e, &m).expect("e >= 0"));
    let mut configs: Vec<(Box<dyn ModExp>, usize)> =
        vec![(method("binary")?, 1), (method("gmp")?, 1)];
    for name in PARALLEL {
        for t in [1, 2] {
            configs.push((method(name)?, t));
        }
    }
    for (meth, t) in &configs {
        let got = pow_mod(
            meth.as_ref(),
            &b,
            &e,
            &m,
            &Params {
                threads: *t,
                ..Params::default()
            },
        )?;
        if got.value != expected {
            return Err(Error::InvalidParameter(format!(
                "internal error: {} wrong at {bits} bits",
                meth.name()
            )));
        }
    }
    Ok(SizeCase {
        bits,
        operands: (b, e, m),
        configs,
    })
}

/// One paired round: every configuration of every size once.
fn round(cases: &[SizeCase], i: usize) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for case in cases {
        let bench = Bench::new(round_config(i, repeats(case.bits)))?;
        let (b, e, m) = &case.operands;
        let ms = bench.run_interleaved_by(case.configs.len(), |j| {
            let (meth, t) = &case.configs[j];
            let params = Params {
                threads: *t,
                ..Params::default()
            };
            let started = Instant::now();
            std::hint::black_box(pow_mod(meth.as_ref(), b, e, m, &params).ok());
            started.elapsed().as_secs_f64()
        });
        for ((meth, t), ms) in case.configs.iter().zip(ms) {
            out.push((config_key(case.bits, meth.name(), *t), fastest(&ms.samples)));
        }
    }
    out.push(free_cores_sample(2));
    Ok(out)
}

impl Experiment for ParallelModexp {
    fn id(&self) -> &'static str {
        "seed003-modexp"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            Profile::Quick => 30.0,
            Profile::Full => 3600.0,
        }
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let bits = sizes(ctx.profile);
        let cases = bits
            .iter()
            .map(|&b| size_case(b))
            .collect::<Result<Vec<_>>>()?;
        let evidence = |r: &Rounds| modexp_evidence(ctx, r, &bits);
        let rounds = sampling::measure(&ctx.plan, |i| round(&cases, i), |r| settled(&evidence(r)))?;
        let quality = rounds.quality();
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Parallel modular exponentiation against square-and-multiply".into(),
            answers: "m-ary with precomputation, m-ary on demand, slicing (results slides)".into(),
            provenance: Provenance::Measured,
            summary: format!(
                "b^e mod m with e and m of {} bits, every method checked against GMP; time change against binary \
                 square-and-multiply (negative = faster), paired round by round, at 1 and 2 threads ({} logical CPUs here). \
                 The claims are judged at 2 threads; window sizes are chosen per size. {}",
                bits.iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                ctx.machine.logical_cores,
                quality_note(
                    &quality,
                    "3 interleaved runs (2 at 4096 bits, 1 at 8192 and above)"
                )
            ),
            table: table(&rounds, &cases),
            charts: charts(&rounds, &bits),
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        Ok(Output {
            result,
            evidence: evidence(&rounds),
        })
    }
}

/// Time change against binary (paired) of a configuration, with its interval.
fn vs_binary(r: &Rounds, bits: u32, m: &str, t: usize) -> Option<crate::study::Estimate> {
    r.ratio(&config_key(bits, m, t), &config_key(bits, "binary", 1))
        .map(|e| e.map(change_pct))
}

fn table(r: &Rounds, cases: &[SizeCase]) -> Table {
    let mut table = Table::new(&[
        "bits",
        "method",
        "threads",
        "median_s",
        "vs_binary_pct",
        "vs_gmp_x",
        "seed_claim",
    ]);
    for case in cases {
        for (meth, t) in &case.configs {
            let k = config_key(case.bits, meth.name(), *t);
            let ch = vs_binary(r, case.bits, meth.name(), *t);
            let gmp = r.ratio(&k, &config_key(case.bits, "gmp", 1));
            let claim = MODEXP_BEST
                .iter()
                .find(|c| c.0 == meth.name() && c.1 == case.bits)
                .map_or("", |c| c.3);
            table.push(vec![
                int(case.bits),
                text(meth.name()),
                int(*t),
                measured(r.median(&k), "s"),
                measured(ch, "%"),
                measured(gmp, "×"),
                text(claim),
            ]);
        }
    }
    table
}

fn charts(r: &Rounds, bits: &[u32]) -> Vec<Chart> {
    let mut ours = Chart::line(
        "Time change against square-and-multiply at 2 threads (measured, 95 % intervals)",
        "key size (bits)",
        "time change vs binary (%)",
        true,
    );
    for m in PARALLEL {
        let points = bits
            .iter()
            .filter_map(|&b| {
                vs_binary(r, b, m, 2).map(|e| Point::with_ci(f64::from(b), e.value, e.low, e.high))
            })
            .collect();
        ours = ours.with(Series::new(
            format!("{m}, 2 threads"),
            points,
            Provenance::Measured,
        ));
    }
    let gmp = bits
        .iter()
        .filter_map(|&b| {
            vs_binary(r, b, "gmp", 1).map(|e| Point::with_ci(f64::from(b), e.value, e.low, e.high))
        })
        .collect();
    ours = ours.with(Series::new("gmp", gmp, Provenance::Measured));
    let paper = PARALLEL.iter().fold(
        Chart::line(
            "The seed's best figures (paper, up to 8 threads)",
            "key size (bits)",
            "time change vs binary (%)",
            true,
        ),
        |c, m| {
            c.with(Series::from_xy(
                format!("{m} (paper)"),
                MODEXP_BEST
                    .iter()
                    .filter(|x| x.0 == *m)
                    .map(|x| (f64::from(x.1), x.2)),
                Provenance::Paper,
            ))
        },
    );
    vec![ours, paper]
}

fn modexp_evidence(ctx: &Context, r: &Rounds, bits: &[u32]) -> Vec<Fed> {
    MODEXP_BEST
        .iter()
        .map(|&(m, b, _, _)| {
            let id = format!("seed003-{m}-{b}");
            if !bits.contains(&b) {
                return fed(
                    &id,
                    Evidence::unavailable(format!(
                        "{b} bits is not run in the {} profile",
                        ctx.profile.name()
                    )),
                );
            }
            if let Some(gap) = needs_threads(ctx, 2) {
                return fed(&id, gap);
            }
            let two = vs_binary(r, b, m, 2);
            let one = vs_binary(r, b, m, 1).map_or("-".into(), |e| e.text("%"));
            fed(
                &id,
                Evidence::measured(
                    two.into_iter().collect(),
                    r.len(),
                    2,
                    &format!(
                        "{m} at 2 threads over binary, per paired round ({} rounds)",
                        r.len()
                    ),
                )
                .beside(format!("1 thread: {one}"))
                .free_cores(free_cores(ctx, r, 2)),
            )
        })
        .collect()
}
