//! Statements of the papers that a skeptical reading found and the first registries missed:
//! each registered as a claim of its paper and judged like the others (its evidence comes from
//! `study::experiments::statements` and, for the modelled one, the SCC model's experiment).
use super::{Claim, Rule};
use crate::claims::cipher_energy::TABLES_2_3;

/// The working sets the paper's runs used, messages: Fig. 5's 100–500 million (Fig. 6 names
/// 200 million), the range Table 8's per-message time is judged over.
pub const PARSA_MESSAGES: (f64, f64, f64) = (100e6, 200e6, 500e6);

/// The fewest cycles one RSA encryption with a 1024-bit modulus and e = 65537 can take: 17
/// modular products of 16 limbs, each at least 2·16² = 512 64-bit multiplications, at one
/// multiplication a cycle.
pub const RSA1024_MIN_CYCLES: f64 = 17.0 * 512.0;

/// The fewest cores (PEs working at once) one cube of CRSA needs: 8.
pub const CRSA_PES_ONE_CUBE: f64 = 8.0;

/// The seven statements, as claims of their papers.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::new("parsa-table8-per-message-time", "parsa", "parsa-text", "Table 8, Section 4.2 (Fig. 6)", "Table 8's runs encrypt the working set with RSA at the times printed")
            .paper("PaRSA-8 on the Core i7 (2400 MHz): 17.94 s for a working set of 100–500 million messages (200 million in Fig. 6)")
            .paper_values(&[17.94, 2400.0])
            .metric("thread cycles per message that Table 8's fastest-per-message row implies: time × threads × clock / messages, over the paper's 100–500 million messages (200 million the value)", "cycles")
            .rule(Rule::AtLeast { min: RSA1024_MIN_CYCLES }, "8,704 cycles: a 1024-bit RSA encryption with e = 65537 is 17 modular products of 16 limbs, at least 512 64-bit multiplications each at one a cycle; the paper states no key size, and even 512 bits would need 2,176")
            .paper_check()
            .defect("table8-per-message-time"),
        Claim::new("parsa-s3-same-binary", "parsa", "parsa-text", "Section 3", "The same binary runs directly and in the simulator, with identical results from the two")
            .paper("the same binary can be used for both direct execution and performance simulation … identical results from the two evaluation methods")
            .not_testable("there is no simulator here (the paper's multi2sim runs stand behind its McPAT power, which parcrypt models instead and says so); what parcrypt does hold is one build of SeRSA and PaRSA whose every parallel result equals the sequential one byte for byte (the batch RSA tests)"),
        Claim::new("scc-blowfish-power-after-run", "scc-blowfish", "scc-blowfish-pipeline", "Section IV, Fig. 10", "The power figure is measured after all executing cores have finished — and it is the average power of the entire execution")
            .paper("\"the power measurement is performed after all the executing cores have finished their computation\" (Section IV) against \"the average power consumption of the entire execution\" (Fig. 10)")
            .metric("definitions of the power figure the paper gives that disagree with each other (after the run; the run's average)", "")
            .rule(Rule::Diff { target: 0.0, tol: 0.0 }, "one figure, one definition: a reading taken after the cores finish cannot be the average over the run")
            .paper_check()
            .defect("fig11-2.476-joules"),
        Claim::new("scc-blowfish-large-chunks-slower", "scc-blowfish", "scc-blowfish-pipeline", "Section IV", "Large chunks can make the pipeline take longer than the sequential run")
            .paper("\"This can eventually lead to a longer execution time of the pipelined model, comparing to the sequential model\"")
            .metric("the largest modelled pipeline time over the modelled sequential time on the SCC, chunks of 64 KiB up to the whole 1 MB message", "×")
            .rule(Rule::AtLeast { min: 1.0 }, "\"longer than sequential\": at least 1× at some chunk size")
            .plausible(&[(0.05, 2.0)], "from a pipeline 20 times faster at 64 KiB chunks (16 in flight) to one chunk crossing 35 links on its way through every stage")
            .modelled(crate::claims::scc_blowfish::MODEL)
            .paper_setting(),
        Claim::new("crsa-table2-quad-core", "crsa", "crsa-table2", "Section 5, Table 2", "Table 2's CRSA ran on a quad core, which represents four PEs — with one cube")
            .paper("\"The hardware platform is a quad core, which represents four PEs\"; \"the number of cubes is considered to be one\"")
            .metric("PEs the quad core runs at once, against the 8 PEs of one cube (the coordinator besides)", "PEs")
            .rule(Rule::Diff { target: CRSA_PES_ONE_CUBE, tol: 0.0 }, "one cube is 8 PEs working at once (Section 2); fewer cores time-share them")
            .paper_check()
            .defect("table2-quad-core"),
        Claim::new("cipher-energy-faster-less-energy", "cipher-energy", "cipher-energy-ciphers", "Conclusion, Tables 2–3", "Faster algorithms cost less energy")
            .paper("\"faster algorithms cost less energy since they operate at a higher level of power for a shorter period of time\"")
            .metric("the least µJ/B of a parallel form over its sequential form's in Tables 2–3 (every parallel form is the faster), both platforms", "×")
            .rule(Rule::AtMost { max: 1.0 }, "1: the faster form costing less energy is a ratio at most 1, for at least the most favourable pair")
            .paper_check()
            .defect("faster-less-energy"),
        Claim::new("cipher-energy-desktop-meter", "cipher-energy", "cipher-energy-ciphers", "Section 3", "The desktop's energy figures are calibrated as the Joulemeter requires")
            .paper("\"A Watts UP PRO power metre is necessary for desktop computers … In this study, no external power metre is employed\"")
            .metric("external power meters used for the desktop's calibration, against the one the paper says it needs", "meters")
            .rule(Rule::Diff { target: 1.0, tol: 0.0 }, "the paper's own requirement: one meter to calibrate a desktop")
            .paper_check()
            .defect("desktop-meter"),
    ]
}

/// The least µJ/B ratio of a parallel form over its sequential form in Tables 2–3.
pub fn least_parallel_energy_ratio() -> f64 {
    let uj = |name: &str, platform: usize| {
        TABLES_2_3
            .iter()
            .find(|r| r.0 == name)
            .map_or(f64::NAN, |r| if platform == 1 { r.1 } else { r.3 })
    };
    [
        ("pblock-ecb", "blowfish-ecb"),
        ("parc4", "rc4"),
        ("parc4i", "rc4a"),
    ]
    .iter()
    .flat_map(|(p, s)| [1, 2].map(|pl| uj(p, pl) / uj(s, pl)))
    .fold(f64::INFINITY, f64::min)
}
