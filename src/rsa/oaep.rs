//! RSAES-OAEP (RFC 8017 §7.1): the padding for real use, with SHA-256 and MGF1-SHA-256 by
//! default and any [`OaepHash`] for either (OpenSSL's default is SHA-1 for both), and a label.
//!
//! # What runs in constant time
//!
//! Decryption is written against Manger's attack and timing leaks (Marvin, Kario 2023):
//! - the ciphertext is blinded first (c·r^e for a fresh random r, unblinded after), so the
//!   private-key operation works on a value unrelated to what an attacker sent;
//! - the private-key operation is [`PrivateOp::CrtConstTime`] (GMP `mpz_powm_sec` on every CRT
//!   residue; [`PrivateOp::CrtConstTimeParallel`] on one thread per prime) or what the caller
//!   asks; the CRT recombination and the unblinding are ordinary GMP arithmetic on secret
//!   values, whose timing follows their sizes in limbs (see [`crate::rsa::textbook`]);
//! - I2OSP writes exactly k bytes through fixed-length limbs ([`textbook::decrypt_blinded_bytes`]): no
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
use super::textbook::{self, PrivateOp};
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
    let c = textbook::encrypt(key, &m)?;
    Ok(to_be_bytes_vartime(&c, k).expect("c < n fits in k bytes"))
}

/// RSAES-OAEP-DECRYPT with SHA-256, MGF1-SHA-256 and the `label` used for encryption.
pub fn decrypt(key: &RsaPrivateKey, ct: &[u8], label: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    decrypt_with(key, ct, &OaepParams::sha256(label), PrivateOp::CrtConstTime)
}

/// RSAES-OAEP-DECRYPT with `params`, the private-key operation computed as `op` says
/// ([`PrivateOp::CrtConstTime`], or [`PrivateOp::CrtConstTimeParallel`] for one thread per
/// prime), on a blinded ciphertext.
///
/// Every failure of the ciphertext — not k bytes long, not below n, bad padding, another
/// label or hash — is the one opaque [`Error::DecryptionError`], reached through the same
/// code: a ciphertext of the wrong length or range is replaced by the representative 1 (public
/// facts, so the replacement may branch), decrypted like any other, and its failure folded
/// into the padding check's mask. EM becomes bytes through the fixed-length
/// [`textbook::decrypt_blinded_bytes`]; only a key too small for `params.hash` is another error
/// ([`Error::InvalidKey`], before any work).
pub fn decrypt_with(
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
    let em = textbook::decrypt_blinded_bytes(key, &c, op, &mut OsRng)?;
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
    let m = SecretInteger::new(textbook::decrypt_blinded(key, &c, op, &mut OsRng)?);
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
    let mut step = 1usize;
    while step <= len {
        let bit = (by / step) & 1;
        // black_box: the optimizer must not learn that the mask is 0 or 0xff and turn the
        // pass into a branch on it.
        let mask = black_box(0u8.wrapping_sub(bit as u8));
        for i in 0..len {
            let from = if i + step < len { buf[i + step] } else { 0 };
            buf[i] = (from & mask) | (buf[i] & !mask);
        }
        step *= 2;
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
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rug::Integer;

    fn setup() -> (RsaPrivateKey, rand_chacha::ChaCha20Rng) {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(77);
        let key = RsaPrivateKey::generate(1024, &Integer::from(65537), &mut rng).unwrap();
        (key, rng)
    }

    /// Encrypts a hand-made EM with textbook RSA, to reach each padding check.
    fn raw(key: &RsaPrivateKey, em: &[u8]) -> Vec<u8> {
        let c = textbook::encrypt(key.public(), &from_be_bytes(em)).unwrap();
        to_be_bytes_vartime(&c, key.public().size_bytes()).unwrap()
    }

    #[test]
    fn every_length_up_to_the_limit_round_trips() {
        let (key, mut rng) = setup();
        let max = max_message_len(key.public());
        assert_eq!(max, 128 - 66);
        for len in 0..=max {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let label: &[u8] = if len % 2 == 0 { b"" } else { b"context" };
            let ct = encrypt(key.public(), &msg, label, &mut rng).unwrap();
            assert_eq!(ct.len(), 128);
            assert_eq!(*decrypt(&key, &ct, label).unwrap(), msg, "length {len}");
        }
    }

    #[test]
    fn too_long_messages_are_refused_with_the_limit() {
        let (key, mut rng) = setup();
        let max = max_message_len(key.public());
        let err = encrypt(key.public(), &vec![1; max + 1], b"", &mut rng).unwrap_err();
        assert!(matches!(err, Error::MessageTooLong(_)), "{err}");
        assert!(
            err.to_string().contains(&format!("at most {max} bytes")),
            "{err}"
        );
    }

    #[test]
    fn small_keys_cannot_use_oaep() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let key = RsaPrivateKey::generate(512, &Integer::from(65537), &mut rng).unwrap();
        assert_eq!(max_message_len(key.public()), 0);
        assert!(matches!(
            encrypt(key.public(), b"", b"", &mut rng),
            Err(Error::InvalidKey(_))
        ));
    }

    #[test]
    fn encryption_is_randomized() {
        let (key, mut rng) = setup();
        let a = encrypt(key.public(), b"same", b"", &mut rng).unwrap();
        let b = encrypt(key.public(), b"same", b"", &mut rng).unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn tampered_ciphertexts_and_wrong_labels_are_one_opaque_error() {
        let (key, mut rng) = setup();
        let ct = encrypt(key.public(), b"attack at dawn", b"L", &mut rng).unwrap();
        for i in [0, 1, 64, 127] {
            let mut bad = ct.clone();
            bad[i] ^= 0x01;
            // Even where flipping a bit of the top byte pushes the value to n or above.
            match decrypt(&key, &bad, b"L") {
                Err(Error::DecryptionError) => {}
                other => panic!("byte {i}: {other:?}"),
            }
        }
        assert!(matches!(
            decrypt(&key, &ct, b""),
            Err(Error::DecryptionError)
        ));
        assert_eq!(Error::DecryptionError.to_string(), "decryption error");
    }

    #[test]
    fn each_padding_defect_is_refused() {
        let (key, _) = setup();
        let k = key.public().size_bytes();
        let seed = [0x5a; HASH_LEN];
        let params = OaepParams::default();
        let good = encode(b"msg", &params, &seed, k);
        assert_eq!(*decode(&good, &params, 0xff).unwrap(), b"msg");
        let mgf1_xor = |seed: &[u8], out: &mut [u8]| OaepHash::Sha256.mgf1_xor(seed, out);
        let unmask = |em: &[u8]| {
            let (mut s, mut db) = (em[1..1 + HASH_LEN].to_vec(), em[1 + HASH_LEN..].to_vec());
            mgf1_xor(&db, &mut s);
            mgf1_xor(&s, &mut db);
            (s, db)
        };
        let remask = |y: u8, s: &[u8], db: &[u8]| {
            let mut em = vec![y];
            let mut db = db.to_vec();
            mgf1_xor(s, &mut db);
            let mut s = s.to_vec();
            mgf1_xor(&db, &mut s);
            em.extend_from_slice(&s);
            em.extend_from_slice(&db);
            em
        };
        let (s, db) = unmask(&good);
        assert_eq!(remask(0, &s, &db), *good);
        let sep = db.len() - 4;
        let mut cases = vec![("Y = 1", remask(1, &s, &db))];
        let mut bad_hash = db.clone();
        bad_hash[HASH_LEN - 1] ^= 0x80;
        cases.push(("lHash", remask(0, &s, &bad_hash)));
        let mut no_sep = db.clone();
        no_sep[sep] = 0;
        cases.push(("no 0x01", remask(0, &s, &no_sep)));
        let mut wrong_sep = db.clone();
        wrong_sep[sep] = 0x02;
        cases.push(("0x02 separator", remask(0, &s, &wrong_sep)));
        let mut all_zero = db.clone();
        all_zero[HASH_LEN..].fill(0);
        cases.push(("all zero", remask(0, &s, &all_zero)));
        for (what, em) in cases {
            assert!(
                matches!(decode(&em, &params, 0xff), Err(Error::DecryptionError)),
                "{what}"
            );
            if em[0] == 0 {
                let ct = raw(&key, &em);
                assert!(
                    matches!(decrypt(&key, &ct, b""), Err(Error::DecryptionError)),
                    "{what}"
                );
            }
        }
        // The separator right after lHash (no PS) and a message of zeros are fine.
        let mut max = db.clone();
        max[HASH_LEN] = 0x01;
        max[HASH_LEN + 1..].fill(0);
        let zeros = decode(&remask(0, &s, &max), &params, 0xff).unwrap();
        assert_eq!(zeros.len(), k - 2 * HASH_LEN - 2);
        assert!(zeros.iter().all(|&b| b == 0));
    }

    #[test]
    fn wrong_lengths_and_values_not_below_n_are_the_one_opaque_error() {
        let (key, mut rng) = setup();
        let ct = encrypt(key.public(), b"x", b"", &mut rng).unwrap();
        let n = to_be_bytes_vartime(key.public().n(), 128).unwrap();
        let mut long = ct.clone();
        long.push(0);
        let cases: [(&str, &[u8]); 6] = [
            ("short", &ct[1..]),
            ("long", &long),
            ("empty", &[]),
            ("n", &n),
            ("all ones", &[0xff; 128]),
            ("zero", &[0; 128]),
        ];
        for (what, bad) in cases {
            let err = decrypt(&key, bad, b"").unwrap_err();
            assert!(matches!(err, Error::DecryptionError), "{what}: {err:?}");
            assert_eq!(err.to_string(), "decryption error");
        }
        // The old path told them apart: that is what it is kept to show.
        let old = |ct: &[u8]| {
            decrypt_with_vartime(&key, ct, &OaepParams::default(), PrivateOp::CrtConstTime)
        };
        let err = old(&ct[1..]).unwrap_err().to_string();
        assert!(
            err.contains("expected 128 bytes") && err.contains("got 127"),
            "{err}"
        );
        assert!(matches!(old(&n), Err(Error::InvalidCiphertext(_))));
        assert_eq!(*old(&ct).unwrap(), b"x");
    }

    #[test]
    fn the_old_path_decrypts_and_refuses_like_the_new_one() {
        let (key, mut rng) = setup();
        let params = OaepParams::sha256(b"L");
        for len in [0, 1, 31, max_message_len(key.public())] {
            let msg = vec![0x5a; len];
            let ct = encrypt_with(key.public(), &msg, &params, &mut rng).unwrap();
            for op in [PrivateOp::CrtConstTime, PrivateOp::CrtVartime] {
                assert_eq!(*decrypt_with_vartime(&key, &ct, &params, op).unwrap(), msg);
                assert_eq!(*decrypt_with(&key, &ct, &params, op).unwrap(), msg);
            }
            let other = OaepParams::sha256(b"M");
            let old = decrypt_with_vartime(&key, &ct, &other, PrivateOp::CrtConstTime);
            assert!(matches!(old, Err(Error::DecryptionError)));
        }
    }

    #[test]
    fn the_constant_time_shift_moves_every_offset() {
        let buf: Vec<u8> = (1..=37).collect();
        for by in 0..=buf.len() {
            let mut got = buf.clone();
            shift_left(&mut got, by);
            let mut want = buf[by..].to_vec();
            want.resize(buf.len(), 0);
            assert_eq!(got, want, "by {by}");
        }
    }

    #[test]
    fn constant_time_helpers() {
        for x in 0..=255u8 {
            assert_eq!(ct_is_zero(x), if x == 0 { 0xff } else { 0 });
        }
        assert_eq!(ct_select(0xff, 7, 9), 7);
        assert_eq!(ct_select(0x00, 7, 9), 9);
    }

    #[test]
    fn every_hash_pair_round_trips_and_mismatches_are_opaque() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(78);
        let key = RsaPrivateKey::generate(1536, &Integer::from(65537), &mut rng).unwrap();
        for hash in OaepHash::ALL {
            for mgf1_hash in [OaepHash::Sha1, OaepHash::Sha256, hash] {
                let params = OaepParams::new(hash, mgf1_hash, b"L");
                let max = max_message_len_with(key.public(), hash);
                assert_eq!(max, 192 - 2 * hash.output_len() - 2);
                let msg = vec![0xa5; max];
                let ct = encrypt_with(key.public(), &msg, &params, &mut rng).unwrap();
                for op in [PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel] {
                    assert_eq!(*decrypt_with(&key, &ct, &params, op).unwrap(), msg);
                }
                let err = encrypt_with(key.public(), &vec![0; max + 1], &params, &mut rng);
                assert!(matches!(err, Err(Error::MessageTooLong(_))), "{hash}");
                // Another hash, another MGF1 hash or another label: the one opaque error.
                let other = |h| {
                    if h == OaepHash::Sha1 {
                        OaepHash::Sha512
                    } else {
                        OaepHash::Sha1
                    }
                };
                for wrong in [
                    OaepParams::new(other(hash), mgf1_hash, b"L"),
                    OaepParams::new(hash, other(mgf1_hash), b"L"),
                    OaepParams::new(hash, mgf1_hash, b"M"),
                ] {
                    let got = decrypt_with(&key, &ct, &wrong, PrivateOp::CrtConstTime);
                    assert!(matches!(got, Err(Error::DecryptionError)), "{wrong:?}");
                }
            }
        }
        // SHA-512 needs k >= 2*64+2 = 130 bytes: a 1024-bit key (k = 128) is too small.
        let (small, _) = setup();
        let params = OaepParams::new(OaepHash::Sha512, OaepHash::Sha1, b"");
        let err = encrypt_with(small.public(), b"", &params, &mut rng).unwrap_err();
        assert!(
            err.to_string().contains("too small for OAEP with SHA-512"),
            "{err}"
        );
        let err = decrypt_with(&small, &[0; 128], &params, PrivateOp::CrtConstTime).unwrap_err();
        assert!(matches!(err, Error::InvalidKey(_)), "{err}");
    }
}
