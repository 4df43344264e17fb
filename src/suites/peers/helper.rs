//! The GMP 6.3 helper process of `bench peers`' `gmp63-*` rows ([`super::gmp63`]): where it is
//! found, how it is started and asked, and its replies read. The helper, `tools/gmp63-peer`
//! (built by `scripts/gmp63-peer.sh`), speaks a line protocol on its stdin and stdout (its
//! `protocol.rs`): one request a line, one reply a line, `ok ...` or `error: ...`.
//!
//! It is the file given by `bench peers --gmp63 PATH` ([`set_helper`]), else by the environment
//! variable `PARCRYPT_GMP63` ([`ENV`]), else `gmp63/release/gmp63-peer` in the target directory
//! the running program was built in (where `scripts/gmp63-peer.sh` puts it).
use crate::error::{Error, Result};
use rug::Integer;
use std::io::{BufRead, BufReader};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

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

    /// The helper's GMP version (`version`); another GMP than 6.3 is refused, named.
    pub fn gmp_version(&mut self) -> Result<String> {
        let version = self.ask("version")?;
        if version.starts_with("6.3.") {
            return Ok(version);
        }
        let e = format!("its GMP is '{version:.20}', not 6.3 (rebuild: scripts/gmp63-peer.sh)");
        Err(Error::Io {
            path: self.path.clone(),
            source: std::io::Error::other(e),
        })
    }

    /// Runs `verb` (`mul`, `powm`) once on the loaded operands: the result, for the check
    /// against the system GMP, and the seconds it took (the first `reps` come from it).
    pub fn result_of(&mut self, verb: &str) -> Result<(Integer, f64)> {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The helper where it is built; under CI (which builds it) its absence fails.
    pub(crate) fn built_or_skip() -> bool {
        if available() {
            return true;
        }
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "CI is set but the GMP 6.3 helper is missing: {}",
            missing_helper("-")
        );
        eprintln!("SKIPPED: the GMP 6.3 helper is not built (scripts/gmp63-peer.sh)");
        false
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// GMP 6.3's product and powm in the helper equal the system GMP's on random operands
        /// of any sign and size (the product) and any odd or even modulus (powm).
        #[test]
        fn the_helper_agrees_with_the_system_gmp(seed in any::<u64>(), bits in 1u32..40000) {
            if !built_or_skip() {
                return Ok(());
            }
            use rand::SeedableRng;
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let a = parcrypt::hazmat::bignum::random_bits(&mut rng, bits);
            let b = -parcrypt::hazmat::bignum::random_bits(&mut rng, bits / 3 + 1);
            let m = parcrypt::hazmat::bignum::random_bits(&mut rng, 600) + 1u32;
            let mut h = Helper::start("test").unwrap();
            let hex = |x: &Integer| x.to_string_radix(16);
            h.ask(&format!("load-mul {} {}", hex(&a), hex(&b))).unwrap();
            prop_assert_eq!(h.result_of("mul").unwrap().0, Integer::from(&a * &b));
            h.ask(&format!("load-powm {} {} {}", hex(&b), hex(&a), hex(&m))).unwrap();
            let want = Integer::from(b.pow_mod_ref(&a, &m).unwrap());
            prop_assert_eq!(h.result_of("powm").unwrap().0, want);
        }
    }

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
