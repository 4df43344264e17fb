//! `pipeline`: Blowfish's round pipeline over ranks against threads and sequential.
use crate::args;
use crate::parse::parse_list;
use crate::shared::{check_writable, on_hosts, usage, write_json};
use parcrypt_mpi::{MpiResult, Ranks};

/// `pipeline`: the chunk sweep, over ranks, threads and sequentially, with per-hop costs.
pub fn run(ranks: &Ranks, a: args::PipelineArgs) -> MpiResult<()> {
    use parcrypt_mpi::pipeline_bench::{PipelinePlan, run};
    let chunks = parse_list(&a.chunks, "chunk", |s| {
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
        "Blowfish encrypt+decrypt of {} bytes: round pipeline over {}, against threads and \
         sequential; energy: {}",
        records[0].base.size_bytes,
        on_hosts(ranks),
        records[0].energy.energy_source
    );
    println!(
        "{:<8} {:>6} {:>7} {:>10} {:>8} {:>8} {:>9} {:>9} {:>6} {:>6}  bottleneck",
        "backend",
        "stages",
        "chunk",
        "median ms",
        "MB/s",
        "speedup",
        "hop µs",
        "mean µs",
        "recv",
        "send"
    );
    for r in &records {
        println!(
            "{:<8} {:>6} {:>7} {:>10.3} {:>8.1} {:>8.2} {:>9} {:>9} {:>6.2} {:>6.2}  {}",
            r.mpi.backend,
            r.base.stages,
            r.base.chunk_bytes.map_or("-".into(), |c| c.to_string()),
            r.base.timing.median_s * 1e3,
            r.base.mb_per_s,
            r.base.speedup,
            r.hop_us.map_or("-".into(), |h| format!("{h:.1}")),
            r.hop_mean_us.map_or("-".into(), |h| format!("{h:.1}")),
            r.base.mean_recv_wait,
            r.base.mean_send_wait,
            r.base.bottleneck,
        );
    }
    println!("every chunk size: output equal to the input, encryption equal to Blowfish ECB");
    write_json(a.common.json.as_deref(), records)
}
