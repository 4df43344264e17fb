//! GMP's `mpn` layer (natural numbers as little-endian limb slices) behind safe, length-checked
//! wrappers: the kernels of the parallel products and the Montgomery modular product.
//!
//! Two kinds of entry points:
//! - documented `mpn_*` functions, through `gmp_mpfr_sys::gmp`;
//! - five GMP-internal ones that `mpz_mul` and `mpz_powm` use themselves and that no documented
//!   function exposes: the product mod B^n − 1 (`mpn_mulmod_bnm1`), the Schönhage–Strassen
//!   product mod B^n + 1 (`mpn_mul_fft`), the low half of a product (`mpn_mullo_n`), the
//!   inverse mod B^n (`mpn_binvert`) and Montgomery reduction (`mpn_redc_1`, `mpn_redc_n`).
//!   GMP exports them from `libgmp` (as `__gmpn_*`) but marks them internal. Their
//!   signatures are those of GMP 6.2 (the version this project pins, see Cargo.toml); each
//!   wrapper checks the preconditions GMP states in its sources, so no call can break them.
//!
//! Every function panics on a length mismatch (a bug in the caller, never bad user input).
use gmp_mpfr_sys::gmp::{self, limb_t, size_t};
use rug::Integer;

/// A GMP limb (64 bits on the machines we target).
pub type Limb = limb_t;
/// Bits per limb.
pub const LIMB_BITS: u32 = Limb::BITS;

mod internal {
    use gmp_mpfr_sys::gmp::{limb_t, size_t};
    unsafe extern "C" {
        #[link_name = "__gmpn_mulmod_bnm1"]
        pub fn mulmod_bnm1(
            rp: *mut limb_t,
            rn: size_t,
            ap: *const limb_t,
            an: size_t,
            bp: *const limb_t,
            bn: size_t,
            tp: *mut limb_t,
        );
        #[link_name = "__gmpn_mulmod_bnm1_next_size"]
        pub fn mulmod_bnm1_next_size(n: size_t) -> size_t;
        #[link_name = "__gmpn_mul_fft"]
        pub fn mul_fft(
            op: *mut limb_t,
            pl: size_t,
            np: *const limb_t,
            nl: size_t,
            mp: *const limb_t,
            ml: size_t,
            k: i32,
        ) -> limb_t;
        #[link_name = "__gmpn_fft_best_k"]
        pub fn fft_best_k(n: size_t, sqr: i32) -> i32;
        #[link_name = "__gmpn_fft_next_size"]
        pub fn fft_next_size(pl: size_t, k: i32) -> size_t;
        #[link_name = "__gmpn_mullo_n"]
        pub fn mullo_n(rp: *mut limb_t, ap: *const limb_t, bp: *const limb_t, n: size_t);
        #[link_name = "__gmpn_binvert"]
        pub fn binvert(rp: *mut limb_t, up: *const limb_t, n: size_t, scratch: *mut limb_t);
        #[link_name = "__gmpn_binvert_itch"]
        pub fn binvert_itch(n: size_t) -> size_t;
        #[link_name = "__gmpn_redc_1"]
        pub fn redc_1(
            rp: *mut limb_t,
            up: *mut limb_t,
            mp: *const limb_t,
            n: size_t,
            invm: limb_t,
        ) -> limb_t;
        #[link_name = "__gmpn_redc_n"]
        pub fn redc_n(
            rp: *mut limb_t,
            up: *mut limb_t,
            mp: *const limb_t,
            n: size_t,
            ip: *const limb_t,
        );
    }
}

fn sz(n: usize) -> size_t {
    size_t::try_from(n).expect("limb count fits mp_size_t")
}

/// `r = a·b` with `r.len() == a.len() + b.len()`, both operands non-empty (any order).
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    assert!(
        !b.is_empty() && r.len() == a.len() + b.len(),
        "mpn mul sizes"
    );
    // SAFETY: a.len() >= b.len() >= 1 and r holds a.len() + b.len() limbs; `r` is a unique
    // borrow, so it overlaps neither operand.
    unsafe {
        gmp::mpn_mul(
            r.as_mut_ptr(),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
        )
    };
}

/// `r = a²` with `r.len() == 2·a.len()`, `a` non-empty.
pub fn sqr(r: &mut [Limb], a: &[Limb]) {
    assert!(!a.is_empty() && r.len() == 2 * a.len(), "mpn sqr sizes");
    // SAFETY: sizes checked; `r` does not overlap `a` (unique borrow).
    unsafe { gmp::mpn_sqr(r.as_mut_ptr(), a.as_ptr(), sz(a.len())) };
}

/// `r = a + b` over `a.len()` limbs (`a.len() >= b.len()`, `r.len() == a.len()`); the carry.
pub fn add(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(r.len() == a.len() && a.len() >= b.len(), "mpn add sizes");
    if b.is_empty() {
        r.copy_from_slice(a);
        return 0;
    }
    // SAFETY: sizes checked (GMP needs s1n >= s2n >= 1); no overlap (unique borrow of r).
    unsafe {
        gmp::mpn_add(
            r.as_mut_ptr(),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
        )
    }
}

/// `r = a − b` over `a.len()` limbs (`a.len() >= b.len()`, `r.len() == a.len()`); the borrow.
pub fn sub(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(r.len() == a.len() && a.len() >= b.len(), "mpn sub sizes");
    if b.is_empty() {
        r.copy_from_slice(a);
        return 0;
    }
    // SAFETY: as in `add`.
    unsafe {
        gmp::mpn_sub(
            r.as_mut_ptr(),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
        )
    }
}

/// `r += b` over `r.len()` limbs (`r.len() >= b.len()`); the carry out of `r`.
pub fn add_in(r: &mut [Limb], b: &[Limb]) -> Limb {
    assert!(r.len() >= b.len(), "mpn add_in sizes");
    if b.is_empty() {
        return 0;
    }
    let p = r.as_mut_ptr();
    // SAFETY: GMP allows the result to be exactly the first operand (rp == s1p); sizes
    // checked; `b` cannot overlap `r` (r is uniquely borrowed).
    unsafe { gmp::mpn_add(p, p, sz(r.len()), b.as_ptr(), sz(b.len())) }
}

/// `r −= b` over `r.len()` limbs (`r.len() >= b.len()`); the borrow out of `r`.
pub fn sub_in(r: &mut [Limb], b: &[Limb]) -> Limb {
    assert!(r.len() >= b.len(), "mpn sub_in sizes");
    if b.is_empty() {
        return 0;
    }
    let p = r.as_mut_ptr();
    // SAFETY: as in `add_in`.
    unsafe { gmp::mpn_sub(p, p, sz(r.len()), b.as_ptr(), sz(b.len())) }
}

/// `r = b − r` over equal lengths; the borrow.
pub fn rsub_in(r: &mut [Limb], b: &[Limb]) -> Limb {
    assert!(r.len() == b.len(), "mpn rsub_in sizes");
    if r.is_empty() {
        return 0;
    }
    let p = r.as_mut_ptr();
    // SAFETY: GMP allows rp == s2p for mpn_sub_n; equal sizes checked; no other overlap.
    unsafe { gmp::mpn_sub_n(p, b.as_ptr(), p, sz(r.len())) }
}

/// `r += c` (a single limb) with carry propagation; the carry out of `r`.
pub fn incr(r: &mut [Limb], c: Limb) -> Limb {
    let mut carry = c;
    for x in r.iter_mut() {
        if carry == 0 {
            break;
        }
        let (s, o) = x.overflowing_add(carry);
        *x = s;
        carry = Limb::from(o);
    }
    carry
}

/// `r −= c` (a single limb) with borrow propagation; the borrow out of `r`.
pub fn decr(r: &mut [Limb], c: Limb) -> Limb {
    let mut borrow = c;
    for x in r.iter_mut() {
        if borrow == 0 {
            break;
        }
        let (s, o) = x.overflowing_sub(borrow);
        *x = s;
        borrow = Limb::from(o);
    }
    borrow
}

/// `r = r >> count` for `1 <= count < 64`; the bits shifted out, at the top of the limb.
pub fn rshift_in(r: &mut [Limb], count: u32) -> Limb {
    assert!(
        (1..LIMB_BITS).contains(&count) && !r.is_empty(),
        "mpn rshift"
    );
    let p = r.as_mut_ptr();
    // SAFETY: GMP allows rp == up for mpn_rshift; 1 <= count < GMP_NUMB_BITS; n >= 1.
    unsafe { gmp::mpn_rshift(p, p, sz(r.len()), count) }
}

/// `r = a << count` for `1 <= count < 64` (`r.len() == a.len()`); the bits shifted out, at the
/// bottom of the limb.
pub fn lshift(r: &mut [Limb], a: &[Limb], count: u32) -> Limb {
    assert!(
        (1..LIMB_BITS).contains(&count) && !a.is_empty() && r.len() == a.len(),
        "mpn lshift"
    );
    // SAFETY: sizes and count checked; no overlap (unique borrow of r).
    unsafe { gmp::mpn_lshift(r.as_mut_ptr(), a.as_ptr(), sz(a.len()), count) }
}

/// `r = r << count` for `1 <= count < 64`; the bits shifted out, at the bottom of the limb.
pub fn lshift_in(r: &mut [Limb], count: u32) -> Limb {
    assert!(
        (1..LIMB_BITS).contains(&count) && !r.is_empty(),
        "mpn lshift"
    );
    let p = r.as_mut_ptr();
    // SAFETY: GMP allows rp == up for mpn_lshift (rp >= up); 1 <= count < GMP_NUMB_BITS.
    unsafe { gmp::mpn_lshift(p, p, sz(r.len()), count) }
}

/// Compares two equal-length numbers.
pub fn cmp(a: &[Limb], b: &[Limb]) -> std::cmp::Ordering {
    assert_eq!(a.len(), b.len(), "mpn cmp sizes");
    a.iter().rev().cmp(b.iter().rev())
}

/// The low `n = r.len()` limbs of `a·b`, for `a.len() == b.len() == n >= 1` (GMP-internal
/// `mpn_mullo_n`).
pub fn mullo(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    assert!(n >= 1 && a.len() == n && b.len() == n, "mpn mullo sizes");
    // SAFETY: three n-limb areas, n >= 1; r does not overlap the operands (unique borrow).
    unsafe { internal::mullo_n(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), sz(n)) };
}

/// The size GMP would pick for a product mod B^rn − 1 of at least `n` limbs.
pub fn mulmod_bnm1_next_size(n: usize) -> usize {
    assert!(n >= 1);
    // SAFETY: a pure function of n >= 1.
    let rn = unsafe { internal::mulmod_bnm1_next_size(sz(n)) };
    usize::try_from(rn).expect("positive size")
}

/// `r = a·b mod (B^rn − 1)` with `rn = r.len()` (GMP-internal `mpn_mulmod_bnm1`). Needs
/// `1 <= b.len() <= a.len() <= rn` (swapped if needed) and `a.len() + b.len() > rn / 2`. The
/// residue 0 may come back as B^rn − 1 unless an operand is zero; when
/// `a.len() + b.len() <= rn` the result is the exact product (zero-padded to `rn` limbs).
pub fn mulmod_bnm1(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut Vec<Limb>) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let rn = r.len();
    assert!(
        !b.is_empty() && a.len() <= rn && a.len() + b.len() > rn / 2,
        "mpn mulmod_bnm1 sizes"
    );
    // GMP's bound on the scratch: S(rn) <= 2 rn + 4.
    scratch.resize(scratch.len().max(2 * rn + 8), 0);
    if a.len() + b.len() < rn {
        // GMP writes only min(rn, an + bn) limbs.
        r[a.len() + b.len()..].fill(0);
    }
    // SAFETY: sizes as GMP requires them (checked above), r holds rn limbs, the scratch at
    // least 2 rn + 4; no area overlaps another (distinct borrows).
    unsafe {
        internal::mulmod_bnm1(
            r.as_mut_ptr(),
            sz(rn),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
            scratch.as_mut_ptr(),
        )
    };
}

/// GMP's best FFT depth k for a product mod B^n + 1 (`sqr`: for a squaring).
pub fn fft_best_k(n: usize, sqr: bool) -> u32 {
    // SAFETY: a pure function of its arguments.
    let k = unsafe { internal::fft_best_k(sz(n), i32::from(sqr)) };
    u32::try_from(k).expect("k >= 0")
}

/// The smallest size >= `n` that an FFT of depth `k` accepts (a multiple of 2^k).
pub fn fft_next_size(n: usize, k: u32) -> usize {
    // SAFETY: a pure function of its arguments.
    let pl = unsafe { internal::fft_next_size(sz(n), k as i32) };
    usize::try_from(pl).expect("positive size")
}

/// `a·b mod (B^pl + 1)` by Schönhage–Strassen (GMP-internal `mpn_mul_fft`), `pl = r.len()`:
/// the low `pl` limbs go to `r`, the return value is the limb of weight B^pl (0 or 1). Needs
/// `fft_next_size(pl, k) == pl`, `k >= 4`, and operands of at most `pl + 1` limbs.
pub fn mul_fft(r: &mut [Limb], a: &[Limb], b: &[Limb], k: u32) -> Limb {
    let pl = r.len();
    assert!(
        (4..=30).contains(&k)
            && fft_next_size(pl, k) == pl
            && !a.is_empty()
            && !b.is_empty()
            && a.len() <= pl + 1
            && b.len() <= pl + 1,
        "mpn mul_fft sizes"
    );
    // SAFETY: the size conditions GMP asserts hold (checked above); r holds pl limbs; GMP
    // allocates its own scratch; r overlaps neither operand.
    unsafe {
        internal::mul_fft(
            r.as_mut_ptr(),
            sz(pl),
            a.as_ptr(),
            sz(a.len()),
            b.as_ptr(),
            sz(b.len()),
            k as i32,
        )
    }
}

/// `m⁻¹ mod B^n` for odd `m` (`n = m.len() = r.len()`, GMP-internal `mpn_binvert`).
pub fn binvert(r: &mut [Limb], m: &[Limb]) {
    let n = m.len();
    assert!(
        n >= 1 && r.len() == n && m[0] & 1 == 1,
        "mpn binvert needs odd m"
    );
    // SAFETY: a pure function of n.
    let itch = unsafe { internal::binvert_itch(sz(n)) };
    let mut scratch = vec![0; usize::try_from(itch).expect("size") + 1];
    // SAFETY: r and m hold n limbs, m is odd, the scratch is the size GMP asks for.
    unsafe { internal::binvert(r.as_mut_ptr(), m.as_ptr(), sz(n), scratch.as_mut_ptr()) };
}

/// Montgomery reduction one limb at a time (GMP-internal `mpn_redc_1`): with `n = m.len()`,
/// `r = u·B^(−n) mod m` up to one multiple of m — `r + carry·B^n` is congruent and below
/// `u/B^n + m`. `u` (2n limbs) is clobbered; `minv = −m⁻¹ mod B`. Returns the carry.
pub fn redc_1(r: &mut [Limb], u: &mut [Limb], m: &[Limb], minv: Limb) -> Limb {
    let n = m.len();
    assert!(
        n >= 1 && r.len() == n && u.len() == 2 * n,
        "mpn redc_1 sizes"
    );
    // SAFETY: r: n limbs, u: 2n limbs (GMP modifies it), m: n limbs; distinct borrows.
    unsafe { internal::redc_1(r.as_mut_ptr(), u.as_mut_ptr(), m.as_ptr(), sz(n), minv) }
}

/// Montgomery reduction by products (GMP-internal `mpn_redc_n`): `r = u·B^(−n) mod m`, below
/// `B^n`, for `u < m·B^n`; `ip = m⁻¹ mod B^n`; `u` (2n limbs) is clobbered; `n > 8`.
pub fn redc_n(r: &mut [Limb], u: &mut [Limb], m: &[Limb], ip: &[Limb]) {
    let n = m.len();
    assert!(
        n > 8 && r.len() == n && u.len() == 2 * n && ip.len() == n,
        "mpn redc_n sizes"
    );
    // SAFETY: sizes as GMP requires; distinct borrows; GMP allocates its own scratch.
    unsafe {
        internal::redc_n(
            r.as_mut_ptr(),
            u.as_mut_ptr(),
            m.as_ptr(),
            sz(n),
            ip.as_ptr(),
        )
    };
}

/// `x = limbs` (non-negative), reusing x's allocation.
pub fn set_integer(x: &mut Integer, limbs: &[Limb]) {
    let n = limbs.len();
    // SAFETY: mpz_limbs_write returns room for at least n limbs of x (reallocating if needed);
    // we fill exactly n and mpz_limbs_finish normalises the size (leading zero limbs dropped).
    unsafe {
        let raw = x.as_raw_mut();
        let p = gmp::mpz_limbs_write(raw, sz(n.max(1)));
        std::ptr::copy_nonoverlapping(limbs.as_ptr(), p, n);
        gmp::mpz_limbs_finish(raw, sz(n));
    }
}

/// `x` = the `len` limbs `fill` writes (any initial contents), reusing x's allocation.
pub fn write_integer(x: &mut Integer, len: usize, fill: impl FnOnce(&mut [Limb])) {
    // SAFETY: mpz_limbs_write returns room for at least len (>= 1) limbs of x; the slice covers
    // exactly those, `fill` may write all of them, and mpz_limbs_finish then sets the size from
    // len (dropping leading zero limbs). x is not otherwise touched in between.
    unsafe {
        let raw = x.as_raw_mut();
        let p = gmp::mpz_limbs_write(raw, sz(len.max(1)));
        let buf = std::slice::from_raw_parts_mut(p, len);
        fill(buf);
        gmp::mpz_limbs_finish(raw, sz(len));
    }
}

/// A new integer with the value of `limbs`.
pub fn to_integer(limbs: &[Limb]) -> Integer {
    let mut x = Integer::new();
    set_integer(&mut x, limbs);
    x
}

/// The magnitude of `x` zero-padded (or checked to fit) to exactly `n` limbs.
pub fn padded(x: &Integer, n: usize) -> Vec<Limb> {
    let l = x.as_limbs();
    assert!(l.len() <= n, "value wider than {n} limbs");
    let mut v = vec![0; n];
    v[..l.len()].copy_from_slice(l);
    v
}

/// `limbs` without its leading zero limbs.
pub fn trim(limbs: &[Limb]) -> &[Limb] {
    let len = limbs.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
    &limbs[..len]
}

#[cfg(test)]
mod tests;
