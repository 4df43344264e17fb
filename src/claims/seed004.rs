//! Seed 004 (004_18c4ebc23388b709.txt): energy of sequential Blowfish, RC4 and RC4A against
//! their parallel forms PBlock, PARC4 and PARC4-I, at default and calibrated processor states,
//! on a Core 2 Duo T5270 laptop (platform 1) and an AMD FX-8320 desktop (platform 2).
use super::{Claim, Load, Rule};

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

/// A row of Tables 2–3 by algorithm name.
pub fn tables_2_3(alg: &str) -> Option<(f64, f64, f64, f64)> {
    TABLES_2_3
        .iter()
        .find(|r| r.0 == alg)
        .map(|r| (r.1, r.2, r.3, r.4))
}

fn c(id: &str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "seed004", "seed004-ciphers", reference, claim)
}

const FX: &str = "FX-8320 preset: the state's power with the busy cores × our measured time scaled by the clock ratio";

/// The claims of seed 004, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v = Vec::new();
    for (seq, par, saving) in LOW_CLOCK_SAVING_PCT {
        let (Some(s), Some(p)) = (tables_2_3(seq), tables_2_3(par)) else {
            continue;
        };
        v.push(c(&format!("seed004-speed-{par}"), "Tables 2–3", &format!("{par} is faster than {seq}"))
            .paper(format!("{:.2}× (laptop), {:.2}× (desktop)", p.1 / s.1, p.3 / s.3))
            .metric("MB/s of the parallel form on every logical CPU / MB/s of the sequential one, paired rounds", "×")
            .rule(Rule::AtLeast { min: 1.1 }, "10 %: a smaller gain is within what turbo clocks and caches move; the paper's gains are 1.66–4×")
            .speedup());
        v.push(c(&format!("seed004-low-clock-{par}"), "Conclusion, Figs. 3–6", &format!("{par} at the low clock uses {saving} % less energy than {seq} at the default"))
            .paper(format!("{saving} % less"))
            .metric("1 − E(parallel, calibrated state) / E(sequential, default state), per byte", "%")
            .rule(Rule::AtLeast { min: saving / 2.0 }, "half the paper's saving: its Joulemeter counts application power above the base, which a chip-power model does not, so only half can be asked of the model")
            .modelled(FX)
            .parallel_input().load(Load::Lowers));
        v.push(
            c(
                &format!("seed004-default-energy-{par}"),
                "Tables 2–3 (µJ/B)",
                &format!("At the default clock {par} needs more energy per byte than {seq}"),
            )
            .paper(format!("{} against {} µJ/B (desktop)", p.2, s.2))
            .metric(
                "µJ/B of the parallel form / µJ/B of the sequential one, default state",
                "×",
            )
            .rule(
                Rule::AtLeast { min: 1.0 },
                "none: an ordering (the paper's parallel forms need 1.03–2.1× the sequential µJ/B)",
            )
            .modelled(FX)
            .parallel_input()
            .load(Load::Raises),
        );
    }
    v.push(c("seed004-platforms", "Tables 1 and 4", "Platforms: laptop default 1.2 GHz 1.2 V, calibrated 1.5 GHz 0.9 V; desktop default 3.5 GHz 1.332 V, calibrated 2.3 GHz 0.9 V; FX-8320 states 1.3 V/2900, 1.1875 V/2300, 1.0625 V/1700, 0.95 V/1400 MHz")
        .paper("as listed")
        .not_testable("platform facts, encoded in the t5270 and fx-8320 presets (both 2300 MHz voltages kept: Tables 1 and 4 disagree); the two machines with a settable clock would test them"));
    v
}
