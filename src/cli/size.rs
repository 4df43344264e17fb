//! The one size syntax of every command (`--size`, `--chunk`, `--cipher-bytes`): a whole
//! number of bytes with an optional unit, case-insensitive, as GNU `dd` and `head -c` read
//! them: `K`, `KiB` = 1024, `M`, `MiB` = 2^20, `G`, `GiB` = 2^30 (binary); `KB`, `MB`, `GB` =
//! 10^3, 10^6, 10^9 (decimal); `B` or nothing = bytes. So `64K` and `64KiB` are the same
//! 65536 bytes, and `1MB` is a million.

/// The units, lower-case, and their bytes.
const UNITS: [(&str, u64); 11] = [
    ("", 1),
    ("b", 1),
    ("k", 1 << 10),
    ("kib", 1 << 10),
    ("kb", 1_000),
    ("m", 1 << 20),
    ("mib", 1 << 20),
    ("mb", 1_000_000),
    ("g", 1 << 30),
    ("gib", 1 << 30),
    ("gb", 1_000_000_000),
];

/// Parses a size: `4096`, `64K`, `64KiB`, `1M`, `1MB` (10^6), `2GiB`; at least 1 byte.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    if num.is_empty() || unit.starts_with(['.', ',']) {
        return Err(format!(
            "size '{s}' must be a whole number of bytes with an optional unit"
        ));
    }
    let Some(&(_, mult)) = UNITS.iter().find(|(u, _)| *u == unit) else {
        return Err(format!(
            "size '{s}' has an unknown unit (use B; K, M, G or KiB, MiB, GiB = 1024^n; KB, MB, GB = 1000^n)"
        ));
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("size '{s}' must be a whole number of bytes with an optional unit"))?;
    match n.checked_mul(mult).map(usize::try_from) {
        Some(Ok(0)) => Err(format!("size must be at least 1 byte, got '{s}'")),
        Some(Ok(v)) => Ok(v),
        _ => Err(format!("size '{s}' is too large")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_decimal_units_as_dd_reads_them() {
        for (text, bytes) in [
            ("4096", 4096),
            ("4096B", 4096),
            ("64K", 65536),
            ("64kib", 65536),
            ("64KB", 64_000),
            ("1M", 1 << 20),
            ("1MiB", 1 << 20),
            ("1MB", 1_000_000),
            ("2G", 2 << 30),
            ("1GB", 1_000_000_000),
            (" 8 K", 8192),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        assert!(parse_size("0").unwrap_err().contains("at least 1 byte"));
        assert!(parse_size("1.5M").unwrap_err().contains("whole number"));
        assert!(parse_size("3XB").unwrap_err().contains("unknown unit"));
        assert!(parse_size("-1").is_err());
        assert!(
            parse_size("99999999999999999999G")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            parse_size("9999999999999G")
                .unwrap_err()
                .contains("too large")
        );
    }
}
