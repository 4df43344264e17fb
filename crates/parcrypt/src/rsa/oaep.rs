//! RSAES-OAEP (RFC 8017 §7.1): the padding for real use, with SHA-256 and MGF1-SHA-256 by
//! default and any [`OaepHash`] for either (OpenSSL's default is SHA-1 for both), and a label.
//!
//! # What runs in constant time
//!
//! Decryption is written against Manger's attack and timing leaks (Marvin, Kario 2023):
//! - the ciphertext is blinded first (c·r^e for a random r, unblinded after), so the
//!   private-key operation works on a value unrelated to what an attacker sent;
//! - the private-key operation is [`PrivateOp::CrtConstTime`] ([`PrivateOp::CrtConstTimeParallel`]
//!   on one thread per prime) on the key's kernel, by default the best constant-time Montgomery
//!   kernel of this CPU (or GMP's `mpn_sec_*` functions, `gmp-sec`), constant time from the
//!   reduction of c to the recombination, the blinding and the unblinding included
//!   ([`crate::hazmat::crt::CtCrt`]); its result is raised to e and compared with the blinded
//!   ciphertext before it is unblinded, and a mismatch (a fault) is the same
//!   [`Error::DecryptionError`];
//! - I2OSP writes exactly k bytes through fixed-length limbs ([`primitive::decrypt_blinded_bytes`]): no
//!   work depends on EM's leading zero bytes (Y = 0, Manger's oracle);
//! - the padding check (Y = 0, lHash' = lHash, a run of zeros and then 0x01) reads every byte
//!   of EM with no branch or early exit on secret data and folds all three conditions into one
//!   mask; the message is moved out of DB by a shift that touches every byte whatever its
//!   offset;
//! - every failure — a ciphertext of the wrong length or not below n, bad padding, another
//!   label or hash — is the same [`Error::DecryptionError`] at the end of the same code: a
//!   ciphertext out of length or range is replaced (a public fact, so that choice may branch)
//!   and decrypted like any other;
//! - MGF1 and the hashes run in time that depends only on the (public) lengths and hashes.
//!
//! Not constant time, by design: the single final branch on the combined mask, and the
//! message's length (the result itself). [`decrypt_with_vartime`] keeps the old decryption,
//! variable-length I2OSP included, for `parcrypt bench leak` to compare against.
pub use super::hash::OaepHash;
use super::keys::{RsaPrivateKey, RsaPublicKey};
use super::primitive::{self, PrivateOp};
use crate::bignum::ct::secret_flow;
use crate::bignum::{SecretInteger, from_be_bytes, to_be_bytes_vartime};
use crate::error::{Error, Result};
use rand::rngs::OsRng;
use rand::{CryptoRng, RngCore};
use rug::Integer;
use rug::integer::Order;
use std::hint::black_box;
use zeroize::Zeroizing;

/// hLen of the default hash, SHA-256.
pub const HASH_LEN: usize = 32;

/// OAEP's parameters: the hash of the label, MGF1's hash and the label (RFC 8017 §7.1, and
/// OpenSSL's `rsa_oaep_md`, `rsa_mgf1_md` and `rsa_oaep_label`). The default is SHA-256 for
/// both and an empty label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OaepParams {
    /// The hash of the label; its length hLen sets the seed size and the message limit.
    pub hash: OaepHash,
    /// The hash inside MGF1.
    pub mgf1_hash: OaepHash,
    /// The label L (not secret; often empty).
    pub label: Vec<u8>,
}

impl OaepParams {
    /// SHA-256 for both hashes, with `label`.
    pub fn sha256(label: &[u8]) -> Self {
        Self {
            label: label.to_vec(),
            ..Self::default()
        }
    }

    /// `hash` for the label, `mgf1_hash` for MGF1, and `label`.
    pub fn new(hash: OaepHash, mgf1_hash: OaepHash, label: &[u8]) -> Self {
        Self {
            hash,
            mgf1_hash,
            label: label.to_vec(),
        }
    }

    /// "SHA-256" when both hashes are the same, else "SHA-1, MGF1-SHA-256".
    fn describe(&self) -> String {
        if self.hash == self.mgf1_hash {
            self.hash.to_string()
        } else {
            format!("{}, MGF1-{}", self.hash, self.mgf1_hash)
        }
    }
}

/// The longest message `key` can encrypt with OAEP-SHA-256: k - 2·32 - 2 bytes (0 for keys
/// under 66 bytes).
pub fn max_message_len(key: &RsaPublicKey) -> usize {
    max_message_len_with(key, OaepHash::Sha256)
}

/// The longest message `key` can encrypt with OAEP whose label hash is `hash`: k - 2·hLen - 2
/// bytes (0 for keys too small).
pub fn max_message_len_with(key: &RsaPublicKey, hash: OaepHash) -> usize {
    key.size_bytes().saturating_sub(2 * hash.output_len() + 2)
}

/// RSAES-OAEP-ENCRYPT with SHA-256, MGF1-SHA-256 and `label` (usually empty).
pub fn encrypt<R: RngCore + CryptoRng + ?Sized>(
    key: &RsaPublicKey,
    msg: &[u8],
    label: &[u8],
    rng: &mut R,
) -> Result<Vec<u8>> {
    encrypt_with(key, msg, &OaepParams::sha256(label), rng)
}

/// RSAES-OAEP-ENCRYPT with `params` and a fresh seed from `rng`.
///
/// Returns exactly k bytes. A message over [`max_message_len_with`] is
/// [`Error::MessageTooLong`].
pub fn encrypt_with<R: RngCore + CryptoRng + ?Sized>(
    key: &RsaPublicKey,
    msg: &[u8],
    params: &OaepParams,
    rng: &mut R,
) -> Result<Vec<u8>> {
    let k = check_key_size(key, params.hash)?;
    let max = max_message_len_with(key, params.hash);
    if msg.len() > max {
        return Err(Error::MessageTooLong(format!(
            "OAEP ({}) with a {}-bit key takes at most {max} bytes (k - 2hLen - 2), got {}",
            params.describe(),
            key.bits(),
            msg.len()
        )));
    }
    let mut seed = Zeroizing::new([0u8; super::hash::MAX_HASH_LEN]);
    rng.fill_bytes(&mut seed[..params.hash.output_len()]);
    let em = encode(msg, params, &seed[..params.hash.output_len()], k);
    let m = SecretInteger::new(from_be_bytes(&em));
    let c = primitive::encrypt(key, &m)?;
    Ok(to_be_bytes_vartime(&c, k).expect("c < n fits in k bytes"))
}

impl RsaPublicKey {
    /// RSAES-OAEP encryption of `msg` with SHA-256, MGF1-SHA-256 and an empty label: the
    /// short form of [`encrypt`]. `rng` gives the seed (`rand::rngs::OsRng`).
    pub fn encrypt_oaep<R: RngCore + CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        encrypt(self, msg, b"", rng)
    }
}

impl RsaPrivateKey {
    /// RSAES-OAEP decryption of `ct` made by [`RsaPublicKey::encrypt_oaep`] (SHA-256, an empty
    /// label): the short form of [`decrypt`], constant time, blinded, checked against the
    /// public key. Any bad ciphertext is the one opaque [`Error::DecryptionError`]; the
    /// message comes back in a buffer wiped when dropped.
    pub fn decrypt_oaep(&self, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        decrypt(self, ct, b"")
    }
}

/// RSAES-OAEP-DECRYPT with SHA-256, MGF1-SHA-256 and the `label` used for encryption.
pub fn decrypt(key: &RsaPrivateKey, ct: &[u8], label: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    decrypt_with(key, ct, &OaepParams::sha256(label), CtOp::CrtConstTime)
}

/// The private-key operations [`decrypt_with`] takes: the constant-time ones, each checked
/// against the public key before its result is used (a fault is [`Error::DecryptionError`]).
/// The variable-time forms of [`PrivateOp`] are for studies only, through
/// [`decrypt_with_any_op_vartime`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CtOp {
    /// [`PrivateOp::CrtConstTime`]: the key's kernel, one thread.
    #[default]
    CrtConstTime,
    /// [`PrivateOp::CrtConstTimeParallel`]: one prime per pool thread.
    CrtConstTimeParallel,
    /// [`PrivateOp::CrtConstTimeMb`]: the multi-buffer kernel, the message alone in one lane
    /// (an error where the CPU or the key cannot run it).
    CrtConstTimeMb,
}

impl From<CtOp> for PrivateOp {
    fn from(op: CtOp) -> Self {
        match op {
            CtOp::CrtConstTime => PrivateOp::CrtConstTime,
            CtOp::CrtConstTimeParallel => PrivateOp::CrtConstTimeParallel,
            CtOp::CrtConstTimeMb => PrivateOp::CrtConstTimeMb,
        }
    }
}

/// RSAES-OAEP-DECRYPT with `params`, the private-key operation computed as `op` says
/// ([`CtOp::CrtConstTime`], or [`CtOp::CrtConstTimeParallel`] for one thread per prime): only
/// constant-time, checked forms, on a blinded ciphertext.
///
/// Every failure of the ciphertext — not k bytes long, not below n, bad padding, another
/// label or hash — is the one opaque [`Error::DecryptionError`], reached through the same
/// code: a ciphertext of the wrong length or range is replaced by the representative 1 (public
/// facts, so the replacement may branch), decrypted like any other, and its failure folded
/// into the padding check's mask. EM becomes bytes through the fixed-length
/// [`primitive::decrypt_blinded_bytes`]; only a key too small for `params.hash` is another error
/// ([`Error::InvalidKey`], before any work).
pub fn decrypt_with(
    key: &RsaPrivateKey,
    ct: &[u8],
    params: &OaepParams,
    op: CtOp,
) -> Result<Zeroizing<Vec<u8>>> {
    decrypt_with_any_op_vartime(key, ct, params, op.into())
}

/// [`decrypt_with`] with any [`PrivateOp`], the **variable-time** ones too (GMP's `mpz_powm`,
/// timing depends on d, and no fault check): for studies that measure what they leak
/// (`bench leak`), never for a decryption. With a constant-time `op` it is [`decrypt_with`].
pub fn decrypt_with_any_op_vartime(
    key: &RsaPrivateKey,
    ct: &[u8],
    params: &OaepParams,
    op: PrivateOp,
) -> Result<Zeroizing<Vec<u8>>> {
    let k = check_key_size(key.public(), params.hash)?;
    let n = key.public().n();
    let c = from_be_bytes(ct);
    // Length and range are public: the choice may branch, what follows may not.
    let in_range = ct.len() == k && c < *n;
    let c = if in_range { c } else { Integer::from(1) };
    // RSADP on the blinded c (fresh blinding from the OS): EM as exactly k bytes, wiped on drop.
    let em = primitive::decrypt_blinded_bytes(key, &c, op, &mut OsRng)?;
    decode(&em, params, 0u8.wrapping_sub(u8::from(in_range)))
}

/// The decryption `rsa decrypt` ran before issue 20, kept to show what the leak test finds on
/// it: **variable time** after the private-key operation. I2OSP writes EM's significant bytes
/// only (`significant_digits`, then `write_digits` after the leading zeros: work that depends
/// on Y = 0, Manger's oracle), the message is copied out by its secret offset, and a ciphertext
/// of the wrong length or not below n is refused at once with [`Error::InvalidCiphertext`].
/// Not reachable from the command's `rsa decrypt`; `parcrypt bench leak --paths old-vartime`
/// measures it.
pub fn decrypt_with_vartime(
    key: &RsaPrivateKey,
    ct: &[u8],
    params: &OaepParams,
    op: PrivateOp,
) -> Result<Zeroizing<Vec<u8>>> {
    let k = check_key_size(key.public(), params.hash)?;
    if ct.len() != k {
        return Err(Error::InvalidCiphertext(format!(
            "expected {k} bytes for a {}-bit key, got {}",
            key.public().bits(),
            ct.len()
        )));
    }
    // RSADP refuses c >= n with InvalidCiphertext ("... must be in [0, n)").
    let c = from_be_bytes(ct);
    let m = SecretInteger::new(primitive::decrypt_blinded(key, &c, op, &mut OsRng)?);
    let mut em = Zeroizing::new(vec![0u8; k]);
    let len = m.significant_digits::<u8>();
    m.write_digits(&mut em[k - len..], Order::Msf);
    let (good, index, db) = check_padding(&em, params);
    if black_box(good) != 0xff {
        return Err(Error::DecryptionError);
    }
    Ok(Zeroizing::new(
        db[params.hash.output_len() + index + 1..].to_vec(),
    ))
}

/// k, or an error for a modulus too small to hold an OAEP block with `hash`.
fn check_key_size(key: &RsaPublicKey, hash: OaepHash) -> Result<usize> {
    let k = key.size_bytes();
    if k < 2 * hash.output_len() + 2 {
        return Err(Error::InvalidKey(format!(
            "a {}-bit key is too small for OAEP with {hash} (needs k >= {} bytes)",
            key.bits(),
            2 * hash.output_len() + 2
        )));
    }
    Ok(k)
}

/// EME-OAEP encoding: EM = 0x00 || maskedSeed || maskedDB, k bytes.
fn encode(msg: &[u8], params: &OaepParams, seed: &[u8], k: usize) -> Zeroizing<Vec<u8>> {
    let h = params.hash.output_len();
    let mut em = Zeroizing::new(vec![0u8; k]);
    let (masked_seed, masked_db) = em[1..].split_at_mut(h);
    // DB = lHash || PS (zeros, already there) || 0x01 || M
    masked_db[..h].copy_from_slice(&params.hash.digest(&[&params.label])[..h]);
    let sep = masked_db.len() - msg.len() - 1;
    masked_db[sep] = 0x01;
    masked_db[sep + 1..].copy_from_slice(msg);
    params.mgf1_hash.mgf1_xor(seed, masked_db);
    masked_seed.copy_from_slice(seed);
    params.mgf1_hash.mgf1_xor(masked_db, masked_seed);
    em
}

/// EME-OAEP decoding in constant-time style (see the module doc). `ok` is 0xff when the
/// ciphertext itself was acceptable, 0x00 when it was replaced; it joins the padding's mask.
///
/// The message is moved to the front of a buffer of the fixed length k - 2hLen - 1 by a
/// shift whose every step touches every byte ([`shift_left`]), so neither the copy nor its
/// allocation depends on where the message starts; on failure that buffer is wiped and
/// dropped here, on success it is truncated (the message's length is the result itself).
fn decode(em: &[u8], params: &OaepParams, ok: u8) -> Result<Zeroizing<Vec<u8>>> {
    let (good, index, db) = check_padding(em, params);
    let mut out = Zeroizing::new(db[params.hash.output_len()..].to_vec());
    let start = index + 1;
    shift_left(&mut out, start);
    // Public by design (the secret-flow check's declassifications): the decision, and after
    // it the message's length.
    if black_box(secret_flow::declassify_value(good & ok)) != 0xff {
        return Err(Error::DecryptionError);
    }
    let len = secret_flow::declassify_value(out.len() - start);
    out.truncate(len);
    Ok(out)
}

/// The padding check of EME-OAEP decoding, branch-free: the mask 0xff if Y = 0, lHash' = lHash
/// and DB continues with zeros and then 0x01 (0x00 otherwise), the index of that 0x01 after
/// lHash (0 when there is none), and DB.
fn check_padding(em: &[u8], params: &OaepParams) -> (u8, usize, Zeroizing<Vec<u8>>) {
    let h = params.hash.output_len();
    let (masked_seed, masked_db) = em[1..].split_at(h);
    let mut seed = Zeroizing::new(masked_seed.to_vec());
    params.mgf1_hash.mgf1_xor(masked_db, &mut seed);
    let mut db = Zeroizing::new(masked_db.to_vec());
    params.mgf1_hash.mgf1_xor(&seed, &mut db);

    // good = 0xff while every check has passed.
    let mut good = ct_is_zero(em[0]);
    let l_hash = params.hash.digest(&[&params.label]);
    let mut diff = 0u8;
    for (a, b) in db[..h].iter().zip(&l_hash[..h]) {
        diff |= a ^ b;
    }
    good &= ct_is_zero(diff);
    // After lHash: zeros, then 0x01. `looking` stays 0xff while only zeros have been seen;
    // the first non-zero byte must be 0x01, and its index is kept without branching.
    let mut looking = 0xffu8;
    let mut index = 0usize;
    for (i, &byte) in db[h..].iter().enumerate() {
        let zero = ct_is_zero(byte);
        let one = ct_is_zero(byte ^ 0x01);
        index = ct_select(looking & one, i, index);
        good &= !(looking & !zero & !one);
        looking &= zero;
    }
    good &= !looking;
    (good, index, db)
}

/// Moves `buf[by..]` to the front of `buf` (zeros after it) without a branch or an index that
/// depends on `by`: one pass over every byte per bit of `by` (`by` <= `buf.len()`), each pass
/// shifting by its power of two or by nothing as the bit says.
fn shift_left(buf: &mut [u8], by: usize) {
    let len = buf.len();
    let mut pass = 0u32;
    // Pass `pass` shifts by step = 2^pass; its bit of `by` is read by a shift, not a division
    // (a division's latency depends on its operands on older cores).
    while let Some(step) = 1usize.checked_shl(pass).filter(|&s| s <= len) {
        let bit = (by >> pass) & 1;
        // black_box: the optimizer must not learn that the mask is 0 or 0xff and turn the
        // pass into a branch on it.
        let mask = black_box(0u8.wrapping_sub(bit as u8));
        for i in 0..len {
            let from = if i + step < len { buf[i + step] } else { 0 };
            buf[i] = (from & mask) | (buf[i] & !mask);
        }
        pass += 1;
    }
}

/// 0xff if `x` is zero, 0x00 otherwise, without a branch.
fn ct_is_zero(x: u8) -> u8 {
    let borrow = (u32::from(black_box(x)).wrapping_sub(1) >> 31) as u8;
    0u8.wrapping_sub(borrow)
}

/// `a` where `mask` is 0xff, `b` where it is 0x00, without a branch.
fn ct_select(mask: u8, a: usize, b: usize) -> usize {
    let wide = 0usize.wrapping_sub(usize::from(mask & 1));
    (a & wide) | (b & !wide)
}

#[cfg(test)]
mod tests;
