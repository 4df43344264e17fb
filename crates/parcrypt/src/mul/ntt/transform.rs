//! The transforms of one prime over `n = r·m` points (`r` 2 or 3, `m` a power of two), so a
//! product pays for at most 1.5× its coefficient count instead of up to 2×.
//!
//! Forward: one radix-`r` decimation-in-frequency stage splits the input into `r` blocks of
//! `m` points (block `t` holds `w^(j·t)·Σ_s a[j + s·m]·ω^(s·t)`, `w` a primitive `n`-th root,
//! `ω = w^m`), then each block gets a power-of-two DIF transform with root `w^r` (natural order
//! in, bit-reversed out). The blocks are independent, so each is one task, and a task reads its
//! input straight from the operand's limbs (reduced on the fly). The inverse runs the other
//! way: a decimation-in-time transform per block (bit-reversed in, natural out), then the
//! radix-`r` stage, in place, split over the threads by index. Neither needs a permutation: the
//! pointwise product sees both operands in the same order.
//!
//! One twiddle table per prime and length, `tw[i] = w^i·R mod p` for `i < (r − 1)·m`, serves
//! every level: a level whose blocks have `L` points reads every `(r·m/L)`-th entry, and the
//! inverse's `w^(−i)` are read as `−w^(L/2 − i)` (or through ω for the radix-3 stage), so no
//! inverse table exists. Blocks longer than [`BASE`] points recurse (depth first), so the
//! levels below `BASE` run in cache.
use super::prime::Field;

/// Blocks of at most this many points run their levels one after the other (16 KiB: in L1d).
pub const BASE: usize = 1 << 11;

/// A transform length `n = radix·m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 2 or 3.
    pub radix: usize,
    /// A power of two.
    pub m: usize,
}

impl Shape {
    /// The number of points.
    pub fn points(self) -> usize {
        self.radix * self.m
    }

    /// The shortest length `2^k` or `3·2^k` (at least 2) holding `coeffs` coefficients, if
    /// it has at most `2^max_log` points in its power-of-two part.
    pub fn for_coeffs(coeffs: usize, max_log: u32) -> Option<Shape> {
        let c = coeffs.max(2);
        let pow2 = c.checked_next_power_of_two()?;
        let m3 = c.div_ceil(3).checked_next_power_of_two()?;
        let shape = match m3.checked_mul(3) {
            Some(n3) if n3 < pow2 => Shape { radix: 3, m: m3 },
            _ => Shape {
                radix: 2,
                m: pow2 / 2,
            },
        };
        // The root of order n needs (p − 1) divisible by n: m·2 or m·3, with m ≤ 2^(max_log − 1).
        (shape.m <= 1usize.checked_shl(max_log - 1)?).then_some(shape)
    }

    /// Entries of the twiddle table: `(radix − 1)·m`.
    pub fn table_len(self) -> usize {
        (self.radix - 1) * self.m
    }
}

/// Fills `out` with `tw[start + i] = w^(start + i)·R mod p`, four interleaved chains of
/// Montgomery products (each entry is the one four places before times `w^4`), so the
/// multiplier's latency overlaps.
pub fn twiddles(f: &Field, w: u64, start: usize, out: &mut [u64]) {
    const CHAINS: usize = 4;
    let w_mont = f.to_mont(w);
    let step = f.to_mont(f.pow(w, CHAINS as u64));
    let mut xs = [0u64; CHAINS];
    let mut x = f.to_mont(f.pow(w, start as u64));
    for slot in xs.iter_mut() {
        *slot = x;
        x = f.mont(x, w_mont);
    }
    for chunk in out.chunks_mut(CHAINS) {
        for (t, x) in chunk.iter_mut().zip(xs.iter_mut()) {
            *t = *x;
            *x = f.mont(*x, step);
        }
    }
}

/// Block `t` of the forward transform of the non-negative limbs `src` (zero beyond its
/// length), written into `out` (`m` points, bit-reversed).
pub fn forward_block(f: &Field, tw: &[u64], shape: Shape, src: &[u64], t: usize, out: &mut [u64]) {
    let m = shape.m;
    debug_assert_eq!(out.len(), m);
    let digit = |i: usize| src.get(i).map_or(0, |&x| f.reduce(x));
    match (shape.radix, t) {
        (2, 0) => {
            for (j, o) in out.iter_mut().enumerate() {
                *o = f.add(digit(j), digit(j + m));
            }
        }
        (2, _) => {
            for (j, o) in out.iter_mut().enumerate() {
                *o = f.mont(digit(j) + f.p - digit(j + m), tw[j]);
            }
        }
        (_, 0) => {
            for (j, o) in out.iter_mut().enumerate() {
                *o = f.add(f.add(digit(j), digit(j + m)), digit(j + 2 * m));
            }
        }
        (_, _) => {
            // a0 + ω·a1 + ω²·a2 = a0 − a2 + d and a0 + ω²·a1 + ω·a2 = a0 − a1 − d, where
            // d = ω·(a1 − a2) (ω² = −1 − ω).
            let omega = tw[m];
            for (j, o) in out.iter_mut().enumerate() {
                let (a0, a1, a2) = (digit(j), digit(j + m), digit(j + 2 * m));
                let d = f.mont(f.sub(a1, a2), omega);
                *o = if t == 1 {
                    f.mont(f.add(f.sub(a0, a2), d), tw[j])
                } else {
                    f.mont(f.sub(f.sub(a0, a1), d), tw[2 * j])
                };
            }
        }
    }
    dif(f, tw, shape.radix, out);
}

/// In place: the DIF transform of `x` (a power of two of points, natural order in,
/// bit-reversed out) with root `w^step` of order `x.len()`.
pub fn dif(f: &Field, tw: &[u64], step: usize, x: &mut [u64]) {
    let len = x.len();
    if len <= 1 {
        return;
    }
    if len > BASE {
        let (lo, hi) = x.split_at_mut(len / 2);
        dif_level(f, tw, step, lo, hi);
        dif(f, tw, 2 * step, lo);
        dif(f, tw, 2 * step, hi);
        return;
    }
    let (mut h, mut s) = (len / 2, step);
    while h > 1 {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            dif_level(f, tw, s, lo, hi);
        }
        h /= 2;
        s *= 2;
    }
    for pair in x.chunks_exact_mut(2) {
        let (a, b) = (pair[0], pair[1]);
        pair[0] = f.add(a, b);
        pair[1] = f.sub(a, b);
    }
}

/// One DIF butterfly row: `(u, v) ← (u + v, (u − v)·w^(s·j))`.
#[inline(always)]
fn dif_level(f: &Field, tw: &[u64], s: usize, lo: &mut [u64], hi: &mut [u64]) {
    for (j, (u, v)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let (a, b) = (*u, *v);
        *u = f.add(a, b);
        *v = f.mont(a + f.p - b, tw[s * j]);
    }
}

/// In place: the inverse of [`dif`] times `x.len()` (bit-reversed in, natural order out).
pub fn dit(f: &Field, tw: &[u64], step: usize, x: &mut [u64]) {
    let len = x.len();
    if len <= 1 {
        return;
    }
    if len > BASE {
        let (lo, hi) = x.split_at_mut(len / 2);
        dit(f, tw, 2 * step, lo);
        dit(f, tw, 2 * step, hi);
        dit_level(f, tw, step, lo, hi);
        return;
    }
    for pair in x.chunks_exact_mut(2) {
        let (a, b) = (pair[0], pair[1]);
        pair[0] = f.add(a, b);
        pair[1] = f.sub(a, b);
    }
    let (mut h, mut s) = (2, step * (len / 4));
    while h < len {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            dit_level(f, tw, s, lo, hi);
        }
        h *= 2;
        s /= 2;
    }
}

/// One DIT butterfly row with `ρ = w^s` of order `2h`: `(u, v) ← (u + ρ^(−j)·v, u − ρ^(−j)·v)`,
/// where `ρ^(−j) = −ρ^(h − j)` for `j ≥ 1`.
#[inline(always)]
fn dit_level(f: &Field, tw: &[u64], s: usize, lo: &mut [u64], hi: &mut [u64]) {
    let h = lo.len();
    let (a, b) = (lo[0], hi[0]);
    lo[0] = f.add(a, b);
    hi[0] = f.sub(a, b);
    for (j, (u, v)) in lo.iter_mut().zip(hi.iter_mut()).enumerate().skip(1) {
        let t = f.mont(*v, tw[s * (h - j)]);
        let a = *u;
        *u = f.sub(a, t);
        *v = f.add(a, t);
    }
}

/// The pointwise product of one block and its inverse DIT: `x ← dit(x·y·scale)`, where
/// `scale = n^(−1)·R^2 mod p` (so the two Montgomery products give `x·y/n`); `y = None`
/// squares.
pub fn pointwise_inverse(
    f: &Field,
    tw: &[u64],
    shape: Shape,
    scale: u64,
    x: &mut [u64],
    y: Option<&[u64]>,
) {
    match y {
        Some(y) => {
            for (a, &b) in x.iter_mut().zip(y) {
                *a = f.mont(f.mont(*a, b), scale);
            }
        }
        None => {
            for a in x.iter_mut() {
                *a = f.mont(f.mont(*a, *a), scale);
            }
        }
    }
    dit(f, tw, shape.radix, x);
}

/// The inverse radix-`r` stage for indices `j0 .. j0 + blocks[0].len()`: `blocks[t]` holds
/// entries `j0..` of block `t` (each already inverted by [`dit`]) and receives coefficients
/// `j + t·m`.
pub fn inverse_stage(f: &Field, tw: &[u64], shape: Shape, j0: usize, blocks: &mut [&mut [u64]]) {
    let m = shape.m;
    match blocks {
        [y0, y1] => {
            for (k, (u, v)) in y0.iter_mut().zip(y1.iter_mut()).enumerate() {
                let j = j0 + k;
                let (a, b) = (*u, *v);
                if j == 0 {
                    *u = f.add(a, b);
                    *v = f.sub(a, b);
                } else {
                    // w^(−j) = −w^(m − j).
                    let t = f.mont(b, tw[m - j]);
                    *u = f.sub(a, t);
                    *v = f.add(a, t);
                }
            }
        }
        [y0, y1, y2] => {
            let omega = tw[m];
            for (k, ((u0, u1), u2)) in y0
                .iter_mut()
                .zip(y1.iter_mut())
                .zip(y2.iter_mut())
                .enumerate()
            {
                let j = j0 + k;
                let a = *u0;
                // x_t = Y0 + ω^(−t)·w^(−j)·Y1 + ω^(−2t)·w^(−2j)·Y2, with w^(−j) = ω^(−1)·w^(m−j)
                // and w^(−2j) = ω^(−1)·w^(m−2j) (2j ≤ m) or w^(3m−2j) (2j > m); A = ω·P1,
                // B = ω·P2, ω² = −1 − ω.
                let p1 = f.mont(*u1, tw[m - j]);
                let big = 2 * j > m;
                let p2 = f.mont(
                    *u2,
                    if big {
                        tw[3 * m - 2 * j]
                    } else {
                        tw[m - 2 * j]
                    },
                );
                let (qa, qb) = (f.mont(p1, omega), f.mont(p2, omega));
                if big {
                    *u0 = f.add(f.sub(f.sub(a, p1), qa), p2);
                    *u1 = f.add(f.add(a, qa), qb);
                    *u2 = f.sub(f.sub(f.add(a, p1), p2), qb);
                } else {
                    *u0 = f.sub(f.sub(f.sub(f.sub(a, p1), p2), qa), qb);
                    *u1 = f.add(f.add(a, qa), p2);
                    *u2 = f.add(f.add(a, p1), qb);
                }
            }
        }
        _ => unreachable!("radix 2 or 3"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::prime::PRIMES;
    use super::*;

    /// The cyclic convolution of `a` and `b` (limbs below p) through the transforms.
    fn convolve(f: &Field, g: u64, shape: Shape, a: &[u64], b: &[u64]) -> Vec<u64> {
        let (n, m) = (shape.points(), shape.m);
        let w = {
            let q = super::super::prime::Prime { p: f.p, g };
            q.root(n as u64)
        };
        let mut tw = vec![0; shape.table_len()];
        twiddles(f, w, 0, &mut tw);
        let fwd = |src: &[u64]| {
            let mut v = vec![0; n];
            for (t, block) in v.chunks_mut(m).enumerate() {
                forward_block(f, &tw, shape, src, t, block);
            }
            v
        };
        let (mut x, y) = (fwd(a), fwd(b));
        let scale = f.to_mont(f.to_mont(f.inv(n as u64)));
        for (xb, yb) in x.chunks_mut(m).zip(y.chunks(m)) {
            pointwise_inverse(f, &tw, shape, scale, xb, Some(yb));
        }
        let mut blocks: Vec<&mut [u64]> = x.chunks_mut(m).collect();
        // In two pieces, as the threads split it.
        let half = m / 2;
        let (mut first, mut second): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
            blocks.iter_mut().map(|b| b.split_at_mut(half)).unzip();
        inverse_stage(f, &tw, shape, 0, &mut first);
        inverse_stage(f, &tw, shape, half, &mut second);
        x
    }

    #[test]
    fn every_shape_convolves_like_the_schoolbook() {
        for coeffs in 1..=200usize {
            let shape = Shape::for_coeffs(coeffs, 40).unwrap();
            if coeffs > 2 && Shape::for_coeffs(coeffs - 1, 40) == Some(shape) {
                continue;
            }
            let n = shape.points();
            assert!(
                n >= coeffs && (n <= 2 || 2 * n <= 3 * coeffs + 3),
                "{coeffs} -> {n}"
            );
            for q in PRIMES {
                let f = q.field();
                let a: Vec<u64> = (0..n as u64).map(|i| u64::MAX - i * 7919).collect();
                let b: Vec<u64> = (0..n as u64)
                    .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 3)
                    .collect();
                let mut want = vec![0u64; n];
                for (i, &x) in a.iter().enumerate() {
                    for (j, &y) in b.iter().enumerate() {
                        let k = (i + j) % n;
                        want[k] = f.add(want[k], f.mul_slow(f.reduce(x), f.reduce(y)));
                    }
                }
                assert_eq!(
                    convolve(&f, q.g, shape, &a, &b),
                    want,
                    "n = {n}, p = {:#x}",
                    q.p
                );
            }
        }
    }

    #[test]
    fn long_blocks_recurse_exactly() {
        // Blocks past BASE take the recursive path: 2^13 and 3·2^12 points against the
        // iterative path's result on a shorter prefix (a·b with b = 1 + x: a + x·a).
        for shape in [
            Shape {
                radix: 2,
                m: BASE * 2,
            },
            Shape {
                radix: 3,
                m: BASE * 2,
            },
        ] {
            let n = shape.points();
            let q = PRIMES[1];
            let f = q.field();
            let a: Vec<u64> = (0..n as u64 - 1)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            let got = convolve(&f, q.g, shape, &a, &[1, 1]);
            for (k, &g) in got.iter().enumerate() {
                let here = a.get(k).map_or(0, |&x| f.reduce(x));
                let before = k.checked_sub(1).map_or(0, |i| f.reduce(a[i]));
                assert_eq!(g, f.add(here, before), "{k} of {n}");
            }
        }
    }

    #[test]
    fn shapes_are_the_shortest() {
        let n = |c| Shape::for_coeffs(c, 40).unwrap().points();
        assert_eq!(
            [n(0), n(1), n(2), n(3), n(4), n(5), n(6), n(7), n(9), n(13)],
            [2, 2, 2, 3, 4, 6, 6, 8, 12, 16]
        );
        assert_eq!(n(3 << 20), 3 << 20);
        assert_eq!(n((3 << 20) + 1), 1 << 22);
        assert_eq!(n((1 << 20) + 1), 3 << 19);
        assert_eq!(
            Shape::for_coeffs(1 << 40, 40).map(Shape::points),
            Some(1 << 40)
        );
        assert_eq!(
            Shape::for_coeffs((1 << 40) + 1, 40).map(Shape::points),
            Some(3 << 39)
        );
        assert_eq!(Shape::for_coeffs((3 << 39) + 1, 40), None);
        assert_eq!(Shape::for_coeffs(usize::MAX, 40), None);
    }
}
