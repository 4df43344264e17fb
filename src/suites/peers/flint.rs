//! The `flint*` rows of `bench peers` (built with `--features flint` only): FLINT 3 in process
//! as the peer for products and `powm`, on the same operands as parcrypt, linked against the
//! same system GMP. FLINT is compiled from source by the `flint3-sys` crate (about 15 minutes
//! on 2 cores); built with `CC="gcc -march=x86-64-v3"` (what `scripts/flint-peer.sh` does), its
//! configure finds AVX2 and compiles `fft_small`, the small-prime NTT that FLINT 3 uses for
//! large products (it needs AVX2 and FMA). Without it gcc 12 does not know Zen 4/5 by name,
//! configure passes no `-march`, and `fft_small` is left out: the record says which
//! ([`fft_small`]).
//!
//! - `flint1-product-N`: FLINT's `fmpz_mul` on 1 thread against par-gmp on N threads (no
//!   ceiling column: the `product-N` rows give GMP's);
//! - `flint-product-N`: FLINT's `fmpz_mul` with `flint_set_num_threads(N)` against par-gmp
//!   on N threads (the target: ≥ 1.0× FLINT's best on 2 threads);
//! - `flint-modexp-8192`: FLINT's `fmpz_powm` on N threads against the sliding window
//!   (sequential) and the window with parallel products.
//!
//! Every FLINT result is compared with GMP's before it is timed.
use super::form::{Form, Row, Setup, form, per_op};
use crate::error::{Error, Result};
use flint3_sys as fl;
use parcrypt::mul::Multiplier;
use rug::Integer;
use rug::integer::Order;
use std::hint::black_box;

/// The `flint*` rows, in the order they run.
pub const ROWS: [&str; 7] = [
    "flint1-product-64k",
    "flint-product-64k",
    "flint1-product-1m",
    "flint-product-1m",
    "flint1-product-16m",
    "flint-product-16m",
    "flint-modexp-8192",
];

/// Whether the linked FLINT was compiled with `fft_small` (read from its `flint-config.h` by
/// the build script).
pub fn fft_small() -> bool {
    option_env!("PARCRYPT_FLINT_FFT_SMALL") == Some("yes")
}

/// The peer's name and build, as the record shows it.
pub fn version() -> String {
    format!(
        "FLINT 3.6.0 (flint3-sys 3.6.1, from source, system GMP; fft_small {})",
        if fft_small() { "on" } else { "off" }
    )
}

/// A FLINT integer, cleared on drop.
pub struct Fmpz(fl::fmpz);

impl Fmpz {
    /// Zero.
    pub fn new() -> Self {
        let mut f: fl::fmpz = 0;
        // SAFETY: `f` is a valid fmpz slot; fmpz_init writes the small value 0.
        unsafe { fl::fmpz_init(&mut f) };
        Self(f)
    }

    /// `x` (non-negative) as a FLINT integer.
    pub fn from_integer(x: &Integer) -> Self {
        let mut f = Self::new();
        let limbs = x.to_digits::<u64>(Order::Lsf);
        // SAFETY: `limbs` holds `limbs.len()` words; fmpz_set_ui_array reads exactly those.
        unsafe { fl::fmpz_set_ui_array(&mut f.0, limbs.as_ptr(), limbs.len() as fl::slong) };
        f
    }

    /// The value (non-negative) as a GMP integer.
    pub fn to_integer(&self) -> Integer {
        // SAFETY: fmpz_size only reads the fmpz.
        let n = unsafe { fl::fmpz_size(&self.0) }.max(1) as usize;
        let mut limbs = vec![0u64; n];
        // SAFETY: `limbs` has room for the `n` words fmpz_get_ui_array writes.
        unsafe { fl::fmpz_get_ui_array(limbs.as_mut_ptr(), n as fl::slong, &self.0) };
        Integer::from_digits(&limbs, Order::Lsf)
    }
}

impl Default for Fmpz {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Fmpz {
    fn drop(&mut self) {
        // SAFETY: the fmpz was initialised by `new` and is cleared once.
        unsafe { fl::fmpz_clear(&mut self.0) };
    }
}

/// Sets FLINT's thread count (the caller included). FLINT's `thread_pool_set_size` tears down
/// its worker threads and starts new ones on every call, about 200 µs at 2 threads: so it is
/// called once per sample, outside the timed operations, never per operation.
fn set_threads(threads: usize) {
    // SAFETY: a process-wide setting, changed while no FLINT operation runs.
    unsafe { fl::flint_set_num_threads(threads as std::os::raw::c_int) };
}

/// `a · b` by FLINT on the threads last set, into `out`.
fn mul(out: &mut Fmpz, a: &Fmpz, b: &Fmpz) {
    // SAFETY: the operands and the output are initialised fmpz values.
    unsafe { fl::fmpz_mul(&mut out.0, &a.0, &b.0) };
}

/// `b^e mod m` by FLINT on the threads last set, into `out`.
fn powm(out: &mut Fmpz, b: &Fmpz, e: &Fmpz, m: &Fmpz) {
    // SAFETY: as in `mul`; m > 0 and e ≥ 0 (checked by the caller's comparison with GMP).
    unsafe { fl::fmpz_powm(&mut out.0, &b.0, &e.0, &m.0) };
}

/// A row's operands, in GMP and in FLINT, and parcrypt's product multiplier.
pub struct FlintData {
    ints: Vec<Integer>,
    flint: Vec<Fmpz>,
    mul: Box<dyn Multiplier>,
    /// parcrypt's best one-thread product: par-gmp on 1 thread (the NTT above its threshold,
    /// timed here; GMP below it).
    one: Box<dyn Multiplier>,
}

impl FlintData {
    /// The operands of row `id`: two of the product rows' size, or base, exponent and modulus
    /// of 8192 bits, from `seed` as the GMP rows draw them.
    pub fn new(id: &str, s: &Setup) -> Result<Self> {
        let ints = if id.ends_with("modexp-8192") {
            let (b, e, m) = crate::suites::modexp::operands(8192, s.seed);
            vec![b, e, m]
        } else {
            let bits = super::rows::product_bits(id);
            let (a, b) = parcrypt::mul::operands(bits, s.seed);
            vec![a, b]
        };
        let flint = ints.iter().map(Fmpz::from_integer).collect();
        let mul = parcrypt::mul::par::new(parcrypt::mul::KaraConfig {
            helpers: s.threads - 1,
            ..parcrypt::mul::KaraConfig::default()
        })?;
        let one = parcrypt::mul::par::new(parcrypt::mul::KaraConfig {
            helpers: 0,
            ..parcrypt::mul::KaraConfig::default()
        })?;
        Ok(Self {
            ints,
            flint,
            mul: Box::new(mul),
            one: Box::new(one),
        })
    }
}

/// The row of `d` (see the module docs).
pub fn row<'a>(row: &mut Row<'a>, s: &Setup, d: &'a FlintData) -> Result<()> {
    let (t, batch) = (s.threads, s.batch_s);
    if let [b, e, m] = &d.ints[..] {
        return modexp_row(row, s, d, (b, e, m));
    }
    let (a, b) = (&d.ints[0], &d.ints[1]);
    let (fa, fb) = (&d.flint[0], &d.flint[1]);
    let bits = a.significant_bits().max(b.significant_bits());
    let flint_threads = if row.id.starts_with("flint1-") { 1 } else { t };
    let want = Integer::from(a * b);
    let mut out = Fmpz::new();
    set_threads(flint_threads);
    mul(&mut out, fa, fb);
    set_threads(1);
    if out.to_integer() != want || d.mul.mul(a, b) != want || d.one.mul(a, b) != want {
        return Err(Error::Internal(format!(
            "FLINT's or par-gmp's product differs from mpz_mul at {bits} bits"
        )));
    }
    row.work = format!("product, {bits} bits, against FLINT on {flint_threads} thread(s)");
    row.peer = Some(flint_form(
        &format!("{} fmpz_mul", version()),
        flint_threads,
        batch,
        move |out| mul(out, fa, fb),
    ));
    let (m, one) = (&*d.mul, &*d.one);
    row.par = Some(form("par-gmp", t, move || {
        Ok(per_op(batch, || drop(black_box(m.mul(a, b)))))
    }));
    // parcrypt's best one-thread product beside FLINT's, on every row.
    row.seq = Some(form(
        "par-gmp on 1 thread (NTT above its measured threshold)",
        1,
        move || Ok(per_op(batch, || drop(black_box(one.mul(a, b))))),
    ));
    if flint_threads > 1 {
        row.targets.push(("peer/par", 1.0));
    }
    Ok(())
}

/// A FLINT form on `threads` threads: `op` into one output kept across calls (as `mpz_mul`
/// into a reused integer), FLINT's thread count set before each sample and reset to 1 after:
/// FLINT's idle workers stay alive between calls and take a CPU from whatever runs next (left
/// at 2, the window with parallel products timed after `fmpz_powm` ran at half speed).
fn flint_form<'a>(name: &str, threads: usize, batch: f64, op: impl Fn(&mut Fmpz) + 'a) -> Form<'a> {
    let mut out = Fmpz::new();
    form(name, threads, move || {
        set_threads(threads);
        let t = per_op(batch, || {
            op(&mut out);
            black_box(&out);
        });
        set_threads(1);
        Ok(t)
    })
}

/// `flint-modexp-8192`: FLINT's `fmpz_powm` on N threads against the sliding window and the
/// window with parallel products.
fn modexp_row<'a>(
    row: &mut Row<'a>,
    s: &Setup,
    d: &'a FlintData,
    (b, e, m): (&'a Integer, &'a Integer, &'a Integer),
) -> Result<()> {
    let (t, batch) = (s.threads, s.batch_s);
    let bits = m.significant_bits();
    let want = Integer::from(b.pow_mod_ref(e, m).expect("e >= 0"));
    let (fb, fe, fm) = (&d.flint[0], &d.flint[1], &d.flint[2]);
    let mut out = Fmpz::new();
    set_threads(t);
    powm(&mut out, fb, fe, fm);
    set_threads(1);
    if out.to_integer() != want {
        return Err(Error::Internal(
            "FLINT's fmpz_powm differs from mpz_powm".into(),
        ));
    }
    row.work = format!("modexp, {bits}-bit modulus and exponent, against FLINT on {t} threads");
    row.peer = Some(flint_form(
        &format!("{} fmpz_powm", version()),
        t,
        batch,
        move |out| powm(out, fb, fe, fm),
    ));
    super::rows::our_modexp_forms(row, s, (b, e, m), &want)?;
    row.targets.push(("peer/par", 1.0));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// FLINT's product and powm, on 1 and 2 threads, equal GMP's on random operands.
        #[test]
        fn flint_agrees_with_gmp(seed in any::<u64>(), bits in 1u32..20000) {
            use rand::SeedableRng;
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let a = parcrypt::hazmat::bignum::random_bits(&mut rng, bits);
            let b = parcrypt::hazmat::bignum::random_bits(&mut rng, bits / 2 + 1);
            let m = parcrypt::hazmat::bignum::random_bits(&mut rng, 512) | 1u32;
            for t in [1, 2] {
                let mut out = Fmpz::new();
                set_threads(t);
                mul(&mut out, &Fmpz::from_integer(&a), &Fmpz::from_integer(&b));
                prop_assert_eq!(out.to_integer(), Integer::from(&a * &b));
                if m > 1 {
                    let (fa, fb, fm) = (Fmpz::from_integer(&a), Fmpz::from_integer(&b), Fmpz::from_integer(&m));
                    powm(&mut out, &fa, &fb, &fm);
                    prop_assert_eq!(out.to_integer(), Integer::from(a.pow_mod_ref(&b, &m).unwrap()));
                }
            }
        }
    }
}
