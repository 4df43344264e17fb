//! The memory a benchmark's buffers will take, checked against what the machine has before
//! anything is allocated: a request that cannot fit is refused with one line naming the limit,
//! instead of aborting on a failed allocation halfway through.
use crate::error::{Error, Result};
use std::path::Path;

/// Physical memory of this machine in bytes (`MemTotal` in `/proc/meminfo`), if known.
pub fn total_memory() -> Option<u64> {
    total_memory_from(Path::new("/proc/meminfo"))
}

/// [`total_memory`] read from another file (tests use a fake one).
pub fn total_memory_from(meminfo: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(meminfo).ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => value.checked_mul(1024),
        _ => None,
    }
}

/// Refuses `needed` bytes (for `what`, e.g. "3 buffers of 200 GiB") when they exceed this
/// machine's memory; passes when the machine's memory is unknown.
pub fn check_fits(needed: u128, what: &str) -> Result<()> {
    check_fits_in(needed, what, total_memory())
}

/// [`check_fits`] against a given memory size.
pub fn check_fits_in(needed: u128, what: &str, total: Option<u64>) -> Result<()> {
    match total {
        Some(total) if needed > u128::from(total) => Err(Error::InvalidParameter(format!(
            "{what} needs {} of memory, more than this machine's {} (MemTotal)",
            human_bytes(needed),
            human_bytes(u128::from(total))
        ))),
        _ => Ok(()),
    }
}

/// Bytes in binary units with one decimal ("1.5 GiB").
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Memory of `count` big integers below 2^`bits` as rug/GMP hold them: the limbs plus the
/// `mpz` header and the allocator's bookkeeping (32 bytes, generously).
pub fn integers_bytes(count: usize, bits: u64) -> u128 {
    let limbs = bits.div_ceil(64).max(1);
    count as u128 * u128::from(limbs * 8 + 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_kib() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("meminfo");
        std::fs::write(&p, "MemTotal:       16384 kB\nMemFree: 1 kB\n").unwrap();
        assert_eq!(total_memory_from(&p), Some(16 << 20));
        std::fs::write(&p, "nothing here\n").unwrap();
        assert_eq!(total_memory_from(&p), None);
        assert_eq!(total_memory_from(&dir.path().join("missing")), None);
    }

    #[test]
    fn too_much_is_refused_with_the_limit_named() {
        let gib = 1u128 << 30;
        let err = check_fits_in(600 * gib, "3 buffers of 200 GiB", Some(16 << 30))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("600.0 GiB") && err.contains("16.0 GiB"),
            "{err}"
        );
        assert!(check_fits_in(gib, "x", Some(16 << 30)).is_ok());
        assert!(check_fits_in(600 * gib, "x", None).is_ok());
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(integers_bytes(2, 512), 2 * (64 + 32));
    }
}
