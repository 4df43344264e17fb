//! The rows of `bench peers` ([`super`]): for each piece of work, the peer (GMP in-process, or OpenSSL's
//! `openssl speed`) and parcrypt's best sequential and parallel forms, as self-timing closures.
//! Every in-process form is checked against its reference before it is timed.
use super::form::{Form, Row, Setup, check_crt, copies, crt_forms, form, per_op};
use crate::error::{Error, Result};
use crate::suites::openssl::{openssl_cipher_bytes_per_s, openssl_sign_seconds};
use parcrypt::cipher::blowfish::Blowfish;
use parcrypt::cipher::modes;
use parcrypt::cipher::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use parcrypt::cipher::parallel::bf_pipeline::Layout;
use parcrypt::cipher::parallel::parc4::{self, Parc4};
use parcrypt::cipher::parallel::pblock::PBlock;
use parcrypt::cipher::rc4::Rc4;
use parcrypt::modexp::{Params, method, pow_mod_vartime};
use parcrypt::mul::{KaraConfig, Multiplier};
use parcrypt::rsa::{RsaPrivateKey, keys::DEFAULT_E};
use rand::{RngCore, SeedableRng};
use rug::Integer;
use std::cell::RefCell;
use std::hint::black_box;

/// Every row of every build, in the order of the table (the `awslc-*` rows need the
/// feature `awslc`).
pub const ROWS: [&str; 17] = [
    "product-32k",
    "product-64k",
    "product-128k",
    "product-1m",
    "modexp-8192",
    "modexp-16384",
    "rsa-2048",
    "rsa-3072",
    "rsa-4096",
    "awslc-rsa-2048",
    "awslc-rsa-3072",
    "awslc-rsa-4096",
    "awslc-parsa-2048",
    "rc4",
    "bf-ecb",
    "bf-cbc",
    "bf-pipeline",
];

/// Every row this run takes by default: [`known`], less GMP 6.3's where its helper is not there.
pub fn all() -> Vec<&'static str> {
    let mut v = known();
    v.retain(|id| !super::gmp63::ROWS.contains(id) || super::gmp63::available());
    v
}

/// Every row this build knows: [`ROWS`] (less aws-lc-rs's without the feature `awslc`),
/// FLINT's (feature `flint`) and GMP 6.3's, helper or not.
pub fn known() -> Vec<&'static str> {
    let mut v = ROWS.to_vec();
    if !cfg!(feature = "awslc") {
        v.retain(|id| !is_awslc(id));
    }
    #[cfg(feature = "flint")]
    v.extend(super::flint::ROWS);
    v.extend(super::gmp63::ROWS);
    v
}

/// Whether `id` is one of aws-lc-rs's rows (the feature `awslc`).
pub fn is_awslc(id: &str) -> bool {
    id.starts_with("awslc-")
}

/// The peer failed: `openssl speed` is missing, failed, or did not know what was asked (a
/// runtime failure, not a usage error).
fn no_result(what: &str) -> Error {
    Error::Io {
        path: "openssl".into(),
        source: std::io::Error::other(format!("speed {what} gave no result")),
    }
}

/// The data the rows' closures borrow, built once per row.
pub enum Data {
    /// Two operands and the product multiplier.
    Product(Integer, Integer, Box<dyn Multiplier>),
    /// Base, exponent, modulus.
    Modexp(Integer, Integer, Integer),
    /// A key and a ciphertext.
    Rsa(Box<RsaPrivateKey>, Integer),
    /// A key, a ciphertext and the same key in aws-lc-rs (the `awslc-*` rows).
    #[cfg(feature = "awslc")]
    AwsLc(super::awslc::AwsLcData),
    /// Operands in GMP and in FLINT (the `flint*` rows).
    #[cfg(feature = "flint")]
    Flint(super::flint::FlintData),
    /// Operands and the running GMP 6.3 helper (the `gmp63-*` rows).
    Gmp63(super::gmp63::Gmp63Data),
    /// A key (16 bytes), a nonce, a buffer and the key's Blowfish schedule.
    Cipher(
        Vec<u8>,
        [u8; parc4::NONCE_LEN],
        RefCell<Vec<u8>>,
        Box<Blowfish>,
    ),
}

/// Builds the data of row `id`.
pub fn data(id: &str, s: &Setup) -> Result<Data> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(s.seed ^ id.len() as u64);
    Ok(match id {
        "product-32k" | "product-64k" | "product-128k" | "product-1m" => {
            let bits = product_bits(id);
            let (a, b) = parcrypt::mul::operands(bits, s.seed);
            let m = parcrypt::mul::par::new(KaraConfig {
                helpers: s.threads - 1,
                ..KaraConfig::default()
            })?;
            Data::Product(a, b, Box::new(m))
        }
        "modexp-8192" | "modexp-16384" => {
            let bits = if id == "modexp-8192" { 8192 } else { 16384 };
            let (b, e, m) = crate::suites::modexp::operands(bits, s.seed);
            Data::Modexp(b, e, m)
        }
        "rsa-2048" | "rsa-3072" | "rsa-4096" => {
            let bits: u32 = id[4..].parse().expect("rsa-N");
            let key = RsaPrivateKey::generate_vartime(bits, &Integer::from(DEFAULT_E), &mut rng)?
                .with_kernel(s.kernel)?;
            let c = parcrypt::hazmat::bignum::random_below(&mut rng, key.public().n());
            Data::Rsa(Box::new(key), c)
        }
        #[cfg(feature = "awslc")]
        "awslc-rsa-2048" | "awslc-rsa-3072" | "awslc-rsa-4096" | "awslc-parsa-2048" => {
            let bits: u32 = id[id.len() - 4..].parse().expect("…-N");
            let key = RsaPrivateKey::generate_vartime(bits, &Integer::from(DEFAULT_E), &mut rng)?
                .with_kernel(s.kernel)?;
            let c = parcrypt::hazmat::bignum::random_below(&mut rng, key.public().n());
            Data::AwsLc(super::awslc::AwsLcData::new(key, c)?)
        }
        #[cfg(feature = "flint")]
        id if id.starts_with("flint") => Data::Flint(super::flint::FlintData::new(id, s)?),
        id if id.starts_with("gmp63-") => Data::Gmp63(super::gmp63::Gmp63Data::new(id, s)?),
        _ => {
            let mut key = vec![0u8; 16];
            rng.fill_bytes(&mut key);
            let mut nonce = [0u8; parc4::NONCE_LEN];
            rng.fill_bytes(&mut nonce);
            let mut buf = vec![0u8; s.cipher_bytes.div_ceil(8) * 8];
            rng.fill_bytes(&mut buf);
            let bf = Box::new(Blowfish::new(&key)?);
            Data::Cipher(key, nonce, RefCell::new(buf), bf)
        }
    })
}

/// A product row's operand size from its id's last part (`…-32k`, `-64k`, `-128k`, `-1m`,
/// `-16m`), for every product row: parcrypt's, GMP 6.3's and FLINT's.
pub(super) fn product_bits(id: &str) -> u32 {
    match id.rsplit('-').next() {
        Some("32k") => 32768,
        Some("64k") => 65536,
        Some("128k") => 131072,
        Some("16m") => 1 << 24,
        _ => 1 << 20,
    }
}

/// Row `id` over `data` (from [`data`]), its forms checked against their references.
pub fn row<'a>(id: &'static str, s: &Setup, data: &'a Data) -> Result<Row<'a>> {
    let mut row = Row {
        id,
        work: String::new(),
        bytes: None,
        peer: None,
        seq: None,
        par: None,
        ceiling: None,
        targets: Vec::new(),
    };
    match data {
        Data::Product(a, b, m) => product_row(&mut row, s, a, b, &**m)?,
        Data::Modexp(b, e, m) => modexp_row(&mut row, s, b, e, m)?,
        Data::Rsa(key, c) => rsa_row(&mut row, s, key, c)?,
        #[cfg(feature = "awslc")]
        Data::AwsLc(d) => super::awslc::row(&mut row, s, d)?,
        #[cfg(feature = "flint")]
        Data::Flint(d) => super::flint::row(&mut row, s, d)?,
        Data::Gmp63(d) => super::gmp63::row(&mut row, s, d)?,
        Data::Cipher(key, nonce, buf, bf) => {
            let c = Cipher {
                key,
                nonce,
                buf,
                bf,
                t: s.threads,
                batch: s.batch_s,
                secs: s.openssl_seconds,
                len: buf.borrow().len(),
            };
            c.row(&mut row)?
        }
    }
    Ok(row)
}

/// The product rows (and the `gmp63-product-*` rows' forms): GMP's `mpz_mul` against par-gmp.
pub(super) fn product_row<'a>(
    row: &mut Row<'a>,
    s: &Setup,
    a: &'a Integer,
    b: &'a Integer,
    m: &'a dyn Multiplier,
) -> Result<()> {
    let (t, batch) = (s.threads, s.batch_s);
    let bits = product_bits(row.id);
    if m.mul(a, b) != Integer::from(a * b) {
        return Err(Error::Internal(format!(
            "par-gmp differs from mpz_mul at {bits} bits"
        )));
    }
    let limbs = (bits / 64) as usize;
    row.work = match parcrypt::mul::par::uses_ntt(t, limbs, limbs) {
        Some(true) => format!(
            "product, {bits} bits; par-gmp takes the NTT ({}) here, its threshold timed on this machine",
            parcrypt::mul::ntt::Backend::auto().name()
        ),
        Some(false) => format!(
            "product, {bits} bits; par-gmp keeps GMP's splits here (the NTT's threshold, timed on this machine, is above)"
        ),
        None => format!("product, {bits} bits"),
    };
    row.peer = Some(form("GMP mpz_mul", 1, move || {
        Ok(per_op(batch, || drop(black_box(Integer::from(a * b)))))
    }));
    row.par = Some(form("par-gmp", t, move || {
        Ok(per_op(batch, || drop(black_box(m.mul(a, b)))))
    }));
    row.ceiling = Some(copies(
        "mpz_mul",
        t,
        batch,
        || Ok(()),
        move |_| drop(black_box(Integer::from(a * b))),
    ));
    let at_least = match bits {
        32768 => Some(1.25),
        65536 => Some(1.5),
        b if b >= 1 << 20 => Some(1.7),
        _ => None,
    };
    row.targets.extend(at_least.map(|x| ("peer/par", x)));
    Ok(())
}

/// The modexp rows: GMP's `mpz_powm` against the sliding window (sequential) and the window
/// with parallel products (also the forms of `gmp63-modexp-8192`).
pub(super) fn modexp_row<'a>(
    row: &mut Row<'a>,
    s: &Setup,
    b: &'a Integer,
    e: &'a Integer,
    m: &'a Integer,
) -> Result<()> {
    let (t, batch) = (s.threads, s.batch_s);
    let bits = m.significant_bits();
    row.work = format!("modexp, {bits}-bit modulus and exponent");
    let want = Integer::from(b.pow_mod_ref(e, m).expect("e >= 0"));
    row.peer = Some(form("GMP mpz_powm", 1, move || {
        Ok(per_op(batch, || {
            drop(black_box(Integer::from(b.pow_mod_ref(e, m).expect("e"))))
        }))
    }));
    row.ceiling = Some(copies(
        "sliding",
        t,
        batch,
        || Ok(method("sliding")?),
        move |seq| {
            drop(black_box(pow_mod_vartime(
                seq.as_ref(),
                b,
                e,
                m,
                &Params::default(),
            )))
        },
    ));
    our_modexp_forms(row, s, (b, e, m), &want)?;
    row.targets.push(("peer/par", 1.0));
    Ok(())
}

/// parcrypt's forms of a modexp row, each first checked against `want` (GMP's result): the
/// sliding window (sequential) and the window with parallel products on `s.threads` threads;
/// the row's work also names the form `best` (the choice by measurement) takes there.
pub fn our_modexp_forms<'a>(
    row: &mut Row<'a>,
    s: &Setup,
    (b, e, m): (&'a Integer, &'a Integer, &'a Integer),
    want: &Integer,
) -> Result<()> {
    let (t, batch) = (s.threads, s.batch_s);
    let par = Params {
        threads: t,
        ..Params::default()
    };
    for (name, p) in [
        ("sliding", Params::default()),
        ("window-parmul", par.clone()),
        ("best", par.clone()),
    ] {
        if pow_mod_vartime(method(name)?.as_ref(), b, e, m, &p)?.value != *want {
            return Err(Error::Internal(format!("{name} differs from mpz_powm")));
        }
    }
    // `best` timed its candidates at that first use: say which it takes on these threads.
    if let Some(choice) = parcrypt::modexp::best::chosen(m.significant_bits(), t) {
        row.work = format!(
            "{}; `best` takes {choice} on {t} thread(s) here (timed at its first use)",
            row.work
        );
    }
    let seq = method("sliding")?;
    row.seq = Some(form("sliding (Montgomery kernel)", 1, move || {
        let p = Params::default();
        Ok(per_op(batch, || {
            drop(black_box(pow_mod_vartime(seq.as_ref(), b, e, m, &p)))
        }))
    }));
    let pm = method("window-parmul")?;
    row.par = Some(form("window-parmul", t, move || {
        Ok(per_op(batch, || {
            drop(black_box(pow_mod_vartime(pm.as_ref(), b, e, m, &par)))
        }))
    }));
    Ok(())
}

/// The RSA rows: OpenSSL's sign against the constant-time CRT with the chosen kernel, the
/// halves one after the other (interleaved in one register set on the IFMA kernel) and on two
/// pool threads; the backend that ran is in the row's text and its forms' names.
fn rsa_row<'a>(row: &mut Row<'a>, s: &Setup, key: &'a RsaPrivateKey, c: &'a Integer) -> Result<()> {
    let (batch, secs) = (s.batch_s, s.openssl_seconds);
    let bits = key.public().bits();
    let backend = key.ct_crt().backend_name();
    row.work =
        format!("RSA-{bits} private op (CRT, constant-time, fault-checked, {backend} kernel)");
    check_crt(key, c)?;
    row.peer = Some(form("OpenSSL sign (openssl speed)", 1, move || {
        openssl_sign_seconds(bits, secs).ok_or_else(|| no_result(&format!("rsa{bits}")))
    }));
    crt_forms(row, key, c, batch);
    row.targets.extend(rsa_targets(backend, bits));
    Ok(())
}

/// The targets of the RSA rows: issue 20's for the Montgomery kernels (by backend, as the
/// issue sets them), issue 11's for `gmp-sec` (GMP's `mpn_sec_powm`, the `mpz_powm_sec` of
/// issue 11's rows).
pub fn rsa_targets(backend: &str, bits: u32) -> Vec<(&'static str, f64)> {
    match (backend, bits) {
        ("ifma", 2048) => vec![("peer/seq", 1.0), ("peer/par", 1.6)],
        ("ifma", 3072) => vec![("peer/seq", 1.0)],
        ("ifma", 4096) => vec![("peer/seq", 1.2), ("peer/par", 2.2)],
        ("mulx", 2048) => vec![("peer/seq", 1.0), ("peer/par", 1.7)],
        ("gmp-sec", 2048) => vec![("seq/par", 1.6), ("peer/par", 1.0)],
        ("gmp-sec", _) => vec![("seq/par", 1.85)],
        _ => Vec::new(),
    }
}

/// A cipher row's data and how it is run.
struct Cipher<'a> {
    key: &'a [u8],
    nonce: &'a [u8; parc4::NONCE_LEN],
    buf: &'a RefCell<Vec<u8>>,
    bf: &'a Blowfish,
    /// Threads, seconds per in-process sample, seconds per `openssl speed` sample.
    t: usize,
    batch: f64,
    secs: u32,
    /// Bytes per operation.
    len: usize,
}

impl<'a> Cipher<'a> {
    /// The cipher rows: RC4 / PARC4, Blowfish ECB / PBlock, Blowfish CBC, the folded pipeline.
    fn row(&self, row: &mut Row<'a>) -> Result<()> {
        row.bytes = Some(self.len);
        match row.id {
            "rc4" => self.rc4_row(row),
            "bf-ecb" => self.ecb_row(row),
            "bf-cbc" => {
                self.cbc_row(row);
                Ok(())
            }
            _ => self.pipeline_row(row),
        }
    }

    /// A copy of the row's buffer: each copy of the ceiling works on its own, cloned only where
    /// a ceiling is measured.
    fn proto(&self) -> Vec<u8> {
        self.buf.borrow().clone()
    }

    /// `t` copies of Blowfish ECB at once.
    fn ecb_copies(&self, proto: Vec<u8>) -> Form<'a> {
        let bf = self.bf;
        copies(
            "blowfish-ecb",
            self.t,
            self.batch,
            move || Ok(proto.clone()),
            move |b: &mut Vec<u8>| drop(bf.encrypt_blocks(b)),
        )
    }

    /// Sequential Blowfish ECB on the row's buffer.
    fn ecb_seq(&self) -> Form<'a> {
        let (bf, buf, batch) = (self.bf, self.buf, self.batch);
        form("blowfish-ecb", 1, move || {
            Ok(per_op(batch, || {
                drop(bf.encrypt_blocks(&mut buf.borrow_mut()))
            }))
        })
    }

    /// `openssl speed -evp evp`, as seconds per operation of the row's size.
    fn peer(&self, name: &'static str, evp: &'static str) -> Form<'a> {
        let (len, secs) = (self.len, self.secs);
        form(name, 1, move || {
            let bps = openssl_cipher_bytes_per_s(evp, 16384, secs)
                .ok_or_else(|| no_result(&format!("-evp {evp}")))?;
            Ok(len as f64 / bps)
        })
    }

    fn rc4_row(&self, row: &mut Row<'a>) -> Result<()> {
        let (key, buf, t, batch, len) = (self.key, self.buf, self.t, self.batch, self.len);
        row.work = format!("RC4, one stream of {len} B (parallel: PARC4)");
        let p4 = Parc4::new(key, self.nonce, parc4::DEFAULT_BLOCK, t)?;
        let (mut x, mut y) = (buf.borrow().to_vec(), buf.borrow().to_vec());
        p4.apply(0, &mut x);
        p4.apply_sequential(0, &mut y);
        if x != y {
            return Err(Error::Internal(
                "PARC4 differs from its sequential form".into(),
            ));
        }
        row.peer = Some(self.peer("OpenSSL RC4 (openssl speed)", "rc4"));
        row.seq = Some(form("rc4", 1, move || {
            let mut rc4 = Rc4::new(key)?;
            Ok(per_op(batch, || rc4.apply_keystream(&mut buf.borrow_mut())))
        }));
        row.par = Some(form("parc4", t, move || {
            Ok(per_op(batch, || p4.apply(0, &mut buf.borrow_mut())))
        }));
        row.ceiling = Some(copies(
            "rc4",
            t,
            batch,
            {
                let proto = self.proto();
                move || Ok((Rc4::new(key)?, proto.clone()))
            },
            |(rc4, b): &mut (Rc4, Vec<u8>)| rc4.apply_keystream(b),
        ));
        row.targets.extend([("peer/seq", 1.0), ("seq/par", 1.9)]);
        Ok(())
    }

    fn ecb_row(&self, row: &mut Row<'a>) -> Result<()> {
        let (bf, buf, batch) = (self.bf, self.buf, self.batch);
        row.work = format!("Blowfish-ECB encryption, {} B", self.len);
        let pb = PBlock::new(bf, self.t)?;
        let (mut x, mut y) = (buf.borrow().to_vec(), buf.borrow().to_vec());
        pb.encrypt_ecb(&mut x)?;
        bf.encrypt_blocks(&mut y)?;
        if x != y {
            return Err(Error::Internal("PBlock differs from Blowfish ECB".into()));
        }
        row.peer = Some(self.peer("OpenSSL BF-ECB (openssl speed)", "bf-ecb"));
        row.seq = Some(self.ecb_seq());
        row.par = Some(form("pblock-ecb", self.t, move || {
            Ok(per_op(batch, || {
                drop(pb.encrypt_ecb(&mut buf.borrow_mut()))
            }))
        }));
        row.ceiling = Some(self.ecb_copies(self.proto()));
        Ok(())
    }

    fn cbc_row(&self, row: &mut Row<'a>) {
        let (bf, buf, batch) = (self.bf, self.buf, self.batch);
        row.work = format!("Blowfish-CBC encryption (sequential), {} B", self.len);
        row.peer = Some(self.peer("OpenSSL BF-CBC (openssl speed)", "bf-cbc"));
        row.seq = Some(form("blowfish-cbc", 1, move || {
            let mut chain = [0u8; 8];
            Ok(per_op(batch, || {
                drop(modes::cbc_encrypt_in_place(
                    bf,
                    &mut chain,
                    &mut buf.borrow_mut(),
                ))
            }))
        }));
    }

    /// The folded pipeline (issue 11 item 5): `t` stage groups, `t` threads in all, the
    /// calling thread running the first group; no input or output threads.
    fn pipeline_row(&self, row: &mut Row<'a>) -> Result<()> {
        let (bf, buf, t, batch) = (self.bf, self.buf, self.t, self.batch);
        let config = FoldedConfig {
            chunk_bytes: 64 * 1024,
            ..FoldedConfig::new(Layout::Encrypt, t)
        };
        row.work = format!(
            "Blowfish-ECB, {} B: pipeline, {t} folded stages, 64 KiB chunks",
            self.len
        );
        let pipe = FoldedPipeline::new(bf, config)?;
        let (mut x, mut y) = (buf.borrow().to_vec(), buf.borrow().to_vec());
        pipe.run(&mut x)?;
        bf.encrypt_blocks(&mut y)?;
        if x != y {
            return Err(Error::Internal(
                "the pipeline differs from Blowfish ECB".into(),
            ));
        }
        row.seq = Some(self.ecb_seq());
        row.par = Some(form("bf-pipeline (folded)", t, move || {
            Ok(per_op(batch, || drop(pipe.run(&mut buf.borrow_mut()))))
        }));
        row.ceiling = Some(self.ecb_copies(self.proto()));
        row.targets.push(("seq/par", 1.7));
        Ok(())
    }
}
