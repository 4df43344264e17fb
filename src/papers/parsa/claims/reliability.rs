//! PaRSA's claims on lifetime reliability (sections 4.3 and 5.4, Tables 3 and 9, Figs.
//! 15–16, the abstract's MTTF line).
use super::{
    ABSTRACT_MTTF_GAIN_PCT, Claim, MECHANISMS, RAMP_EM_EA_EV, RAMP_EM_N, RAMP_SM_EA_EV, RAMP_SM_M,
    RAMP_TC_Q, RAMP_TDDB_A, RAMP_TDDB_B, RAMP_TDDB_X_EV, RAMP_TDDB_Y_EV_K, RAMP_TDDB_Z_EV_PER_K,
    RELIABILITY_CHOICES, Rule, TABLE9, c, rounding,
};

const EXP: &str = "parsa-mttf";

/// Why Table 9's margins and the abstract's MTTF are not testable here: what they rest on,
/// what our model puts in its place, and the machine that would test them.
pub const NOT_TESTABLE_MTTF: &str = "RAMP's gains are functions of the die temperatures psensor read on the real chips at each clock and of the chips' supply voltages there, and the paper prints neither; parcrypt's thermal model (T = T_amb + R_th·P with Tables 4–7's power, one McPAT voltage per node) replaces both with assumptions, and over what real chips plausibly read it decides nothing: the model's temperature rise between the clocks is 1–14 K (R_th 0.4–2.5 K/W times Tables 4–7's 3–6 W), while the paper's own TC column, through Eq. 7, implies rises above ambient 1.34–1.87 times larger at the high clock than at the low one (ours 1.20–1.58), and TDDB's (1/V)^(a − bT) with a − bT ≈ 105 multiplies the MTTF by about 2.9 per 1 % of voltage, so the P-states' voltages (cipher-energy's Table 4 lowers an FX-8320 from 1.3 V at 2900 MHz to 0.95 V at 1400 MHz) alone move it by orders of magnitude. The four chips of Table 1 (or any Intel multicore with coretemp, VID readout and a settable clock, cpufreq's userspace governor) running PaRSA at their lowest and highest clocks, their die temperatures and voltages read, would test it; this VM exposes neither sensors nor a settable clock. The model's figures stay beside the paper's in the experiment's table";

/// The claims.
pub fn claims() -> Vec<Claim> {
    let mut v = vec![
        c("parsa-table3-ramp-constants", EXP, "Table 3, section 4.3", "RAMP's constants for EM, SM, TDDB and TC")
            .paper(format!("EM n = {RAMP_EM_N}, Ea = {RAMP_EM_EA_EV} eV; SM m = {RAMP_SM_M}, Ea = {RAMP_SM_EA_EV} eV; TDDB a = {RAMP_TDDB_A}, b = {RAMP_TDDB_B}, X = {RAMP_TDDB_X_EV} eV, Y = {RAMP_TDDB_Y_EV_K} eV·K, Z = {RAMP_TDDB_Z_EV_PER_K} eV/K; TC q = {RAMP_TC_Q}"))
            .not_testable("model constants taken from RAMP, not findings; only accelerated-life tests of the chips would test them"),
        c("parsa-fig15-quadratic", EXP, "Fig. 15", "The chip's temperature is a quadratic function of its clock")
            .paper("\"there is a quadratic relationship between processor temperature and its clock rate\" (psensor on the four chips, curve-fitted)")
            .not_testable("needs the chip's temperature at several clocks: temperature sensors (coretemp) and a settable clock (cpufreq userspace governor) on a multicore running PaRSA; this VM exposes neither, and parcrypt's thermal model (T = T_amb + R_th·P) is an assumption, not evidence"),
        c("parsa-fig16-mttf-falls", EXP, "Fig. 16, section 5.4", "MTTF is a decreasing function of the clock under every mechanism")
            .paper("\"the MTTF of a processor is a decreasing function of clock rate\" (EM, SM, TDDB, TC)")
            .by_construction("RAMP's four laws all fall as the temperature rises (below the stress-free T0) and EM also as V·f rises, and the temperature rises with power, which rises with the clock: any assumed T_amb, R_th or T0 gives a falling MTTF, so no input parcrypt has can move it (the temperatures of chips at settable clocks would)"),
    ];
    for r in &TABLE9 {
        v.push(c(&format!("parsa-table9-{}", r.workload.to_lowercase()), EXP, &format!("Table 9, {}", r.workload),
            &format!("The power-efficient clock ({} MHz) outlives the energy-efficient one ({} MHz) on {} by Table 9's margins", r.low_mhz, r.high_mhz, r.preset))
            .paper(MECHANISMS.iter().zip(r.paper_pct).map(|(m, p)| format!("{m} +{p} %")).collect::<Vec<_>>().join(", "))
            .paper_values(&r.paper_pct)
            .not_testable(NOT_TESTABLE_MTTF));
    }
    let i7 = TABLE9[2];
    v.push(c("parsa-abstract-mttf", EXP, "Abstract, Table 9", "A low clock gives a 109.85 % higher MTTF on average")
        .paper(format!("{ABSTRACT_MTTF_GAIN_PCT} % higher on average (the optimal configuration: Core i7, 22 nm, {} vs {} MHz)", i7.low_mhz, i7.high_mhz))
        .paper_values(&[ABSTRACT_MTTF_GAIN_PCT])
        .not_testable(NOT_TESTABLE_MTTF));
    v.push(
        c(
            "parsa-abstract-mttf-table9",
            EXP,
            "Abstract, Table 9",
            "The abstract's 109.85 % is the mean of Table 9's PaRSA-8 row",
        )
        .headline()
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
    v.push(c("parsa-s54-reliability-choice", EXP, "Section 5.4", "Counting reliability, the optimal configurations run at the lowest clock")
        .paper(format!("optimal with reliability: {} (all 22 nm); Fig. 16: MTTF falls as the clock rises",
            RELIABILITY_CHOICES.iter().map(|(w, p, f)| format!("{w} {p} {f} MHz")).collect::<Vec<_>>().join(", ")))
        .paper_values(&RELIABILITY_CHOICES.iter().map(|c| c.2).collect::<Vec<_>>())
        .metric("the clock the paper names over the processor's lowest clock (its own Fig. 16 makes the lowest the longest-lived)", "×")
        .rule(Rule::Each {
            parts: RELIABILITY_CHOICES.iter().map(|(w, _, _)| w.to_string()).collect(),
            rules: vec![Rule::AtMost { max: 1.0 }; 3],
        }, "exact: a ratio of printed clocks")
        .paper_check()
        .defect("s54-core-i7-2400"));
    v
}
