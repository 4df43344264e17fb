//! PaRSA (000_8b667657cebccd0b.txt): PaRSA on four Intel multicores, OpenMP schedules, the
//! design space over cores, threads, clock and node, McPAT power (Tables 4–7, in
//! `crates/parcrypt-harness/src/energy/parsa_power_tables.csv`), energy (Table 8), RAMP lifetime (Tables 3 and 9).
//!
//! The paper's figures live here once; the claims are built in the submodules, one per part
//! of the paper: `measured` (sections 4.1 and 5.1, timed here), `power` (section 5.2 and
//! Tables 4–7), `energy` (section 5.3, Table 8, the abstract), `reliability` (sections
//! 4.3 and 5.4, Tables 3 and 9) and `design` (the design space and the text's own
//! arithmetic). `../coverage.md` (this paper's folder) maps every claim-bearing place of the paper
//! to them.

/// The paper, as cited (its entry in [`super::papers::PAPERS`]).
pub const PAPER: super::papers::Paper = super::papers::Paper {
    id: "parsa",
    short: "PaRSA on multicores",
    authors: "Mutaz Al-Tarawneh and Ashraf Alkhresheh",
    title: "Towards an Optimal Multicore Processor Design for Cryptographic Algorithms – A Case Study on RSA",
    venue: "WSEAS journal article (the copy names no issue)",
    topic: "PaRSA schedules, design space, power, energy and lifetime",
};

use super::{Claim, Rule};

mod design;
mod energy;
mod measured;
mod power;
mod reliability;

/// A configuration whose energy the paper prints (Table 8, and the Core i5 figure of section
/// 5.3's text).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Table8Row {
    /// Workload (PaRSA-n).
    pub workload: &'static str,
    /// Processor key in the power tables (`core2duo`, `core_i3`, …).
    pub processor: &'static str,
    /// Process node, nm.
    pub node_nm: u32,
    /// Clock, MHz.
    pub freq_mhz: f64,
    /// Energy as printed, J.
    pub energy_j: f64,
    /// Execution time as printed, s.
    pub time_s: f64,
    /// Where the paper prints it.
    pub printed_in: &'static str,
}

/// Table 8 (energy-optimal configurations), plus the Core i5 figure of section 5.3's text.
pub const TABLE8: [Table8Row; 4] = [
    Table8Row {
        workload: "PaRSA-2",
        processor: "core2duo",
        node_nm: 22,
        freq_mhz: 2800.0,
        energy_j: 700.994,
        time_s: 45.08,
        printed_in: "Table 8",
    },
    Table8Row {
        workload: "PaRSA-4",
        processor: "core_i3",
        node_nm: 22,
        freq_mhz: 3300.0,
        energy_j: 363.4784,
        time_s: 23.42,
        printed_in: "Table 8",
    },
    Table8Row {
        workload: "PaRSA-4",
        processor: "core_i5",
        node_nm: 22,
        freq_mhz: 2400.0,
        energy_j: 593.091,
        time_s: 31.11,
        printed_in: "section 5.3 text",
    },
    Table8Row {
        workload: "PaRSA-8",
        processor: "core_i7",
        node_nm: 22,
        freq_mhz: 2400.0,
        energy_j: 341.5776,
        time_s: 17.94,
        printed_in: "Table 8",
    },
];

/// Section 5.3: "Core i3 uses 35.5 % less energy than Core i5" (both PaRSA-4, 22 nm)…
pub const I3_VS_I5_ENERGY_SAVING_PCT: f64 = 35.5;
/// … "and 24.7 % less time".
pub const I3_VS_I5_TIME_SAVING_PCT: f64 = 24.7;
/// Section 5.3's text prints the Core i3 energy as 363.478 J (Table 8: 363.4784 J).
pub const I3_TEXT_ENERGY_J: f64 = 363.478;

/// Section 5.3 on Table 8: PaRSA-8 against PaRSA-2 and PaRSA-4, % less time and energy.
pub const TABLE8_SAVINGS: [(&str, &str, f64); 4] = [
    ("time", "PaRSA-2", 60.2),
    ("time", "PaRSA-4", 23.4),
    ("energy", "PaRSA-2", 51.3),
    ("energy", "PaRSA-4", 6.03),
];

/// A clock pair at 22 nm and the power increase from the low to the high clock the paper
/// prints (sections 5.2–5.3), with the time change it gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockPair {
    /// Processor key in the power tables.
    pub processor: &'static str,
    /// Preset name.
    pub preset: &'static str,
    /// Low clock, MHz.
    pub low_mhz: f64,
    /// High clock, MHz.
    pub high_mhz: f64,
    /// Power increase from low to high, %.
    pub power_up_pct: f64,
    /// Time change from low to high, % (measured on the real chip).
    pub time_pct: f64,
}

/// The printed power increases and time reductions at 22 nm, lowest to highest clock.
pub const CLOCK_PAIRS: [ClockPair; 4] = [
    ClockPair {
        processor: "core2duo",
        preset: "core2duo",
        low_mhz: 800.0,
        high_mhz: 2800.0,
        power_up_pct: 58.03,
        time_pct: -71.70,
    },
    ClockPair {
        processor: "core_i3",
        preset: "core-i3",
        low_mhz: 1600.0,
        high_mhz: 3300.0,
        power_up_pct: 37.2,
        time_pct: -51.3,
    },
    ClockPair {
        processor: "core_i5",
        preset: "core-i5",
        low_mhz: 1200.0,
        high_mhz: 2400.0,
        power_up_pct: 19.6,
        time_pct: -50.8,
    },
    ClockPair {
        processor: "core_i7",
        preset: "core-i7",
        low_mhz: 1200.0,
        high_mhz: 2400.0,
        power_up_pct: 19.7,
        time_pct: -49.9,
    },
];

/// Section 5.2: the power-efficient configuration (22 nm, lowest clock) against the same
/// processor at 90 nm, lowest and highest clock, % less power.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerSaving {
    /// Processor key in the power tables.
    pub processor: &'static str,
    /// Preset name.
    pub preset: &'static str,
    /// Whether the text names power gating for the power-efficient configuration.
    pub gated: bool,
    /// % less power than 90 nm at the lowest clock.
    pub vs_low_pct: f64,
    /// % less power than 90 nm at the highest clock.
    pub vs_high_pct: f64,
    /// Whether the text hedges each figure ("around", "approximately"): a hedged figure is
    /// judged on the band its word gives ([`hedged_band`]), an unhedged one on its rounding.
    pub hedged: (bool, bool),
}

impl PowerSaving {
    /// The tolerance of each figure, points: [`hedged_band`] where the text hedges it, half
    /// its last printed digit where it does not.
    pub fn tolerance(&self) -> (f64, f64) {
        let tol = |v: f64, hedged: bool| {
            if hedged {
                hedged_band(v)
            } else {
                0.5 * 10f64.powi(-(printed_decimals(v) as i32))
            }
        };
        (
            tol(self.vs_low_pct, self.hedged.0),
            tol(self.vs_high_pct, self.hedged.1),
        )
    }
}

/// Section 5.2's savings, as printed.
pub const POWER_SAVINGS: [PowerSaving; 4] = [
    PowerSaving {
        processor: "core2duo",
        preset: "core2duo",
        gated: false,
        vs_low_pct: 75.0,
        vs_high_pct: 91.0,
        hedged: (true, false),
    },
    PowerSaving {
        processor: "core_i3",
        preset: "core-i3",
        gated: true,
        vs_low_pct: 80.0,
        vs_high_pct: 92.7,
        hedged: (false, true),
    },
    PowerSaving {
        processor: "core_i5",
        preset: "core-i5",
        gated: true,
        vs_low_pct: 82.6,
        vs_high_pct: 89.6,
        hedged: (true, true),
    },
    PowerSaving {
        processor: "core_i7",
        preset: "core-i7",
        gated: true,
        vs_low_pct: 83.1,
        vs_high_pct: 89.8,
        hedged: (true, true),
    },
];

/// Section 5.2: power gating at Core2Duo, 22 nm, 800 MHz cuts leakage by this %…
pub const GATING_LEAKAGE_CUT_PCT: f64 = 47.0;
/// … and total power by this %.
pub const GATING_TOTAL_CUT_PCT: f64 = 35.0;
/// Section 5.2: leakage is this % of the total at Core2Duo, 22 nm, 800 MHz.
pub const C2D_LEAKAGE_SHARE_PCT: f64 = 74.0;
/// Section 5.2: area, and dynamic power, fall by about this % per node step.
pub const NODE_STEP_FALL_PCT: f64 = 50.0;

/// Section 4.1's Amdahl example: % of the serial time with 30 % parallel on 2 cores, on 4
/// cores, and with 60 % parallel on 2 cores.
pub const AMDAHL_EXAMPLE_PCT: [f64; 3] = [85.0, 77.5, 70.0];

/// Figs. 7–9: PaRSA-2 against SeRSA, time reduction % (Core2Duo, Core i3).
pub const PARSA2_REDUCTION_PCT: f64 = 47.0;
/// Fig. 8: PaRSA-4 on the Core i3 (2 cores × 2 threads), time reduction %.
pub const PARSA4_REDUCTION_PCT: f64 = 65.0;
/// Fig. 10 and the abstract: 1 → 8 threads on the Core i7, time reduction %.
pub const PARSA8_REDUCTION_PCT: f64 = 79.0;
/// Fig. 10: doubling the clock (1200 → 2400 MHz), time reduction %.
pub const CLOCK_DOUBLING_PCT: f64 = 50.0;

/// A time reduction from a clock change the paper prints: (processor, where, low MHz, high
/// MHz, %).
pub const CLOCK_TIME_REDUCTIONS: [(&str, &str, f64, f64, f64); 7] = [
    ("Core2Duo", "Fig. 7", 800.0, 1600.0, 50.0),
    ("Core2Duo", "section 5.3", 800.0, 2800.0, 71.70),
    ("Core i3", "Fig. 8", 1600.0, 3300.0, 52.0),
    ("Core i3", "section 5.3", 1600.0, 3300.0, 51.3),
    ("Core i5", "section 5.3", 1200.0, 2400.0, 50.8),
    ("Core i7", "Fig. 10", 1200.0, 2400.0, 50.0),
    ("Core i7", "section 5.3", 1200.0, 2400.0, 49.9),
];

/// Abstract: the highest clock saves this % of energy against the lowest.
pub const ABSTRACT_ENERGY_SAVING_PCT: f64 = 40.13;
/// Abstract: the lowest clock saves this % of power against the highest.
pub const ABSTRACT_POWER_SAVING_PCT: f64 = 19.7;
/// Abstract: a low clock gives this % higher MTTF on average.
pub const ABSTRACT_MTTF_GAIN_PCT: f64 = 109.85;

/// Table 3 and section 4.3: RAMP's EM exponent n.
pub const RAMP_EM_N: f64 = 1.1;
/// EM activation energy, eV.
pub const RAMP_EM_EA_EV: f64 = 0.9;
/// SM exponent m.
pub const RAMP_SM_M: f64 = 2.5;
/// SM activation energy, eV.
pub const RAMP_SM_EA_EV: f64 = 0.9;
/// TDDB a.
pub const RAMP_TDDB_A: f64 = 78.0;
/// TDDB b, 1/K.
pub const RAMP_TDDB_B: f64 = -0.081;
/// TDDB X, eV.
pub const RAMP_TDDB_X_EV: f64 = 0.759;
/// TDDB Y, eV·K.
pub const RAMP_TDDB_Y_EV_K: f64 = -66.8;
/// TDDB Z, eV/K.
pub const RAMP_TDDB_Z_EV_PER_K: f64 = -8.37e-4;
/// Coffin–Manson exponent q.
pub const RAMP_TC_Q: f64 = 2.35;

/// One row of Table 9: the % MTTF gain of the power-efficient (lowest) over the
/// energy-efficient (highest) clock at 22 nm.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Table9Row {
    /// Workload.
    pub workload: &'static str,
    /// Preset.
    pub preset: &'static str,
    /// Node of both configurations, nm.
    pub node_nm: u32,
    /// Power-efficient (lowest) clock, MHz.
    pub low_mhz: f64,
    /// Energy-efficient (highest) clock, MHz.
    pub high_mhz: f64,
    /// The paper's % gains: EM, SM, TDDB, TC.
    pub paper_pct: [f64; 4],
}

/// Table 9.
pub const TABLE9: [Table9Row; 3] = [
    Table9Row {
        workload: "PaRSA-2",
        preset: "core2duo",
        node_nm: 22,
        low_mhz: 800.0,
        high_mhz: 2800.0,
        paper_pct: [368.5, 251.2, 59.26, 333.3],
    },
    Table9Row {
        workload: "PaRSA-4",
        preset: "core-i3",
        node_nm: 22,
        low_mhz: 1600.0,
        high_mhz: 3300.0,
        paper_pct: [458.82, 280.25, 72.73, 100.1],
    },
    Table9Row {
        workload: "PaRSA-8",
        preset: "core-i7",
        node_nm: 22,
        low_mhz: 1200.0,
        high_mhz: 2400.0,
        paper_pct: [146.58, 112.43, 30.40, 150.0],
    },
];

/// Section 5.4: the configurations the paper names optimal once reliability counts, as
/// (workload, preset, clock MHz), all at 22 nm.
pub const RELIABILITY_CHOICES: [(&str, &str, f64); 3] = [
    ("PaRSA-2", "core2duo", 800.0),
    ("PaRSA-4", "core-i3", 1600.0),
    ("PaRSA-8", "core-i7", 2400.0),
];

/// The energy-optimal configurations of Table 8 and Fig. 13 as (preset, clock MHz, where),
/// all at 22 nm.
pub const TABLE8_CHOICES: [(&str, f64, &str); 4] = [
    ("core2duo", 2800.0, "Table 8, Fig. 11"),
    ("core-i3", 3300.0, "Table 8, Fig. 12"),
    ("core-i5", 2400.0, "Fig. 13"),
    ("core-i7", 2400.0, "Table 8, Fig. 14"),
];

/// The assumption the best-configuration claim declares: the share of a core a second
/// hardware thread adds (the design-space model's SMT factor).
pub const SMT_FACTOR: &str = "SMT factor";

/// The SMT factor the paper's Core i3 figures give: PaRSA-2 is 47 % faster and PaRSA-4 65 %
/// faster than SeRSA on 2 cores × 2 threads, i.e. an Amdahl serial fraction of 0.058 and 3.2
/// effective cores for 4 threads: each second hardware thread adds about 0.6 of a core (the
/// design-space model's own, `dse::workload::DEFAULT_HT_FACTOR`).
pub const PAPER_SMT_FACTOR: f64 = 0.6;

/// The components of Tables 4–7 the first-principles model is checked on.
pub const FP_COMPONENTS: [&str; 4] = ["dynamic", "leakage", "total", "area"];

/// The failure mechanisms of Table 9, in its order.
pub const MECHANISMS: [&str; 4] = ["EM", "SM", "TDDB", "TC"];

fn c(id: &str, experiment: &'static str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "parsa", experiment, reference, claim)
}

/// The decimals a figure is printed with, as [`super::num`] writes it ("58.03" → 2).
pub fn printed_decimals(v: f64) -> u32 {
    let s = super::num(v);
    s.split_once('.').map_or(0, |(_, d)| d.len() as u32)
}

/// The band a hedge word gives a percentage the text writes as "around", "about",
/// "approximately" or "approaching" X, in points: one unit of X's last significant digit
/// (10 for "around 50 %", a tens figure), and never less than a whole point (a hedged
/// percentage is not held to its tenths: "around 82.6 %" admits 81.6–83.6 %). An unhedged
/// figure is held to half its last printed digit instead.
pub fn hedged_band(v: f64) -> f64 {
    let decimals = printed_decimals(v);
    let unit = if decimals > 0 {
        10f64.powi(-(decimals as i32))
    } else {
        let mut u = 1.0;
        let mut x = v.abs().round();
        while x >= 10.0 && x % 10.0 == 0.0 {
            u *= 10.0;
            x /= 10.0;
        }
        u
    };
    unit.max(1.0)
}

/// Why a hedged figure's band is what it is, said beside the rules that use it.
pub const HEDGED_WHY: &str = "the text's own word: \"around\", \"approximately\" or \"approaching\" X admits one unit of X's last significant digit and at least a whole point (a hedged percentage is not held to its tenths); an unhedged figure is held to half its last printed digit";

/// "±h points: printed to …": the tolerance of a percentage printed with `decimals`
/// decimals (half its last digit); the inputs' own rounding is carried by the interval.
fn rounding(decimals: u32) -> (f64, String) {
    let h = 0.5 * 10f64.powi(-(decimals as i32));
    (
        h,
        format!(
            "±{} points: the figure is printed to {}; the rounding of the numbers it comes from is carried by the interval",
            super::num(h),
            if decimals == 0 {
                "whole percent".to_string()
            } else {
                format!(
                    "{} decimal{}",
                    decimals,
                    if decimals == 1 { "" } else { "s" }
                )
            }
        ),
    )
}

/// The claims of PaRSA, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v = measured::claims();
    v.extend(power::claims());
    v.extend(energy::claims());
    v.extend(reliability::claims());
    v.extend(design::claims());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Kind;

    /// Every measured and modelled claim of PaRSA states the range its figure can take
    /// and, where the paper gives numbers, the numbers.
    #[test]
    fn every_judged_claim_states_its_plausible_range_and_the_papers_numbers() {
        for c in claims() {
            if matches!(c.kind, Kind::Measured | Kind::Modelled) {
                assert_eq!(
                    c.plausible.len(),
                    c.rule.arity(),
                    "{}: plausible ranges",
                    c.id
                );
                assert!(!c.plausible_why.is_empty(), "{}", c.id);
            }
        }
    }

    #[test]
    fn a_hedge_word_gives_its_figure_a_band_of_its_last_significant_digit_or_a_point() {
        assert_eq!(hedged_band(50.0), 10.0);
        assert_eq!(hedged_band(74.0), 1.0);
        assert_eq!(hedged_band(82.6), 1.0);
        assert_eq!(hedged_band(300.0), 100.0);
        let i5 = POWER_SAVINGS[2];
        assert_eq!(i5.tolerance(), (1.0, 1.0));
        // The Core i3's "80 %" is unhedged: half a point.
        assert_eq!(POWER_SAVINGS[1].tolerance(), (0.5, 1.0));
        assert_eq!(POWER_SAVINGS[0].tolerance(), (1.0, 0.5));
    }

    #[test]
    fn the_abstracts_mttf_is_the_mean_of_table_9s_parsa_8_row() {
        let row = TABLE9.iter().find(|r| r.workload == "PaRSA-8").unwrap();
        let mean = row.paper_pct.iter().sum::<f64>() / 4.0;
        assert!((mean - ABSTRACT_MTTF_GAIN_PCT).abs() < 0.005);
        let all = TABLE9.iter().flat_map(|r| r.paper_pct).sum::<f64>() / 12.0;
        assert!((all - ABSTRACT_MTTF_GAIN_PCT).abs() > 80.0, "{all}");
    }
}
