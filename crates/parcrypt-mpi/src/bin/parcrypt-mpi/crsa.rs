//! `crsa`: CRSA's hypercube over ranks against the thread engine.
use crate::args;
use crate::shared::{check_writable, on_hosts, write_json};
use parcrypt_mpi::{MpiResult, Ranks};

/// `crsa`: the hypercube over ranks against the thread engine.
pub fn run(ranks: &Ranks, a: args::CrsaArgs) -> MpiResult<()> {
    use parcrypt_mpi::crsa_bench::{CrsaPlan, run};
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
        "{} with {} cube(s), {} PEs, {} blocks of {} bits: over {} against the thread engine",
        records[0].strategy,
        records[0].cubes,
        records[0].pes,
        records[0].blocks,
        records[0].modulus_bits,
        on_hosts(ranks)
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
            r.timing.median_s * 1e3,
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
