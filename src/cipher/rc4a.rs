//! RC4A (Paul & Preneel, FSE 2004): two RC4 permutations that index each other, two output
//! bytes per step.
//!
//! **Broken/outdated** like RC4 (distinguishers on RC4A exist, Maitra et al.); kept because seed
//! 004 studies it.
//!
//! # The second key (parcrypt's choice)
//!
//! The paper only says that k2 is "generated from a pseudorandom bit generator (e.g. RC4)
//! using k1 as the seed", and public implementations disagree (see
//! `tests/vectors/rc4a_NOTE.txt`). parcrypt fixes: **k2 = the first `len(k1)` bytes of the
//! RC4 keystream of k1** (no bytes dropped). Then `S1 = KSA(k1)` and `S2 = KSA(k2)`, both exactly
//! RC4's KSA, so RFC 6229 pins down S1, k2 and S2 (the tests check this), and
//! [`Rc4a::with_keys`] takes an explicit k2 for other conventions. There are no published RC4A
//! vectors; the ones in the tests are self-generated and labelled so.
//!
//! # The generator
//!
//! ```text
//! i += 1; j1 += S1[i]; swap(S1[i], S1[j1]); output S2[S1[i] + S1[j1]]
//!         j2 += S2[i]; swap(S2[i], S2[j2]); output S1[S2[i] + S2[j2]]
//! ```
//!
//! [`Rc4a::apply_keystream`] runs it one step (2 bytes) at a time: the reference.
//! [`Rc4a::apply_keystream_x4`] is PARC4-I's generator: two steps unrolled into one producing 4
//! bytes, XORed as a word, 64 steps per 256-byte block. Both give the same bytes.
use super::rc4::{Rc4, check_key, ksa};
use crate::error::Result;
use std::fmt;
use zeroize::{Zeroize, Zeroizing};

/// Bytes per PARC4-I block: the x4 generator's unrolled loop covers one block in 64 steps.
pub const X4_BLOCK: usize = 256;

/// An RC4A generator; wiped on drop.
#[derive(Clone)]
pub struct Rc4a {
    s1: [u8; 256],
    s2: [u8; 256],
    i: u8,
    j1: u8,
    j2: u8,
    /// Keystream bytes generated but not yet used (a step makes 2 or 4 bytes at once).
    pending: [u8; 4],
    /// `pending[pending_at..pending_end]` is unused keystream.
    pending_at: u8,
    pending_end: u8,
}

impl fmt::Debug for Rc4a {
    /// Never prints the state.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rc4a { .. }")
    }
}

impl Drop for Rc4a {
    fn drop(&mut self) {
        self.s1.zeroize();
        self.s2.zeroize();
        self.pending.zeroize();
        (self.i, self.j1, self.j2) = (0, 0, 0);
    }
}

/// parcrypt's second RC4A key: the first `k1.len()` bytes of RC4(k1)'s keystream.
pub fn derive_k2(k1: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let mut k2 = Zeroizing::new(vec![0u8; k1.len()]);
    Rc4::new(k1)?.keystream(&mut k2);
    Ok(k2)
}

impl Rc4a {
    /// RC4A keyed with `k1` (1..=256 bytes) and k2 derived from it (see the module docs).
    pub fn new(k1: &[u8]) -> Result<Self> {
        check_key(k1, "RC4A")?;
        let k2 = derive_k2(k1)?;
        Self::with_keys(k1, &k2)
    }

    /// RC4A with an explicit second key (both 1..=256 bytes).
    pub fn with_keys(k1: &[u8], k2: &[u8]) -> Result<Self> {
        check_key(k1, "RC4A")?;
        check_key(k2, "RC4A second")?;
        Ok(Self {
            s1: ksa(k1),
            s2: ksa(k2),
            i: 0,
            j1: 0,
            j2: 0,
            pending: [0; 4],
            pending_at: 0,
            pending_end: 0,
        })
    }

    /// The two permutations (after [`Rc4a::new`]: `KSA(k1)` and `KSA(k2)`). For structural
    /// tests and study; they are the secret state.
    pub fn states(&self) -> (&[u8; 256], &[u8; 256]) {
        (&self.s1, &self.s2)
    }

    /// One RC4A step: two keystream bytes.
    #[inline(always)]
    fn step(&mut self) -> [u8; 2] {
        let (s1, s2) = (&mut self.s1, &mut self.s2);
        self.i = self.i.wrapping_add(1);
        let i = self.i as usize;
        let a = s1[i];
        self.j1 = self.j1.wrapping_add(a);
        let b = s1[self.j1 as usize];
        s1[i] = b;
        s1[self.j1 as usize] = a;
        let z1 = s2[a.wrapping_add(b) as usize];
        let c = s2[i];
        self.j2 = self.j2.wrapping_add(c);
        let d = s2[self.j2 as usize];
        s2[i] = d;
        s2[self.j2 as usize] = c;
        let z2 = s1[c.wrapping_add(d) as usize];
        [z1, z2]
    }

    /// Uses up pending keystream bytes on the front of `data`; returns the rest.
    fn drain_pending<'d>(&mut self, data: &'d mut [u8]) -> &'d mut [u8] {
        let n = usize::from(self.pending_end - self.pending_at).min(data.len());
        let at = usize::from(self.pending_at);
        for (d, k) in data[..n].iter_mut().zip(&self.pending[at..at + n]) {
            *d ^= k;
        }
        self.pending_at += n as u8;
        &mut data[n..]
    }

    /// Keeps the unused tail of the last step's output for the next call.
    fn keep_pending(&mut self, ks: [u8; 4], used: usize, made: usize) {
        self.pending = ks;
        self.pending_at = used as u8;
        self.pending_end = made as u8;
    }

    /// XORs the next `data.len()` keystream bytes into `data`, one step (2 bytes) at a time:
    /// the reference generator.
    pub fn apply_keystream(&mut self, data: &mut [u8]) {
        let data = self.drain_pending(data);
        let mut pairs = data.chunks_exact_mut(2);
        for pair in &mut pairs {
            let [z1, z2] = self.step();
            pair[0] ^= z1;
            pair[1] ^= z2;
        }
        if let [last] = pairs.into_remainder() {
            let [z1, z2] = self.step();
            *last ^= z1;
            self.keep_pending([z1, z2, 0, 0], 1, 2);
        }
    }

    /// Two steps unrolled: four keystream bytes.
    #[inline(always)]
    fn step_x4(&mut self) -> [u8; 4] {
        let [a, b] = self.step();
        let [c, d] = self.step();
        [a, b, c, d]
    }

    /// PARC4-I's generator: the same keystream as [`Rc4a::apply_keystream`], produced 4 bytes
    /// per unrolled step and XORed as one 32-bit word, in 256-byte blocks of 64 steps.
    pub fn apply_keystream_x4(&mut self, data: &mut [u8]) {
        let data = self.drain_pending(data);
        let mut blocks = data.chunks_exact_mut(X4_BLOCK);
        for block in &mut blocks {
            for word in block.chunks_exact_mut(4) {
                let ks = u32::from_ne_bytes(self.step_x4());
                let x = ks ^ u32::from_ne_bytes([word[0], word[1], word[2], word[3]]);
                word.copy_from_slice(&x.to_ne_bytes());
            }
        }
        let mut words = blocks.into_remainder().chunks_exact_mut(4);
        for word in &mut words {
            let ks = self.step_x4();
            for (d, k) in word.iter_mut().zip(ks) {
                *d ^= k;
            }
        }
        let rest = words.into_remainder();
        if !rest.is_empty() {
            let ks = self.step_x4();
            for (d, k) in rest.iter_mut().zip(ks) {
                *d ^= k;
            }
            self.keep_pending(ks, rest.len(), 4);
        }
    }

    /// Writes the next `out.len()` keystream bytes into `out`.
    pub fn keystream(&mut self, out: &mut [u8]) {
        out.fill(0);
        self.apply_keystream(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x4_generator_equals_the_reference_for_any_split() {
        let mut reference = vec![0u8; 1000];
        Rc4a::new(b"parc4-i").unwrap().keystream(&mut reference);
        for cuts in [
            vec![1000],
            vec![1, 999],
            vec![3, 256, 5, 736],
            vec![255, 2, 743],
        ] {
            let mut rc4a = Rc4a::new(b"parc4-i").unwrap();
            let mut out = vec![0u8; 1000];
            let mut at = 0;
            for (n, cut) in cuts.iter().enumerate() {
                let piece = &mut out[at..at + cut];
                if n % 2 == 0 {
                    rc4a.apply_keystream_x4(piece);
                } else {
                    rc4a.apply_keystream(piece);
                }
                at += cut;
            }
            assert_eq!(out, reference, "cuts {cuts:?}");
        }
    }

    #[test]
    fn odd_pieces_keep_the_second_byte_of_a_step() {
        let mut whole = [0u8; 9];
        Rc4a::new(b"k").unwrap().keystream(&mut whole);
        let mut rc4a = Rc4a::new(b"k").unwrap();
        let mut parts = [0u8; 9];
        for piece in parts.chunks_mut(1) {
            rc4a.keystream(piece);
        }
        assert_eq!(parts, whole);
    }

    #[test]
    fn keys_are_checked() {
        assert!(Rc4a::new(&[]).is_err());
        assert!(Rc4a::with_keys(b"a", &[0; 257]).is_err());
        assert_eq!(derive_k2(b"abc").unwrap().len(), 3);
    }
}
