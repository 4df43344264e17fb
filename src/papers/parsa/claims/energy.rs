//! PaRSA's claims on energy (section 5.3, Table 8, Figs. 11–14) and the abstract's power
//! and energy lines: arithmetic on the paper's own tables and text.
use super::{
    ABSTRACT_ENERGY_SAVING_PCT, ABSTRACT_POWER_SAVING_PCT, CLOCK_PAIRS, Claim, I3_TEXT_ENERGY_J,
    I3_VS_I5_ENERGY_SAVING_PCT, I3_VS_I5_TIME_SAVING_PCT, Rule, TABLE8, TABLE8_CHOICES,
    TABLE8_SAVINGS, c, rounding,
};

const EXP: &str = "parsa-energy";

/// The claims.
pub fn claims() -> Vec<Claim> {
    let mut v = vec![c("parsa-figs11-14-22nm-least-energy", EXP, "Figs. 11–14, section 5.3", "At every clock, every processor uses the least energy at 22 nm")
        .paper("\"at all clock frequencies, PaRSA-2 has consumed its lowest energy when the processor was implemented using the 22 nm process technology\"; likewise Figs. 12–14")
        .paper_values(&[22.0])
        .metric("(processor, clock) pairs at which the 22 nm row is not the least total power of its clock in Tables 4–7 as printed (at one clock the paper's time is the same at every node, so the least power is the least energy)", "pairs")
        .rule(Rule::AtMost { max: 0.0 }, "exact: a count over the tables as printed")
        .paper_check()];
    for r in TABLE8 {
        let id = format!("parsa-table8-{}", r.processor.replace('_', "-"));
        let reference = if r.printed_in == "Table 8" {
            "Table 8".to_string()
        } else {
            format!("Table 8 ({})", r.printed_in)
        };
        let claim = c(&id, EXP, &reference,
            &format!("{} on {} ({} nm, {} MHz) uses {} J in {} s", r.workload, r.processor, r.node_nm, r.freq_mhz, r.energy_j, r.time_s))
            .paper(format!("{} J in {} s", r.energy_j, r.time_s))
            .paper_values(&[r.energy_j, r.time_s])
            .metric("Tables 4–7 total power as printed × the paper's time (Eq. 9)", "J")
            .rule(Rule::Diff { target: r.energy_j, tol: 0.001 }, "1 mJ: the energies are printed to 3–4 decimals; the tables' 0.01 W rounding is carried by the interval of the product")
            .paper_check();
        // Section 5.3's 593.091 J for the Core i5 against Table 6's 563.091 J; Table 7's
        // 6.63 W against the 6.53 W Table 8 and section 5.3 need.
        v.push(match r.processor {
            "core_i5" => claim.defect(CORE_I5_593_J),
            "core_i7" => claim.defect(CORE_I7_6_63_W),
            _ => claim,
        });
    }
    for p in CLOCK_PAIRS {
        let (tol, why) = rounding(super::printed_decimals(p.power_up_pct));
        v.push(
            c(
                &format!("parsa-s53-{}-power", p.preset),
                EXP,
                "Section 5.3",
                &format!(
                    "{} at 22 nm: {} MHz draws {} % more power than {} MHz",
                    p.preset, p.high_mhz, p.power_up_pct, p.low_mhz
                ),
            )
            .paper(format!(
                "+{} % power, {} % time",
                p.power_up_pct, p.time_pct
            ))
            .paper_values(&[p.power_up_pct])
            .metric("P(high) / P(low) − 1 from Tables 4–7 as printed", "%")
            .rule(
                Rule::Diff {
                    target: p.power_up_pct,
                    tol,
                },
                why,
            )
            .paper_check(),
        );
        if p.processor == "core_i7" {
            let last = v.pop().expect("just pushed");
            v.push(last.defect(CORE_I7_6_63_W));
        }
    }
    v.push(c("parsa-s53-time-outweighs-power", EXP, "Section 5.3", "At 22 nm the time saved by the highest clock outweighs the power it adds, so it uses the least energy")
        .paper(format!("\"the magnitude of execution time reduction is higher than power consumption increases\": {}",
            CLOCK_PAIRS.iter().map(|p| format!("{} +{} % power, {} % time", p.preset, p.power_up_pct, p.time_pct)).collect::<Vec<_>>().join("; ")))
        .paper_values(&CLOCK_PAIRS.iter().flat_map(|p| [p.power_up_pct, p.time_pct]).collect::<Vec<_>>())
        .metric("energy at the highest over the lowest clock, (1 + power rise) × (1 + time change), from the text's figures", "×")
        .rule(Rule::Each { parts: CLOCK_PAIRS.iter().map(|p| p.preset.to_string()).collect(), rules: vec![Rule::AtMost { max: 1.0 }; 4] },
            "exact: \"outweighs\" means the product is below 1; the figures' rounding is carried by the interval")
        .paper_check());
    v.push(c("parsa-s53-i3-vs-i5", EXP, "Section 5.3", "PaRSA-4 on the Core i3 (22 nm, 3300 MHz) uses 35.5 % less energy and 24.7 % less time than on the Core i5 (22 nm, 2400 MHz)")
        .paper(format!("{I3_TEXT_ENERGY_J} J in 23.42 s against 593.091 J in 31.11 s: {I3_VS_I5_ENERGY_SAVING_PCT} % less energy, {I3_VS_I5_TIME_SAVING_PCT} % less time"))
        .paper_values(&[I3_VS_I5_ENERGY_SAVING_PCT, I3_VS_I5_TIME_SAVING_PCT, I3_TEXT_ENERGY_J, 593.091])
        .metric("1 − Core i3 / Core i5, energy and time, from the figures the same paragraph prints", "%")
        .rule(Rule::Each { parts: vec!["energy".into(), "time".into()], rules: vec![
            Rule::Diff { target: I3_VS_I5_ENERGY_SAVING_PCT, tol: 0.05 },
            Rule::Diff { target: I3_VS_I5_TIME_SAVING_PCT, tol: 0.05 },
        ] }, rounding(1).1)
        .paper_check()
        .defect(CORE_I5_593_J));
    v.push(c("parsa-s53-table8-savings", EXP, "Section 5.3, Table 8", "PaRSA-8 takes 60.2 % and 23.4 % less time, and 51.3 % and 6.03 % less energy, than PaRSA-2 and PaRSA-4")
        .paper(TABLE8_SAVINGS.iter().map(|(what, vs, p)| format!("{p} % less {what} than {vs}")).collect::<Vec<_>>().join(", "))
        .paper_values(&TABLE8_SAVINGS.iter().map(|s| s.2).collect::<Vec<_>>())
        .metric("1 − PaRSA-8 / PaRSA-n from Table 8's times and energies", "%")
        .rule(Rule::Each {
            parts: TABLE8_SAVINGS.iter().map(|(what, vs, _)| format!("{what} vs {vs}")).collect(),
            rules: TABLE8_SAVINGS.iter().map(|&(_, _, p)| Rule::Diff { target: p, tol: rounding(super::printed_decimals(p)).0 }).collect(),
        }, "half the last printed digit; Table 8's own rounding is carried by the interval")
        .paper_check());
    v.push(c("parsa-abstract-power", EXP, "Abstract", "The lowest clock saves 19.7 % power against the highest")
        .headline()
        .paper(format!("{ABSTRACT_POWER_SAVING_PCT} % less power (the optimal configuration: Core i7, 22 nm)"))
        .paper_values(&[ABSTRACT_POWER_SAVING_PCT])
        .metric("1 − P(1200 MHz) / P(2400 MHz), Core i7 at 22 nm, Table 7 as printed (the optimal configuration the abstract names)", "%")
        .rule(Rule::Diff { target: ABSTRACT_POWER_SAVING_PCT, tol: rounding(1).0 }, rounding(1).1)
        .paper_check()
        .defect(ABSTRACT_RISE_AS_SAVING));
    v.push(c("parsa-abstract-energy", EXP, "Abstract", "Running at the highest clock saves 40.13 % energy against the lowest")
        .headline()
        .paper(format!("{ABSTRACT_ENERGY_SAVING_PCT} % less energy (the optimal configuration: Core i7, 22 nm)"))
        .paper_values(&[ABSTRACT_ENERGY_SAVING_PCT])
        .metric("1 − E(2400 MHz) / E(1200 MHz), Core i7 at 22 nm: E(2400) = Table 8's energy, E(1200) = Table 7's 1200 MHz power × Table 8's time / (1 − section 5.3's 49.9 %)", "%")
        .rule(Rule::Diff { target: ABSTRACT_ENERGY_SAVING_PCT, tol: rounding(2).0 }, rounding(2).1)
        .paper_check());
    v.push(c("parsa-abstract-dfs", EXP, "Abstract, sections 5.2–5.3, Table 8", "The optimal multicore processor for parallel cryptography should support dynamic frequency scaling")
        .paper("\"the optimal Multicore processor ... should support dynamic frequency scaling\"; \"the clock rate should be adjusted appropriately based on the design constraints\": energy-optimal at the highest clock (Table 8), power-optimal at the lowest (section 5.2)")
        .metric("per processor at 22 nm: the energy-optimal clock the paper names (Table 8, Figs. 11–14) over the power-optimal one, the least total power over the legible rows of Tables 4–7", "×")
        .rule(Rule::Each {
            parts: TABLE8_CHOICES.iter().map(|(p, _, _)| p.to_string()).collect(),
            rules: vec![Rule::AtLeast { min: DFS_STEP }; 4],
        }, "a different clock: at least one step of Table 1's clocks apart (1500 / 1200 MHz = 1.25, the smallest step), so that one chip serving both goals must change its clock; the recommendation follows from the paper's own optima, which no measurement here can move (no clock is settable on this machine)")
        .paper_check());
    v
}

/// The smallest step between two of Table 1's clocks (Core i5 and i7: 1200 → 1500 MHz).
pub const DFS_STEP: f64 = 1.25;

/// Section 5.3's 593.091 J for PaRSA-4 on the Core i5, where Table 6's power × 31.11 s gives
/// 563.091 J (and section 5.3's own 35.5 % needs 563.091 J).
pub const CORE_I5_593_J: &str = "core-i5-593-joules";
/// Table 7's 6.63 W at 22 nm and 2400 MHz, where Table 8's energy and section 5.3's +19.7 %
/// both need 6.53 W.
pub const CORE_I7_6_63_W: &str = "core-i7-6.63-watts";
/// The abstract's 19.7 % "power saving" at the lowest clock, which is section 5.3's rise
/// from the lowest to the highest clock (the saving is 16.4–16.9 %).
pub const ABSTRACT_RISE_AS_SAVING: &str = "abstract-19.7-rise-as-saving";
