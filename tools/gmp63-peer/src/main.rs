//! `gmp63-peer`: GMP 6.3 (the copy gmp-mpfr-sys bundles, built from source) in a process of its
//! own, so that `parcrypt bench peers` can time it beside the system GMP 6.2 it links (the two
//! cannot share a process: both define `__gmpz_*`). It reads requests on stdin and answers one
//! line each ([`protocol`]); times are taken here, around the GMP calls only, so the pipe's
//! round trip is never in them.
mod protocol;
mod wipe;

use gmp_mpfr_sys::gmp;
use protocol::{Request, parse};
use std::ffi::{CStr, CString, c_char};
use std::io::{BufRead, Write};
use std::mem::MaybeUninit;
use std::time::Instant;

/// A GMP integer, cleared on drop.
struct Z(gmp::mpz_t);

impl Z {
    /// Zero.
    fn new() -> Self {
        let mut z = MaybeUninit::uninit();
        // SAFETY: mpz_init initialises the struct it is given; it is only read afterwards.
        unsafe {
            gmp::mpz_init(z.as_mut_ptr());
            Z(z.assume_init())
        }
    }

    /// The number `hex` (checked by the parser: optional `-`, hex digits only).
    fn from_hex(hex: &str) -> Result<Self, String> {
        let s = CString::new(hex).map_err(|_| "a NUL in a number".to_string())?;
        let mut z = Z::new();
        // SAFETY: `z` is initialised and `s` is a NUL-terminated string.
        match unsafe { gmp::mpz_set_str(&mut z.0, s.as_ptr(), 16) } {
            0 => Ok(z),
            _ => Err(format!("GMP refused the hex number starting '{:.16}'", hex)),
        }
    }

    /// The sign: -1, 0 or 1.
    fn sign(&self) -> i32 {
        // SAFETY: `self` is initialised; mpz_sgn only reads it.
        unsafe { gmp::mpz_sgn(&self.0) }
    }

    /// The lowest limb of the absolute value, in hex.
    fn low_limb(&self) -> String {
        // SAFETY: `self` is initialised; mpz_getlimbn gives 0 past the number's size.
        format!("{:x}", unsafe { gmp::mpz_getlimbn(&self.0, 0) })
    }

    /// The number in hex (lower case).
    fn to_hex(&self) -> String {
        // SAFETY: mpz_sizeinbase bounds the digits; 2 more for the sign and the NUL.
        unsafe {
            let mut buf = vec![0 as c_char; gmp::mpz_sizeinbase(&self.0, 16) + 2];
            gmp::mpz_get_str(buf.as_mut_ptr(), 16, &self.0);
            CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
        }
    }
}

impl Drop for Z {
    fn drop(&mut self) {
        // SAFETY: initialised by `Z::new` and cleared once.
        unsafe { gmp::mpz_clear(&mut self.0) }
    }
}

/// A C string of GMP's (`__gmp_version`, `__GMP_CC`, ...) as text.
fn text(p: *const c_char) -> String {
    // SAFETY: GMP's strings are static and NUL-terminated.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The linked GMP's version (`__gmp_version`, e.g. `6.3.0`).
fn gmp_version() -> String {
    // SAFETY: GMP sets this static pointer at link time and never changes it.
    text(unsafe { gmp::version })
}

/// What is loaded, and the last result.
#[derive(Default)]
struct State {
    mul: Option<(Z, Z)>,
    powm: Option<(Z, Z, Z)>,
    last: Option<Z>,
}

impl State {
    /// `reps` operations `op(out)`, each into a fresh integer (the previous result cleared
    /// after the next is made, as `Integer::from(a * b)` in a loop does): seconds per
    /// operation over the whole run, and the last result's low limb.
    fn time(&mut self, reps: u64, op: impl Fn(&mut Z)) -> String {
        let started = Instant::now();
        for _ in 0..reps {
            let mut out = Z::new();
            op(&mut out);
            self.last = Some(out);
        }
        let per_op = started.elapsed().as_secs_f64() / reps as f64;
        let low = self.last.as_ref().map_or("0".into(), Z::low_limb);
        format!("ok {per_op:e} {low}")
    }

    /// The reply to one request line.
    fn answer(&mut self, line: &str) -> Result<String, String> {
        Ok(match parse(line)? {
            Request::Version => format!("ok {}", gmp_version()),
            // gmp-mpfr-sys configures GMP with --enable-fat (kernels picked by CPUID at run
            // time), as Debian's libgmp is built; `scripts/gmp63-peer.sh --host` builds the
            // same source for one CPU family instead (see build.rs).
            Request::Build => format!(
                "ok gmp-mpfr-sys {}, {}, CC={}, CFLAGS={}, {}-bit limbs",
                env!("GMP63_PEER_SYS_VERSION"),
                env!("GMP63_PEER_CONFIGURE"),
                text(gmp::CC),
                text(gmp::CFLAGS),
                gmp::LIMB_BITS,
            ),
            Request::LoadMul(a, b) => {
                self.mul = Some((Z::from_hex(a)?, Z::from_hex(b)?));
                "ok".into()
            }
            Request::LoadPowm(b, e, m) => {
                let (b, e, m) = (Z::from_hex(b)?, Z::from_hex(e)?, Z::from_hex(m)?);
                if e.sign() < 0 || m.sign() == 0 {
                    return Err("powm needs exp >= 0 and mod != 0".into());
                }
                self.powm = Some((b, e, m));
                "ok".into()
            }
            Request::Mul(reps) => {
                let (a, b) = self.mul.take().ok_or("no operands: load-mul first")?;
                // SAFETY: all three integers are initialised; `out` is distinct from a and b.
                let r = self.time(reps, |out| unsafe { gmp::mpz_mul(&mut out.0, &a.0, &b.0) });
                self.mul = Some((a, b));
                r
            }
            Request::Powm(reps) => {
                let (b, e, m) = self.powm.take().ok_or("no operands: load-powm first")?;
                // SAFETY: initialised integers, e >= 0 and m != 0 (checked when loaded).
                let r = self.time(reps, |out| unsafe {
                    gmp::mpz_powm(&mut out.0, &b.0, &e.0, &m.0)
                });
                self.powm = Some((b, e, m));
                r
            }
            Request::Result => {
                let last = self.last.as_ref().ok_or("no result yet")?;
                format!("ok {}", last.to_hex())
            }
            Request::Wipe => {
                wipe::install();
                "ok".into()
            }
            // `main` ends at `quit` before asking here.
            Request::Quit => "ok".into(),
        })
    }
}

fn main() {
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let mut out = stdout.lock();
    let mut state = State::default();
    for line in stdin.lock().lines() {
        let reply = match line {
            Ok(l) if parse(&l) == Ok(Request::Quit) => return,
            Ok(l) => state.answer(&l).unwrap_or_else(|e| format!("error: {e}")),
            Err(e) => format!("error: unreadable request: {e}"),
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_out_of_order_or_out_of_range_are_errors_and_results_are_right() {
        let mut s = State::default();
        for early in [
            "mul 1",
            "powm 1",
            "result",
            "load-powm 3 -1 7",
            "load-powm 3 5 0",
        ] {
            assert!(s.answer(early).is_err(), "{early}");
        }
        assert!(s.answer("version").unwrap().starts_with("ok 6.3."));
        assert_eq!(s.answer("load-mul ff -10").unwrap(), "ok");
        let timing = s.answer("mul 2").unwrap();
        assert!(
            timing.starts_with("ok ") && timing.ends_with(" ff0"),
            "{timing}"
        );
        assert_eq!(s.answer("result").unwrap(), "ok -ff0");
        assert_eq!(s.answer("load-powm 3 5 7").unwrap(), "ok");
        assert!(s.answer("powm 1").unwrap().ends_with(" 5"));
        assert_eq!(s.answer("result").unwrap(), "ok 5");
        // With wiping frees, the same results (blocks from before go back to GMP's free).
        assert_eq!(s.answer("wipe").unwrap(), "ok");
        assert_eq!(s.answer("load-mul -ff ff").unwrap(), "ok");
        assert!(s.answer("mul 3").unwrap().ends_with(" fe01"));
        assert_eq!(s.answer("result").unwrap(), "ok -fe01");
    }
}
