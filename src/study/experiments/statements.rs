//! Evidence for the statements registered in [`crate::claims::statements`] that the papers'
//! own numbers and words decide (the SCC model's one comes from its experiment): the judge adds
//! it to what the named experiment feeds ([`crate::study::judge_experiment`]).
use crate::claims::parsa::TABLE8;
use crate::claims::statements::{PARSA_MESSAGES, least_parallel_energy_ratio};
use crate::study::experiment::{Fed, fed};
use crate::study::judge::{Estimate, Evidence};

/// Threads of a Table 8 workload ("PaRSA-8" → 8).
fn threads(workload: &str) -> f64 {
    workload
        .rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(f64::NAN)
}

/// The statements' evidence that `experiment` is to feed, from the papers' own numbers.
pub fn evidence(experiment: &str) -> Vec<Fed> {
    match experiment {
        "parsa-text" => {
            let (lo_n, mid_n, hi_n) = PARSA_MESSAGES;
            // The row that leaves the most thread time per message: the most favourable to
            // the paper.
            let cycles = |n: f64| {
                TABLE8
                    .iter()
                    .map(|r| r.time_s * threads(r.workload) * r.freq_mhz * 1e6 / n)
                    .fold(0.0, f64::max)
            };
            vec![
                fed(
                    "parsa-table8-per-message-time",
                    Evidence::arithmetic(
                        vec![Estimate::new(cycles(mid_n), cycles(hi_n), cycles(lo_n))],
                        "Table 8's time × threads × clock / messages, the most per message of its four rows, over 100–500 million messages",
                    )
                    .text(format!(
                        "{:.0} cycles per message [{:.0} at 500 million, {:.0} at 100 million] ({:.2} µs of a 2.4 GHz thread at 200 million)",
                        cycles(mid_n),
                        cycles(hi_n),
                        cycles(lo_n),
                        cycles(mid_n) / 2400.0
                    )),
                ),
                fed(
                    "parsa-s3-same-binary",
                    Evidence::report("not testable here: no simulator"),
                ),
            ]
        }
        "scc-blowfish-pipeline" => vec![fed(
            "scc-blowfish-power-after-run",
            Evidence::arithmetic(
                vec![Estimate::exact(1.0)],
                "Section IV's definition (a reading after the cores finish) against Fig. 10's (the run's average)",
            )
            .text("two definitions of one power figure"),
        )],
        "crsa-table2" => vec![fed(
            "crsa-table2-quad-core",
            Evidence::arithmetic(
                vec![Estimate::exact(4.0)],
                "the quad core's 4 cores working at once, against one cube's 8 PEs",
            ),
        )],
        "cipher-energy-ciphers" => vec![
            fed(
                "cipher-energy-faster-less-energy",
                Evidence::arithmetic(
                    vec![Estimate::exact(least_parallel_energy_ratio())],
                    "Tables 2–3: µJ/B of PBlock, PARC4 and PARC4-I over Blowfish, RC4 and RC4A on both platforms, the least of the six",
                ),
            ),
            fed(
                "cipher-energy-desktop-meter",
                Evidence::arithmetic(
                    vec![Estimate::exact(0.0)],
                    "Section 3: no external power meter was employed",
                ),
            ),
        ],
        _ => Vec::new(),
    }
}
