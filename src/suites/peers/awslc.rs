//! The `awslc-*` rows of `bench peers`: aws-lc-rs (AWS's fork of BoringSSL, with AVX-512 IFMA
//! RSA at 2048, 3072 and 4096 bits) in process as the RSA peer, on the same key as parcrypt.
//! `awslc-rsa-N`: one private-key operation on 1 thread (aws-lc-rs's RSASSA-PKCS1-v1_5 SHA-256
//! sign: hash, padding, blinding, the CRT exponentiation and its check) against parcrypt's
//! constant-time CRT on 1 thread and its two halves on 2 threads. `awslc-parsa-2048`: the
//! PaRSA paper's workload, many messages at once: aws-lc-rs signing on N threads (one
//! independent signer per thread) against PaRSA (parcrypt's batch of private-key operations
//! dealt to N threads by a dynamic schedule), both as operations per second.
use super::form::{Form, Row, Setup, check_crt, copies, crt_forms, form, per_op};
use crate::error::{Error, Result};
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
use parcrypt::hazmat::batch::{self, Transform};
use parcrypt::hazmat::encode::private_key_to_der;
use parcrypt::hazmat::textbook::encrypt_unchecked;
use parcrypt::parallel::{Executor, Schedule, ScheduleSpec};
use parcrypt::rsa::RsaPrivateKey;
use parcrypt::rsa::pem::KeyFormat;
use rug::Integer;
use sha2::{Digest, Sha256};
use std::hint::black_box;

/// The message every signature signs (its SHA-256 is what the padding carries).
const MESSAGE: &[u8] = b"parcrypt bench peers: aws-lc-rs";

/// Messages per PaRSA batch (a multiple of any thread count up to 16: the schedule deals them).
const BATCH: usize = 48;

/// A row's key (parcrypt's, with its kernel) and the same key in aws-lc-rs.
pub struct AwsLcData {
    key: Box<RsaPrivateKey>,
    c: Integer,
    pair: RsaKeyPair,
}

impl AwsLcData {
    /// Loads `key` into aws-lc-rs through its PKCS#8 DER and checks that a signature it makes
    /// opens under parcrypt's public key to the padded SHA-256 of the message.
    pub fn new(key: RsaPrivateKey, c: Integer) -> Result<Self> {
        let der = private_key_to_der(&key, KeyFormat::Pkcs8)?;
        let pair = RsaKeyPair::from_pkcs8(&der)
            .map_err(|e| Error::Internal(format!("aws-lc-rs refused parcrypt's key: {e}")))?;
        let data = Self {
            key: Box::new(key),
            c,
            pair,
        };
        let sig = data.sign()?;
        let opened = encrypt_unchecked(
            data.key.public(),
            &Integer::from_digits(&sig, rug::integer::Order::Msf),
        );
        let digest = Sha256::digest(MESSAGE);
        let tail = opened.to_digits::<u8>(rug::integer::Order::Lsf);
        let mut low: Vec<u8> = tail.into_iter().take(32).collect();
        low.reverse();
        if low != digest.as_slice() {
            return Err(Error::Internal(
                "aws-lc-rs's signature does not open to the message's SHA-256 under parcrypt's key"
                    .into(),
            ));
        }
        Ok(data)
    }

    fn sign(&self) -> Result<Vec<u8>> {
        sign_with(&self.pair, &SystemRandom::new())
    }
}

fn sign_with(pair: &RsaKeyPair, rng: &SystemRandom) -> Result<Vec<u8>> {
    let mut sig = vec![0u8; pair.public_modulus_len()];
    pair.sign(&RSA_PKCS1_SHA256, rng, MESSAGE, &mut sig)
        .map_err(|_| Error::Internal("aws-lc-rs failed to sign".into()))?;
    Ok(sig)
}

/// The row of `d` (see the module docs).
pub fn row<'a>(row: &mut Row<'a>, s: &Setup, d: &'a AwsLcData) -> Result<()> {
    let (key, c, batch) = (&*d.key, &d.c, s.batch_s);
    let bits = key.public().bits();
    let backend = key.ct_crt().backend_name();
    check_crt(key, c)?;
    if row.id == "awslc-parsa-2048" {
        let t = s.threads;
        row.peer = Some(copies(
            "aws-lc-rs 1.19.0 sign",
            t,
            batch,
            || Ok(SystemRandom::new()),
            move |rng| drop(black_box(sign_with(&d.pair, rng))),
        ));
        let exec = Executor::new(t, ScheduleSpec::new(Schedule::Dynamic, Some(1))?, false)?;
        let inputs = batch::messages(key.public(), BATCH, 7);
        // PaRSA takes the multi-buffer kernel where it measures faster here (eight messages
        // per call, one call per iteration of the schedule).
        let choice = batch::fastest_const_time(key, &inputs);
        let transform = Transform::Decrypt(key, choice.op);
        let how = choice.describe(backend);
        row.work = format!(
            "PaRSA throughput, RSA-{bits} private ops over {t} threads ({how}), time per op"
        );
        if batch::parallel(&exec, transform, &inputs).0 != batch::serial(transform, &inputs) {
            return Err(Error::Internal("PaRSA differs from SeRSA".into()));
        }
        row.par = Some(parsa_form(exec, transform, inputs, t, batch));
        row.targets.push(("peer/par", 1.5));
        return Ok(());
    }
    row.work = format!("RSA-{bits} private op against aws-lc-rs ({backend} kernel)");
    row.peer = Some(form(
        "aws-lc-rs 1.19.0 sign (aws-lc-sys 0.47, in process)",
        1,
        move || {
            let rng = SystemRandom::new();
            let mut failed = false;
            let t = per_op(batch, || failed |= sign_with(&d.pair, &rng).is_err());
            if failed {
                return Err(Error::Internal("aws-lc-rs failed to sign".into()));
            }
            Ok(t)
        },
    ));
    crt_forms(row, key, c, batch);
    row.targets.extend([("peer/seq", 1.0), ("peer/par", 1.5)]);
    Ok(())
}

/// PaRSA on `t` threads: seconds per private-key operation over whole batches.
fn parsa_form<'a>(
    exec: Executor,
    transform: Transform<'a>,
    inputs: Vec<Integer>,
    t: usize,
    batch_s: f64,
) -> Form<'a> {
    form(&format!("PaRSA (dynamic,1) on {t} threads"), t, move || {
        let per_batch = per_op(batch_s, || {
            drop(black_box(batch::parallel(&exec, transform, &inputs)))
        });
        Ok(per_batch / inputs.len() as f64)
    })
}
