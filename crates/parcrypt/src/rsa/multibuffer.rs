//! Multi-buffer RSA: up to eight private-key operations at once on the multi-buffer AVX-512
//! IFMA kernel (`bignum::ct::ifma_mb`, built with Rust 1.89 or newer), one operation per
//! 64-bit lane, as Intel's crypto_mb does. Each lane has its own key (keys of any two-prime
//! size; the lanes run at the digit count of the largest prime) or the same key in several
//! lanes.
//!
//! Per operation, exactly what [`CtCrt`] does for one: the ciphertext's range check (the same
//! error as [`crate::hazmat::textbook::decrypt`]), the blinding (the key's own pair, drawn or
//! squared per use), c mod q and c mod p in constant time, the two CRT halves as two
//! multi-buffer exponentiations (all lanes' q halves, then all lanes' p halves, each exponent
//! read over the largest prime's bit length), Garner's recombination, the fault check against
//! the public key (a fault is [`Error::DecryptionError`] for that lane alone, its value wiped)
//! and the unblinding. Fewer than eight messages leave free lanes, which run a harmless dummy
//! (base 0, exponent 0, the first lane's moduli) whose result is dropped. A key of more than
//! two primes, or a CPU without AVX-512 IFMA, is an error for the whole call.
use super::crt::CtCrt;
use super::keys::RsaPrivateKey;
use super::secrets::Limbs;
use crate::bignum::mpn;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;
use zeroize::Zeroizing;

/// Operations per call (the 64-bit lanes of a 512-bit register).
pub const LANES: usize = 8;

#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
const _: () = assert!(
    crate::bignum::ct::ifma_mb::digits_for(MAX_PRIME_BITS)
        == crate::bignum::ct::ifma_mb::MAX_DIGITS
        && crate::bignum::ct::ifma_mb::digits_for(MAX_PRIME_BITS + 1)
            > crate::bignum::ct::ifma_mb::MAX_DIGITS
);

/// Whether this build and CPU run the multi-buffer kernel.
pub fn available() -> bool {
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    {
        crate::bignum::ct::ifma_mb::available()
    }
    #[cfg(not(all(target_arch = "x86_64", parcrypt_avx512)))]
    {
        false
    }
}

/// Why the kernel cannot run here, or `None` when it can.
pub fn unavailable_reason() -> Option<String> {
    if available() {
        return None;
    }
    Some(if cfg!(all(target_arch = "x86_64", parcrypt_avx512)) {
        "the ifma-mb kernel cannot run here: this CPU lacks avx512f, avx512ifma".into()
    } else {
        "the ifma-mb kernel cannot run here: not built (needs x86-64 and Rust 1.89 or newer)".into()
    })
}

/// The whole call's preconditions: 1 to [`LANES`] messages, one key per message, the kernel
/// available, keys it takes ([`key_refusal`]).
fn check_call(keys: &[&RsaPrivateKey], cs: &[Integer]) -> Result<()> {
    if cs.is_empty() || cs.len() > LANES || keys.len() != cs.len() {
        return Err(Error::InvalidParameter(format!(
            "multi-buffer RSA takes 1 to {LANES} messages and one key per message, got {} \
             messages and {} keys",
            cs.len(),
            keys.len()
        )));
    }
    if let Some(why) = unavailable_reason() {
        return Err(Error::InvalidParameter(why));
    }
    match keys.iter().find_map(|k| key_refusal(k)) {
        Some(why) => Err(Error::InvalidParameter(why)),
        None => Ok(()),
    }
}

/// Why the multi-buffer kernel cannot take `key`, or `None` when it can: it takes two-prime
/// keys whose primes have at most [`MAX_PRIME_BITS`] bits (the kernel's digit count is
/// bounded: a valid key with a larger prime, e.g. 8,330 bits beside 1,024, is refused here,
/// never a panic in the kernel). Prime sizes are public.
pub fn key_refusal(key: &RsaPrivateKey) -> Option<String> {
    if key.prime_count() != 2 {
        return Some("multi-buffer RSA takes two-prime keys".into());
    }
    let largest = (0..2)
        .map(|i| key.prime(i).significant_bits())
        .max()
        .unwrap_or(0);
    (largest > MAX_PRIME_BITS).then(|| {
        format!(
            "multi-buffer RSA takes primes of at most {MAX_PRIME_BITS} bits, this key has one \
             of {largest} bits"
        )
    })
}

/// The largest prime the multi-buffer kernel takes: `ifma_mb::MAX_DIGITS` (160) digits of 52
/// bits less the two bits of headroom (R > 4m), 8,318 bits.
pub const MAX_PRIME_BITS: u32 = 160 * 52 - 2;

/// The private-key operation c_j^d_j mod n_j of every lane, checked before it is returned
/// (as [`crate::hazmat::textbook::decrypt`] with [`crate::hazmat::textbook::PrivateOp::CrtConstTime`]):
/// one result per message, in order. Errors for the whole call: see the module docs.
pub fn private_op_many(keys: &[&RsaPrivateKey], cs: &[Integer]) -> Result<Vec<Result<Integer>>> {
    check_call(keys, cs)?;
    let crts: Vec<&CtCrt> = keys.iter().map(|k| k.ct_crt()).collect();
    let inputs = limbs_in_range(keys, &crts, cs);
    let out = run(&crts, inputs, None);
    Ok(out
        .into_iter()
        .map(|r| r.map(|m| mpn::to_integer(&m)))
        .collect())
}

/// The blinded private-key operation of every lane (as [`CtCrt::decrypt_blinded`]): the
/// result m_j = c_j^d_j mod n_j at n_j's limb count, one per message. `rng` draws the
/// blinding factors that are due.
pub fn decrypt_blinded_many<R: RngCore + ?Sized>(
    keys: &[&RsaPrivateKey],
    cs: &[Integer],
    rng: &mut R,
) -> Result<Vec<Result<Limbs>>> {
    check_call(keys, cs)?;
    let crts: Vec<&CtCrt> = keys.iter().map(|k| k.ct_crt()).collect();
    let inputs = limbs_in_range(keys, &crts, cs);
    let mut pairs = Vec::with_capacity(cs.len());
    let mut blinded = Vec::with_capacity(cs.len());
    for (crt, c) in crts.iter().zip(inputs) {
        match c {
            Ok(c) => {
                let (b, ai) = crt.blind(&c, rng);
                blinded.push(Ok(b));
                pairs.push(Some(ai));
            }
            Err(e) => {
                blinded.push(Err(e));
                pairs.push(None);
            }
        }
    }
    let out = run(&crts, blinded, None);
    Ok(out
        .into_iter()
        .zip(pairs)
        .zip(&crts)
        .map(|((m, ai), crt)| {
            let m = m?;
            Ok(crt.unblind_prepared(&m, &ai.expect("a lane in range has its pair")))
        })
        .collect())
}

/// Each ciphertext as n's limbs, or the range error [`crate::hazmat::textbook::decrypt`] gives.
fn limbs_in_range(keys: &[&RsaPrivateKey], crts: &[&CtCrt], cs: &[Integer]) -> Vec<Result<Limbs>> {
    keys.iter()
        .zip(crts)
        .zip(cs)
        .map(|((key, crt), c)| {
            super::limits::check_range(c, key.public().n(), "ciphertext")?;
            Ok(Zeroizing::new(mpn::padded(c, crt.limbs())))
        })
        .collect()
}

/// The checked private-key operation of every lane whose input is `Ok` (lanes with an error
/// keep it and run as dummies), with the test-only fault planted in lane `fault`.
pub(crate) fn run(
    crts: &[&CtCrt],
    inputs: Vec<Result<Limbs>>,
    fault: Option<usize>,
) -> Vec<Result<Limbs>> {
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    {
        imp::run(crts, inputs, fault)
    }
    #[cfg(not(all(target_arch = "x86_64", parcrypt_avx512)))]
    {
        let _ = (crts, fault);
        let why = unavailable_reason().unwrap_or_default();
        inputs
            .into_iter()
            .map(|_| Err(Error::InvalidParameter(why.clone())))
            .collect()
    }
}

#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod imp {
    use super::*;
    use crate::bignum::ct::Mont64;
    use crate::bignum::ct::ifma_mb::{self, MbCtx, MbLane};
    use crate::rsa::crt::PrimeView;

    /// See [`super::run`]; the caller has checked the kernel and that every key has two
    /// primes.
    pub(super) fn run(
        crts: &[&CtCrt],
        inputs: Vec<Result<Limbs>>,
        fault: Option<usize>,
    ) -> Vec<Result<Limbs>> {
        let count = crts.len();
        assert!((1..=LANES).contains(&count) && inputs.len() == count);
        let primes: Vec<[PrimeView<'_>; 2]> = crts
            .iter()
            .map(|c| {
                c.two_primes()
                    .expect("two-prime keys, checked by the caller")
            })
            .collect();
        // One digit count for every lane: the largest prime's (public sizes).
        let bits = primes
            .iter()
            .flat_map(|p| p.iter().map(|q| q.1))
            .max()
            .expect("at least one lane");
        let digits = ifma_mb::digits_for(bits);
        // Each key's two lanes once (a key in several lanes shares them).
        let mut prepared: Vec<[MbLane; 2]> = Vec::with_capacity(count);
        let mut which = Vec::with_capacity(count);
        for (j, crt) in crts.iter().enumerate() {
            match crts[..j].iter().position(|c| std::ptr::eq(*c, *crt)) {
                Some(k) => which.push(which[k]),
                None => {
                    which.push(prepared.len());
                    prepared.push(primes[j].map(|(m, b, _)| {
                        let arith = Mont64::with_bits(m, b).expect("a key's primes are odd");
                        MbLane::new(&arith, digits)
                    }));
                }
            }
        }
        // secret: the residues of every lane, prime by prime (Garner's order).
        let mut residues: Vec<Vec<Limbs>> = (0..count).map(|_| Vec::with_capacity(2)).collect();
        for i in 0..2 {
            // Free lanes and lanes with an error: the first lane's moduli, base 0, exponent 0.
            let lane = |j: usize| &prepared[which[if j < count { j } else { 0 }]][i];
            // secret: c mod r_i of each lane.
            let bases: Vec<Limbs> = (0..LANES)
                .map(|j| {
                    let mut b = Zeroizing::new(vec![0u64; lane(j).limbs()]);
                    if let Some(Ok(c)) = inputs.get(j) {
                        crts[j].reduce_to_prime(i, &mut b, c);
                    }
                    b
                })
                .collect();
            let mut outs: Vec<Limbs> = (0..LANES)
                .map(|j| Zeroizing::new(vec![0u64; lane(j).limbs()]))
                .collect();
            let ctx = MbCtx::new(std::array::from_fn(lane));
            let exps: [&[u64]; LANES] = std::array::from_fn(|j| match inputs.get(j) {
                Some(Ok(_)) => primes[j][i].2,
                _ => &[][..],
            });
            let mut it = outs.iter_mut();
            ctx.pow(
                std::array::from_fn(|_| &mut it.next().expect("eight outputs")[..]),
                std::array::from_fn(|j| &bases[j][..]),
                exps,
                bits as usize,
            );
            for (r, o) in residues.iter_mut().zip(outs) {
                r.push(o);
            }
        }
        residues
            .into_iter()
            .zip(inputs)
            .enumerate()
            .map(|(j, (res, c))| {
                let c = c?;
                crts[j].finish_residues(res, &c, fault == Some(j))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
