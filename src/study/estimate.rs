//! How long a study will take on this machine, experiment by experiment, and how the estimate
//! fared.
//!
//! Each experiment states what it took on the reference machine ([`REFERENCE_MACHINE`], quiet)
//! under each profile ([`Experiment::estimate_s`]). Before a study starts, a short
//! calibration ([`calibrate`], about a sixth of a second) times a fixed workload of the kinds
//! the experiments spend their time on (GMP exponentiations and products, parcrypt's own
//! exponentiation, Blowfish) and scales those references by how much longer or shorter it
//! takes here than on the reference machine. Where the output folder holds the experiment's
//! previous run of the same profile (a `--fresh` run measures it again), that run's time is
//! the estimate instead: it was measured on this machine, with this plan.
//!
//! The header prints the estimate per experiment; the progress line gives the running
//! experiment's estimate and the time left, the latter rescaled as experiments finish by how
//! the finished ones compared with their estimates. results.json keeps each experiment's
//! estimate beside its time (`estimate_s`, `elapsed_s`), and the closing lines say how far
//! apart they were.
use super::experiment::Experiment;
use crate::results::Profile;
use rug::Integer;
use std::hint::black_box;
use std::time::Instant;

/// The machine the experiments' reference times ([`Experiment::estimate_s`]) and
/// [`REFERENCE_CALIBRATION_S`] were measured on.
pub const REFERENCE_MACHINE: &str =
    "AMD EPYC family 26 model 2 (Zen 5), 2 vCPUs, 48 KiB L1d per core, quiet";

/// Seconds the calibration workload (see [`calibrate`]) took on [`REFERENCE_MACHINE`] (the
/// median of 7 repeats, three calibrations on 2026-11-27 within 1 %).
pub const REFERENCE_CALIBRATION_S: f64 = 0.0168;

/// An experiment's seconds on [`REFERENCE_MACHINE`] under `profile`: `quick` or `full`, each
/// the geometric mean of what it took there with nothing else running on 2026-11-27. For an
/// experiment that runs a fixed amount of work (no sampled rounds); one that samples rounds
/// states its first rounds' time instead ([`sampled_s`]). What [`Experiment::estimate_s`]
/// returns, and [`expected`] scales by the calibration.
pub fn reference_s(profile: Profile, quick: f64, full: f64) -> f64 {
    match profile {
        Profile::Quick => quick,
        Profile::Full => full,
    }
}

/// The expected seconds of an experiment that samples paired rounds
/// ([`super::sampling::measure`]), whose first rounds (the plan's `min_rounds`, kept) took
/// `quick` or `full` seconds on [`REFERENCE_MACHINE`] (the geometric mean of four quick and
/// three full quiet runs on 2026-11-27, each run's time scaled to its kept first rounds; every
/// run's output is in `results/2026-11-27/`; the quick figures of the experiments made
/// lighter on 2026-11-28 — `parsa-fig5`, `parsa-threads`, the Karatsuba and hand-off
/// experiments, `cipher-energy-ciphers` — from two quiet quick runs that day on a Zen 4 VM,
/// scaled by their calibration, 2.13× and 1.96×), times [`extra_factor`].
pub fn sampled_s(profile: Profile, quick: f64, full: f64) -> f64 {
    reference_s(profile, quick, full) * extra_factor(profile)
}

/// What the extra rounds add to the estimate of a sampled experiment under `profile`. Its
/// rounds take between their first kept rounds' time B and (1 + x)·B, x the plan's
/// `extra_budget` (rounds set aside and re-measured are paid from the same budget:
/// [`super::sampling::extra_allowance`]). An estimate E lies within ±50 % of the actual A
/// when A/2 ≤ E ≤ 1.5·A; for every A in [B, (1+x)·B] that is (1+x)·B/2 ≤ E ≤ 1.5·B. The factor is the geometric middle of that range, √(0.75·(1+x)),
/// 1.22 for x = 1: an experiment that stops at its first rounds reads +22 %, one that spends
/// its whole extra time −39 %, with the rest of the ±50 % left for the machine.
pub fn extra_factor(profile: Profile) -> f64 {
    let x = super::sampling::Plan::for_profile(profile).extra_budget;
    (0.75 * (1.0 + x)).sqrt()
}

/// The calibration: what the workload took here, and the factor the reference times are
/// scaled by (this machine's time over the reference machine's; above 1 is slower).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Seconds of one workload here (median of the repeats).
    pub seconds: f64,
    /// `seconds` over [`REFERENCE_CALIBRATION_S`].
    pub factor: f64,
}

impl Calibration {
    /// The reference machine itself (a factor of 1), for tests and for a run that cannot
    /// calibrate.
    pub fn reference() -> Self {
        Self {
            seconds: REFERENCE_CALIBRATION_S,
            factor: 1.0,
        }
    }

    /// The calibration as text: "calibration workload 16.8 ms here, 1.00× the reference
    /// machine's time".
    pub fn describe(&self) -> String {
        format!(
            "calibration workload {:.1} ms here, {:.2}× the reference machine's time",
            self.seconds * 1e3,
            self.factor
        )
    }
}

/// One workload of the kinds the experiments time, about 17 ms on the reference machine:
/// GMP exponentiations and products at 2048 and 16384 bits, parcrypt's 2^4-ary
/// exponentiation at 2048 bits, Blowfish over 64 KiB.
fn workload() -> f64 {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(32);
    let mut draw = |bits: u32| {
        parcrypt::hazmat::bignum::random_bits(&mut rng, bits) | (Integer::from(1) << (bits - 1))
    };
    let (b, e, m) = (draw(2048), draw(2048), draw(2048) | 1);
    let (x, y) = (draw(16384), draw(16384));
    let mary = parcrypt::modexp::method("mary").ok();
    let params = parcrypt::modexp::Params {
        window: Some(4),
        ..Default::default()
    };
    let bf = parcrypt::cipher::blowfish::Blowfish::new(b"calibration key").ok();
    let mut data = vec![0u8; 64 * 1024];
    let started = Instant::now();
    for _ in 0..6 {
        black_box(b.clone().pow_mod(&e, &m).ok());
    }
    for _ in 0..200 {
        black_box(Integer::from(&x * &y));
    }
    if let Some(mary) = &mary {
        for _ in 0..3 {
            black_box(parcrypt::modexp::pow_mod_vartime(mary.as_ref(), &b, &e, &m, &params).ok());
        }
    }
    if let Some(bf) = &bf {
        black_box(bf.encrypt_blocks(&mut data).ok());
    }
    started.elapsed().as_secs_f64()
}

/// Times the workload 7 times (after one warm-up) and compares the median with the
/// reference machine's.
pub fn calibrate() -> Calibration {
    workload();
    let mut times: Vec<f64> = (0..7).map(|_| workload()).collect();
    times.sort_by(f64::total_cmp);
    let seconds = times[times.len() / 2];
    Calibration {
        seconds,
        factor: seconds / REFERENCE_CALIBRATION_S,
    }
}

/// Where an experiment's estimate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Its previous run in the same output folder (same profile, this machine).
    Previous,
    /// Its reference time scaled by the calibration.
    Calibrated,
}

/// One experiment's expected time.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// The experiment's id.
    pub id: String,
    /// Expected seconds.
    pub seconds: f64,
    /// Where the figure comes from.
    pub basis: Basis,
}

/// The expected time of `exp` under `profile`: `previous` (what its last run in the folder
/// took) where there is one, otherwise its reference time scaled by `cal`.
pub fn expected(
    exp: &dyn Experiment,
    profile: Profile,
    cal: &Calibration,
    previous: Option<f64>,
) -> Expected {
    let (seconds, basis) = match previous {
        Some(s) if s.is_finite() && s > 0.0 => (s, Basis::Previous),
        _ => (exp.estimate_s(profile) * cal.factor, Basis::Calibrated),
    };
    Expected {
        id: exp.id().to_string(),
        seconds,
        basis,
    }
}

/// The time left of a study whose experiments are `expected` (in run order), `done` of them
/// finished with `actual` seconds each: the unfinished ones' estimates, scaled by how the
/// finished ones compared with theirs (their total over their estimates' total, between
/// 0.5 and 2, once at least 10 s of estimates have finished; 1 before).
pub fn time_left(expected: &[Expected], actual: &[f64]) -> f64 {
    let done = actual.len().min(expected.len());
    let planned: f64 = expected[..done].iter().map(|e| e.seconds).sum();
    let took: f64 = actual[..done].iter().sum();
    let scale = if planned >= 10.0 {
        (took / planned).clamp(0.5, 2.0)
    } else {
        1.0
    };
    expected[done..].iter().map(|e| e.seconds).sum::<f64>() * scale
}

/// How much longer `actual` seconds took than `expected`, in % of the estimate (negative: it
/// took less), as a reader of "36 s against 48 s (−25 %)" reads it.
pub fn error_pct(expected: f64, actual: f64) -> f64 {
    if expected > 0.0 {
        (actual - expected) / expected * 100.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(id: &str, s: f64) -> Expected {
        Expected {
            id: id.into(),
            seconds: s,
            basis: Basis::Calibrated,
        }
    }

    #[test]
    fn the_calibration_times_the_workload_and_scales_by_it() {
        let c = calibrate();
        assert!(c.seconds > 0.0 && c.seconds.is_finite());
        assert!((c.factor - c.seconds / REFERENCE_CALIBRATION_S).abs() < 1e-12);
        assert!(c.describe().contains("×"));
    }

    #[test]
    fn a_previous_run_in_the_folder_beats_the_calibrated_reference() {
        let exp = super::super::experiments::all()
            .into_iter()
            .find(|x| x.id() == "parsa-fig5")
            .unwrap();
        let cal = Calibration {
            seconds: 0.08,
            factor: 2.0,
        };
        let calibrated = expected(exp.as_ref(), Profile::Quick, &cal, None);
        assert_eq!(calibrated.basis, Basis::Calibrated);
        assert!((calibrated.seconds - 2.0 * exp.estimate_s(Profile::Quick)).abs() < 1e-9);
        let previous = expected(exp.as_ref(), Profile::Quick, &cal, Some(12.5));
        assert_eq!((previous.seconds, previous.basis), (12.5, Basis::Previous));
        // A broken previous time is not a figure.
        let broken = expected(exp.as_ref(), Profile::Quick, &cal, Some(f64::NAN));
        assert_eq!(broken.basis, Basis::Calibrated);
    }

    #[test]
    fn the_time_left_follows_how_the_finished_experiments_fared() {
        let plan = [e("a", 20.0), e("b", 30.0), e("c", 50.0)];
        assert_eq!(time_left(&plan, &[]), 100.0);
        // The first took twice its estimate: the rest are expected to as well.
        assert_eq!(time_left(&plan, &[40.0]), 160.0);
        // Capped at 2× and at 0.5×.
        assert_eq!(time_left(&plan, &[200.0]), 160.0);
        assert_eq!(time_left(&plan, &[1.0]), 40.0);
        // Under 10 s of estimates finished: no rescaling yet.
        let small = [e("a", 5.0), e("b", 30.0)];
        assert_eq!(time_left(&small, &[50.0]), 30.0);
        assert_eq!(time_left(&plan, &[20.0, 30.0, 50.0]), 0.0);
    }

    #[test]
    fn the_overrun_is_a_share_of_the_estimate() {
        assert_eq!(error_pct(100.0, 150.0), 50.0);
        assert_eq!(error_pct(100.0, 50.0), -50.0);
        assert_eq!(error_pct(0.0, 1.0), 0.0);
    }
}
