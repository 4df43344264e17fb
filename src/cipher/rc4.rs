//! RC4 (Rivest, 1987): the key-scheduling algorithm (KSA) and the keystream generator (PRGA).
//!
//! **Broken**: its keystream is biased (Mantin–Shamir, Fluhrer–Mantin–McGrew, and the
//! plaintext-recovery attacks that got it banned from TLS, RFC 7465); kept because seed 004
//! studies it. Never reuse a key: the same key gives the same keystream (a two-time pad).
//!
//! No bytes are dropped after the KSA, so the output matches RFC 6229 and `openssl enc -rc4`.
//! The state is `[u8; 256]` indexed by `u8`, so every index is in bounds by construction.
use crate::error::{Error, Result};
use std::fmt;
use zeroize::Zeroize;

/// Shortest key accepted (RC4 is defined for 1..=256-byte keys; short keys are weak).
pub const MIN_KEY: usize = 1;
/// Longest key RC4 can use.
pub const MAX_KEY: usize = 256;

/// An RC4 generator: the permutation `S` and the indices `i`, `j`; wiped on drop.
#[derive(Clone)]
pub struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl fmt::Debug for Rc4 {
    /// Never prints the state.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rc4 { .. }")
    }
}

impl Drop for Rc4 {
    fn drop(&mut self) {
        self.s.zeroize();
        self.i.zeroize();
        self.j.zeroize();
    }
}

/// An error unless `key` has 1 to 256 bytes.
pub(crate) fn check_key(key: &[u8], what: &str) -> Result<()> {
    if (MIN_KEY..=MAX_KEY).contains(&key.len()) {
        Ok(())
    } else {
        Err(Error::InvalidKey(format!(
            "{what} key must be {MIN_KEY} to {MAX_KEY} bytes, got {} bytes",
            key.len()
        )))
    }
}

/// The key-scheduling algorithm: the permutation RC4 starts from for `key` (1..=256 bytes,
/// unchecked here).
pub(crate) fn ksa(key: &[u8]) -> [u8; 256] {
    let mut s = [0u8; 256];
    for (k, v) in s.iter_mut().enumerate() {
        *v = k as u8;
    }
    let mut j = 0u8;
    for (i, &k) in (0..256usize).zip(key.iter().cycle()) {
        j = j.wrapping_add(s[i]).wrapping_add(k);
        s.swap(i, j as usize);
    }
    s
}

impl Rc4 {
    /// Runs the KSA on a key of 1 to 256 bytes.
    pub fn new(key: &[u8]) -> Result<Self> {
        check_key(key, "RC4")?;
        Ok(Self {
            s: ksa(key),
            i: 0,
            j: 0,
        })
    }

    /// The current permutation (right after [`Rc4::new`]: the KSA's output). For structural
    /// tests and study; it is the secret state.
    pub fn state(&self) -> &[u8; 256] {
        &self.s
    }

    /// One keystream byte.
    #[inline(always)]
    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        let si = self.s[self.i as usize];
        self.j = self.j.wrapping_add(si);
        let sj = self.s[self.j as usize];
        self.s[self.i as usize] = sj;
        self.s[self.j as usize] = si;
        self.s[si.wrapping_add(sj) as usize]
    }

    /// XORs the next `data.len()` keystream bytes into `data` (encryption and decryption are
    /// the same). Eight bytes per iteration, XORed as one word.
    pub fn apply_keystream(&mut self, data: &mut [u8]) {
        let mut words = data.chunks_exact_mut(8);
        for word in &mut words {
            let mut ks = [0u8; 8];
            for k in ks.iter_mut() {
                *k = self.next_byte();
            }
            let x = u64::from_ne_bytes(ks) ^ u64::from_ne_bytes(word.try_into().expect("8"));
            word.copy_from_slice(&x.to_ne_bytes());
        }
        for b in words.into_remainder() {
            *b ^= self.next_byte();
        }
    }

    /// Writes the next `out.len()` keystream bytes into `out`.
    pub fn keystream(&mut self, out: &mut [u8]) {
        out.fill(0);
        self.apply_keystream(out);
    }

    /// Skips `n` keystream bytes (e.g. RC4-drop\[n\]).
    pub fn discard(&mut self, n: usize) {
        for _ in 0..n {
            self.next_byte();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_example() {
        let mut data = *b"Plaintext";
        Rc4::new(b"Key").unwrap().apply_keystream(&mut data);
        assert_eq!(data, [0xbb, 0xf3, 0x16, 0xe8, 0xd9, 0x40, 0xaf, 0x0a, 0xd3]);
    }

    #[test]
    fn pieces_equal_the_whole_and_discard_skips() {
        let mut whole = [0u8; 100];
        Rc4::new(b"pieces").unwrap().keystream(&mut whole);
        let mut rc4 = Rc4::new(b"pieces").unwrap();
        let mut parts = [0u8; 100];
        for piece in parts.chunks_mut(13) {
            rc4.keystream(piece);
        }
        assert_eq!(parts, whole);
        let mut rc4 = Rc4::new(b"pieces").unwrap();
        rc4.discard(37);
        let mut rest = [0u8; 63];
        rc4.keystream(&mut rest);
        assert_eq!(rest, whole[37..]);
    }

    #[test]
    fn key_length_is_checked_and_state_is_a_permutation() {
        assert!(matches!(Rc4::new(&[]), Err(Error::InvalidKey(_))));
        assert!(matches!(Rc4::new(&[0; 257]), Err(Error::InvalidKey(_))));
        let rc4 = Rc4::new(&[7; 256]).unwrap();
        let mut seen = [false; 256];
        rc4.state().iter().for_each(|&v| seen[v as usize] = true);
        assert!(seen.iter().all(|&b| b));
        assert_eq!(format!("{rc4:?}"), "Rc4 { .. }");
    }
}
