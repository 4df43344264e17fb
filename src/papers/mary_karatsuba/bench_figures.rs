//! The seed's figures (m-ary/Karatsuba, Bartolini and Peccerillo's "Parallel Karatsuba" slides, see
//! the README's list of papers), to print beside what is measured here.
//!
//! They come from other machines (i7-2600 4c/8t, Xeon E5-2650 v2 8c/16t, i7-6800K 6c/12t),
//! pinned threads, C++ and GMP/MPIR of 2017, and the parallel ones from **3 threads** (caller +
//! 2 helpers): compare shapes and break-even points, not absolute microseconds.

/// Microseconds per product, GMP `mpz_mul` and the sequential `karaMul` (i7-2600), by bits
/// (from the claims registry).
pub const GMP_AND_KARA_SEQ_US: [(u32, f64, f64); 7] = crate::claims::mary_karatsuba::KARATSUBA_US;

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
    crate::claims::mary_karatsuba::KARATSUBA_PARALLEL
        .iter()
        .find(|p| p.0 == method && p.1 == bits)
        .map(|p| r(p.1, p.2, p.3, p.4))
}

/// The seed's thread-activation figures in µs, (low, high) over its machines, by the name
/// [`Activation::name`](crate::suites::mul_handoff::Activation::name) gives (from the claims registry).
pub const HANDOFF_US: [(&str, f64, f64); 5] = crate::claims::mary_karatsuba::HANDOFF_US;

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
