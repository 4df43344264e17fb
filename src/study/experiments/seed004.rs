//! Seed 004: throughput (MB/s, measured here) and energy per byte (µJ/B, modelled with the
//! FX-8320 preset at its default and calibrated states) of sequential Blowfish, RC4 and RC4A
//! against PBlock, PARC4 and PARC4-I (Tables 2–3, Figs. 3–6). Each round encrypts the buffer
//! once with every cipher; speedups and energy ratios are paired per round.
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, num, opt, probe_threads,
    quality_note, round_config, runs_text, text,
};
use crate::cipher::{Algorithm, Direction};
use crate::claims::seed004::{LOW_CLOCK_SAVING_PCT, tables_2_3};
use crate::dse::workload::here_mhz;
use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::preset;
use crate::error::Result;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use crate::suites::cipher::CipherBenchPlan;

/// The experiments of seed 004.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Ciphers)]
}

struct Ciphers;

/// Runs per cipher and round (the round keeps the fastest).
const REPEATS: u32 = 3;

const ALGORITHMS: [Algorithm; 6] = [
    Algorithm::BlowfishEcb,
    Algorithm::PblockEcb,
    Algorithm::Rc4,
    Algorithm::Parc4,
    Algorithm::Rc4a,
    Algorithm::Parc4i,
];

fn size(profile: Profile) -> usize {
    match profile {
        Profile::Quick => 16 << 20,
        Profile::Full => 64 << 20,
    }
}

fn round(ctx: &Context, threads: usize, i: usize) -> Result<Vec<(String, f64)>> {
    let profile = ctx.profile;
    let plan = CipherBenchPlan {
        algorithms: ALGORITHMS.to_vec(),
        threads: vec![threads],
        size_bytes: size(profile),
        chunk: None,
        direction: Direction::Encrypt,
        pin: false,
        seed: 4,
        config: round_config(i, REPEATS),
    };
    let recs = crate::suites::cipher::run(&plan, |_, _, _| {})?;
    // Each algorithm at the most threads it ran with (sequential ciphers run with one).
    let mut v: Vec<(String, f64)> = ALGORITHMS
        .iter()
        .filter_map(|a| {
            recs.iter()
                .filter(|r| r.alg == *a)
                .max_by_key(|r| r.threads)
        })
        .map(|r| (r.alg.name().to_string(), r.timing.min_s))
        .collect();
    v.push(free_cores_sample(probe_threads(ctx, threads)));
    Ok(v)
}

/// The FX-8320 model: per state, (watts with one busy core, watts with all busy, MHz).
struct Fx {
    default: (f64, f64, f64),
    calibrated: (f64, f64, f64),
    here_mhz: f64,
}

impl Fx {
    fn new(threads: usize) -> Result<Self> {
        let fx = preset("fx-8320", None)?;
        let at = |state: &str, busy: f64| {
            let q = PowerQuery {
                state: Some(state.into()),
                active_cores: Some(busy),
                ..Default::default()
            };
            estimate(&fx, &q)
                .map(|p| (p.p_total_w, p.freq_mhz))
                .map_err(crate::error::Error::from)
        };
        let (d1, f_def) = at("default", 1.0)?;
        let (dt, _) = at("default", threads as f64)?;
        let (c1, _) = at("calibrated", 1.0)?;
        let (ct, f_cal) = at("calibrated", threads as f64)?;
        Ok(Self {
            default: (d1, dt, f_def),
            calibrated: (c1, ct, f_cal),
            here_mhz: here_mhz().0,
        })
    }

    /// µJ/B of a run of `seconds` over `bytes` here, carried to `state` (∝ 1/f) with `busy`
    /// (1 or all) cores.
    fn uj_per_byte(&self, seconds: f64, bytes: usize, calibrated: bool, parallel: bool) -> f64 {
        let (one, all, mhz) = if calibrated {
            self.calibrated
        } else {
            self.default
        };
        let watts = if parallel { all } else { one };
        watts * seconds * self.here_mhz / mhz / bytes as f64 * 1e6
    }
}

fn is_parallel(a: &str) -> bool {
    LOW_CLOCK_SAVING_PCT.iter().any(|p| p.1 == a)
}

impl Experiment for Ciphers {
    fn id(&self) -> &'static str {
        "seed004-ciphers"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            Profile::Quick => 20.0,
            Profile::Full => 600.0,
        }
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let threads = ctx.machine.logical_cores.max(2);
        let fx = Fx::new(threads)?;
        let profile = ctx.profile;
        let evidence = |r: &Rounds| cipher_evidence(ctx, r, &fx, threads);
        let rounds = sampling::measure(
            &ctx.plan,
            |i| round(ctx, threads, i),
            |r| settled(&evidence(r)),
        )?;
        let bytes = size(profile);
        let mut table = Table::new(&[
            "alg",
            "threads",
            "mb_per_s",
            "paper_laptop_mb_per_s",
            "paper_desktop_mb_per_s",
            "model_default_uj_per_b",
            "model_calibrated_uj_per_b",
            "paper_desktop_uj_per_b",
        ]);
        let names: Vec<String> = ALGORITHMS.iter().map(|a| a.name().to_string()).collect();
        let (mut mb, mut paper_mb, mut e_def, mut e_cal) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, a) in names.iter().enumerate() {
            let par = is_parallel(a);
            let t = rounds.median(a);
            let mbs = t.map(|e| {
                Estimate::new(
                    bytes as f64 / e.value / 1e6,
                    bytes as f64 / e.high / 1e6,
                    bytes as f64 / e.low / 1e6,
                )
            });
            let p = tables_2_3(a);
            let (ud, uc) = t.map_or((f64::NAN, f64::NAN), |e| {
                (
                    fx.uj_per_byte(e.value, bytes, false, par),
                    fx.uj_per_byte(e.value, bytes, true, par),
                )
            });
            table.push(vec![
                text(a),
                int(if par { threads } else { 1 }),
                measured(mbs, "MB/s"),
                opt(p.map(|p| p.1)),
                opt(p.map(|p| p.3)),
                num(ud),
                num(uc),
                opt(p.map(|p| p.2)),
            ]);
            mb.extend(mbs.map(|e| Point::with_ci(i as f64, e.value, e.low, e.high)));
            paper_mb.extend(p.map(|p| (i as f64, p.3)));
            e_def.push((i as f64, ud));
            e_cal.push((i as f64, uc));
        }
        let quality = rounds.quality();
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Throughput and energy of sequential and parallel ciphers".into(),
            answers: "Tables 2–3, Figs. 3–6".into(),
            provenance: Provenance::Modelled(
                "MB/s measured here; µJ/B modelled with the FX-8320 preset".into(),
            ),
            summary: format!(
                "{} MiB encrypted by each cipher; parallel forms on {threads} threads; every output verified against the \
                 sequential cipher. Energy per byte: the FX-8320 preset's power at its default and calibrated states with the \
                 busy cores, times our time scaled by the clock ratio — modelled, since this machine has neither RAPL nor \
                 cpufreq. RC4 and Blowfish are broken or outdated and studied here only. {}",
                bytes >> 20,
                quality_note(&quality, &runs_text(REPEATS))
            ),
            table,
            charts: vec![
                Chart::bar(
                    "Tables 2–3 — throughput (MB/s)",
                    "algorithm",
                    "MB/s",
                    names.clone(),
                )
                .with(Series::new("ours (measured)", mb, Provenance::Measured))
                .with(Series::from_xy(
                    "paper, desktop",
                    paper_mb,
                    Provenance::Paper,
                )),
                Chart::bar(
                    "Figs. 3–6 — energy per byte, default against calibrated state (FX-8320 model)",
                    "algorithm",
                    "µJ/B",
                    names,
                )
                .with(Series::from_xy(
                    "default",
                    e_def,
                    Provenance::Modelled("FX-8320 default state".into()),
                ))
                .with(Series::from_xy(
                    "calibrated",
                    e_cal,
                    Provenance::Modelled("FX-8320 calibrated state".into()),
                )),
            ],
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        Ok(Output {
            result,
            evidence: evidence(&rounds),
        })
    }
}

fn cipher_evidence(ctx: &Context, r: &Rounds, fx: &Fx, threads: usize) -> Vec<Fed> {
    let mut v = Vec::new();
    for (seq, par, _) in LOW_CLOCK_SAVING_PCT {
        // t(parallel) / t(sequential), paired per round.
        let tr = r.ratio(par, seq);
        let speed = match needs_threads(ctx, 2) {
            Some(gap) => gap,
            None => Evidence::measured(
                tr.map(|e| Estimate::new(1.0 / e.value, 1.0 / e.high, 1.0 / e.low))
                    .into_iter()
                    .collect(),
                r.len(),
                threads,
                &format!(
                    "sequential time over parallel time per paired round ({} rounds, same data, both verified)",
                    r.len()
                ),
            )
            .free_cores(free_cores(ctx, r, threads)),
        };
        v.push(fed(&format!("seed004-speed-{par}"), speed));
        // E(par, calibrated) / E(seq, default) is the time ratio times a constant factor.
        let k_low = fx.calibrated.1 / fx.calibrated.2 / (fx.default.0 / fx.default.2);
        let saving = tr.map(|e| {
            Estimate::new(
                100.0 * (1.0 - k_low * e.value),
                100.0 * (1.0 - k_low * e.high),
                100.0 * (1.0 - k_low * e.low),
            )
        });
        v.push(fed(&format!("seed004-low-clock-{par}"), Evidence::modelled(saving.into_iter().collect(),
            &format!("power of the calibrated state with {threads} busy cores against the default state with one, × our paired time ratio scaled ∝ 1/f; the interval is the time ratio's"))
            .on_threads(threads).free_cores(free_cores(ctx, r, threads))));
        let k_def = fx.default.1 / fx.default.0;
        let ratio = tr.map(|e| e.map(|x| k_def * x));
        v.push(fed(&format!("seed004-default-energy-{par}"), Evidence::modelled(ratio.into_iter().collect(),
            &format!("default-state power with {threads} busy cores against one, × our paired time ratio"))
            .on_threads(threads).free_cores(free_cores(ctx, r, threads))));
    }
    v.push(fed(
        "seed004-platforms",
        Evidence::report("encoded in the t5270 and fx-8320 presets"),
    ));
    v
}
