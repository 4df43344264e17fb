//! `par-gmp` (beyond the seed): a parallel product that lets GMP multiply the pieces and picks
//! the split by size, on the persistent workers of [`crate::parallel::pool`].
//!
//! The seed's one-level Karatsuba leaves two of its three half products on one thread's
//! critical path: on two threads at best 2·2^(−α) ≈ 0.73 of GMP's time at GMP's local
//! exponent α ≈ 1.45 (16 to 64 kbit), and nothing from its FFT range on (α ≈ 1.1). What pays
//! instead, by the cost model GMP's own curve gives (`parcrypt bench mul` measures it):
//!
//! | operands | split | why |
//! |---|---|---|
//! | below [`PAR_MIN_LIMBS`] | none: `mpz_mul` | a hand-off (~0.1–0.5 µs) costs more than it saves |
//! | shorter ≤ ⅔ longer | the longer operand in `threads` pieces ([`toom::split_longer`]) | equal pieces, a linear sum |
//! | balanced, below [`CRT_MIN_LIMBS`] | Toom-3 top level, p(∞) cut in two ([`toom::toom3`]) | 5 products of n/3 cost ≈ one of n at α ≈ 1.45: the work splits ~evenly |
//! | from [`CRT_MIN_LIMBS`] (FFT range, α ≈ 1.1) | a·b mod B^N − 1 ‖ a·b mod B^N + 1 ([`crt::crt_product`]) | a Toom split would add work when α ≈ 1; the two residues are GMP's own halves |
//!
//! Signs and zero are handled here; the splits see magnitudes. Squares (`a` and `b` the same
//! value) use squarings in the Toom-3 split.
//!
//! Above all of them, chosen by measurement: a balanced product whose shorter operand has at
//! least [`ntt_from`] limbs goes to the number-theoretic transform of [`super::ntt`] on the same
//! threads (on its best back end: AVX-512 IFMA where the CPU has it, else AVX2). The threshold is timed on
//! this machine, once per process and thread count, at the first product that could use it.
use super::{KaraConfig, Multiplier, crt, ntt, toom};
use crate::bignum::mpn::{self, Limb};
use crate::error::Result;
use crate::parallel::pool::{DEFAULT_SPIN, Pool};
use rug::Integer;
use std::sync::Mutex;
use std::time::Instant;

/// Below this many limbs in the shorter operand, `mpz_mul` alone (tuned on a 2-core EPYC).
pub const PAR_MIN_LIMBS: usize = 40;
/// From this many limbs in the product (`an + bn`), the B^N ± 1 split.
pub const CRT_MIN_LIMBS: usize = 3072;

/// A pool without helper threads: every region runs on its caller. What one-thread products
/// (Karatsuba's [`super::Leaves::Best`] leaves, on whichever thread computes them) pass to
/// [`product`], and what [`ntt_from`] times the one-thread threshold on.
pub fn one_thread_pool() -> &'static Pool {
    static ONE: std::sync::OnceLock<Pool> = std::sync::OnceLock::new();
    ONE.get_or_init(|| Pool::new(0, false, DEFAULT_SPIN).expect("a pool without threads"))
}

/// `a·b` on up to `threads` threads of `pool` (caller included), choosing the split by size.
pub fn product(pool: &Pool, threads: usize, a: &Integer, b: &Integer) -> Integer {
    let square = std::ptr::eq(a, b) || a.as_limbs() == b.as_limbs();
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let (la, lb) = if la.len() >= lb.len() {
        (la, lb)
    } else {
        (lb, la)
    };
    let (an, bn) = (la.len(), lb.len());
    // The threshold is timed (the first time) only for a product that could use it.
    if ntt_shape(an, bn, NTT_SIZES[0])
        && let Some(p) = ntt_from(pool, threads).and_then(|f| by_ntt_from(pool, threads, f, a, b))
    {
        return p;
    }
    // Below the threshold, or past the NTT's bound (2^57 limbs): the GMP splits.
    if split_for(threads, an, bn) == Split::Gmp {
        return Integer::from(a * b);
    }
    let p = magnitude(pool, threads, la, lb, square);
    if (*a < 0) != (*b < 0) { -p } else { p }
}

/// Whether magnitudes of `an >= bn` limbs go to the NTT from `from` limbs: the shorter has at
/// least `from` limbs and at least a quarter of the longer one's (a lopsided product would
/// transform mostly zeros).
fn ntt_shape(an: usize, bn: usize, from: usize) -> bool {
    bn >= from && bn * 4 >= an
}

/// `a·b` (signed) by the NTT on up to `threads` threads of `pool` where the operands have the
/// shape [`product`] hands the NTT from `from` limbs on; `None` for any other shape, or past
/// the NTT's bound. What [`product`] runs above its timed threshold, and Karatsuba's NTT
/// leaves ([`super::Leaf::NttFrom`]) at theirs.
pub fn by_ntt_from(
    pool: &Pool,
    threads: usize,
    from: usize,
    a: &Integer,
    b: &Integer,
) -> Option<Integer> {
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let (long, short) = if la.len() >= lb.len() {
        (la, lb)
    } else {
        (lb, la)
    };
    if short.is_empty() || !ntt_shape(long.len(), short.len(), from) {
        return None;
    }
    let p = ntt::product(pool, threads, long, short).ok()?;
    Some(if (*a < 0) != (*b < 0) { -p } else { p })
}

/// Which split [`product`] uses for magnitudes of `an >= bn` limbs on `threads` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// `mpz_mul` alone.
    Gmp,
    /// The longer operand in pieces.
    Longer,
    /// Toom-3 top level.
    Toom3,
    /// B^N − 1 and B^N + 1 residues.
    Crt,
}

/// The split for operands of `an >= bn` limbs.
pub fn split_for(threads: usize, an: usize, bn: usize) -> Split {
    if threads < 2 || bn < PAR_MIN_LIMBS {
        Split::Gmp
    } else if an + bn >= CRT_MIN_LIMBS && bn * 4 >= an {
        Split::Crt
    } else if bn <= 2 * an.div_ceil(3) {
        // b has no third Toom-3 piece: split the longer operand instead.
        Split::Longer
    } else {
        Split::Toom3
    }
}

fn magnitude(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], square: bool) -> Integer {
    match split_for(threads, a.len(), b.len()) {
        Split::Gmp => {
            let mut r = vec![0; a.len() + b.len()];
            mpn::mul(&mut r, a, b);
            mpn::to_integer(&r)
        }
        Split::Crt => crt::crt_product(pool, a, b),
        Split::Longer => toom::split_longer(pool, threads, a, b, threads),
        Split::Toom3 => toom::toom3(pool, threads, a, b, square),
    }
}

/// Balanced sizes (limbs of each operand: 16 Kbit to 4 Mbit) at which [`ntt_from`] times the
/// NTT against the GMP splits.
pub const NTT_SIZES: [usize; 9] = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

/// How much less time the NTT must take than the GMP splits, at two sizes in a row, to be
/// chosen from the first of them: a difference within the noise must not decide.
pub const NTT_MARGIN: f64 = 0.05;

/// Thresholds measured in this process: (threads, the first size the NTT won at, if any).
static NTT_FROM: Mutex<Vec<(usize, Option<usize>)>> = Mutex::new(Vec::new());

/// From how many limbs in the shorter of two balanced operands `par-gmp` multiplies by the NTT
/// on `threads` threads: the first of [`NTT_SIZES`] from which it took at least [`NTT_MARGIN`]
/// less time than the GMP splits at that size and the next (the least of 3 interleaved runs
/// each, on `pool`); `None` where it never did. Timed on the first call for a thread count
/// (about 0.05 to 0.5 s), then remembered for the process; the operands are public random limbs.
pub fn ntt_from(pool: &Pool, threads: usize) -> Option<usize> {
    let mut known = NTT_FROM.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&(_, f)) = known.iter().find(|(t, _)| *t == threads) {
        return f;
    }
    let f = time_ntt_from(pool, threads);
    known.push((threads, f));
    f
}

/// [`ntt_from`] where this process has timed it for `threads` (`None`: not timed yet).
pub fn ntt_from_known(threads: usize) -> Option<Option<usize>> {
    let known = NTT_FROM.lock().unwrap_or_else(|p| p.into_inner());
    known.iter().find(|(t, _)| *t == threads).map(|&(_, f)| f)
}

/// Whether [`product`] multiplies balanced operands of `an >= bn` limbs by the NTT on
/// `threads` threads, where this process has timed the threshold ([`ntt_from_known`]).
pub fn uses_ntt(threads: usize, an: usize, bn: usize) -> Option<bool> {
    let from = ntt_from_known(threads)?;
    Some(ntt_shape(an, bn, NTT_SIZES[0]) && from.is_some_and(|f| bn >= f))
}

fn time_ntt_from(pool: &Pool, threads: usize) -> Option<usize> {
    let mut won_at: Option<usize> = None;
    for &n in &NTT_SIZES {
        // Public random operands of exactly n limbs, as the benchmarks draw them.
        let (a, b) = super::operands((n * 64) as u32, n as u64);
        let (a, b) = (a.as_limbs(), b.as_limbs());
        let (mut gmp, mut by_ntt) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            let t = Instant::now();
            std::hint::black_box(magnitude(pool, threads, a, b, false));
            gmp = gmp.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let p = ntt::product(pool, threads, a, b);
            by_ntt = by_ntt.min(t.elapsed().as_secs_f64());
            if p.is_err() {
                return None;
            }
        }
        if by_ntt < gmp * (1.0 - NTT_MARGIN) {
            if won_at.is_some() {
                return won_at;
            }
            won_at = Some(n);
        } else {
            won_at = None;
        }
    }
    won_at
}

/// The `par-gmp` multiplier: its own pool of `helpers` persistent helpers.
pub struct ParGmp {
    pool: Pool,
    helpers: usize,
}

/// A `par-gmp` multiplier with `config.helpers` helpers (depth and threshold do not apply).
pub fn new(config: KaraConfig) -> Result<ParGmp> {
    Ok(ParGmp {
        pool: Pool::new(config.helpers, config.pin, DEFAULT_SPIN)?,
        helpers: config.helpers,
    })
}

impl Multiplier for ParGmp {
    fn name(&self) -> &'static str {
        "par-gmp"
    }

    fn describe(&self) -> String {
        let threads = 1 + self.helpers;
        let ntt = match ntt_from_known(threads) {
            Some(Some(f)) => format!(
                "; the NTT ({}) from {f} limbs ({} Kbit) on, timed here",
                ntt::Backend::auto().name(),
                f * 64 / 1024
            ),
            Some(None) => "; the NTT never, timed here".to_string(),
            None => "; the NTT above a threshold timed at the first large product".to_string(),
        };
        format!(
            "par-gmp: GMP multiplies the pieces of a split chosen by size (longer-operand \
             split, Toom-3 top level, B^N±1 residues from {CRT_MIN_LIMBS} limbs){ntt}; {} helper(s), \
             persistent, spinning {} µs then parking{}",
            self.helpers,
            self.pool.spin().as_micros(),
            if self.pool.pinned() { ", pinned" } else { "" }
        )
    }

    fn threads(&self) -> usize {
        1 + self.helpers
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        product(&self.pool, 1 + self.helpers, a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_follow_the_size_table() {
        assert_eq!(split_for(1, 5000, 5000), Split::Gmp);
        assert_eq!(split_for(2, 100, 10), Split::Gmp);
        assert_eq!(split_for(2, 512, 512), Split::Toom3);
        assert_eq!(split_for(2, 512, 200), Split::Longer);
        assert_eq!(split_for(2, 16384, 16384), Split::Crt);
        assert_eq!(split_for(2, 40000, 200), Split::Longer);
    }

    #[test]
    fn every_split_gives_the_signed_product() {
        let m = new(KaraConfig::default()).unwrap();
        for (x, y) in [
            (600u32, 600u32),
            (5000, 4000),
            (70_000, 70_000),
            (110_000, 100_000),
            (90_000, 3000),
        ] {
            let (a, b) = crate::mul::operands(x, u64::from(y));
            let b = b >> (x - y);
            for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let (a, b) = (Integer::from(&a * sa), Integer::from(&b * sb));
                assert_eq!(m.mul(&a, &b), Integer::from(&a * &b), "{x}x{y}");
            }
            assert_eq!(m.mul(&a, &a), Integer::from(a.square_ref()), "{x} squared");
        }
        assert_eq!(m.mul(&Integer::new(), &Integer::from(5)), 0);
        assert_eq!(m.threads(), 2);
        assert!(m.describe().starts_with("par-gmp"));
    }

    /// The NTT threshold is timed once per thread count, then named; products on both sides of
    /// it (and far above) are GMP's, on 1 and 2 threads.
    #[test]
    fn the_ntt_threshold_is_timed_once_and_products_on_both_sides_are_exact() {
        for helpers in [0, 1] {
            let m = new(KaraConfig {
                helpers,
                ..KaraConfig::default()
            })
            .unwrap();
            let threads = helpers + 1;
            let first = ntt_from(&m.pool, threads);
            assert_eq!(ntt_from_known(threads), Some(first));
            assert_eq!(ntt_from(&m.pool, threads), first, "remembered");
            assert!(first.is_none_or(|f| NTT_SIZES.contains(&f)));
            assert!(m.describe().contains("timed here"), "{}", m.describe());
            eprintln!("{threads} thread(s): the NTT from {first:?} limbs");
            let at = first.unwrap_or(NTT_SIZES[0]);
            for limbs in [at - 1, at, at + 1, 4 * at, 65536 + 17] {
                let bits = (limbs * 64) as u32;
                let (a, b) = crate::mul::operands(bits, limbs as u64);
                assert_eq!(m.mul(&a, &b), Integer::from(&a * &b), "{limbs} limbs");
                assert_eq!(
                    m.mul(&a, &-b.clone()),
                    -Integer::from(&a * &b),
                    "{limbs} limbs, signed"
                );
                assert_eq!(
                    m.mul(&a, &a),
                    Integer::from(a.square_ref()),
                    "{limbs} limbs squared"
                );
            }
        }
    }
}
