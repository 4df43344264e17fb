//! cipher-energy: throughput (MB/s, measured here) and energy per byte (µJ/B, modelled with the
//! FX-8320 preset at its default and calibrated states) of sequential Blowfish, RC4 and RC4A
//! against PBlock, PARC4 and PARC4-I (Tables 2–3, Figs. 3–6). Each round encrypts the buffer
//! once with every cipher; speedups and energy ratios are paired per round.
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, num, opt, paper_check,
    probe_threads, quality_note, reported, round_config, runs_text, text,
};
use crate::claims::assumption_range;
use crate::claims::cipher_energy::{
    CORES, FIG2_ROWS, FIG4_PBLOCK_LOW_CLOCK, LOW_CLOCK_SAVING_PCT, S2_UNIPROCESSOR_ENERGY_CHANGE,
    STATIC, STATIC_ASSUMPTION, STATIC_W_RANGE, TABLE_1, TABLES_2_3, paper_speedup, tables_2_3,
};
use crate::dse::workload::here_mhz;
use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::{preset, with_static_power};
use crate::error::Result;
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Quality, Series, Table, fed, settled,
};
use crate::suites::cipher::CipherBenchPlan;
use parcrypt::cipher::{Algorithm, Direction};

/// The experiments of cipher-energy.
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
        Profile::Quick => 8 << 20,
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

/// The FX-8320 model at one static power: per state, (watts with one busy core, watts with
/// all busy, MHz).
#[derive(Clone, Copy, Debug)]
struct Fx {
    default: (f64, f64, f64),
    calibrated: (f64, f64, f64),
    here_mhz: f64,
}

impl Fx {
    /// The preset as assumed (its own static power), or at `static_w`.
    fn new(threads: usize, static_w: Option<f64>) -> Result<Self> {
        let fx = match static_w {
            None => preset("fx-8320", None)?,
            Some(w) => with_static_power("fx-8320", w)?,
        };
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

    /// E(parallel, calibrated) / E(sequential, default) per unit of the time ratio.
    fn k_low(&self) -> f64 {
        self.calibrated.1 / self.calibrated.2 / (self.default.0 / self.default.2)
    }

    /// E(parallel, default) / E(sequential, default) per unit of the time ratio.
    fn k_default(&self) -> f64 {
        self.default.1 / self.default.0
    }

    /// E(sequential, calibrated) / E(sequential, default).
    fn k_sequential_low(&self) -> f64 {
        self.calibrated.0 / self.calibrated.2 / (self.default.0 / self.default.2)
    }
}

/// The model at the preset's static power and over a static-power range (every 5 W), with
/// `busy` cores for the parallel forms.
struct Models {
    assumed: Fx,
    range: Vec<Fx>,
}

impl Models {
    /// Over [`STATIC_W_RANGE`], the range every energy claim declares.
    fn new(threads: usize) -> Result<Self> {
        Self::over(threads, STATIC_W_RANGE)
    }

    /// With `busy` cores, over the static-power range `(lo, hi)`.
    fn over(busy: usize, (lo, hi): (f64, f64)) -> Result<Self> {
        let steps = ((hi - lo) / 5.0).round().max(0.0) as usize;
        let range = (0..=steps)
            .map(|i| Fx::new(busy, Some((lo + i as f64 * 5.0).min(hi))))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            assumed: Fx::new(busy, None)?,
            range,
        })
    }

    /// The model a claim declares: its static-power range and, for a claim that declares
    /// [`CORES`], `busy` cores (`None`: the claim's own at the paper's end of its range).
    fn of_claim(id: &str, busy: Option<usize>) -> Result<Self> {
        let statics = assumption_range(id, STATIC).ok_or_else(|| {
            crate::Error::InvalidParameter(format!("{id} declares no '{STATIC}'"))
        })?;
        let cores = match busy {
            Some(n) => n,
            None => paper_cores(id)?,
        };
        Self::over(cores, statics)
    }

    /// `k` at the assumed static power and its least and most over the range.
    fn span(&self, k: impl Fn(&Fx) -> f64) -> (f64, f64, f64) {
        let v: Vec<f64> = self.range.iter().map(&k).collect();
        (
            k(&self.assumed),
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }
}

/// The paper's end of claim `id`'s [`CORES`] range.
fn paper_cores(id: &str) -> Result<usize> {
    assumption_range(id, CORES)
        .map(|r| r.1.round() as usize)
        .ok_or_else(|| crate::Error::InvalidParameter(format!("{id} declares no '{CORES}'")))
}

fn is_parallel(a: &str) -> bool {
    LOW_CLOCK_SAVING_PCT.iter().any(|p| p.1 == a)
}

impl Experiment for Ciphers {
    fn id(&self) -> &'static str {
        "cipher-energy-ciphers"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 6.2, 56.0)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let threads = ctx.machine.logical_cores.max(2);
        let models = Models::new(threads)?;
        let evidence = |r: &Rounds| cipher_evidence(ctx, r, &models, threads);
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| round(ctx, threads, i),
            |r| settled(&evidence(r)),
        )?;
        let bytes = size(ctx.profile);
        let names: Vec<String> = ALGORITHMS.iter().map(|a| a.name().to_string()).collect();
        let data = Measured {
            rounds: &rounds,
            models: &models,
            threads,
            bytes,
        };
        let Tabulated { table, series } = data.tabulate(&names);
        let quality = rounds.quality();
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Throughput and energy of sequential and parallel ciphers",
            "Tables 2–3, Figs. 3–6",
            Provenance::Modelled(
                "MB/s measured here; µJ/B modelled with the FX-8320 preset".into(),
            ),
            description(bytes, threads, &quality),
        )
        .with_table(table)
        .with_charts(charts(names, series))
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, evidence),
        })
    }
}

/// The experiment's text: what was encrypted, how energy is modelled, and the rounds.
fn description(bytes: usize, threads: usize, quality: &Quality) -> String {
    format!(
        "{} MiB encrypted by each cipher; parallel forms on {threads} threads; every output verified against the \
         sequential cipher. Energy per byte: the FX-8320 preset's power at its default and calibrated states with the \
         busy cores, times our time scaled by the clock ratio — modelled, since this machine has neither RAPL nor \
         cpufreq; each energy figure spans the static-power assumption ({}–{} W, the preset assuming 25 W), on which \
         the energy claims are judged. The paper's µJ/B are Joulemeter's application power on its desktop. RC4 and \
         Blowfish are broken or outdated and studied here only. {}",
        bytes >> 20,
        STATIC_W_RANGE.0,
        STATIC_W_RANGE.1,
        quality_note(quality, &runs_text(REPEATS))
    )
}

/// The measured rounds with what turns their times into rows: the model, the threads and
/// the bytes each cipher encrypted.
struct Measured<'a> {
    rounds: &'a Rounds,
    models: &'a Models,
    threads: usize,
    bytes: usize,
}

/// The experiment's table and its charts' points, one per algorithm (x = its index).
struct Tabulated {
    table: Table,
    series: ChartPoints,
}

/// The charts' points: measured MB/s (median and rounds), the paper's MB/s and µJ/B, and
/// the model's µJ/B at the default and calibrated states.
#[derive(Default)]
struct ChartPoints {
    mb: Vec<Point>,
    mb_rounds: Vec<(f64, f64)>,
    paper_mb: Vec<(f64, f64)>,
    paper_uj: Vec<(f64, f64)>,
    e_def: Vec<Point>,
    e_cal: Vec<Point>,
}

impl Measured<'_> {
    /// The table and the charts' points for the algorithms `names`.
    fn tabulate(&self, names: &[String]) -> Tabulated {
        let mut t = Tabulated {
            table: Table::new(&[
                "alg",
                "threads",
                "mb_per_s",
                "paper_laptop_mb_per_s",
                "paper_desktop_mb_per_s",
                "model_default_uj_per_b",
                "model_calibrated_uj_per_b",
                "paper_laptop_uj_per_b",
                "paper_desktop_uj_per_b",
            ]),
            series: ChartPoints::default(),
        };
        for (i, a) in names.iter().enumerate() {
            self.push(&mut t, i, a);
        }
        t
    }

    /// Algorithm `a`'s row and points (x = `i`).
    fn push(&self, t: &mut Tabulated, i: usize, a: &str) {
        let (bytes, fx) = (self.bytes, &self.models.assumed);
        let par = is_parallel(a);
        let m = self.rounds.median(a);
        let mbs = m.map(|e| {
            Estimate::new(
                bytes as f64 / e.value / 1e6,
                bytes as f64 / e.high / 1e6,
                bytes as f64 / e.low / 1e6,
            )
        });
        let p = tables_2_3(a);
        let (ud, uc) = m.map_or((f64::NAN, f64::NAN), |e| {
            (
                fx.uj_per_byte(e.value, bytes, false, par),
                fx.uj_per_byte(e.value, bytes, true, par),
            )
        });
        // The same at the ends of the static-power range (µJ/B grows with it).
        let span = |calibrated: bool| {
            m.map(|e| {
                self.models
                    .span(|f| f.uj_per_byte(e.value, bytes, calibrated, par))
            })
        };
        t.table.push(vec![
            text(a),
            int(if par { self.threads } else { 1 }),
            measured(mbs, "MB/s"),
            opt(p.map(|p| p.1)),
            opt(p.map(|p| p.3)),
            num(ud),
            num(uc),
            opt(p.map(|p| p.0)),
            opt(p.map(|p| p.2)),
        ]);
        let (s, x) = (&mut t.series, i as f64);
        s.mb.extend(mbs.map(|e| Point::with_ci(x, e.value, e.low, e.high)));
        s.mb_rounds
            .extend(super::strip(self.rounds, x, |v| bytes as f64 / v(a) / 1e6));
        s.paper_mb.extend(p.map(|p| (x, p.3)));
        s.paper_uj.extend(p.map(|p| (x, p.2)));
        s.e_def
            .extend(span(false).map(|(v, lo, hi)| Point::with_ci(x, v, lo, hi)));
        s.e_cal
            .extend(span(true).map(|(v, lo, hi)| Point::with_ci(x, v, lo, hi)));
    }
}

/// The throughput chart and the energy-per-byte chart over the algorithms `names`.
fn charts(names: Vec<String>, s: ChartPoints) -> Vec<Chart> {
    vec![
        Chart::bar(
            "Tables 2–3 — throughput (MB/s)",
            "algorithm",
            "MB/s",
            names.clone(),
        )
        .with(Series::new("ours (measured)", s.mb, Provenance::Measured).with_rounds(s.mb_rounds))
        .with(Series::from_xy(
            "paper, desktop",
            s.paper_mb,
            Provenance::Paper,
        )),
        Chart::bar(
            "Tables 2–3, Figs. 3–6 — energy per byte, default against calibrated state (FX-8320 model) and the paper's",
            "algorithm",
            "µJ/B",
            names,
        )
        .with(Series::new(
            "model, default state",
            s.e_def,
            Provenance::Modelled("FX-8320 default state, static power 0–40 W".into()),
        ))
        .with(Series::new(
            "model, calibrated state",
            s.e_cal,
            Provenance::Modelled("FX-8320 calibrated state, static power 0–40 W".into()),
        ))
        .with(Series::from_xy(
            "paper, desktop default (Tables 2–3)",
            s.paper_uj,
            Provenance::Paper,
        ))
        .note("The model's bars run from the preset's assumed 25 W of static power, with whiskers over 0–40 W; the paper's figures are Joulemeter's application power at the desktop's default clock (it prints no per-byte figure for the calibrated state)."),
    ]
}

fn cipher_evidence(ctx: &Context, r: &Rounds, models: &Models, threads: usize) -> Vec<Fed> {
    let pairs = Pairs {
        ctx,
        r,
        models,
        threads,
        cores: free_cores(ctx, r, threads),
    };
    let clock = models.assumed.calibrated.2 / models.assumed.default.2;
    let mut v = Vec::new();
    let mut same = Vec::new();
    let cores_declared = paper_cores("cipher-energy-same-performance").is_ok();
    for (seq, par, _) in LOW_CLOCK_SAVING_PCT {
        // t(parallel) / t(sequential), paired per round.
        let tr = r.ratio(par, seq);
        v.extend(pairs.evidence(seq, par, tr));
        // At this machine's threads with our speedup, and at the paper's cores with its own.
        let theirs = paper_speedup(seq, par).unwrap_or(f64::NAN) * clock;
        same.extend(tr.map(|e| {
            let (lo, hi) = (clock / e.high, clock / e.low);
            if cores_declared {
                Estimate::new(clock / e.value, lo.min(theirs), hi.max(theirs))
            } else {
                Estimate::new(clock / e.value, lo, hi)
            }
        }));
    }
    v.push(fed("cipher-energy-same-performance", Evidence::modelled_range(same,
        &format!("the speedup × the clock ratio {clock:.3} (calibrated over default), time ∝ 1/clock: our paired speedup on {threads} threads and the paper's own speedup on its 8 cores (Tables 2–3), the range spanning both"),
        "the busy cores: this machine's threads with the speedup measured here against the paper's eight cores with its own")
        .on_threads(threads).free_cores(pairs.cores)));
    for id in [
        "cipher-energy-low-clock-energy-up",
        "cipher-energy-s2-uniprocessor-low-clock",
    ] {
        let ev = match Models::of_claim(id, Some(1)) {
            Ok(m) => {
                let (up, up_min, up_max) = m.span(Fx::k_sequential_low);
                Evidence::modelled_range(
                    vec![Estimate::new(up, up_min, up_max)],
                    "one busy core at the calibrated state against the default, per byte (time ∝ 1/clock)",
                    STATIC_ASSUMPTION,
                )
            }
            Err(e) => Evidence::unavailable(e.to_string()),
        };
        v.push(fed(id, ev));
    }
    v.extend(sequential_evidence(r));
    v.extend(reported(&[
        ("cipher-energy-parc4i-prga-steps", "fixed by the code"),
        ("cipher-energy-power-v2f", "fixed by the code"),
        (
            "cipher-energy-low-clock-slower",
            "encoded in the t5270 and fx-8320 presets",
        ),
        (
            "cipher-energy-platforms",
            "encoded in the t5270 and fx-8320 presets",
        ),
    ]));
    v.extend(paper_checks());
    v
}

/// What the evidence of a sequential/parallel pair is made from: the rounds, the model and
/// the threads with the free cores measured beside them.
struct Pairs<'a> {
    ctx: &'a Context,
    r: &'a Rounds,
    models: &'a Models,
    threads: usize,
    cores: Option<Estimate>,
}

impl Pairs<'_> {
    /// The speedup, low-clock saving and default-state energy of parallel cipher `par` against
    /// `seq`, from `tr`, its time over its sequential cipher's; the two energy claims over the
    /// static-power range and both ends of the busy-cores assumption (ours: this machine's
    /// threads and `tr`; the paper's: its eight cores and its own speedup).
    fn evidence(&self, seq: &str, par: &str, tr: Option<Estimate>) -> [Fed; 3] {
        let (r, threads, cores) = (self.r, self.threads, self.cores);
        let (k_low, k_low_min, k_low_max) = self.models.span(Fx::k_low);
        let (k_def, k_def_min, k_def_max) = self.models.span(Fx::k_default);
        // The paper's end: its cores and its speedup (a time ratio of 1 / speedup), exact.
        let theirs = paper_speedup(seq, par).map(|s| 1.0 / s);
        let paper_end = |id: &str, k: fn(&Fx) -> f64| -> Option<(f64, f64)> {
            let m = Models::of_claim(id, None).ok()?;
            let (_, lo, hi) = m.span(k);
            let t = theirs?;
            Some((lo * t, hi * t))
        };
        let saving_id = format!("cipher-energy-low-clock-{par}");
        let ratio_id = format!("cipher-energy-default-energy-{par}");
        let (low_end, def_end) = (
            paper_end(&saving_id, Fx::k_low),
            paper_end(&ratio_id, Fx::k_default),
        );
        let speed = match needs_threads(self.ctx, 2) {
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
            .free_cores(cores),
        };
        // E(par, calibrated) / E(seq, default) is the time ratio times k_low, which the
        // static power moves: the range takes the worst and best of both.
        let saving = tr.map(|e| {
            let (mut lo, mut hi) = (k_low_min * e.low, k_low_max * e.high);
            if let Some((a, b)) = low_end {
                (lo, hi) = (lo.min(a), hi.max(b));
            }
            Estimate::new(
                100.0 * (1.0 - k_low * e.value),
                100.0 * (1.0 - hi),
                100.0 * (1.0 - lo),
            )
        });
        let ratio = tr.map(|e| {
            let (mut lo, mut hi) = (k_def_min * e.low, k_def_max * e.high);
            if let Some((a, b)) = def_end {
                (lo, hi) = (lo.min(a), hi.max(b));
            }
            Estimate::new(k_def * e.value, lo, hi)
        });
        let at_paper = |end: Option<(f64, f64)>, f: &dyn Fn(f64) -> f64| {
            end.map_or("not evaluated".into(), |(a, b)| {
                let (x, y) = (f(a), f(b));
                format!("{:.3}–{:.3}", x.min(y), x.max(y))
            })
        };
        let paper_s = theirs.map_or(f64::NAN, |t| 1.0 / t);
        [
            fed(&format!("cipher-energy-speed-{par}"), speed),
            fed(&saving_id, Evidence::modelled_range(saving.into_iter().collect(),
                &format!("power of the calibrated state with {threads} busy cores against the default state with one ({k_low_min:.3}–{k_low_max:.3} per unit of time ratio over the static power, {k_low:.3} as assumed), × our paired time ratio scaled ∝ 1/f; at the paper's 8 cores and its {paper_s:.3}× speedup the saving is {} %",
                    at_paper(low_end, &|x| 100.0 * (1.0 - x))),
                &format!("{STATIC_ASSUMPTION}; the busy cores: this machine's {threads} with our speedup against the paper's 8 with its {paper_s:.3}×"))
                .on_threads(threads).free_cores(cores)),
            fed(&ratio_id, Evidence::modelled_range(ratio.into_iter().collect(),
                &format!("default-state power with {threads} busy cores against one ({k_def_min:.3}–{k_def_max:.3} over the static power, {k_def:.3} as assumed: the speedup must stay below it for the claim to hold), × our paired time ratio; at the paper's 8 cores and its {paper_s:.3}× speedup the ratio is {}",
                    at_paper(def_end, &|x| x)),
                &format!("{STATIC_ASSUMPTION}; the busy cores: this machine's {threads} with our speedup against the paper's 8 with its {paper_s:.3}×"))
                .on_threads(threads).free_cores(cores)),
        ]
    }
}

/// The sequential ciphers' orderings, measured on the same rounds.
fn sequential_evidence(r: &Rounds) -> [Fed; 2] {
    let seq_speed = |slow: &str, fast: &str| r.ratio(slow, fast);
    let measured_seq = |est: Vec<Option<Estimate>>, how: &str| {
        Evidence::measured(est.into_iter().flatten().collect(), r.len(), 1, how)
    };
    [
        fed(
            "cipher-energy-rc4a-faster",
            measured_seq(
                vec![seq_speed("rc4", "rc4a")],
                "RC4 time over RC4A time per paired round",
            ),
        ),
        fed(
            "cipher-energy-stream-faster",
            measured_seq(
                vec![
                    seq_speed("blowfish-ecb", "rc4"),
                    seq_speed("blowfish-ecb", "rc4a"),
                ],
                "Blowfish time over the stream cipher's per paired round",
            ),
        ),
    ]
}

/// The paper's numbers against each other.
fn paper_checks() -> Vec<Fed> {
    let (bf, pb) = (paper_row("blowfish-ecb"), paper_row("pblock-ecb"));
    let (mbps, watts) = FIG4_PBLOCK_LOW_CLOCK;
    let clock_ratio = |p: &str| table_1(p, "calibrated").0 / table_1(p, "default").0;
    let fig2_sum = FIG2_ROWS.iter().filter_map(|r| r.5).sum::<f64>();
    let checks: [(&str, Vec<f64>, &str); 13] = [
        (
            "cipher-energy-check-speedup-text",
            vec![pb.1 / bf.1, pb.3 / bf.3],
            "Table 2: PBlock MB/s over Blowfish MB/s",
        ),
        (
            "cipher-energy-check-calibrated-clock",
            vec![clock_ratio("laptop"), clock_ratio("desktop")],
            "Table 1's clocks",
        ),
        (
            "cipher-energy-check-laptop-clock",
            vec![table_1("laptop", "default").0],
            "Table 1",
        ),
        (
            "cipher-energy-check-desktop-2300-volts",
            vec![table_1("desktop", "calibrated").1],
            "Table 1",
        ),
        (
            "cipher-energy-check-fig4-energy",
            vec![watts / mbps / pb.2],
            "7.1125 J/s ÷ 1.18 MB/s = µJ/B, over Table 2's",
        ),
        (
            "cipher-energy-check-fig4-performance",
            vec![mbps / bf.3],
            "1.18 MB/s over Table 2's Blowfish (desktop)",
        ),
        (
            "cipher-energy-check-frequency-energy",
            LOW_CLOCK_SAVING_PCT.map(|p| p.2).to_vec(),
            "the conclusion's savings",
        ),
        (
            "cipher-energy-check-s2-vs-s4-frequency",
            vec![S2_UNIPROCESSOR_ENERGY_CHANGE],
            "Section II's energy change for a uniprocessor whose frequency is lowered (−1: reduced)",
        ),
        (
            "cipher-energy-check-fig2-columns",
            vec![fig2_gap()],
            "Fig. 2, row by row",
        ),
        (
            "cipher-energy-check-fig2-sum",
            vec![fig2_sum],
            "Fig. 2's application column",
        ),
        (
            "cipher-energy-check-platform2-superior",
            platform2_superior(),
            "Tables 2–3, algorithm by algorithm",
        ),
        (
            "cipher-energy-check-default-ordering",
            default_ordering(),
            "Tables 2–3, pair by pair",
        ),
        (
            "cipher-energy-check-block-stream",
            block_stream(),
            "Tables 2–3: least block over most stream µJ/B, least stream over most block MB/s",
        ),
    ];
    checks
        .iter()
        .map(|(id, values, how)| paper_check(id, values, how))
        .collect()
}

/// Tables 2–3's row for algorithm `a` (NaN where it has none).
fn paper_row(a: &str) -> (f64, f64, f64, f64) {
    tables_2_3(a).unwrap_or((f64::NAN, f64::NAN, f64::NAN, f64::NAN))
}

/// Table 1's (GHz, volts) of `platform` in `state` (NaN where it has none).
fn table_1(platform: &str, state: &str) -> (f64, f64) {
    TABLE_1
        .iter()
        .find(|t| t.0 == platform && t.1 == state)
        .map_or((f64::NAN, f64::NAN), |t| (t.2, t.3))
}

/// The largest gap between Fig. 2's total and the sum of its columns, over its rows.
fn fig2_gap() -> f64 {
    FIG2_ROWS
        .iter()
        .map(|(t, cpu, mon, disk, base, _)| (t - (cpu + mon + disk + base)).abs())
        .fold(0.0, f64::max)
}

/// The most desktop over laptop µJ/B and the least desktop over laptop MB/s.
fn platform2_superior() -> Vec<f64> {
    let (mut uj, mut mbs) = (f64::NEG_INFINITY, f64::INFINITY);
    for (_, lu, lm, du, dm) in TABLES_2_3 {
        uj = uj.max(du / lu);
        mbs = mbs.min(dm / lm);
    }
    vec![uj, mbs]
}

/// The least parallel over sequential µJ/B and MB/s, over the pairs and both platforms.
fn default_ordering() -> Vec<f64> {
    let (mut par_uj, mut par_mb) = (f64::INFINITY, f64::INFINITY);
    for (seq, par, _) in LOW_CLOCK_SAVING_PCT {
        let (s, p) = (paper_row(seq), paper_row(par));
        par_uj = par_uj.min(p.0 / s.0).min(p.2 / s.2);
        par_mb = par_mb.min(p.1 / s.1).min(p.3 / s.3);
    }
    vec![par_uj, par_mb]
}

/// The least block cipher's µJ/B over the most stream cipher's, then the least stream
/// cipher's MB/s over the most block cipher's, on the laptop and the desktop.
fn block_stream() -> Vec<f64> {
    type Column = fn(&(&str, f64, f64, f64, f64)) -> f64;
    let is_block = |a: &str| a.starts_with("blowfish") || a.starts_with("pblock");
    let over = |block: bool, f: Column, most: bool| {
        let v = TABLES_2_3.iter().filter(|r| is_block(r.0) == block).map(f);
        if most {
            v.fold(f64::NEG_INFINITY, f64::max)
        } else {
            v.fold(f64::INFINITY, f64::min)
        }
    };
    let (lu, lm, du, dm): (Column, Column, Column, Column) = (|r| r.1, |r| r.2, |r| r.3, |r| r.4);
    vec![
        over(true, lu, false) / over(false, lu, true),
        over(true, du, false) / over(false, du, true),
        over(false, lm, false) / over(true, lm, true),
        over(false, dm, false) / over(true, dm, true),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_own_numbers_agree_where_they_do_and_not_where_they_do_not() {
        let inconsistent = [
            "cipher-energy-check-speedup-text",
            "cipher-energy-check-calibrated-clock",
            "cipher-energy-check-laptop-clock",
            "cipher-energy-check-desktop-2300-volts",
            "cipher-energy-check-fig4-energy",
            "cipher-energy-check-fig4-performance",
            "cipher-energy-check-frequency-energy",
            "cipher-energy-check-s2-vs-s4-frequency",
        ];
        let fed = paper_checks();
        assert_eq!(fed.len(), 13);
        super::super::assert_paper_checks(&fed, &inconsistent);
        // Eight inconsistent checks, five defects of the paper.
        assert_eq!(
            super::super::assert_defects(&fed),
            [
                "pblock-speedup-text",
                crate::claims::cipher_energy::LAPTOP_CLOCKS,
                "desktop-2300-volts",
                crate::claims::cipher_energy::FIG4_PBLOCK,
                crate::claims::cipher_energy::LOWER_CLOCK_MORE_ENERGY,
            ]
        );
    }

    /// The default-energy ratio's power factor spans about 1.2 to 1.9 on 2 threads as the
    /// static power falls from 40 W to 0: the speedup that decides the claim moves with it.
    #[test]
    fn the_static_power_moves_the_energy_ratios_and_the_assumed_point_lies_inside() {
        let m = Models::new(2).unwrap();
        let (k, lo, hi) = m.span(Fx::k_default);
        assert!(lo < k && k < hi, "{lo} {k} {hi}");
        assert!(
            (1.15..1.25).contains(&lo) && (1.8..2.0).contains(&hi),
            "{lo} {hi}"
        );
        assert!(
            (k - 1.31).abs() < 0.02,
            "the preset's 25 W gives the issue's 1.31: {k}"
        );
        let (k, lo, hi) = m.span(Fx::k_low);
        assert!(lo < k && k < hi && lo > 0.9 && hi < 1.5, "{lo} {k} {hi}");
        // One core at the low clock: dynamic energy falls, static energy grows.
        let (_, lo, hi) = m.span(Fx::k_sequential_low);
        assert!(
            lo < 1.0 && hi > 1.0,
            "the static power decides it: {lo} {hi}"
        );
    }
}
