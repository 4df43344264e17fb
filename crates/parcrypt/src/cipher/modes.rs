//! Blowfish modes of operation — ECB, CBC, CTR — and PKCS#7 padding as OpenSSL applies it.
//!
//! Each mode exists twice: a whole-message function that pads and allocates (`ecb_encrypt`,
//! `cbc_decrypt`, ...) and an in-place primitive over whole blocks that carries its state
//! across calls (`cbc_encrypt_in_place` with its chaining block, `ctr_apply_in_place` with its
//! block index), which the file streamer and the parallel forms build on.
//!
//! CTR (not in OpenSSL for Blowfish) is defined here: the counter block for block `i` is
//! `IV + i` with the 8-byte IV read as a big-endian integer, wrapping modulo 2^64; the keystream
//! is the encrypted counter block; a final partial block uses the keystream's first bytes.
use super::blowfish::{BLOCK, Blowfish, LANES, check_whole_blocks, join, split};
use crate::error::{Error, Result};

/// Whether block modes pad the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Padding {
    /// PKCS#7: always 1 to 8 bytes, each equal to the count (OpenSSL's default).
    #[default]
    Pkcs7,
    /// None: the message must be a whole number of blocks (`openssl enc -nopad`).
    None,
}

/// Appends PKCS#7 padding for 8-byte blocks: 1..=8 bytes of value n.
pub fn pkcs7_pad(data: &mut Vec<u8>) {
    let n = BLOCK - data.len() % BLOCK;
    data.resize(data.len() + n, n as u8);
}

/// Checks and strips PKCS#7 padding. A wrong key or a corrupted last block gives an error.
pub fn pkcs7_unpad(data: &mut Vec<u8>) -> Result<()> {
    let bad = || {
        Error::InvalidCiphertext("bad padding (wrong key, IV or mode, or corrupted data)".into())
    };
    if data.is_empty() || data.len() % BLOCK != 0 {
        return Err(Error::InvalidCiphertext(format!(
            "{} bytes is not a whole, non-empty number of {BLOCK}-byte blocks",
            data.len()
        )));
    }
    let n = *data.last().expect("not empty") as usize;
    if !(1..=BLOCK).contains(&n) || data[data.len() - n..].iter().any(|&b| b as usize != n) {
        return Err(bad());
    }
    data.truncate(data.len() - n);
    Ok(())
}

/// ECB encryption of a whole message.
pub fn ecb_encrypt(bf: &Blowfish, data: &[u8], padding: Padding) -> Result<Vec<u8>> {
    let mut out = padded(data, padding)?;
    bf.ecb_in_place::<true>(&mut out);
    Ok(out)
}

/// ECB decryption of a whole message.
pub fn ecb_decrypt(bf: &Blowfish, data: &[u8], padding: Padding) -> Result<Vec<u8>> {
    let mut out = ciphertext(data)?;
    bf.ecb_in_place::<false>(&mut out);
    unpadded(out, padding)
}

/// CBC encryption of a whole message.
pub fn cbc_encrypt(
    bf: &Blowfish,
    iv: &[u8; BLOCK],
    data: &[u8],
    padding: Padding,
) -> Result<Vec<u8>> {
    let mut out = padded(data, padding)?;
    cbc_encrypt_in_place(bf, &mut iv.clone(), &mut out)?;
    Ok(out)
}

/// CBC decryption of a whole message.
pub fn cbc_decrypt(
    bf: &Blowfish,
    iv: &[u8; BLOCK],
    data: &[u8],
    padding: Padding,
) -> Result<Vec<u8>> {
    let mut out = ciphertext(data)?;
    cbc_decrypt_in_place(bf, &mut iv.clone(), &mut out)?;
    unpadded(out, padding)
}

/// CTR encryption or decryption (the same operation) of a whole message of any length.
pub fn ctr_apply(bf: &Blowfish, iv: &[u8; BLOCK], data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    ctr_apply_in_place(bf, iv, 0, &mut out);
    out
}

/// CBC-encrypts whole blocks in place; `chain` is the IV on the first call and is left holding
/// the last ciphertext block, ready for the next call. Inherently sequential: each block needs
/// the previous ciphertext.
pub fn cbc_encrypt_in_place(bf: &Blowfish, chain: &mut [u8; BLOCK], data: &mut [u8]) -> Result<()> {
    check_whole_blocks(data.len())?;
    let (mut cl, mut cr) = split(chain);
    for block in data.chunks_exact_mut(BLOCK) {
        let (l, r) = split(block);
        (cl, cr) = bf.encrypt_words(l ^ cl, r ^ cr);
        join(block, cl, cr);
    }
    join(chain, cl, cr);
    Ok(())
}

/// CBC-decrypts whole blocks in place; `chain` is the IV (or the ciphertext block before
/// `data`) and is left holding `data`'s last ciphertext block. Blocks decrypt independently,
/// so [`LANES`] are interleaved.
pub fn cbc_decrypt_in_place(bf: &Blowfish, chain: &mut [u8; BLOCK], data: &mut [u8]) -> Result<()> {
    check_whole_blocks(data.len())?;
    let (mut pl, mut pr) = split(chain);
    let mut groups = data.chunks_exact_mut(BLOCK * LANES);
    for group in &mut groups {
        let (mut l, mut r) = ([0u32; LANES], [0u32; LANES]);
        for (k, block) in group.chunks_exact(BLOCK).enumerate() {
            (l[k], r[k]) = split(block);
        }
        let (cl, cr) = (l, r);
        bf.decrypt_lanes(&mut l, &mut r);
        for (k, block) in group.chunks_exact_mut(BLOCK).enumerate() {
            join(block, l[k] ^ pl, r[k] ^ pr);
            (pl, pr) = (cl[k], cr[k]);
        }
    }
    for block in groups.into_remainder().chunks_exact_mut(BLOCK) {
        let (cl, cr) = split(block);
        let (l, r) = bf.decrypt_words(cl, cr);
        join(block, l ^ pl, r ^ pr);
        (pl, pr) = (cl, cr);
    }
    join(chain, pl, pr);
    Ok(())
}

/// XORs the CTR keystream into `data` in place, starting at block `first_block` of the
/// stream (so a message can be processed in pieces, or by several threads, each piece
/// starting on a block boundary). Any length; a final partial block is allowed.
pub fn ctr_apply_in_place(bf: &Blowfish, iv: &[u8; BLOCK], first_block: u64, data: &mut [u8]) {
    let base = u64::from_be_bytes(*iv).wrapping_add(first_block);
    let mut counter = base;
    let mut groups = data.chunks_exact_mut(BLOCK * LANES);
    for group in &mut groups {
        let (mut l, mut r) = ([0u32; LANES], [0u32; LANES]);
        for k in 0..LANES {
            let c = counter.wrapping_add(k as u64);
            (l[k], r[k]) = ((c >> 32) as u32, c as u32);
        }
        counter = counter.wrapping_add(LANES as u64);
        bf.encrypt_lanes(&mut l, &mut r);
        for (k, block) in group.chunks_exact_mut(BLOCK).enumerate() {
            let (dl, dr) = split(block);
            join(block, dl ^ l[k], dr ^ r[k]);
        }
    }
    for block in groups.into_remainder().chunks_mut(BLOCK) {
        let (l, r) = bf.encrypt_words((counter >> 32) as u32, counter as u32);
        counter = counter.wrapping_add(1);
        let mut ks = [0u8; BLOCK];
        join(&mut ks, l, r);
        for (d, k) in block.iter_mut().zip(ks) {
            *d ^= k;
        }
    }
}

/// A copy of `data` with padding added, or an error if unpadded data is not whole blocks.
fn padded(data: &[u8], padding: Padding) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() + BLOCK);
    out.extend_from_slice(data);
    match padding {
        Padding::Pkcs7 => pkcs7_pad(&mut out),
        Padding::None => check_whole_blocks(out.len())?,
    }
    Ok(out)
}

/// A copy of a ciphertext, or an error if it is not whole blocks.
fn ciphertext(data: &[u8]) -> Result<Vec<u8>> {
    if data.len() % BLOCK != 0 {
        return Err(Error::InvalidCiphertext(format!(
            "{} bytes is not a whole number of {BLOCK}-byte blocks",
            data.len()
        )));
    }
    Ok(data.to_vec())
}

fn unpadded(mut out: Vec<u8>, padding: Padding) -> Result<Vec<u8>> {
    if padding == Padding::Pkcs7 {
        pkcs7_unpad(&mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bf() -> Blowfish {
        Blowfish::new(b"modes of operation").unwrap()
    }

    #[test]
    fn padding_is_openssls() {
        for len in 0..20 {
            let mut v = vec![0xAA; len];
            pkcs7_pad(&mut v);
            let n = 8 - len % 8;
            assert_eq!(v.len(), len + n);
            assert!(v[len..].iter().all(|&b| b as usize == n));
            pkcs7_unpad(&mut v).unwrap();
            assert_eq!(v, vec![0xAA; len]);
        }
        for bad in [
            vec![],
            vec![1; 7],
            vec![0; 8],
            vec![9; 8],
            vec![1, 2, 3, 4, 5, 6, 2, 3],
        ] {
            assert!(matches!(
                pkcs7_unpad(&mut bad.clone()),
                Err(Error::InvalidCiphertext(_))
            ));
        }
    }

    #[test]
    fn round_trips_in_every_mode() {
        let bf = bf();
        let iv = *b"initvect";
        for len in [0usize, 1, 7, 8, 9, 31, 32, 33, 100] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let c = ecb_encrypt(&bf, &data, Padding::Pkcs7).unwrap();
            assert_eq!(ecb_decrypt(&bf, &c, Padding::Pkcs7).unwrap(), data);
            let c = cbc_encrypt(&bf, &iv, &data, Padding::Pkcs7).unwrap();
            assert_eq!(cbc_decrypt(&bf, &iv, &c, Padding::Pkcs7).unwrap(), data);
            let c = ctr_apply(&bf, &iv, &data);
            assert_eq!(c.len(), len);
            assert_eq!(ctr_apply(&bf, &iv, &c), data);
        }
    }

    #[test]
    fn pieces_chain_like_the_whole() {
        let bf = bf();
        let iv = *b"chaining";
        let data: Vec<u8> = (0..200).map(|i| (i * 13) as u8).collect();
        let whole = cbc_encrypt(&bf, &iv, &data, Padding::None).unwrap();
        let (mut chain, mut parts) = (iv, data.clone());
        let (a, b) = parts.split_at_mut(64);
        cbc_encrypt_in_place(&bf, &mut chain, a).unwrap();
        cbc_encrypt_in_place(&bf, &mut chain, b).unwrap();
        assert_eq!(parts, whole);
        let mut chain = iv;
        let (a, b) = parts.split_at_mut(40);
        cbc_decrypt_in_place(&bf, &mut chain, a).unwrap();
        cbc_decrypt_in_place(&bf, &mut chain, b).unwrap();
        assert_eq!(parts, data);
        let whole = ctr_apply(&bf, &iv, &data);
        let mut parts = data.clone();
        let (a, b) = parts.split_at_mut(48);
        ctr_apply_in_place(&bf, &iv, 0, a);
        ctr_apply_in_place(&bf, &iv, 6, b);
        assert_eq!(parts, whole);
    }

    #[test]
    fn ctr_counter_wraps_and_first_block_is_the_iv() {
        let bf = bf();
        let iv = u64::MAX.to_be_bytes();
        let ks = ctr_apply(&bf, &iv, &[0; 16]);
        let mut first = iv;
        bf.encrypt_block(&mut first);
        let mut second = [0u8; 8];
        bf.encrypt_block(&mut second);
        assert_eq!(&ks[..8], &first);
        assert_eq!(&ks[8..], &second, "counter wraps to 0");
    }

    #[test]
    fn unpadded_partial_blocks_are_refused() {
        let bf = bf();
        assert!(matches!(
            ecb_encrypt(&bf, &[0; 5], Padding::None),
            Err(Error::InvalidLength(_))
        ));
        assert!(matches!(
            cbc_decrypt(&bf, &[0; 8], &[0; 12], Padding::None),
            Err(Error::InvalidCiphertext(_))
        ));
    }
}
