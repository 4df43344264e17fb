//! The sizes parcrypt generates and accepts for RSA keys, shared by two-prime and multi-prime
//! keys: modulus bounds, the default public exponent and the public-exponent check.
use crate::error::{Error, Result};
use rug::Integer;

/// The smallest modulus parcrypt generates or accepts, in bits.
pub const MIN_MODULUS_BITS: u32 = 512;
/// The largest modulus parcrypt generates or reads, in bits: OpenSSL's limit
/// (`OPENSSL_RSA_MAX_MODULUS_BITS`). It keeps generation time bounded, and a key file cannot
/// make one public-key operation take seconds.
pub const MAX_MODULUS_BITS: u32 = 16384;
/// The largest public exponent parcrypt generates or reads, in bits: e < 2^64 (OpenSSL's
/// `RSA_MAX_PUBEXP_BITS`, which it applies to moduli above 3072 bits; parcrypt to every key).
pub const MAX_PUBLIC_EXPONENT_BITS: u32 = 64;
/// The default public exponent, F4 = 2^16 + 1.
pub const DEFAULT_E: u32 = 65537;

/// Checks a public exponent: odd, at least 3, below 2^64 ([`MAX_PUBLIC_EXPONENT_BITS`], OpenSSL's
/// bound; FIPS 186-4's lower bound relaxed from 2^16+1 to 3 so that the classic small exponents
/// of the literature can be studied).
pub fn check_public_exponent(e: &Integer) -> std::result::Result<(), String> {
    if *e < 3 {
        return Err(format!(
            "public exponent {e} is too small (must be odd and >= 3)"
        ));
    }
    if e.is_even() {
        return Err(format!("public exponent {e} is even (must be odd)"));
    }
    if e.significant_bits() > MAX_PUBLIC_EXPONENT_BITS {
        return Err(format!(
            "public exponent of {} bits is above 2^{MAX_PUBLIC_EXPONENT_BITS}, OpenSSL's limit",
            e.significant_bits()
        ));
    }
    Ok(())
}

/// Checks 0 <= x < n for a message or ciphertext representative.
pub(crate) fn check_range(x: &Integer, n: &Integer, what: &str) -> Result<()> {
    if *x < 0 || x >= n {
        let msg = format!("{what} representative must be in [0, n)");
        return Err(if what == "message" {
            Error::MessageTooLong(msg)
        } else {
            Error::InvalidCiphertext(msg)
        });
    }
    Ok(())
}
