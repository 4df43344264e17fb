//! Seed 001 (001_2924d02dfffc30b0.txt): Blowfish pipelined round by round over 36 cores of
//! Intel's SCC, chunk sizes (Fig. 8), time, power and energy against sequential Blowfish.
use super::{Claim, Rule};

/// Stages of the SCC pipeline: 17 encrypt rounds + 17 decrypt rounds + input + output.
pub const STAGES: usize = 36;
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

/// The model the modelled claims are judged on ([`crate::scc`], `parcrypt scc`): its label,
/// which [`crate::scc::power::MODEL_LABEL`] is.
pub const MODEL: &str = "model:scc";

fn c(id: &str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "seed001", "seed001-pipeline", reference, claim)
}

/// The claims of seed 001, in report order.
pub fn claims() -> Vec<Claim> {
    vec![
        c("seed001-fig8-best-chunk", "Fig. 8", "The best chunk size is 8 KB")
            .paper("8 KB: smaller chunks under-use the links, larger ones congest them")
            .metric("36-stage pipeline time at 8 KB chunks / the least time at any other chunk", "×")
            .rule(Rule::AtMost { max: 1.05 }, "5 %: the claim names the optimum of a curve; a chunk within 5 % of the fastest sits at that optimum for any practical purpose")
            .parallel(),
        c("seed001-sv-speedup", "Section V, Abstract", "The 36-core pipeline is 27× faster than sequential Blowfish")
            .paper(format!("{SEQUENTIAL_S} s against {PIPELINED_S} s ({SPEEDUP}×)"))
            .metric("sequential time / 36-stage pipeline time, one core per stage", "×")
            .rule(Rule::Ratio { target: SPEEDUP, factor: 1.5 }, "a factor 1.5: the SCC's P54C cores and mesh differ from any machine here, so only the size of the gain carries over")
            .speedup(),
        c("seed001-fig8-best-chunk-scc", "Fig. 8", "The best chunk size is 8 KB — on the SCC the paper had, as modelled")
            .paper("8 KB: smaller chunks under-use the links, larger ones congest them")
            .metric("modelled time at 8 KB chunks / the least modelled time at any other of 1–64 KiB (powers of two) on the SCC; interval: the range over a ±50 % change of each model parameter", "×")
            .rule(Rule::AtMost { max: 1.05 }, "5 %, as for the measured claim: a chunk within 5 % of the fastest sits at the optimum for any practical purpose")
            .modelled(MODEL),
        c("seed001-sv-speedup-scc", "Section V, Abstract", "The 36-core pipeline is 27× faster than sequential Blowfish — on the SCC the paper had, as modelled")
            .paper(format!("{SEQUENTIAL_S} s against {PIPELINED_S} s ({SPEEDUP}×)"))
            .metric("modelled sequential time / modelled 36-stage pipeline time at 8 KB chunks on the SCC; interval: the range over a ±50 % change of each model parameter", "×")
            .rule(Rule::Ratio { target: SPEEDUP, factor: 1.5 }, "a factor 1.5, as for the measured claim: the model's parameters come from published SCC figures, not from the paper's chip, so only the size of the gain can be checked")
            .modelled(MODEL),
        c("seed001-s3-layout", "Section III", "36 cores: 17 encrypt-round stages, 17 decrypt-round stages, an input and an output core, neighbours one hop apart")
            .paper(format!("{STAGES}-stage layout on the SCC mesh"))
            .by_construction("the pipeline is built with this layout (threads joined by bounded channels); the mesh hops have no analogue here"),
        c("seed001-s3-scc", "Section III", "SCC: 24 tiles × 2 P54C cores, 16 KB message buffer per tile; active cores 533 MHz at 0.9 V, idle 100 MHz at 0.7 V")
            .paper("as listed")
            .not_testable("hardware facts, encoded in the scc preset; only an SCC, which exists in Intel's lab alone, would test them"),
        c("seed001-fig10-power", "Fig. 10", "The pipeline draws 1.47× the sequential power")
            .paper(format!("{SEQUENTIAL_W} W against {PIPELINED_W} W"))
            .by_construction("the scc preset's static and per-core power are solved from these two wattages, so the model returns them"),
        c("seed001-fig11-energy", "Fig. 11, Abstract", "The pipeline uses 15.8× less energy")
            .paper(format!("{SEQUENTIAL_J} J against {PIPELINED_J} J ({ENERGY_RATIO}×)"))
            .metric("(sequential power × time) / (pipelined power × time) from the paper's own watts and seconds", "×")
            .rule(Rule::Ratio { target: ENERGY_RATIO, factor: 1.01 }, "1 %: the printed figures have 3–4 significant digits")
            .paper_check(),
        c("seed001-fig11-energy-scc", "Fig. 11, Abstract", "The pipeline uses close to 16× less energy — on the SCC the paper had, as modelled")
            .paper(format!("{SEQUENTIAL_J} J against {PIPELINED_J} J ({ENERGY_RATIO}×)"))
            .metric("(Fig. 10's sequential watts × modelled sequential time) / (Fig. 10's pipeline watts × modelled pipeline time) at 8 KB chunks; interval: the range over a ±50 % change of each model parameter, the two wattages included", "×")
            .rule(Rule::Ratio { target: ENERGY_RATIO, factor: 1.5 }, "a factor 1.5, as for the speedup it follows from: the watts are the paper's, so only the modelled times move the ratio")
            .modelled(MODEL),
    ]
}
