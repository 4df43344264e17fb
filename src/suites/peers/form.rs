//! What every row of `bench peers` is made of: how a row is run ([`Setup`]), a timed form
//! ([`Form`]), a row ([`Row`]), and the timing helpers the rows share (a batch per sample,
//! independent copies at once). A leaf: it imports no sibling.
use crate::error::{Error, Result};
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::hazmat::textbook::{PrivateOp, decrypt_unchecked};
use parcrypt::rsa::RsaPrivateKey;
use rug::Integer;
use std::hint::black_box;
use std::time::Instant;

/// How a row is run.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Threads of the parallel forms.
    pub threads: usize,
    /// Seconds per `openssl speed` sample.
    pub openssl_seconds: u32,
    /// Target seconds of one in-process sample.
    pub batch_s: f64,
    /// Bytes per cipher operation.
    pub cipher_bytes: usize,
    /// Seed of operands and keys.
    pub seed: u64,
    /// Kernel of the RSA rows' constant-time private-key operation.
    pub kernel: PrivateKernel,
}

/// One timed form: a name and a closure giving seconds per operation for one sample.
pub struct Form<'a> {
    /// What runs (`par-gmp`, `GMP mpz_mul`, `OpenSSL sign (openssl speed)`, ...).
    pub name: String,
    /// Threads it uses.
    pub threads: usize,
    /// One sample: seconds per operation.
    pub sample: Box<dyn FnMut() -> Result<f64> + 'a>,
}

/// A row's work and its forms.
pub struct Row<'a> {
    /// The row's id ([`ROWS`](super::rows::ROWS)).
    pub id: &'static str,
    /// What is computed, for people.
    pub work: String,
    /// Bytes per operation (cipher rows: shown as MB/s).
    pub bytes: Option<usize>,
    /// The peer, parcrypt's sequential form, parcrypt's parallel form.
    pub peer: Option<Form<'a>>,
    /// parcrypt's best sequential form.
    pub seq: Option<Form<'a>>,
    /// parcrypt's best parallel form.
    pub par: Option<Form<'a>>,
    /// The ceiling: as many independent copies of the sequential kernel (the sequential form,
    /// or GMP's product where parcrypt has none) as the parallel form has threads, at once.
    pub ceiling: Option<Form<'a>>,
    /// The targets: (ratio, at least).
    pub targets: Vec<(&'static str, f64)>,
}

/// Repeats `op` until the batch has taken `batch_s`, then the seconds per call.
pub fn per_op(batch_s: f64, mut op: impl FnMut()) -> f64 {
    let started = Instant::now();
    let mut n = 0u64;
    loop {
        op();
        n += 1;
        let t = started.elapsed().as_secs_f64();
        if t >= batch_s {
            return t / n as f64;
        }
    }
}

/// A form named `name` on `threads` threads whose one sample is `sample`.
pub fn form<'a>(name: &str, threads: usize, sample: impl FnMut() -> Result<f64> + 'a) -> Form<'a> {
    Form {
        name: name.to_string(),
        threads,
        sample: Box::new(sample),
    }
}

/// `t` copies of one sequential operation at once, one per thread, each with its own state
/// (`make`), started together: seconds per operation at the machine's whole throughput,
/// `1 / Σ rate`. No parallel form of that operation can do better on this machine now, so
/// its ratio to the single copy is the ceiling of a speedup over it.
pub fn copies<'a, S>(
    name: &str,
    t: usize,
    batch_s: f64,
    make: impl Fn() -> Result<S> + Sync + 'a,
    op: impl Fn(&mut S) + Sync + 'a,
) -> Form<'a> {
    form(&format!("{t} × {name}"), t, move || {
        let start = std::sync::Barrier::new(t);
        let one = || -> Result<f64> {
            let made = make();
            start.wait();
            let mut state = made?;
            Ok(per_op(batch_s, || op(&mut state)))
        };
        let per_op_each: Vec<f64> = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..t).map(|_| s.spawn(one)).collect();
            let mine = one();
            let mut all = vec![mine];
            for h in helpers {
                all.push(
                    h.join()
                        .unwrap_or_else(|_| Err(Error::Internal("a copy panicked".into()))),
                );
            }
            all.into_iter().collect::<Result<Vec<f64>>>()
        })?;
        Ok(1.0 / per_op_each.iter().map(|x| 1.0 / x).sum::<f64>())
    })
}

/// Checks that the constant-time CRT of `key`, the halves one after the other and on two
/// threads, decrypts `c` as GMP's `mpz_powm` does (before anything of an RSA row is timed).
pub fn check_crt(key: &RsaPrivateKey, c: &Integer) -> Result<()> {
    let backend = key.ct_crt().backend_name();
    let want = Integer::from(c.pow_mod_ref(key.d(), key.public().n()).expect("d"));
    for op in [PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel] {
        if decrypt_unchecked(key, c, op) != want {
            return Err(Error::Internal(format!(
                "{op:?} ({backend}) decrypts wrongly"
            )));
        }
    }
    Ok(())
}

/// parcrypt's forms of an RSA row: the constant-time CRT on 1 thread (`seq`), its halves on 2
/// (`par`), and 2 independent copies of the first at once (`ceiling`), named by the backend.
pub fn crt_forms<'a>(row: &mut Row<'a>, key: &'a RsaPrivateKey, c: &'a Integer, batch: f64) {
    let backend = key.ct_crt().backend_name();
    let one = move || {
        drop(black_box(decrypt_unchecked(
            key,
            c,
            PrivateOp::CrtConstTime,
        )))
    };
    row.seq = Some(form(&format!("crt ({backend})"), 1, move || {
        Ok(per_op(batch, one))
    }));
    row.par = Some(form(&format!("crt-parallel ({backend})"), 2, move || {
        Ok(per_op(batch, || {
            let op = PrivateOp::CrtConstTimeParallel;
            drop(black_box(decrypt_unchecked(key, c, op)))
        }))
    }));
    row.ceiling = Some(copies(
        &format!("crt ({backend})"),
        2,
        batch,
        || Ok(()),
        move |_| one(),
    ));
}
