//! PARC4-I (cipher-energy, after Handa & Kapoor 2015): RC4A-based, 256-byte blocks, a generator
//! that produces 4 bytes per step with its loop unrolled, blocks in parallel.
//!
//! # Layout
//!
//! The message is cut into 256-byte blocks ([`BLOCK`]); the generator
//! ([`Rc4a::apply_keystream_x4`]) covers a block in 64 unrolled steps of 4 bytes (cipher-energy:
//! "PRGA is only processed 16 times for every 64 bytes of data instead of 32 times in RC4A or
//! 64 times in RC4"). Consecutive blocks are grouped into *segments* of `segment` bytes (a
//! multiple of 256, default 64 KiB = 256 blocks); segment `i` is RC4A keyed with
//! `SHA-256(key ‖ nonce ‖ i as u64 big-endian)` (see [`derive_block_key`]; RC4A's second key
//! follows [`rc4a`](crate::cipher::rc4a)'s rule). Segments are dealt statically to threads.
//!
//! Why segments and not one key per 256-byte block: keying RC4A costs two 256-step KSAs plus
//! the second key's derivation, several times the cost of the block itself, so rekeying every
//! block would make PARC4-I slower than RC4A on any core count. Why not one keystream shared
//! by the blocks: that would be a two-time pad. The segment size is part of the format.
//!
//! The sequential form, [`Parc4i::apply_sequential`], runs [`Rc4a::apply_keystream`] segment
//! after segment; the parallel form runs the seed's 4-byte unrolled generator
//! ([`Rc4a::apply_keystream_x4`]) on every thread. Both generators share RC4A's fast loop and
//! are proptested against the textbook one-step generator; equality of the two forms checks
//! the split.
use super::parc4::{NONCE_LEN, check_nonce, derive_block_key};
use crate::cipher::rc4::check_key;
use crate::cipher::rc4a::{Rc4a, X4_BLOCK};
use crate::error::{Error, Result};
use crate::parallel::split::{check_threads, for_each_piece};
use zeroize::Zeroizing;

/// The PARC4-I block: 256 bytes.
pub const BLOCK: usize = X4_BLOCK;
/// Default segment (bytes under one derived key): 64 KiB, 256 blocks.
pub const DEFAULT_SEGMENT: usize = 64 * 1024;

/// A PARC4-I key, nonce, segment size and thread count; the key is wiped on drop.
#[derive(Clone)]
pub struct Parc4i {
    key: Zeroizing<Vec<u8>>,
    nonce: [u8; NONCE_LEN],
    segment: usize,
    threads: usize,
    pin: bool,
}

impl std::fmt::Debug for Parc4i {
    /// Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Parc4i {{ segment: {}, threads: {}, .. }}",
            self.segment, self.threads
        )
    }
}

impl Parc4i {
    /// PARC4-I with a key of 1 to 256 bytes, a [`NONCE_LEN`]-byte nonce, segments of
    /// `segment` bytes (a positive multiple of 256) and 1 to 1024 threads.
    pub fn new(key: &[u8], nonce: &[u8], segment: usize, threads: usize) -> Result<Self> {
        check_key(key, "PARC4-I")?;
        let nonce = check_nonce(nonce)?;
        if segment == 0 || segment % BLOCK != 0 {
            return Err(Error::InvalidParameter(format!(
                "PARC4-I segment size must be a positive multiple of {BLOCK} bytes, got {segment}"
            )));
        }
        check_threads(threads)?;
        Ok(Self {
            key: Zeroizing::new(key.to_vec()),
            nonce,
            segment,
            threads,
            pin: false,
        })
    }

    /// Pins spawned thread `t` to logical CPU `t` (best effort).
    pub fn pinned(self, pin: bool) -> Self {
        Self { pin, ..self }
    }

    /// Segment size in bytes.
    pub fn segment_bytes(&self) -> usize {
        self.segment
    }

    /// The thread count.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The RC4A generator of segment `index`.
    fn generator(&self, index: u64) -> Rc4a {
        let key = derive_block_key(&self.key, &self.nonce, index);
        Rc4a::new(&key[..]).expect("32-byte key")
    }

    /// The sequential form: segment after segment on the calling thread, with
    /// [`Rc4a::apply_keystream`]. `data` starts at segment `first_segment` of the message.
    pub fn apply_sequential(&self, first_segment: u64, data: &mut [u8]) {
        for (k, seg) in data.chunks_mut(self.segment).enumerate() {
            self.generator(first_segment.wrapping_add(k as u64))
                .apply_keystream(seg);
        }
    }

    /// The parallel form: segments dealt statically over the threads, each run with the
    /// unrolled 4-byte generator over its 256-byte blocks.
    pub fn apply(&self, first_segment: u64, data: &mut [u8]) {
        for_each_piece(data, self.segment, self.threads, self.pin, |unit, piece| {
            let first = first_segment.wrapping_add(unit as u64);
            for (k, seg) in piece.chunks_mut(self.segment).enumerate() {
                self.generator(first.wrapping_add(k as u64))
                    .apply_keystream_x4(seg);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: [u8; NONCE_LEN] = *b"parc4i-nonce-xyz";

    #[test]
    fn parallel_equals_sequential_around_blocks_and_segments() {
        for len in [0usize, 1, 3, 4, 255, 256, 257, 511, 512, 513, 1500] {
            let data: Vec<u8> = (0..len).map(|i| (i * 3) as u8).collect();
            for threads in 1..=6 {
                let p = Parc4i::new(b"key", &NONCE, 512, threads).unwrap();
                let (mut a, mut b) = (data.clone(), data.clone());
                p.apply(2, &mut a);
                p.apply_sequential(2, &mut b);
                assert_eq!(a, b, "len {len} threads {threads}");
                p.apply(2, &mut a);
                assert_eq!(a, data);
            }
        }
    }

    #[test]
    fn segment_i_is_rc4a_under_its_derived_key() {
        let p = Parc4i::new(b"key", &NONCE, 256, 2).unwrap();
        let mut data = vec![0u8; 600];
        p.apply(0, &mut data);
        for (i, seg) in data.chunks(256).enumerate() {
            let k = derive_block_key(b"key", &NONCE, i as u64);
            let mut ks = vec![0u8; seg.len()];
            Rc4a::new(&k[..]).unwrap().keystream(&mut ks);
            assert_eq!(seg, &ks[..]);
        }
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Parc4i::new(b"key", &NONCE, 100, 1).is_err());
        assert!(Parc4i::new(b"key", &NONCE, 0, 1).is_err());
        assert!(Parc4i::new(b"key", &NONCE, 256, 0).is_err());
        assert!(Parc4i::new(b"key", b"short", 256, 1).is_err());
        let p = Parc4i::new(b"key", &NONCE, 1024, 3).unwrap().pinned(false);
        assert_eq!((p.segment_bytes(), p.threads()), (1024, 3));
    }
}
