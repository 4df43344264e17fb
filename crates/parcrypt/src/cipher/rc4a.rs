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
//! As RC4's ([`rc4`](super::rc4)), the permutations are kept as `[u32; 256]` (entries below
//! 256: word loads and stores, no two entries sharing a word), and the hot loop keeps `i`,
//! `j1`, `j2` in locals and indexes with `& 0xff`, so every access is provably in bounds and no
//! bounds check remains. [`Rc4a::apply_keystream`] runs four steps (8 bytes, one word XOR) per
//! iteration; [`Rc4a::apply_keystream_x4`] is PARC4-I's generator, the seed's structure of two
//! steps unrolled into one producing 4 bytes, 64 such steps per 256-byte block, over the same
//! loop. Both give the bytes of the one-step-at-a-time textbook generator (proptested below).
use super::rc4::{Rc4, check_key, ksa};
use crate::error::Result;
use std::fmt;
use zeroize::{Zeroize, Zeroizing};

/// Bytes per PARC4-I block: the x4 generator's unrolled loop covers one block in 64 steps.
pub const X4_BLOCK: usize = 256;

/// An RC4A generator; wiped on drop.
#[derive(Clone)]
pub struct Rc4a {
    s1: [u32; 256],
    s2: [u32; 256],
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
        let (mut a, mut b) = (ksa(k1), ksa(k2));
        let (s1, s2) = (a.map(u32::from), b.map(u32::from));
        a.zeroize();
        b.zeroize();
        Ok(Self {
            s1,
            s2,
            i: 0,
            j1: 0,
            j2: 0,
            pending: [0; 4],
            pending_at: 0,
            pending_end: 0,
        })
    }

    /// Copies of the two permutations (after [`Rc4a::new`]: `KSA(k1)` and `KSA(k2)`). For
    /// structural tests and study; they are the secret state.
    pub fn states(&self) -> ([u8; 256], [u8; 256]) {
        (self.s1.map(|v| v as u8), self.s2.map(|v| v as u8))
    }

    /// One RC4A step: two keystream bytes.
    #[inline(always)]
    fn step(&mut self) -> [u8; 2] {
        let (s1, s2) = (&mut self.s1, &mut self.s2);
        self.i = self.i.wrapping_add(1);
        let i = self.i as usize;
        let a = s1[i];
        self.j1 = self.j1.wrapping_add(a as u8);
        let b = s1[self.j1 as usize];
        s1[i] = b;
        s1[self.j1 as usize] = a;
        let z1 = s2[(a as u8).wrapping_add(b as u8) as usize] as u8;
        let c = s2[i];
        self.j2 = self.j2.wrapping_add(c as u8);
        let d = s2[self.j2 as usize];
        s2[i] = d;
        s2[self.j2 as usize] = c;
        let z2 = s1[(c as u8).wrapping_add(d as u8) as usize] as u8;
        [z1, z2]
    }

    /// The fast loop: XORs four steps (8 bytes) of keystream into each whole 8-byte word at
    /// the front of `data`; returns the bytes after them. Indices are unreduced locals masked
    /// with `& 0xff` at each access (in bounds by construction; the `j` chains carry no
    /// reduction), written back reduced.
    fn apply_words<'d>(&mut self, data: &'d mut [u8]) -> &'d mut [u8] {
        let (s1, s2) = (&mut self.s1, &mut self.s2);
        let mut i = usize::from(self.i);
        let (mut j1, mut j2) = (usize::from(self.j1), usize::from(self.j2));
        let mut words = data.chunks_exact_mut(8);
        for word in &mut words {
            let mut ks = 0u64;
            for k in 0..4 {
                i = i.wrapping_add(1);
                let ix = i & 0xff;
                let a = s1[ix];
                j1 = j1.wrapping_add(a as usize);
                let jx = j1 & 0xff;
                let b = s1[jx];
                s1[jx] = a;
                s1[ix] = b;
                ks |= u64::from(s2[(a + b) as usize & 0xff]) << (16 * k);
                let c = s2[ix];
                j2 = j2.wrapping_add(c as usize);
                let jx = j2 & 0xff;
                let d = s2[jx];
                s2[jx] = c;
                s2[ix] = d;
                ks |= u64::from(s1[(c + d) as usize & 0xff]) << (16 * k + 8);
            }
            let x = ks ^ u64::from_le_bytes(word.try_into().expect("8 bytes"));
            word.copy_from_slice(&x.to_le_bytes());
        }
        (self.i, self.j1, self.j2) = (i as u8, j1 as u8, j2 as u8);
        words.into_remainder()
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

    /// XORs the next `data.len()` keystream bytes into `data`: four steps per 8-byte word,
    /// then the last bytes one step (2 bytes) at a time.
    pub fn apply_keystream(&mut self, data: &mut [u8]) {
        let data = self.drain_pending(data);
        let data = self.apply_words(data);
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
    /// per unrolled step, in 256-byte blocks of 64 steps (each block through the fast loop,
    /// two unrolled steps per word).
    pub fn apply_keystream_x4(&mut self, data: &mut [u8]) {
        let data = self.drain_pending(data);
        let mut blocks = data.chunks_exact_mut(X4_BLOCK);
        for block in &mut blocks {
            let rest = self.apply_words(block);
            debug_assert!(rest.is_empty());
        }
        let rest = self.apply_words(blocks.into_remainder());
        let mut words = rest.chunks_exact_mut(4);
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
    use proptest::prelude::*;

    /// The textbook generator on byte permutations, one step at a time: the reference.
    fn plain_keystream(k1: &[u8], k2: &[u8], n: usize) -> Vec<u8> {
        let (mut s1, mut s2) = (ksa(k1), ksa(k2));
        let (mut i, mut j1, mut j2) = (0u8, 0u8, 0u8);
        let mut out = Vec::with_capacity(n + 1);
        while out.len() < n {
            i = i.wrapping_add(1);
            j1 = j1.wrapping_add(s1[i as usize]);
            s1.swap(i as usize, j1 as usize);
            out.push(s2[s1[i as usize].wrapping_add(s1[j1 as usize]) as usize]);
            j2 = j2.wrapping_add(s2[i as usize]);
            s2.swap(i as usize, j2 as usize);
            out.push(s1[s2[i as usize].wrapping_add(s2[j2 as usize]) as usize]);
        }
        out.truncate(n);
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Both generators, over any split into calls, give the textbook generator's bytes.
        #[test]
        fn fast_loops_equal_the_plain_generator(
            k1 in proptest::collection::vec(any::<u8>(), 1..=64),
            k2 in proptest::collection::vec(any::<u8>(), 1..=64),
            cuts in proptest::collection::vec(0usize..700, 1..6),
        ) {
            let n: usize = cuts.iter().sum();
            let expect = plain_keystream(&k1, &k2, n);
            for x4 in [false, true] {
                let mut g = Rc4a::with_keys(&k1, &k2).unwrap();
                let mut out = vec![0u8; n];
                let mut at = 0;
                for c in &cuts {
                    if x4 {
                        g.apply_keystream_x4(&mut out[at..at + c]);
                    } else {
                        g.apply_keystream(&mut out[at..at + c]);
                    }
                    at += c;
                }
                prop_assert_eq!(&out, &expect);
            }
        }
    }

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
    fn states_are_the_two_ksa_outputs() {
        let g = Rc4a::new(b"k1").unwrap();
        let k2 = derive_k2(b"k1").unwrap();
        assert_eq!(g.states(), (ksa(b"k1"), ksa(&k2)));
        assert_eq!(format!("{g:?}"), "Rc4a { .. }");
    }

    #[test]
    fn keys_are_checked() {
        assert!(Rc4a::new(&[]).is_err());
        assert!(Rc4a::with_keys(b"a", &[0; 257]).is_err());
        assert_eq!(derive_k2(b"abc").unwrap().len(), 3);
    }
}
