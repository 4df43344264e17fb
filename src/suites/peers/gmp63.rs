//! The `gmp63-*` rows of `bench peers`: GMP 6.3 (built from source by gmp-mpfr-sys) as the peer,
//! beside the system GMP 6.2 that parcrypt links. The two cannot share a process (both define
//! `__gmpz_*`), so GMP 6.3 runs in a helper process, `tools/gmp63-peer` (built by
//! `scripts/gmp63-peer.sh`), spoken to by a line protocol on its stdin and stdout (its
//! `protocol.rs`). The helper times its own loop of `reps` operations and reports seconds per
//! operation, so the pipe's round trip is never in a time; `reps` is chosen from the last
//! sample so that one sample takes about the batch time of the in-process forms, and every
//! sample's last result is checked by its low limb.
//!
//! - `gmp63-product-64k`, `gmp63-product-1m`, `gmp63-product-16m`: GMP 6.3's `mpz_mul` against
//!   the product rows' own forms (`rows::product_row`): the system GMP's `mpz_mul` (the `seq` column here, so
//!   `peer/seq` is GMP 6.3 over GMP 6.2), par-gmp, and the ceiling of the GMP 6.2 copies;
//! - `gmp63-modexp-8192`: GMP 6.3's `mpz_powm` against the modexp row's forms
//!   (`rows::modexp_row`: the sliding window, the window with parallel products).
//!
//! The helper is the file given by `bench peers --gmp63 PATH` ([`set_helper`]), else by the
//! environment variable `PARCRYPT_GMP63`, else `gmp63/release/gmp63-peer` in the target
//! directory the running program was built in (where `scripts/gmp63-peer.sh` puts it). Without
//! it these rows are left out of the default set, and asking for one is a usage error that says
//! how to build it. Every result of the helper is compared with the system GMP's before
//! anything is timed; the peer's name in the record carries the helper's GMP version and build.
//! Where this process wipes the system GMP's frees (`parcrypt::hazmat::bignum::wipe`, as the `parcrypt`
//! command does), the helper is told to wipe GMP 6.3's too, so neither GMP pays alone.
use super::form::{Form, Row, Setup, form};
use super::helper::{Helper, parse_timing};
use crate::error::{Error, Result};
use parcrypt::mul::Multiplier;
use rug::Integer;
use std::cell::RefCell;

pub use super::helper::{ENV, available, missing_helper, set_helper};

/// The `gmp63-*` rows, in the order they run.
pub const ROWS: [&str; 4] = [
    "gmp63-product-64k",
    "gmp63-product-1m",
    "gmp63-product-16m",
    "gmp63-modexp-8192",
];

/// A `gmp63-*` row's data: the running helper, its version and build, and the operands in
/// the system GMP (the helper holds its own copies).
pub struct Gmp63Data {
    helper: RefCell<Helper>,
    peer_name: String,
    ints: Vec<Integer>,
    mul: Box<dyn Multiplier>,
}

impl Gmp63Data {
    /// Starts the helper and loads the operands of row `id`, drawn from `seed` as the
    /// product and modexp rows draw them.
    pub fn new(id: &str, s: &Setup) -> Result<Self> {
        let mut h = Helper::start(id)?;
        let version = h.gmp_version()?;
        let mut build = h.ask("build")?;
        // The system GMP's frees are wiped in this process (bignum::wipe; the `parcrypt`
        // command installs it at start): the helper's too then, so both pay the same per free.
        if parcrypt::hazmat::bignum::wipe::installed() {
            h.ask("wipe")?;
            build.push_str(", frees wiped as parcrypt's");
        }
        let hex = |x: &Integer| x.to_string_radix(16);
        let (ints, verb) = if id.ends_with("modexp-8192") {
            let (b, e, m) = crate::suites::modexp::operands(8192, s.seed);
            h.ask(&format!("load-powm {} {} {}", hex(&b), hex(&e), hex(&m)))?;
            (vec![b, e, m], "mpz_powm")
        } else {
            let bits = super::rows::product_bits(id);
            let (a, b) = parcrypt::mul::operands(bits, s.seed);
            h.ask(&format!("load-mul {} {}", hex(&a), hex(&b)))?;
            (vec![a, b], "mpz_mul")
        };
        let mul = parcrypt::mul::par::new(parcrypt::mul::KaraConfig {
            helpers: s.threads - 1,
            ..parcrypt::mul::KaraConfig::default()
        })?;
        Ok(Self {
            helper: RefCell::new(h),
            peer_name: format!("GMP {version} {verb} (gmp63-peer; {build})"),
            ints,
            mul: Box::new(mul),
        })
    }
}

/// The row of `d` (see the module docs): the product or modexp row's own forms, GMP 6.3 as the
/// peer, after the helper's result is checked against the system GMP's.
pub fn row<'a>(row: &mut Row<'a>, s: &Setup, d: &'a Gmp63Data) -> Result<()> {
    let (verb, want) = match &d.ints[..] {
        [b, e, m] => {
            super::rows::modexp_row(row, s, b, e, m)?;
            ("powm", Integer::from(b.pow_mod_ref(e, m).expect("e >= 0")))
        }
        [a, b] => {
            super::rows::product_row(row, s, a, b, &*d.mul)?;
            // The product row's peer, the system GMP's mpz_mul, is this row's `seq`.
            let mut gmp62 = row.peer.take();
            if let Some(f) = gmp62.as_mut() {
                f.name = format!(
                    "system GMP {} mpz_mul ({})",
                    crate::bench::machine::gmp_version(),
                    system_gmp_build()
                );
            }
            row.seq = gmp62;
            ("mul", Integer::from(a * b))
        }
        _ => return Err(Error::Internal("gmp63: operands of an unknown row".into())),
    };
    let (got, secs) = d.helper.borrow_mut().result_of(verb)?;
    if got != want {
        return Err(Error::Internal(format!(
            "GMP 6.3's {verb} (gmp63-peer) differs from the system GMP's"
        )));
    }
    row.work = format!("{}, against GMP 6.3 in a helper process", row.work);
    let low = want
        .to_digits::<u64>(rug::integer::Order::Lsf)
        .first()
        .copied()
        .unwrap_or(0);
    row.peer = Some(peer_form(
        &d.peer_name,
        &d.helper,
        (verb, low),
        secs,
        s.batch_s,
    ));
    Ok(())
}

/// The system GMP's build as its `gmp.h` gives it (`__GMP_CC`, `__GMP_CFLAGS`, read by
/// gmp-mpfr-sys when parcrypt was built).
pub fn system_gmp_build() -> String {
    use gmp_mpfr_sys::gmp::{CC, CFLAGS};
    // SAFETY: both are NUL-terminated constants of gmp-mpfr-sys.
    let (cc, cflags) = unsafe { (c_text(CC), c_text(CFLAGS)) };
    format!("CC={cc}, CFLAGS={cflags}")
}

/// A C string as text.
///
/// # Safety
/// `p` points to a NUL-terminated string that lives as long as the program.
unsafe fn c_text(p: *const std::ffi::c_char) -> String {
    // SAFETY: as the caller promises.
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .into_owned()
}

/// The helper's `verb` as a form: one sample is one request of `reps` operations, timed by the
/// helper (seconds per operation over all `reps`, as [`per_op`](super::form::per_op) gives
/// for a batch); `reps` fills `batch_s` by the last time per operation (`first_s` at first).
/// Every sample's last result must end in the limb `low` of the checked result.
fn peer_form<'a>(
    name: &str,
    helper: &'a RefCell<Helper>,
    (verb, low): (&'static str, u64),
    first_s: f64,
    batch_s: f64,
) -> Form<'a> {
    let fill = move |secs: f64| ((batch_s / secs).ceil() as u64).clamp(1, 1 << 24);
    let mut reps = fill(first_s);
    form(name, 1, move || {
        let payload = helper.borrow_mut().ask(&format!("{verb} {reps}"))?;
        let bad = |e: String| Error::Internal(format!("gmp63-peer {verb}: {e}"));
        let (secs, got) = parse_timing(&payload).map_err(bad)?;
        if got != low {
            return Err(bad(format!("result ends in {got:x}, not {low:x}")));
        }
        reps = fill(secs);
        Ok(secs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three rows against the helper where it is built (`scripts/gmp63-peer.sh`; `.ci/run`
    /// builds it, so under CI its absence fails): checked against the system GMP, then measured.
    #[test]
    fn gmp63_rows_are_checked_against_the_system_gmp_and_measured() {
        if !super::super::helper::tests::built_or_skip() {
            return;
        }
        let setup = Setup {
            threads: 2,
            openssl_seconds: 1,
            batch_s: 0.001,
            cipher_bytes: 8,
            seed: 3,
            kernel: parcrypt::hazmat::kernel::PrivateKernel::Auto,
        };
        let bench = crate::bench::Bench::new(crate::bench::BenchConfig {
            warmup_runs: 0,
            ..crate::bench::BenchConfig::exact(2)
        })
        .unwrap();
        for id in ROWS {
            let data = super::super::rows::data(id, &setup).unwrap();
            let row = super::super::rows::row(id, &setup, &data).unwrap();
            let rec = super::super::measure(row, &bench).unwrap();
            let peer = rec.peer.as_deref().unwrap_or_default();
            assert!(
                peer.starts_with("GMP 6.3.") && peer.contains("configure "),
                "{peer}"
            );
            for t in [rec.peer_s, rec.seq_s, rec.par_s, rec.peer_over_par] {
                assert!(t.is_some_and(|t| t > 0.0 && t.is_finite()), "{id}: {rec:?}");
            }
            assert_eq!(rec.rounds, 2, "{id}");
        }
    }
}
