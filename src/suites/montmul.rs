//! The cost of one Montgomery product per constant-time backend (issue 20: what limits the
//! private-key operation against OpenSSL), at the moduli of RSA's CRT halves.
//!
//! Each sample is a chain of `count` dependent Montgomery squarings in the backend's kernel
//! ([`CtModulus::square_chain`]), one modulus at a time (`single`) or two at once (`dual`: the
//! IFMA kernel's interleaved pair, the others' two products in turn), timed by the monotonic
//! clock and the TSC; every configuration runs interleaved with the others. Figures are per
//! product of one modulus: a dual call counts as two products. Beside them, an estimate of
//! OpenSSL's per-product time from `openssl speed`: the sign time of the RSA size whose halves
//! have this modulus size, divided by the products one sign needs (its fixed-window
//! exponentiations: window 5 up to 937-bit exponents, 6 above, as OpenSSL's
//! `BN_window_bits_for_ctime_exponent_size`); it includes the rest of a sign (blinding,
//! recombination, OpenSSL's check of the result), so it overstates the product's cost a little.
use crate::bench::tsc::Tsc;
use crate::bench::{Bench, BenchConfig, TimingColumns, TimingFields};
use crate::error::{Error, Result};
use parcrypt::hazmat::bignum::ct::{Backend, CtModulus, square_chain_pair};
use parcrypt::hazmat::bignum::mpn;
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to measure.
#[derive(Clone, Debug)]
pub struct MontmulPlan {
    /// Modulus sizes in bits.
    pub bits: Vec<u32>,
    /// Backends (each must be available).
    pub backends: Vec<Backend>,
    /// Squarings per sample.
    pub count: usize,
    /// Seconds of `openssl speed` per size (0: no OpenSSL estimate).
    pub openssl_seconds: u32,
    /// Seed of the moduli and operands.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// One configuration's result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MontmulRecord {
    /// Modulus size in bits.
    pub bits: u32,
    /// The backend (`ifma`, `mulx`, `portable`), or `openssl` for the estimate.
    pub backend: String,
    /// `single`, `dual` (two moduli per call), or `estimate` (OpenSSL).
    pub mode: String,
    /// Seconds per product of one modulus: median, min, max, runs, every run
    /// ([`TimingColumns::RANGE`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Nanoseconds per product at the median.
    pub ns_per_product: f64,
    /// TSC ticks per product at the median (the TSC runs at a constant reference rate, not
    /// the core clock); `null` without an invariant TSC.
    pub tsc_per_product: Option<f64>,
    /// Products per sample.
    pub products: usize,
    /// How the figure was obtained: `measured`, or the estimate's formula.
    pub source: String,
}

/// Products of one OpenSSL RSA sign of `rsa_bits` bits (both halves, each counted): the
/// fixed-window exponentiation of each half, its table, and the conversions in and out.
/// OpenSSL 3.0's AVX-512 path for 1024-bit halves (`ossl_rsaz_mod_exp_avx512_x2`) uses a fixed
/// window of 5; its generic constant-time exponentiation takes 6 above 937 bits.
pub fn openssl_products(rsa_bits: u32) -> f64 {
    let half = f64::from(rsa_bits / 2);
    let w = if half > 1024.0 { 6.0 } else { 5.0 };
    let per_half = (2f64.powf(w) - 2.0) + ((half / w).ceil() - 1.0) * (w + 1.0) + 2.0;
    2.0 * per_half
}

/// Runs the plan.
pub fn run(
    plan: &MontmulPlan,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<MontmulRecord>> {
    check_plan(plan)?;
    let bench = Bench::new(plan.config)?;
    let tsc = Tsc::detect();
    let tsc_hz = tsc.map(|t| t.ticks_per_second(0.02));
    let mut records = Vec::new();
    for (i, &bits) in plan.bits.iter().enumerate() {
        progress(i, plan.bits.len(), &format!("{bits}-bit moduli"));
        let configs = checked_chains(plan, bits)?;
        let ticks = std::cell::RefCell::new(vec![Vec::new(); configs.len()]);
        let ms = bench.run_interleaved_by(configs.len(), |j| {
            let Chain { dual, pair, xl, .. } = &configs[j];
            let t0 = tsc.map(|t| t.now());
            let started = Instant::now();
            if *dual {
                std::hint::black_box(square_chain_pair(
                    [&pair[0], &pair[1]],
                    [xl, xl],
                    plan.count,
                ));
            } else {
                std::hint::black_box(pair[0].square_chain(xl, plan.count));
            }
            let took = started.elapsed().as_secs_f64();
            if let (Some(t), Some(t0)) = (tsc, t0) {
                ticks.borrow_mut()[j].push(t.now().wrapping_sub(t0) as f64);
            }
            took
        });
        let timed = TimedChains {
            plan,
            bits,
            tsc_hz,
            configs: &configs,
            ticks: &ticks.borrow(),
        };
        records.extend(timed.records(&ms)?);
        records.extend(openssl_estimate(plan, bits, tsc_hz));
    }
    progress(plan.bits.len(), plan.bits.len(), "done");
    Ok(records)
}

/// Refuses a zero count and a backend that cannot run here.
fn check_plan(plan: &MontmulPlan) -> Result<()> {
    if plan.count == 0 {
        return Err(Error::InvalidParameter("--count must be positive".into()));
    }
    if let Some(b) = plan
        .backends
        .iter()
        .find_map(|b| b.unavailable_reason().map(|w| (b, w)))
    {
        return Err(Error::InvalidParameter(format!(
            "the {} backend cannot run here: {}",
            b.0, b.1
        )));
    }
    Ok(())
}

/// One timed configuration: a backend's chain on one modulus or on two at once.
struct Chain {
    backend: Backend,
    dual: bool,
    pair: [CtModulus; 2],
    xl: Vec<u64>,
}

/// Two random moduli of `bits` bits and, per backend, the single and dual chains, each
/// backend's squarings checked against GMP first.
fn checked_chains(plan: &MontmulPlan, bits: u32) -> Result<Vec<Chain>> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed ^ u64::from(bits));
    let mut modulus = || {
        let mut m = parcrypt::hazmat::bignum::random_bits(&mut rng, bits);
        m.set_bit(bits - 1, true);
        m.set_bit(0, true);
        m
    };
    let (ma, mb) = (modulus(), modulus());
    let x = Integer::from(&ma >> 1);
    let mut configs = Vec::new();
    for &b in &plan.backends {
        let pair = [CtModulus::new(&ma, b)?, CtModulus::new(&mb, b)?];
        // The chain must give x^(2^count), as GMP says.
        let want = Integer::from(
            x.pow_mod_ref(&(Integer::from(1) << plan.count as u32), &ma)
                .expect("odd"),
        );
        let xl = mpn::padded(&x, pair[0].limbs());
        if mpn::to_integer(&pair[0].square_chain(&xl, plan.count)) != want {
            return Err(Error::internal(format!(
                "the {b} kernel's squarings differ from GMP"
            )));
        }
        configs.push(Chain {
            backend: b,
            dual: false,
            pair: pair.clone(),
            xl: xl.clone(),
        });
        configs.push(Chain {
            backend: b,
            dual: true,
            pair,
            xl,
        });
    }
    Ok(configs)
}

/// One modulus size's chains and the TSC ticks of their runs.
struct TimedChains<'a> {
    plan: &'a MontmulPlan,
    bits: u32,
    tsc_hz: Option<f64>,
    configs: &'a [Chain],
    ticks: &'a [Vec<f64>],
}

impl TimedChains<'_> {
    /// The measured records, per product of one modulus.
    fn records(&self, ms: &[crate::bench::Measurement]) -> Result<Vec<MontmulRecord>> {
        let warm = self.plan.config.warmup_runs as usize;
        let mut records = Vec::new();
        for (j, (c, m)) in self.configs.iter().zip(ms).enumerate() {
            let products = self.plan.count * if c.dual { 2 } else { 1 };
            let per: Vec<f64> = m.samples.iter().map(|s| s / products as f64).collect();
            let summary = crate::bench::Summary::from_samples(&per)
                .ok_or_else(|| Error::internal("no samples"))?;
            let tsc_per = self.tsc_hz.map(|_| {
                let mut v: Vec<f64> = self.ticks[j]
                    .iter()
                    .skip(warm)
                    .map(|x| x / products as f64)
                    .collect();
                v.sort_by(f64::total_cmp);
                v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
            });
            records.push(MontmulRecord {
                bits: self.bits,
                backend: c.backend.name().to_string(),
                mode: if c.dual { "dual" } else { "single" }.to_string(),
                ns_per_product: summary.median * 1e9,
                timing: TimingFields::new(&summary, per, TimingColumns::RANGE),
                tsc_per_product: tsc_per,
                products,
                source: "measured".to_string(),
            });
        }
        Ok(records)
    }
}

/// OpenSSL's per-product estimate at this modulus size, when asked for and `openssl speed`
/// gave a sign time.
fn openssl_estimate(plan: &MontmulPlan, bits: u32, tsc_hz: Option<f64>) -> Option<MontmulRecord> {
    if plan.openssl_seconds == 0 {
        return None;
    }
    let rsa = 2 * bits;
    let sign = super::openssl::openssl_sign_seconds(rsa, plan.openssl_seconds)?;
    let products = openssl_products(rsa);
    let per = sign / products;
    let summary = crate::bench::Summary::from_samples(&[per]).expect("one sample");
    Some(MontmulRecord {
        bits,
        backend: "openssl".to_string(),
        mode: "estimate".to_string(),
        ns_per_product: per * 1e9,
        timing: TimingFields::new(&summary, vec![per], TimingColumns::RANGE),
        tsc_per_product: tsc_hz.map(|hz| per * hz),
        products: products as usize,
        source: format!(
            "estimate: openssl speed rsa{rsa} sign time / {products:.0} products of one sign"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_available_backend_is_measured_single_and_dual() {
        let backends: Vec<Backend> = Backend::ALL.into_iter().filter(|b| b.available()).collect();
        let plan = MontmulPlan {
            bits: vec![1024],
            backends: backends.clone(),
            count: 50,
            openssl_seconds: 0,
            seed: 1,
            config: BenchConfig {
                warmup_runs: 0,
                ..BenchConfig::exact(2)
            },
        };
        let recs = run(&plan, |_, _, _| {}).unwrap();
        assert_eq!(recs.len(), 2 * backends.len());
        for r in &recs {
            assert!(
                r.ns_per_product > 0.0 && r.ns_per_product.is_finite(),
                "{r:?}"
            );
            assert_eq!(r.products, if r.mode == "dual" { 100 } else { 50 });
            assert_eq!(r.timing.runs, 2);
        }
    }

    #[test]
    fn openssl_product_counts_follow_its_windows() {
        // 1024-bit halves: window 5, 30 table products, 204 windows of 5 squarings and a
        // product, 2 conversions: 1256 per half.
        assert_eq!(openssl_products(2048), 2.0 * 1256.0);
        // 2048-bit halves: window 6: 62 + 341 * 7 + 2 = 2451 per half.
        assert_eq!(openssl_products(4096), 2.0 * 2451.0);
    }
}
