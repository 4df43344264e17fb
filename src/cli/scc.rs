//! `parcrypt scc`: SCC Blowfish's round pipeline on a model of Intel's SCC — predicted time,
//! speedup, energy and what limits each chunk size, with every parameter's source; the ±50 %
//! sensitivity of the seed's claims (`--sensitivity`); and the same model calibrated on this
//! machine against its own measured pipeline (`--calibrate`).
use super::output::{say, say_raw};
use super::{Sizes, parse_list, usage};
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use parcrypt_lab::bench::{ExportFormat, render};
use parcrypt_lab::scc::claims::{SeedClaims, paper, seed_claims};
use parcrypt_lab::scc::mesh::{Placement, PlacementKind};
use parcrypt_lab::scc::model::{SccConfig, Sweep, fine_optimum, predict_detailed, sweep};
use parcrypt_lab::scc::params::{ParamId, ParamRow, SccParams};
use parcrypt_lab::scc::validate::Validation;
use serde::Serialize;

/// Arguments of `parcrypt scc`.
#[derive(Args, Debug)]
pub struct SccArgs {
    /// Chunk sizes, comma-separated; K and M are binary, KB and MB decimal (the seed's 8 KB
    /// is 8K here, 8192 bytes).
    #[arg(long, default_value = "1K,2K,4K,8K,16K,32K,64K", value_parser = size_list)]
    chunk: Sizes,
    /// Message size, at most 1 GiB (the seed's 1 MB, read as 1 MiB).
    #[arg(long, default_value = "1M", value_parser = message_size)]
    size: usize,
    /// Stages in all, input and output included (36 = one round per stage, as the seed).
    #[arg(long, default_value_t = 36)]
    stages: usize,
    /// Where stages sit on the mesh.
    #[arg(long, value_enum, default_value_t = PlacementArg::Snake)]
    placement: PlacementArg,
    /// Print the per-stage busy and wait times at the best chunk.
    #[arg(long)]
    stage_detail: bool,
    /// Also vary every parameter by ±50 % and show which one the seed's claims hang on.
    #[arg(long)]
    sensitivity: bool,
    #[command(flatten)]
    calibration: super::scc_calibrate::CalibrateArgs,
    /// Write everything as JSON to F (`-`: stdout, the text then going to stderr); written
    /// atomically, the folder checked first.
    #[arg(long, value_name = "F", value_parser = super::output::parse)]
    json: Option<super::output::Output>,
    #[command(flatten)]
    params: ParamArgs,
}

/// Where the stages sit.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum PlacementArg {
    /// Two stages per tile along a snake through the mesh: neighbours at most one hop apart.
    Snake,
    /// Cores in id order, as the seed's printed list runs: six hops at each row end.
    Row,
}

/// Every model parameter, overridable (defaults and sources: `parcrypt scc` prints them).
#[derive(Args, Debug, Default)]
pub struct ParamArgs {
    /// Active core clock, MHz.
    #[arg(long, allow_negative_numbers = true)]
    core_mhz: Option<f64>,
    /// Mesh clock, MHz.
    #[arg(long, allow_negative_numbers = true)]
    mesh_mhz: Option<f64>,
    /// Router latency per hop, mesh cycles.
    #[arg(long, allow_negative_numbers = true)]
    hop_cycles: Option<f64>,
    /// Message-passing buffer per core, bytes.
    #[arg(long, allow_negative_numbers = true)]
    mpb_bytes: Option<f64>,
    /// Bytes of that buffer RCCE keeps (flags, write-combine line).
    #[arg(long, allow_negative_numbers = true)]
    mpb_reserved_bytes: Option<f64>,
    /// Buffer write (put) rate, MB/s.
    #[arg(long, allow_negative_numbers = true)]
    mpb_write_mbps: Option<f64>,
    /// Buffer read (get) rate, MB/s, before hop latency.
    #[arg(long, allow_negative_numbers = true)]
    mpb_read_mbps: Option<f64>,
    /// Flag handshake per buffer-sized transfer, µs.
    #[arg(long, allow_negative_numbers = true)]
    handshake_us: Option<f64>,
    /// Blowfish cycles per byte per round on a P54C.
    #[arg(long, allow_negative_numbers = true)]
    bf_cycles_per_byte_round: Option<f64>,
    /// Input/output stage work, cycles per byte.
    #[arg(long, allow_negative_numbers = true)]
    io_cycles_per_byte: Option<f64>,
    /// Chip watts with one active core.
    #[arg(long, allow_negative_numbers = true)]
    seq_watts: Option<f64>,
    /// Chip watts with the 36 pipeline cores active.
    #[arg(long, allow_negative_numbers = true)]
    pipe_watts: Option<f64>,
}

impl ParamArgs {
    /// The seed's parameters with the overrides given.
    fn params(&self) -> Result<SccParams> {
        let mut p = SccParams::as_in_paper();
        let given = [
            (ParamId::CoreMhz, self.core_mhz),
            (ParamId::MeshMhz, self.mesh_mhz),
            (ParamId::HopCycles, self.hop_cycles),
            (ParamId::MpbBytes, self.mpb_bytes),
            (ParamId::MpbReservedBytes, self.mpb_reserved_bytes),
            (ParamId::MpbWriteMbps, self.mpb_write_mbps),
            (ParamId::MpbReadMbps, self.mpb_read_mbps),
            (ParamId::HandshakeUs, self.handshake_us),
            (ParamId::BfCyclesPerByteRound, self.bf_cycles_per_byte_round),
            (ParamId::IoCyclesPerByte, self.io_cycles_per_byte),
            (ParamId::SeqWatts, self.seq_watts),
            (ParamId::PipeWatts, self.pipe_watts),
        ];
        for (id, v) in given {
            if let Some(v) = v {
                p.set(id, v).map_err(|e| usage(e.to_string()))?;
            }
        }
        Ok(p)
    }
}

/// A message size of at most 1 GiB: the model steps through every chunk of it for each chunk
/// size of the fine sweep (64 MiB takes a few seconds, 1 GiB about a minute).
fn message_size(s: &str) -> Result<usize, String> {
    match super::size::parse_size(s)? {
        v if v > 1 << 30 => Err(format!(
            "message size must be at most 1 GiB (1024M), got '{s}'"
        )),
        v => Ok(v),
    }
}

fn size_list(s: &str) -> Result<Sizes, String> {
    parse_list(s, "chunk", super::size::parse_size).map(Sizes)
}

/// What `--json` writes.
#[derive(Serialize)]
struct Output<'a> {
    model: &'static str,
    config: &'a SccConfig,
    params: Vec<ParamRow>,
    placement_max_hops: usize,
    sequential_s: f64,
    sweep: &'a Sweep,
    fine_optimum_bytes: usize,
    fine_optimum_s: f64,
    claims: Option<&'a SeedClaims>,
    calibration: Option<&'a Validation>,
}

/// Runs `parcrypt scc`.
pub fn run(args: SccArgs) -> Result<()> {
    super::output::check(&[("--json", args.json.as_ref())])?;
    if args.json == Some(super::output::Output::Stdout) {
        super::output::text_to_stderr();
    }
    args.calibration.check()?;
    let cfg = config(&args)?;
    let placement = Placement::new(cfg.placement.clone(), cfg.stages)?;
    let sw = sweep(&cfg, &args.chunk.0)?;
    let fine = fine_optimum(&cfg, 64 << 10)?;
    let claims = if args.sensitivity {
        Some(seed_claims(&cfg, &args.chunk.0, 0.5)?)
    } else {
        None
    };
    say_header(&cfg, args.placement, &placement);
    say_sweep(&cfg, &sw, fine)?;
    if args.stage_detail {
        let (_, sim) = predict_detailed(&cfg, sw.best_chunk)?;
        say(format_args!(
            "per-stage times at {} B chunks (ms):",
            sw.best_chunk
        ));
        say_raw(format_args!(
            "{}",
            render(&stage_rows(&sim), ExportFormat::Table)?
        ));
    }
    if let Some(c) = &claims {
        print_claims(c)?;
    }
    let calibration = if args.calibration.calibrate {
        Some(super::scc_calibrate::run(
            &args.chunk.0,
            args.size,
            &args.calibration,
        )?)
    } else {
        None
    };
    let (fine_c, fine_t) = fine;
    if let Some(target) = &args.json {
        let out = Output {
            model: "model:scc",
            config: &cfg,
            params: cfg.params.rows(),
            placement_max_hops: placement.max_hops(),
            sequential_s: cfg.sequential_s(),
            sweep: &sw,
            fine_optimum_bytes: fine_c,
            fine_optimum_s: fine_t,
            claims: claims.as_ref(),
            calibration: calibration.as_ref(),
        };
        target.write(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
    }
    Ok(())
}

/// The model's configuration from the arguments.
fn config(args: &SccArgs) -> Result<SccConfig> {
    Ok(SccConfig {
        params: args.params.params()?,
        placement: match args.placement {
            PlacementArg::Snake => PlacementKind::Snake,
            PlacementArg::Row => PlacementKind::Row,
        },
        stages: args.stages,
        message_bytes: args.size,
    })
}

/// What is modelled: stages, placement, message size, and every parameter with its basis.
fn say_header(cfg: &SccConfig, placement_arg: PlacementArg, placement: &Placement) {
    say(format_args!(
        "SCC model (model:scc) of SCC Blowfish's round pipeline: {} stages on the 6x4 mesh ({:?} placement, \
         longest link {} hop(s)), {} bytes encrypted then decrypted, RCCE synchronous transfers",
        cfg.stages,
        placement_arg,
        placement.max_hops(),
        cfg.message_bytes
    ));
    say(format_args!("parameters (override any with --NAME VALUE):"));
    for r in cfg.params.rows() {
        say(format_args!(
            "  {:<25} {:>10} {:<12} [{}] {}",
            r.name,
            parcrypt_lab::bench::format_number(r.value),
            r.unit,
            r.basis.name(),
            r.source
        ));
    }
}

/// The sweep's table, the modelled sequential run, the optimum found and the paper's.
fn say_sweep(cfg: &SccConfig, sw: &Sweep, (fine_c, fine_t): (usize, f64)) -> Result<()> {
    say_raw(format_args!("{}", render(&rows(sw), ExportFormat::Table)?));
    let best = sw
        .points
        .iter()
        .find(|p| p.chunk_bytes == sw.best_chunk)
        .context("best chunk missing")?;
    say(format_args!(
        "modelled sequential run: {:.6} s on one core ({} W, {:.3} J, {}); pipelined energy uses {} W ({})",
        cfg.sequential_s(),
        best.energy.seq_w,
        best.energy.seq_j,
        best.energy.watts_label,
        best.energy.pipe_w,
        best.energy.watts_label
    ));
    say(format_args!(
        "optimal chunk among those asked: {} B, {:.4} s, {:.2}x, {:.2}x less energy (model:scc); \
         finest (multiples of 32 B up to 64 KiB): {} B, {:.4} s",
        best.chunk_bytes, best.time_s, best.speedup, best.energy.ratio, fine_c, fine_t
    ));
    say(format_args!(
        "paper (SCC Blowfish): {} B optimum, {} s, {}x, {}x less energy (Figs. 8-11)",
        paper::BEST_CHUNK_BYTES,
        paper::PIPELINED_S,
        paper::SPEEDUP,
        paper::ENERGY_RATIO
    ));
    Ok(())
}

#[derive(Serialize)]
struct Row {
    chunk: usize,
    chunks: usize,
    pieces: usize,
    time_s: f64,
    speedup: f64,
    energy_j: f64,
    energy_ratio: f64,
    bottleneck: String,
    compute: String,
    transfer: String,
    handshake: String,
    fill: String,
    limited_by: String,
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn rows(sw: &Sweep) -> Vec<Row> {
    sw.points
        .iter()
        .map(|p| Row {
            chunk: p.chunk_bytes,
            chunks: p.chunks,
            pieces: p.pieces_per_chunk,
            time_s: p.time_s,
            speedup: p.speedup,
            energy_j: p.energy.pipe_j,
            energy_ratio: p.energy.ratio,
            bottleneck: p.bottleneck.clone(),
            compute: pct(p.compute_share),
            transfer: pct(p.transfer_share),
            handshake: pct(p.handshake_share),
            fill: pct(p.fill_share),
            limited_by: serde_json::to_value(p.limiter)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
        })
        .collect()
}

#[derive(Serialize)]
struct StageRow {
    stage: String,
    chunks: usize,
    compute_ms: f64,
    data_ms: f64,
    handshake_ms: f64,
    held_ms: f64,
    recv_wait_ms: f64,
    send_wait_ms: f64,
}

fn stage_rows(sim: &parcrypt_lab::scc::des::SimResult) -> Vec<StageRow> {
    sim.stages
        .iter()
        .map(|s| StageRow {
            stage: s.name.clone(),
            chunks: s.chunks,
            compute_ms: s.compute_s * 1e3,
            data_ms: s.data_s * 1e3,
            handshake_ms: s.handshake_s * 1e3,
            held_ms: s.transfer_wait_s * 1e3,
            recv_wait_ms: s.recv_wait_s * 1e3,
            send_wait_ms: s.send_wait_s * 1e3,
        })
        .collect()
}

#[derive(Serialize)]
struct SensRow {
    param: String,
    down: f64,
    up: f64,
    speedup_down: f64,
    speedup_up: f64,
    swing: String,
    energy_down: f64,
    energy_up: f64,
    best_down: usize,
    best_up: usize,
}

fn print_claims(c: &SeedClaims) -> Result<()> {
    print_sensitivity(c)?;
    print_paper_claims(c);
    Ok(())
}

/// The sensitivity table: every parameter scaled down and up, and the most sensitive ones.
fn print_sensitivity(c: &SeedClaims) -> Result<()> {
    let s = &c.sensitivity;
    say(format_args!(
        "sensitivity: each parameter x{} and x{} (others as given); speedup and energy ratio at {} B, best of the chunks asked:",
        1.0 - s.factor,
        1.0 + s.factor,
        s.claim_chunk
    ));
    let rows: Vec<SensRow> = s
        .rows
        .iter()
        .map(|r| SensRow {
            param: r.param.clone(),
            down: r.values[0],
            up: r.values[2],
            speedup_down: r.speedup[0],
            speedup_up: r.speedup[2],
            swing: pct(r.speedup_swing),
            energy_down: r.energy_ratio[0],
            energy_up: r.energy_ratio[2],
            best_down: r.best_chunk[0],
            best_up: r.best_chunk[2],
        })
        .collect();
    say_raw(format_args!("{}", render(&rows, ExportFormat::Table)?));
    say(format_args!(
        "most sensitive: speedup -> {}, energy ratio -> {}, optimum -> {}; among assumed values: {}",
        s.most_sensitive_speedup,
        s.most_sensitive_energy,
        s.most_sensitive_optimum,
        s.most_sensitive_assumed
    ));
    Ok(())
}

/// The paper's claims against the model's range, the compute-only bound and the handshake
/// costs that make 8 KB the best chunk.
fn print_paper_claims(c: &SeedClaims) {
    say(format_args!(
        "claims (model:scc, range over the sweep): speedup at 8 KB {:.2}x [{:.2}-{:.2}] (paper {}x); \
         energy ratio {:.2}x [{:.2}-{:.2}] (paper {}x); time {:.4} s [{:.4}-{:.4}] (paper {} s); best chunk {} B (paper {} B)",
        c.speedup.value,
        c.speedup.low,
        c.speedup.high,
        c.speedup.paper,
        c.energy_ratio.value,
        c.energy_ratio.low,
        c.energy_ratio.high,
        c.energy_ratio.paper,
        c.time_s.value,
        c.time_s.low,
        c.time_s.high,
        c.time_s.paper,
        c.best_chunk,
        paper::BEST_CHUNK_BYTES
    ));
    say(format_args!(
        "compute-only bound at 8 KB (moving data free): {:.5} s, {:.2}x; the paper's {} s is {}",
        c.compute_bound_s,
        c.compute_bound_speedup,
        paper::PIPELINED_S,
        if paper::PIPELINED_S < c.compute_bound_s {
            "below it"
        } else {
            "above it"
        }
    ));
    match c.handshake_for_8k_us {
        Some((lo, hi)) => say(format_args!(
            "8 KB is the best of the chunks asked for handshakes of {lo:.3}-{hi:.3} µs per piece"
        )),
        None => say(format_args!(
            "no handshake cost from 0.01 µs to 10 ms makes 8 KB the best of the chunks asked"
        )),
    }
    if let (Some((lo, hi)), Some(s)) = (
        c.handshake_for_8k_whole_buffer_us,
        c.speedup_when_8k_is_best,
    ) {
        say(format_args!(
            "with the whole 8 KiB buffer as payload, handshakes of {lo:.3}-{hi:.3} µs make 8 KB the best; \
             the speedup at 8 KB is then at most {s:.2}x (paper {}x)",
            paper::SPEEDUP
        ));
    }
}
