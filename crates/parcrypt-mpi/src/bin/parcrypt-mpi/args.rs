//! The command line of `parcrypt-mpi`.
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The first lines of `--help` (and all of `-h`): how to start it.
const ABOUT: &str = "Start it with an MPI launcher, one process per rank: \
`mpirun -n N parcrypt-mpi <PROGRAM> ...` (Open MPI) or `srun --mpi=pmix -n N parcrypt-mpi \
<PROGRAM> ...` (Slurm). Without a launcher it runs as one rank.";

/// The rest of `--help`.
const LONG_ABOUT: &str = "Start it with an MPI launcher, one process per rank:

  mpirun -n 4 parcrypt-mpi rsa --bits 2048 --json rsa.json
  mpirun -n 8 --hostfile hosts parcrypt-mpi crsa --cubes 1    (hosts: one `node1 slots=4` a line)
  srun --mpi=pmix -n 16 parcrypt-mpi cipher --alg pblock-ecb --key 00112233 --in f --out f.enc

(under Slurm, inside an allocation; `srun --mpi=list` names the PMI plugins there). Without a \
launcher it runs as one rank. Add `--oversubscribe` to mpirun for more ranks than cores, and \
`--bind-to none` when ranks run --threads above 1 (Open MPI binds each of 2 ranks to one core).

The seed systems over MPI ranks: batch RSA (PaRSA), the Blowfish round pipeline (SCC Blowfish), \
CRSA (CRSA) and PBlock/PARC4 over a file (cipher-energy). Every rank runs the same command line; \
files must be at the same path on every host. Rank 0 prints the results; every output is checked \
against its sequential reference.";

/// The command line.
#[derive(Parser, Debug)]
#[command(name = "parcrypt-mpi", version, about = ABOUT, long_about = LONG_ABOUT)]
pub struct Cli {
    /// Seconds any rank may wait for a message before giving up (a hung or dead rank).
    #[arg(long, global = true, default_value_t = 300.0, value_parser = positive_f64)]
    pub timeout: f64,
    /// The program to run.
    #[command(subcommand)]
    pub program: Program,
}

/// The programs.
#[derive(Subcommand, Debug)]
pub enum Program {
    /// Batch RSA (PaRSA): messages dealt to ranks with static, dynamic or guided schedules,
    /// against SeRSA on one rank.
    Rsa(RsaArgs),
    /// The Blowfish round pipeline (SCC Blowfish): rank groups as stages, a chunk-size sweep, and
    /// the per-hop cost over ranks against threads.
    Pipeline(PipelineArgs),
    /// CRSA (CRSA): hypercube PEs placed on ranks by address bits, values only along edges,
    /// against the thread engine.
    Crsa(CrsaArgs),
    /// PBlock or PARC4 (cipher-energy) over a file split among ranks, written once, atomically;
    /// with --runs, timed against the same cipher on threads.
    Cipher(CipherArgs),
}

/// Repetitions and output, shared by the benchmarks.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Measured runs per configuration.
    #[arg(short = 'r', long, default_value_t = 5, value_parser = positive_u32)]
    pub runs: u32,
    /// Warm-up runs per configuration (not recorded).
    #[arg(short = 'w', long, default_value_t = 1)]
    pub warmup: u32,
    /// Write the results as JSON (the thread benchmarks' schema plus backend, ranks, hosts).
    #[arg(long)]
    pub json: Option<PathBuf>,
}

impl Common {
    /// The harness configuration: exactly `runs` measured runs after `warmup`.
    pub fn config(&self) -> parcrypt_harness::bench::BenchConfig {
        parcrypt_harness::bench::BenchConfig {
            warmup_runs: self.warmup,
            ..parcrypt_harness::bench::BenchConfig::exact(self.runs)
        }
    }
}

/// `rsa`.
#[derive(Args, Debug)]
pub struct RsaArgs {
    /// Modulus bits of the key generated from --seed.
    #[arg(long, default_value_t = 2048)]
    pub bits: u32,
    /// Use this private key (PEM) instead; read by rank 0 and sent to the others.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// Messages per batch.
    #[arg(long, default_value_t = 64, value_parser = positive_usize)]
    pub messages: usize,
    /// The operation.
    #[arg(long, value_enum, default_value_t = OpArg::Decrypt)]
    pub op: OpArg,
    /// How decryption computes c^d mod n.
    #[arg(long, value_enum, default_value_t = PrivateOpArg::Crt)]
    pub private_op: PrivateOpArg,
    /// Schedules, comma-separated: static, dynamic, guided.
    #[arg(long, default_value = "static,dynamic,guided")]
    pub schedule: String,
    /// Chunk sizes, comma-separated (`default` = the schedule's default).
    #[arg(long, default_value = "default")]
    pub chunk: String,
    /// Threads inside each rank.
    #[arg(long, default_value_t = 1, value_parser = positive_usize)]
    pub threads: usize,
    /// Whether rank 0 computes too (`works`) or only deals (`waits`, probing and sleeping).
    #[arg(long, value_enum, default_value_t = MasterArg::Works)]
    pub master: MasterArg,
    /// Seed of the key and the messages.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub common: Common,
}

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OpArg {
    /// c = m^e mod n.
    Encrypt,
    /// m = c^d mod n, as `--private-op` says.
    Decrypt,
}

/// How decryption computes c^d mod n (as `parcrypt bench rsa --private-op`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PrivateOpArg {
    /// The faster constant-time form, by rank 0's measurement at the start: crt-const-time-mb
    /// where every rank has AVX-512 IFMA and eight messages per call beat eight single ones,
    /// else crt-const-time.
    Auto,
    /// CRT with mpz_powm on p and q (variable-time): the PaRSA paper's workload.
    Crt,
    /// CRT on the key's constant-time kernel, checked with the public key.
    CrtConstTime,
    /// CRT on the multi-buffer AVX-512 IFMA kernel: each rank's chunk in groups of eight
    /// messages, one per 64-bit lane; constant time and checked as crt-const-time.
    CrtConstTimeMb,
}

/// The master's role.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MasterArg {
    /// Rank 0 deals on its main thread and computes on a second one.
    Works,
    /// Rank 0 only deals.
    Waits,
}

/// `pipeline`.
#[derive(Args, Debug)]
pub struct PipelineArgs {
    /// Chunk sizes in bytes, comma-separated (multiples of 8).
    #[arg(long, default_value = "8192,65536")]
    pub chunks: String,
    /// Message bytes (the seed used 1 MB).
    #[arg(long, default_value_t = 1 << 20, value_parser = positive_usize)]
    pub size: usize,
    /// Round trips of one chunk around the stages, per hop measurement.
    #[arg(long, default_value_t = 200, value_parser = positive_usize)]
    pub hops: usize,
    /// Seed of the key and the message.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub common: Common,
}

/// `crsa`.
#[derive(Args, Debug)]
pub struct CrsaArgs {
    /// Cubes Nc (8·Nc PEs).
    #[arg(long, default_value_t = 1, value_parser = positive_usize)]
    pub cubes: usize,
    /// Remove the duplicate PEs (6·Nc PEs).
    #[arg(long)]
    pub optimized: bool,
    /// Let several blocks be in flight (the pipelined CRSA).
    #[arg(long)]
    pub pipelined: bool,
    /// Blocks (exponentiations) per run.
    #[arg(long, default_value_t = 8, value_parser = positive_usize)]
    pub blocks: usize,
    /// Modulus and exponent bits.
    #[arg(long, default_value_t = 1024)]
    pub bits: u32,
    /// Seed of modulus, exponent and bases.
    #[arg(long, default_value_t = 2)]
    pub seed: u64,
    #[command(flatten)]
    pub common: Common,
}

/// `cipher`.
#[derive(Args, Debug)]
pub struct CipherArgs {
    /// pblock-ecb, pblock-ctr or parc4.
    #[arg(long)]
    pub alg: String,
    /// Decrypt instead of encrypt.
    #[arg(long)]
    pub decrypt: bool,
    /// Input file; every rank reads its own part of it.
    #[arg(long = "in")]
    pub input: PathBuf,
    /// Output file: every rank writes its part into a temporary file beside it, which rank 0
    /// renames once every rank succeeded (never partially).
    #[arg(long = "out")]
    pub output: PathBuf,
    /// How the output is checked before it appears: `part` (each rank checks its own part
    /// against the sequential reference of its slice), `full` (rank 0 checks the whole output
    /// against the sequential reference of the whole input: one rank redoes all the work), or
    /// `none`.
    #[arg(long, value_enum, default_value_t = VerifyArg::Part)]
    pub verify: VerifyArg,
    /// Key in hex, as `parcrypt cipher --key` (`--key-hex` is the same option).
    #[arg(long = "key", alias = "key-hex")]
    pub key_hex: String,
    /// CTR initial counter as 16 hex digits (pblock-ctr), as `parcrypt cipher --iv`.
    #[arg(long = "iv", alias = "iv-hex")]
    pub iv_hex: Option<String>,
    /// PARC4 nonce as 32 hex digits, as `parcrypt cipher --nonce`.
    #[arg(long = "nonce", alias = "nonce-hex")]
    pub nonce_hex: Option<String>,
    /// PARC4 block bytes.
    #[arg(long)]
    pub chunk: Option<usize>,
    /// Threads inside each rank.
    #[arg(long, default_value_t = 1, value_parser = positive_usize)]
    pub threads: usize,
    /// Also time the transform over ranks against the same cipher on --compare-threads
    /// threads on rank 0, this many measured runs (0: transform only).
    #[arg(long, default_value_t = 0)]
    pub runs: u32,
    /// Threads of the thread form timed beside the ranks (default: the number of ranks).
    #[arg(long)]
    pub compare_threads: Option<usize>,
    /// What a timed run covers: `file` (input file to output file, not synced to disk) or
    /// `memory` (bytes in memory, as `parcrypt bench cipher`; each rank holds its part, rank 0
    /// also the whole input).
    #[arg(long, value_enum, default_value_t = IoArg::File)]
    pub timing: IoArg,
    /// Write the timing results as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// `--timing`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum IoArg {
    /// File to file.
    File,
    /// In memory.
    Memory,
}

/// `--verify`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VerifyArg {
    /// Not checked.
    None,
    /// Each rank checks its own part.
    Part,
    /// Rank 0 checks the whole output.
    Full,
}

fn positive_usize(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{s}' is not a positive integer")),
    }
}

fn positive_u32(s: &str) -> Result<u32, String> {
    positive_usize(s).and_then(|v| u32::try_from(v).map_err(|_| "too large".into()))
}

fn positive_f64(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}
