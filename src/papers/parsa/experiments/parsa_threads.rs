//! PaRSA (PaRSA), measured: thread scaling at this machine's clock (Figs. 7–10, thread
//! axis) — the time reduction against SeRSA by thread count, and the speedup beside the ideal
//! line — and oversubscription (section 4.1: no more threads than hardware threads). Each
//! round times SeRSA and PaRSA at 2, 4 and 8 threads and at twice the logical CPUs (guided
//! schedule) once, interleaved; the claims are judged on paired per-round ratios. The same
//! rounds time the constant-time forms, one message and eight lanes at a time
//! ([`super::parsa_lanes`]), beside the paper's threads.
use super::parsa::{SERSA, key, rsa_round, sizes};
use super::parsa_lanes as lanes;
use super::{free_cores, free_cores_sample, needs_threads, quality_note, reduction_pct, runs_text};
use crate::claims::parsa as paper;
use crate::error::Result;
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds, Values};
use crate::study::{
    Chart, Context, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use parcrypt::parallel::Schedule;
use parcrypt::rsa::RsaPrivateKey;

/// The thread-scaling experiment of PaRSA.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(ThreadScaling)]
}

/// Runs per configuration and round (the round keeps the fastest): batches of 0.03–0.3 s
/// need one.
const THREADS_REPEATS: u32 = 1;

/// The thread counts timed: the paper's 1, 2, 4 and 8, and twice the logical CPUs (the
/// oversubscribed count section 4.1's claim needs).
fn thread_counts(cpus: usize) -> Vec<usize> {
    let mut t = vec![1usize, 2, 4, 8, 2 * cpus.max(1)];
    t.sort_unstable();
    t.dedup();
    t
}

/// The rounds' key of PaRSA at `t` threads (SeRSA at 1).
fn config(t: usize) -> String {
    if t == 1 {
        SERSA.to_string()
    } else {
        format!("{t}:guided")
    }
}

/// The machine that would test a claim on `t` hardware threads, like the paper's.
fn machine_for(t: usize) -> &'static str {
    match t {
        4 => {
            "a machine with at least 4 hardware threads would test it, best 2 cores × 2 SMT threads like the paper's Core i3"
        }
        _ => {
            "a machine with at least 8 hardware threads would test it, best 4 cores × 2 SMT threads like the paper's Core i7"
        }
    }
}

/// Figs. 7–10 (thread axis): PaRSA time against thread count at this machine's clock.
struct ThreadScaling;

impl Experiment for ThreadScaling {
    fn id(&self) -> &'static str {
        "parsa-threads"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 10.8, 220.0)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let (bits, messages) = sizes(ctx.profile);
        let key = key(bits)?;
        let threads = thread_counts(ctx.machine.logical_cores);
        let evidence = |r: &Rounds| threads_evidence(ctx, r);
        let rounds = sampling::measure(
            &ctx.plan,
            |round| thread_round(ctx, &key, messages, &threads, round),
            |r| settled(&evidence(r)),
        )?;
        let cores = ctx.machine.logical_cores;
        let mut s = scaling(&rounds, &threads, cores, messages);
        let (backend, skipped) = (key.ct_crt().backend_name(), lanes::mb_skipped(&key));
        let t = lanes::threads(cores);
        lanes::push_rows(
            &mut s.table,
            &rounds,
            messages,
            t,
            backend,
            skipped.as_deref(),
        );
        let quality = rounds.quality();
        let r = ExperimentResult::new(
            self.id(),
            "parsa",
            "Thread scaling at this machine's clock",
            "Figs. 7–10 (thread axis)",
            Provenance::Measured,
            format!(
                "{bits}-bit RSA decryption (CRT) of {messages} messages, guided schedule, 1–8 threads; thread counts above {cores} \
             are oversubscribed and show the cost of time-sharing, not more parallelism. The clock axis of Figs. 7–10 cannot \
             be set here. {} {}",
                lanes::summary(&rounds, t, skipped.as_deref()),
                quality_note(&quality, &runs_text(THREADS_REPEATS))
            ),
        )
        .with_table(s.table)
        .with_charts(vec![
            reduction_chart(s.points, s.red_rounds, s.over, cores),
            speedup_chart(s.speedups, s.speedup_rounds, &threads, cores),
            lanes::chart(&rounds, messages, t, backend),
        ])
        .with_quality(quality);
        Ok(Output {
            result: r,
            evidence: crate::study::set_aside_checked(&rounds, evidence),
        })
    }
}

/// One round: PaRSA (guided) at every thread count, and the free-core probe at each count
/// this machine's CPUs can hold.
fn thread_round(
    ctx: &Context,
    key: &RsaPrivateKey,
    messages: usize,
    threads: &[usize],
    round: usize,
) -> Result<Vec<(String, f64)>> {
    let mut v = rsa_round(
        key,
        messages,
        threads.to_vec(),
        vec![Schedule::Guided],
        vec![None],
        round,
        THREADS_REPEATS,
    )?;
    let t = lanes::threads(ctx.machine.logical_cores);
    v.extend(lanes::round(key, messages, t, round, THREADS_REPEATS)?);
    for &t in threads
        .iter()
        .filter(|&&t| t > 1 && t <= ctx.machine.logical_cores)
    {
        v.push(free_cores_sample(t));
    }
    Ok(v)
}

/// What the rounds give per thread count: the table, the time reductions (within the CPUs and
/// oversubscribed), the speedups, and the single rounds behind both charts.
struct Scaling {
    table: Table,
    points: Vec<Point>,
    over: Vec<Point>,
    speedups: Vec<Point>,
    red_rounds: Vec<(f64, f64)>,
    speedup_rounds: Vec<(f64, f64)>,
}

fn scaling(rounds: &Rounds, threads: &[usize], cores: usize, messages: usize) -> Scaling {
    let mut s = Scaling {
        table: Table::new(&lanes::COLUMNS),
        points: Vec::new(),
        over: Vec::new(),
        speedups: Vec::new(),
        red_rounds: Vec::new(),
        speedup_rounds: Vec::new(),
    };
    for &t in threads {
        let k = config(t);
        let speedup = |v: &Values| v(SERSA) / v(&k);
        let red = rounds.paired(|v| reduction_pct(speedup(v)));
        s.table
            .push(lanes::row(rounds, lanes::PAPER_FORM, 1, t, &k, messages));
        let x = t as f64;
        if let Some(e) = red {
            let p = Point::with_ci(x, e.value, e.low, e.high);
            if t <= cores {
                s.points.push(p);
            } else {
                s.over.push(p);
            }
        }
        if t <= cores {
            let each = rounds.each(speedup);
            s.red_rounds
                .extend(each.iter().map(|&y| (x, reduction_pct(y))));
            s.speedup_rounds.extend(each.into_iter().map(|y| (x, y)));
        }
        if let Some(e) = rounds.paired(speedup) {
            s.speedups.push(Point::with_ci(x, e.value, e.low, e.high));
        }
    }
    s
}

/// PaRSA's time reduction by threads. The paper's figures belong to their thread counts, so
/// they are a series beside ours (same colour, the paper's hollow markers), not lines across the
/// chart whose labels would sit on our points; oversubscribed counts are grey context.
fn reduction_chart(
    points: Vec<Point>,
    rounds: Vec<(f64, f64)>,
    over: Vec<Point>,
    cores: usize,
) -> Chart {
    Chart::line(
        "Figs. 7–10 — PaRSA time reduction against SeRSA by threads (this machine)",
        "threads",
        "time reduction (%)",
        true,
    )
    .with(
        Series::new(
            format!("PaRSA (guided, up to {cores} threads)"),
            points,
            Provenance::Measured,
        )
        .with_rounds(rounds),
    )
    .with(Series::from_xy(
        "PaRSA (paper: PaRSA-2, -4, -8 on the Core i3 and i7)",
        [
            (2.0, paper::PARSA2_REDUCTION_PCT),
            (4.0, paper::PARSA4_REDUCTION_PCT),
            (8.0, paper::PARSA8_REDUCTION_PCT),
        ],
        Provenance::Paper,
    ))
    .with(
        Series::new(
            format!("oversubscribed: more than {cores} threads time-share {cores} CPUs"),
            over,
            Provenance::Measured,
        )
        .points_only(),
    )
}

/// Speedup of PaRSA over SeRSA against threads, with the ideal (speedup = threads) beside it.
fn speedup_chart(
    measured: Vec<Point>,
    rounds: Vec<(f64, f64)>,
    threads: &[usize],
    cores: usize,
) -> Chart {
    Chart::line(
        "Figs. 7–10 — PaRSA speedup over SeRSA by threads (this machine)",
        "threads",
        "speedup (×)",
        true,
    )
    .zero_y()
    .with(Series::new("PaRSA (guided)", measured, Provenance::Measured).with_rounds(rounds))
    .with(Series::from_xy(
        "ideal (speedup = threads)",
        threads.iter().map(|&t| (t as f64, t as f64)),
        Provenance::Modelled("linear scaling".into()),
    ))
    .note(format!(
        "Speedup = SeRSA time / PaRSA time per paired round. This machine has {cores} logical CPUs: above that \
         the threads time-share and the ideal line is out of reach by construction."
    ))
}

fn threads_evidence(ctx: &Context, r: &Rounds) -> Vec<Fed> {
    let cpus = ctx.machine.logical_cores;
    let mut v: Vec<Fed> = [
        ("parsa-parsa2", 2usize),
        ("parsa-parsa4", 4),
        ("parsa-parsa8", 8),
    ]
    .iter()
    .map(|&(id, t)| {
        let red = r.paired(|v| reduction_pct(v(SERSA) / v(&config(t))));
        let shown = red.map_or("-".into(), |e| e.text("%"));
        let ev = match needs_threads(ctx, t) {
            Some(mut gap) => {
                gap.unavailable = gap
                    .unavailable
                    .map(|why| format!("{why}; {}", machine_for(t)));
                gap.beside(format!("{t} threads on {cpus} CPUs: {shown}"))
            }
            None => Evidence::measured(
                red.into_iter().collect(),
                r.len(),
                t,
                &format!("SeRSA and PaRSA-{t} per paired round ({} rounds)", r.len()),
            )
            .free_cores(free_cores(ctx, r, t)),
        };
        fed(id, ev)
    })
    .collect();
    let (n, over) = (cpus.max(1), 2 * cpus.max(1));
    let ratio = r.paired(|v| v(&config(over)) / v(&config(n)));
    v.push(fed(
        "parsa-s41-threads-le-hw",
        Evidence::measured(
            ratio.into_iter().collect(),
            r.len(),
            over,
            &format!("PaRSA with {over} threads over {n} threads (guided) on {cpus} logical CPUs, per paired round ({} rounds)", r.len()),
        )
        .free_cores(free_cores(ctx, r, n)),
    ));
    v
}
