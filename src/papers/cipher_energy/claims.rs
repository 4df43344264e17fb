//! cipher-energy (004_18c4ebc23388b709.txt): energy of sequential Blowfish, RC4 and RC4A against
//! their parallel forms PBlock, PARC4 and PARC4-I, at default and calibrated processor states,
//! on a Core 2 Duo T5270 laptop (platform 1) and an AMD FX-8320 desktop (platform 2).
//!
//! Throughput is measured here; energy is modelled with the FX-8320 preset, whose static
//! power is a guess: the energy claims are judged on their range over that assumption (0 W,
//! the paper's own accounting — Joulemeter's application power leaves the base out — to
//! [`STATIC_W_RANGE`]'s top), and a claim fed by our parallel timing also over the setting it
//! replaces: this machine's threads with the speedup measured here, and the paper's eight
//! cores with the speedup its own Tables 2–3 give ([`CORES`]). Each claim declares both as
//! assumptions, and the experiment reads their ranges from the claim. The paper's own numbers
//! are checked against each other.

/// The paper, as cited (its entry in [`super::papers::PAPERS`]).
pub const PAPER: super::papers::Paper = super::papers::Paper {
    id: "cipher-energy",
    short: "Energy of ciphers",
    authors: "Disha Handa",
    title: "Comparative Analysis of Energy Cost of Sequential and Parallel Cryptographic Algorithms on Different Platforms",
    venue: "open-access journal article, 2022",
    topic: "energy of sequential and parallel Blowfish, RC4 and RC4A",
};

use super::{Claim, Load, Rule, above_one};

/// Tables 2–3 (default clock): (algorithm, platform 1 µJ/B, platform 1 MB/s, platform 2 µJ/B,
/// platform 2 MB/s), algorithms by parcrypt's names. The paper does not say how many threads
/// its parallel forms used (the desktop has eight cores).
pub const TABLES_2_3: [(&str, f64, f64, f64, f64); 6] = [
    ("blowfish-ecb", 12.21875, 1.103448, 0.1546875, 1.855072464),
    ("pblock-ecb", 12.53125, 1.939394, 0.28515625, 5.333333333),
    ("rc4", 0.283008, 24.7343, 0.036914063, 32.0),
    ("parc4", 0.353125, 40.99608, 0.058789063, 128.0),
    ("rc4a", 0.256953, 30.08226, 0.031640625, 39.38461538),
    ("parc4i", 0.345371, 51.71717, 0.067773438, 131.2820513),
];

/// Conclusion: at the low clock the parallel form spends this % less energy than the
/// sequential one: (sequential, parallel, %).
pub const LOW_CLOCK_SAVING_PCT: [(&str, &str, f64); 3] = [
    ("blowfish-ecb", "pblock-ecb", 58.0),
    ("rc4", "parc4", 63.0),
    ("rc4a", "parc4i", 54.0),
];

/// Table 4: the FX-8320's low-power states, (V, MHz).
pub const FX8320_STATES: [(f64, f64); 4] = [
    (1.3, 2900.0),
    (1.1875, 2300.0),
    (1.0625, 1700.0),
    (0.95, 1400.0),
];

/// Table 1: (platform, state, GHz, V) as printed.
pub const TABLE_1: [(&str, &str, f64, f64); 4] = [
    ("laptop", "default", 1.2, 1.2),
    ("laptop", "calibrated", 1.5, 0.9),
    ("desktop", "default", 3.5, 1.332),
    ("desktop", "calibrated", 2.3, 0.9),
];

/// Section III: the laptop's T5270 "with a 1.40 GHz clock speed".
pub const LAPTOP_NOMINAL_GHZ: f64 = 1.40;

/// Section IV: PBlock at the low clock on the desktop (Fig. 4): 1.18 MB/s and 7.1125 J/s.
pub const FIG4_PBLOCK_LOW_CLOCK: (f64, f64) = (1.18, 7.1125);

/// Section IV: "PBlock gives a 1.5X speedup over the serial version on Platform 1 and
/// approximately 2.5X on Platform 2".
pub const PBLOCK_SPEEDUP_TEXT: (f64, f64) = (1.5, 2.5);

/// Fig. 2 (the Joulemeter log of PARC4), per row: total, CPU, monitor, disk and base power in
/// W, and the application's W (`None` where the log waits for the application).
pub const FIG2_ROWS: [(f64, f64, f64, f64, f64, Option<f64>); 25] = [
    (100.8, 0.8, 35.0, 0.0, 65.0, None),
    (100.3, 0.3, 35.0, 0.0, 65.0, None),
    (100.9, 0.9, 35.0, 0.0, 65.0, None),
    (103.2, 3.2, 35.0, 0.0, 65.0, None),
    (103.8, 3.8, 35.0, 0.0, 65.0, Some(0.0)),
    (103.5, 3.5, 35.0, 0.0, 65.0, Some(1.1)),
    (103.8, 3.8, 35.0, 0.0, 65.0, Some(1.7)),
    (103.9, 3.9, 35.0, 0.0, 65.0, Some(1.6)),
    (103.6, 3.6, 35.0, 0.0, 65.0, Some(1.3)),
    (103.2, 3.2, 35.0, 0.0, 65.0, Some(1.3)),
    (103.4, 3.4, 35.0, 0.0, 65.0, Some(1.4)),
    (103.5, 3.5, 35.0, 0.0, 65.0, Some(1.5)),
    (103.5, 3.5, 35.0, 0.0, 65.0, Some(1.3)),
    (103.2, 3.2, 35.0, 0.0, 65.0, Some(1.0)),
    (103.9, 3.9, 35.0, 0.0, 65.0, Some(1.5)),
    (103.8, 3.8, 35.0, 0.0, 65.0, Some(1.8)),
    (103.5, 3.5, 35.0, 0.0, 65.0, Some(1.5)),
    (103.6, 3.6, 35.0, 0.0, 65.0, Some(1.5)),
    (101.7, 1.7, 35.0, 0.0, 65.0, Some(0.0)),
    (100.5, 0.5, 35.0, 0.0, 65.0, Some(0.0)),
    (100.0, 0.0, 35.0, 0.0, 65.0, Some(0.0)),
    (100.1, 0.1, 35.0, 0.0, 65.0, Some(0.0)),
    (100.6, 0.6, 35.0, 0.0, 65.0, Some(0.0)),
    (100.5, 0.5, 35.0, 0.0, 65.0, None),
    (100.2, 0.2, 35.0, 0.0, 65.0, None),
];

/// Fig. 2's total of the application column ("18.5").
pub const FIG2_SUM_PRINTED: f64 = 18.5;

/// The FX-8320 static power the energy claims are judged over, W: from 0 (Joulemeter's
/// application power, the paper's accounting, leaves base power out) to a third of the 125 W
/// TDP; the preset assumes 25 W.
pub const STATIC_W_RANGE: (f64, f64) = (0.0, 40.0);

/// The paper's desktop: "an eight-core parallel system" (Abstract), the AMD FX-8320.
pub const PAPER_CORES: f64 = 8.0;

/// The assumption a claim fed by our parallel timing declares: the cores the parallel form
/// keeps busy, with its speedup on them (this machine's threads and the speedup measured here,
/// or the paper's eight cores and the speedup its Tables 2–3 give).
pub const CORES: &str = "busy cores of the parallel form";

/// The assumption every energy claim declares: the FX-8320's static power.
pub const STATIC: &str = "static power of the FX-8320";

/// The paper's speedup of `par` over `seq` on its desktop (Tables 2–3, MB/s).
pub fn paper_speedup(seq: &str, par: &str) -> Option<f64> {
    Some(tables_2_3(par)?.3 / tables_2_3(seq)?.3)
}

/// Declares [`STATIC`] on `c`.
fn static_power(c: Claim) -> Claim {
    c.assumption(
        STATIC,
        "W",
        25.0,
        STATIC_W_RANGE,
        Some(STATIC_W_RANGE.0),
        "the preset's 25 W is a guess; 0 W is the paper's own accounting (Joulemeter's application power leaves the base out), 40 W a third of the 125 W TDP; the model is evaluated every 5 W across it",
    )
}

/// Declares [`CORES`] on `c`, a claim on `par` against `seq`.
fn cores(c: Claim, seq: &str, par: &str) -> Claim {
    let s = paper_speedup(seq, par).unwrap_or(f64::NAN);
    c.assumption(
        CORES,
        "cores",
        2.0,
        (2.0, PAPER_CORES),
        Some(PAPER_CORES),
        &format!(
            "this machine's threads (2 on the study's machine) with the speedup measured here, against the paper's eight-core FX-8320 with the speedup its Tables 2–3 give ({s:.3}×, {:.0} % of linear): the model is evaluated at both ends, each with its own speedup, so no verdict rests on our 2 cores standing for the paper's 8",
            s / PAPER_CORES * 100.0
        ),
    )
}

/// A row of Tables 2–3 by algorithm name.
pub fn tables_2_3(alg: &str) -> Option<(f64, f64, f64, f64)> {
    TABLES_2_3
        .iter()
        .find(|r| r.0 == alg)
        .map(|r| (r.1, r.2, r.3, r.4))
}

/// The experiment that feeds every claim of cipher-energy.
pub const EXPERIMENT: &str = "cipher-energy-ciphers";

fn c(id: &str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "cipher-energy", EXPERIMENT, reference, claim)
}

const FX: &str = "FX-8320 preset: the state's power with the busy cores × our measured time scaled by the clock ratio";

/// The assumption that moves the energy claims most, for their evidence.
pub const STATIC_ASSUMPTION: &str = "the FX-8320's static power, 0–40 W (0 W: Joulemeter's application power, the paper's accounting, leaves the base out; 25 W: the preset's guess; 40 W: a third of the 125 W TDP); the idle cores' activity moves it under 3 %";

fn r2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The claims of cipher-energy, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v = Vec::new();
    for (seq, par, saving) in LOW_CLOCK_SAVING_PCT {
        let (Some(s), Some(p)) = (tables_2_3(seq), tables_2_3(par)) else {
            continue;
        };
        let (laptop, desktop) = (r2(p.1 / s.1), r2(p.3 / s.3));
        v.push(c(&format!("cipher-energy-speed-{par}"), "Tables 2–3", &format!("{par} is faster than {seq}"))
            .headline()
            .paper(format!("{laptop:.2}× (laptop), {desktop:.2}× (desktop)"))
            .paper_values(&[laptop, desktop])
            .metric("MB/s of the parallel form on every logical CPU / MB/s of the sequential one, paired rounds", "×")
            .rule(Rule::AtLeast { min: 1.1 }, "10 %: a smaller gain is within what turbo clocks and caches move; the paper's gains are 1.66–4×")
            .plausible(&[(0.3, 8.0)], "from a parallel form slower than the sequential one (start-up on a small buffer) to 8 cores' worth")
            .speedup());
        v.push(c(&format!("cipher-energy-low-clock-{par}"), "Conclusion, Figs. 3–6", &format!("{par} at the low clock uses {saving} % less energy than {seq} at the default"))
            .headline()
            .paper(format!("{saving} % less"))
            .paper_values(&[saving])
            .metric("1 − E(parallel, calibrated state, every logical CPU) / E(sequential, default state), per byte, over the static-power range", "%")
            .rule(Rule::AtLeast { min: saving / 2.0 }, "half the paper's saving: its figure comes from 8 cores, and on 2 the model bounds the saving near 52 % (perfect speedup, no static power), so half asks for a parallel form that earns most of its threads")
            .plausible(&[(-200.0, 90.0)], "a speedup from 0.3 to 8 against the calibrated state's power ratio of 0.97–1.4 (static power 0–40 W)")
            .modelled(FX)
            .parallel_input().load(Load::Lowers));
        let last = v.pop().expect("just pushed");
        v.push(cores(static_power(last), seq, par));
        v.push(
            c(
                &format!("cipher-energy-default-energy-{par}"),
                "Tables 2–3 (µJ/B)",
                &format!("At the default clock {par} needs more energy per byte than {seq}"),
            )
            .headline()
            .paper(format!("{} against {} µJ/B (desktop), {} against {} (laptop)", p.2, s.2, p.0, s.0))
            .paper_values(&[p.2, s.2, p.0, s.0])
            .metric(
                "µJ/B of the parallel form / µJ/B of the sequential one, default state, over the static-power range",
                "×",
            )
            .rule(
                Rule::AtLeast { min: 1.0 },
                "1: an ordering (the paper's parallel forms need 1.03–2.1× the sequential µJ/B); the model's power ratio of n busy cores to one (1.2–1.9 on 2 threads, 2.7–8 on 8 cores, as the static power falls from 40 W to 0) against the speedup on them decides it",
            )
            .plausible(&[(0.3, 4.0)], "the power ratio 1.2–1.9 over a speedup from 0.5 to 2 (2 threads), or 8 cores' worth")
            .modelled(FX)
            .parallel_input()
            .load(Load::Raises),
        );
        let last = v.pop().expect("just pushed");
        v.push(cores(static_power(last), seq, par));
    }
    let (rc4, rc4a, bf) = (
        tables_2_3("rc4").unwrap_or_default(),
        tables_2_3("rc4a").unwrap_or_default(),
        tables_2_3("blowfish-ecb").unwrap_or_default(),
    );
    v.push(c("cipher-energy-rc4a-faster", "Section II.A", "RC4A takes fewer instructions per output byte than RC4")
        .paper(format!("\"RC4A takes fewer instructions per output byte\"; Table 3: {:.2}× (laptop), {:.2}× (desktop)", rc4a.1 / rc4.1, rc4a.3 / rc4.3))
        .paper_values(&[r2(rc4a.1 / rc4.1), r2(rc4a.3 / rc4.3)])
        .metric("RC4 time / RC4A time on the same buffer, paired rounds", "×")
        .rule(above_one(), "1: \"fewer instructions\" shows as less time on the same data")
        .plausible(&[(0.5, 2.0)], "RC4A makes two bytes per swap pair; a compiler may or may not pair them")
        .measured());
    let (rc4_bf, rc4a_bf) = (
        (rc4.3 / bf.3 * 10.0).round() / 10.0,
        (rc4a.3 / bf.3 * 10.0).round() / 10.0,
    );
    v.push(c("cipher-energy-stream-faster", "Conclusion", "Stream ciphers are faster than block ciphers")
        .headline()
        .paper(format!("\"stream cyphers are faster than block cyphers\"; Tables 2–3: RC4 {rc4_bf}×, RC4A {rc4a_bf}× Blowfish (desktop)"))
        .paper_values(&[rc4_bf, rc4a_bf])
        .metric("Blowfish time / RC4 time and / RC4A time on the same buffer, paired rounds", "×")
        .rule(Rule::Each { parts: vec!["rc4 over blowfish-ecb".into(), "rc4a over blowfish-ecb".into()], rules: vec![above_one(); 2] }, "1: an ordering")
        .plausible(&[(0.3, 50.0); 2], "a byte-wise stream cipher against 16 Feistel rounds per 8 bytes")
        .measured());
    v.push(c("cipher-energy-same-performance", "Section IV", "At a low clock on every core the parallel forms keep the sequential forms' default-clock performance")
        .paper("With parallel computing, it is possible to operate each core at a low frequency to reduce energy consumption while maintaining the same performance as sequential approaches")
        .metric("MB/s of the parallel form at the calibrated clock (our speedup × 2300/3500) / the sequential one's at the default clock", "×")
        .rule(Rule::Each { parts: LOW_CLOCK_SAVING_PCT.iter().map(|p| p.1.to_string()).collect(), rules: vec![Rule::AtLeast { min: 1.0 }; 3] },
            "1: \"the same performance\" at least; on 2 threads it needs a speedup of 1.52 (3500/2300)")
        .plausible(&[(0.2, 5.0); 3], "a speedup from 0.3 to 8 times the clock ratio 0.66")
        .modelled("time ∝ 1/clock from our measured speedup and the FX-8320's Table 1 clocks")
        .parallel_input().load(Load::Lowers)
        .assumption(CORES, "cores", 2.0, (2.0, PAPER_CORES), Some(PAPER_CORES),
            &format!("this machine's threads (2 on the study's machine) with the speedups measured here, against the paper's eight cores with the speedups its Tables 2–3 give ({}): the model is evaluated at both ends",
                LOW_CLOCK_SAVING_PCT.iter().map(|(s, p, _)| format!("{p} {:.3}×", paper_speedup(s, p).unwrap_or(f64::NAN))).collect::<Vec<_>>().join(", "))));
    v.push(c("cipher-energy-low-clock-energy-up", "Section IV", "A decrease in frequency results in an increase in energy")
        .paper("However, a decrease in frequency will result in an increase in energy.")
        .metric("E(sequential, calibrated state) / E(sequential, default state), per byte, over the static-power range", "×")
        .rule(Rule::AtLeast { min: 1.0 }, "1: \"an increase\"; lower clock and voltage cut the dynamic energy per operation (×0.46 from V²) while the static power runs 1.52× longer, so the static power decides it")
        .plausible(&[(0.3, 2.0)], "from dynamic power alone (×0.46) to static power alone (×1.52)")
        .modelled(FX));
    let last = v.pop().expect("just pushed");
    v.push(static_power(last));
    v.push(static_power(c("cipher-energy-s2-uniprocessor-low-clock", "Section II", "Lowering a uniprocessor's frequency reduces its energy")
        .paper("\"the energy consumption of a uni-processor can be reduced by decreasing its operating frequency\" (the relationship between frequency and power being nonlinear)")
        .metric("E(sequential, calibrated state) / E(sequential, default state), per byte, over the static-power range (one busy core, time ∝ 1/clock)", "×")
        .rule(Rule::AtMost { max: 1.0 }, "1: \"reduced\"; the mirror of cipher-energy-low-clock-energy-up (Section IV), on the same model: lower clock and voltage cut the dynamic energy per operation (×0.46 from V²) while the static power runs 1.52× longer, so the static power decides it")
        .plausible(&[(0.3, 2.0)], "from dynamic power alone (×0.46) to static power alone (×1.52)")
        .modelled(FX)));
    v.push(c("cipher-energy-parc4i-prga-steps", "Section II.A", "PARC4-I works on 256-byte blocks and runs its generator 16 times per 64 bytes (RC4A 32, RC4 64)")
        .paper("This algorithm divides the text input into 256-byte blocks; PRGA is only processed 16 times for every 64 bytes of data instead of 32 times in RC4A or 64 times in RC4")
        .paper_values(&[256.0, 16.0, 64.0, 32.0])
        .by_construction("crates/parcrypt/src/cipher/parallel/parc4i.rs: 256-byte blocks (BLOCK), each covered by Rc4a::apply_keystream_x4 in 64 steps of 4 bytes, i.e. 16 steps per 64 bytes; checked against the one-byte generator by proptest"));
    v.push(c("cipher-energy-power-v2f", "Section II", "Power depends quadratically on the supply voltage, and a lower frequency allows a lower voltage")
        .paper("decreasing frequency also reduces the operating voltage, and power consumption is quadratically dependent on the supply voltage [6]")
        .by_construction("the profile power model is static + C_eff V² f per busy core (crates/parcrypt-harness/src/energy/power_model/profile.rs), with the voltage of each Table 1/4 state; the relation is assumed, not measured"));
    v.push(c("cipher-energy-low-clock-slower", "Section II", "Decreasing the frequency of a single processor diminishes the algorithm's performance")
        .paper("decreasing the frequency of a single processor will diminish the algorithm's performance")
        .not_testable("needs a machine whose clock can be set (cpufreq with a userspace governor, or RAPL-capable hardware); this one has no cpufreq, so the study scales time ∝ 1/clock, which assumes the claim"));
    v.push(c("cipher-energy-platforms", "Tables 1 and 4", "Platforms: laptop default 1.2 GHz 1.2 V, calibrated 1.5 GHz 0.9 V; desktop default 3.5 GHz 1.332 V, calibrated 2.3 GHz 0.9 V; FX-8320 states 1.3 V/2900, 1.1875 V/2300, 1.0625 V/1700, 0.95 V/1400 MHz")
        .paper("as listed")
        .not_testable("platform facts, encoded in the t5270 and fx-8320 presets (both 2300 MHz voltages kept: Tables 1 and 4 disagree); the two machines with a settable clock would test them"));
    v.extend(checks());
    v
}

/// Section II: lowering a uniprocessor's frequency changes its energy this way (−1: "can be
/// reduced").
pub const S2_UNIPROCESSOR_ENERGY_CHANGE: f64 = -1.0;

/// Table 1's laptop clocks: the default 1.2 GHz (Section III: a 1.40 GHz T5270) below the
/// "low frequency" calibrated 1.5 GHz.
pub const LAPTOP_CLOCKS: &str = "table1-laptop-clocks";
/// Section IV's Fig. 4 figures for PBlock at the low clock, 1.18 MB/s and 7.1125 J/s: 21× the
/// default's µJ/B, not "dramatically decreased", and 0.64× Blowfish's speed, not "the same".
pub const FIG4_PBLOCK: &str = "fig4-pblock-low-clock";
/// Section IV's "a decrease in frequency will result in an increase in energy", against the
/// conclusion's low-frequency savings and Section II's uniprocessor.
pub const LOWER_CLOCK_MORE_ENERGY: &str = "s4-lower-clock-more-energy";

/// The paper's numbers against each other.
fn checks() -> Vec<Claim> {
    let each = |parts: &[&str], rule: Rule| Rule::Each {
        parts: parts.iter().map(|s| s.to_string()).collect(),
        rules: vec![rule; parts.len()],
    };
    vec![
        c("cipher-energy-check-speedup-text", "Section IV", "PBlock gives a 1.5× speedup on platform 1 and about 2.5× on platform 2")
            .paper("It can be extrapolated from these data that PBlock gives a 1.5X speedup over the serial version on Platform 1 and approximately 2.5X on Platform 2")
            .paper_values(&[PBLOCK_SPEEDUP_TEXT.0, PBLOCK_SPEEDUP_TEXT.1])
            .metric("PBlock MB/s over Blowfish MB/s in Table 2, laptop and desktop", "×")
            .rule(Rule::Each { parts: vec!["laptop".into(), "desktop".into()], rules: vec![Rule::Diff { target: PBLOCK_SPEEDUP_TEXT.0, tol: 0.05 }, Rule::Diff { target: PBLOCK_SPEEDUP_TEXT.1, tol: 0.25 }] },
                "±0.05: \"1.5X\" is printed to a tenth; ±10 % for \"approximately 2.5X\"")
            .paper_check()
            .defect("pblock-speedup-text"),
        c("cipher-energy-check-calibrated-clock", "Table 1", "The calibrated state operates the processor at a low frequency")
            .paper("Calibrated [operate processor by using low frequency]: laptop 1.5 GHz (default 1.2 GHz); desktop 2.3 GHz (default 3.5 GHz)")
            .paper_values(&[1.5, 1.2, 2.3, 3.5])
            .metric("calibrated clock over default clock in Table 1", "×")
            .rule(each(&["laptop", "desktop"], Rule::AtMost { max: 1.0 }), "1: \"low frequency\" is below the default")
            .paper_check()
            .defect(LAPTOP_CLOCKS),
        c("cipher-energy-check-laptop-clock", "Section III, Table 1", "The laptop's T5270 runs at 1.40 GHz, its default state at 1.2 GHz")
            .paper("Intel Core 2 Duo CPU T5270 with a 1.40 GHz clock speed; Table 1: default 1.2 GHz")
            .paper_values(&[LAPTOP_NOMINAL_GHZ, 1.2])
            .metric("Table 1's default laptop clock, GHz", "GHz")
            .rule(Rule::Diff { target: LAPTOP_NOMINAL_GHZ, tol: 0.005 }, "±0.005 GHz: the default state is the stated clock")
            .paper_check()
            .defect(LAPTOP_CLOCKS),
        c("cipher-energy-check-desktop-2300-volts", "Tables 1 and 4", "The desktop's 2300 MHz state runs at one voltage")
            .paper("Table 1: 2.3 GHz frequency and 0.9 Voltage; Table 4: 1.1875 V at 2300")
            .paper_values(&[0.9, 1.1875, 2300.0])
            .metric("Table 1's calibrated desktop voltage, V", "V")
            .rule(Rule::Diff { target: 1.1875, tol: 0.0005 }, "±0.0005 V: Table 4 prints four decimals")
            .paper_check()
            .defect("desktop-2300-volts"),
        c("cipher-energy-check-fig4-energy", "Section IV, Fig. 4", "At the low clock PBlock's energy dramatically decreased")
            .paper("the energy consumption of parallel algorithms dramatically decreased. Figure 4 demonstrates that the transmission rate is 1.18 MB/s and the energy usage is 7.1125 J/s (Table 2: 0.28515625 µJ/B at the default)")
            .paper_values(&[FIG4_PBLOCK_LOW_CLOCK.0, FIG4_PBLOCK_LOW_CLOCK.1, 0.28515625])
            .metric("PBlock's µJ/B at the low clock (7.1125 J/s ÷ 1.18 MB/s) over Table 2's at the default", "×")
            .rule(Rule::AtMost { max: 1.0 }, "1: \"decreased\"")
            .paper_check()
            .defect(FIG4_PBLOCK),
        c("cipher-energy-check-fig4-performance", "Section IV, Fig. 4", "At the low clock PBlock keeps the sequential implementation's performance")
            .paper("with low frequency, the PBlock algorithm consumes less energy while maintaining the same level of sequential implementation (1.18 MB/s; Table 2: Blowfish 1.855072464 MB/s)")
            .paper_values(&[FIG4_PBLOCK_LOW_CLOCK.0, 1.855072464])
            .metric("PBlock's MB/s at the low clock over Blowfish's at the default (desktop)", "×")
            .rule(Rule::Ratio { target: 1.0, factor: 1.1 }, "within ×1.1 for \"the same level\"")
            .paper_check()
            .defect(FIG4_PBLOCK),
        c("cipher-energy-check-frequency-energy", "Section IV against the Conclusion", "A decrease in frequency increases energy — while the conclusion's low-frequency runs save 54–63 %")
            .paper("However, a decrease in frequency will result in an increase in energy; Conclusion: 58% less (PBlock), 63% (PARC4), 54% (PARC4-I)")
            .paper_values(&[58.0, 63.0, 54.0])
            .metric("the conclusion's savings at the low frequency (an increase in energy is a saving of 0 or less)", "%")
            .rule(each(&["pblock-ecb", "parc4", "parc4i"], Rule::AtMost { max: 0.0 }), "0: an increase in energy is no saving")
            .paper_check()
            .defect(LOWER_CLOCK_MORE_ENERGY),
        c("cipher-energy-check-s2-vs-s4-frequency", "Section II against Section IV", "Lowering a uniprocessor's frequency reduces its energy (Section II) — while a decrease in frequency increases energy (Section IV)")
            .paper("Section II: \"the energy consumption of a uni-processor can be reduced by decreasing its operating frequency\"; Section IV: \"However, a decrease in frequency will result in an increase in energy\"")
            .metric("the sign of the energy change Section II gives a uniprocessor whose frequency is lowered (−1: reduced, +1: increased), against Section IV's unqualified increase", "")
            .rule(Rule::AtLeast { min: 0.0 }, "0: Section IV says any decrease in frequency increases energy, so a reduction (−1) contradicts it; Section IV names no exception for one processor")
            .paper_check()
            .defect(LOWER_CLOCK_MORE_ENERGY),
        c("cipher-energy-check-fig2-columns", "Fig. 2", "In the Joulemeter log the total power is CPU + monitor + disk + base in every row")
            .paper("Figure 2: Total Power (W), CPU (W), Monitor (W) 35, Disk (W) 0, Base (W) 65")
            .paper_values(&[35.0, 65.0])
            .metric("the largest |total − (CPU + monitor + disk + base)| over the 25 rows", "W")
            .rule(Rule::Diff { target: 0.0, tol: 0.05 }, "±0.05 W: the log prints tenths")
            .paper_check(),
        c("cipher-energy-check-fig2-sum", "Fig. 2", "The application's energy in the log is 18.5")
            .paper("Figure 2: Data file of PARC4 consisting joules consumed at each time stamp; 18.5")
            .paper_values(&[FIG2_SUM_PRINTED])
            .metric("the sum of the Application (W) column", "")
            .rule(Rule::Diff { target: FIG2_SUM_PRINTED, tol: 0.05 }, "±0.05: tenths")
            .paper_check(),
        c("cipher-energy-check-platform2-superior", "Section IV", "Even with non-calibrated states, platform 2 yields superior outcomes to platform 1")
            .paper("Even with non-calibrated states, Platform 2 yields superior outcomes compared to Platform 1")
            .metric("over the six algorithms of Tables 2–3: the largest desktop/laptop µJ/B; the smallest desktop/laptop MB/s", "×")
            .rule(Rule::Each { parts: vec!["µJ/B".into(), "MB/s".into()], rules: vec![Rule::AtMost { max: 1.0 }, Rule::AtLeast { min: 1.0 }] }, "1: less energy and more speed for every algorithm")
            .paper_check(),
        c("cipher-energy-check-default-ordering", "Section IV", "At the default clock serial algorithms are slower and consume less energy, parallel ones faster and consume more")
            .paper("Serial algorithms are slower and consume less energy, whereas parallel algorithms are faster but consume more energy")
            .metric("over the three pairs and both platforms of Tables 2–3: the smallest parallel/sequential µJ/B; the smallest parallel/sequential MB/s", "×")
            .rule(each(&["µJ/B", "MB/s"], Rule::AtLeast { min: 1.0 }), "1: an ordering in every pair")
            .paper_check(),
        c("cipher-energy-check-block-stream", "Conclusion", "Block ciphers spend more energy than stream ciphers, and stream ciphers are faster")
            .headline()
            .paper("block cyphers spend more energy than stream cyphers during execution ... stream cyphers are faster than block cyphers")
            .metric("per platform: the least block µJ/B over the most stream µJ/B; the least stream MB/s over the most block MB/s (Tables 2–3)", "×")
            .rule(each(&["laptop µJ/B", "desktop µJ/B", "laptop MB/s", "desktop MB/s"], Rule::AtLeast { min: 1.0 }), "1: an ordering")
            .paper_check(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper as printed (a verbatim excerpt, tests/fixtures/printed/cipher_energy.txt).
    const PRINTED: &str = include_str!("../../../tests/fixtures/printed/cipher_energy.txt");

    #[test]
    fn tables_2_and_3_are_as_printed() {
        // The PDF's extraction splits long numbers with spaces: "12.218 75".
        let joined = PRINTED.replace(' ', "");
        for (alg, a, b, c, d) in TABLES_2_3 {
            for x in [a, b, c, d] {
                assert!(joined.contains(&format!("\t{x}")), "{alg}: {x}");
            }
        }
        for (v, mhz) in FX8320_STATES {
            assert!(PRINTED.contains(&format!("{v}\t{mhz}")), "{v} {mhz}");
        }
        for (_, _, ghz, v) in TABLE_1 {
            assert!(
                PRINTED.contains(&format!("{ghz} GHz frequency and {v} ")),
                "{ghz} {v}"
            );
        }
        assert!(PRINTED.contains("with a 1.40 GHz clock speed"));
        assert!(PRINTED.contains("1.18 MB/s") && PRINTED.contains("7.1125 J/s"));
        assert!(PRINTED.contains("1.5X speedup") && PRINTED.contains("approximately 2.5X"));
        for (_, _, pct) in LOW_CLOCK_SAVING_PCT {
            assert!(PRINTED.contains(&format!("{pct}%")), "{pct}");
        }
    }

    #[test]
    fn figure_2_is_as_printed() {
        let rows: Vec<Vec<&str>> = PRINTED
            .lines()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|f| f.len() >= 8 && f[1].starts_with("6.3544E+13"))
            .collect();
        assert_eq!(rows.len(), FIG2_ROWS.len());
        for (f, (t, cpu, mon, disk, base, app)) in rows.iter().zip(FIG2_ROWS) {
            let n = |s: &str| s.parse::<f64>().unwrap();
            assert_eq!(
                (n(f[2]), n(f[3]), n(f[4]), n(f[5]), n(f[6])),
                (t, cpu, mon, disk, base)
            );
            assert_eq!(f[7].parse::<f64>().ok(), app, "{f:?}");
        }
        assert!(PRINTED.contains(&format!("\t{FIG2_SUM_PRINTED}\t")));
    }
}
