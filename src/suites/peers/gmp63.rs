//! The `gmp63-*` rows of `bench peers`: GMP 6.3 (built from source by gmp-mpfr-sys) as the peer,
//! beside the system GMP 6.2 that parcrypt links. The two cannot share a process (both define
//! `__gmpz_*`), so GMP 6.3 runs in a helper process, `tools/gmp63-peer` (built by
//! `scripts/gmp63-peer.sh`), spoken to by a line protocol on its stdin and stdout (its
//! `protocol.rs`). The helper times its own loop of `reps` operations and reports seconds per
//! operation, so the pipe's round trip is never in a time; `reps` is chosen from the last
//! sample so that one sample takes about the batch time of the in-process forms, and every
//! sample's last result is checked by its low limb.
//!
//! - `gmp63-product-64k`, `gmp63-product-1m`: GMP 6.3's `mpz_mul` against the product rows'
//!   own forms (`rows::product_row`): the system GMP's `mpz_mul` (the `seq` column here, so
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
//! Where this process wipes the system GMP's frees (`parcrypt::bignum::wipe`, as the `parcrypt`
//! command does), the helper is told to wipe GMP 6.3's too, so neither GMP pays alone.
use super::form::{Form, Row, Setup, form};
use crate::error::{Error, Result};
use parcrypt::mul::Multiplier;
use rug::Integer;
use std::cell::RefCell;
use std::io::{BufRead, BufReader};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

/// The `gmp63-*` rows, in the order they run.
pub const ROWS: [&str; 3] = ["gmp63-product-64k", "gmp63-product-1m", "gmp63-modexp-8192"];

/// The environment variable naming the helper when `--gmp63` does not.
pub const ENV: &str = "PARCRYPT_GMP63";

/// The helper's path set by `--gmp63` for this process.
static GIVEN: OnceLock<PathBuf> = OnceLock::new();

/// Uses `path` as the helper for the rest of this process (`bench peers --gmp63 PATH`); false
/// if one was set before (the first stays).
pub fn set_helper(path: PathBuf) -> bool {
    GIVEN.set(path).is_ok()
}

/// Where the helper is looked for, and how that place was chosen (for the error message).
pub fn helper_path() -> (PathBuf, &'static str) {
    let exe = std::env::current_exe().unwrap_or_default();
    locate(GIVEN.get().cloned(), std::env::var_os(ENV), &exe)
}

/// The helper's place: `given` (`--gmp63`), else `env` ([`ENV`], if not empty), else beside
/// `exe`'s target directory. The program is target/<profile>/parcrypt (target/<profile>/deps/…
/// for tests, target/flint/release/parcrypt for the FLINT build): the first ancestor that holds
/// `gmp63/release/gmp63-peer`, else the one two levels up (for the message).
fn locate(
    given: Option<PathBuf>,
    env: Option<std::ffi::OsString>,
    exe: &Path,
) -> (PathBuf, &'static str) {
    if let Some(p) = given {
        return (p, "--gmp63");
    }
    if let Some(p) = env.filter(|p| !p.is_empty()) {
        return (PathBuf::from(p), ENV);
    }
    let under = |dir: &Path| dir.join("gmp63").join("release").join("gmp63-peer");
    let found = exe
        .ancestors()
        .skip(1)
        .take(4)
        .map(under)
        .find(|p| p.is_file());
    let fallback = exe.ancestors().nth(2).map(under).unwrap_or_default();
    (found.unwrap_or(fallback), "the default place")
}

/// Whether the helper is there (the `gmp63-*` rows are then among the default rows).
pub fn available() -> bool {
    helper_path().0.is_file()
}

/// The usage error for row `id` asked for without the helper at `path` (found by `how`).
fn missing(id: &str, path: &Path, how: &str) -> Error {
    Error::InvalidParameter(format!(
        "row {id} needs the GMP 6.3 helper, not found at {} ({how}): build it with \
         scripts/gmp63-peer.sh, or name it with --gmp63 PATH or {ENV}",
        path.display()
    ))
}

/// The usage error for row `id` when [`available`] is false.
pub fn missing_helper(id: &str) -> Error {
    let (path, how) = helper_path();
    missing(id, &path, how)
}

/// A reply line's payload (`ok X` gives `X`, `ok` gives ``), or the helper's error text.
pub fn parse_reply(line: &str) -> std::result::Result<&str, String> {
    let line = line.trim_end_matches(['\n', '\r']);
    if let Some(e) = line.strip_prefix("error: ") {
        return Err(e.to_string());
    }
    match line.strip_prefix("ok") {
        Some("") => Ok(""),
        Some(rest) if rest.starts_with(' ') => Ok(&rest[1..]),
        _ => Err(format!("unexpected reply '{:.40}'", line)),
    }
}

/// A timing payload `<seconds per op> <low limb hex>`: the seconds (finite, > 0) and the limb.
pub fn parse_timing(payload: &str) -> std::result::Result<(f64, u64), String> {
    let mut w = payload.split(' ');
    let (Some(s), Some(low), None) = (w.next(), w.next(), w.next()) else {
        return Err(format!("not '<seconds> <limb>': '{payload:.40}'"));
    };
    let s: f64 = s.parse().map_err(|_| format!("bad seconds '{s:.20}'"))?;
    let low = u64::from_str_radix(low, 16).map_err(|_| format!("bad limb '{low:.20}'"))?;
    if s.is_finite() && s > 0.0 {
        Ok((s, low))
    } else {
        Err(format!("seconds out of range: {s}"))
    }
}

/// The running helper. Its stdin is one end of a socket pair rather than a pipe: `parcrypt`
/// keeps the default action of SIGPIPE (it ends quietly under `| head`), so a write to a pipe
/// whose helper has died would end it without a word; a socket written with `MSG_NOSIGNAL`
/// gives the error instead.
pub struct Helper {
    path: PathBuf,
    child: Child,
    stdin: UnixStream,
    stdout: BufReader<ChildStdout>,
}

/// Writes `line` and a newline to `to` with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, never
/// SIGPIPE).
fn send_line(to: &UnixStream, line: &str) -> std::io::Result<()> {
    let bytes = format!("{line}\n").into_bytes();
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        // SAFETY: `rest` is valid for `rest.len()` bytes and the descriptor is open (owned by
        // `to`); send only reads the buffer.
        let n = unsafe {
            libc::send(
                to.as_raw_fd(),
                rest.as_ptr().cast(),
                rest.len(),
                libc::MSG_NOSIGNAL,
            )
        };
        match usize::try_from(n) {
            Ok(n) => rest = &rest[n..],
            Err(_) => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

impl Helper {
    /// Starts the helper found by [`helper_path`] (a usage error naming `id` if it is not there).
    pub fn start(id: &str) -> Result<Self> {
        let (path, how) = helper_path();
        Self::start_at(path, how, id)
    }

    /// Starts the helper at `path` (found by `how`; a usage error naming `id` if it is not there).
    fn start_at(path: PathBuf, how: &str, id: &str) -> Result<Self> {
        if !path.is_file() {
            return Err(missing(id, &path, how));
        }
        let io = |e| Error::Io {
            path: path.clone(),
            source: e,
        };
        let (stdin, theirs) = UnixStream::pair().map_err(io)?;
        let mut child = Command::new(&path)
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(io)?;
        let Some(stdout) = child.stdout.take() else {
            return Err(io(std::io::Error::other("no pipe from the helper")));
        };
        Ok(Self {
            path,
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// Sends `request` and gives the reply's payload; the helper's `error:` or silence is a
    /// runtime error naming the helper.
    pub fn ask(&mut self, request: &str) -> Result<String> {
        let io = |e: std::io::Error| Error::Io {
            path: self.path.clone(),
            source: e,
        };
        send_line(&self.stdin, request).map_err(io)?;
        let mut line = String::new();
        if self.stdout.read_line(&mut line).map_err(io)? == 0 {
            return Err(io(std::io::Error::other(
                "the helper ended without a reply",
            )));
        }
        let verb = request.split(' ').next().unwrap_or_default();
        parse_reply(&line)
            .map(str::to_string)
            .map_err(|e| io(std::io::Error::other(format!("{verb}: {e}"))))
    }

    /// Runs `verb` (`mul`, `powm`) once on the loaded operands: the result, for the check
    /// against the system GMP, and the seconds it took (the first `reps` come from it).
    fn result_of(&mut self, verb: &str) -> Result<(Integer, f64)> {
        let other = |path: &Path, e: String| Error::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e),
        };
        let timing = self.ask(&format!("{verb} 1"))?;
        let (secs, _) = parse_timing(&timing).map_err(|e| other(&self.path, e))?;
        let hex = self.ask("result")?;
        let got =
            Integer::from_str_radix(&hex, 16).map_err(|e| other(&self.path, e.to_string()))?;
        Ok((got, secs))
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        // The end of its input ends the helper; one still running 2 s later is killed.
        let _ = self.stdin.shutdown(std::net::Shutdown::Write);
        let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while matches!(self.child.try_wait(), Ok(None)) && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
        let version = h.ask("version")?;
        let mut build = h.ask("build")?;
        // The system GMP's frees are wiped in this process (bignum::wipe; the `parcrypt`
        // command installs it at start): the helper's too then, so both pay the same per free.
        if parcrypt::bignum::wipe::installed() {
            h.ask("wipe")?;
            build.push_str(", frees wiped as parcrypt's");
        }
        let hex = |x: &Integer| x.to_string_radix(16);
        let (ints, verb) = if id.ends_with("modexp-8192") {
            let (b, e, m) = crate::suites::modexp::operands(8192, s.seed);
            h.ask(&format!("load-powm {} {} {}", hex(&b), hex(&e), hex(&m)))?;
            (vec![b, e, m], "mpz_powm")
        } else {
            let bits = if id.ends_with("64k") { 65536 } else { 1 << 20 };
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
                    system_gmp_version(),
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

/// The system GMP's version (`gmp_version`), as linked.
pub fn system_gmp_version() -> String {
    // SAFETY: GMP's version string is static and NUL-terminated.
    unsafe { c_text(gmp_mpfr_sys::gmp::version) }
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

    #[test]
    fn replies_parse_and_bad_ones_are_errors() {
        assert_eq!(parse_reply("ok\n"), Ok(""));
        assert_eq!(parse_reply("ok 6.3.0\n"), Ok("6.3.0"));
        assert_eq!(
            parse_reply("error: no result yet"),
            Err("no result yet".into())
        );
        for bad in ["", "\n", "okay", "OK 1", "err: x", "ok\t1"] {
            assert!(parse_reply(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_timing("2.5e-5 ff"), Ok((2.5e-5, 255)));
        for bad in [
            "",
            "1e-3",
            "1e-3 ff 1",
            "x ff",
            "1e-3 zz",
            "0 1",
            "-1 1",
            "NaN 1",
            "inf 1",
        ] {
            assert!(parse_timing(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_helper_is_found_by_flag_then_environment_then_target_directory() {
        let exe = Path::new("/nowhere/target/release/parcrypt");
        let (p, how) = locate(Some("/a".into()), Some("/b".into()), exe);
        assert_eq!((p, how), (PathBuf::from("/a"), "--gmp63"));
        let (p, how) = locate(None, Some("/b".into()), exe);
        assert_eq!((p, how), (PathBuf::from("/b"), ENV));
        let (p, how) = locate(None, Some("".into()), exe);
        assert_eq!(p, PathBuf::from("/nowhere/target/gmp63/release/gmp63-peer"));
        assert_eq!(how, "the default place");
    }

    /// The three rows against the helper where it is built (`scripts/gmp63-peer.sh`; `.ci/run`
    /// builds it, so under CI its absence fails): checked against the system GMP, then measured.
    #[test]
    fn gmp63_rows_are_checked_against_the_system_gmp_and_measured() {
        if !available() {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
            assert!(
                !ci,
                "CI is set but the GMP 6.3 helper is missing: {}",
                missing_helper("-")
            );
            eprintln!("SKIPPED: the GMP 6.3 helper is not built (scripts/gmp63-peer.sh)");
            return;
        }
        let setup = Setup {
            threads: 2,
            openssl_seconds: 1,
            batch_s: 0.001,
            cipher_bytes: 8,
            seed: 3,
            kernel: parcrypt::rsa::kernel::PrivateKernel::Auto,
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
                peer.starts_with("GMP 6.3.") && peer.contains("--enable-fat"),
                "{peer}"
            );
            for t in [rec.peer_s, rec.seq_s, rec.par_s, rec.peer_over_par] {
                assert!(t.is_some_and(|t| t > 0.0 && t.is_finite()), "{id}: {rec:?}");
            }
            assert_eq!(rec.rounds, 2, "{id}");
        }
    }

    #[test]
    fn a_missing_helper_is_a_usage_error_that_says_how_to_build_it() {
        let gone = std::env::temp_dir().join("parcrypt-no-such-gmp63-peer");
        let e = Helper::start_at(gone, ENV, "gmp63-product-64k")
            .err()
            .expect("no helper");
        assert!(e.is_usage(), "{e}");
        let m = e.to_string();
        assert!(
            m.contains("scripts/gmp63-peer.sh") && m.contains("gmp63-product-64k"),
            "{m}"
        );
        assert!(
            m.contains(ENV) && m.contains("parcrypt-no-such-gmp63-peer"),
            "{m}"
        );
    }
}
