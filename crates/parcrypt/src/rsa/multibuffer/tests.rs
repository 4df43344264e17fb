//! Multi-buffer RSA lane by lane against the single-operation constant-time CRT and GMP:
//! 1 to 8 messages, one key in every lane or a key per lane (sizes mixed), the blinded form,
//! the range error, the fault check per lane, and what the whole call refuses. Skipped, with
//! the reason on stderr, where the kernel cannot run (as the other backends' tests skip).
use super::*;
use crate::rsa::keys::DEFAULT_E;
use crate::rsa::textbook::{self, PrivateOp};
use rand::SeedableRng;

fn runs(test: &str) -> bool {
    match unavailable_reason() {
        Some(why) => {
            eprintln!("{test}: kernel ifma-mb skipped: {why}");
            false
        }
        None => true,
    }
}

fn rng(seed: u64) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::seed_from_u64(seed)
}

fn key(bits: u32, seed: u64) -> RsaPrivateKey {
    RsaPrivateKey::generate_vartime(bits, &Integer::from(DEFAULT_E), &mut rng(seed)).unwrap()
}

/// Messages for each lane's key (edge values first), their ciphertexts, and every lane's
/// result checked: against the message (GMP's encryption inverted), against the
/// single-operation CtCrt byte for byte, and blinded.
fn check_lanes(keys: &[&RsaPrivateKey], seed: u64, what: &str) {
    let mut r = rng(seed);
    let ms: Vec<Integer> = keys
        .iter()
        .enumerate()
        .map(|(j, k)| match j {
            0 => Integer::new(),
            1 => Integer::from(1),
            2 => Integer::from(k.public().n() - 1u32),
            _ => crate::bignum::random_below(&mut r, k.public().n()),
        })
        .collect();
    let cs: Vec<Integer> = keys
        .iter()
        .zip(&ms)
        .map(|(k, m)| textbook::encrypt(k.public(), m).unwrap())
        .collect();
    let out = private_op_many(keys, &cs).unwrap();
    let blinded = decrypt_blinded_many(keys, &cs, &mut r).unwrap();
    assert_eq!(out.len(), cs.len());
    for (j, ((res, bl), key)) in out.into_iter().zip(blinded).zip(keys).enumerate() {
        let m = res.unwrap();
        assert_eq!(m, ms[j], "{what}: lane {j}");
        let single = textbook::decrypt(key, &cs[j], PrivateOp::CrtConstTime).unwrap();
        assert_eq!(m, single, "{what}: lane {j} against CtCrt");
        let crt = key.ct_crt();
        let cl = mpn::padded(&cs[j], crt.limbs());
        assert_eq!(
            &bl.unwrap()[..],
            &crt.private_op(&cl, false).unwrap()[..],
            "{what}: lane {j} blinded, limb for limb"
        );
    }
}

#[test]
fn one_key_in_one_to_eight_lanes() {
    if !runs("one_key_in_one_to_eight_lanes") {
        return;
    }
    let k = key(1024, 1);
    for count in 1..=LANES {
        let keys = vec![&k; count];
        check_lanes(&keys, count as u64, &format!("same key, {count} messages"));
    }
}

#[test]
fn a_key_per_lane_sizes_mixed() {
    if !runs("a_key_per_lane_sizes_mixed") {
        return;
    }
    let keys: Vec<RsaPrivateKey> = (0..LANES as u64)
        .map(|s| key(if s % 3 == 0 { 1536 } else { 1024 }, 10 + s))
        .collect();
    let refs: Vec<&RsaPrivateKey> = keys.iter().collect();
    for count in [1, 3, 5, LANES] {
        check_lanes(&refs[..count], 40 + count as u64, &format!("{count} keys"));
    }
    // One 2048-bit key, twice and with another.
    let big = key(2048, 30);
    check_lanes(&[&big, &keys[1], &big], 50, "2048 and 1024");
}

#[test]
fn a_ciphertext_not_below_n_is_the_error_ctcrt_gives_and_only_its_lane_fails() {
    if !runs("a_ciphertext_not_below_n") {
        return;
    }
    let k = key(1024, 2);
    let n = k.public().n().clone();
    let good = textbook::encrypt(k.public(), &Integer::from(12345)).unwrap();
    let cs = vec![good.clone(), n.clone(), Integer::from(&n + 1u32), good];
    let out = private_op_many(&[&k; 4], &cs).unwrap();
    let want = textbook::decrypt(&k, &n, PrivateOp::CrtConstTime)
        .unwrap_err()
        .to_string();
    assert_eq!(out[0].as_ref().unwrap(), &Integer::from(12345));
    assert_eq!(out[3].as_ref().unwrap(), &Integer::from(12345));
    for j in [1, 2] {
        let e = out[j].as_ref().unwrap_err();
        assert!(matches!(e, Error::InvalidCiphertext(_)), "{e}");
        assert_eq!(e.to_string(), want);
    }
    let bl = decrypt_blinded_many(&[&k; 4], &cs, &mut rng(3)).unwrap();
    assert!(matches!(bl[1], Err(Error::InvalidCiphertext(_))));
    assert!(bl[0].is_ok() && bl[3].is_ok());
}

#[test]
fn a_fault_in_one_lane_is_caught_there_alone() {
    if !runs("a_fault_in_one_lane") {
        return;
    }
    let k = key(1024, 4);
    let crt = k.ct_crt();
    let cs: Vec<Limbs> = (1..=5u32)
        .map(|m| {
            let c = textbook::encrypt(k.public(), &Integer::from(m)).unwrap();
            Zeroizing::new(mpn::padded(&c, crt.limbs()))
        })
        .collect();
    let out = run(&[crt; 5], cs.into_iter().map(Ok).collect(), Some(2));
    for (j, r) in out.iter().enumerate() {
        if j == 2 {
            assert!(matches!(r, Err(Error::DecryptionError)));
        } else {
            assert_eq!(mpn::to_integer(r.as_ref().unwrap()), j as u32 + 1);
        }
    }
}

#[test]
fn the_call_refuses_what_it_cannot_run() {
    let k = key(1024, 5);
    let c = Integer::from(7);
    assert!(private_op_many(&[], &[]).is_err());
    assert!(private_op_many(&[&k; 9], &vec![c.clone(); 9]).is_err());
    assert!(private_op_many(&[&k, &k], std::slice::from_ref(&c)).is_err());
    let three =
        RsaPrivateKey::generate_multi_vartime(1024, 3, &Integer::from(DEFAULT_E), &mut rng(6))
            .unwrap();
    assert!(matches!(
        private_op_many(&[&three], std::slice::from_ref(&c)),
        Err(Error::InvalidParameter(_))
    ));
    if !available() {
        assert!(matches!(
            private_op_many(&[&k], std::slice::from_ref(&c)),
            Err(Error::InvalidParameter(_))
        ));
    }
}
