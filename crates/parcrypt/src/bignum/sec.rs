//! GMP's constant-time `mpn_sec_*` functions behind safe, length-checked wrappers, for the
//! key loader's checks and the `gmp-sec` kernel.
//!
//! GMP documents these as taking "the same time and the same cache access patterns for any
//! two same-size arguments" (GMP manual, "Low-level Functions", the `mpn_sec_` family): the
//! work follows the operands' limb counts, never their values. Every limb count here follows
//! from a key's public sizes (a prime's bit length, the modulus'), so a caller that passes
//! fixed-length limbs gets constant time. Scratch space is ours (`*_itch` limbs in a buffer
//! wiped on drop), so GMP allocates nothing.
//!
//! Each wrapper panics on a length mismatch (a caller's bug). The conditions on values GMP
//! states (a divisor's top limb not zero, an odd modulus) are the caller's: they hold for a
//! key's primes and modulus at their public limb counts, and checking them here would branch
//! on a secret.
use super::mpn::Limb;
use gmp_mpfr_sys::gmp::{self, size_t};
use zeroize::Zeroizing;

fn sz(n: usize) -> size_t {
    size_t::try_from(n).expect("limb count fits mp_size_t")
}

fn scratch(limbs: size_t) -> Zeroizing<Vec<Limb>> {
    Zeroizing::new(vec![
        0;
        usize::try_from(limbs).expect("itch is non-negative")
    ])
}

/// `n mod d` into the low `d.len()` limbs of `n` (the limbs above are clobbered): GMP's
/// `mpn_sec_div_r`. Needs `n.len() >= d.len() >= 1` and `d`'s top limb not zero.
pub fn div_r(n: &mut [Limb], d: &[Limb]) {
    assert!(!d.is_empty() && n.len() >= d.len(), "sec_div_r sizes");
    debug_assert!(
        d[d.len() - 1] != 0,
        "sec_div_r: the divisor's top limb is zero"
    );
    // SAFETY: the itch is GMP's own figure for these sizes; sizes checked above.
    let mut tp = scratch(unsafe { gmp::mpn_sec_div_r_itch(sz(n.len()), sz(d.len())) });
    // SAFETY: n and d are valid for their lengths, nn >= dn >= 1, tp holds the itch; `n` is
    // a unique borrow, so it overlaps neither d nor tp.
    unsafe {
        gmp::mpn_sec_div_r(
            n.as_mut_ptr(),
            sz(n.len()),
            d.as_ptr(),
            sz(d.len()),
            tp.as_mut_ptr(),
        )
    };
}

/// `x mod d` as `d.len()` limbs, wiped on drop ([`div_r`] on a copy of `x`, zero-padded to
/// `d.len()` limbs if shorter).
pub fn rem(x: &[Limb], d: &[Limb]) -> Zeroizing<Vec<Limb>> {
    let mut n = Zeroizing::new(vec![0; x.len().max(d.len())]);
    n[..x.len()].copy_from_slice(x);
    div_r(&mut n, d);
    n.truncate(d.len());
    n
}

/// `r = a·b` (`r.len() == a.len() + b.len()`, both non-empty): GMP's `mpn_sec_mul`.
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    assert!(
        !b.is_empty() && r.len() == a.len() + b.len(),
        "sec_mul sizes"
    );
    // SAFETY: GMP's itch for an >= bn >= 1.
    let mut tp = scratch(unsafe { gmp::mpn_sec_mul_itch(sz(a.len()), sz(b.len())) });
    // SAFETY: sizes checked (an >= bn >= 1, rn = an + bn); `r` is a unique borrow.
    unsafe {
        gmp::mpn_sec_mul(
            r.as_mut_ptr(),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
            tp.as_mut_ptr(),
        )
    };
}

/// `r = b^e mod m` (`r.len() == m.len()`), fully reduced, with `e` read over `ebits` bits
/// (`e.len() == ⌈ebits/64⌉`, `ebits >= 1`): GMP's `mpn_sec_powm`. Needs `m` odd, its top limb
/// not zero, and `b` non-empty (any value, any length).
pub fn powm(r: &mut [Limb], b: &[Limb], e: &[Limb], ebits: u32, m: &[Limb]) {
    assert!(
        !m.is_empty()
            && r.len() == m.len()
            && !b.is_empty()
            && ebits >= 1
            && e.len() == ebits.div_ceil(Limb::BITS) as usize,
        "sec_powm sizes"
    );
    let bits = gmp::bitcnt_t::from(ebits);
    // SAFETY: GMP's itch for these sizes.
    let mut tp = scratch(unsafe { gmp::mpn_sec_powm_itch(sz(b.len()), bits, sz(m.len())) });
    // SAFETY: every pointer is valid for the length passed with it; enb >= 1 and e holds
    // ⌈enb/64⌉ limbs; r is a unique borrow.
    unsafe {
        gmp::mpn_sec_powm(
            r.as_mut_ptr(),
            b.as_ptr(),
            sz(b.len()),
            e.as_ptr(),
            bits,
            m.as_ptr(),
            sz(m.len()),
            tp.as_mut_ptr(),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bignum::mpn::{padded, to_integer};
    use proptest::prelude::*;
    use rug::Integer;
    use rug::rand::RandState;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Remainder, product and power against rug, zero and edge values included.
        #[test]
        fn sec_functions_match_rug(seed in any::<u64>(), xl in 1usize..40, dl in 1usize..20, kind in 0u8..4) {
            let mut rng = RandState::new();
            rng.seed(&Integer::from(seed));
            let mut d = Integer::from(Integer::random_bits(64 * dl as u32, &mut rng));
            d.set_bit(64 * dl as u32 - 1 - (seed % 60) as u32, true);
            d.set_bit(0, true);
            let x = match kind {
                0 => Integer::new(),
                1 => Integer::from(&d - 1u32),
                _ => Integer::from(Integer::random_bits(64 * xl as u32, &mut rng)),
            };
            let xlen = xl.max(x.significant_digits::<u64>());
            prop_assert_eq!(to_integer(&rem(&padded(&x, xlen), &padded(&d, dl))), Integer::from(&x % &d));
            let y = Integer::from(Integer::random_bits(64 * dl as u32, &mut rng));
            let mut r = vec![0; xlen + dl];
            mul(&mut r, &padded(&x, xlen), &padded(&y, dl));
            prop_assert_eq!(to_integer(&r), Integer::from(&x * &y));
            let ebits = 1 + (seed % 300) as u32;
            let e = Integer::from(Integer::random_bits(ebits, &mut rng));
            let el = ebits.div_ceil(64) as usize;
            let mut r = vec![0; dl];
            powm(&mut r, &padded(&x, xlen), &padded(&e, el), ebits, &padded(&d, dl));
            let want = Integer::from(x.pow_mod_ref(&e, &d).unwrap());
            prop_assert_eq!(to_integer(&r), want);
        }
    }
}
