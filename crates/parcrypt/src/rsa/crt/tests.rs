//! The constant-time CRT against GMP on every kernel this CPU runs (a backend it lacks is named
//! on stderr as skipped): two-prime and multi-prime keys, every key shape a valid key can
//! have (2 to 5 primes, unbalanced, primes of a few bits), the fault check, the blinding.
use super::*;
use crate::rsa::RsaPrivateKey;
use crate::rsa::keys::{DEFAULT_E, RsaPublicKey};
use crate::rsa::textbook::{self, PrivateOp};
use proptest::prelude::*;
use rand::SeedableRng;

/// The kernels this CPU runs; the others are named on stderr as skipped.
fn kernels() -> Vec<PrivateKernel> {
    PrivateKernel::ALL
        .into_iter()
        .filter(|k| {
            let ok = k.backend(1024).is_none_or(|b| b.available());
            if !ok {
                eprintln!("kernel {k} skipped: this CPU cannot run it");
            }
            ok
        })
        .collect()
}

fn rng(seed: u64) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::seed_from_u64(seed)
}

/// Every constant-time path of `key` on every kernel against GMP's c^d mod n: the checked
/// operation, the blinded one (integer and bytes), sequential and parallel; then every other
/// private-op form ([`check_other_forms`]).
fn check_key(key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, what: &str) {
    check_other_forms(key, rng, what);
    check_ct_forms(key, rng, what);
}

/// The variable-time forms and the multi-buffer ones of `key`: the right value, or (the
/// multi-buffer kernel on a key it cannot take: more than two primes, a prime above
/// [`crate::hazmat::multibuffer::MAX_PRIME_BITS`]) an error, never a panic. Skipped, said on
/// stderr, where the CPU lacks AVX-512 IFMA.
fn check_other_forms(key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, what: &str) {
    use crate::rsa::multibuffer;
    let n = key.public().n();
    let ms = [Integer::from(n - 1u32), crate::bignum::random_below(rng, n)];
    let cs: Vec<Integer> = ms
        .iter()
        .map(|m| textbook::encrypt(key.public(), m).unwrap())
        .collect();
    for (m, c) in ms.iter().zip(&cs) {
        for op in [
            PrivateOp::PlainVartime,
            PrivateOp::CrtVartime,
            PrivateOp::CrtParallelVartime,
        ] {
            assert_eq!(textbook::decrypt(key, c, op).unwrap(), *m, "{what} {op:?}");
        }
    }
    if let Some(why) = multibuffer::unavailable_reason() {
        eprintln!("{what}: multi-buffer forms skipped: {why}");
        return;
    }
    let fits = key.prime_count() == 2
        && (0..2).all(|i| key.prime(i).significant_bits() <= multibuffer::MAX_PRIME_BITS);
    let keys = vec![key; cs.len()];
    let many = multibuffer::private_op_many(&keys, &cs);
    let blinded = multibuffer::decrypt_blinded_many(&keys, &cs, rng);
    let single = textbook::decrypt(key, &cs[0], PrivateOp::CrtConstTimeMb);
    if !fits {
        assert!(
            many.is_err() && blinded.is_err() && single.is_err(),
            "{what}"
        );
        return;
    }
    assert_eq!(single.unwrap(), ms[0], "{what} CrtConstTimeMb");
    for (j, (got, bl)) in many.unwrap().into_iter().zip(blinded.unwrap()).enumerate() {
        assert_eq!(got.unwrap(), ms[j], "{what} private_op_many lane {j}");
        assert_eq!(
            mpn::to_integer(&bl.unwrap()),
            ms[j],
            "{what} blinded lane {j}"
        );
    }
}

/// The constant-time forms of `key` on every kernel (see [`check_key`]).
fn check_ct_forms(key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, what: &str) {
    let n = key.public().n();
    let k = key.public().size_bytes();
    for kernel in kernels() {
        let key = key.clone().with_kernel(kernel).unwrap();
        assert_eq!(key.kernel(), kernel);
        assert_eq!(
            key.ct_crt().backend().is_none(),
            kernel == PrivateKernel::GmpSec
        );
        let ms = [
            Integer::new(),
            Integer::from(1),
            Integer::from(n - 1u32),
            Integer::from(key.prime(0)),
            crate::bignum::random_below(rng, n),
            crate::bignum::random_below(rng, &(Integer::from(1) << 200)),
        ];
        for m in ms {
            let c = textbook::encrypt(key.public(), &m).unwrap();
            for op in [PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel] {
                let tag = format!("{what} {kernel} {op:?}");
                assert_eq!(textbook::decrypt(&key, &c, op).unwrap(), m, "{tag}");
                assert_eq!(
                    textbook::decrypt_blinded(&key, &c, op, rng).unwrap(),
                    m,
                    "{tag}"
                );
                let bytes = textbook::decrypt_blinded_bytes(&key, &c, op, rng).unwrap();
                assert_eq!(bytes.len(), k);
                assert_eq!(
                    *bytes,
                    crate::bignum::to_be_bytes_vartime(&m, k).unwrap(),
                    "{tag}"
                );
            }
        }
    }
}

#[test]
fn every_kernel_decrypts_two_prime_keys_like_gmp() {
    let mut rng = rng(31);
    let e = Integer::from(DEFAULT_E);
    for bits in [512u32, 1024, 2048] {
        let key = RsaPrivateKey::generate_vartime(bits, &e, &mut rng).unwrap();
        check_key(&key, &mut rng, &format!("{bits} bits"));
    }
}

#[test]
fn every_kernel_decrypts_multi_prime_keys_like_gmp() {
    let mut rng = rng(32);
    let e = Integer::from(DEFAULT_E);
    for (bits, primes) in [(1024u32, 3usize), (4096, 4)] {
        let key = RsaPrivateKey::generate_multi_vartime(bits, primes, &e, &mut rng).unwrap();
        check_key(&key, &mut rng, &format!("{bits} bits, {primes} primes"));
    }
}

/// A prime of exactly `bits` bits (2 or more) with gcd(e, r − 1) = 1.
fn prime_of(bits: u32, e: &Integer, rng: &mut rug::rand::RandState) -> Integer {
    loop {
        let mut x = Integer::from(Integer::random_bits(bits, rng));
        x.set_bit(bits - 1, true);
        let r = x.next_prime();
        if r.significant_bits() == bits && Integer::from(&r - 1u32).gcd(e) == 1 {
            return r;
        }
    }
}

/// The key of `primes` (distinct, product of 512 bits or more), `None` when they do not make
/// one (equal primes, e not below n).
fn key_of(primes: Vec<Integer>, e: &Integer) -> Option<RsaPrivateKey> {
    RsaPrivateKey::from_primes_vartime(primes, e.clone()).ok()
}

/// The 3-prime key of issue 29: 2048 bits, the third prime of 48 bits (OpenSSL reads and
/// encrypts to such a key; the IFMA kernel panicked on it).
#[test]
fn a_key_with_a_48_bit_prime_decrypts_on_every_kernel() {
    let e = Integer::from(DEFAULT_E);
    let mut state = rug::rand::RandState::new();
    state.seed(&Integer::from(29));
    let small = prime_of(48, &e, &mut state);
    let key = loop {
        let p = prime_of(1000, &e, &mut state);
        let q = prime_of(1000, &e, &mut state);
        if let Some(k) = key_of(vec![p, q, small.clone()], &e) {
            if k.public().bits() == 2048 {
                break k;
            }
        }
    };
    check_key(&key, &mut rng(33), "48-bit third prime");
}

/// The key of issue 41: two primes of 8,330 and 1,024 bits (OpenSSL's `pkey -check` says
/// valid), made once with OpenSSL's `prime -generate` (crates/parcrypt/testdata). The
/// multi-buffer kernel takes primes of 8,318 bits at most: it must refuse, not panic.
const UNBALANCED_8330: &[u8] = include_bytes!("../../../testdata/unbalanced-8330-1024.pem");

/// Keys too big to draw in a test: every form of the 8,330/1,024-bit key (the constant-time
/// ones on every kernel that takes it; a kernel that cannot is an error at `with_kernel`), and
/// a 16,384-bit key of five primes, both read from PEM.
#[test]
fn big_and_unbalanced_keys_run_every_private_op_form() {
    let key = crate::rsa::pem::load_private_key(UNBALANCED_8330).unwrap();
    assert_eq!(key.prime(0).significant_bits(), 8330);
    assert_eq!(key.prime(1).significant_bits(), 1024);
    let mut rng = rng(41);
    check_other_forms(&key, &mut rng, "8330/1024 bits");
    ct_once_on_every_kernel(&key, &mut rng, "8330/1024 bits");
    let big = crate::rsa::pem::load_private_key(FIVE_PRIMES_16384).unwrap();
    assert_eq!(big.prime_count(), 5);
    assert_eq!(big.public().bits(), 16_384);
    check_other_forms(&big, &mut rng, "16384 bits, 5 primes");
    ct_once_on_every_kernel(&big, &mut rng, "16384 bits, 5 primes");
}

/// One message through the checked, blinded constant-time forms (sequential and parallel) on
/// every kernel that takes `key` (one that cannot is an error at `with_kernel`, said on
/// stderr): the big keys' lighter [`check_ct_forms`].
fn ct_once_on_every_kernel(key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, what: &str) {
    let m = crate::bignum::random_below(rng, key.public().n());
    let c = textbook::encrypt(key.public(), &m).unwrap();
    for kernel in kernels() {
        let key = match key.clone().with_kernel(kernel) {
            Ok(key) => key,
            Err(e) => {
                eprintln!("{what}: kernel {kernel} refuses the key: {e}");
                continue;
            }
        };
        for op in [PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel] {
            let got = textbook::decrypt_blinded(&key, &c, op, rng).unwrap();
            assert_eq!(got, m, "{what} {kernel} {op:?}");
        }
    }
}

/// A 16,384-bit key of five primes of 3,277 bits (OpenSSL's `prime -generate`, once).
const FIVE_PRIMES_16384: &[u8] = include_bytes!("../../../testdata/five-primes-16384.pem");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Key shapes: 2 to 5 primes of unbalanced sizes, some of a few bits (down to 3, which
    /// OpenSSL reads: it checks no prime size when it loads a key), the modulus 512 to about
    /// 2100 bits; every kernel this CPU runs against GMP.
    #[test]
    fn every_key_shape_decrypts_on_every_kernel(
        seed in any::<u64>(),
        count in 2usize..=5,
        small in proptest::collection::vec(2u32..70, 4),
        big in 300u32..1100,
    ) {
        let e = Integer::from(DEFAULT_E);
        let mut state = rug::rand::RandState::new();
        state.seed(&Integer::from(seed));
        // After the first prime, small ones (2 to 69 bits) and mid-sized ones in turn; the
        // first large enough for a modulus of 560 bits or more.
        let mut sizes: Vec<u32> = (0..count - 1)
            .map(|i| if i % 2 == 0 { small[i] } else { 200 + 5 * small[i] })
            .collect();
        let rest: u32 = sizes.iter().sum();
        sizes.insert(0, big.max(560u32.saturating_sub(rest)));
        let primes: Vec<Integer> = sizes.iter().map(|&b| prime_of(b, &e, &mut state)).collect();
        let Some(key) = key_of(primes, &e) else {
            return Err(TestCaseError::reject("not a key (equal primes)"));
        };
        check_key(&key, &mut rng(seed), &format!("{sizes:?} bits"));
    }
}

#[test]
fn the_fault_check_refuses_a_flipped_crt_half_on_every_kernel() {
    let mut rng = rng(35);
    let e = Integer::from(DEFAULT_E);
    let two = RsaPrivateKey::generate_vartime(1024, &e, &mut rng).unwrap();
    let three = RsaPrivateKey::generate_multi_vartime(1536, 3, &e, &mut rng).unwrap();
    for key in [two, three] {
        for kernel in kernels() {
            let key = key.clone().with_kernel(kernel).unwrap();
            let crt = key.ct_crt();
            let m = crate::bignum::random_below(&mut rng, key.public().n());
            let c = textbook::encrypt(key.public(), &m).unwrap();
            let cl = mpn::padded(&c, crt.limbs());
            for parallel in [false, true] {
                let tag = format!("{kernel} {} primes parallel {parallel}", key.prime_count());
                let good = crt.private_op(&cl, parallel).unwrap();
                assert_eq!(mpn::to_integer(&good), m, "{tag}");
                let faulty = crt.private_op_unchecked(&cl, parallel);
                assert_eq!(mpn::to_integer(&faulty), m, "{tag}");
                let err = crt.private_op_faulty(&cl, parallel).unwrap_err();
                assert!(matches!(err, Error::DecryptionError), "{tag}: {err}");
                // What the check stopped: a wrong value that reveals a factor of n.
                let bad = crt.private_op_with(&cl, parallel, true);
                let bad = mpn::to_integer(&bad);
                assert_ne!(bad, m, "{tag}");
                let e_pow =
                    Integer::from(bad.pow_mod_ref(key.public().e(), key.public().n()).unwrap());
                let g = (e_pow - &c).gcd(key.public().n());
                assert!(
                    g > 1 && g < *key.public().n(),
                    "{tag}: the fault leaks a factor"
                );
            }
        }
    }
}

#[test]
fn the_blinding_pair_is_squared_between_uses_and_drawn_afresh() {
    let mut rng = rng(36);
    let key = RsaPrivateKey::generate_vartime(768, &Integer::from(DEFAULT_E), &mut rng).unwrap();
    let n = key.public().n().clone();
    for kernel in kernels() {
        let key = key.clone().with_kernel(kernel).unwrap();
        let crt = key.ct_crt();
        let pair = |crt: &CtCrt| {
            let s = crt.blinding.lock().unwrap();
            let s = s.as_ref().unwrap();
            // Out of the prepared form: a product by 1.
            let one = mpn::padded(&Integer::from(1), crt.limbs());
            let (mut a, mut ai) = (vec![0u64; crt.limbs()], vec![0u64; crt.limbs()]);
            crt.n.mul_prepared(&mut a, &one, &s.a);
            crt.n.mul_prepared(&mut ai, &one, &s.ai);
            (mpn::to_integer(&a), mpn::to_integer(&ai), s.left)
        };
        let mut last = None;
        for use_ in 0..2 * BLINDING_USES + 3 {
            let m = crate::bignum::random_below(&mut rng, &n);
            let c = textbook::encrypt(key.public(), &m).unwrap();
            let cl = mpn::padded(&c, crt.limbs());
            let got = crt.decrypt_blinded(&cl, use_ % 2 == 1, &mut rng).unwrap();
            assert_eq!(mpn::to_integer(&got), m, "{kernel} use {use_}");
            let (a, ai, left) = pair(crt);
            // a = r^e and ai = r⁻¹: a·ai^e = 1 mod n.
            let ai_e = Integer::from(ai.pow_mod_ref(key.public().e(), &n).unwrap());
            assert_eq!(Integer::from(&a * &ai_e) % &n, 1, "{kernel} use {use_}");
            if let Some((pa, pai, pleft)) = last.take() {
                if pleft > 0 {
                    assert_eq!(left, pleft - 1);
                    assert_eq!(a, Integer::from(&pa * &pa) % &n, "squared");
                    assert_eq!(ai, Integer::from(&pai * &pai) % &n, "squared");
                } else {
                    assert_eq!(left, BLINDING_USES - 1, "a fresh pair");
                    assert_ne!(a, Integer::from(&pa * &pa) % &n, "a fresh r");
                }
            }
            last = Some((a, ai, left));
        }
    }
}

#[test]
fn a_kernel_the_cpu_lacks_is_refused_when_chosen() {
    let mut rng = rng(33);
    let key = RsaPrivateKey::generate_vartime(512, &Integer::from(DEFAULT_E), &mut rng).unwrap();
    for kernel in PrivateKernel::ALL {
        assert_eq!(PrivateKernel::from_name(kernel.name()), Some(kernel));
        let ok = kernel.backend(256).is_none_or(|b| b.available());
        assert_eq!(key.clone().with_kernel(kernel).is_ok(), ok, "{kernel}");
    }
    assert_eq!(key.kernel(), PrivateKernel::Auto);
    assert_eq!(key.ct_crt().backend(), Some(Backend::best_for(256)));
}

#[test]
fn unblinding_is_a_product_by_the_inverse() {
    let mut rng = rng(34);
    let key = RsaPrivateKey::generate_vartime(1024, &Integer::from(DEFAULT_E), &mut rng).unwrap();
    let n = key.public().n();
    for kernel in kernels() {
        let key = key.clone().with_kernel(kernel).unwrap();
        let crt = key.ct_crt();
        for _ in 0..10 {
            let m = crate::bignum::random_below(&mut rng, n);
            let r = crate::bignum::random_below(&mut rng, n);
            let got = crt.unblind(&mpn::padded(&m, crt.limbs()), &mpn::padded(&r, crt.limbs()));
            assert_eq!(
                mpn::to_integer(&got),
                Integer::from(&m * &r) % n,
                "{kernel}"
            );
        }
    }
}

#[test]
fn a_key_built_from_its_values_matches_one_read_from_a_file() {
    // from_prime_list derives dP, dQ, qInv and t_i in constant time; they are the values
    // GMP's arithmetic gives.
    let mut rng = rng(37);
    let e = Integer::from(DEFAULT_E);
    let key = RsaPrivateKey::generate_multi_vartime(2048, 3, &e, &mut rng).unwrap();
    let public = RsaPublicKey::new(key.public().n().clone(), e.clone()).unwrap();
    let primes = (0..3).map(|i| key.prime(i).clone()).collect();
    let again = RsaPrivateKey::from_prime_list(public, key.d().clone(), primes).unwrap();
    let (p, q) = (again.p(), again.q());
    assert_eq!(*again.dp(), key.d() % Integer::from(p - 1u32));
    assert_eq!(*again.dq(), key.d() % Integer::from(q - 1u32));
    assert_eq!(*again.qinv(), Integer::from(q.invert_ref(p).unwrap()));
    let (r, d3, t3) = again.other_primes()[0];
    assert_eq!(*d3, key.d() % Integer::from(r - 1u32));
    let pq = Integer::from(p * q);
    assert_eq!(*t3, Integer::from(pq.invert_ref(r).unwrap()));
}
