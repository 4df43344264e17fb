//! PARC4 (cipher-energy, after Handa & Kapoor 2014): RC4 over fixed-size blocks in parallel, each
//! block with its own keystream.
//!
//! # Block keys
//!
//! Running one RC4 keystream from several places at once is impossible (the PRGA is a
//! sequential shuffle), and giving every block the *same* keystream would be a two-time pad.
//! So block `i` (counted from 0 over the whole message) is encrypted with plain RC4 under
//!
//! ```text
//! K_i = SHA-256(key ‖ nonce ‖ i as u64 big-endian)      (32 bytes)
//! ```
//!
//! where `nonce` is exactly [`NONCE_LEN`] bytes — a fixed length makes `key ‖ nonce ‖ i`
//! unambiguous — and must never repeat under one key. The block size is part of the format:
//! decrypting with another block size gives garbage. RC4's biases remain within each block
//! (no bytes are dropped), so PARC4 is as broken as RC4; it is here for study.
//!
//! The sequential form, [`Parc4::apply_sequential`], runs the blocks one after another on the
//! calling thread; [`Parc4::apply`] deals them statically to threads. Both give the same
//! bytes. Per block, the key derivation and RC4's 256-step KSA cost about as much as
//! encrypting a kilobyte, so blocks of tens of kilobytes keep that overhead to a few percent.
use crate::cipher::rc4::{Rc4, check_key};
use crate::error::{Error, Result};
use crate::parallel::split::{check_threads, for_each_piece};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

/// Nonce length in bytes, for PARC4 and PARC4-I.
pub const NONCE_LEN: usize = 16;
/// Default block size: 64 KiB.
pub const DEFAULT_BLOCK: usize = 64 * 1024;

/// `SHA-256(key ‖ nonce ‖ index as u64 big-endian)`: the RC4 (PARC4) or RC4A (PARC4-I) key of
/// block or segment `index`.
pub fn derive_block_key(key: &[u8], nonce: &[u8; NONCE_LEN], index: u64) -> Zeroizing<[u8; 32]> {
    let mut h = Sha256::new();
    h.update(key);
    h.update(nonce);
    h.update(index.to_be_bytes());
    Zeroizing::new(h.finalize().into())
}

/// Checks a nonce's length and returns it as an array.
pub fn check_nonce(nonce: &[u8]) -> Result<[u8; NONCE_LEN]> {
    nonce.try_into().map_err(|_| {
        Error::InvalidParameter(format!(
            "nonce must be exactly {NONCE_LEN} bytes ({} hex digits), got {} bytes",
            NONCE_LEN * 2,
            nonce.len()
        ))
    })
}

/// A PARC4 key, nonce, block size and thread count; the key is wiped on drop.
#[derive(Clone)]
pub struct Parc4 {
    key: Zeroizing<Vec<u8>>,
    nonce: [u8; NONCE_LEN],
    block: usize,
    threads: usize,
    pin: bool,
}

impl std::fmt::Debug for Parc4 {
    /// Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Parc4 {{ block: {}, threads: {}, .. }}",
            self.block, self.threads
        )
    }
}

impl Parc4 {
    /// PARC4 with a key of 1 to 256 bytes, a [`NONCE_LEN`]-byte nonce, blocks of `block`
    /// bytes (at least 1) and 1 to 1024 threads.
    pub fn new(key: &[u8], nonce: &[u8], block: usize, threads: usize) -> Result<Self> {
        check_key(key, "PARC4")?;
        let nonce = check_nonce(nonce)?;
        if block == 0 {
            return Err(Error::InvalidParameter(
                "PARC4 block size must be at least 1 byte".into(),
            ));
        }
        check_threads(threads)?;
        Ok(Self {
            key: Zeroizing::new(key.to_vec()),
            nonce,
            block,
            threads,
            pin: false,
        })
    }

    /// Pins spawned thread `t` to logical CPU `t` (best effort).
    pub fn pinned(self, pin: bool) -> Self {
        Self { pin, ..self }
    }

    /// Block size in bytes.
    pub fn block_bytes(&self) -> usize {
        self.block
    }

    /// The thread count.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Encrypts or decrypts consecutive blocks on one thread: `data` starts at block
    /// `first_block` of the message (a piece of a longer message must start on a block
    /// boundary).
    fn blocks(&self, first_block: u64, data: &mut [u8]) {
        for (k, block) in data.chunks_mut(self.block).enumerate() {
            let key = derive_block_key(&self.key, &self.nonce, first_block.wrapping_add(k as u64));
            Rc4::new(&key[..])
                .expect("32-byte key")
                .apply_keystream(block);
        }
    }

    /// The sequential form: every block in order on the calling thread.
    pub fn apply_sequential(&self, first_block: u64, data: &mut [u8]) {
        self.blocks(first_block, data);
    }

    /// The parallel form: the blocks dealt statically over the threads. Same bytes as
    /// [`Parc4::apply_sequential`].
    pub fn apply(&self, first_block: u64, data: &mut [u8]) {
        for_each_piece(data, self.block, self.threads, self.pin, |unit, piece| {
            self.blocks(first_block.wrapping_add(unit as u64), piece)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: [u8; NONCE_LEN] = *b"nonce-0123456789";

    #[test]
    fn block_i_is_rc4_under_its_derived_key() {
        let p = Parc4::new(b"key", &NONCE, 10, 3).unwrap();
        let mut data = vec![0u8; 25];
        p.apply(0, &mut data);
        for (i, block) in data.chunks(10).enumerate() {
            let mut ks = vec![0u8; block.len()];
            let k = derive_block_key(b"key", &NONCE, i as u64);
            Rc4::new(&k[..]).unwrap().keystream(&mut ks);
            assert_eq!(block, &ks[..]);
        }
        assert_ne!(data[..10], data[10..20], "blocks get different keystreams");
    }

    #[test]
    fn derivation_is_sha256_of_key_nonce_and_index() {
        let k = derive_block_key(b"k", &NONCE, 0x0102);
        let mut input = b"k".to_vec();
        input.extend_from_slice(&NONCE);
        input.extend_from_slice(&[0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(k[..], Sha256::digest(&input)[..]);
    }

    #[test]
    fn parallel_equals_sequential_and_bad_parameters_are_refused() {
        let data: Vec<u8> = (0..1000).map(|i| i as u8).collect();
        for threads in 1..=8 {
            let p = Parc4::new(b"key", &NONCE, 64, threads).unwrap();
            let (mut a, mut b) = (data.clone(), data.clone());
            p.apply(5, &mut a);
            p.apply_sequential(5, &mut b);
            assert_eq!(a, b);
        }
        assert!(Parc4::new(b"key", &NONCE[..15], 64, 1).is_err());
        assert!(Parc4::new(b"key", &NONCE, 0, 1).is_err());
        assert!(Parc4::new(b"key", &NONCE, 64, 0).is_err());
        assert!(Parc4::new(b"", &NONCE, 64, 1).is_err());
        let dbg = format!("{:?}", Parc4::new(b"secret", &NONCE, 64, 2).unwrap());
        assert!(!dbg.contains("secret"), "{dbg}");
    }
}
