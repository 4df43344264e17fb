//! SeRSA and PaRSA (PaRSA, section 4.1): textbook RSA over a batch of N messages, run
//! sequentially or as a parallel loop under an OpenMP-style schedule.
//!
//! PaRSA's Fig. 1 loops `EMSGS[i] = MSGS[i]^e mod m`; Fig. 2 is the same loop under
//! `#pragma omp for`. The iterations are independent, so every schedule must give exactly the
//! sequential output; the tests check it for every schedule, thread count and chunk.
//! Textbook RSA is for study only (see [`crate::hazmat::textbook`]).
use super::keys::{RsaPrivateKey, RsaPublicKey};
use super::multibuffer;
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

/// SeRSA: the plain sequential loop, the reference for every parallel run (with
/// [`PrivateOp::CrtConstTimeMb`], the loop over groups of eight messages).
pub fn serial(transform: Transform<'_>, inputs: &[Integer]) -> Vec<Integer> {
    check_inputs(&transform, inputs);
    if let Some(key) = multibuffer_key(&transform) {
        return (0..groups(inputs))
            .flat_map(|g| apply_group(key, inputs, g))
            .collect();
    }
    inputs.iter().map(|x| transform.apply(x)).collect()
}

/// PaRSA: the same loop run by `executor` (threads, schedule, chunk, pinning). With
/// [`PrivateOp::CrtConstTimeMb`] the loop's iterations are groups of eight consecutive
/// messages (the last one shorter), one multi-buffer call each: the schedule deals groups,
/// and the stats count groups as items.
pub fn parallel(
    executor: &Executor,
    transform: Transform<'_>,
    inputs: &[Integer],
) -> (Vec<Integer>, RunStats) {
    check_inputs(&transform, inputs);
    if let Some(key) = multibuffer_key(&transform) {
        let (out, stats) = executor.map(groups(inputs), |g| apply_group(key, inputs, g));
        return (out.into_iter().flatten().collect(), stats);
    }
    executor.map(inputs.len(), |i| transform.apply(&inputs[i]))
}

/// The constant-time private-key operation a batch runs, chosen by measurement
/// ([`fastest_const_time`]), and what decided it: recorded beside the figures it produced.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConstTimeChoice {
    /// The operation chosen: [`PrivateOp::CrtConstTime`] or [`PrivateOp::CrtConstTimeMb`].
    pub op: PrivateOp,
    /// The multi-buffer call's speed over eight single operations, as measured (`None` where
    /// the CPU or the key cannot run it).
    pub multibuffer_gain: Option<f64>,
}

impl ConstTimeChoice {
    /// The choice from measured times: eight single operations took `single_s`, one
    /// multi-buffer call on the same eight messages `many_s` (`None`: it cannot run here).
    /// The multi-buffer kernel is taken only when strictly faster.
    pub fn from_times(single_s: f64, many_s: Option<f64>) -> Self {
        let gain = many_s
            .filter(|&m| m > 0.0 && single_s.is_finite())
            .map(|m| single_s / m);
        Self {
            op: match gain {
                Some(g) if g > 1.0 => PrivateOp::CrtConstTimeMb,
                _ => PrivateOp::CrtConstTime,
            },
            multibuffer_gain: gain,
        }
    }

    /// One line for screens and records: which kernel ran, and why (`backend`: the
    /// one-at-a-time kernel's name).
    pub fn describe(&self, backend: &str) -> String {
        match (self.op, self.multibuffer_gain) {
            (PrivateOp::CrtConstTimeMb, Some(g)) => format!(
                "multi-buffer ifma-mb, 8 messages per call, chosen by measurement: {g:.2}x the one-at-a-time {backend} kernel here"
            ),
            (_, Some(g)) => format!(
                "{backend} kernel one at a time, chosen by measurement: multi-buffer measured {g:.2}x here"
            ),
            _ => format!(
                "{backend} kernel one at a time (no multi-buffer kernel for this CPU or key)"
            ),
        }
    }
}

/// Which constant-time private-key operation runs a batch of `key` faster on this machine, by
/// measurement: eight messages of `inputs` (cycled if fewer) through
/// [`PrivateOp::CrtConstTime`] one at a time against one multi-buffer call
/// ([`PrivateOp::CrtConstTimeMb`]), interleaved, the fastest of 5 turns each (a few ms at 2048
/// bits), decided by [`ConstTimeChoice::from_times`]. The multi-buffer kernel is out where the
/// CPU or the key cannot run it (no AVX-512 IFMA, or more than two primes). Only public sizes
/// and the clock decide; the messages are the caller's public batch.
pub fn fastest_const_time(key: &RsaPrivateKey, inputs: &[Integer]) -> ConstTimeChoice {
    let group: Vec<Integer> = (0..multibuffer::LANES)
        .filter_map(|i| inputs.get(i % inputs.len().max(1)).cloned())
        .collect();
    let keys = vec![key; group.len()];
    if group.is_empty() || multibuffer::private_op_many(&keys, &group).is_err() {
        return ConstTimeChoice::from_times(0.0, None);
    }
    let time = |f: &dyn Fn()| {
        let t = std::time::Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let one_at_a_time = Transform::Decrypt(key, PrivateOp::CrtConstTime);
    let (mut single, mut many) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        single = single.min(time(&|| {
            for c in &group {
                std::hint::black_box(one_at_a_time.apply(c));
            }
        }));
        many = many.min(time(&|| {
            std::hint::black_box(multibuffer::private_op_many(&keys, &group).ok());
        }));
    }
    ConstTimeChoice::from_times(single, Some(many))
}

/// The key of a multi-buffer decryption, `None` for every other transform.
fn multibuffer_key<'a>(transform: &Transform<'a>) -> Option<&'a RsaPrivateKey> {
    match *transform {
        Transform::Decrypt(key, PrivateOp::CrtConstTimeMb) => Some(key),
        _ => None,
    }
}

/// Groups of [`multibuffer::LANES`] messages in a batch.
fn groups(inputs: &[Integer]) -> usize {
    inputs.len().div_ceil(multibuffer::LANES)
}

/// The private-key operation of group `g` on the multi-buffer kernel, one result per message;
/// as [`textbook::decrypt_unchecked`], a failed operation (or a call the CPU cannot run)
/// gives 0, which the batch's check against its reference catches.
fn apply_group(key: &RsaPrivateKey, inputs: &[Integer], g: usize) -> Vec<Integer> {
    let lo = g * multibuffer::LANES;
    let part = &inputs[lo..(lo + multibuffer::LANES).min(inputs.len())];
    match multibuffer::private_op_many(&vec![key; part.len()], part) {
        Ok(out) => out.into_iter().map(|r| r.unwrap_or_default()).collect(),
        Err(_) => vec![Integer::new(); part.len()],
    }
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
    fn the_faster_const_time_op_is_chosen_by_measurement_and_computes_the_same() {
        let key = key();
        let msgs = messages(key.public(), 5, 9);
        let choice = fastest_const_time(&key, &msgs);
        if multibuffer::private_op_many(&[&key], &msgs[..1]).is_err() {
            assert_eq!(choice, ConstTimeChoice::from_times(0.0, None));
            assert_eq!(choice.op, PrivateOp::CrtConstTime, "no multi-buffer here");
        } else {
            let gain = choice.multibuffer_gain.unwrap();
            assert!(gain > 0.0 && gain.is_finite());
            assert_eq!(choice.op == PrivateOp::CrtConstTimeMb, gain > 1.0);
        }
        let t = Transform::Decrypt(&key, choice.op);
        let want = serial(Transform::Decrypt(&key, PrivateOp::CrtConstTime), &msgs);
        assert_eq!(serial(t, &msgs), want);
    }

    #[test]
    fn fake_timings_decide_the_choice() {
        let faster = ConstTimeChoice::from_times(8e-3, Some(5e-3));
        assert_eq!(faster.op, PrivateOp::CrtConstTimeMb);
        assert_eq!(faster.multibuffer_gain, Some(1.6));
        assert!(faster.describe("ifma").contains("1.60x"));
        let slower = ConstTimeChoice::from_times(4e-3, Some(5e-3));
        assert_eq!(slower.op, PrivateOp::CrtConstTime);
        assert!(slower.describe("mulx").contains("0.80x"));
        // A tie keeps the one-at-a-time kernel; no multi-buffer call, or a broken timing, too.
        assert_eq!(
            ConstTimeChoice::from_times(5e-3, Some(5e-3)).op,
            PrivateOp::CrtConstTime
        );
        let none = ConstTimeChoice::from_times(5e-3, None);
        assert_eq!(
            (none.op, none.multibuffer_gain),
            (PrivateOp::CrtConstTime, None)
        );
        assert!(none.describe("mulx").contains("no multi-buffer"));
        assert_eq!(
            ConstTimeChoice::from_times(5e-3, Some(0.0)).multibuffer_gain,
            None
        );
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
    fn multibuffer_batches_equal_sersa_for_every_schedule_and_size() {
        if let Some(why) = multibuffer::unavailable_reason() {
            eprintln!("multibuffer_batches_equal_sersa: kernel ifma-mb skipped: {why}");
            return;
        }
        let key = key();
        let dec = Transform::Decrypt(&key, PrivateOp::CrtConstTimeMb);
        for count in [1, 7, 8, 9, 37] {
            let msgs = messages(key.public(), count, 11 + count as u64);
            let ct = serial(Transform::Encrypt(key.public()), &msgs);
            // The reference: SeRSA on the single-operation constant-time CRT.
            let reference = serial(Transform::Decrypt(&key, PrivateOp::CrtConstTime), &ct);
            assert_eq!(reference, msgs);
            assert_eq!(serial(dec, &ct), reference, "serial, {count} messages");
            for threads in [1, 2, 3] {
                for schedule in Schedule::ALL {
                    for chunk in [None, Some(1), Some(3)] {
                        let spec = ScheduleSpec::new(schedule, chunk).unwrap();
                        let ex = Executor::new(threads, spec, false).unwrap();
                        let (pt, stats) = parallel(&ex, dec, &ct);
                        assert_eq!(pt, reference, "{count} messages {spec} threads={threads}");
                        assert_eq!(
                            stats.threads.iter().map(|t| t.items).sum::<usize>(),
                            count.div_ceil(multibuffer::LANES)
                        );
                    }
                }
            }
        }
        // One message alone, through the per-message path.
        let c = &serial(Transform::Encrypt(key.public()), &[Integer::from(99)])[0];
        assert_eq!(dec.apply(c), 99);
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
