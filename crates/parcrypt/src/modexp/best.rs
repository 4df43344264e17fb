//! `best` (beyond the seeds): whichever of GMP's `mpz_powm`, the sliding window (`sliding`)
//! and the sliding window with two-thread products (`window-parmul`) is fastest on this machine
//! for the modulus' size and the threads asked for, **chosen by measurement**: a parallel form
//! is taken only where it measured faster. On a 2-vCPU Xeon `window-parmul` ran at 0.81× its
//! own sequential form at 8192 bits, where on Zen 5 it gained 1.28× over GMP: CPU flags and
//! sizes alone cannot decide.
//!
//! The first exponentiation of a size class (the modulus rounded up to 512 bits) and thread
//! count times each candidate on the caller's modulus with a fixed 256-bit exponent, the least
//! of 3 interleaved runs each (about 3 × 3 short exponentiations), and keeps the choice for the
//! process; a later candidate must beat an earlier one by [`MARGIN`]. [`chosen`] says what was
//! chosen. Variable-time, as every strategy but `gmp-sec`.
use super::gmp::Gmp;
use super::sliding::Sliding;
use super::window_parmul::WindowParMul;
use super::{ModExp, Outcome, Params};
use crate::bignum::ct::choice::size_class as class;
use crate::error::Result;
use rug::Integer;
use std::sync::Mutex;
use std::time::Instant;

/// The fastest exponentiation here, by measurement.
pub struct Best;

/// How much faster a later candidate (in the order GMP, sliding, window-parmul) must be.
pub const MARGIN: f64 = 0.05;

/// Choices made in this process: ((size class in bits, threads), the strategy's name).
static CHOSEN: Mutex<Vec<((u32, usize), &'static str)>> = Mutex::new(Vec::new());

/// What [`Best`] runs for a `bits`-bit modulus on `threads` threads, where this process has
/// chosen it (`None`: not yet timed).
pub fn chosen(bits: u32, threads: usize) -> Option<&'static str> {
    let key = (class(bits), threads.max(1));
    let known = CHOSEN.lock().unwrap_or_else(|p| p.into_inner());
    known.iter().find(|(k, _)| *k == key).map(|&(_, n)| n)
}

fn candidates(threads: usize) -> Vec<Box<dyn ModExp>> {
    let mut v: Vec<Box<dyn ModExp>> = vec![Box::new(Gmp), Box::new(Sliding)];
    if threads >= 2 {
        v.push(Box::new(WindowParMul));
    }
    v
}

/// The candidate for `modulus` and `params`, timed on first use (see the module docs).
fn choose(modulus: &Integer, params: &Params) -> Result<Box<dyn ModExp>> {
    let key = (class(modulus.significant_bits()), params.threads.max(1));
    let mut known = CHOSEN.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&(_, name)) = known.iter().find(|(k, _)| *k == key) {
        return super::method(name);
    }
    let all = candidates(params.threads);
    // Public operands: a fixed 256-bit exponent with mixed bits, a base below the modulus.
    let exp = Integer::from_str_radix(
        "b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef",
        16,
    )
    .expect("a hex literal");
    let base = Integer::from(modulus - 2u32).max(Integer::from(1));
    let mut best = vec![f64::INFINITY; all.len()];
    for _ in 0..3 {
        for (i, m) in all.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(m.pow_mod_normalized_vartime(&base, &exp, modulus, params)?);
            best[i] = best[i].min(t.elapsed().as_secs_f64());
        }
    }
    let mut pick = 0;
    for i in 1..all.len() {
        if best[i] < best[pick] * (1.0 - MARGIN) {
            pick = i;
        }
    }
    let name = all[pick].name();
    known.push((key, name));
    super::method(name)
}

impl ModExp for Best {
    fn name(&self) -> &'static str {
        "best"
    }

    fn describe(&self) -> &'static str {
        "the fastest here of gmp, sliding and window-parmul for the size and threads, timed at first use (a parallel form only where it measured faster)"
    }

    fn is_parallel(&self) -> bool {
        true
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        choose(modulus, params)?.pow_mod_normalized_vartime(base, exp, modulus, params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `best` gives GMP's result on 1 and 2 threads, even and odd moduli, and says what it
    /// chose, the same each time; on 1 thread it never picks the parallel form.
    #[test]
    fn best_is_exact_and_remembers_its_choice() {
        for (bits, threads) in [(1024u32, 1usize), (1024, 2), (4096, 2), (2000, 2)] {
            let mut rng = rug::rand::RandState::new();
            rng.seed(&Integer::from(bits));
            let m = Integer::from(Integer::random_bits(bits, &mut rng)) | 1u32;
            let b = Integer::from(Integer::random_below_ref(&m, &mut rng));
            let e = Integer::from(Integer::random_bits(bits, &mut rng));
            let p = Params {
                threads,
                ..Params::default()
            };
            let want = Integer::from(b.pow_mod_ref(&e, &m).unwrap());
            let got = super::super::pow_mod_vartime(&Best, &b, &e, &m, &p).unwrap();
            assert_eq!(got.value, want, "{bits} bits, {threads} threads");
            let c = chosen(m.significant_bits(), threads).expect("chosen");
            assert!(threads >= 2 || c != "window-parmul", "{c}");
            assert_eq!(
                super::super::pow_mod_vartime(&Best, &b, &e, &m, &p)
                    .unwrap()
                    .value,
                want
            );
            assert_eq!(chosen(m.significant_bits(), threads), Some(c));
            eprintln!("best at {bits} bits on {threads} thread(s): {c}");
        }
        // An even modulus: every candidate takes it or falls back.
        let m = Integer::from(1u32) << 1000u32;
        let p = Params::default();
        let got =
            super::super::pow_mod_vartime(&Best, &Integer::from(3), &Integer::from(12345), &m, &p)
                .unwrap();
        assert_eq!(
            got.value,
            Integer::from(
                Integer::from(3)
                    .pow_mod_ref(&Integer::from(12345), &m)
                    .unwrap()
            )
        );
    }
}
