//! The portable backend: Montgomery arithmetic on 64-bit limbs in plain Rust (`u128`
//! products), for any CPU. It also serves every backend as the constant-time arithmetic around
//! the exponentiation: reducing a wide value modulo a prime, the CRT recombination and the
//! unblinding multiply (all in radix 2^64, whatever kernel ran the exponentiation).
//!
//! R = 2^(64n) for an n-limb modulus m. [`Mont64::mul`] is CIOS (Koç, Acar and Kaliski's
//! coarsely integrated operand scanning) with the final subtraction decided by the carry limb
//! alone, done by masking: for inputs below R the output is below R (not necessarily below
//! m), so products chain without a comparison; [`select::reduce_once`] makes a value below m
//! where one is needed.
use super::select::{self, add_masked, mask_from_bit, reduce_once, sub_masked};
use zeroize::Zeroizing;

/// The most limbs a modulus may have here: 16384 bits, the largest RSA key parcrypt takes.
pub const MAX_LIMBS: usize = 256;

/// -m⁻¹ mod 2^64 for an odd `m0` (Newton's iteration: each step doubles the correct bits).
pub fn neg_inv64(m0: u64) -> u64 {
    debug_assert!(m0 & 1 == 1);
    let mut inv = m0; // correct to 3 bits for odd m0 (m0·m0 ≡ 1 mod 8)
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
    }
    inv.wrapping_neg()
}

/// A Montgomery context in radix 2^64 for one odd modulus (public size, possibly secret
/// value: nothing here branches on it).
#[derive(Clone)]
pub struct Mont64 {
    m: Zeroizing<Vec<u64>>,
    /// The modulus' bit length (public).
    bits: u32,
    /// -m⁻¹ mod 2^64.
    k0: u64,
    /// R² mod m.
    rr: Zeroizing<Vec<u64>>,
}

/// The Montgomery constant k0 fixes the modulus mod 2^64 (2^52): wiped with the rest.
impl Drop for Mont64 {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.k0);
    }
}

impl Mont64 {
    /// A context for the odd modulus given by its limbs (`m.len()` fixes n; the top limb may
    /// be zero only if the caller wants a larger R). `None` for an even modulus or one of
    /// more than [`MAX_LIMBS`] limbs.
    pub fn new(m: &[u64]) -> Option<Self> {
        if m.is_empty() || m.iter().all(|&l| l == 0) {
            return None;
        }
        Self::with_bits(m, select::public_bits(m))
    }

    /// [`Mont64::new`] for a modulus whose bit length `bits` the caller knows (a prime of a
    /// key: its size is public, its value is not looked at to find it). `bits` must be the
    /// modulus' bit length and fit its limbs.
    pub fn with_bits(m: &[u64], bits: u32) -> Option<Self> {
        // The modulus' oddness is public: a key's primes are checked odd when it is loaded.
        if m.is_empty()
            || m.len() > MAX_LIMBS
            || super::secret_flow::declassify_value(m[0] & 1) == 0
        {
            return None;
        }
        assert!(
            bits >= 1 && bits as usize <= 64 * m.len(),
            "bit length within the limbs"
        );
        let mut ctx = Self {
            m: Zeroizing::new(m.to_vec()),
            bits,
            k0: neg_inv64(m[0]),
            rr: Zeroizing::new(Vec::new()),
        };
        ctx.rr = ctx.pow2(2 * 64 * m.len());
        Some(ctx)
    }

    /// 2^e mod m, fully reduced, for a public `e`: R mod m by doubling from 2^(bits − 1) (at
    /// most 64 steps), then square-and-double on e's bits in Montgomery form — about log2(e)
    /// products where doubling alone takes e − bits steps (R² mod m of a 2048-bit modulus: 12
    /// products against 2049 doublings). Constant time for m's value: products and masked
    /// reductions; the branch is on e's bits.
    pub fn pow2(&self, e: usize) -> Zeroizing<Vec<u64>> {
        let n = self.m.len();
        // acc: the Montgomery form of 2^(bits of e read so far), below m.
        let mut acc = pow2_mod_bits(&self.m, self.bits, 64 * n);
        let mut tmp = Zeroizing::new(vec![0u64; n]);
        for bit in (0..usize::BITS - e.leading_zeros()).rev() {
            self.mul(&mut tmp, &acc, &acc);
            reduce_once(&mut tmp, &self.m);
            acc.copy_from_slice(&tmp);
            if (e >> bit) & 1 == 1 {
                let mut carry = 0u64;
                for l in acc.iter_mut() {
                    let next = *l >> 63;
                    *l = (*l << 1) | carry;
                    carry = next;
                }
                select::reduce_once_with_carry(&mut acc, carry, &self.m);
            }
        }
        // Out of Montgomery form: a product by 1.
        let mut unit = Zeroizing::new(vec![0u64; n]);
        unit[0] = 1;
        self.mul(&mut tmp, &acc, &unit);
        reduce_once(&mut tmp, &self.m);
        tmp
    }

    /// The modulus' bit length.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// n, the limb count.
    pub fn limbs(&self) -> usize {
        self.m.len()
    }

    /// The modulus' limbs.
    pub fn m(&self) -> &[u64] {
        &self.m
    }

    /// -m⁻¹ mod 2^64.
    pub fn k0(&self) -> u64 {
        self.k0
    }

    /// R² mod m.
    pub fn rr(&self) -> &[u64] {
        &self.rr
    }

    /// `r = a·b·R⁻¹ mod m`, below R, for `a, b < R` (all n limbs).
    pub fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let n = self.m.len();
        assert!(
            r.len() == n && a.len() == n && b.len() == n,
            "mont mul sizes"
        );
        let top = cios(r, a, b, &self.m, self.k0);
        // r + top·R < R + m: subtract m exactly when the carry limb is set.
        sub_masked(r, &self.m, mask_from_bit(top));
    }

    /// `r = a·b mod m` for `a, b < m`: two Montgomery products (the second by R²).
    pub fn mul_mod(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let mut t = Zeroizing::new(vec![0u64; self.m.len()]);
        self.mul(&mut t, a, b);
        self.mul(r, &t, &self.rr);
        reduce_once(r, &self.m);
    }

    /// `r = t·R⁻¹ mod m`, fully reduced, for a 2n-limb `t` below `m·R + R`: Montgomery
    /// reduction of a double-length value (`t` is overwritten).
    pub fn redc(&self, r: &mut [u64], t: &mut [u64]) {
        let n = self.m.len();
        assert!(r.len() == n && t.len() == 2 * n, "redc sizes");
        let mut top = 0u64; // the carry above t[2n-1]
        for i in 0..n {
            let y = t[i].wrapping_mul(self.k0);
            let mut c = 0u64;
            for j in 0..n {
                let s =
                    u128::from(t[i + j]) + u128::from(y) * u128::from(self.m[j]) + u128::from(c);
                t[i + j] = s as u64;
                c = (s >> 64) as u64;
            }
            // Add c at t[i + n] and ripple the carry to the top (fixed length: n - i limbs).
            let mut carry = c;
            for limb in t[i + n..].iter_mut() {
                let (s, o) = limb.overflowing_add(carry);
                *limb = s;
                carry = u64::from(o);
            }
            top += carry;
        }
        r.copy_from_slice(&t[n..]);
        // (t + y·m)/R < m + 1 + m: at most two subtractions of m.
        select::reduce_once_with_carry(r, top, &self.m);
        reduce_once(r, &self.m);
    }

    /// `x mod m` for a value of any fixed length, fully reduced, in constant time for that
    /// length: Horner over n-limb chunks from the top, each step a Montgomery reduction of
    /// (acc·R + chunk) followed by a product with R².
    pub fn reduce(&self, r: &mut [u64], x: &[u64]) {
        let n = self.m.len();
        assert!(r.len() == n, "reduce size");
        r.fill(0);
        let chunks = x.len().div_ceil(n).max(1);
        let mut t = Zeroizing::new(vec![0u64; 2 * n]);
        let mut low = Zeroizing::new(vec![0u64; n]);
        for c in (0..chunks).rev() {
            t.fill(0);
            let chunk = &x[(c * n).min(x.len())..((c + 1) * n).min(x.len())];
            t[..chunk.len()].copy_from_slice(chunk);
            t[n..].copy_from_slice(r);
            self.redc(&mut low, &mut t);
            // low = (acc·R + chunk)·R⁻¹; times R² (Montgomery) gives (acc·R + chunk) mod m.
            self.mul(r, &low, &self.rr);
            reduce_once(r, &self.m);
        }
    }
}

impl std::fmt::Debug for Mont64 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mont64({} limbs)", self.m.len())
    }
}

/// CIOS: `t = (a·b + y·m)/R` over n limbs, returning the carry limb (0 or 1), for
/// `a, b < R` (`t` is written, never read first). The loops' bounds are the slices' lengths,
/// so a caller with fixed-size arrays gets them unrolled.
#[inline(always)]
pub(crate) fn cios(t: &mut [u64], a: &[u64], b: &[u64], m: &[u64], k0: u64) -> u64 {
    let n = m.len();
    t.fill(0);
    let mut top = 0u64;
    for &bi in b {
        // (t, top) += a·bi
        let mut c = 0u64;
        for j in 0..n {
            let s = u128::from(t[j]) + u128::from(a[j]) * u128::from(bi) + u128::from(c);
            t[j] = s as u64;
            c = (s >> 64) as u64;
        }
        let s = u128::from(top) + u128::from(c);
        let (tn, tn1) = (s as u64, (s >> 64) as u64);
        // (t, top) = ((t, tn, tn1) + y·m) / 2^64
        let y = t[0].wrapping_mul(k0);
        let s = u128::from(t[0]) + u128::from(y) * u128::from(m[0]);
        let mut c = (s >> 64) as u64;
        for j in 1..n {
            let s = u128::from(t[j]) + u128::from(y) * u128::from(m[j]) + u128::from(c);
            t[j - 1] = s as u64;
            c = (s >> 64) as u64;
        }
        let s = u128::from(tn) + u128::from(c);
        t[n - 1] = s as u64;
        top = tn1 + (s >> 64) as u64;
    }
    top
}

/// 2^e mod m for an odd m, as `m.len()` limbs, by doubling with masked subtraction (no
/// division, no branch on m): starts from 2^(b-1) < m for m of b bits, and doubles.
pub fn pow2_mod(m: &[u64], e: usize) -> Zeroizing<Vec<u64>> {
    pow2_mod_bits(m, select::public_bits(m), e)
}

/// [`pow2_mod`] for an `m` of `bits` bits (public: a key's sizes are).
pub fn pow2_mod_bits(m: &[u64], bits: u32, e: usize) -> Zeroizing<Vec<u64>> {
    let n = m.len();
    let b = bits as usize;
    let mut x = Zeroizing::new(vec![0u64; n]);
    let start = (b - 1).min(e);
    x[start / 64] = 1 << (start % 64);
    for _ in start..e {
        // x = 2x mod m, with x < m: 2x < 2m, the carry bit counts.
        let mut carry = 0u64;
        for l in x.iter_mut() {
            let next = *l >> 63;
            *l = (*l << 1) | carry;
            carry = next;
        }
        select::reduce_once_with_carry(&mut x, carry, m);
    }
    x
}

/// `r = a·b` (schoolbook, every limb product computed), `r.len() == a.len() + b.len()`.
pub fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64]) {
    assert_eq!(r.len(), a.len() + b.len(), "mul_wide sizes");
    r.fill(0);
    for (i, &bi) in b.iter().enumerate() {
        let mut c = 0u64;
        for (j, &aj) in a.iter().enumerate() {
            let s = u128::from(r[i + j]) + u128::from(aj) * u128::from(bi) + u128::from(c);
            r[i + j] = s as u64;
            c = (s >> 64) as u64;
        }
        r[i + a.len()] = c;
    }
}

/// `x += y` over `x.len()` limbs; the carry out.
pub fn add_in(x: &mut [u64], y: &[u64]) -> u64 {
    add_masked(x, y, u64::MAX)
}
