//! A thin layer over `rug::Integer` (GMP): byte conversions, random integers from any RNG,
//! and secret integers that are wiped when dropped.
pub mod ct;
pub mod mont;
pub mod mpn;
pub mod parmont;
pub mod secret;
pub mod wipe;
pub mod wrap;

pub use secret::SecretInteger;

use rand::RngCore;
use rug::Integer;
use rug::integer::Order;

/// OS2IP (RFC 8017): big-endian bytes to a non-negative integer.
pub fn from_be_bytes(bytes: &[u8]) -> Integer {
    Integer::from_digits(bytes, Order::Msf)
}

/// I2OSP (RFC 8017): a non-negative integer to exactly `len` big-endian bytes.
///
/// Returns `None` when the integer is negative or needs more than `len` bytes.
pub fn to_be_bytes(x: &Integer, len: usize) -> Option<Vec<u8>> {
    if *x < 0 {
        return None;
    }
    let digits: Vec<u8> = x.to_digits(Order::Msf);
    if digits.len() > len {
        return None;
    }
    let mut out = vec![0u8; len];
    out[len - digits.len()..].copy_from_slice(&digits);
    Some(out)
}

/// The number of bytes needed for `bits` bits.
pub fn byte_len(bits: u32) -> usize {
    (bits as usize).div_ceil(8)
}

/// A uniformly random integer of at most `bits` bits drawn from `rng`.
pub fn random_bits<R: RngCore + ?Sized>(rng: &mut R, bits: u32) -> Integer {
    let mut buf = vec![0u8; byte_len(bits)];
    rng.fill_bytes(&mut buf);
    let extra = buf.len() * 8 - bits as usize;
    if extra > 0 {
        buf[0] &= 0xff >> extra;
    }
    let x = from_be_bytes(&buf);
    zeroize::Zeroize::zeroize(&mut buf);
    x
}

/// A uniformly random integer in `[0, bound)`, by rejection sampling. `bound` must be positive.
pub fn random_below<R: RngCore + ?Sized>(rng: &mut R, bound: &Integer) -> Integer {
    assert!(*bound > 0, "random_below needs a positive bound");
    let bits = bound.significant_bits();
    loop {
        let x = random_bits(rng, bits);
        if x < *bound {
            return x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn bytes_round_trip_with_leading_zeros() {
        let x = from_be_bytes(&[0, 0, 1, 2]);
        assert_eq!(x, 258);
        assert_eq!(to_be_bytes(&x, 4).unwrap(), vec![0, 0, 1, 2]);
        assert_eq!(to_be_bytes(&x, 1), None);
        assert_eq!(to_be_bytes(&Integer::from(-1), 4), None);
        assert_eq!(to_be_bytes(&Integer::new(), 2).unwrap(), vec![0, 0]);
    }

    #[test]
    fn random_values_respect_their_bounds() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for bits in [1u32, 7, 8, 9, 64, 65, 521] {
            for _ in 0..50 {
                assert!(random_bits(&mut rng, bits).significant_bits() <= bits);
            }
        }
        let bound = Integer::from(1000);
        for _ in 0..200 {
            let x = random_below(&mut rng, &bound);
            assert!(x >= 0 && x < bound);
        }
    }
}
