//! The RSA primitives under OAEP and the textbook API: RSAEP (c = m^e mod n) and the
//! private-key operation with base blinding (RSADP), in the five forms of [`PrivateOp`]. The
//! constant-time forms run the key's kernel ([`RsaPrivateKey::set_kernel`]): by default the
//! best constant-time Montgomery kernel of this CPU, or GMP's `mpn_sec_*` functions
//! (`gmp-sec`), through [`CtCrt`](crate::hazmat::crt::CtCrt): reduction, exponentiation,
//! recombination, fault check, blinding and unblinding on fixed-length limbs.
//!
//! RSA-OAEP ([`crate::rsa::oaep`]) takes its core from here; the unpadded, unblinded
//! operations for study are in [`textbook`](crate::hazmat::textbook).
use super::keys::{RsaPrivateKey, RsaPublicKey};
use super::limits::check_range;
use super::multiprime::crt_vartime;
use crate::bignum::SecretInteger;
use crate::bignum::ct::secret_flow;
use crate::error::Result;
use rug::Integer;

/// How the private-key operation m = c^d mod n is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrivateOp {
    /// c^d mod n with GMP's `mpz_powm`. Variable-time: timing depends on d. Named `plain` in
    /// records.
    #[serde(rename = "plain")]
    PlainVartime,
    /// Chinese remainder theorem over every prime with `mpz_powm` (about 3-4x faster than
    /// `PlainVartime`). Variable-time: timing depends on the d_i. Named `crt` in records.
    #[serde(rename = "crt")]
    CrtVartime,
    /// Constant-time CRT with the key's kernel ([`RsaPrivateKey::set_kernel`]), from the
    /// reduction of c to the recombination, checked before it returns (the result raised to
    /// e must give c: a fault is [`Error::DecryptionError`](crate::Error::DecryptionError)).
    #[default]
    CrtConstTime,
    /// `CrtVartime` with one prime per thread: single-operation latency, m-ary/Karatsuba's question
    /// of splitting one exponentiation, answered by the cheapest split there is.
    /// Variable-time. Named `crt-parallel` in records.
    #[serde(rename = "crt-parallel")]
    CrtParallelVartime,
    /// `CrtConstTime` with one prime per pool thread, each with the single-modulus kernel.
    CrtConstTimeParallel,
    /// `CrtConstTime` on the multi-buffer AVX-512 IFMA kernel ([`crate::hazmat::multibuffer`]):
    /// batches run eight messages at once, one per 64-bit lane; a single message runs alone
    /// in one lane. Needs a CPU with AVX-512 IFMA (else [`Error::InvalidParameter`](crate::Error::InvalidParameter)), so it
    /// is not in [`PrivateOp::ALL`].
    CrtConstTimeMb,
}

impl PrivateOp {
    /// Every form that runs on any CPU, for sweeps and help texts (not
    /// [`PrivateOp::CrtConstTimeMb`], which needs AVX-512 IFMA).
    pub const ALL: [PrivateOp; 5] = [
        PrivateOp::PlainVartime,
        PrivateOp::CrtVartime,
        PrivateOp::CrtConstTime,
        PrivateOp::CrtParallelVartime,
        PrivateOp::CrtConstTimeParallel,
    ];

    /// Whether this is a constant-time form (and with it, which: parallel or not).
    fn constant_time(self) -> Option<bool> {
        match self {
            PrivateOp::CrtConstTime => Some(false),
            PrivateOp::CrtConstTimeParallel => Some(true),
            _ => None,
        }
    }
}

/// RSAEP: c = m^e mod n, for 0 <= m < n.
pub fn encrypt(key: &RsaPublicKey, m: &Integer) -> Result<Integer> {
    check_range(m, key.n(), "message")?;
    Ok(encrypt_unchecked(key, m))
}

/// RSAEP without the range check, for batches whose inputs are known to be in range.
pub fn encrypt_unchecked(key: &RsaPublicKey, m: &Integer) -> Integer {
    Integer::from(m.pow_mod_ref(key.e(), key.n()).expect("e is positive"))
}

/// The private-key operation of `op` on `c` in [0, n).
pub(crate) fn private_op(key: &RsaPrivateKey, c: &Integer, op: PrivateOp) -> Result<Integer> {
    Ok(match op {
        PrivateOp::PlainVartime => {
            Integer::from(c.pow_mod_ref(key.d(), key.public().n()).expect("d > 0"))
        }
        PrivateOp::CrtVartime => crt_vartime(key, c, false),
        PrivateOp::CrtParallelVartime => crt_vartime(key, c, true),
        PrivateOp::CrtConstTime | PrivateOp::CrtConstTimeParallel => key
            .ct_crt()
            .private_op_integer(c, op == PrivateOp::CrtConstTimeParallel)?,
        PrivateOp::CrtConstTimeMb => {
            let mut out = super::multibuffer::private_op_many(&[key], std::slice::from_ref(c))?;
            out.pop().expect("one result per message")?
        }
    })
}

/// RSADP with base blinding: c' = c·r^e mod n for a random r, m' = c'^d mod n,
/// m = m'·r⁻¹ mod n, so that the exponentiation works on a value unrelated to the attacker's
/// ciphertext. The constant-time forms do all of it in constant time
/// ([`crate::hazmat::crt::CtCrt::decrypt_blinded`]: r fresh and uniform, the pair (r^e, r⁻¹)
/// squared between uses and drawn afresh every
/// [`BLINDING_USES`](crate::hazmat::crt::BLINDING_USES) uses, the result checked before it is
/// unblinded); the variable-time forms blind with GMP's arithmetic (variable time, as they are).
pub fn decrypt_blinded<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<Integer> {
    Ok(match blinded(key, c, op, rng)? {
        Blinded::Fixed(limbs) => crate::bignum::mpn::to_integer(&limbs),
        Blinded::Gmp(m) => m,
    })
}

/// [`decrypt_blinded`] with the result as exactly k = ⌈bits(n)/8⌉ big-endian bytes (I2OSP),
/// wiped on drop. With a constant-time form the bytes come from the fixed-length limbs, so no
/// step after the exponentiation depends on the plaintext's value (its leading zero bytes
/// included).
pub fn decrypt_blinded_bytes<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<zeroize::Zeroizing<Vec<u8>>> {
    let mut out = zeroize::Zeroizing::new(vec![0u8; key.public().size_bytes()]);
    match blinded(key, c, op, rng)? {
        Blinded::Fixed(limbs) => crate::bignum::limbs_to_be_bytes(&limbs, &mut out),
        Blinded::Gmp(m) => crate::bignum::to_be_bytes_fixed(&SecretInteger::new(m), &mut out),
    }
    Ok(out)
}

/// A blinded decryption's result: fixed-length limbs (constant-time forms) or GMP's integer
/// (variable-time forms).
enum Blinded {
    Fixed(zeroize::Zeroizing<Vec<u64>>),
    Gmp(Integer),
}

fn blinded<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<Blinded> {
    check_range(c, key.public().n(), "ciphertext")?;
    if op == PrivateOp::CrtConstTimeMb {
        let mut out =
            super::multibuffer::decrypt_blinded_many(&[key], std::slice::from_ref(c), rng)?;
        return Ok(Blinded::Fixed(out.pop().expect("one result per message")?));
    }
    if let Some(parallel) = op.constant_time() {
        let crt = key.ct_crt();
        let cl = zeroize::Zeroizing::new(crate::bignum::mpn::padded(c, crt.limbs()));
        return Ok(Blinded::Fixed(crt.decrypt_blinded(&cl, parallel, rng)?));
    }
    // The variable-time forms: GMP's blinding, variable time like the forms themselves.
    let n = key.public().n();
    let (r, r_inv) = loop {
        let r = SecretInteger::new(crate::bignum::random_below(rng, n));
        secret_flow::classify_integer(&r);
        if let Some(inv) = r.invert_ref(n).map(Integer::from) {
            break (r, SecretInteger::new(inv));
        }
    };
    let mut blinded = encrypt_unchecked(key.public(), &r);
    blinded *= c;
    blinded %= n;
    let mut m = private_op(key, &blinded, op)?;
    crate::bignum::secret::wipe_integer(&mut blinded);
    m *= &*r_inv;
    m %= n;
    secret_flow::classify_integer(&m);
    Ok(Blinded::Gmp(m))
}
