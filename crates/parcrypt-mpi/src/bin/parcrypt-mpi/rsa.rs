//! `rsa`: the batch of RSA operations over ranks, master-worker, against threads and SeRSA.
use crate::args::{self, MasterArg, OpArg, PrivateOpArg};
use crate::parse::parse_list;
use crate::shared::{check_writable, on_hosts, usage, warn_if_bound, write_json};
use parcrypt::hazmat::batch;
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::parallel::Schedule;
use parcrypt::rsa::RsaPrivateKey;
use parcrypt_harness::records::rsa::BatchOp;
use parcrypt_mpi::batch::BatchPlan;
use parcrypt_mpi::batch_bench::BatchRecord;
use parcrypt_mpi::{MpiError, MpiResult, Ranks};
use rand::SeedableRng;

/// `rsa`: the batch sweep over schedules and chunk sizes.
pub fn run(ranks: &Ranks, a: args::RsaArgs) -> MpiResult<()> {
    use parcrypt_mpi::batch::Master;
    let schedules = parse_list(&a.schedule, "schedule", |s| {
        s.parse::<Schedule>().map_err(|e| e.to_string())
    })
    .map_err(usage)?;
    let chunks = parse_list(&a.chunk, "chunk", |s| match s {
        "default" | "none" => Ok(None),
        _ => match s.parse::<usize>() {
            Ok(c) if c > 0 => Ok(Some(c)),
            _ => Err(format!(
                "chunk must be a positive integer or 'default', got '{s}'"
            )),
        },
    })
    .map_err(usage)?;
    let mut plan = BatchPlan {
        messages: a.messages,
        op: match a.op {
            OpArg::Encrypt => BatchOp::Encrypt,
            OpArg::Decrypt => BatchOp::Decrypt,
        },
        private_op: match a.private_op {
            PrivateOpArg::Crt => PrivateOp::CrtVartime,
            PrivateOpArg::CrtConstTime | PrivateOpArg::Auto => PrivateOp::CrtConstTime,
            PrivateOpArg::CrtConstTimeMb => PrivateOp::CrtConstTimeMb,
        },
        schedules,
        chunks,
        threads: a.threads,
        master: match a.master {
            MasterArg::Works => Master::Works,
            MasterArg::Waits => Master::Waits,
        },
        seed: a.seed,
        config: a.common.config(),
    };
    plan.validate(ranks.size())?;
    warn_if_bound(ranks, a.threads);
    check_writable(ranks, a.common.json.as_deref())?;
    let multibuffer = plan.op == BatchOp::Decrypt && plan.private_op == PrivateOp::CrtConstTimeMb;
    // Every rank runs the kernel, so every rank must have it: a usage error on all of them,
    // agreed before any work (one rank on a host without IFMA stops them all).
    let here = match parcrypt::hazmat::multibuffer::unavailable_reason() {
        Some(why) if multibuffer => Err(usage(why)),
        _ => Ok(()),
    };
    ranks.agree(here)?;
    let key = load_key(ranks, &a, multibuffer)?;
    let choice = if plan.op == BatchOp::Decrypt && matches!(a.private_op, PrivateOpArg::Auto) {
        Some(choose(ranks, key.as_ref(), plan.seed))
    } else {
        None
    };
    if let Some((op, _)) = &choice {
        plan.private_op = *op;
    }
    let Some(mut records) = parcrypt_mpi::batch_bench::run(ranks, key.as_ref(), &plan)? else {
        return Ok(());
    };
    for r in &mut records {
        r.base.private_op_choice = choice.as_ref().map(|c| c.1.clone()).unwrap_or_default();
    }
    print_records(ranks, &plan, &records);
    write_json(a.common.json.as_deref(), records)
}

/// `--private-op auto`, on every rank: the multi-buffer kernel only where every rank can run
/// it and rank 0 measures it faster on its key ([`batch::fastest_const_time`]), else
/// `crt-const-time`; every rank gets rank 0's choice, rank 0 also its reason (for the records).
fn choose(ranks: &Ranks, key: Option<&RsaPrivateKey>, seed: u64) -> (PrivateOp, String) {
    let here = parcrypt::hazmat::multibuffer::unavailable_reason().is_none();
    let everywhere = ranks.all_min(u64::from(here)) == 1;
    let mut why = String::new();
    let mine = match key {
        Some(k) if ranks.is_root() => {
            let backend = k.ct_crt().backend_name();
            let c = if everywhere {
                batch::fastest_const_time(k, &batch::messages(k.public(), 8, seed))
            } else {
                batch::ConstTimeChoice::from_times(0.0, None)
            };
            why = format!("auto: {}", c.describe(backend));
            if !everywhere {
                why.push_str("; not every rank has AVX-512 IFMA");
            }
            u8::from(c.op == PrivateOp::CrtConstTimeMb)
        }
        _ => 0,
    };
    let op = match ranks.broadcast(Some(&[mine])).first() {
        Some(1) => PrivateOp::CrtConstTimeMb,
        _ => PrivateOp::CrtConstTime,
    };
    (op, why)
}

/// Rank 0's key, from `--key` or generated from the seed, agreed on by every rank (`None`
/// on the others); with `two_primes`, a key of more primes is a usage error on every rank.
fn load_key(
    ranks: &Ranks,
    a: &args::RsaArgs,
    two_primes: bool,
) -> MpiResult<Option<RsaPrivateKey>> {
    if ranks.is_root() {
        let key = match &a.key {
            // A file that cannot be read names itself; a key that cannot be parsed gets its
            // file's name.
            Some(path) => parcrypt::io::read_file(path)
                .map_err(MpiError::from)
                .and_then(|b| {
                    parcrypt::rsa::pem::load_private_key(&b)
                        .map_err(|e| usage(format!("{}: {e}", path.display())))
                }),
            None => {
                let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(a.seed);
                RsaPrivateKey::generate_vartime(a.bits, &rug::Integer::from(65537), &mut rng)
                    .map_err(|e| usage(e.to_string()))
            }
        };
        let key = key.and_then(|k| {
            if two_primes && k.prime_count() != 2 {
                Err(usage("--private-op crt-const-time-mb takes two-prime keys"))
            } else {
                Ok(k)
            }
        });
        Ok(Some(ranks.agree(key)?))
    } else {
        ranks.agree(Ok(()))?;
        Ok(None)
    }
}

/// The sweep's table, one row per backend, schedule and chunk size.
fn print_records(ranks: &Ranks, plan: &BatchPlan, records: &[BatchRecord]) {
    println!(
        "{}-bit RSA {:?} of {} messages over {} ({} threads per rank, master {:?}); energy: {}",
        records[0].base.bits,
        plan.op,
        plan.messages,
        on_hosts(ranks),
        plan.threads,
        plan.master,
        records[0].base.energy.energy_source,
    );
    if !records[0].base.private_op_choice.is_empty() {
        println!("{}", records[0].base.private_op_choice);
    }
    println!(
        "{:<8} {:>5} {:<9} {:>6} {:>11} {:>8} {:>10} {:>8}",
        "backend", "ranks", "schedule", "chunk", "median ms", "speedup", "imbalance", "chunks"
    );
    for r in records {
        println!(
            "{:<8} {:>5} {:<9} {:>6} {:>11.3} {:>8.2} {:>10.2} {:>8}",
            r.mpi.backend,
            r.mpi.ranks,
            r.base.schedule.name(),
            r.base.chunk.map_or("-".into(), |c| c.to_string()),
            r.base.timing.median_s * 1e3,
            r.base.speedup,
            r.base.imbalance,
            r.base.chunks_taken,
        );
    }
    println!("every output equalled SeRSA's");
}
