//! SCC Blowfish (001_2924d02dfffc30b0.txt): Blowfish pipelined round by round over 36 cores of
//! Intel's SCC, chunk sizes (Fig. 8), time, power and energy against sequential Blowfish.
//!
//! Every claim-bearing place of the paper is listed, with the claims that judge it, in
//! `coverage.md` beside this file. A 36-stage claim needs 36 hardware threads; on fewer it is not
//! testable, and its twin worded for the folded pipeline (the rounds folded into one stage
//! group per core, [`parcrypt::cipher::parallel::bf_folded`]) is measured instead, with the SCC
//! model ([`crate::scc`]) as modelled evidence for the machine the paper had.

/// The paper, as cited (its entry in [`super::papers::PAPERS`]).
pub const PAPER: super::papers::Paper = super::papers::Paper {
    id: "scc-blowfish",
    short: "Blowfish on the SCC",
    authors: "Kamak Ebadi, Victor Pena and Chen Liu",
    title: "High-Performance Implementation and Evaluation of Blowfish Cryptographic Algorithm on Single-Chip Cloud Computer: A Pipelined Approach",
    venue: "Intel Labs' SCC research programme (the copy names no venue)",
    topic: "Blowfish pipelined round by round over 36 cores",
};

use super::{Claim, Rule};

/// Stages of the SCC pipeline: 17 encrypt rounds + 17 decrypt rounds + input + output.
pub const STAGES: usize = 36;
/// Round stages of the SCC pipeline: 17 encrypt + 17 decrypt (Section IV).
pub const ROUND_STAGES: usize = 34;
/// The plaintext size, bytes (1 MB).
pub const MESSAGE_BYTES: usize = 1 << 20;
/// Fig. 8: the best chunk size, bytes (8 KB).
pub const BEST_CHUNK_BYTES: usize = 8 << 10;
/// Section V: sequential Blowfish (encrypt + decrypt of 1 MB), seconds.
pub const SEQUENTIAL_S: f64 = 1.904956;
/// Section V: the 36-core pipeline, seconds.
pub const PIPELINED_S: f64 = 0.0702;
/// Section V: the speedup as printed (27×).
pub const SPEEDUP: f64 = 27.14;
/// Fig. 10: chip power running sequential Blowfish on one core, W.
pub const SEQUENTIAL_W: f64 = 20.56;
/// Fig. 10: chip power running the pipeline on 36 cores, W.
pub const PIPELINED_W: f64 = 30.24;
/// Fig. 10: "a 1.47 times increase in power consumption".
pub const POWER_RATIO: f64 = 1.47;
/// Fig. 11: energy of sequential Blowfish, J.
pub const SEQUENTIAL_J: f64 = 39.165;
/// Fig. 11: energy of the pipeline, J.
pub const PIPELINED_J: f64 = 2.476;
/// Abstract and Fig. 11: "close to 16× less energy" (39.165 / 2.476).
pub const ENERGY_RATIO: f64 = 15.82;
/// Section III: active cores run at this clock (MHz) and voltage (V).
pub const ACTIVE_MHZ_V: (f64, f64) = (533.0, 0.9);
/// Section III: idle cores run at this clock (MHz) and voltage (V).
pub const IDLE_MHZ_V: (f64, f64) = (100.0, 0.7);
/// Section II: Blowfish keys of at most this many bits…
pub const MAX_KEY_BITS: f64 = 448.0;
/// … expand into subkey arrays of this many bytes.
pub const SUBKEY_BYTES: f64 = 4168.0;

/// Section V's efficiency: 27.14× on 36 cores, in % of linear.
pub fn paper_efficiency_pct() -> f64 {
    SPEEDUP / STAGES as f64 * 100.0
}

/// Chunks of the 1 MB message at the paper's 8 KB (128).
pub fn chunks_at_best() -> usize {
    MESSAGE_BYTES / BEST_CHUNK_BYTES
}

/// The most a pipeline of `stages` equal stages can gain on `chunks` chunks over running the
/// same stages one after the other: `stages·chunks / (chunks + stages − 1)` (fill and drain),
/// even if moving data cost nothing.
pub fn fill_drain_ceiling(stages: usize, chunks: usize) -> f64 {
    (stages * chunks) as f64 / (chunks + stages - 1) as f64
}

/// The most the paper's pipeline can gain over 128 chunks when its 34 round stages each take
/// one round-time and its input and output stages `io_share` of one each (0: they take no
/// time, 1: as long as a round): `N·(34 + 2x) / (34 + 2x + N − 1)`, the slowest stage being a
/// round for `x ≤ 1`.
pub fn io_ceiling(io_share: f64, chunks: usize) -> f64 {
    let n = chunks as f64;
    let work = ROUND_STAGES as f64 + 2.0 * io_share;
    n * work / (work + n - 1.0)
}

/// The least share of a round's time the input and output stages must each take for a
/// pipeline of `chunks` chunks to gain `speedup` (0 when the round stages alone allow it).
pub fn io_share_needed(speedup: f64, chunks: usize) -> f64 {
    let n = chunks as f64;
    let r = ROUND_STAGES as f64;
    ((speedup * (r + n - 1.0) - n * r) / (2.0 * (n - speedup))).max(0.0)
}

/// The one printed sentence both core-order checks rest on ("after Core 25, we send the data
/// to Core 36, 37, 38, 39, and then come back to Core 26, 27, 28, 29"): it names 34 cores, not
/// 36, and on the SCC's numbering its links reach 6 hops, not one.
pub const CORE_ORDER: &str = "printed-core-order";

/// The assumption the SCC-model claims declare: each model parameter, as a factor of its
/// published (or, where none is published, assumed) value, one at a time.
pub const SCC_PARAMS: &str = "each SCC model parameter, in turn";

/// Declares [`SCC_PARAMS`] on `c`: the model is evaluated at ×0.5 and ×1.5 of each parameter.
fn scc_params(c: Claim) -> Claim {
    c.assumption(
        SCC_PARAMS,
        "× its value",
        1.0,
        (0.5, 1.5),
        None,
        "the SCC model stands for the paper's chip with parameters from published SCC figures (Mattson et al.: mesh hop latency, MPB size and bandwidth, P54C clock) and, where none is published, assumed ones (the MPB read rate, the handshake cost); the paper prints none of them, so each is scaled ×0.5 and ×1.5 in turn (`parcrypt scc`'s sensitivity sweep), and the claim is judged on the whole range",
    )
}

/// The model the modelled claims are judged on ([`crate::scc`], `parcrypt scc`): its label,
/// which [`crate::scc::power::MODEL_LABEL`] is.
pub const MODEL: &str = "model:scc";

/// The experiment that times the pipeline and models the SCC.
pub const PIPELINE: &str = "scc-blowfish-pipeline";

/// The parts of a best-chunk claim: the chunk's time over the fastest smaller chunk's, and
/// over the fastest larger chunk's (Fig. 8: smaller chunks under-use the links, larger ones
/// congest them).
pub fn chunk_sides() -> Vec<String> {
    vec![
        "8 KB / fastest smaller chunk".into(),
        "8 KB / fastest larger chunk".into(),
    ]
}

fn best_chunk_rule() -> Rule {
    Rule::Each {
        parts: chunk_sides(),
        rules: vec![Rule::AtMost { max: 1.05 }, Rule::AtMost { max: 1.05 }],
    }
}

const BEST_CHUNK_PAPER: &str =
    "8 KB: smaller chunks under-use the links, chunks larger than 8KB congest them";

fn c(id: &str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "scc-blowfish", PIPELINE, reference, claim)
}

/// [`scc_params`] as a method, for the builder chains below.
trait AssumedScc {
    fn assumed_scc(self) -> Self;
}

impl AssumedScc for Claim {
    fn assumed_scc(self) -> Self {
        scc_params(self)
    }
}

/// The claims of SCC Blowfish, in the paper's order.
pub fn claims() -> Vec<Claim> {
    let rounds_only = fill_drain_ceiling(ROUND_STAGES, chunks_at_best());
    let ceiling = fill_drain_ceiling(STAGES, chunks_at_best());
    vec![
        c("scc-blowfish-s2-blowfish", "Section II, Figs. 1–2", "Blowfish is a 64-bit-block Feistel cipher of 17 rounds (16 rounds and the output whitening), F = ((S1 + S2) ⊕ S3) + S4")
            .paper("64-bit blocks, 17 rounds, F adds S-boxes 1 and 2, XORs S-box 3, adds S-box 4")
            .paper_values(&[64.0, 17.0])
            .by_construction("our Blowfish is Schneier's: it matches the published test vectors and the RustCrypto crate (crates/parcrypt/tests/cipher_vectors.rs); the 17 operations per direction are its 16 rounds and the whitening, as the pipeline counts them (Layout::EncryptDecrypt has 34)"),
        c("scc-blowfish-s2-subkeys", "Section II", "Keys of at most 448 bits expand into subkey arrays totalling 4168 bytes")
            .paper("at most 448 bits; 4168 bytes of subkeys")
            .paper_values(&[MAX_KEY_BITS, SUBKEY_BYTES])
            .by_construction("Blowfish::new refuses keys over 56 bytes, and its schedule is 18 P-entries and 4 × 256 S-entries of 4 bytes: 4168 bytes (tests check both)"),
        c("scc-blowfish-s2-symmetric-faster", "Section II", "Symmetric ciphers are significantly faster than asymmetric ones")
            .paper("\"significantly faster\" (no figure)")
            .metric("RSA-2048 time per byte over Blowfish's, per direction, paired rounds", "×")
            .rule(Rule::Each {
                parts: vec!["encryption (RSA public key, e = 65537)".into(), "decryption (RSA private key, CRT)".into()],
                rules: vec![Rule::AtLeast { min: 10.0 }, Rule::AtLeast { min: 10.0 }],
            }, "\"significantly\" read as an order of magnitude; RSA gets its best case: a 2048-bit block counted as 256 payload bytes, e = 65537, CRT with GMP's mpz_powm")
            .plausible(&[(2.0, 300.0), (50.0, 15000.0)], "Blowfish runs at 40–700 MB/s a direction on one core of machines this tool runs on; an RSA-2048 public-key operation takes 10–100 µs, a CRT private-key one 0.3–5 ms")
            .measured(),
        c("scc-blowfish-s3-scc", "Sections III–IV, Figs. 3–4", "SCC: 48 P54C cores on 24 tiles in a 6×4 mesh, 16 KB message buffer per tile; active cores 533 MHz at 0.9 V, idle 100 MHz at 0.7 V")
            .paper("48 cores, 24 tiles, 6×4 mesh, 16KB per tile; 533MHz at 0.9 V, 100MHz at 0.7V")
            .paper_values(&[48.0, 24.0, 16.0, ACTIVE_MHZ_V.0, ACTIVE_MHZ_V.1, IDLE_MHZ_V.0, IDLE_MHZ_V.1])
            .not_testable("hardware facts, encoded in the scc preset and the SCC model's parameters; only an SCC, which exists in Intel's lab alone, would test them"),
        c("scc-blowfish-s3-idle-dvfs", "Section III", "Setting the idle cores to 100 MHz at 0.7 V minimises the energy they waste")
            .paper("idle cores at 100MHz and 0.7V, the lowest stable setting")
            .paper_values(&[IDLE_MHZ_V.0, IDLE_MHZ_V.1])
            .not_testable("the paper measured one setting of the idle cores and gives no figure for another; testing it needs per-tile clock and voltage control of cores that cannot be switched off (an SCC); on this machine the OS idles unused cores itself"),
        c("scc-blowfish-s3-layout", "Section IV, Figs. 5–7", "36 cores: 17 encrypt-round stages, 17 decrypt-round stages, an input and an output core")
            .paper(format!("{STAGES} cores: 34 rounds and 2 cores for input and output"))
            .paper_values(&[STAGES as f64, ROUND_STAGES as f64])
            .by_construction("the pipeline is built with this layout (threads joined by bounded channels, src/cipher/parallel/bf_pipeline.rs); the mesh hops have no analogue here (the SCC model places the stages on the mesh)"),
        c("scc-blowfish-s4-core-list", "Section IV, Fig. 7", "The printed core order (Core 0 to 25, then 36 to 39, then 26 to 29) uses 36 cores")
            .paper("after Core 25 ... Core 36, 37, 38, 39, and then ... Core 26, 27, 28, 29. So in total we still utilize 36 cores")
            .paper_values(&[25.0, 36.0, 39.0, 26.0, 29.0])
            .metric("cores the printed order names", "cores")
            .rule(Rule::Diff { target: STAGES as f64, tol: 0.0 }, "a count: the order must name the 36 cores the text counts")
            .paper_check()
            .defect(CORE_ORDER),
        c("scc-blowfish-s4-one-hop", "Section IV, Fig. 7", "All communicating cores are at most one hop apart")
            .paper("all the communicating cores are located maximum one hop away from each other")
            .metric("longest link of the printed core order on the SCC's core numbering", "hops")
            .rule(Rule::AtMost { max: 1.0 }, "\"maximum one hop\"; the numbering is the SCC's (core = 2·(6y + x) + z), which the order's own detour 25 → 36 … 39 → 26 follows to stay one hop")
            .paper_check()
            .defect(CORE_ORDER),
        c("scc-blowfish-fig8-best-chunk", "Fig. 8", "The best chunk size is 8 KB — for the 36-stage pipeline, one core per stage")
            .headline()
            .paper(BEST_CHUNK_PAPER)
            .paper_values(&[8.0])
            .metric("36-stage pipeline time at 8 KB over the least time at a smaller chunk, and at a larger one (paired rounds)", "×")
            .rule(best_chunk_rule(), "5 % on each side: the claim names the optimum of a curve; a chunk within 5 % of the fastest sits at that optimum for any practical purpose")
            .plausible(&[(0.3, 3.0), (0.3, 3.0)], "on a machine with one CPU per stage the 8 KB time can lie anywhere from a third to three times its neighbours', as hand-off cost against fill-and-drain moves the optimum")
            .parallel(),
        c("scc-blowfish-fig8-best-chunk-folded", "Fig. 8", "The best chunk size is 8 KB — for the rounds folded into one stage group per core")
            .headline()
            .paper(BEST_CHUNK_PAPER)
            .paper_values(&[8.0])
            .metric("folded pipeline time (one group per logical CPU) at 8 KB over the least time at a smaller chunk, and at a larger one (paired rounds)", "×")
            .rule(best_chunk_rule(), "5 % on each side, as for the 36-stage claim: the claim is about where the optimum lies, not about the SCC's mesh")
            .plausible(&[(0.5, 3.0), (0.5, 3.0)], "smaller chunks pay one ring hand-off (about a microsecond) per chunk and group, larger ones more fill and drain (one chunk's work per extra group): either side can win by up to a few times")
            .parallel(),
        c("scc-blowfish-fig8-best-chunk-scc", "Fig. 8", "The best chunk size is 8 KB — on the SCC the paper had, as modelled")
            .headline()
            .paper(BEST_CHUNK_PAPER)
            .paper_values(&[8.0])
            .metric("modelled 36-stage time at 8 KB over the least modelled time at a smaller, and at a larger chunk of 1–64 KiB (powers of two) on the SCC; interval: the range over a ±50 % change of each model parameter", "×")
            .rule(best_chunk_rule(), "5 % on each side, as for the measured claims")
            .plausible(&[(0.3, 3.0), (0.3, 3.0)], "the model's hand-off and transfer parameters are assumed (no published values); over their plausible values either side can win by a few times")
            .modelled(MODEL)
            .assumed_scc(),
        c("scc-blowfish-sv-speedup", "Section V, Fig. 9, Abstract", "The 36-core pipeline is 27× faster than sequential Blowfish")
            .headline()
            .paper(format!("{SEQUENTIAL_S} s against {PIPELINED_S} s ({SPEEDUP}×)"))
            .paper_values(&[SEQUENTIAL_S, PIPELINED_S, SPEEDUP])
            .metric("sequential time / 36-stage pipeline time at 8 KB, one CPU per stage", "×")
            .rule(Rule::Ratio { target: SPEEDUP, factor: 1.5 }, "a factor 1.5: the SCC's P54C cores and mesh differ from any machine here, so only the size of the gain carries over")
            .plausible(&[(0.5, 34.0)], "34 round stages bound the gain at 34× (27.03× with the fill and drain of 128 chunks); hand-offs can eat all of it")
            .speedup(),
        c("scc-blowfish-sv-speedup-folded", "Section V, Fig. 9, Abstract", "Pipelining Blowfish's rounds over the cores gains in proportion to them: 27.14× on 36 cores, 75.4 % of linear — for the rounds folded into one stage group per core")
            .headline()
            .paper(format!("{SPEEDUP}× on {STAGES} cores ({:.1} % of linear)", paper_efficiency_pct()))
            .paper_values(&[SPEEDUP, STAGES as f64])
            .metric("(sequential time / folded pipeline time at 8 KB) / groups, one group per logical CPU (at most 34), paired rounds", "%")
            .rule(Rule::AtLeast { min: (paper_efficiency_pct() * 10.0).round() / 10.0 }, "the paper's own efficiency, 27.14× on 36 cores: P groups can give at most P·N/(N + P − 1) of linear (99.2 % at P = 2 with N = 128 chunks), so 75.4 % leaves a quarter for hand-offs")
            .plausible(&[(20.0, 100.0)], "P groups cannot beat P× (fill and drain: at most 99.2 % at P = 2); ring hand-offs and uneven groups can cost most of it")
            .speedup(),
        c("scc-blowfish-sv-speedup-scc", "Section V, Fig. 9, Abstract", "The 36-core pipeline is 27× faster than sequential Blowfish — on the SCC the paper had, as modelled")
            .headline()
            .paper(format!("{SEQUENTIAL_S} s against {PIPELINED_S} s ({SPEEDUP}×)"))
            .paper_values(&[SEQUENTIAL_S, PIPELINED_S, SPEEDUP])
            .metric("modelled sequential time / modelled 36-stage pipeline time at 8 KB chunks on the SCC; interval: the range over a ±50 % change of each model parameter", "×")
            .rule(Rule::Ratio { target: SPEEDUP, factor: 1.5 }, "a factor 1.5, as for the measured claim: the model's parameters come from published SCC figures, not from the paper's chip, so only the size of the gain can be checked")
            .plausible(&[(1.0, 27.1)], "the model's compute-only bound is 27.03× (34 stages, 128 chunks); slow transfers or handshakes can take the gain to nothing")
            .modelled(MODEL)
            .assumed_scc(),
        c("scc-blowfish-sv-speedup-arith", "Section V", "1.904956 s against 0.0702 s is 27.14× faster")
            .paper(format!("{SEQUENTIAL_S} s / {PIPELINED_S} s = {SPEEDUP}×"))
            .paper_values(&[SEQUENTIAL_S, PIPELINED_S, SPEEDUP])
            .metric("the paper's sequential seconds / its pipelined seconds, with the rounding of the printed 0.0702", "×")
            .rule(Rule::Diff { target: SPEEDUP, tol: 0.005 }, "the rounding of the printed 27.14")
            .paper_check(),
        c("scc-blowfish-sv-ceiling", "Section IV, Section V, Fig. 5", "27.14× is within what the 36-stage pipeline (34 round stages, an input and an output stage) of 128 chunks can gain")
            .paper(format!("{SPEEDUP}× with 8 KB chunks of 1 MB through 17 + 17 equal round stages, and \"2 cores for input and output\": \"the first stage reads a chunk from the input buffer, while the last stage writes to an output buffer\""))
            .paper_values(&[SPEEDUP])
            .metric("the paper's speedup (its seconds, with their rounding)", "×")
            .rule(Rule::AtMost { max: (ceiling * 1000.0).floor() / 1000.0 }, format!(
                "the fill-and-drain ceiling of the pipeline as the paper describes it, 36 stages: 36·128 / (128 + 35) = {ceiling:.3}× if the input and output stages, which read and write each chunk (work the sequential run does too), take as long as a round; with 34 round stages alone (input and output taking no time) it is 34·128 / 161 = {rounds_only:.3}×, which the paper's figure passes only if each input and output stage takes at least {:.1} % of a round's time. The text supports both readings (\"36 cores\", \"the first and the last stages\"), so only the wider ceiling can call the paper inconsistent; with 1 MB = 10^6 B both are lower (28.0× and 26.9×)",
                io_share_needed(SPEEDUP, chunks_at_best()) * 100.0))
            .paper_check(),
        c("scc-blowfish-fig10-power", "Fig. 10", "The pipeline draws 1.47× the sequential power; more cores draw more power")
            .paper(format!("{SEQUENTIAL_W} W against {PIPELINED_W} W"))
            .paper_values(&[SEQUENTIAL_W, PIPELINED_W])
            .by_construction("the scc preset's static and per-core power are solved from these two wattages (linear in active cores), so the model returns them"),
        c("scc-blowfish-fig10-ratio", "Fig. 10", "30.24 W against 20.56 W is a 1.47 times increase")
            .paper(format!("{PIPELINED_W} W / {SEQUENTIAL_W} W = {POWER_RATIO}×"))
            .paper_values(&[PIPELINED_W, SEQUENTIAL_W, POWER_RATIO])
            .metric("the paper's watts, pipelined / sequential, with their rounding", "×")
            .rule(Rule::Diff { target: POWER_RATIO, tol: 0.005 }, "the rounding of the printed 1.47")
            .paper_check(),
        c("scc-blowfish-fig11-sequential-joules", "Fig. 11", "Sequential Blowfish uses 39.165 J: 20.56 W for 1.904956 s")
            .paper(format!("{SEQUENTIAL_J} J = {SEQUENTIAL_W} W × {SEQUENTIAL_S} s"))
            .paper_values(&[SEQUENTIAL_J, SEQUENTIAL_W, SEQUENTIAL_S])
            .metric("the paper's watts × its seconds, with their rounding", "J")
            .rule(Rule::Diff { target: SEQUENTIAL_J, tol: 0.0005 }, "the rounding of the printed 39.165 J (energy = time × power, Section V)")
            .paper_check(),
        c("scc-blowfish-fig11-pipelined-joules", "Fig. 11", "The pipeline uses 2.476 J: 30.24 W for 0.0702 s")
            .paper(format!("{PIPELINED_J} J = {PIPELINED_W} W × {PIPELINED_S} s"))
            .paper_values(&[PIPELINED_J, PIPELINED_W, PIPELINED_S])
            .metric("the paper's watts × its seconds, with their rounding", "J")
            .rule(Rule::Diff { target: PIPELINED_J, tol: 0.0005 }, "the rounding of the printed 2.476 J (energy = time × power, Section V)")
            .paper_check()
            .defect("fig11-2.476-joules"),
        c("scc-blowfish-fig11-energy", "Fig. 11, Abstract", "The pipeline uses 15.82×, close to 16×, less energy")
            .paper(format!("{SEQUENTIAL_J} J against {PIPELINED_J} J ({ENERGY_RATIO}×)"))
            .paper_values(&[SEQUENTIAL_J, PIPELINED_J, ENERGY_RATIO])
            .metric("the paper's joules, sequential / pipelined, with their rounding", "×")
            .rule(Rule::Diff { target: ENERGY_RATIO, tol: 0.005 }, "the rounding of the printed 15.82")
            .paper_check(),
        c("scc-blowfish-fig11-energy-scc", "Fig. 11, Abstract", "The pipeline uses close to 16× less energy — on the SCC the paper had, as modelled")
            .headline()
            .paper(format!("{SEQUENTIAL_J} J against {PIPELINED_J} J ({ENERGY_RATIO}×)"))
            .paper_values(&[SEQUENTIAL_J, PIPELINED_J, ENERGY_RATIO])
            .metric("(Fig. 10's sequential watts × modelled sequential time) / (Fig. 10's pipeline watts × modelled pipeline time) at 8 KB chunks; interval: the range over a ±50 % change of each model parameter, the two wattages included", "×")
            .rule(Rule::Ratio { target: ENERGY_RATIO, factor: 1.5 }, "a factor 1.5, as for the speedup it follows from: the watts are the paper's, so only the modelled times move the ratio")
            .plausible(&[(0.5, 27.1)], "the speedup's range divided by the 1.47× power of the paper's watts, and by up to 1.5 more when the wattages move by half")
            .modelled(MODEL)
            .assumed_scc(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's figures as printed (Section V, Figs. 10–11), verbatim.
    const PRINTED: &str = "it takes for the sequential approach to run the program in 1.904956 seconds, \
        the proposed pipelined model achieves to finish the program in only 0.0702 seconds. \
        runs 27.14 times faster. equal to 30.24 Watts, ... the total power consumption is 20.56 Watts. \
        1.47 times increase in power consumption. consumes only 2.476 joules ... increases 15.82 times \
        and it utilizes 39.165 joules";

    #[test]
    fn the_constants_are_the_printed_figures() {
        for v in [
            SEQUENTIAL_S,
            PIPELINED_S,
            SPEEDUP,
            PIPELINED_W,
            SEQUENTIAL_W,
            POWER_RATIO,
            PIPELINED_J,
            ENERGY_RATIO,
            SEQUENTIAL_J,
        ] {
            assert!(PRINTED.contains(&format!("{v}")), "{v} is not printed");
        }
    }

    #[test]
    fn the_ceiling_of_34_stages_over_128_chunks_is_27_03() {
        assert_eq!(chunks_at_best(), 128);
        let c = fill_drain_ceiling(ROUND_STAGES, chunks_at_best());
        assert!((c - 27.031).abs() < 0.001, "{c}");
        assert!(SPEEDUP > c, "the paper's speedup is above it");
        // Counting the input and output stages as rounds: 28.27×, above the paper's figure.
        let all = fill_drain_ceiling(STAGES, chunks_at_best());
        assert!((all - 28.270).abs() < 0.001 && SPEEDUP < all, "{all}");
        assert!((io_ceiling(0.0, 128) - c).abs() < 1e-9);
        assert!((io_ceiling(1.0, 128) - all).abs() < 1e-9);
        let x = io_share_needed(SPEEDUP, 128);
        assert!(
            (io_ceiling(x, 128) - SPEEDUP).abs() < 1e-9 && (0.08..0.09).contains(&x),
            "{x}"
        );
        // 1 MB = 10^6 B and 8 KB = 8192 B: 122 whole chunks and a part; lower still.
        assert!(fill_drain_ceiling(ROUND_STAGES, 123) < c);
        assert!((paper_efficiency_pct() - 75.39).abs() < 0.01);
    }

    #[test]
    fn the_36_stage_and_folded_claims_are_told_apart() {
        let all = claims();
        let get = |id: &str| all.iter().find(|c| c.id == id).unwrap();
        for id in [
            "scc-blowfish-fig8-best-chunk",
            "scc-blowfish-fig8-best-chunk-folded",
            "scc-blowfish-sv-speedup",
            "scc-blowfish-sv-speedup-folded",
        ] {
            assert!(get(id).parallel && !get(id).oversubscription, "{id}");
        }
        assert!(
            get("scc-blowfish-sv-speedup-folded")
                .claim
                .contains("folded")
        );
        assert_eq!(
            get("scc-blowfish-fig8-best-chunk").rule.part_names(),
            chunk_sides()
        );
    }
}
