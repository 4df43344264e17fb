//! SCC Blowfish's own numbers against each other: the speedup its seconds give and the most a
//! 34-round pipeline of 128 chunks can gain, its watts and joules against its seconds, and its
//! printed core order against its core count and its one-hop rule (on the SCC's numbering, in
//! [`crate::scc::mesh`]). Each figure carries the rounding of the printed numbers it comes
//! from. Also the evidence of the claims no measurement moves (the layout, the SCC's facts).
use super::parsa_tables::corners;
use crate::claims::scc_blowfish as paper;
use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::preset;
use crate::error::Result;
use crate::scc::mesh::{PAPER_LIST, Placement, PlacementKind};
use crate::study::{Estimate, Evidence, Fed, fed};

/// Half a unit in the last printed digit of `v` as printed with `decimals` decimals.
pub fn half_digit(v: f64, decimals: i32) -> (f64, f64) {
    (v, 0.5 * 10f64.powi(-decimals))
}

/// Evidence for every claim of the paper's arithmetic, and for the claims no measurement
/// moves.
pub fn evidence() -> Result<Vec<Fed>> {
    let scc = preset("scc", None)?;
    let p = |cores: f64| {
        estimate(
            &scc,
            &PowerQuery {
                active_cores: Some(cores),
                ..Default::default()
            },
        )
        .map(|e| e.p_total_w)
        .map_err(crate::error::Error::from)
    };
    let (p1, p36) = (p(1.0)?, p(36.0)?);
    let seq_s = half_digit(paper::SEQUENTIAL_S, 6);
    let pipe_s = half_digit(paper::PIPELINED_S, 4);
    let seq_w = half_digit(paper::SEQUENTIAL_W, 2);
    let pipe_w = half_digit(paper::PIPELINED_W, 2);
    let (seq_j, pipe_j) = (
        half_digit(paper::SEQUENTIAL_J, 3),
        half_digit(paper::PIPELINED_J, 3),
    );
    let ratio = |x: &[f64]| x[0] / x[1];
    let product = |x: &[f64]| x[0] * x[1];
    let speedup = corners(&[seq_s, pipe_s], ratio);
    let printed = Placement::new(PlacementKind::List(PAPER_LIST.to_vec()), PAPER_LIST.len())?;
    let hops = printed.link_hops();
    let long: Vec<String> = hops
        .iter()
        .enumerate()
        .filter(|(_, h)| **h > 1)
        .map(|(i, h)| format!("{} → {} ({h} hops)", PAPER_LIST[i], PAPER_LIST[i + 1]))
        .collect();
    let pipe_joules = corners(&[pipe_w, pipe_s], product);
    let arithmetic = |e: Estimate, how: &str| Evidence::arithmetic(vec![e], how);
    let mut v = super::reported(&[
        (
            "scc-blowfish-s2-blowfish",
            "crates/parcrypt/src/cipher/blowfish.rs, crates/parcrypt/tests/cipher_vectors.rs",
        ),
        (
            "scc-blowfish-s2-subkeys",
            "Blowfish::new, src/cipher/blowfish.rs",
        ),
        (
            "scc-blowfish-s3-scc",
            "encoded in the scc preset and the SCC model's parameters",
        ),
        (
            "scc-blowfish-s3-idle-dvfs",
            "no setting of the idle cores to compare",
        ),
    ]);
    v.extend([
        fed("scc-blowfish-s3-layout", Evidence::report("crates/parcrypt/src/cipher/parallel/bf_pipeline.rs")
            .text("the same 36 stages as threads joined by bounded channels; k rounds folded per stage for fewer cores")),
        fed("scc-blowfish-s4-core-list", arithmetic(Estimate::exact(PAPER_LIST.len() as f64),
            "the cores of the printed order, counted (Core 0 takes the input and Core 29 gives the output, both in the list)")
            .text(format!("{} cores: 0–25, 36–39, 26–29", PAPER_LIST.len()))),
        fed("scc-blowfish-s4-one-hop", arithmetic(Estimate::exact(printed.max_hops() as f64),
            "the printed order on the SCC's core numbering (core = 2·(6y + x) + z, two cores per tile, XY routing)")
            .text(format!("longest link {} hops: {}", printed.max_hops(), long.join(", ")))),
        fed("scc-blowfish-sv-speedup-arith", arithmetic(speedup, "1.904956 s / 0.0702 s, each ± half its last digit")),
        fed("scc-blowfish-sv-ceiling", arithmetic(speedup, "the paper's speedup from its seconds, each ± half its last digit")
            .text(format!("{} against the 36-stage ceiling {:.3}× (input and output stages as long as a round); above the 34-round-stage ceiling {:.3}×, which holds only if the input and output stages take no time: the figure needs each to take at least {:.1} % of a round (at the low end of the printed seconds' rounding; {:.1} % at the printed 27.14×)",
                speedup.text("×"),
                paper::fill_drain_ceiling(paper::STAGES, paper::chunks_at_best()),
                paper::fill_drain_ceiling(paper::ROUND_STAGES, paper::chunks_at_best()),
                paper::io_share_needed(speedup.low, paper::chunks_at_best()) * 100.0,
                paper::io_share_needed(paper::SPEEDUP, paper::chunks_at_best()) * 100.0))),
        fed("scc-blowfish-fig10-power", Evidence::report("scc preset (solved from the paper's two wattages)")
            .text(format!("{p1:.2} W against {p36:.2} W ({:.2}×)", p36 / p1))),
        fed("scc-blowfish-fig10-ratio", arithmetic(corners(&[pipe_w, seq_w], ratio), "30.24 W / 20.56 W, each ± half its last digit")),
        fed("scc-blowfish-fig11-sequential-joules", arithmetic(corners(&[seq_w, seq_s], product), "20.56 W × 1.904956 s, each ± half its last digit")),
        fed("scc-blowfish-fig11-pipelined-joules", arithmetic(pipe_joules, "30.24 W × 0.0702 s, each ± half its last digit")
            .text(format!("{}; the printed {} J would need {:.4} s at 30.24 W, and give {:.2}× less energy with the sequential 39.165 J, not the 27.14 / 1.47 = {:.2}× the speedup and the power ratio give",
                pipe_joules.text("J"), paper::PIPELINED_J, paper::PIPELINED_J / paper::PIPELINED_W,
                paper::SEQUENTIAL_J / paper::PIPELINED_J, paper::SPEEDUP / paper::POWER_RATIO))),
        fed("scc-blowfish-fig11-energy", arithmetic(corners(&[seq_j, pipe_j], ratio), "39.165 J / 2.476 J, each ± half its last digit")),
    ]);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims;
    use crate::study::{Verdict, judge};

    #[test]
    fn half_digit_is_half_the_last_printed_digit() {
        assert_eq!(half_digit(0.0702, 4), (0.0702, 0.00005));
        assert_eq!(half_digit(39.165, 3), (39.165, 0.0005));
    }

    /// The paper's arithmetic: consistent where its numbers agree, inconsistent where they do
    /// not — and the inconsistent ones fail by more than the printed rounding.
    #[test]
    fn the_papers_numbers_agree_and_disagree_where_they_should() {
        let want = [
            ("scc-blowfish-s4-core-list", Verdict::Inconsistent),
            ("scc-blowfish-s4-one-hop", Verdict::Inconsistent),
            ("scc-blowfish-sv-speedup-arith", Verdict::Consistent),
            ("scc-blowfish-sv-ceiling", Verdict::Consistent),
            ("scc-blowfish-fig10-ratio", Verdict::Consistent),
            ("scc-blowfish-fig11-sequential-joules", Verdict::Consistent),
            ("scc-blowfish-fig11-pipelined-joules", Verdict::Inconsistent),
            ("scc-blowfish-fig11-energy", Verdict::Consistent),
        ];
        let ev = evidence().unwrap();
        for (id, v) in want {
            let e = &ev.iter().find(|f| f.claim == id).unwrap().evidence;
            assert_eq!(judge(claims::find(id).unwrap(), e), v, "{id}: {e:?}");
        }
        assert_eq!(
            super::super::assert_defects(&ev),
            [paper::CORE_ORDER, "fig11-2.476-joules"]
        );
        let hop = &ev
            .iter()
            .find(|f| f.claim == "scc-blowfish-s4-one-hop")
            .unwrap()
            .evidence;
        assert!(hop.text.contains("11 → 12 (6 hops)"), "{}", hop.text);
        // The fed ids are exactly this file's claims of the experiment's.
        for f in &ev {
            assert_eq!(claims::find(&f.claim).unwrap().experiment, paper::PIPELINE);
        }
    }
}
