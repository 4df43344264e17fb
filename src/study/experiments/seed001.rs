//! Seed 001: Blowfish pipelined round by round (36 stages), against sequential Blowfish:
//! time against chunk size (Fig. 8), the speedup of Section V, and the paper's own power and
//! energy figures (Figs. 10–11); beside them the SCC model's figures for the same claims
//! ([`super::seed001_scc`]), validated against this sweep.
use super::seed001_scc as scc;
use super::seed001_stages::StageTimes;
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, probe_threads, quality_note,
    round_config, runs_text,
};
use crate::claims::seed001 as paper;
use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::preset;
use crate::error::Result;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Reference, Series, Table, fed, settled,
};
use crate::suites::cipher_pipeline::PipelineBenchPlan;

/// The experiments of seed 001.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Pipeline)]
}

struct Pipeline;

const CHUNKS: [usize; 6] = [256, 1024, 4096, 8192, 16384, 65536];
const STAGES: [usize; 2] = [paper::STAGES, 4];
const SEQ: &str = "sequential";
/// Runs per configuration and round (the round keeps the fastest).
const REPEATS: u32 = 1;
/// Chunks each channel holds.
const CAPACITY: usize = 2;

fn key(stages: usize, chunk: usize) -> String {
    format!("{stages}/{chunk}")
}

/// The configurations whose per-stage times are charted: the paper's 36 stages and the
/// 4-stage fold, both at the paper's best chunk.
const STAGE_CHARTS: [(usize, usize); 2] = [
    (paper::STAGES, paper::BEST_CHUNK_BYTES),
    (4, paper::BEST_CHUNK_BYTES),
];

/// One paired round: sequential Blowfish and every (stages, chunk) pipeline, once each; the
/// per-stage times of the charted configurations go to `stages`.
fn round(ctx: &Context, i: usize, stages: &mut StageTimes) -> Result<Vec<(String, f64)>> {
    let plan = PipelineBenchPlan {
        chunks: CHUNKS.to_vec(),
        stages: STAGES.to_vec(),
        size_bytes: paper::MESSAGE_BYTES,
        capacity: CAPACITY,
        seed: 1,
        config: round_config(i, REPEATS),
    };
    let (recs, stats) = crate::suites::cipher_pipeline::run(&plan, |_, _, _| {})?;
    let configs = plan.configurations();
    stages.push(
        configs
            .iter()
            .map(|c| (c.stages, c.chunk_bytes))
            .zip(&stats),
    );
    let mut v: Vec<(String, f64)> = recs
        .iter()
        .map(|r| match r.chunk_bytes {
            Some(c) => (key(r.stages, c), r.timing.min_s),
            None => (SEQ.to_string(), r.timing.min_s),
        })
        .collect();
    v.push(free_cores_sample(probe_threads(ctx, paper::STAGES)));
    Ok(v)
}

impl Experiment for Pipeline {
    fn id(&self) -> &'static str {
        "seed001-pipeline"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            // The SCC model takes well under a second; calibrating it on this machine a few.
            Profile::Quick => 20.0,
            Profile::Full => 605.0,
        }
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let mut stage_times = StageTimes::new(&STAGE_CHARTS);
        let rounds = sampling::measure(
            &ctx.plan,
            |i| round(ctx, i, &mut stage_times),
            |r| settled(&timing_evidence(ctx, r)),
        )?;
        let mut table = Table::new(&[
            "stages",
            "chunk_bytes",
            "median_s",
            "speedup_x",
            "calibrated_model_s",
            "model_error_pct",
        ]);
        let medians: Vec<(usize, usize, f64)> = STAGES
            .iter()
            .flat_map(|&st| CHUNKS.iter().map(move |&c| (st, c)))
            .map(|(st, c)| {
                let m = rounds.median(&key(st, c)).map_or(f64::NAN, |e| e.value);
                (st, c, m)
            })
            .collect();
        let validation = scc::validate(&medians, paper::MESSAGE_BYTES, CAPACITY)?;
        let figures = scc::figures()?;
        let mut chart = Chart::line(
            "Fig. 8 — pipeline time against chunk size",
            "chunk (bytes)",
            "time for 1 MB (s)",
            true,
        );
        for st in STAGES {
            let mut points = Vec::new();
            for c in CHUNKS {
                let m = rounds.median(&key(st, c));
                table.push(vec![
                    int(st),
                    int(c),
                    measured(m, "s"),
                    measured(rounds.ratio(SEQ, &key(st, c)), "×"),
                ]);
                let [model_s, error] = scc::validation_cells(Some(&validation), st, c);
                if let Some(row) = table.rows.last_mut() {
                    row.extend([model_s, error]);
                }
                points.extend(m.map(|m| Point::with_ci(c as f64, m.value, m.low, m.high)));
            }
            chart = chart.with(Series::new(
                format!("{st} stages"),
                points,
                Provenance::Measured,
            ));
            chart = chart.with(scc::validation_series(&validation, st));
        }
        chart.references.push(Reference {
            label: "paper: best chunk 8 KB".into(),
            value: paper::BEST_CHUNK_BYTES as f64,
            on_x: true,
        });
        let quality = rounds.quality();
        let seq = rounds.median(SEQ).map_or(f64::NAN, |e| e.value);
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Round-pipelined Blowfish".into(),
            answers: "Fig. 8, Figs. 10–11, Section V".into(),
            provenance: Provenance::Measured,
            summary: format!(
                "1 MB encrypted then decrypted through the pipeline (output equal to the input, midpoint equal to sequential \
                 Blowfish), with 36 stages as on the SCC and folded into 4 stages to fit this machine's {} CPUs; sequential \
                 Blowfish (encrypt + decrypt) takes {seq:.4} s here. {} {}",
                ctx.machine.logical_cores,
                quality_note(&quality, &runs_text(REPEATS)),
                scc::summary(&figures, Some(&validation))
            ),
            table,
            charts: [chart, scc::chart(&figures)]
                .into_iter()
                .chain(
                    STAGE_CHARTS
                        .iter()
                        .map(|&(st, c)| stage_times.chart(st, c, paper::MESSAGE_BYTES)),
                )
                .collect(),
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        let mut evidence = timing_evidence(ctx, &rounds);
        let here = ["seed001-sv-speedup", "seed001-fig8-best-chunk"].map(|id| {
            evidence
                .iter()
                .find(|f| f.claim == id)
                .and_then(|f| measured_text(&f.evidence))
        });
        evidence.extend(scc::evidence(&figures, Some(&validation), here));
        evidence.extend(paper_evidence()?);
        Ok(Output { result, evidence })
    }
}

fn timing_evidence(ctx: &Context, r: &Rounds) -> Vec<Fed> {
    let st = paper::STAGES;
    let best = paper::BEST_CHUNK_BYTES;
    let chunk = r.paired(|v| {
        let others = CHUNKS
            .iter()
            .filter(|&&c| c != best)
            .map(|&c| v(&key(st, c)))
            .fold(f64::INFINITY, f64::min);
        v(&key(st, best)) / others
    });
    let fig8 = match needs_threads(ctx, 2) {
        Some(gap) => gap,
        None => Evidence::measured(
            chunk.into_iter().collect(),
            r.len(),
            st,
            &format!(
                "36-stage time at 8 KB over the fastest other chunk, per paired round ({} rounds)",
                r.len()
            ),
        )
        .free_cores(free_cores(ctx, r, st)),
    };
    let speedup = |stages: usize| {
        r.paired(|v| {
            CHUNKS
                .iter()
                .map(|&c| v(SEQ) / v(&key(stages, c)))
                .fold(0.0, f64::max)
        })
    };
    let sv = match needs_threads(ctx, st) {
        Some(gap) => gap.beside(format!(
            "best speedup here: 36 stages {}, 4 stages {}",
            speedup(st).map_or("-".into(), |e| e.text("×")),
            speedup(4).map_or("-".into(), |e| e.text("×"))
        )),
        None => Evidence::measured(
            speedup(st).into_iter().collect(),
            r.len(),
            st,
            "sequential over the best 36-stage chunk, per paired round",
        )
        .free_cores(free_cores(ctx, r, st)),
    };
    vec![
        fed("seed001-fig8-best-chunk", fig8),
        fed("seed001-sv-speedup", sv),
    ]
}

/// This machine's measured figure for a claim, to show beside the modelled one: the estimate
/// with its interval, or what was shown beside when the claim could not be judged here.
fn measured_text(e: &Evidence) -> Option<String> {
    match e.estimates.first() {
        Some(x) => Some(format!("{} over {} rounds", x.text("×"), e.runs)),
        None => e.beside.clone().or_else(|| e.unavailable.clone()),
    }
}

/// The paper's own figures: the layout, the SCC, and power and energy.
fn paper_evidence() -> Result<Vec<Fed>> {
    let scc = preset("scc", None)?;
    let p = |cores: f64| {
        estimate(
            &scc,
            &PowerQuery {
                active_cores: Some(cores),
                ..Default::default()
            },
        )
        .map(|e| e.p_total_w)
        .map_err(crate::error::Error::from)
    };
    let (p1, p36) = (p(1.0)?, p(36.0)?);
    // The printed watts carry ±0.005 W and the pipelined time ±0.00005 s of rounding.
    let (sw, pw, pt) = (paper::SEQUENTIAL_W, paper::PIPELINED_W, paper::PIPELINED_S);
    let ratio =
        |d: f64| (sw + d * 0.005) * paper::SEQUENTIAL_S / ((pw - d * 0.005) * (pt - d * 0.00005));
    let energy = Estimate::new(ratio(0.0), ratio(-1.0), ratio(1.0));
    Ok(vec![
        fed("seed001-s3-layout", Evidence::report("src/cipher/parallel/bf_pipeline.rs")
            .text("the same 36 stages as threads joined by bounded channels; k rounds folded per stage for fewer cores")),
        fed("seed001-s3-scc", Evidence::report("encoded in the scc preset")),
        fed("seed001-fig10-power", Evidence::report("scc preset (solved from the paper's two wattages)")
            .text(format!("{p1:.2} W against {p36:.2} W ({:.2}×)", p36 / p1))),
        fed("seed001-fig11-energy", Evidence::arithmetic(vec![energy], "the paper's watts × seconds")
            .text(format!("{:.3} J against {:.3} J ({:.2}×); the printed {} J would need {:.4} s",
                sw * paper::SEQUENTIAL_S, pw * pt, energy.value, paper::PIPELINED_J, paper::PIPELINED_J / pw))),
    ])
}
