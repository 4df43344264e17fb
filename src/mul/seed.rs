//! The seed's figures (seed 003, Bartolini and Peccerillo's "Parallel Karatsuba" slides, see
//! the README's list of papers), to print beside what is measured here.
//!
//! They come from other machines (i7-2600 4c/8t, Xeon E5-2650 v2 8c/16t, i7-6800K 6c/12t),
//! pinned threads, C++ and GMP/MPIR of 2017, and the parallel ones from **3 threads** (caller +
//! 2 helpers): compare shapes and break-even points, not absolute microseconds.

/// Microseconds per product, GMP `mpz_mul` and the sequential `karaMul` (i7-2600), by bits.
pub const GMP_AND_KARA_SEQ_US: [(u32, f64, f64); 7] = [
    (1024, 0.61584, 1.72731),
    (2048, 0.873759, 2.29119),
    (4096, 2.57911, 4.07022),
    (8192, 7.86512, 9.55777),
    (16384, 21.1608, 26.396),
    (32768, 55.902, 67.8586),
    (65536, 153.327, 174.204),
];

/// One parallel figure of the seed: change against GMP and against `karaMul`, as fractions
/// (−0.49 = 49 % faster), where the slide gives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedRatio {
    /// Operand size in bits.
    pub bits: u32,
    /// Time change against GMP `mpz_mul`.
    pub vs_gmp: Option<f64>,
    /// Time change against the sequential `karaMul`.
    pub vs_kara_seq: Option<f64>,
    /// Machine and thread count.
    pub source: &'static str,
}

const fn r(
    bits: u32,
    vs_gmp: Option<f64>,
    vs_kara_seq: Option<f64>,
    source: &'static str,
) -> SeedRatio {
    SeedRatio {
        bits,
        vs_gmp,
        vs_kara_seq,
        source,
    }
}

const I7: &str = "i7-2600, 3 threads";
const E5: &str = "E5-2650 v2, 3 threads";

/// The seed's parallel results by our method name (its `std::async`, `std::thread`,
/// inf-threads and inf-threadsLF).
const PARALLEL: [(&str, SeedRatio); 12] = [
    ("kara-spawn", r(32768, Some(-0.21), Some(-0.35), I7)),
    ("kara-spawn", r(65536, Some(-0.45), Some(-0.52), I7)),
    ("kara-scoped", r(32768, Some(-0.25), Some(-0.37), I7)),
    ("kara-scoped", r(65536, Some(-0.41), Some(-0.48), I7)),
    ("kara-pool", r(16384, Some(-0.21), Some(-0.37), I7)),
    ("kara-pool", r(8192, None, Some(0.0), I7)),
    ("kara-lockfree", r(2048, None, Some(-0.03), I7)),
    ("kara-lockfree", r(4096, Some(0.17), Some(-0.24), E5)),
    ("kara-lockfree", r(8192, Some(-0.33), Some(-0.45), E5)),
    ("kara-lockfree", r(16384, Some(-0.41), Some(-0.54), E5)),
    ("kara-lockfree", r(32768, Some(-0.49), Some(-0.58), E5)),
    ("kara-lockfree", r(65536, Some(-0.55), Some(-0.61), E5)),
];

/// The seed's µs per product for `gmp` and `kara-seq` at `bits` (i7-2600), if it gives one.
pub fn us_per_product(method: &str, bits: u32) -> Option<f64> {
    let row = GMP_AND_KARA_SEQ_US.iter().find(|row| row.0 == bits)?;
    match method {
        "gmp" => Some(row.1),
        "kara-seq" => Some(row.2),
        _ => None,
    }
}

/// The seed's figure for a parallel `method` at `bits`, if the slides give one; for
/// `kara-seq`, its slowdown against GMP computed from the µs table.
pub fn ratio(method: &str, bits: u32) -> Option<SeedRatio> {
    if method == "kara-seq" {
        let (_, gmp, seq) = *GMP_AND_KARA_SEQ_US.iter().find(|row| row.0 == bits)?;
        return Some(r(
            bits,
            Some(seq / gmp - 1.0),
            Some(0.0),
            "i7-2600, 1 thread",
        ));
    }
    PARALLEL
        .iter()
        .find(|(m, s)| *m == method && s.bits == bits)
        .map(|(_, s)| *s)
}

/// The seed's thread-activation figures in µs, (low, high) over its machines, by the name
/// [`Activation::name`](super::handoff::Activation::name) gives.
pub const HANDOFF_US: [(&str, f64, f64); 5] = [
    ("spawn", 4.3, 6.5),
    ("spawn+join", 10.1, 16.0),
    ("condvar-other-core", 2.3, 4.1),
    ("condvar-same-core", 1.3, 1.6),
    ("lockfree-handoff", 0.12, 0.18),
];

/// The seed's range for an activation, as text ("4.3–6.5").
pub fn handoff_range(name: &str) -> Option<String> {
    HANDOFF_US
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, lo, hi)| format!("{lo}–{hi}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        assert_eq!(us_per_product("gmp", 32768), Some(55.902));
        assert_eq!(us_per_product("kara-seq", 1024), Some(1.72731));
        assert_eq!(us_per_product("kara-pool", 1024), None);
        assert_eq!(ratio("kara-lockfree", 32768).unwrap().vs_gmp, Some(-0.49));
        assert!(ratio("kara-lockfree", 1024).is_none());
        let seq = ratio("kara-seq", 65536).unwrap().vs_gmp.unwrap();
        assert!((seq - (174.204 / 153.327 - 1.0)).abs() < 1e-12);
        assert_eq!(handoff_range("spawn").as_deref(), Some("4.3–6.5"));
        assert!(handoff_range("nothing").is_none());
    }
}
