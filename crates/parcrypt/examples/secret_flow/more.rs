//! The secret-flow harness's further phases (issue 41): the derive path, the blinding
//! refresh, the parallel CRT, the out-of-range ciphertext, and the IFMA kernels' source with
//! its 512-bit operations emulated (Valgrind has no AVX-512).
use super::{Expect, Fixture, Phases};
use parcrypt::hazmat::bignum::ct::secret_flow as sf;
use parcrypt::hazmat::bignum::{from_be_bytes, mpn};
use parcrypt::rsa::RsaPrivateKey;
use parcrypt::rsa::oaep::{self, CtOp, OaepParams};
use rug::Integer;

/// Decryptions with one key in the refresh phase: past the 32 uses after which the blinding
/// pair is drawn afresh (`rsa::crt::BLINDING_USES`).
const REFRESH_DECRYPTIONS: usize = 34;

/// Every phase of this file, on the loaded key (its values secret) and the kernel it has.
pub fn run(phases: &mut Phases, key: &RsaPrivateKey, fx: &Fixture) {
    let params = OaepParams::default();
    // KeySecrets::derive: the key rebuilt from n, e, d and its primes (the CRT values derived).
    let primes: Vec<Integer> = (0..key.prime_count())
        .map(|i| key.prime(i).clone())
        .collect();
    let derived = phases.run("derive (from_prime_list)", Expect::Clean, || {
        RsaPrivateKey::from_prime_list(key.public().clone(), key.d().clone(), primes)
    });
    match derived {
        Ok(k) => phases.run("drop (derived key)", Expect::Clean, || drop(k)),
        Err(e) => phases.check(false, format!("derive: {e}")),
    }
    // More than 32 decryptions with one key: the blinding pair squared, then drawn afresh.
    let mut ok = true;
    phases.run(
        &format!("oaep x{REFRESH_DECRYPTIONS} (refresh)"),
        Expect::Clean,
        || {
            for _ in 0..REFRESH_DECRYPTIONS {
                let got = oaep::decrypt_with(key, &fx.valid_ct, &params, CtOp::CrtConstTime);
                ok &= got.is_ok_and(|m| {
                    sf::declassify(&m);
                    *m == fx.valid_msg
                });
            }
        },
    );
    phases.check(ok, "a decryption of the refresh phase was wrong".into());
    // `--parallel`: one thread per prime.
    let got = phases.run("oaep valid --parallel", Expect::Clean, || {
        oaep::decrypt_with(key, &fx.valid_ct, &params, CtOp::CrtConstTimeParallel)
    });
    let ok = got.is_ok_and(|m| {
        sf::declassify(&m);
        *m == fx.valid_msg
    });
    phases.check(ok, "--parallel did not decrypt".into());
    // The out-of-range branch: a ciphertext of n itself (≥ n) is refused like a bad padding.
    let n_bytes = key.public().n().to_digits::<u8>(rug::integer::Order::Msf);
    let got = phases.run("oaep out-of-range (c = n)", Expect::Clean, || {
        oaep::decrypt_with(key, &n_bytes, &params, CtOp::CrtConstTime)
    });
    phases.check(
        matches!(got, Err(parcrypt::Error::DecryptionError)),
        "c = n was not refused".into(),
    );
    emulated(phases, key, fx);
}

/// The IFMA kernels' source, emulated: the CRT exponentiations c^d_i mod r_i of the valid
/// ciphertext on the key's secret primes and exponents, the dual form on p and q, the single
/// form on every prime, and the multi-buffer kernel with the primes spread over its eight
/// lanes; each result checked against GMP after it is declassified.
#[cfg(target_arch = "x86_64")]
fn emulated(phases: &mut Phases, key: &RsaPrivateKey, fx: &Fixture) {
    use parcrypt::hazmat::bignum::ct::Mont64;
    use parcrypt::hazmat::bignum::ct::emulated::{self as em, Instantiation::Emulated};
    let c = from_be_bytes(&fx.valid_ct);
    let count = key.prime_count();
    let limbs = |x: &Integer| mpn::padded(x, x.significant_bits().div_ceil(64) as usize);
    // Inputs made outside the phases with GMP (variable time), from public copies of the
    // key's values, then marked secret.
    let (mut mods, mut bases, mut exps, mut want) = (vec![], vec![], vec![], vec![]);
    for i in 0..count {
        let (r, d) = (key.prime(i).clone(), key.exponent(i).clone());
        sf::declassify_integer(&r);
        sf::declassify_integer(&d);
        let (r, d) = (&r, &d);
        let bits = r.significant_bits();
        let m = limbs(r);
        let base = mpn::padded(&Integer::from(&c % r), m.len());
        let exp = mpn::padded(d, m.len());
        want.push(Integer::from(c.pow_mod_ref(d, r).expect("r > 0")));
        for x in [&m, &base, &exp] {
            sf::classify_limbs(x);
        }
        mods.push((m, bits));
        bases.push(base);
        exps.push(exp);
    }
    let ebits = mods.iter().map(|m| m.1).max().unwrap_or(0) as usize;
    let check = |phases: &mut Phases, name: &str, got: Option<Vec<Vec<u64>>>, lane: &[usize]| {
        let ok = got.is_some_and(|outs| {
            outs.iter().zip(lane).all(|(o, &i)| {
                let bits = sf::secret_bits_limbs(o);
                sf::declassify_limbs(o);
                bits.is_none_or(|b| b > 0) && mpn::to_integer(o) == want[i]
            })
        });
        phases.check(ok, format!("{name}: a result is wrong or holds no secret"));
    };
    let got = phases.run("ifma-emulated pair (p, q)", Expect::Clean, || {
        let a = Mont64::with_bits(&mods[0].0, mods[0].1)?;
        let b = Mont64::with_bits(&mods[1].0, mods[1].1)?;
        em::ifma_pow_pair(
            Emulated,
            [&a, &b],
            [&bases[0], &bases[1]],
            [&exps[0], &exps[1]],
            ebits,
        )
    });
    check(phases, "ifma-emulated pair", got.map(Vec::from), &[0, 1]);
    let got = phases.run("ifma-emulated single", Expect::Clean, || {
        (0..count)
            .map(|i| {
                let m = Mont64::with_bits(&mods[i].0, mods[i].1)?;
                em::ifma_pow(Emulated, &m, &bases[i], &exps[i], mods[i].1 as usize)
            })
            .collect::<Option<Vec<_>>>()
    });
    check(
        phases,
        "ifma-emulated single",
        got,
        &(0..count).collect::<Vec<_>>(),
    );
    let lane: Vec<usize> = (0..8).map(|j| j % count).collect();
    let got = phases.run("ifma-mb-emulated (8 lanes)", Expect::Clean, || {
        let ms = lane
            .iter()
            .map(|&i| Mont64::with_bits(&mods[i].0, mods[i].1))
            .collect::<Option<Vec<_>>>()?;
        em::ifma_mb_pow(
            Emulated,
            std::array::from_fn(|j| &ms[j]),
            std::array::from_fn(|j| &bases[lane[j]][..]),
            std::array::from_fn(|j| &exps[lane[j]][..]),
            ebits,
        )
    });
    check(phases, "ifma-mb-emulated", got, &lane);
    for x in bases.iter().chain(&exps).chain(mods.iter().map(|m| &m.0)) {
        sf::declassify_limbs(x);
    }
}

/// Elsewhere than x86-64 the IFMA kernels are not built.
#[cfg(not(target_arch = "x86_64"))]
fn emulated(_: &mut Phases, _: &RsaPrivateKey, _: &Fixture) {
    println!("secret-flow: ifma-emulated, ifma-mb-emulated: not built (x86-64 only)");
}
