//! The pipeline, CRSA and cipher programs.
use crate::args;
use crate::programs::{check_writable, usage, write_json};
use parcrypt::mpi::{MpiResult, Ranks};

/// `pipeline`: the chunk sweep, over ranks, threads and sequentially, with per-hop costs.
pub fn pipeline(ranks: &Ranks, a: args::PipelineArgs) -> MpiResult<()> {
    use parcrypt::mpi::pipeline_bench::{PipelinePlan, run};
    let chunks = args::list(&a.chunks, |s| {
        s.parse::<usize>()
            .map_err(|_| format!("chunk '{s}' is not a positive integer"))
    })
    .map_err(usage)?;
    let plan = PipelinePlan {
        chunks,
        size_bytes: a.size,
        hop_trips: a.hops,
        seed: a.seed,
        config: a.common.config(),
    };
    plan.validate(ranks.size())?;
    check_writable(ranks, a.common.json.as_deref())?;
    let Some(records) = run(ranks, &plan)? else {
        return Ok(());
    };
    println!(
        "Blowfish encrypt+decrypt of {} bytes: round pipeline over {} ranks on {} hosts, \
         against threads and sequential; energy: {}",
        records[0].base.size_bytes,
        ranks.size(),
        ranks.hosts(),
        records[0].energy.energy_source
    );
    println!(
        "{:<8} {:>6} {:>7} {:>10} {:>8} {:>8} {:>9} {:>9} {:>9}  bottleneck",
        "backend", "stages", "chunk", "median ms", "MB/s", "speedup", "hop µs", "recv", "send"
    );
    for r in &records {
        println!(
            "{:<8} {:>6} {:>7} {:>10.3} {:>8.1} {:>8.2} {:>9} {:>9.2} {:>9.2}  {}",
            r.mpi.backend,
            r.base.stages,
            r.base.chunk_bytes.map_or("-".into(), |c| c.to_string()),
            r.base.median_s * 1e3,
            r.base.mb_per_s,
            r.base.speedup,
            r.hop_us.map_or("-".into(), |h| format!("{h:.1}")),
            r.base.mean_recv_wait,
            r.base.mean_send_wait,
            r.base.bottleneck,
        );
    }
    println!("every chunk size: output equal to the input, encryption equal to Blowfish ECB");
    write_json(a.common.json.as_deref(), records)
}

/// `crsa`: the hypercube over ranks against the thread engine.
pub fn crsa(ranks: &Ranks, a: args::CrsaArgs) -> MpiResult<()> {
    use parcrypt::mpi::crsa_bench::{CrsaPlan, run};
    let plan = CrsaPlan {
        engine: parcrypt::modexp::crsa::EngineConfig {
            cubes: a.cubes,
            optimized: a.optimized,
            pipelined: a.pipelined,
        },
        blocks: a.blocks,
        bits: a.bits,
        seed: a.seed,
        config: a.common.config(),
    };
    check_writable(ranks, a.common.json.as_deref())?;
    let Some(records) = run(ranks, &plan)? else {
        return Ok(());
    };
    println!(
        "{} with {} cube(s), {} PEs, {} blocks of {} bits: over {} ranks on {} hosts against the \
         thread engine",
        records[0].strategy,
        records[0].cubes,
        records[0].pes,
        records[0].blocks,
        records[0].modulus_bits,
        ranks.size(),
        ranks.hosts()
    );
    println!(
        "{:<8} {:>5} {:>10} {:>9} {:>8} {:>8} {:>12}",
        "backend", "ranks", "median ms", "blocks/s", "speedup", "PEs/rank", "cross msgs"
    );
    for r in &records {
        println!(
            "{:<8} {:>5} {:>10.3} {:>9.1} {:>8.2} {:>8} {:>12}",
            r.mpi.backend,
            r.mpi.ranks,
            r.median_s * 1e3,
            r.blocks_per_s,
            r.speedup,
            r.pes_per_rank,
            r.cross_rank_messages
        );
    }
    println!(
        "values equal GMP and the thread engine; MulMod counts per PE ({} in all) and link \
         counts equal the thread engine's; every message went along an edge",
        records[0].mulmods
    );
    write_json(a.common.json.as_deref(), records)
}

/// `cipher`.
pub fn cipher(_ranks: &Ranks, _a: args::CipherArgs) -> MpiResult<()> {
    Err(usage("not yet"))
}
