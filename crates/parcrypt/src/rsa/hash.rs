//! The hash functions RSA-OAEP may use (RFC 8017 §7.1 and Appendix B.1), for the label hash
//! and for MGF1, each chosen on its own as OpenSSL's `rsa_oaep_md` and `rsa_mgf1_md` are.
//!
//! SHA-256 is the default for both. SHA-1 is here because it is OpenSSL's default for OAEP
//! (`pkeyutl -pkeyopt rsa_padding_mode:oaep` with nothing more): its collisions do not break
//! OAEP, but new files should use a SHA-2 hash. Hashing time depends only on the lengths of
//! the inputs (public), and digests, masks and the hashers' states are wiped after use.
use sha1::Sha1;
use sha2::digest::{Digest, FixedOutputReset, Output};
use sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use zeroize::{Zeroize, Zeroizing};

/// The longest digest (SHA-512), in bytes.
pub const MAX_HASH_LEN: usize = 64;

/// A hash function for OAEP's label hash or for MGF1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OaepHash {
    /// SHA-1 (20 bytes): OpenSSL's OAEP default, for compatibility.
    Sha1,
    /// SHA-224 (28 bytes).
    Sha224,
    /// SHA-256 (32 bytes): parcrypt's default.
    #[default]
    Sha256,
    /// SHA-384 (48 bytes).
    Sha384,
    /// SHA-512 (64 bytes).
    Sha512,
    /// SHA-512/224 (28 bytes).
    Sha512_224,
    /// SHA-512/256 (32 bytes).
    Sha512_256,
}

impl OaepHash {
    /// Every hash, in the order above.
    pub const ALL: [OaepHash; 7] = [
        OaepHash::Sha1,
        OaepHash::Sha224,
        OaepHash::Sha256,
        OaepHash::Sha384,
        OaepHash::Sha512,
        OaepHash::Sha512_224,
        OaepHash::Sha512_256,
    ];

    /// hLen: the digest length in bytes.
    pub fn output_len(self) -> usize {
        match self {
            OaepHash::Sha1 => 20,
            OaepHash::Sha224 | OaepHash::Sha512_224 => 28,
            OaepHash::Sha256 | OaepHash::Sha512_256 => 32,
            OaepHash::Sha384 => 48,
            OaepHash::Sha512 => 64,
        }
    }

    /// The standard name, as RFC 8017 and Wycheproof write it ("SHA-256", "SHA-512/224").
    pub fn name(self) -> &'static str {
        match self {
            OaepHash::Sha1 => "SHA-1",
            OaepHash::Sha224 => "SHA-224",
            OaepHash::Sha256 => "SHA-256",
            OaepHash::Sha384 => "SHA-384",
            OaepHash::Sha512 => "SHA-512",
            OaepHash::Sha512_224 => "SHA-512/224",
            OaepHash::Sha512_256 => "SHA-512/256",
        }
    }

    /// The hash named `name`: the standard name or OpenSSL's (`sha256`, `sha512-224`), in
    /// any case; `None` for anything else.
    pub fn from_name(name: &str) -> Option<Self> {
        let key: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        Self::ALL.into_iter().find(|h| {
            let own: String = h
                .name()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            own.to_ascii_lowercase() == key
        })
    }

    /// The digest of the concatenation of `parts`, in the first [`Self::output_len`] bytes of a
    /// wiped buffer.
    pub fn digest(self, parts: &[&[u8]]) -> Zeroizing<[u8; MAX_HASH_LEN]> {
        /// The hash of `parts` into `out`; the hasher's state (its chaining value and its block
        /// buffer, which holds the last bytes of the input: a seed, a masked DB) is wiped after.
        fn run<D: Digest + FixedOutputReset>(parts: &[&[u8]], out: &mut [u8]) {
            let mut hasher = std::mem::ManuallyDrop::new(D::new());
            for part in parts {
                Digest::update(&mut *hasher, part);
            }
            let mut digest = Output::<D>::default();
            Digest::finalize_into_reset(&mut *hasher, &mut digest);
            out[..digest.len()].copy_from_slice(&digest);
            digest.as_mut_slice().zeroize();
            // SAFETY: the hashers here (SHA-1 and the SHA-2 family of RustCrypto's `sha1` and
            // `sha2`) are flat: arrays of words and bytes and a position byte, no pointer, no
            // `Drop`; all zeros is a valid value of each, and `ManuallyDrop` keeps the wiped
            // value from being dropped.
            unsafe { zeroize::zeroize_flat_type(&mut *hasher as *mut D) };
        }
        let mut out = Zeroizing::new([0u8; MAX_HASH_LEN]);
        match self {
            OaepHash::Sha1 => run::<Sha1>(parts, &mut *out),
            OaepHash::Sha224 => run::<Sha224>(parts, &mut *out),
            OaepHash::Sha256 => run::<Sha256>(parts, &mut *out),
            OaepHash::Sha384 => run::<Sha384>(parts, &mut *out),
            OaepHash::Sha512 => run::<Sha512>(parts, &mut *out),
            OaepHash::Sha512_224 => run::<Sha512_224>(parts, &mut *out),
            OaepHash::Sha512_256 => run::<Sha512_256>(parts, &mut *out),
        }
        out
    }

    /// MGF1 with this hash (RFC 8017 B.2.1): `out.len()` bytes of mask from `seed`, XORed
    /// into `out`.
    pub fn mgf1_xor(self, seed: &[u8], out: &mut [u8]) {
        let h = self.output_len();
        for (counter, chunk) in out.chunks_mut(h).enumerate() {
            let mask = self.digest(&[seed, &(counter as u32).to_be_bytes()]);
            for (o, m) in chunk.iter_mut().zip(mask.iter()) {
                *o ^= m;
            }
        }
    }
}

impl std::fmt::Display for OaepHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_of_abc_match_the_published_values() {
        // FIPS 180-4 / NIST examples for "abc".
        let expected = [
            (OaepHash::Sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                OaepHash::Sha224,
                "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
            ),
            (
                OaepHash::Sha256,
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                OaepHash::Sha512_224,
                "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
            ),
            (
                OaepHash::Sha512_256,
                "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
            ),
        ];
        for (hash, hex) in expected {
            let d = hash.digest(&[b"a", b"bc"]);
            assert_eq!(hex::encode(&d[..hash.output_len()]), hex, "{hash}");
        }
        assert_eq!(
            OaepHash::Sha384.digest(&[b"abc"])[..4],
            [0xcb, 0x00, 0x75, 0x3f]
        );
        assert_eq!(
            OaepHash::Sha512.digest(&[b"abc"])[..4],
            [0xdd, 0xaf, 0x35, 0xa1]
        );
    }

    #[test]
    fn mgf1_matches_its_definition() {
        for hash in OaepHash::ALL {
            let mut out = vec![0u8; 3 * hash.output_len() + 5];
            hash.mgf1_xor(b"seed", &mut out);
            let mut want = Vec::new();
            for counter in 0u32..4 {
                want.extend_from_slice(
                    &hash.digest(&[b"seed", &counter.to_be_bytes()])[..hash.output_len()],
                );
            }
            want.truncate(out.len());
            assert_eq!(out, want, "{hash}");
        }
    }

    #[test]
    fn names_round_trip_in_both_spellings() {
        for hash in OaepHash::ALL {
            assert_eq!(OaepHash::from_name(hash.name()), Some(hash));
            assert_eq!(OaepHash::from_name(&hash.name().to_lowercase()), Some(hash));
        }
        assert_eq!(
            OaepHash::from_name("sha512-224"),
            Some(OaepHash::Sha512_224)
        );
        assert_eq!(OaepHash::from_name("SHA1"), Some(OaepHash::Sha1));
        assert_eq!(OaepHash::from_name("md5"), None);
        assert_eq!(OaepHash::from_name("sha3-256"), None);
    }
}
