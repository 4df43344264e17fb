//! SeRSA and PaRSA (PaRSA, section 4.1): textbook RSA over a batch of N messages, run
//! sequentially or as a parallel loop under an OpenMP-style schedule.
//!
//! PaRSA's Fig. 1 loops `EMSGS[i] = MSGS[i]^e mod m`; Fig. 2 is the same loop under
//! `#pragma omp for`. The iterations are independent, so every schedule must give exactly the
//! sequential output; the tests check it for every schedule, thread count and chunk.
//! Textbook RSA is for study only (see [`crate::rsa::textbook`]).
use super::keys::{RsaPrivateKey, RsaPublicKey};
use super::textbook::{self, PrivateOp};
use crate::bignum::random_below;
use crate::parallel::{Executor, RunStats};
use rand::SeedableRng;
use rug::Integer;

/// The operation applied to every element of a batch.
#[derive(Clone, Copy, Debug)]
pub enum Transform<'a> {
    /// c = m^e mod n.
    Encrypt(&'a RsaPublicKey),
    /// m = c^d mod n, computed as the [`PrivateOp`] says.
    Decrypt(&'a RsaPrivateKey, PrivateOp),
}

impl Transform<'_> {
    /// Applies the operation to one representative in `[0, n)`.
    pub fn apply(&self, x: &Integer) -> Integer {
        match *self {
            Transform::Encrypt(key) => textbook::encrypt_unchecked(key, x),
            Transform::Decrypt(key, op) => textbook::decrypt_unchecked(key, x, op),
        }
    }

    fn modulus(&self) -> &Integer {
        match self {
            Transform::Encrypt(key) => key.n(),
            Transform::Decrypt(key, _) => key.public().n(),
        }
    }
}

/// `count` messages uniformly random in `[0, n)`, deterministic from `seed` (ChaCha20).
pub fn messages(key: &RsaPublicKey, count: usize, seed: u64) -> Vec<Integer> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| random_below(&mut rng, key.n()))
        .collect()
}

/// SeRSA: the plain sequential loop, the reference for every parallel run.
pub fn serial(transform: Transform<'_>, inputs: &[Integer]) -> Vec<Integer> {
    check_inputs(&transform, inputs);
    inputs.iter().map(|x| transform.apply(x)).collect()
}

/// PaRSA: the same loop run by `executor` (threads, schedule, chunk, pinning).
pub fn parallel(
    executor: &Executor,
    transform: Transform<'_>,
    inputs: &[Integer],
) -> (Vec<Integer>, RunStats) {
    check_inputs(&transform, inputs);
    executor.map(inputs.len(), |i| transform.apply(&inputs[i]))
}

fn check_inputs(transform: &Transform<'_>, inputs: &[Integer]) {
    let n = transform.modulus();
    debug_assert!(
        inputs.iter().all(|x| *x >= 0 && x < n),
        "batch inputs must lie in [0, n)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::{Schedule, ScheduleSpec};

    fn key() -> RsaPrivateKey {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap()
    }

    #[test]
    fn messages_are_deterministic_and_in_range() {
        let key = key();
        let a = messages(key.public(), 50, 1);
        assert_eq!(a, messages(key.public(), 50, 1));
        assert_ne!(a, messages(key.public(), 50, 2));
        assert!(a.iter().all(|m| *m >= 0 && m < key.public().n()));
    }

    #[test]
    fn parrsa_equals_sersa_for_every_schedule_thread_count_and_chunk() {
        let key = key();
        let msgs = messages(key.public(), 37, 3);
        let enc = Transform::Encrypt(key.public());
        let reference_ct = serial(enc, &msgs);
        for op in PrivateOp::ALL {
            assert_eq!(
                serial(Transform::Decrypt(&key, op), &reference_ct),
                msgs,
                "{op:?}"
            );
        }
        for threads in [1, 2, 3, 4, 8] {
            for schedule in Schedule::ALL {
                for chunk in [
                    None,
                    Some(1),
                    Some(2),
                    Some(5),
                    Some(10),
                    Some(36),
                    Some(37),
                    Some(100),
                ] {
                    let spec = ScheduleSpec::new(schedule, chunk).unwrap();
                    let ex = Executor::new(threads, spec, false).unwrap();
                    let (ct, stats) = parallel(&ex, enc, &msgs);
                    assert_eq!(ct, reference_ct, "encrypt {spec} threads={threads}");
                    assert_eq!(
                        stats.threads.iter().map(|t| t.items).sum::<usize>(),
                        msgs.len()
                    );
                    let dec = Transform::Decrypt(&key, PrivateOp::CrtVartime);
                    let (pt, _) = parallel(&ex, dec, &ct);
                    assert_eq!(pt, msgs, "decrypt {spec} threads={threads}");
                }
            }
        }
    }

    #[test]
    fn empty_batch_is_fine() {
        let key = key();
        let ex =
            Executor::new(2, ScheduleSpec::new(Schedule::Guided, None).unwrap(), false).unwrap();
        let (out, _) = parallel(&ex, Transform::Encrypt(key.public()), &[]);
        assert!(out.is_empty());
    }
}
