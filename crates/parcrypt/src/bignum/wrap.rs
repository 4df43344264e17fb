//! A wrapped product `x·m mod (B^2h − 1)` for a fixed `m`, as its two residues modulo B^h − 1
//! and B^h + 1 (computable on two threads) and their recombination — the last step of the
//! two-thread Montgomery product ([`super::parmont`]). GMP's `mpn_mulmod_bnm1` does the same
//! split one half after the other; below its FFT range the B^h + 1 half is a plain h-limb
//! product, the B^h − 1 half recurses.
//!
//! With `xm = x·m mod (B^h − 1)` and `xp = x·m mod (B^h + 1)` (at most B^h, so h + 1 limbs),
//! `y = (xm − xp)/2 mod (B^h − 1)` — halving modulo the odd B^h − 1 is a one-bit rotation —
//! and `x·m ≡ xp + (B^h + 1)·y (mod B^2h − 1)`.
use super::mpn::{self, Limb};

/// `a mod (B^h − 1)` into `r` (h limbs; the residue 0 may come out as B^h − 1).
pub fn fold_minus(r: &mut [Limb], a: &[Limb]) {
    let h = r.len();
    let head = a.len().min(h);
    r[..head].copy_from_slice(&a[..head]);
    r[head..].fill(0);
    for chunk in a[head..].chunks(h) {
        let carry = mpn::add_in(r, chunk);
        // B^h ≡ 1: the carry wraps to the bottom (and cannot carry out again).
        mpn::incr(r, carry);
    }
}

/// `a mod (B^h + 1)` into `r` (h + 1 limbs, value at most B^h), for `a` of at most 2h limbs.
pub fn fold_plus(r: &mut [Limb], a: &[Limb]) {
    let h = r.len() - 1;
    assert!(a.len() <= 2 * h, "fold_plus takes at most 2h limbs");
    let head = a.len().min(h);
    r[..head].copy_from_slice(&a[..head]);
    r[head..].fill(0);
    let hi = &a[head..];
    // B^h ≡ −1: subtract the high part; a borrow means the value is r − B^h ≡ r + 1.
    if mpn::sub_in(&mut r[..h], hi) != 0 {
        mpn::incr(r, 1);
    }
}

/// `r = a·b mod (B^h + 1)` (h + 1 limbs, value at most B^h) for `a`, `b` of h + 1 limbs with
/// values at most B^h; `scratch` holds 2h + 2 limbs.
pub fn mul_plus(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let h = r.len() - 1;
    let p = &mut scratch[..2 * h + 2];
    mpn::mul(p, a, b);
    // a·b ≤ B^2h: p = lo + mid·B^h + top·B^2h with top ≤ 1; ≡ lo − mid + top.
    let top = p[2 * h];
    let (lo, rest) = p.split_at_mut(h);
    r[..h].copy_from_slice(lo);
    r[h] = 0;
    if mpn::sub_in(&mut r[..h], &rest[..h]) != 0 {
        mpn::incr(r, 1); // r − B^h ≡ r + 1
    }
    mpn::incr(r, top);
    // r ≤ B^h + 1 here: B^h + L with L ≥ 1 is L − 1.
    if r[h] == 1 && r[..h].iter().any(|&x| x != 0) {
        mpn::decr(&mut r[..h], 1);
        r[h] = 0;
    }
}

/// `out = xp + (B^h + 1)·((xm − xp)/2 mod (B^h − 1))`, reduced mod B^2h − 1 (2h limbs): the
/// product modulo B^2h − 1 from its residues `xm` (h limbs) and `xp` (h + 1 limbs, ≤ B^h).
pub fn recombine(out: &mut [Limb], xm: &[Limb], xp: &[Limb]) {
    let h = xm.len();
    assert!(out.len() == 2 * h && xp.len() == h + 1, "recombine sizes");
    let (y, high) = out.split_at_mut(h);
    // d = xm − xp mod (B^h − 1): every borrow out is a wrap by B^h ≡ 1, taken back by one more
    // decrement.
    y.copy_from_slice(xm);
    let mut borrow = mpn::sub_in(y, &xp[..h]) + mpn::decr(y, xp[h]);
    while borrow != 0 {
        borrow = mpn::decr(y, borrow);
    }
    // y = d/2 mod (B^h − 1): rotate right by one bit.
    let out_bit = mpn::rshift_in(y, 1);
    y[h - 1] |= out_bit;
    high.copy_from_slice(y);
    // + xp (its top limb lands at B^h), wrapping carries out of B^2h.
    let mut carry = mpn::add_in(out, &xp[..h]) + mpn::incr(&mut out[h..], xp[h]);
    while carry != 0 {
        carry = mpn::incr(out, carry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rug::Integer;

    fn int(l: &[Limb]) -> Integer {
        mpn::to_integer(l)
    }

    fn b(h: usize) -> Integer {
        Integer::from(1) << (h as u32 * 64)
    }

    #[test]
    fn residues_fold_multiply_and_recombine() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        for h in [1usize, 2, 8, 33, 64] {
            for case in 0..20 {
                let n = 2 * h - (case % 2);
                let mut a: Vec<Limb> = (0..n).map(|_| rng.r#gen()).collect();
                let mut m: Vec<Limb> = (0..n).map(|_| rng.r#gen()).collect();
                if case == 1 {
                    a.fill(Limb::MAX);
                }
                if case == 2 {
                    m.fill(0);
                }
                let (minus, plus) = (b(h) - 1u32, b(h) + 1u32);
                let (mut am, mut mm) = (vec![0; h], vec![0; h]);
                fold_minus(&mut am, &a);
                fold_minus(&mut mm, &m);
                assert_eq!(int(&am) % &minus, int(&a) % &minus);
                let (mut ap, mut mp) = (vec![0; h + 1], vec![0; h + 1]);
                fold_plus(&mut ap, &a);
                fold_plus(&mut mp, &m);
                assert_eq!(int(&ap), int(&a) % &plus);
                let mut xp = vec![0; h + 1];
                let mut scratch = vec![0; 2 * h + 2];
                mul_plus(&mut xp, &ap, &mp, &mut scratch);
                let want_p = int(&a) * int(&m) % &plus;
                assert_eq!(int(&xp), want_p, "h {h} case {case}");
                let xm = (int(&a) * int(&m) % &minus).to_digits::<Limb>(rug::integer::Order::Lsf);
                let mut xm_l = vec![0; h];
                xm_l[..xm.len()].copy_from_slice(&xm);
                let mut out = vec![0; 2 * h];
                recombine(&mut out, &xm_l, &xp);
                let full = b(2 * h) - 1u32;
                assert_eq!(
                    int(&out) % &full,
                    int(&a) * int(&m) % &full,
                    "h {h} case {case}"
                );
            }
        }
    }

    #[test]
    fn the_zero_residue_written_as_b_to_the_h_minus_one_recombines() {
        let h = 4;
        let xm = vec![Limb::MAX; h]; // B^h − 1 ≡ 0
        let xp = vec![0; h + 1];
        let mut out = vec![0; 2 * h];
        recombine(&mut out, &xm, &xp);
        assert_eq!(int(&out) % (b(2 * h) - 1u32), 0);
    }
}
