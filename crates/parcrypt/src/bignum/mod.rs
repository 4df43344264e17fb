//! A thin layer over `rug::Integer` (GMP): byte conversions, random integers from any RNG,
//! secret integers that are wiped when dropped, GMP's constant-time `mpn_sec_*` functions
//! ([`sec`]) and the constant-time Montgomery kernels ([`ct`]).
pub mod ct;
pub mod mont;
pub mod mpn;
pub mod parmont;
pub mod sec;
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
/// **Variable-time**: the work follows the value's significant length (its leading zero bytes),
/// so it is for public values; a secret goes through [`to_be_bytes_fixed`].
pub fn to_be_bytes_vartime(x: &Integer, len: usize) -> Option<Vec<u8>> {
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

/// I2OSP in constant time, from fixed-length limbs: `limbs` (least significant first, a value
/// below 256^`out.len()`) to exactly `out.len()` big-endian bytes.
///
/// Every byte of `out` is written from the same place whatever the value: no branch or index
/// depends on its leading zeros (unlike [`to_be_bytes_vartime`], whose work follows the value's length).
/// The lengths are public; `limbs` must hold at least `out.len()` bytes (a bug otherwise, so a
/// panic). Bytes of `limbs` beyond `out.len()` must be zero and are not read.
pub fn limbs_to_be_bytes(limbs: &[mpn::Limb], out: &mut [u8]) {
    const BYTES: usize = (mpn::LIMB_BITS / 8) as usize;
    assert!(
        limbs.len() * BYTES >= out.len(),
        "{} limbs cannot fill {} bytes",
        limbs.len(),
        out.len()
    );
    for (i, byte) in out.iter_mut().rev().enumerate() {
        *byte = (limbs[i / BYTES] >> (8 * (i % BYTES))) as u8;
    }
}

/// I2OSP of a secret value known to lie below 256^`out.len()` (an RSA plaintext below n):
/// exactly `out.len()` big-endian bytes, through a fixed number of limbs and
/// [`limbs_to_be_bytes`].
///
/// The byte conversion does not depend on the value's leading zero bytes. What remains
/// value-dependent is GMP's own representation: copying `x`'s limbs costs one copy per
/// significant limb, so a value whose whole top limb is zero is copied one limb shorter — the
/// same information GMP's arithmetic that produced `x` already spent (its results are
/// normalized to their significant limbs). A kernel that keeps fixed-length limbs throughout
/// calls [`limbs_to_be_bytes`] directly.
///
/// Panics if `x` needs more limbs than `out.len()` bytes fill (a caller's bug: the value is
/// known to be in range).
pub fn to_be_bytes_fixed(x: &Integer, out: &mut [u8]) {
    const BYTES: usize = (mpn::LIMB_BITS / 8) as usize;
    debug_assert!(*x >= 0 && x.significant_bits() as usize <= 8 * out.len());
    let mut limbs = zeroize::Zeroizing::new(vec![0 as mpn::Limb; out.len().div_ceil(BYTES)]);
    x.write_digits(&mut limbs[..], Order::Lsf);
    limbs_to_be_bytes(&limbs, out);
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
        assert_eq!(to_be_bytes_vartime(&x, 4).unwrap(), vec![0, 0, 1, 2]);
        assert_eq!(to_be_bytes_vartime(&x, 1), None);
        assert_eq!(to_be_bytes_vartime(&Integer::from(-1), 4), None);
        assert_eq!(to_be_bytes_vartime(&Integer::new(), 2).unwrap(), vec![0, 0]);
    }

    #[test]
    fn fixed_length_i2osp_agrees_with_the_variable_one() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        for len in [1usize, 7, 8, 9, 63, 64, 65, 255, 256, 257] {
            let top = Integer::from(1) << (8 * len as u32);
            let mut values = vec![Integer::new(), Integer::from(1), Integer::from(&top - 1u32)];
            values.extend((0..20).map(|_| random_below(&mut rng, &top)));
            // Leading zero bytes: the top byte cleared, and only the low byte left.
            values.push(Integer::from(&values[3] >> 8u32));
            values.push(Integer::from(&values[4] & 0xffu32));
            for x in values {
                let mut out = vec![0xa5u8; len];
                to_be_bytes_fixed(&x, &mut out);
                assert_eq!(
                    Some(out),
                    to_be_bytes_vartime(&x, len),
                    "{len} bytes, {x:x}"
                );
            }
        }
        let limbs: [mpn::Limb; 2] = [0x0102_0304_0506_0708, 0x0a0b];
        let mut out = [0u8; 10];
        limbs_to_be_bytes(&limbs, &mut out);
        assert_eq!(out, [0x0a, 0x0b, 1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    #[should_panic(expected = "cannot fill")]
    fn too_few_limbs_for_the_length_is_a_bug() {
        limbs_to_be_bytes(&[1], &mut [0u8; 9]);
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
