//! Every wrapper against `rug` arithmetic on random operands, sizes around GMP's thresholds.
use super::*;
use rand::{Rng, SeedableRng};

fn rng(seed: u64) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::seed_from_u64(seed)
}

fn limbs(r: &mut impl Rng, n: usize) -> Vec<Limb> {
    (0..n).map(|_| r.r#gen()).collect()
}

fn int(l: &[Limb]) -> Integer {
    to_integer(l)
}

fn pow_b(n: usize) -> Integer {
    Integer::from(1) << (n as u32 * LIMB_BITS)
}

#[test]
fn products_sums_and_shifts_match_rug() {
    let mut r = rng(1);
    for (an, bn) in [(1, 1), (3, 1), (7, 5), (40, 40), (130, 70), (600, 600)] {
        let (a, b) = (limbs(&mut r, an), limbs(&mut r, bn));
        let mut p = vec![0; an + bn];
        mul(&mut p, &b, &a);
        assert_eq!(int(&p), int(&a) * int(&b));
        let mut s = vec![0; 2 * an];
        sqr(&mut s, &a);
        assert_eq!(int(&s), int(&a).square());
        let mut t = vec![0; an];
        let c = add(&mut t, &a, &b);
        assert_eq!(int(&t) + Integer::from(c) * pow_b(an), int(&a) + int(&b));
        let c = sub(&mut t, &a, &b);
        assert_eq!(int(&t) - Integer::from(c) * pow_b(an), int(&a) - int(&b));
        let mut u = a.clone();
        let carry = add_in(&mut u, &b);
        assert_eq!(
            int(&u) + Integer::from(carry) * pow_b(an),
            int(&a) + int(&b)
        );
        let borrow = sub_in(&mut u, &b);
        assert!(
            u == a && carry == borrow,
            "add then sub is the identity, wrap included"
        );
        let mut v = a.clone();
        let lo = rshift_in(&mut v, 3);
        assert_eq!(int(&v), int(&a) >> 3);
        assert_eq!(lo >> 61, a[0] & 7);
        let mut w = vec![0; an];
        let hi = lshift(&mut w, &a, 5);
        assert_eq!(int(&w) + Integer::from(hi) * pow_b(an), int(&a) << 5);
        let mut x = a.clone();
        let c = rsub_in(&mut x, &a);
        assert_eq!((int(&x), c), (Integer::new(), 0));
    }
    let mut m = vec![Limb::MAX, Limb::MAX, 5];
    assert_eq!(incr(&mut m, 1), 0);
    assert_eq!(m, vec![0, 0, 6]);
    assert_eq!(decr(&mut m, 1), 0);
    assert_eq!(m, vec![Limb::MAX, Limb::MAX, 5]);
    assert_eq!(cmp(&[1, 2], &[2, 1]), std::cmp::Ordering::Greater);
    assert_eq!(trim(&[1, 0, 0]), &[1]);
}

#[test]
fn wrapped_and_low_products_match_rug() {
    let mut r = rng(2);
    for n in [1usize, 9, 12, 13, 64, 100, 128, 257, 600, 1100] {
        let (a, b) = (limbs(&mut r, n), limbs(&mut r, n));
        let mut lo = vec![0; n];
        mullo(&mut lo, &a, &b);
        assert_eq!(
            int(&lo),
            (int(&a) * int(&b)).keep_bits(n as u32 * LIMB_BITS)
        );
        let rn = mulmod_bnm1_next_size(n);
        assert!(rn >= n);
        let mut w = vec![0; rn];
        let mut scratch = Vec::new();
        mulmod_bnm1(&mut w, &a, &b[..n / 2 + 1], &mut scratch);
        let modulus = pow_b(rn) - 1u32;
        let want = int(&a) * int(&b[..n / 2 + 1]) % &modulus;
        assert_eq!(int(&w) % &modulus, want, "bnm1 {n}");
        // The exact product when it fits.
        let rn2 = mulmod_bnm1_next_size(2 * n);
        let mut full = vec![0; rn2];
        mulmod_bnm1(&mut full, &a, &b, &mut scratch);
        assert_eq!(int(&full), int(&a) * int(&b));
    }
}

#[test]
fn fft_products_mod_b_pl_plus_one_match_rug() {
    let mut r = rng(3);
    for n in [600usize, 1000, 3000] {
        let k = fft_best_k(n, false);
        let pl = fft_next_size(n, k);
        assert!(pl >= n && pl % (1 << k) == 0);
        let (a, b) = (limbs(&mut r, pl), limbs(&mut r, pl - 7));
        let mut out = vec![0; pl];
        let top = mul_fft(&mut out, &a, &b, k);
        let modulus = pow_b(pl) + 1u32;
        let got = int(&out) + Integer::from(top) * pow_b(pl);
        assert_eq!(got % &modulus, int(&a) * int(&b) % &modulus);
    }
}

#[test]
fn inverses_and_montgomery_reductions_match_rug() {
    let mut r = rng(4);
    for n in [1usize, 2, 9, 16, 40, 128] {
        let mut m = limbs(&mut r, n);
        m[0] |= 1;
        m[n - 1] |= 1 << 63;
        let mut ip = vec![0; n];
        binvert(&mut ip, &m);
        let bn = pow_b(n);
        assert_eq!(int(&ip) * int(&m) % &bn, 1);
        let (x, y) = (
            int(&limbs(&mut r, n)) % int(&m),
            int(&limbs(&mut r, n)) % int(&m),
        );
        let mut u = padded(&(x.clone() * &y), 2 * n);
        let rinv = Integer::from(bn.invert_ref(&int(&m)).unwrap());
        let want = x * y * rinv % int(&m);
        let minv = ip[0].wrapping_neg();
        let mut out = vec![0; n];
        let mut u1 = u.clone();
        let carry = redc_1(&mut out, &mut u1, &m, minv);
        let got = int(&out) + Integer::from(carry) * &bn;
        assert_eq!(got % int(&m), want);
        if n > 8 {
            redc_n(&mut out, &mut u, &m, &ip);
            assert!(int(&out) < bn);
            assert_eq!(int(&out) % int(&m), want);
        }
    }
}

#[test]
fn integers_round_trip_through_limbs() {
    let x = (Integer::from(1) << 200) + 12345;
    let p = padded(&x, 5);
    assert_eq!(p.len(), 5);
    assert_eq!(to_integer(&p), x);
    let mut y = Integer::from(-7);
    set_integer(&mut y, &[0, 0]);
    assert_eq!(y, 0);
    set_integer(&mut y, &p);
    assert_eq!(y, x);
}
