//! The leak test's class pairs ([`Pair`]) and their inputs: the ciphertexts of each class,
//! crafted from a chosen EM where the class is a property of EM, and the two keys of the
//! `keys` pair, which differ only in secret data.
use super::{DecryptPath, MESSAGE_LEN};
use crate::error::{Error, Result};
use parcrypt::hazmat::bignum::{from_be_bytes, to_be_bytes_vartime};
use parcrypt::hazmat::textbook;
use parcrypt::rsa::keys::{DEFAULT_E, RsaPrivateKey};
use parcrypt::rsa::oaep::{self, OaepParams};
use rand::{Rng, RngCore};
use rug::Integer;
use serde::{Deserialize, Serialize};

/// A pair of input classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pair {
    /// Valid OAEP against invalid padding (Y = 0, lHash wrong).
    Padding,
    /// Y = 0 against Y ≠ 0 (both invalid), on the `--bits` key.
    YZero,
    /// Y = 0 against Y ≠ 0 on the key whose size is not a multiple of 64 bits.
    YZeroOdd,
    /// Valid OAEP ciphertexts under two keys of the same size (same n size, e, prime sizes)
    /// that differ only in their secret values, chosen among [`KEY_CANDIDATES`] keys for the
    /// largest difference in the Hamming weight of dP and dQ: key-dependent timing.
    Keys,
}

impl Pair {
    /// Every pair, in order.
    pub const ALL: [Pair; 4] = [Pair::Padding, Pair::YZero, Pair::YZeroOdd, Pair::Keys];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pair::Padding => "padding",
            Pair::YZero => "y-zero",
            Pair::YZeroOdd => "y-zero-odd",
            Pair::Keys => "keys",
        }
    }

    /// What its two classes are.
    pub fn classes(self) -> [&'static str; 2] {
        match self {
            Pair::Padding => ["valid OAEP", "invalid (Y = 0, bad lHash)"],
            Pair::YZero | Pair::YZeroOdd => ["Y = 0 (invalid)", "Y != 0 (invalid)"],
            Pair::Keys => [
                "valid OAEP, key of low weight dP, dQ",
                "valid OAEP, key of high weight dP, dQ",
            ],
        }
    }

    /// Whether both classes decrypt to a message (the others are refused, except the valid
    /// class of `padding`).
    fn valid(self, one: bool) -> bool {
        match self {
            Pair::Padding => !one,
            Pair::YZero | Pair::YZeroOdd => false,
            Pair::Keys => true,
        }
    }
}

impl std::str::FromStr for Pair {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Pair::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Pair::ALL.iter().map(|p| p.name()).collect();
                Error::InvalidParameter(format!(
                    "unknown class pair '{s}' (known: {})",
                    names.join(", ")
                ))
            })
    }
}

/// Keys drawn for the `keys` pair, of which the two of most different dP, dQ weight are kept.
pub const KEY_CANDIDATES: usize = 8;

/// The two keys of the `keys` pair: [`KEY_CANDIDATES`] keys of `bits` bits, and of them the
/// one whose dP and dQ have the fewest set bits and the one with the most. A
/// square-and-multiply exponentiation runs one product per set bit, so variable-time code
/// differs by tens of products between them; constant-time code by none. Their moduli differ
/// too (public), and the prime sizes are equal.
pub fn key_pair<R: RngCore + ?Sized>(bits: u32, rng: &mut R) -> Result<[RsaPrivateKey; 2]> {
    let e = Integer::from(DEFAULT_E);
    let mut keys = (0..KEY_CANDIDATES)
        .map(|_| RsaPrivateKey::generate_vartime(bits, &e, rng))
        .collect::<parcrypt::Result<Vec<_>>>()?;
    let weight =
        |k: &RsaPrivateKey| k.dp().count_ones().unwrap_or(0) + k.dq().count_ones().unwrap_or(0);
    keys.sort_by_key(weight);
    let high = keys.pop().expect("candidates");
    let low = keys.swap_remove(0);
    Ok([low, high])
}

/// The two keys' dP + dQ weights (set bits), for the records.
pub fn weights(keys: [&RsaPrivateKey; 2]) -> [u32; 2] {
    keys.map(|k| k.dp().count_ones().unwrap_or(0) + k.dq().count_ones().unwrap_or(0))
}

/// A ciphertext of the class `one` (class 1 if true) of `pair` under `key` (for `keys`, the
/// class's own key).
pub(super) fn input<R: RngCore + rand::CryptoRng>(
    pair: Pair,
    one: bool,
    key: &RsaPrivateKey,
    params: &OaepParams,
    rng: &mut R,
) -> Result<Vec<u8>> {
    match (pair, one) {
        (Pair::Padding, false) | (Pair::Keys, _) => {
            let mut msg = [0u8; MESSAGE_LEN];
            rng.fill_bytes(&mut msg);
            Ok(oaep::encrypt_with(key.public(), &msg, params, rng)?)
        }
        (Pair::Padding, true) | (Pair::YZero | Pair::YZeroOdd, false) => crafted(key, 0, rng),
        (Pair::YZero | Pair::YZeroOdd, true) => {
            let y = rng.gen_range(1..=255u8);
            crafted(key, y, rng)
        }
    }
}

/// The ciphertext of a random EM whose first byte is `y` (drawn again, with its rest, until
/// EM < n): invalid OAEP with overwhelming probability (lHash would have to match).
pub(super) fn crafted<R: RngCore>(key: &RsaPrivateKey, y: u8, rng: &mut R) -> Result<Vec<u8>> {
    let k = key.public().size_bytes();
    let n = key.public().n();
    let mut em = vec![0u8; k];
    let mut y = y;
    loop {
        rng.fill_bytes(&mut em);
        em[0] = y;
        let m = from_be_bytes(&em);
        if m < *n {
            let c = textbook::encrypt(key.public(), &m)?;
            return Ok(to_be_bytes_vartime(&c, k).expect("c < n fits in k bytes"));
        }
        // Y above n's top byte can never fit: draw Y again too.
        if y != 0 {
            y = rng.gen_range(1..=255u8);
        }
    }
}

/// Each path must decrypt a valid input and refuse an invalid one with the opaque error before
/// its times mean anything.
pub(super) fn check_path(
    path: &DecryptPath,
    pair: Pair,
    keys: [&RsaPrivateKey; 2],
    params: &OaepParams,
    rng: &mut rand_chacha::ChaCha20Rng,
) -> Result<()> {
    for one in [false, true] {
        let key = keys[usize::from(one)];
        let ct = input(pair, one, key, params, rng)?;
        let got = (path.decrypt)(key, &ct, params);
        match (&got, pair.valid(one)) {
            (Ok(m), true) if m.len() == MESSAGE_LEN => {}
            (Err(Error::DecryptionError), false) => {}
            _ => {
                return Err(Error::internal(format!(
                    "path {} on pair {} class {} gave {:?}",
                    path.name,
                    pair.name(),
                    u8::from(one),
                    got.map(|m| m.len())
                )));
            }
        }
    }
    Ok(())
}
