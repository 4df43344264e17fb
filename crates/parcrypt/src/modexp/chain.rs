//! The sequential exponent scans, written once over any counted modular product
//! ([`MulMods`]): `binary` and `sliding` run them on a [`Counter`] (one thread, `Integer`
//! values), `binary-parmul` and `window-parmul` on a [`ParCounter`] (every product on two
//! threads, limb vectors). Same scan, same counts; only the product differs. Variable-time.
use super::{Counter, UnitCount};
use crate::bignum::mpn::Limb;
use crate::bignum::parmont::ParMont;
use rug::Integer;

/// A counted modular product on values of type `Value`.
pub trait MulMods {
    /// A residue in the product's held form.
    type Value: Clone;
    /// x ← x² (one squaring).
    fn square(&mut self, x: &mut Self::Value);
    /// x ← x·y (one multiplication).
    fn mul(&mut self, x: &mut Self::Value, y: &Self::Value);
    /// x·y as a new value (one multiplication).
    fn product(&mut self, x: &Self::Value, y: &Self::Value) -> Self::Value {
        let mut p = x.clone();
        self.mul(&mut p, y);
        p
    }
}

impl MulMods for Counter<'_> {
    type Value = Integer;
    fn square(&mut self, x: &mut Integer) {
        Counter::square(self, x);
    }
    fn mul(&mut self, x: &mut Integer, y: &Integer) {
        Counter::mul(self, x, y);
    }
}

/// [`ParMont`] with counts: one unit for both threads, since every product uses both.
#[derive(Debug)]
pub struct ParCounter<'p> {
    /// The two-thread product.
    pub par: ParMont<'p>,
    /// Its counts.
    pub count: UnitCount,
}

impl MulMods for ParCounter<'_> {
    type Value = Vec<Limb>;
    fn square(&mut self, x: &mut Vec<Limb>) {
        self.par.square(x);
        self.count.squarings += 1;
    }
    fn mul(&mut self, x: &mut Vec<Limb>, y: &Vec<Limb>) {
        self.par.mul(x, y);
        self.count.multiplications += 1;
    }
}

/// base^exp by left-to-right square-and-multiply: k − 1 squarings and weight − 1
/// multiplications for a k-bit exponent (`None` for exp = 0).
pub fn binary<M: MulMods>(m: &mut M, base: &M::Value, exp: &Integer) -> Option<M::Value> {
    let bits = exp.significant_bits();
    if bits == 0 {
        return None;
    }
    let mut x = base.clone();
    for i in (0..bits - 1).rev() {
        m.square(&mut x);
        if exp.get_bit(i) {
            m.mul(&mut x, base);
        }
    }
    Some(x)
}

/// base^exp by the left-to-right sliding window of width `w` over odd powers: windows of at
/// most w bits that start and end with a 1, one squaring per zero between windows; table
/// base, base^3, ..., base^(2^w − 1) after base² (`None` for exp = 0).
pub fn sliding<M: MulMods>(m: &mut M, base: &M::Value, exp: &Integer, w: u32) -> Option<M::Value> {
    let bits = exp.significant_bits();
    if bits == 0 {
        return None;
    }
    let half = 1usize << (w - 1);
    let mut odd = Vec::with_capacity(half);
    odd.push(base.clone());
    if half > 1 {
        let mut b2 = base.clone();
        m.square(&mut b2);
        for j in 1..half {
            let next = m.product(&odd[j - 1], &b2);
            odd.push(next);
        }
    }
    let mut x: Option<M::Value> = None;
    let mut i = i64::from(bits) - 1;
    while i >= 0 {
        if !exp.get_bit(i as u32) {
            if let Some(x) = x.as_mut() {
                m.square(x);
            }
            i -= 1;
            continue;
        }
        // The window [l, i]: at most w bits, ending (at l) on a 1.
        let mut l = (i - i64::from(w) + 1).max(0);
        while !exp.get_bit(l as u32) {
            l += 1;
        }
        let value = (l..=i).rev().fold(0usize, |acc, b| {
            (acc << 1) | usize::from(exp.get_bit(b as u32))
        });
        match x.as_mut() {
            Some(x) => {
                for _ in l..=i {
                    m.square(x);
                }
                m.mul(x, &odd[value >> 1]);
            }
            None => x = Some(odd[value >> 1].clone()),
        }
        i = l - 1;
    }
    x
}
