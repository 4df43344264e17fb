//! The secret-flow harness (issue 29): runs `rsa decrypt`'s whole private-key path on a fixed
//! key with the key's secret values marked undefined for Valgrind memcheck, so that memcheck
//! reports every branch or memory index that depends on them
//! ([`parcrypt::hazmat::bignum::ct::secret_flow`]). `scripts/secret-flow.sh` runs it under Valgrind in
//! CI; without Valgrind it only checks that every result is right.
//!
//! What is secret: the contents of d, p, q, dP, dQ, qInv (and every other prime's r_i, d_i, t_i)
//! in the key's DER, all but their bit length (public by design: the DER length gives it to
//! within a byte, and the kernels run over each prime's bit length); the library marks the
//! blinding factor, the CRT parts, the residues and the unblinded message where it makes
//! them. What is public: n and e, the ciphertexts, the accept/reject decision and the
//! plaintext's length (declassified in the OAEP decoding), the plaintext (declassified here
//! by the caller before it is compared).
//!
//! Usage: `secret_flow [--key two-primes|three-primes] [--kernel K]... [--plant P]...
//! [--judge all|plants] [--secret-from load|setup] [--results-only]` (kernels: portable,
//! mulx, gmp-sec, ifma, none; default: every constant-time one this CPU, or Valgrind, runs,
//! so not gmp-sec, then the phases of `more.rs`: derive, the blinding refresh, `--parallel`,
//! the out-of-range ciphertext, and the IFMA kernels emulated; plants: key-bit, key-index,
//! gmp-loader: a branch on a key bit, a table read at key bits, the old loader's GMP calls).
//! Every phase's findings are counted with Valgrind's error count; the exit status is 0 when
//! it ran under Valgrind, every plant is flagged and (unless `--judge plants`) every other
//! phase is clean, 1 otherwise (not under Valgrind included: a check that saw nothing fails;
//! `--results-only` checks only the results, without Valgrind), 2 on a usage error.
//! `secret_flow --mark-spec KEY` prints where a key file's secret bytes lie (`spec.rs`), for
//! the marker `scripts/secret-flow.sh` preloads into the shipped `parcrypt rsa decrypt`.
use parcrypt::hazmat::bignum::ct::secret_flow as sf;
use parcrypt::hazmat::bignum::{from_be_bytes, mpn, to_be_bytes_vartime};
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::hazmat::textbook;
use parcrypt::rsa::oaep::{self, OaepParams};
use parcrypt::rsa::{RsaPrivateKey, pem};
use pkcs8::der::Decode;
use rug::Integer;
use std::hint::black_box;
use std::ops::Range;

mod more;
mod spec;

/// A key and two ciphertexts from the repository's Wycheproof vectors.
struct Fixture {
    file: &'static str,
    der: Vec<u8>,
    valid_ct: Vec<u8>,
    valid_msg: Vec<u8>,
    invalid_ct: Vec<u8>,
}

fn fixture(which: &str) -> Result<Fixture, String> {
    let file = match which {
        "two-primes" => "rsa_oaep_2048_sha256_mgf1sha256_test.json",
        "three-primes" => "rsa_three_primes_oaep_4096_sha256_mgf1sha256_test.json",
        other => return Err(format!("unknown key '{other}' (two-primes, three-primes)")),
    };
    let path = format!(
        "{}/tests/vectors/wycheproof/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let group = &json["testGroups"][0];
    let hex_of = |v: &serde_json::Value| hex::decode(v.as_str().unwrap_or_default()).ok();
    let test = |comment: &str, valid: bool| {
        group["tests"].as_array().and_then(|tests| {
            tests.iter().find(|t| {
                (t["result"] == "valid") == valid
                    && t["comment"] == comment
                    && t["label"] == ""
                    && t["msg"].as_str().is_some_and(|m| !m.is_empty())
            })
        })
    };
    let (valid, invalid) = (
        test("", true).ok_or("no valid case")?,
        test("first byte of l_hash modified", false).ok_or("no invalid case")?,
    );
    Ok(Fixture {
        file,
        der: hex_of(&group["privateKeyPkcs8"]).ok_or("no PKCS#8 key")?,
        valid_ct: hex_of(&valid["ct"]).ok_or("bad ct")?,
        valid_msg: hex_of(&valid["msg"]).ok_or("bad msg")?,
        invalid_ct: hex_of(&invalid["ct"]).ok_or("bad ct")?,
    })
}

/// Where the secret INTEGERs' contents lie in the PKCS#8 DER (the leading 0x00 that DER puts
/// before a value whose top bit is set is structure, left public).
fn secret_ranges(der: &[u8]) -> Result<Vec<(&'static str, Range<usize>)>, String> {
    let info = pkcs8::PrivateKeyInfo::from_der(der).map_err(|e| e.to_string())?;
    let key = pkcs1::RsaPrivateKey::from_der(info.private_key).map_err(|e| e.to_string())?;
    let base = der.as_ptr() as usize;
    let at = |bytes: &[u8]| {
        let start = bytes.as_ptr() as usize - base;
        start..start + bytes.len()
    };
    let mut out = vec![
        ("d", at(key.private_exponent.as_bytes())),
        ("p", at(key.prime1.as_bytes())),
        ("q", at(key.prime2.as_bytes())),
        ("dP", at(key.exponent1.as_bytes())),
        ("dQ", at(key.exponent2.as_bytes())),
        ("qInv", at(key.coefficient.as_bytes())),
    ];
    for info in key.other_prime_infos.iter().flatten() {
        out.push(("r_i", at(info.prime.as_bytes())));
        out.push(("d_i", at(info.exponent.as_bytes())));
        out.push(("t_i", at(info.coefficient.as_bytes())));
    }
    Ok(out)
}

/// What a phase must show: no finding, or (a plant) at least one.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    Clean,
    Flagged,
}

/// The phases run so far with their findings.
#[derive(Default)]
struct Phases {
    rows: Vec<(String, Expect, usize)>,
    wrong: Vec<String>,
}

impl Phases {
    /// Runs `f` as the phase `name`, counting Valgrind's findings during it.
    fn run<T>(&mut self, name: &str, expect: Expect, f: impl FnOnce() -> T) -> T {
        // The marker line that scripts/secret-flow.sh files Valgrind's reports under (run with
        // --log-fd=1, they share stdout, in order).
        println!("secret-flow: phase {name}");
        let before = sf::error_count();
        let out = f();
        let found = sf::error_count() - before;
        self.rows.push((name.to_string(), expect, found));
        out
    }

    /// A result that is not what the phase must give: the harness fails.
    fn check(&mut self, ok: bool, what: String) {
        if !ok {
            self.wrong.push(what);
        }
    }
}

/// Plant: a branch on one bit of p as the loader left it.
#[inline(never)]
fn planted_branch_on_key_bit(key: &RsaPrivateKey) -> u32 {
    let mut spin = 0u32;
    if key.p().get_bit(1) {
        for i in 0..100 {
            spin = black_box(spin.wrapping_add(i));
        }
    }
    black_box(spin)
}

/// Plant: a table read at an index made of key bits (a secret memory index).
#[inline(never)]
fn planted_index_on_key_bits(key: &RsaPrivateKey) -> u8 {
    static TABLE: [u8; 16] = *b"0123456789abcdef";
    let index = black_box(key.q().to_u64_wrapping()) as usize & 15;
    black_box(black_box(&TABLE)[index])
}

/// Plant: the variable-time GMP calls the key loader ran before issue 29 (`from_prime_list`
/// and `pem.rs`: d mod (p−1), e·dP mod (p−1) compared with 1, q⁻¹ mod p, and `mpz_cmp` of
/// the file's qInv with it), run on the loaded key's values.
#[inline(never)]
fn planted_gmp_loader(key: &RsaPrivateKey) -> bool {
    let p1 = Integer::from(key.p() - 1u32);
    let dp = Integer::from(key.d() % &p1);
    let ok = Integer::from(key.public().e() * &dp) % &p1 == 1;
    let qinv = key.q().invert_ref(key.p()).map(Integer::from);
    black_box(ok && qinv.as_ref() == Some(key.qinv()))
}

/// Every constant-time kernel that runs here (Valgrind runs MULX/ADX but hides ADX: see
/// [`sf::assume_adx_under_valgrind`]; it has no AVX-512, so no IFMA). `gmp-sec` only when asked
/// for (`--kernel gmp-sec`): it is variable time in the prime, whose bits index GMP's
/// limb-inverse tables, and is flagged.
fn every_kernel() -> Vec<PrivateKernel> {
    println!(
        "secret-flow: gmp-sec: left out (variable time in the prime: GMP's limb inverses index \
         tables by its bits; --kernel gmp-sec runs it)"
    );
    [
        PrivateKernel::Portable,
        PrivateKernel::Mulx,
        PrivateKernel::Ifma,
    ]
    .into_iter()
    .filter(|k| match k.unavailable_reason() {
        None => true,
        Some(why) => {
            println!("secret-flow: {why}: skipped");
            false
        }
    })
    .collect()
}

/// One kernel: key setup, a valid and an invalid OAEP ciphertext, and `--padding none`.
fn run_kernel(phases: &mut Phases, key: &RsaPrivateKey, kernel: PrivateKernel, fx: &Fixture) {
    let params = OaepParams::default();
    let op = oaep::CtOp::CrtConstTime;
    let key = match phases.run(&format!("setup {kernel}"), Expect::Clean, || {
        key.clone().with_kernel(kernel)
    }) {
        Ok(key) => key,
        Err(e) => return phases.check(false, format!("{kernel}: {e}")),
    };
    let got = phases.run(&format!("oaep valid {kernel}"), Expect::Clean, || {
        oaep::decrypt_with(&key, &fx.valid_ct, &params, op)
    });
    let ok = got.is_ok_and(|m| {
        sf::declassify(&m);
        *m == fx.valid_msg
    });
    phases.check(
        ok,
        format!("{kernel}: the valid ciphertext did not decrypt"),
    );
    let got = phases.run(&format!("oaep invalid {kernel}"), Expect::Clean, || {
        oaep::decrypt_with(&key, &fx.invalid_ct, &params, op)
    });
    let refused = matches!(got, Err(parcrypt::Error::DecryptionError));
    phases.check(
        refused,
        format!("{kernel}: the invalid ciphertext was not refused"),
    );
    let c = from_be_bytes(&fx.valid_ct);
    {
        let crt = key.ct_crt();
        // The kernel alone (a Montgomery backend, or GMP's mpn_sec_* for gmp-sec), on fixed-length limbs: the CRT (reduction, both
        // exponentiations, recombination) of the public ciphertext, then the unblinding by a
        // secret r⁻¹ (here a fixed value, marked secret).
        let cl = mpn::padded(&c, crt.limbs());
        let m = match phases.run(&format!("crt {kernel}"), Expect::Clean, || {
            crt.private_op(&cl, false)
        }) {
            Ok(m) => m,
            Err(e) => return phases.check(false, format!("{kernel}: the CRT failed: {e}")),
        };
        // Not vacuous: the key's secret reached the result through this backend.
        if let Some(bits) = sf::secret_bits_limbs(&m) {
            phases.check(
                bits > 0,
                format!("{kernel}: no secret bit reached the CRT's result"),
            );
        }
        let r_inv = mpn::padded(&(key.public().n() - Integer::from(3)), crt.limbs());
        sf::classify_limbs(&r_inv);
        let out = phases.run(&format!("unblind {kernel}"), Expect::Clean, || {
            crt.unblind(&m, &r_inv)
        });
        sf::declassify_limbs(&m);
        sf::declassify_limbs(&out);
        let m = mpn::to_integer(&m);
        let want = Integer::from(&m * &(key.public().n() - Integer::from(3))) % key.public().n();
        let back = textbook::encrypt(key.public(), &m).ok();
        phases.check(
            back == Some(c.clone()) && mpn::to_integer(&out) == want,
            format!("{kernel}: the CRT or the unblinding is wrong"),
        );
    }
    let got = phases.run(&format!("raw {kernel}"), Expect::Clean, || {
        textbook::decrypt_blinded_bytes(&key, &c, op.into(), &mut rand::rngs::OsRng)
    });
    // Not vacuous: the unblinded EM, what the OAEP check reads, is secret on every backend.
    let secret = got.as_ref().ok().and_then(|em| sf::secret_bits(em));
    phases.check(
        secret.is_none_or(|bits| bits > 0),
        format!("{kernel}: no secret bit reached the unblinded EM"),
    );
    let ok = got.is_ok_and(|em| {
        sf::declassify(&em);
        let back = textbook::encrypt(key.public(), &from_be_bytes(&em));
        back.is_ok_and(|b| to_be_bytes_vartime(&b, em.len()) == Some(fx.valid_ct.clone()))
    });
    phases.check(
        ok,
        format!("{kernel}: --padding none did not invert encryption"),
    );
    // The key's drop wipes its secrets: that runs on them too.
    phases.run(&format!("drop {kernel}"), Expect::Clean, || drop(key));
}

/// The multi-buffer IFMA kernel (`ifma-mb`): the blinded private-key operation of the valid
/// ciphertext in three lanes of one call, five lanes free. Skipped, named, where it cannot run:
/// always under Valgrind, which has no AVX-512 (as the `ifma` kernel), and for a key of more
/// than two primes.
fn run_multibuffer(phases: &mut Phases, key: &RsaPrivateKey, fx: &Fixture) {
    use parcrypt::hazmat::multibuffer;
    if let Some(why) = multibuffer::unavailable_reason() {
        println!("secret-flow: {why}: skipped");
        return;
    }
    if key.prime_count() != 2 {
        println!("secret-flow: ifma-mb: skipped (two-prime keys only)");
        return;
    }
    let c = from_be_bytes(&fx.valid_ct);
    let cs = vec![c.clone(); 3];
    let got = phases.run("multibuffer ifma-mb", Expect::Clean, || {
        multibuffer::decrypt_blinded_many(&[key; 3], &cs, &mut rand::rngs::OsRng)
    });
    let ok = got.is_ok_and(|lanes| {
        lanes.into_iter().all(|m| {
            m.is_ok_and(|m| {
                sf::declassify_limbs(&m);
                textbook::encrypt(key.public(), &mpn::to_integer(&m)).ok() == Some(c.clone())
            })
        })
    });
    phases.check(ok, "ifma-mb: a lane did not invert encryption".to_string());
}

/// The command line.
struct Args {
    key: String,
    /// `None`: every kernel that runs here; `Some(empty)`: none (`--kernel none`).
    kernels: Option<Vec<PrivateKernel>>,
    plants: Vec<String>,
    /// Judge the plants only (`--judge plants`): the other phases are reported, not judged.
    plants_only: bool,
    /// `--secret-from setup`: leave the key file public and rely on the library's own marks
    /// (CRT parts where a Montgomery kernel is set up, the blinding factor where it is drawn),
    /// as BoringSSL marks its fixed-width copies: the path after loading, seen on its own
    /// (not `gmp-sec`, which sets nothing up: its CRT then holds no secret, and says so).
    from_setup: bool,
    /// `--results-only`: without Valgrind, check the results and judge nothing (exit 0 when
    /// they are right); otherwise a run outside Valgrind fails.
    results_only: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut out = Args {
        key: "two-primes".into(),
        kernels: None,
        plants: vec![],
        plants_only: false,
        from_setup: false,
        results_only: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--key" => out.key = value()?,
            "--kernel" => {
                let name = value()?;
                let list = out.kernels.get_or_insert_with(Vec::new);
                if name != "none" {
                    list.push(
                        PrivateKernel::from_name(&name)
                            .ok_or(format!("unknown kernel '{name}'"))?,
                    );
                }
            }
            "--plant" => {
                let plant = value()?;
                if !["key-bit", "key-index", "gmp-loader"].contains(&plant.as_str()) {
                    return Err(format!(
                        "unknown plant '{plant}' (key-bit, key-index, gmp-loader)"
                    ));
                }
                out.plants.push(plant);
            }
            "--judge" => {
                out.plants_only = match value()?.as_str() {
                    "all" => false,
                    "plants" => true,
                    other => return Err(format!("--judge takes all or plants, not '{other}'")),
                }
            }
            "--secret-from" => {
                out.from_setup = match value()?.as_str() {
                    "load" => false,
                    "setup" => true,
                    other => {
                        return Err(format!("--secret-from takes load or setup, not '{other}'"));
                    }
                }
            }
            "--results-only" => out.results_only = true,
            "--mark-spec" => {
                let path = value()?;
                let file = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
                for (offset, len, vbits) in spec::mark_spec(&file)? {
                    println!("{offset} {len} {vbits:02x}");
                }
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(out)
}

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let fx = fixture(&args.key).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    let under = sf::running_on_valgrind();
    sf::assume_adx_under_valgrind();
    // The key's secret values, marked secret before anything reads them.
    let ranges = secret_ranges(&fx.der).expect("the fixture's key parses");
    let der = fx.der.clone();
    for (_, range) in ranges.iter().filter(|_| !args.from_setup) {
        sf::classify_keeping_bit_length(&der[range.clone()]);
    }
    let mut phases = Phases::default();
    let key = phases.run("load (PKCS#8 DER)", Expect::Clean, || {
        pem::load_private_key(&der)
    });
    let key = key.expect("the fixture's key loads");
    for kernel in args.kernels.clone().unwrap_or_else(every_kernel) {
        run_kernel(&mut phases, &key, kernel, &fx);
    }
    if args.kernels.is_none() {
        run_multibuffer(&mut phases, &key, &fx);
        more::run(&mut phases, &key, &fx);
    }
    for plant in &args.plants {
        let name = format!("plant {plant}");
        let flag = match plant.as_str() {
            "key-bit" => phases.run(&name, Expect::Flagged, || {
                planted_branch_on_key_bit(&key) != 0
            }),
            "key-index" => phases.run(&name, Expect::Flagged, || {
                planted_index_on_key_bits(&key) != 0
            }),
            _ => phases.run(&name, Expect::Flagged, || planted_gmp_loader(&key)),
        };
        // The plants' results are secret: public again before anything reads them.
        black_box(sf::declassify_value(flag));
    }
    let (bits, primes) = (key.public().bits(), key.prime_count());
    phases.run("drop (loaded key)", Expect::Clean, || drop(key));
    println!(
        "secret-flow: {} ({} bits, {} primes; secret from {}: {}), under Valgrind: {}",
        fx.file,
        bits,
        primes,
        if args.from_setup { "setup" } else { "load" },
        if args.from_setup {
            "the library's marks only".to_string()
        } else {
            ranges.iter().map(|r| r.0).collect::<Vec<_>>().join(" ")
        },
        if under {
            "yes"
        } else {
            "no (results checked only)"
        }
    );
    let mut bad = false;
    for (name, expect, found) in &phases.rows {
        let judged = under && (*expect == Expect::Flagged || !args.plants_only);
        let verdict = match (expect, *found > 0, judged) {
            (_, _, false) => "-",
            (Expect::Clean, false, _) => "clean",
            (Expect::Flagged, true, _) => "flagged, as planted",
            (Expect::Clean, true, _) => "FLAGGED",
            (Expect::Flagged, false, _) => "NOT FLAGGED",
        };
        bad |= judged && ((*expect == Expect::Clean) == (*found > 0));
        println!("  {name:<24} findings {found:>7}  {verdict}");
    }
    for what in &phases.wrong {
        println!("secret-flow: wrong result: {what}");
    }
    bad |= !phases.wrong.is_empty();
    if !under && !args.results_only {
        println!(
            "secret-flow: not running under Valgrind: nothing was judged, so the check fails \
             (--results-only checks the results alone)"
        );
        bad = true;
    }
    println!(
        "secret-flow: {}",
        if bad { "FAILED" } else { "as expected" }
    );
    std::process::exit(i32::from(bad));
}
