//! RC4 (Rivest, 1987): the key-scheduling algorithm (KSA) and the keystream generator (PRGA).
//!
//! **Broken**: its keystream is biased (Mantin–Shamir, Fluhrer–Mantin–McGrew, and the
//! plaintext-recovery attacks that got it banned from TLS, RFC 7465); kept because cipher-energy
//! studies it. Never reuse a key: the same key gives the same keystream (a two-time pad).
//!
//! No bytes are dropped after the KSA, so the output matches RFC 6229 and `openssl enc -rc4`.
//!
//! # The fast loop
//!
//! Each keystream byte costs three loads and two stores into the permutation `S`, and the
//! next step's `S[i]` may be the entry this step just stored, so RC4 is bound by the
//! processor's memory pipeline, not by arithmetic. Three choices make it fast:
//!
//! - `S` is kept as `[u32; 256]` (entries below 256), as OpenSSL's `RC4_INT` layout: word
//!   loads and stores, each entry alone in its 4 bytes, so a store never overlaps a later
//!   load of a neighbouring entry (byte entries measured about 1.4x slower here);
//! - on x86-64, whole 16-byte blocks go through `x86::apply_blocks`, 16 steps unrolled in
//!   inline assembly: `i` and `j` live in the low bytes of 64-bit registers whose upper bits
//!   stay zero, so `add j8, si8` both wraps mod 256 and leaves a ready index (no
//!   zero-extension on the `j` chain), and each output byte goes straight from `S` into a
//!   16-bit lane of an SSE2 register (`pinsrw`), packed and XORed into the data once per
//!   block. SSE2 is part of the x86-64 baseline, so no feature detection is needed;
//! - elsewhere (and for the bytes after the last whole block), a plain Rust loop whose indices
//!   are `u8`, so every access is in bounds by construction and no bounds check remains.
//!
//! Both produce exactly the reference generator's bytes (tests and proptests below).
use crate::error::{Error, Result};
use std::fmt;
use zeroize::Zeroize;

/// Shortest key accepted (RC4 is defined for 1..=256-byte keys; short keys are weak).
pub const MIN_KEY: usize = 1;
/// Longest key RC4 can use.
pub const MAX_KEY: usize = 256;

/// An RC4 generator: the permutation `S` (one entry per `u32`) and the indices `i`, `j`;
/// wiped on drop.
#[derive(Clone)]
pub struct Rc4 {
    s: [u32; 256],
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
        let mut s8 = ksa(key);
        let s = s8.map(u32::from);
        s8.zeroize();
        Ok(Self { s, i: 0, j: 0 })
    }

    /// A copy of the current permutation (right after [`Rc4::new`]: the KSA's output). For
    /// structural tests and study; it is the secret state.
    pub fn state(&self) -> [u8; 256] {
        self.s.map(|v| v as u8)
    }

    /// One keystream byte.
    #[inline(always)]
    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        let si = self.s[self.i as usize];
        self.j = self.j.wrapping_add(si as u8);
        let sj = self.s[self.j as usize];
        self.s[self.i as usize] = sj;
        self.s[self.j as usize] = si;
        self.s[(si as u8).wrapping_add(sj as u8) as usize] as u8
    }

    /// XORs the next `data.len()` keystream bytes into `data` (encryption and decryption are
    /// the same).
    pub fn apply_keystream(&mut self, data: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        let data = x86::apply_blocks(&mut self.s, &mut self.i, &mut self.j, data);
        let mut words = data.chunks_exact_mut(8);
        for word in &mut words {
            let mut ks = 0u64;
            for k in 0..8 {
                ks |= u64::from(self.next_byte()) << (8 * k);
            }
            let x = ks ^ u64::from_le_bytes(word.try_into().expect("8 bytes"));
            word.copy_from_slice(&x.to_le_bytes());
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

#[cfg(target_arch = "x86_64")]
mod x86 {
    /// One RC4 step in the loop below. On entry `{i}` holds this step's `i` and `{si}` holds
    /// `S[i]`; on exit `{i}` holds `i + 1` and `{si}` holds `S[i + 1]` (loaded after this
    /// step's swap, so it sees it). The keystream byte `S[si + sj]` goes into 16-bit lane
    /// `$lane` of `$x`.
    macro_rules! step {
        ($x:literal, $lane:literal) => {
            concat!(
                "add {j:l}, {si:l}\n",
                "mov {sj:e}, dword ptr [{s} + {j}*4]\n",
                "mov dword ptr [{s} + {j}*4], {si:e}\n",
                "add {si:l}, {sj:l}\n",
                "mov dword ptr [{s} + {i}*4], {sj:e}\n",
                "inc {i:l}\n",
                "pinsrw {",
                $x,
                "}, word ptr [{s} + {si}*4], ",
                $lane,
                "\n",
                "mov {si:e}, dword ptr [{s} + {i}*4]\n",
            )
        };
    }

    /// XORs keystream into the whole 16-byte blocks at the front of `data` and returns the
    /// bytes after them. `s`, `i`, `j` are the generator's state and are left as the reference
    /// generator would leave them.
    pub(super) fn apply_blocks<'d>(
        s: &mut [u32; 256],
        i: &mut u8,
        j: &mut u8,
        data: &'d mut [u8],
    ) -> &'d mut [u8] {
        let blocks = data.len() / 16;
        let (head, rest) = data.split_at_mut(blocks * 16);
        if blocks == 0 {
            return rest;
        }
        // Indices as 64-bit values below 256: the loop only ever writes their low bytes.
        let mut ir = u64::from(i.wrapping_add(1));
        let mut jr = u64::from(*j);
        // SAFETY: `s` points to 256 `u32`s and every index used with it (`i`, `j`, `si`) is a
        // register whose upper 56 bits are zero on entry and are never written (only 8-bit
        // adds and `inc` touch them, and 32-bit loads of entries below 256 fill `si`), so
        // every access is inside `s`. `p` points to `head`, `blocks` * 16 bytes that we
        // borrow mutably, and the loop reads and writes exactly those 16 bytes per block,
        // `blocks` >= 1 times. SSE2 (`pinsrw`, `packuswb`, `pxor`, `movdqu`) is part of the
        // x86-64 baseline. No stack is used; flags are clobbered (the default).
        unsafe {
            std::arch::asm!(
                "mov {si:e}, dword ptr [{s} + {i}*4]",
                "2:",
                step!("lo", "0"), step!("lo", "1"), step!("lo", "2"), step!("lo", "3"),
                step!("lo", "4"), step!("lo", "5"), step!("lo", "6"), step!("lo", "7"),
                step!("hi", "0"), step!("hi", "1"), step!("hi", "2"), step!("hi", "3"),
                step!("hi", "4"), step!("hi", "5"), step!("hi", "6"), step!("hi", "7"),
                "packuswb {lo}, {hi}",
                "movdqu {hi}, xmmword ptr [{p}]",
                "pxor {hi}, {lo}",
                "movdqu xmmword ptr [{p}], {hi}",
                "add {p}, 16",
                "dec {n}",
                "jnz 2b",
                s = in(reg) s.as_mut_ptr(),
                p = inout(reg) head.as_mut_ptr() => _,
                n = inout(reg) blocks => _,
                i = inout(reg) ir,
                j = inout(reg) jr,
                si = out(reg) _,
                sj = out(reg) _,
                lo = out(xmm_reg) _,
                hi = out(xmm_reg) _,
                options(nostack),
            );
        }
        // The loop leaves `i` one ahead (its `S[i]` preloaded); the state's `i` is the last
        // one used.
        *i = (ir as u8).wrapping_sub(1);
        *j = jr as u8;
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook generator on a byte permutation: the reference for the fast loops.
    fn plain_keystream(key: &[u8], skip: usize, n: usize) -> Vec<u8> {
        let mut s = ksa(key);
        let (mut i, mut j) = (0u8, 0u8);
        let mut out = Vec::with_capacity(n);
        for k in 0..skip + n {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[i as usize]);
            s.swap(i as usize, j as usize);
            let z = s[s[i as usize].wrapping_add(s[j as usize]) as usize];
            if k >= skip {
                out.push(z);
            }
        }
        out
    }

    #[test]
    fn classic_example() {
        let mut data = *b"Plaintext";
        Rc4::new(b"Key").unwrap().apply_keystream(&mut data);
        assert_eq!(data, [0xbb, 0xf3, 0x16, 0xe8, 0xd9, 0x40, 0xaf, 0x0a, 0xd3]);
    }

    #[test]
    fn rfc6229_rows() {
        // RFC 6229, key 0x0102030405 at offsets 0, 16, 240 and 4096, and the 256-bit key
        // 0x0102...20 at offsets 0 and 1520 (copied from the RFC's test vectors).
        let key40: Vec<u8> = (1..=5).collect();
        let key256: Vec<u8> = (1..=32).collect();
        let mut ks = vec![0u8; 4112];
        Rc4::new(&key40).unwrap().keystream(&mut ks);
        for (offset, row) in [
            (0, "b2396305f03dc027ccc3524a0a1118a8"),
            (16, "6982944f18fc82d589c403a47a0d0919"),
            (240, "28cb1132c96ce286421dcaadb8b69eae"),
            (4096, "ff25b58995996707e51fbdf08b34d875"),
        ] {
            assert_eq!(
                hex::encode(&ks[offset..offset + 16]),
                row,
                "offset {offset}"
            );
        }
        let mut ks = vec![0u8; 1536];
        Rc4::new(&key256).unwrap().keystream(&mut ks);
        assert_eq!(hex::encode(&ks[..16]), "eaa6bd25880bf93d3f5d1e4ca2611d91");
        assert_eq!(hex::encode(&ks[1520..]), "40f250b26d1f096a4afd4c340a588815");
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
        assert_eq!(rc4.state(), ksa(&[7; 256]));
        assert_eq!(format!("{rc4:?}"), "Rc4 { .. }");
    }

    #[test]
    fn long_runs_equal_the_plain_generator() {
        // Long enough for i and j to wrap many times in the unrolled loop.
        let fast = {
            let mut v = vec![0u8; 70_001];
            Rc4::new(b"a long run").unwrap().keystream(&mut v);
            v
        };
        assert_eq!(fast, plain_keystream(b"a long run", 0, 70_001));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any key, any split of the message into calls (so the unrolled loop starts at any
        /// `i`, `j`), any skip: the same bytes as the plain generator.
        #[test]
        fn fast_loop_equals_the_plain_generator(
            key in proptest::collection::vec(any::<u8>(), 1..=256),
            skip in 0usize..300,
            cuts in proptest::collection::vec(0usize..200, 1..8),
        ) {
            let n: usize = cuts.iter().sum();
            let mut rc4 = Rc4::new(&key).unwrap();
            rc4.discard(skip);
            let mut out = vec![0u8; n];
            let mut at = 0;
            for c in &cuts {
                rc4.keystream(&mut out[at..at + c]);
                at += c;
            }
            prop_assert_eq!(out, plain_keystream(&key, skip, n));
        }
    }
}
