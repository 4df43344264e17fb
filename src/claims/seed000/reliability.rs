//! Seed 000's claims on lifetime reliability (sections 4.3 and 5.4, Tables 3 and 9, Figs.
//! 15–16, the abstract's MTTF line).
use super::{
    ABSTRACT_MTTF_GAIN_PCT, Claim, MECHANISMS, RAMP_EM_EA_EV, RAMP_EM_N, RAMP_SM_EA_EV, RAMP_SM_M,
    RAMP_TC_Q, RAMP_TDDB_A, RAMP_TDDB_B, RAMP_TDDB_X_EV, RAMP_TDDB_Y_EV_K, RAMP_TDDB_Z_EV_PER_K,
    RELIABILITY_CHOICES, Rule, TABLE9, c, rounding,
};

const EXP: &str = "seed000-mttf";
const FACTOR2: &str = "a factor of 2: the paper's psensor temperatures are not printed and ours are assumed (T = T_amb + R_th·P), and EM, SM and TDDB depend exponentially on them, so only the order of magnitude can be compared; the judgement is on the whole range over the assumed T_amb, R_th and T0";
const RAMP: &str = "RAMP with Table 3's constants; T = T_amb + R_th·P with Tables 4–7 power (as the data file reads them), judged over T_amb 25–45 °C, R_th 0.4–2.5 K/W and T0 450–550 K";
const GAINS: &str = "a lower clock cannot shorten life under RAMP's laws (each falls with temperature below T0, EM also with V·f), so gains are at least 0; the largest, EM at the warmest assumed chip (R_th 2.5 K/W, the widest clock pair), stays below 2000 %";

/// The claims.
pub fn claims() -> Vec<Claim> {
    let mut v = vec![
        c("seed000-table3-ramp-constants", EXP, "Table 3, section 4.3", "RAMP's constants for EM, SM, TDDB and TC")
            .paper(format!("EM n = {RAMP_EM_N}, Ea = {RAMP_EM_EA_EV} eV; SM m = {RAMP_SM_M}, Ea = {RAMP_SM_EA_EV} eV; TDDB a = {RAMP_TDDB_A}, b = {RAMP_TDDB_B}, X = {RAMP_TDDB_X_EV} eV, Y = {RAMP_TDDB_Y_EV_K} eV·K, Z = {RAMP_TDDB_Z_EV_PER_K} eV/K; TC q = {RAMP_TC_Q}"))
            .not_testable("model constants taken from RAMP, not findings; only accelerated-life tests of the chips would test them"),
        c("seed000-fig15-quadratic", EXP, "Fig. 15", "The chip's temperature is a quadratic function of its clock")
            .paper("\"there is a quadratic relationship between processor temperature and its clock rate\" (psensor on the four chips, curve-fitted)")
            .not_testable("needs the chip's temperature at several clocks: temperature sensors (coretemp) and a settable clock (cpufreq userspace governor) on a multicore running PaRSA; this VM exposes neither, and parcrypt's thermal model (T = T_amb + R_th·P) is an assumption, not evidence"),
        c("seed000-fig16-mttf-falls", EXP, "Fig. 16, section 5.4", "MTTF is a decreasing function of the clock under every mechanism")
            .paper("\"the MTTF of a processor is a decreasing function of clock rate\" (EM, SM, TDDB, TC)")
            .by_construction("RAMP's four laws all fall as the temperature rises (below the stress-free T0) and EM also as V·f rises, and the temperature rises with power, which rises with the clock: any assumed T_amb, R_th or T0 gives a falling MTTF, so no input parcrypt has can move it (the temperatures of chips at settable clocks would)"),
    ];
    for r in &TABLE9 {
        v.push(c(&format!("seed000-table9-{}", r.workload.to_lowercase()), EXP, &format!("Table 9, {}", r.workload),
            &format!("The power-efficient clock ({} MHz) outlives the energy-efficient one ({} MHz) on {} by Table 9's margins", r.low_mhz, r.high_mhz, r.preset))
            .paper(MECHANISMS.iter().zip(r.paper_pct).map(|(m, p)| format!("{m} +{p} %")).collect::<Vec<_>>().join(", "))
            .paper_values(&r.paper_pct)
            .metric("MTTF gain of the low over the high clock per mechanism (EM, SM, TDDB, TC)", "%")
            .rule(Rule::Each {
                parts: MECHANISMS.iter().map(|m| m.to_string()).collect(),
                rules: r.paper_pct.iter().map(|&p| Rule::Ratio { target: p, factor: 2.0 }).collect(),
            }, FACTOR2)
            .modelled(RAMP)
            .plausible(&[(0.0, 2000.0); 4], GAINS));
    }
    let i7 = TABLE9[2];
    v.push(c("seed000-abstract-mttf", EXP, "Abstract, Table 9", "A low clock gives a 109.85 % higher MTTF on average")
        .headline()
        .paper(format!("{ABSTRACT_MTTF_GAIN_PCT} % higher on average (the optimal configuration: Core i7, 22 nm, {} vs {} MHz)", i7.low_mhz, i7.high_mhz))
        .paper_values(&[ABSTRACT_MTTF_GAIN_PCT])
        .metric("mean of our four gains (EM, SM, TDDB, TC) for PaRSA-8 on the Core i7, 22 nm, 1200 vs 2400 MHz: the row of Table 9 whose mean the abstract prints", "%")
        .rule(Rule::Ratio { target: ABSTRACT_MTTF_GAIN_PCT, factor: 2.0 }, FACTOR2)
        .modelled(RAMP)
        .plausible(&[(0.0, 2000.0)], GAINS));
    v.push(
        c(
            "seed000-abstract-mttf-table9",
            EXP,
            "Abstract, Table 9",
            "The abstract's 109.85 % is the mean of Table 9's PaRSA-8 row",
        )
        .paper(format!(
            "{ABSTRACT_MTTF_GAIN_PCT} % on average; Table 9, PaRSA-8: {}",
            i7.paper_pct.map(|p| format!("{p} %")).join(", ")
        ))
        .paper_values(&[ABSTRACT_MTTF_GAIN_PCT])
        .metric(
            "mean of Table 9's four PaRSA-8 gains (the abstract's optimal configuration)",
            "%",
        )
        .rule(
            Rule::Diff {
                target: ABSTRACT_MTTF_GAIN_PCT,
                tol: rounding(2).0,
            },
            rounding(2).1,
        )
        .paper_check(),
    );
    v.push(c("seed000-s54-reliability-choice", EXP, "Section 5.4", "Counting reliability, the optimal configurations run at the lowest clock")
        .paper(format!("optimal with reliability: {} (all 22 nm); Fig. 16: MTTF falls as the clock rises",
            RELIABILITY_CHOICES.iter().map(|(w, p, f)| format!("{w} {p} {f} MHz")).collect::<Vec<_>>().join(", ")))
        .paper_values(&RELIABILITY_CHOICES.iter().map(|c| c.2).collect::<Vec<_>>())
        .metric("the clock the paper names over the processor's lowest clock (its own Fig. 16 makes the lowest the longest-lived)", "×")
        .rule(Rule::Each {
            parts: RELIABILITY_CHOICES.iter().map(|(w, _, _)| w.to_string()).collect(),
            rules: vec![Rule::AtMost { max: 1.0 }; 3],
        }, "exact: a ratio of printed clocks")
        .paper_check());
    v
}
