//! SCC Blowfish: Blowfish pipelined round by round, against sequential Blowfish: time against
//! chunk size (Fig. 8) and the speedup of Section V, with 36 stages as on the SCC (judged only
//! where 36 logical CPUs exist) and with the rounds folded into one stage group per CPU (judged
//! here); Blowfish against RSA per byte (Section II); beside them the SCC model's figures for
//! the same claims ([`super::scc_blowfish_scc`]), validated against this sweep, and the paper's own
//! arithmetic ([`super::scc_blowfish_paper`]).
use super::scc_blowfish_scc as scc;
use super::scc_blowfish_stages::StageTimes;
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, probe_threads, quality_note,
    round_config, runs_text, strip,
};
use crate::claims::scc_blowfish as paper;
use crate::error::Result;
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Reference, Series, Table, fed, settled,
};
use crate::suites::cipher_pipeline::PipelineBenchPlan;

/// The experiments of SCC Blowfish.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Pipeline)]
}

struct Pipeline;

const CHUNKS: [usize; 6] = [256, 1024, 4096, 8192, 16384, 65536];
const SEQ: &str = "sequential";
/// Runs per configuration and round (the round keeps the fastest).
const REPEATS: u32 = 1;
/// Chunks each channel holds.
const CAPACITY: usize = 2;
/// RSA modulus bits for the symmetric-against-asymmetric claim.
const RSA_BITS: u32 = 2048;
/// RSA public-key operations timed together per round (one takes tens of microseconds).
const RSA_PUBLIC_BATCH: u32 = 16;

/// The stage groups of the folded pipeline: one per logical CPU, 2 to 34.
fn groups(ctx: &Context) -> usize {
    ctx.machine.logical_cores.clamp(2, paper::ROUND_STAGES)
}

/// The thread counts the free-core probe runs at in each round: the folded groups', and the
/// 36 stages' where the machine has the CPUs to judge them (on fewer CPUs both are capped at
/// the CPUs, so one probe serves).
fn probes(ctx: &Context) -> Vec<usize> {
    let mut p = vec![
        probe_threads(ctx, groups(ctx)),
        probe_threads(ctx, paper::STAGES),
    ];
    p.dedup();
    p
}

fn key(stages: usize, chunk: usize) -> String {
    format!("{stages}/{chunk}")
}

fn folded_key(groups: usize, chunk: usize) -> String {
    format!("folded{groups}/{chunk}")
}

/// The per-byte keys of the symmetric-against-asymmetric claim: Blowfish and RSA, each
/// direction.
const PER_BYTE: [&str; 4] = ["bf-encrypt", "bf-decrypt", "rsa-encrypt", "rsa-decrypt"];

/// What the symmetric-against-asymmetric rounds time: a Blowfish key and 1 MB, an RSA key and
/// a block.
struct Ciphers {
    bf: parcrypt::cipher::blowfish::Blowfish,
    data: Vec<u8>,
    rsa: parcrypt::rsa::RsaPrivateKey,
    block: rug::Integer,
}

impl Ciphers {
    fn new() -> Result<Self> {
        use rand::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        let mut key = [0u8; 16];
        rng.fill_bytes(&mut key);
        let mut data = vec![0u8; paper::MESSAGE_BYTES];
        rng.fill_bytes(&mut data);
        let rsa = parcrypt::rsa::RsaPrivateKey::generate_vartime(
            RSA_BITS,
            &rug::Integer::from(65537),
            &mut rng,
        )?;
        let block = parcrypt::hazmat::bignum::random_below(&mut rng, rsa.public().n());
        Ok(Self {
            bf: parcrypt::cipher::blowfish::Blowfish::new(&key)?,
            data,
            rsa,
            block,
        })
    }

    /// Seconds per byte of each of [`PER_BYTE`], once each.
    fn round(&mut self) -> Result<Vec<(String, f64)>> {
        use parcrypt::hazmat::textbook::{PrivateOp, decrypt_unchecked, encrypt_unchecked};
        use std::hint::black_box;
        use std::time::Instant;
        let bytes = self.data.len() as f64;
        let block_bytes = f64::from(RSA_BITS / 8);
        let t = Instant::now();
        self.bf.encrypt_blocks(&mut self.data)?;
        let enc = t.elapsed().as_secs_f64() / bytes;
        let t = Instant::now();
        self.bf.decrypt_blocks(&mut self.data)?;
        let dec = t.elapsed().as_secs_f64() / bytes;
        let public = self.rsa.public();
        let t = Instant::now();
        for _ in 0..RSA_PUBLIC_BATCH {
            black_box(encrypt_unchecked(public, black_box(&self.block)));
        }
        let rsa_enc = t.elapsed().as_secs_f64() / f64::from(RSA_PUBLIC_BATCH) / block_bytes;
        let t = Instant::now();
        black_box(decrypt_unchecked(
            &self.rsa,
            black_box(&self.block),
            PrivateOp::CrtVartime,
        ));
        let rsa_dec = t.elapsed().as_secs_f64() / block_bytes;
        Ok(PER_BYTE
            .iter()
            .zip([enc, dec, rsa_enc, rsa_dec])
            .map(|(k, v)| (k.to_string(), v))
            .collect())
    }
}

/// The configurations whose per-stage times are charted: the paper's 36 stages and the
/// folded pipeline, both at the paper's best chunk, with their names.
fn stage_charts(groups: usize) -> [((usize, usize), String); 2] {
    [
        (
            (paper::STAGES, paper::BEST_CHUNK_BYTES),
            format!("{} stages", paper::STAGES),
        ),
        (
            (groups, paper::BEST_CHUNK_BYTES),
            format!("folded into {groups} stage groups"),
        ),
    ]
}

/// One paired round: sequential Blowfish, the 36-stage pipeline and the folded one at every
/// chunk, once each, and the per-byte times of Blowfish and RSA; the per-stage times of the
/// charted configurations go to `stages`.
fn round(
    ctx: &Context,
    i: usize,
    stages: &mut StageTimes,
    ciphers: &mut Ciphers,
) -> Result<Vec<(String, f64)>> {
    let g = groups(ctx);
    let plan = PipelineBenchPlan {
        chunks: CHUNKS.to_vec(),
        stages: vec![paper::STAGES],
        size_bytes: paper::MESSAGE_BYTES,
        capacity: CAPACITY,
        seed: 1,
        config: round_config(i, REPEATS),
    };
    let (recs, stats) = crate::suites::cipher_pipeline::run_with_folded(&plan, &[g], |_, _, _| {})?;
    let configs: Vec<(usize, usize)> = plan
        .configurations()
        .iter()
        .map(|c| (c.stages, c.chunk_bytes))
        .chain(CHUNKS.iter().map(|&c| (g, c)))
        .collect();
    stages.push(configs.iter().copied().zip(&stats));
    let mut v: Vec<(String, f64)> = recs
        .iter()
        .map(|r| match (r.alg.as_str(), r.chunk_bytes) {
            ("bf-folded", Some(c)) => (folded_key(r.stages, c), r.timing.min_s),
            (_, Some(c)) => (key(r.stages, c), r.timing.min_s),
            (_, None) => (SEQ.to_string(), r.timing.min_s),
        })
        .collect();
    v.extend(ciphers.round()?);
    v.extend(probes(ctx).into_iter().map(free_cores_sample));
    Ok(v)
}

impl Experiment for Pipeline {
    fn id(&self) -> &'static str {
        paper::PIPELINE
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 12.9, 16.7)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let g = groups(ctx);
        let charted = stage_charts(g);
        let mut stage_times = StageTimes::new(&charted.iter().map(|c| c.0).collect::<Vec<_>>());
        let mut ciphers = Ciphers::new()?;
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| round(ctx, i, &mut stage_times, &mut ciphers),
            |r| settled(&timing_evidence(ctx, r)),
        )?;
        let validation = scc::validate(&full_medians(&rounds), paper::MESSAGE_BYTES, CAPACITY)?;
        let figures = scc::figures()?;
        let cpus = ctx.machine.logical_cores;
        let (table, chart) = fig8(ctx, &rounds, &validation, g);
        let quality = rounds.quality();
        let seq = rounds.median(SEQ).map_or(f64::NAN, |e| e.value);
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Round-pipelined Blowfish",
            "Sections II–V, Figs. 8–11",
            Provenance::Measured,
            format!(
                "1 MB encrypted then decrypted through the pipeline (output equal to the input, midpoint equal to sequential \
                 Blowfish), with 36 stages as on the SCC (one thread per stage: judged only on a machine with ≥ 36 logical \
                 CPUs) and with the rounds folded into {g} stage groups, one per CPU of this machine's {cpus}, the form judged \
                 here; sequential Blowfish (encrypt + decrypt) takes {seq:.4} s here. Beside them, per byte, Blowfish against \
                 RSA-{RSA_BITS} (Section II: symmetric ciphers are significantly faster). {} {}",
                quality_note(&quality, &runs_text(REPEATS)),
                scc::summary(&figures, Some(&validation))
            ),
        )
        .with_table(table)
        .with_charts([chart, per_byte_chart(&rounds), scc::chart(&figures)]
                .into_iter()
                .chain(
                    charted
                        .iter()
                        .map(|(cfg, what)| stage_times.chart(*cfg, what, paper::MESSAGE_BYTES)),
                )
                .collect())
        .with_quality(quality);
        let evidence = evidence(ctx, &rounds, &figures, &validation)?;
        Ok(Output { result, evidence })
    }
}

/// The 36-stage pipeline's median seconds per chunk size, `(stages, chunk, s)`, for the
/// SCC model's validation.
fn full_medians(rounds: &Rounds) -> Vec<(usize, usize, f64)> {
    CHUNKS
        .iter()
        .map(|&c| {
            let m = rounds
                .median(&key(paper::STAGES, c))
                .map_or(f64::NAN, |e| e.value);
            (paper::STAGES, c, m)
        })
        .collect()
}

/// Fig. 8: time against chunk size for both pipelines (36 stages and `g` stage groups), as
/// a table with the calibrated model beside and as a chart.
fn fig8(ctx: &Context, rounds: &Rounds, validation: &scc::Validation, g: usize) -> (Table, Chart) {
    let mut table = Table::new(&[
        "pipeline",
        "threads",
        "chunk_bytes",
        "median_s",
        "speedup_x",
        "calibrated_model_s",
        "model_error_pct",
    ]);
    let cpus = ctx.machine.logical_cores;
    let forms = forms(g, cpus);
    let mut chart = Chart::line(
        "Fig. 8 — pipeline time against chunk size",
        "chunk (bytes)",
        "time for 1 MB, encrypt + decrypt (s, log scale)",
        true,
    )
    .log_y()
    .note(format!(
        "The value axis is logarithmic, so equal ratios look equal: a point twice as high as another took twice \
         as long. The 36-stage pipeline needs 36 CPUs; on {cpus} its threads take turns, so its curve shows the \
         cost of time-sharing, not Fig. 8's claim (judged on a machine with ≥ 36 logical CPUs). The folded \
         pipeline runs one stage group per CPU and is judged here."
    ));
    for (name, threads, key_of) in &forms {
        let (mut points, mut each) = (Vec::new(), Vec::new());
        for c in CHUNKS {
            let k = key_of(c);
            let m = rounds.median(&k);
            let [model_s, error] = if *threads == paper::STAGES {
                scc::validation_cells(Some(validation), *threads, c)
            } else {
                [crate::study::Cell::Missing, crate::study::Cell::Missing]
            };
            table.push(vec![
                super::text(name.as_str()),
                int(*threads),
                int(c),
                measured(m, "s"),
                measured(rounds.ratio(SEQ, &k), "×"),
                model_s,
                error,
            ]);
            points.extend(m.map(|m| Point::with_ci(c as f64, m.value, m.low, m.high)));
            each.extend(strip(rounds, c as f64, |v| v(&k)));
        }
        chart =
            chart.with(Series::new(name.clone(), points, Provenance::Measured).with_rounds(each));
    }
    let ends = [CHUNKS[0], CHUNKS[CHUNKS.len() - 1]];
    chart = chart
        .with(scc::validation_series(validation, paper::STAGES))
        .with(
            Series::new(
                "sequential Blowfish, one thread",
                rounds
                    .median(SEQ)
                    .map(|m| {
                        ends.map(|c| Point::with_ci(c as f64, m.value, m.low, m.high))
                            .to_vec()
                    })
                    .unwrap_or_default(),
                Provenance::Measured,
            )
            // Its one median is drawn at both ends of the chunk axis, and so are its rounds.
            .with_rounds(
                ends.iter()
                    .flat_map(|&c| strip(rounds, c as f64, |v| v(SEQ))),
            ),
        );
    chart.references.push(Reference {
        label: "paper: best chunk 8 KB".into(),
        value: paper::BEST_CHUNK_BYTES as f64,
        on_x: true,
    });
    (table, chart)
}

/// The key of a chunk size's timing in one pipeline.
type KeyOf = Box<dyn Fn(usize) -> String>;

/// The two pipelines of Fig. 8: name, threads and the key of a chunk size's timing.
fn forms(g: usize, cpus: usize) -> [(String, usize, KeyOf); 2] {
    let over = |threads: usize| {
        if threads > cpus {
            format!(" ({threads} threads time-sharing {cpus} CPUs)")
        } else {
            String::new()
        }
    };
    [
        (
            format!(
                "{} stages, one per round{}",
                paper::STAGES,
                over(paper::STAGES)
            ),
            paper::STAGES,
            Box::new(|c| key(paper::STAGES, c)) as KeyOf,
        ),
        (
            format!("folded into {g} stage groups{}", over(g)),
            g,
            Box::new(move |c| folded_key(g, c)),
        ),
    ]
}

/// Every claim's evidence: the timings, the SCC model's figures and validation, and the
/// paper's arithmetic.
fn evidence(
    ctx: &Context,
    rounds: &Rounds,
    figures: &scc::SccFigures,
    validation: &scc::Validation,
) -> Result<Vec<Fed>> {
    let mut evidence = crate::study::set_aside_checked(rounds, |r| timing_evidence(ctx, r));
    let here = [
        "scc-blowfish-sv-speedup-folded",
        "scc-blowfish-fig8-best-chunk-folded",
    ]
    .map(|id| {
        evidence
            .iter()
            .find(|f| f.claim == id)
            .and_then(|f| measured_text(&f.evidence, id))
    });
    evidence.extend(scc::evidence(figures, Some(validation), here));
    evidence.extend(super::scc_blowfish_paper::evidence()?);
    Ok(evidence)
}

/// Blowfish against RSA, seconds per byte each direction (log scale: three decades apart).
fn per_byte_chart(r: &Rounds) -> Chart {
    let names = ["encrypt", "decrypt"];
    let mut chart = Chart::bar(
        "Section II — symmetric against asymmetric: time per byte",
        "direction",
        "seconds per byte (log scale)",
        names.iter().map(|n| n.to_string()).collect(),
    )
    .log_y();
    for (label, keys) in [
        ("Blowfish", [PER_BYTE[0], PER_BYTE[1]]),
        (
            "RSA-2048 (encrypt: public key, e = 65537; decrypt: private key, CRT)",
            [PER_BYTE[2], PER_BYTE[3]],
        ),
    ] {
        let points = keys
            .iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let m = r.median(k)?;
                Some(Point::with_ci(i as f64, m.value, m.low, m.high))
            })
            .collect();
        let each = keys
            .iter()
            .enumerate()
            .flat_map(|(i, k)| strip(r, i as f64, |v| v(k)));
        chart = chart.with(Series::new(label, points, Provenance::Measured).with_rounds(each));
    }
    chart
}

/// The 8 KB time over the fastest smaller and the fastest larger chunk of the configurations
/// `key_of(chunk)`, per paired round.
fn chunk_sides(r: &Rounds, key_of: impl Fn(usize) -> String) -> Vec<Estimate> {
    let best = paper::BEST_CHUNK_BYTES;
    [false, true]
        .into_iter()
        .filter_map(|larger| {
            r.paired(|v| {
                let side = CHUNKS
                    .iter()
                    .filter(|&&c| c != best && (c > best) == larger)
                    .map(|&c| v(&key_of(c)))
                    .fold(f64::INFINITY, f64::min);
                v(&key_of(best)) / side
            })
        })
        .collect()
}

fn timing_evidence(ctx: &Context, r: &Rounds) -> Vec<Fed> {
    let [fig8, folded_fig8] = chunk_evidence(ctx, r);
    let [sv, folded_sv] = speedup_evidence(ctx, r);
    vec![
        fed("scc-blowfish-s2-symmetric-faster", symmetric_evidence(r)),
        fed("scc-blowfish-fig8-best-chunk", fig8),
        fed("scc-blowfish-fig8-best-chunk-folded", folded_fig8),
        fed("scc-blowfish-sv-speedup", sv),
        fed("scc-blowfish-sv-speedup-folded", folded_sv),
    ]
}

/// Why a claim on the 36-stage pipeline is left to another machine.
fn wide_machine() -> String {
    format!(
        "a machine with ≥ {} logical CPUs (a two-socket server) judges this claim",
        paper::STAGES
    )
}

/// Fig. 8's best chunk: the 36-stage pipeline (where this machine has the CPUs) and the
/// rounds folded into stage groups.
fn chunk_evidence(ctx: &Context, r: &Rounds) -> [Evidence; 2] {
    let st = paper::STAGES;
    let g = groups(ctx);
    let parts = |e: &[Estimate]| {
        e.iter()
            .map(|x| x.text("×"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let fig8 = match needs_threads(ctx, st) {
        Some(gap) => gap.beside(format!(
            "{st} threads time-sharing {} CPUs: 8 KB at {} the fastest smaller and larger chunk (not evidence); {}",
            ctx.machine.logical_cores,
            parts(&chunk_sides(r, |c| key(st, c))),
            wide_machine()
        )),
        None => Evidence::measured(
            chunk_sides(r, |c| key(st, c)),
            r.len(),
            st,
            &format!("36-stage time at 8 KB over the fastest smaller and larger chunk, per paired round ({} rounds)", r.len()),
        )
        .free_cores(free_cores(ctx, r, st)),
    };
    let folded = Evidence::measured(
        chunk_sides(r, |c| folded_key(g, c)),
        r.len(),
        g,
        &format!(
            "time of the rounds folded into {g} stage groups at 8 KB over the fastest smaller and larger chunk, per paired round ({} rounds)",
            r.len()
        ),
    )
    .free_cores(free_cores(ctx, r, g));
    [fig8, folded]
}

/// The speedup over the sequential cipher at 8 KB: the 36-stage pipeline (where this
/// machine has the CPUs) and the rounds folded into stage groups, as a share of linear.
fn speedup_evidence(ctx: &Context, r: &Rounds) -> [Evidence; 2] {
    let (st, best) = (paper::STAGES, paper::BEST_CHUNK_BYTES);
    let g = groups(ctx);
    let speedup = |k: &str| r.ratio(SEQ, k);
    let sv = match needs_threads(ctx, st) {
        Some(gap) => gap.beside(format!(
            "{st} threads time-sharing {} CPUs: {} at 8 KB (not evidence); {}",
            ctx.machine.logical_cores,
            speedup(&key(st, best)).map_or("-".into(), |e| e.text("×")),
            wide_machine()
        )),
        None => Evidence::measured(
            speedup(&key(st, best)).into_iter().collect(),
            r.len(),
            st,
            "sequential over the 36-stage pipeline at 8 KB, per paired round",
        )
        .free_cores(free_cores(ctx, r, st)),
    };
    let folded_speedup = speedup(&folded_key(g, best));
    let efficiency = folded_speedup.map(|e| e.map(|x| x / g as f64 * 100.0));
    let folded = Evidence::measured(
        efficiency.into_iter().collect(),
        r.len(),
        g,
        &format!(
            "sequential over the rounds folded into {g} stage groups at 8 KB, per paired round, over {g} ({} rounds)",
            r.len()
        ),
    )
    .text(format!(
        "{} % of linear ({} on {g} groups)",
        efficiency.map_or("-".into(), |e| e.text("")),
        folded_speedup.map_or("-".into(), |e| e.text("×"))
    ))
    .free_cores(free_cores(ctx, r, g));
    [sv, folded]
}

/// RSA's seconds per byte over Blowfish's, each direction, per paired round.
fn symmetric_evidence(r: &Rounds) -> Evidence {
    let per_byte = [(2, 0), (3, 1)]
        .into_iter()
        .filter_map(|(rsa, bf)| r.ratio(PER_BYTE[rsa], PER_BYTE[bf]))
        .collect();
    Evidence::measured(
        per_byte,
        r.len(),
        1,
        &format!(
            "RSA-{RSA_BITS} seconds per byte (a {}-byte block) over Blowfish's (1 MB), each direction, per paired round",
            RSA_BITS / 8
        ),
    )
}

/// This machine's measured figure for a claim, to show beside the modelled one: the estimates
/// with their intervals, or what was shown beside when the claim could not be judged here.
fn measured_text(e: &Evidence, id: &str) -> Option<String> {
    if e.estimates.is_empty() {
        return e.beside.clone().or_else(|| e.unavailable.clone());
    }
    let unit = crate::claims::find(id).map_or("", |c| c.unit.as_str());
    let figures = if e.text.is_empty() {
        e.estimates
            .iter()
            .map(|x| x.text(unit))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        e.text.clone()
    };
    Some(format!(
        "{figures} over {} rounds ({id}, {} threads)",
        e.runs, e.threads
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_runs_at_each_judged_configurations_thread_count() {
        let mut ctx = Context::new(Profile::Quick);
        ctx.machine.logical_cores = 2;
        assert_eq!((groups(&ctx), probes(&ctx)), (2, vec![2]));
        ctx.machine.logical_cores = 8;
        assert_eq!((groups(&ctx), probes(&ctx)), (8, vec![8]));
        // With 36 CPUs or more the 36-stage claims are judged: their own probe too.
        ctx.machine.logical_cores = 40;
        assert_eq!((groups(&ctx), probes(&ctx)), (34, vec![34, 36]));
    }

    #[test]
    fn chunk_sides_split_the_sweep_at_8k() {
        let mut r = Rounds::new();
        for _ in 0..3 {
            r.push(
                CHUNKS
                    .iter()
                    .map(|&c| {
                        (
                            key(2, c),
                            if c == 4096 {
                                0.5
                            } else if c == 16384 {
                                2.0
                            } else {
                                1.0
                            },
                        )
                    })
                    .collect(),
            );
        }
        let sides = chunk_sides(&r, |c| key(2, c));
        assert_eq!((sides[0].value, sides[1].value), (2.0, 1.0));
    }

    #[test]
    fn the_time_and_per_byte_charts_draw_the_rounds_behind_their_points() {
        let g = 2;
        let keys: Vec<String> = CHUNKS
            .iter()
            .flat_map(|&c| [key(paper::STAGES, c), folded_key(g, c)])
            .chain([SEQ.to_string()])
            .chain(PER_BYTE.map(String::from))
            .collect();
        let r = crate::study::experiments::varied_rounds(&keys, 5);
        let mut ctx = Context::new(Profile::Quick);
        ctx.machine.logical_cores = g;
        let validation = scc::Validation {
            points: Vec::new(),
            machine: crate::scc::calibrate::MachineParams::for_tests(g),
            calibration_s: 0.0,
        };
        let (_, chart) = fig8(&ctx, &r, &validation, g);
        // Both pipelines and the sequential line (its median at both ends of the axis).
        let measured = chart
            .series
            .iter()
            .filter(|s| s.provenance == Provenance::Measured);
        assert_eq!(measured.count(), 3);
        crate::study::experiments::assert_rounds_behind_points(&chart, 5);
        crate::study::experiments::assert_rounds_behind_points(&per_byte_chart(&r), 5);
    }
}
