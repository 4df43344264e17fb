//! OAEP encryption and decryption: round trips, every padding defect, the one opaque error,
//! and the constant-time helpers.
use super::*;
use rand::SeedableRng;
use rug::Integer;

fn setup() -> (RsaPrivateKey, rand_chacha::ChaCha20Rng) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(77);
    let key = RsaPrivateKey::generate_vartime(1024, &Integer::from(65537), &mut rng).unwrap();
    (key, rng)
}

/// Encrypts a hand-made EM with textbook RSA, to reach each padding check.
fn raw(key: &RsaPrivateKey, em: &[u8]) -> Vec<u8> {
    let c = primitive::encrypt(key.public(), &from_be_bytes(em)).unwrap();
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
    let key = RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap();
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
    let old =
        |ct: &[u8]| decrypt_with_vartime(&key, ct, &OaepParams::default(), PrivateOp::CrtConstTime);
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
            assert_eq!(
                *decrypt_with_any_op_vartime(&key, &ct, &params, op).unwrap(),
                msg
            );
        }
        let other = OaepParams::sha256(b"M");
        let old = decrypt_with_vartime(&key, &ct, &other, PrivateOp::CrtConstTime);
        assert!(matches!(old, Err(Error::DecryptionError)));
    }
}

#[test]
fn the_constant_time_shift_moves_every_offset() {
    // Lengths around powers of two (the passes are the powers of two up to the length)
    // and DB's length for a 2048-bit key with SHA-256 (256 - 32 - 1).
    for len in [0usize, 1, 2, 3, 31, 32, 33, 37, 64, 223] {
        let buf: Vec<u8> = (1..=len).map(|i| i as u8 | 1).collect();
        for by in 0..=buf.len() {
            let mut got = buf.clone();
            shift_left(&mut got, by);
            let mut want = buf[by..].to_vec();
            want.resize(buf.len(), 0);
            assert_eq!(got, want, "len {len}, by {by}");
        }
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
    let key = RsaPrivateKey::generate_vartime(1536, &Integer::from(65537), &mut rng).unwrap();
    for hash in OaepHash::ALL {
        for mgf1_hash in [OaepHash::Sha1, OaepHash::Sha256, hash] {
            let params = OaepParams::new(hash, mgf1_hash, b"L");
            let max = max_message_len_with(key.public(), hash);
            assert_eq!(max, 192 - 2 * hash.output_len() - 2);
            let msg = vec![0xa5; max];
            let ct = encrypt_with(key.public(), &msg, &params, &mut rng).unwrap();
            for op in [CtOp::CrtConstTime, CtOp::CrtConstTimeParallel] {
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
                let got = decrypt_with(&key, &ct, &wrong, CtOp::CrtConstTime);
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
    let err = decrypt_with(&small, &[0; 128], &params, CtOp::CrtConstTime).unwrap_err();
    assert!(matches!(err, Error::InvalidKey(_)), "{err}");
}
