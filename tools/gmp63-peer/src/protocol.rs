//! The helper's line protocol: one request per line on stdin, one reply line on stdout, parsed
//! here without touching GMP (so a bad line is an error reply, never a panic).
//!
//! Requests (hex numbers: an optional `-` and at least one hex digit, no prefix):
//!
//! - `version`: `ok <gmp_version>` (the linked GMP's `__gmp_version`, e.g. `6.3.0`);
//! - `build`: `ok <text>`: gmp-mpfr-sys's version and its GMP build (its `configure`, `__GMP_CC`,
//!   `__GMP_CFLAGS`, `GMP_LIMB_BITS`);
//! - `load-mul <a> <b>`: `ok`; the operands of `mul`;
//! - `mul <reps>`: `ok <seconds> <low limb>`: `reps` products `a · b`, each into a fresh
//!   integer (as `rug`'s `Integer::from(a * b)` does), timed in this process: the total over
//!   `reps` (seconds per product), and the last product's lowest 64-bit limb in hex;
//! - `load-powm <base> <exp> <mod>`: `ok`; the operands of `powm` (exp ≥ 0, mod ≠ 0);
//! - `powm <reps>`: as `mul`, for `base^exp mod mod` (`mpz_powm`);
//! - `result`: `ok <hex>`: the last result in full (hex, lower case);
//! - `wipe`: `ok`; from now on GMP's frees zero each block first, as parcrypt's allocator does
//!   to the system GMP in the `parcrypt` process (so both GMPs pay the same per free);
//! - `quit` (or the end of stdin): the helper exits.
//!
//! Any failure is one line `error: ...` and the helper goes on reading.

/// One parsed request.
#[derive(Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// `version`.
    Version,
    /// `build`.
    Build,
    /// `load-mul a b` (hex digits, checked).
    LoadMul(&'a str, &'a str),
    /// `mul reps`.
    Mul(u64),
    /// `load-powm base exp mod` (hex digits, checked).
    LoadPowm(&'a str, &'a str, &'a str),
    /// `powm reps`.
    Powm(u64),
    /// `result`.
    Result,
    /// `wipe`.
    Wipe,
    /// `quit`.
    Quit,
}

/// Whether `s` is a hex number as `mpz_set_str(…, 16)` reads it: an optional `-`, then hex
/// digits only (no spaces, no prefix).
fn is_hex(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Parses one request line (without its newline); the error is the reply's text after
/// `error: `.
pub fn parse(line: &str) -> Result<Request<'_>, String> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Err("empty request".into());
    };
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("{cmd} takes {n} argument(s), got {}", args.len()))
        }
    };
    let hex = |i: usize| -> Result<&str, String> {
        let a = args[i];
        if is_hex(a) {
            Ok(a)
        } else {
            let shown: String = a.chars().take(16).collect();
            Err(format!(
                "{cmd}: argument {} is not a hex number: '{shown}'",
                i + 1
            ))
        }
    };
    let reps = || -> Result<u64, String> {
        match args[0].parse::<u64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!(
                "{cmd}: reps must be a whole number >= 1, got '{}'",
                args[0]
            )),
        }
    };
    Ok(match cmd {
        "version" => want(0).map(|_| Request::Version)?,
        "build" => want(0).map(|_| Request::Build)?,
        "result" => want(0).map(|_| Request::Result)?,
        "wipe" => want(0).map(|_| Request::Wipe)?,
        "quit" => want(0).map(|_| Request::Quit)?,
        "load-mul" => {
            want(2)?;
            Request::LoadMul(hex(0)?, hex(1)?)
        }
        "load-powm" => {
            want(3)?;
            Request::LoadPowm(hex(0)?, hex(1)?, hex(2)?)
        }
        "mul" => {
            want(1)?;
            Request::Mul(reps()?)
        }
        "powm" => {
            want(1)?;
            Request::Powm(reps()?)
        }
        _ => {
            let shown: String = cmd.chars().take(24).collect();
            return Err(format!("unknown request '{shown}'"));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_lines_parse() {
        assert_eq!(parse("version"), Ok(Request::Version));
        assert_eq!(parse("  build \r"), Ok(Request::Build));
        assert_eq!(parse("load-mul ff -A0"), Ok(Request::LoadMul("ff", "-A0")));
        assert_eq!(
            parse("load-powm 2 10 7"),
            Ok(Request::LoadPowm("2", "10", "7"))
        );
        assert_eq!(parse("mul 3"), Ok(Request::Mul(3)));
        assert_eq!(parse("powm 1"), Ok(Request::Powm(1)));
        assert_eq!(parse("result"), Ok(Request::Result));
        assert_eq!(parse("quit"), Ok(Request::Quit));
        assert_eq!(parse("wipe"), Ok(Request::Wipe));
    }

    #[test]
    fn bad_lines_are_errors_not_panics() {
        for bad in [
            "",
            "   ",
            "mull 3",
            "version now",
            "wipe all",
            "mul",
            "mul 0",
            "mul -1",
            "mul 1.5",
            "mul 99999999999999999999999",
            "mul 1 2",
            "load-mul ff",
            "load-mul ff gg",
            "load-mul 0x10 1",
            "load-mul - 1",
            "load-mul ff 1 2",
            "load-powm 1 2",
            "load-powm 1 2 z",
            "powm x",
            "é",
            "\0",
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(!e.is_empty() && !e.contains('\n'), "{bad:?}: {e}");
        }
    }
}
