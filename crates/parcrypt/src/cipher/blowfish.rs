//! Blowfish (Schneier, 1993): the key schedule and the 64-bit block function, one block at a
//! time and [`LANES`] independent blocks interleaved.
//!
//! **Outdated**: a 64-bit block (birthday bound at a few tens of GiB, see SWEET32) and weak-key
//! classes; kept because the seed papers study it. Blocks are read big-endian, as in Eric
//! Young's published vectors and OpenSSL.
//!
//! The interleaved path keeps [`LANES`] blocks in flight: each round of one block is a chain
//! of four dependent S-box loads, so a single block leaves the core's load ports mostly idle;
//! independent blocks fill them. The S-boxes are `[u32; 256]` arrays indexed by a byte of the
//! half-block, which the compiler proves in bounds, so the hot loop has no bounds checks and
//! no `unsafe`.
use super::blowfish_consts::{P_INIT, S_INIT};
use crate::error::{Error, Result};
use std::fmt;
use zeroize::Zeroize;

/// Block size in bytes.
pub const BLOCK: usize = 8;
/// Shortest key the specification allows (32 bits).
pub const MIN_KEY: usize = 4;
/// Longest key the specification allows (448 bits).
pub const MAX_KEY: usize = 56;
/// Longest key the key schedule can use at all (18 subkeys x 4 bytes); OpenSSL accepts up to this.
pub const MAX_VAR_KEY: usize = 72;
/// Blocks processed together by the interleaved ECB/CBC-decrypt/CTR paths.
pub const LANES: usize = 8;

/// A Blowfish key schedule: 18 P-subkeys and four 256-entry S-boxes (4168 bytes), wiped on drop.
#[derive(Clone)]
pub struct Blowfish {
    p: [u32; 18],
    s: [[u32; 256]; 4],
}

impl fmt::Debug for Blowfish {
    /// Never prints key material.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blowfish { .. }")
    }
}

impl Drop for Blowfish {
    fn drop(&mut self) {
        self.p.zeroize();
        self.s.zeroize();
    }
}

impl Blowfish {
    /// Expands a key of 4 to 56 bytes (32 to 448 bits), the range of the specification.
    pub fn new(key: &[u8]) -> Result<Self> {
        if !(MIN_KEY..=MAX_KEY).contains(&key.len()) {
            return Err(Error::InvalidKey(format!(
                "Blowfish key must be {MIN_KEY} to {MAX_KEY} bytes (32 to 448 bits), got {} bytes",
                key.len()
            )));
        }
        Ok(Self::expand(key))
    }

    /// Expands a key of 1 to 72 bytes, as OpenSSL's `BF_set_key` does: outside the
    /// specification's 4..=56 range, for the published set-key vectors (1..24-byte keys) and
    /// OpenSSL compatibility. Keys longer than 72 bytes would be silently truncated, so they are
    /// refused.
    pub fn new_varkey(key: &[u8]) -> Result<Self> {
        if !(1..=MAX_VAR_KEY).contains(&key.len()) {
            return Err(Error::InvalidKey(format!(
                "Blowfish key must be 1 to {MAX_VAR_KEY} bytes here, got {} bytes",
                key.len()
            )));
        }
        Ok(Self::expand(key))
    }

    /// The key schedule: XOR the cyclically repeated key into P, then replace P and the S-boxes
    /// by successive encryptions of the all-zero block.
    fn expand(key: &[u8]) -> Self {
        let mut bf = Blowfish {
            p: P_INIT,
            s: S_INIT,
        };
        let mut k = key.iter().cycle();
        for p in bf.p.iter_mut() {
            let mut word = 0u32;
            for _ in 0..4 {
                word = (word << 8) | u32::from(*k.next().expect("key is not empty"));
            }
            *p ^= word;
        }
        let (mut l, mut r) = (0u32, 0u32);
        for i in (0..18).step_by(2) {
            (l, r) = bf.encrypt_words(l, r);
            bf.p[i] = l;
            bf.p[i + 1] = r;
        }
        for b in 0..4 {
            for i in (0..256).step_by(2) {
                (l, r) = bf.encrypt_words(l, r);
                bf.s[b][i] = l;
                bf.s[b][i + 1] = r;
            }
        }
        bf
    }

    /// The round function F: `((S0[a] + S1[b]) ^ S2[c]) + S3[d]` for the bytes a..d of `x`.
    #[inline(always)]
    pub(crate) fn f(&self, x: u32) -> u32 {
        let s = &self.s;
        (s[0][(x >> 24) as usize].wrapping_add(s[1][((x >> 16) & 0xff) as usize])
            ^ s[2][((x >> 8) & 0xff) as usize])
            .wrapping_add(s[3][(x & 0xff) as usize])
    }

    /// Subkey `P[i]` (`i < 18`), for the round pipeline's stages.
    #[inline(always)]
    pub(crate) fn subkey(&self, i: usize) -> u32 {
        self.p[i]
    }

    /// Encrypts one block given as its two big-endian halves.
    #[inline]
    pub fn encrypt_words(&self, mut l: u32, mut r: u32) -> (u32, u32) {
        let p = &self.p;
        for i in (0..16).step_by(2) {
            l ^= p[i];
            r ^= self.f(l);
            r ^= p[i + 1];
            l ^= self.f(r);
        }
        (r ^ p[17], l ^ p[16])
    }

    /// Decrypts one block given as its two big-endian halves.
    #[inline]
    pub fn decrypt_words(&self, mut l: u32, mut r: u32) -> (u32, u32) {
        let p = &self.p;
        for i in (2..18).rev().step_by(2) {
            l ^= p[i];
            r ^= self.f(l);
            r ^= p[i - 1];
            l ^= self.f(r);
        }
        (r ^ p[0], l ^ p[1])
    }

    /// Encrypts one 8-byte block in place.
    pub fn encrypt_block(&self, block: &mut [u8; BLOCK]) {
        let (l, r) = split(block);
        let (l, r) = self.encrypt_words(l, r);
        join(block, l, r);
    }

    /// Decrypts one 8-byte block in place.
    pub fn decrypt_block(&self, block: &mut [u8; BLOCK]) {
        let (l, r) = split(block);
        let (l, r) = self.decrypt_words(l, r);
        join(block, l, r);
    }

    /// Encrypts `N` independent blocks at once, round by round, so their loads overlap.
    #[inline(always)]
    pub(crate) fn encrypt_lanes<const N: usize>(&self, l: &mut [u32; N], r: &mut [u32; N]) {
        let p = &self.p;
        for i in (0..16).step_by(2) {
            for k in 0..N {
                l[k] ^= p[i];
                r[k] ^= self.f(l[k]);
            }
            for k in 0..N {
                r[k] ^= p[i + 1];
                l[k] ^= self.f(r[k]);
            }
        }
        for k in 0..N {
            let t = l[k] ^ p[16];
            l[k] = r[k] ^ p[17];
            r[k] = t;
        }
    }

    /// Decrypts `N` independent blocks at once.
    #[inline(always)]
    pub(crate) fn decrypt_lanes<const N: usize>(&self, l: &mut [u32; N], r: &mut [u32; N]) {
        let p = &self.p;
        for i in (2..18).rev().step_by(2) {
            for k in 0..N {
                l[k] ^= p[i];
                r[k] ^= self.f(l[k]);
            }
            for k in 0..N {
                r[k] ^= p[i - 1];
                l[k] ^= self.f(r[k]);
            }
        }
        for k in 0..N {
            let t = l[k] ^ p[1];
            l[k] = r[k] ^ p[0];
            r[k] = t;
        }
    }

    /// ECB-encrypts whole blocks in place; `data.len()` must be a multiple of 8.
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        check_whole_blocks(data.len())?;
        self.ecb_in_place::<true>(data);
        Ok(())
    }

    /// ECB-decrypts whole blocks in place; `data.len()` must be a multiple of 8.
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        check_whole_blocks(data.len())?;
        self.ecb_in_place::<false>(data);
        Ok(())
    }

    /// ECB-encrypts then decrypts whole blocks in place (`data` ends as it began): the
    /// sequential work the round pipelines' benchmarks time beside each pipeline.
    pub fn round_trip_blocks(&self, data: &mut [u8]) -> Result<()> {
        self.encrypt_blocks(data)?;
        self.decrypt_blocks(data)
    }

    /// The interleaved ECB loop: [`LANES`] blocks per iteration, then the rest one by one.
    /// Bytes past the last whole block are left alone (callers check the length).
    pub(crate) fn ecb_in_place<const ENCRYPT: bool>(&self, data: &mut [u8]) {
        let mut groups = data.chunks_exact_mut(BLOCK * LANES);
        for group in &mut groups {
            let (mut l, mut r) = ([0u32; LANES], [0u32; LANES]);
            for (k, block) in group.chunks_exact(BLOCK).enumerate() {
                (l[k], r[k]) = split(block);
            }
            if ENCRYPT {
                self.encrypt_lanes(&mut l, &mut r);
            } else {
                self.decrypt_lanes(&mut l, &mut r);
            }
            for (k, block) in group.chunks_exact_mut(BLOCK).enumerate() {
                join(block, l[k], r[k]);
            }
        }
        for block in groups.into_remainder().chunks_exact_mut(BLOCK) {
            let (l, r) = split(block);
            let (l, r) = if ENCRYPT {
                self.encrypt_words(l, r)
            } else {
                self.decrypt_words(l, r)
            };
            join(block, l, r);
        }
    }
}

/// An error unless `len` is a whole number of blocks.
pub(crate) fn check_whole_blocks(len: usize) -> Result<()> {
    if len % BLOCK == 0 {
        Ok(())
    } else {
        Err(Error::InvalidLength(format!(
            "{len} bytes is not a whole number of {BLOCK}-byte blocks"
        )))
    }
}

/// The two big-endian halves of the first 8 bytes of `block`.
#[inline(always)]
pub fn split(block: &[u8]) -> (u32, u32) {
    (
        u32::from_be_bytes([block[0], block[1], block[2], block[3]]),
        u32::from_be_bytes([block[4], block[5], block[6], block[7]]),
    )
}

/// Writes two big-endian halves into the first 8 bytes of `block`.
#[inline(always)]
pub(crate) fn join(block: &mut [u8], l: u32, r: u32) {
    block[..4].copy_from_slice(&l.to_be_bytes());
    block[4..8].copy_from_slice(&r.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_published_vector() {
        let bf = Blowfish::new(&[0; 8]).unwrap();
        let mut block = [0u8; 8];
        bf.encrypt_block(&mut block);
        assert_eq!(block, [0x4e, 0xf9, 0x97, 0x45, 0x61, 0x98, 0xdd, 0x78]);
        bf.decrypt_block(&mut block);
        assert_eq!(block, [0; 8]);
    }

    #[test]
    fn interleaved_equals_one_block_at_a_time() {
        let bf = Blowfish::new(b"interleave").unwrap();
        for blocks in [0usize, 1, 3, 4, 5, 9, 17] {
            let data: Vec<u8> = (0..blocks * 8).map(|i| (i * 37 + 5) as u8).collect();
            let mut fast = data.clone();
            bf.encrypt_blocks(&mut fast).unwrap();
            let mut slow = data.clone();
            for b in slow.chunks_exact_mut(8) {
                bf.encrypt_block(b.try_into().unwrap());
            }
            assert_eq!(fast, slow, "{blocks} blocks");
            bf.decrypt_blocks(&mut fast).unwrap();
            assert_eq!(fast, data);
        }
    }

    #[test]
    fn key_lengths_are_checked() {
        assert!(matches!(Blowfish::new(&[1; 3]), Err(Error::InvalidKey(_))));
        assert!(matches!(Blowfish::new(&[1; 57]), Err(Error::InvalidKey(_))));
        assert!(Blowfish::new(&[1; 4]).is_ok() && Blowfish::new(&[1; 56]).is_ok());
        assert!(Blowfish::new_varkey(&[1; 1]).is_ok() && Blowfish::new_varkey(&[1; 72]).is_ok());
        assert!(Blowfish::new_varkey(&[]).is_err() && Blowfish::new_varkey(&[1; 73]).is_err());
        let err = Blowfish::new(&[]).unwrap_err().to_string();
        assert!(
            err.contains("4 to 56 bytes") && err.contains("got 0"),
            "{err}"
        );
    }

    #[test]
    fn partial_blocks_are_an_error_and_debug_hides_the_key() {
        let bf = Blowfish::new(b"key!").unwrap();
        assert!(matches!(
            bf.encrypt_blocks(&mut [0; 9]),
            Err(Error::InvalidLength(_))
        ));
        assert_eq!(format!("{bf:?}"), "Blowfish { .. }");
    }

    #[test]
    fn a_round_trip_leaves_the_blocks_as_they_were_and_refuses_partial_ones() {
        let bf = Blowfish::new(b"key!").unwrap();
        let data: Vec<u8> = (0..64u8).collect();
        let mut work = data.clone();
        bf.round_trip_blocks(&mut work).unwrap();
        assert_eq!(work, data);
        let mut enc = data.clone();
        bf.encrypt_blocks(&mut enc).unwrap();
        assert_ne!(enc, data);
        assert!(matches!(
            bf.round_trip_blocks(&mut [0; 9]),
            Err(Error::InvalidLength(_))
        ));
    }
}
