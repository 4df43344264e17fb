//! Constant-time building blocks on little-endian `u64` limb slices: masks, the table read
//! that touches every entry, masked subtraction and addition, and the radix changes between
//! 64-bit limbs and the 52-bit digits of the IFMA kernel.
//!
//! Nothing here branches on, or indexes memory by, a value that may be secret: a choice is an
//! all-ones or all-zeros mask, made from a bit by arithmetic and passed through [`barrier`] so
//! that the compiler cannot turn the masked expression back into a branch. Slice lengths,
//! bit positions and table sizes are public (they follow from the modulus size).

/// Hides `x` from the optimizer: the value passes through an empty `asm!` block (x86-64) or
/// [`std::hint::black_box`], so code that combines it with masks stays branch-free.
#[inline(always)]
pub fn barrier(x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v = x;
        // SAFETY: an empty instruction sequence; it only claims to read and write `v`.
        unsafe {
            std::arch::asm!("/* {0} */", inout(reg) v, options(pure, nomem, nostack, preserves_flags));
        }
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::hint::black_box(x)
    }
}

/// The bit length of the value `x` (little-endian limbs), for a value whose size is public
/// (a modulus, a prime of a key): the scan looks at its top limbs and the result is a public
/// fact. Not for a value whose size is secret.
pub fn public_bits(x: &[u64]) -> u32 {
    match x.iter().rposition(|&l| l != 0) {
        Some(top) => 64 * top as u32 + (64 - x[top].leading_zeros()),
        None => 0,
    }
}

/// Bytes of stack [`burn_stack`] overwrites: more than the IFMA kernel's deepest product
/// uses (its dual product at the largest shape keeps about 20 KiB of operand copies and
/// accumulators in its frame).
pub const BURN_STACK_BYTES: usize = 32 * 1024;

/// Overwrites with zeros the [`BURN_STACK_BYTES`] of stack just below the caller's frame,
/// where the frames of the products it called kept copies of secret operands and their
/// accumulators (the IFMA kernel's vectors live in its frames, not in wiped buffers). Called
/// once after each exponentiation: a memset of 32 KiB, about a microsecond.
#[inline(never)]
pub fn burn_stack() {
    let mut buf = [0u8; BURN_STACK_BYTES];
    // SAFETY: `buf` is valid for its length; the empty asm block only takes its address, so
    // the zeroing stores before it cannot be dropped as dead.
    unsafe {
        std::ptr::write_bytes(buf.as_mut_ptr(), 0, BURN_STACK_BYTES);
        #[cfg(target_arch = "x86_64")]
        std::arch::asm!("/* {0} */", in(reg) buf.as_mut_ptr(), options(nostack, preserves_flags));
    }
    std::hint::black_box(&buf);
}

/// All ones if `bit` (0 or 1) is 1, else 0.
#[inline(always)]
pub fn mask_from_bit(bit: u64) -> u64 {
    barrier(bit & 1).wrapping_neg()
}

/// All ones if `a == b`, else 0.
#[inline(always)]
pub fn eq_mask(a: u64, b: u64) -> u64 {
    let x = a ^ b;
    // (x | -x) has its top bit set exactly when x != 0.
    mask_from_bit(((x | x.wrapping_neg()) >> 63) ^ 1)
}

/// `out` = entry `index` of `table` (entries of `out.len()` limbs, back to back), reading
/// every entry and combining them under masks: the memory access pattern is the same for every
/// index. `index` must be below the number of entries (else `out` is zero).
pub fn select(out: &mut [u64], table: &[u64], index: u64) {
    select_part(out, table, out.len(), 0, index);
}

/// [`select`] of a part of each entry: entries are `stride` limbs long and `out` takes the
/// limbs `offset .. offset + out.len()` of entry `index` (one lane of a dual table).
pub fn select_part(out: &mut [u64], table: &[u64], stride: usize, offset: usize, index: u64) {
    let len = out.len();
    assert!(
        len > 0 && offset + len <= stride && table.len() % stride == 0,
        "select: table shape"
    );
    out.fill(0);
    for (k, entry) in table.chunks_exact(stride).enumerate() {
        let mask = eq_mask(k as u64, index);
        for (o, &t) in out.iter_mut().zip(&entry[offset..offset + len]) {
            *o |= t & mask;
        }
    }
}

/// `x -= y & mask` over `x.len()` limbs (`y` no longer than `x`, missing limbs read as 0);
/// returns the borrow out (0 or 1).
pub fn sub_masked(x: &mut [u64], y: &[u64], mask: u64) -> u64 {
    let mut borrow = 0u64;
    for (i, xi) in x.iter_mut().enumerate() {
        let yi = y.get(i).copied().unwrap_or(0) & mask;
        let (d, b1) = xi.overflowing_sub(yi);
        let (d, b2) = d.overflowing_sub(borrow);
        *xi = d;
        borrow = u64::from(b1 | b2);
    }
    borrow
}

/// `x += y & mask` over `x.len()` limbs (`y` no longer than `x`); returns the carry out.
pub fn add_masked(x: &mut [u64], y: &[u64], mask: u64) -> u64 {
    let mut carry = 0u64;
    for (i, xi) in x.iter_mut().enumerate() {
        let yi = y.get(i).copied().unwrap_or(0) & mask;
        let (s, c1) = xi.overflowing_add(yi);
        let (s, c2) = s.overflowing_add(carry);
        *xi = s;
        carry = u64::from(c1 | c2);
    }
    carry
}

/// `x mod m` at `m.len()` limbs for any `x` and a non-zero `m`, by binary long division: one
/// doubling and one masked subtraction per bit of `x` (64·`x.len()` of them, whatever the
/// values). No table and no branch on either operand, the divisor included: GMP's
/// `mpn_sec_div_r` looks up its limb inverse in a table indexed by the divisor's top bits,
/// which the secret-flow check flags when the divisor is a prime of a key. About 64·|x|·|m|
/// limb operations (0.1 ms for d mod (p − 1) of a 4096-bit key): for loading a key, not for a
/// hot loop.
pub fn rem(x: &[u64], m: &[u64]) -> zeroize::Zeroizing<Vec<u64>> {
    let n = m.len();
    assert!(n > 0, "rem: an empty divisor");
    let mut r = zeroize::Zeroizing::new(vec![0u64; n]);
    let mut t = zeroize::Zeroizing::new(vec![0u64; n]);
    for i in (0..64 * x.len()).rev() {
        // r = 2r + bit (r < m, so 2r + 1 < 2m), keeping the bit shifted out at the top.
        let mut carry = (x[i / 64] >> (i % 64)) & 1;
        for l in r.iter_mut() {
            let top = *l >> 63;
            *l = (*l << 1) | carry;
            carry = top;
        }
        t.copy_from_slice(&r);
        let borrow = sub_masked(&mut t, m, u64::MAX);
        // Keep r − m when the doubled value reached m (a carry out, or no borrow).
        let take = mask_from_bit(carry) | !mask_from_bit(borrow);
        for (a, &b) in r.iter_mut().zip(t.iter()) {
            *a = (b & take) | (*a & !take);
        }
    }
    r
}

/// `x = x - m` if `x >= m`, else `x` unchanged; `x` and `m` of the same length. Always does
/// the subtraction and the masked add-back, whatever the values.
pub fn reduce_once(x: &mut [u64], m: &[u64]) {
    let borrow = sub_masked(x, m, u64::MAX);
    add_masked(x, m, mask_from_bit(borrow));
}

/// `x = (x + hi·2^(64·len)) - m` if that is non-negative, for a value `x + hi·2^(64·len)` below
/// `2m` (`hi` the carry limb, 0 or 1): the reduction after a sum or a Montgomery product.
pub fn reduce_once_with_carry(x: &mut [u64], hi: u64, m: &[u64]) {
    let borrow = sub_masked(x, m, u64::MAX);
    // Keep the difference when it did not borrow, or when the carry limb absorbed the borrow.
    let keep = mask_from_bit(borrow ^ 1) | mask_from_bit(hi);
    add_masked(x, m, !keep);
}

/// `(x - y) mod m` into `x`, for `x, y < m`, all of `m.len()` limbs.
pub fn sub_mod(x: &mut [u64], y: &[u64], m: &[u64]) {
    let borrow = sub_masked(x, y, u64::MAX);
    add_masked(x, m, mask_from_bit(borrow));
}

/// All ones if the value `x` is zero, else 0 (every limb read).
pub fn is_zero_mask(x: &[u64]) -> u64 {
    let acc = x.iter().fold(0u64, |acc, &l| acc | l);
    eq_mask(acc, 0)
}

/// All ones if `a == b` as numbers (the shorter read as zero-padded), else 0; every limb of
/// both is read.
pub fn eq_limbs_mask(a: &[u64], b: &[u64]) -> u64 {
    let len = a.len().max(b.len());
    let mut diff = 0u64;
    for i in 0..len {
        diff |= a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
    }
    eq_mask(diff, 0)
}

/// All ones if `a < b` as numbers (the shorter read as zero-padded), else 0: the borrow of
/// a − b over the longer length, every limb read.
pub fn lt_limbs_mask(a: &[u64], b: &[u64]) -> u64 {
    let len = a.len().max(b.len());
    let mut borrow = 0u64;
    for i in 0..len {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        let (d, b1) = x.overflowing_sub(y);
        let (_, b2) = d.overflowing_sub(borrow);
        borrow = u64::from(b1 | b2);
    }
    mask_from_bit(borrow)
}

/// `out = x·y` for a one-limb `y` (`out.len() == x.len() + 1`), every limb product computed.
pub fn mul_limb(out: &mut [u64], x: &[u64], y: u64) {
    assert_eq!(out.len(), x.len() + 1, "mul_limb sizes");
    let mut carry = 0u64;
    for (o, &xi) in out.iter_mut().zip(x) {
        let s = u128::from(xi) * u128::from(y) + u128::from(carry);
        *o = s as u64;
        carry = (s >> 64) as u64;
    }
    out[x.len()] = carry;
}

/// Big-endian bytes into little-endian limbs (`out` zero above them), moving every byte the
/// same way whatever its value: constant time for the (public) lengths. `bytes` must fit:
/// `bytes.len() <= 8·out.len()`.
pub fn be_bytes_to_limbs(bytes: &[u8], out: &mut [u64]) {
    assert!(bytes.len() <= 8 * out.len(), "bytes fit the limbs");
    out.fill(0);
    for (i, &b) in bytes.iter().rev().enumerate() {
        out[i / 8] |= u64::from(b) << (8 * (i % 8));
    }
}

/// The 52-bit digit mask.
pub const MASK52: u64 = (1 << 52) - 1;

/// 64-bit limbs to 52-bit digits: `out[j]` = bits `52j .. 52j+52` of `x` (missing bits zero).
pub fn to_radix52(x: &[u64], out: &mut [u64]) {
    for (j, o) in out.iter_mut().enumerate() {
        let bit = 52 * j;
        let (w, s) = (bit / 64, bit % 64);
        let lo = x.get(w).copied().unwrap_or(0) >> s;
        let hi = if s > 12 {
            x.get(w + 1).copied().unwrap_or(0) << (64 - s)
        } else {
            0
        };
        *o = (lo | hi) & MASK52;
    }
}

/// 52-bit digits (each below 2^52) to 64-bit limbs; bits beyond `out` are dropped.
pub fn from_radix52(d: &[u64], out: &mut [u64]) {
    out.fill(0);
    for (j, &digit) in d.iter().enumerate() {
        let bit = 52 * j;
        let (w, s) = (bit / 64, bit % 64);
        if let Some(o) = out.get_mut(w) {
            *o |= digit << s;
        }
        if s > 12 {
            if let Some(o) = out.get_mut(w + 1) {
                *o |= digit >> (64 - s);
            }
        }
    }
}
