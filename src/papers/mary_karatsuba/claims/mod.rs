//! m-ary/Karatsuba (003_815d316bf35ceec2.txt, slides): parallel m-ary with precomputation, m-ary on
//! demand and slicing against square-and-multiply; parallel Karatsuba against GMP; the cost of
//! activating a thread. Its figures come from other machines (i7-2600 4c/8t, Xeon E5-2650 v2
//! 8c/16t, i7-6800K 6c/12t), pinned threads, C++ and GMP/MPIR of 2017.
//!
//! The figures are here as printed; the claims are built in [`modexp`] and [`configs`]
//! (exponentiation at 2 threads and at the slides' own configurations, with the timed
//! configurations each one needs as data: [`Setup`], [`Measure`]), [`mul`] (Karatsuba and
//! thread activation) and [`checks`] (MulMod counts and the slides' own arithmetic). Every
//! judged claim says whether it confirms the paper's figure or only an ordering at a scaled
//! setting. A claim about more threads than a machine has is registered all the same: the
//! study measures it where the CPUs exist and says `needs-N-threads` elsewhere.

/// The paper, as cited (its entry in [`super::papers::PAPERS`]).
pub const PAPER: super::papers::Paper = super::papers::Paper {
    id: "mary-karatsuba",
    short: "m-ary, slicing, Karatsuba",
    authors: "Sandro Bartolini and Biagio Peccerillo",
    title: "Why we should care about parallel programming in securing Cyber-physical systems",
    venue: "Cyber Physical Security Education Workshop (CPSEd), Paris, 2017",
    topic: "parallel m-ary and slicing exponentiation, parallel Karatsuba, against GMP",
};

pub mod checks;
pub mod configs;
pub mod modexp;
pub mod mul;

use super::Claim;

/// Best time change against square-and-multiply, % (negative = faster), with the slide's
/// configuration: (method, bits, %, as printed).
pub const MODEXP_BEST: [(&str, u32, f64, &str); 17] = [
    ("mary-precomp", 1024, -26.0, "-26 % (8 thr, 2^4-ary, 4 pt)"),
    (
        "mary-precomp",
        2048,
        -29.5,
        "-29.5 % (4 thr, 2^2-ary, 4 pt)",
    ),
    ("mary-precomp", 4096, -26.0, "-26 % (8 thr, 2^3-ary, 4 pt)"),
    (
        "mary-precomp",
        8192,
        -23.5,
        "-23.5 % (8 thr, 2^2-ary, 4 pt)",
    ),
    ("mary-precomp", 16384, -24.0, "-24 % (8 thr, 2^3-ary, 4 pt)"),
    (
        "mary-precomp",
        32768,
        -24.5,
        "-24.5 % (8 thr, 2^3-ary, 4 pt)",
    ),
    ("mary-ondemand", 1024, -32.0, "-32 % (3 thr, 2^3-ary)"),
    ("mary-ondemand", 4096, -27.0, "-27 % (3 thr, 2^6-ary)"),
    ("mary-ondemand", 8192, -27.0, "-27 % (3 thr, 2^4/2^6-ary)"),
    ("mary-ondemand", 16384, -27.0, "-27 % (3 thr, 2^6/2^8-ary)"),
    ("mary-ondemand", 32768, -27.0, "-27 % (2/8 thr, 2^6-ary)"),
    ("slice", 1024, -40.0, "-40 % (4 slices)"),
    ("slice", 2048, -36.5, "-36.5 % (10 slices)"),
    ("slice", 4096, -30.0, "-30 % (3-4 slices)"),
    ("slice", 8192, -30.0, "-30 % (3-4 slices)"),
    ("slice", 16384, -30.0, "-30 % (3-4 slices)"),
    ("slice", 32768, -30.0, "-30 % (3-4 slices)"),
];

/// µs per product of GMP `mpz_mul` and the sequential one-level `karaMul` (i7-2600):
/// (bits, GMP, karaMul).
pub const KARATSUBA_US: [(u32, f64, f64); 7] = [
    (1024, 0.61584, 1.72731),
    (2048, 0.873759, 2.29119),
    (4096, 2.57911, 4.07022),
    (8192, 7.86512, 9.55777),
    (16384, 21.1608, 26.396),
    (32768, 55.902, 67.8586),
    (65536, 153.327, 174.204),
];

/// One parallel Karatsuba figure: (method, bits, change against GMP, change against
/// `karaMul`, machine).
pub type KaratsubaFigure = (&'static str, u32, Option<f64>, Option<f64>, &'static str);

/// The i7-2600, the machine of the first three Karatsuba result slides.
pub const I7_2600: &str = "i7-2600, 3 threads";
/// The Xeon E5-2650 v2 of the "inf-threadsLF (2)" slide.
pub const E5_2650: &str = "E5-2650 v2, 3 threads";
/// The i7-6800K of the "inf-threadsLF (3)" slide.
pub const I7_6800K: &str = "i7-6800K, 3 threads";

/// Every parallel Karatsuba result of the slides by our method name (`kara-spawn` is the
/// slides' `std::async`, `kara-scoped` their `std::thread`, `kara-pool` their
/// "infinite threads", `kara-lockfree` their lock-free ones), 3 threads: (method, bits, change
/// against GMP, change against `karaMul`, machine), as fractions (−0.49 = 49 % faster). The
/// E5-2650 v2 rows come first, so a lookup by method and size finds its "normalized results".
pub const KARATSUBA_PARALLEL: [KaratsubaFigure; 19] = [
    ("kara-spawn", 32768, Some(-0.21), Some(-0.35), I7_2600),
    ("kara-spawn", 65536, Some(-0.45), Some(-0.52), I7_2600),
    ("kara-scoped", 32768, Some(-0.25), Some(-0.37), I7_2600),
    ("kara-scoped", 65536, Some(-0.41), Some(-0.48), I7_2600),
    ("kara-pool", 16384, Some(-0.21), Some(-0.37), I7_2600),
    ("kara-pool", 8192, None, Some(0.0), I7_2600),
    ("kara-lockfree", 2048, None, Some(-0.03), I7_2600),
    ("kara-lockfree", 4096, Some(0.17), Some(-0.24), E5_2650),
    ("kara-lockfree", 8192, Some(-0.33), Some(-0.45), E5_2650),
    ("kara-lockfree", 16384, Some(-0.41), Some(-0.54), E5_2650),
    ("kara-lockfree", 32768, Some(-0.49), Some(-0.58), E5_2650),
    ("kara-lockfree", 65536, Some(-0.55), Some(-0.61), E5_2650),
    ("kara-lockfree", 4096, None, Some(-0.25), I7_2600),
    ("kara-lockfree", 8192, Some(-0.35), Some(-0.46), I7_2600),
    ("kara-lockfree", 4096, Some(0.49), Some(-0.15), I7_6800K),
    ("kara-lockfree", 8192, Some(-0.19), Some(-0.38), I7_6800K),
    ("kara-lockfree", 16384, Some(-0.39), Some(-0.52), I7_6800K),
    ("kara-lockfree", 32768, Some(-0.48), Some(-0.56), I7_6800K),
    ("kara-lockfree", 65536, Some(-0.54), Some(-0.61), I7_6800K),
];

/// Thread activation, µs, (low, high) over the slides' machines, by the name
/// `mul::handoff::Activation::name` gives.
pub const HANDOFF_US: [(&str, f64, f64); 5] = [
    ("spawn", 4.3, 6.5),
    ("spawn+join", 10.1, 16.0),
    ("condvar-other-core", 2.3, 4.1),
    ("condvar-same-core", 1.3, 1.6),
    ("lockfree-handoff", 0.12, 0.18),
];

/// The activations of the rank-order claim, cheapest first.
pub const HANDOFF_ORDER: [&str; 3] = ["lockfree-handoff", "condvar-other-core", "spawn+join"];

/// The seed's µs per product of GMP (`gmp`) or `karaMul` (`kara-seq`) at `bits`.
pub fn karatsuba_us(method: &str, bits: u32) -> Option<f64> {
    let row = KARATSUBA_US.iter().find(|r| r.0 == bits)?;
    match method {
        "gmp" => Some(row.1),
        "kara-seq" => Some(row.2),
        _ => None,
    }
}

/// The seed's change against GMP (fraction) of a parallel Karatsuba at `bits` (the first
/// slide that gives one).
pub fn karatsuba_vs_gmp(method: &str, bits: u32) -> Option<f64> {
    KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.0 == method && r.1 == bits)
        .find_map(|r| r.2)
}

/// The seed's range for an activation, µs.
pub fn handoff_us(name: &str) -> Option<(f64, f64)> {
    HANDOFF_US.iter().find(|r| r.0 == name).map(|r| (r.1, r.2))
}

/// How the slice method cuts the exponent (`modexp::Slicing`, as data).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cut {
    /// Equal expected work (the method's default).
    #[default]
    Balanced,
    /// Equal numbers of bits.
    Even,
    /// Thinner high slices.
    Uneven,
}

/// One timed configuration of a modular-exponentiation method — the slides' N threads, Np
/// precomputation threads and 2^r-ary — as data: the experiment builds, checks and times it.
/// `method` is a `modexp` method name, or `binary`/`gmp` for the references.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Method name.
    pub method: &'static str,
    /// Modulus and exponent bits.
    pub bits: u32,
    /// Working threads (the slides' N threads; slices for `slice`).
    pub threads: usize,
    /// Table-building threads of `mary-precomp` (`None`: as many as `threads`).
    pub pt: Option<usize>,
    /// The digit size r (`None`: the method's choice for the size).
    pub window: Option<u32>,
    /// How `slice` cuts the exponent.
    pub cut: Cut,
    /// Threads pinned to logical CPUs.
    pub pin: bool,
}

impl Setup {
    /// `method` at `bits` on `threads` threads, everything else the method's choice.
    pub const fn new(method: &'static str, bits: u32, threads: usize) -> Self {
        Self {
            method,
            bits,
            threads,
            pt: None,
            window: None,
            cut: Cut::Balanced,
            pin: false,
        }
    }

    /// Square-and-multiply at `bits`, the slides' reference.
    pub const fn binary(bits: u32) -> Self {
        Self::new("binary", bits, 1)
    }

    /// With a 2^r-ary table.
    pub const fn r(mut self, r: u32) -> Self {
        self.window = Some(r);
        self
    }

    /// With `pt` table-building threads.
    pub const fn pt(mut self, pt: usize) -> Self {
        self.pt = Some(pt);
        self
    }

    /// `slice` in equal bits.
    pub const fn even(mut self) -> Self {
        self.cut = Cut::Even;
        self
    }

    /// `slice` with thinner high slices.
    pub const fn uneven(mut self) -> Self {
        self.cut = Cut::Uneven;
        self
    }

    /// Threads pinned.
    pub const fn pinned(mut self) -> Self {
        self.pin = true;
        self
    }

    /// The hardware threads it needs to run without time-sharing: the most threads of any
    /// of its phases.
    pub fn needs(&self) -> usize {
        self.threads.max(self.pt.unwrap_or(1)).max(1)
    }

    /// The hardware threads it needs when its table builders may time-share the CPUs (a
    /// claim with [`Timed::table_shares`]): the scan's threads, and 2 for a table built by
    /// several threads to be built in parallel at all.
    pub fn needs_sharing_table(&self) -> usize {
        self.threads.max(self.pt.map_or(1, |p| p.min(2))).max(1)
    }

    /// The rounds' key, e.g. `1024/mary-precomp/t2/p2/r4`.
    pub fn key(&self) -> String {
        let mut k = format!("{}/{}/t{}", self.bits, self.method, self.threads);
        if let Some(p) = self.pt {
            k.push_str(&format!("/p{p}"));
        }
        if let Some(r) = self.window {
            k.push_str(&format!("/r{r}"));
        }
        match self.cut {
            Cut::Balanced => {}
            Cut::Even => k.push_str("/even"),
            Cut::Uneven => k.push_str("/uneven"),
        }
        if self.pin {
            k.push_str("/pin");
        }
        k
    }

    /// For people: "mary-precomp, 1024 bits, 4 threads, 4 pt, 2^3-ary".
    pub fn describe(&self) -> String {
        let mut s = format!("{}, {} bits, {} thr", self.method, self.bits, self.threads);
        if let Some(p) = self.pt {
            s.push_str(&format!(", {p} pt"));
        }
        if let Some(r) = self.window {
            s.push_str(&format!(", 2^{r}-ary"));
        }
        match self.cut {
            Cut::Balanced => {}
            Cut::Even => s.push_str(", even slices"),
            Cut::Uneven => s.push_str(", uneven slices"),
        }
        if self.pin {
            s.push_str(", pinned");
        }
        s
    }
}

/// The pseudo-method of [`Measure::SquareOverProduct`]'s squarings.
pub const SQUARE: &str = "mulmod-square";
/// The pseudo-method of [`Measure::SquareOverProduct`]'s products.
pub const PRODUCT: &str = "mulmod-product";

/// What one part of a timed modexp claim is, computed round by round from the setups' times
/// (so every figure gets a paired bootstrap interval). "Change" is the time change against
/// square-and-multiply at the setup's size, in % (negative = faster).
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// The change of one setup.
    Change(Setup),
    /// The lowest change over setups.
    Best(Vec<Setup>),
    /// The k-th lowest change over setups (1 = the best).
    KthBest(usize, Vec<Setup>),
    /// The mean change over setups.
    Mean(Vec<Setup>),
    /// The fastest time of the first setups over the fastest of the second.
    Ratio(Vec<Setup>, Vec<Setup>),
    /// `(t(a) / t(b)) / (t(c) / t(d))`.
    RatioOfRatios([Setup; 4]),
    /// How many of the first setups beat square-and-multiply, less how many of the second do.
    CountDiff(Vec<Setup>, Vec<Setup>),
    /// `change(a) − change(b)`, points.
    ChangeDiff(Setup, Setup),
    /// The mean change over the first setups less the mean over the second, points.
    MeanDiff(Vec<Setup>, Vec<Setup>),
    /// Over groups, the largest best change less the smallest, points.
    Spread(Vec<Vec<Setup>>),
    /// The time of modular squarings over that of as many modular products at `bits` (a
    /// sequential micro-benchmark of the counted kernel: setups [`SQUARE`] and [`PRODUCT`]).
    SquareOverProduct(u32),
}

impl Measure {
    /// Every setup it reads (square-and-multiply at each size included where it needs it).
    pub fn setups(&self) -> Vec<Setup> {
        let mut v: Vec<Setup> = match self {
            Measure::Change(s) => vec![*s],
            Measure::Best(s) | Measure::KthBest(_, s) | Measure::Mean(s) => s.clone(),
            Measure::Ratio(a, b) | Measure::CountDiff(a, b) | Measure::MeanDiff(a, b) => {
                a.iter().chain(b).copied().collect()
            }
            Measure::RatioOfRatios(s) => s.to_vec(),
            Measure::ChangeDiff(a, b) => vec![*a, *b],
            Measure::Spread(groups) => groups.iter().flatten().copied().collect(),
            Measure::SquareOverProduct(b) => {
                vec![Setup::new(SQUARE, *b, 1), Setup::new(PRODUCT, *b, 1)]
            }
        };
        if self.against_binary() {
            let sizes: Vec<u32> = v.iter().map(|s| s.bits).collect();
            v.extend(sizes.into_iter().map(Setup::binary));
        }
        v.dedup();
        v
    }

    /// Whether its figure is a change against square-and-multiply.
    pub fn against_binary(&self) -> bool {
        !matches!(
            self,
            Measure::Ratio(..) | Measure::RatioOfRatios(_) | Measure::SquareOverProduct(_)
        )
    }

    /// The operand sizes it reads.
    pub fn sizes(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.setups().iter().map(|s| s.bits).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// A timed claim of the modexp experiment: the claim and one [`Measure`] per part of its rule.
#[derive(Clone, Debug)]
pub struct Timed {
    /// The claim as registered.
    pub claim: Claim,
    /// What each estimate is.
    pub parts: Vec<Measure>,
    /// Per part, the gain the slides print for it, where the part is one printed
    /// configuration (the slides' arithmetic is checked on these).
    pub printed: Vec<Option<f64>>,
    /// Its table builders may time-share the CPUs: with one scan thread and 4 table
    /// threads, all that time-sharing can delay is the table work beyond its longest
    /// thread (2–11 MulMods of 1,300–5,700, under [`TABLE_SHARE_MAX`] of the
    /// exponentiation, which a test counts), so the claim needs only its scan's threads
    /// ([`Setup::needs_sharing_table`]).
    pub table_shares: bool,
}

/// The most of an exponentiation's MulMods a time-shared table phase may hold for its claim
/// to be judged on fewer CPUs than table threads ([`Timed::table_shares`]): the most that
/// running the whole table on one core can add, against a ±2 % noise band and a rule with
/// a third of the paper's gain to spare.
pub const TABLE_SHARE_MAX: f64 = 0.01;

impl Timed {
    /// The hardware threads its setups need.
    pub fn needs(&self) -> usize {
        self.parts
            .iter()
            .flat_map(Measure::setups)
            .map(|s| {
                if self.table_shares {
                    s.needs_sharing_table()
                } else {
                    s.needs()
                }
            })
            .max()
            .unwrap_or(1)
    }

    /// The operand sizes it reads.
    pub fn sizes(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.parts.iter().flat_map(Measure::sizes).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// What a modular squaring costs in modular products (σ), the range the count-bound
/// paper-checks are judged over: the slides never give it, and say squaring is "simpler".
pub const SQUARING_COST: (f64, f64) = (0.75, 1.0);

/// Why [`SQUARING_COST`] is what it is.
pub const SQUARING_COST_WHY: &str = "σ is at least 0.75: a squaring saves at most half of a product's multiplication (GMP's manual: usually a third) and none of its reduction, which costs at least a multiplication (GMP's basecase division of 2n by n limbs runs at about an n×n product's speed; Montgomery's REDC needs as many word products); at most 1, a squaring done as a product";

/// The most a comb m-ary method (every thread squares k times and multiplies at its own
/// digits, `src/modexp/comb.rs`) can gain over square-and-multiply on `threads` threads with
/// 2^r-ary digits, in % (negative): by the MulMod count, k·σ + (k/r)(1 − 2^−r)/t against
/// k·σ + k/2, a squaring costing σ of a product; the table is left out (it only lowers the
/// gain).
pub fn comb_bound_pct(r: u32, threads: usize, sigma: f64) -> f64 {
    let r = f64::from(r.max(1));
    let products = (1.0 - 0.5f64.powf(r)) / (r * threads.max(1) as f64);
    -100.0 * (1.0 - (sigma + products) / (sigma + 0.5))
}

/// The most the slice method can gain over square-and-multiply on `threads` slices, in %
/// (negative), by the MulMod count with the best cut (`src/modexp/slice.rs`): slice j, from
/// bit lo_j, costs s_j(σ + ½) + lo_j·σ, all equal; σ = 1 gives −25 % on 2 threads.
pub fn slice_bound_pct(threads: usize, sigma: f64) -> f64 {
    // With a common time of 1: s_j = (1 − lo_j σ) / (σ + ½); the bits covered set k.
    let mut lo = 0.0;
    for _ in 0..threads.max(1) {
        lo += (1.0 - lo * sigma) / (sigma + 0.5);
    }
    -100.0 * (1.0 - 1.0 / (lo * (sigma + 0.5)))
}

/// The bound of `method` on `threads` threads with 2^r-ary digits (slicing ignores r).
pub fn bound_pct(method: &str, r: u32, threads: usize, sigma: f64) -> f64 {
    match method {
        "slice" => slice_bound_pct(threads, sigma),
        _ => comb_bound_pct(r, threads, sigma),
    }
}

fn c(id: &str, experiment: &'static str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "mary-karatsuba", experiment, reference, claim)
}

/// The claims of m-ary/Karatsuba, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v: Vec<Claim> = modexp::timed().into_iter().map(|t| t.claim).collect();
    v.extend(mul::claims());
    v.extend(checks::claims());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slides as printed (a verbatim excerpt, tests/fixtures/printed/mary_karatsuba.txt).
    const PRINTED: &str = include_str!("../../../../tests/fixtures/printed/mary_karatsuba.txt");

    fn printed_has(s: &str) -> bool {
        PRINTED.contains(s)
    }

    #[test]
    fn the_karatsuba_table_is_as_printed() {
        for (bits, gmp, kara) in KARATSUBA_US {
            // The slide prints decimal commas: "1024	0,61584	1,72731".
            let row = format!("{bits}\t{gmp}\t{kara}").replace('.', ",");
            assert!(printed_has(&row), "{row}");
        }
    }

    #[test]
    fn the_best_figures_and_parallel_karatsuba_are_as_printed() {
        for (_, bits, pct, _) in MODEXP_BEST {
            let pct = format!("-{}%", super::super::num(-pct));
            assert!(printed_has(&pct), "{bits}: {pct}");
        }
        for (m, bits, gmp, seq, _) in KARATSUBA_PARALLEL {
            for f in [gmp, seq].into_iter().flatten() {
                let pct = format!("{}%", super::super::num((f * 100.0).round()));
                let pct = if f > 0.0 { format!("+{pct}") } else { pct };
                assert!(
                    f == 0.0 || printed_has(&pct),
                    "{m} {bits}: {pct} not printed"
                );
            }
        }
        for (name, lo, hi) in HANDOFF_US {
            for x in [lo, hi] {
                let us = [format!("{x} us"), format!("{x:.1} us")];
                assert!(us.iter().any(|u| printed_has(u)), "{name}: {x}");
            }
        }
    }

    #[test]
    fn bounds_follow_the_mulmod_count() {
        // Slicing on 2 threads with squarings as dear as products: −25 % (src/modexp/slice.rs).
        assert!((slice_bound_pct(2, 1.0) + 25.0).abs() < 1e-9);
        assert!((slice_bound_pct(1, 1.0)).abs() < 1e-9);
        // More slices approach −33 %; cheaper squarings raise the bound.
        assert!(slice_bound_pct(10, 1.0) > -33.34 && slice_bound_pct(10, 1.0) < -33.3);
        assert!(slice_bound_pct(2, 0.5) < -30.0);
        // Comb m-ary: 2^2-ary on one thread saves an eighth of square-and-multiply's 1.5k.
        assert!((comb_bound_pct(2, 1, 1.0) + 100.0 / 12.0).abs() < 1e-9);
        assert!(comb_bound_pct(6, 2, 1.0) < -27.0 && comb_bound_pct(6, 2, 1.0) > -28.0);
        assert!(comb_bound_pct(8, 64, 1.0) > -100.0 / 3.0);
    }

    /// Every judged claim says whether it confirms the paper's figure or only an ordering at
    /// a scaled setting, and what that leaves untested.
    #[test]
    fn every_judged_claim_says_what_it_confirms() {
        use crate::results::{Confirms, Kind};
        let all = claims();
        for c in &all {
            if matches!(c.kind, Kind::Measured | Kind::Modelled) {
                assert!(c.confirms.is_some(), "{} confirms nothing", c.id);
            }
            assert_eq!(
                c.confirms == Some(Confirms::Ordering),
                c.untested
                    .as_deref()
                    .is_some_and(|u| u.contains("not tested here")),
                "{}",
                c.id
            );
        }
        let confirms = |id: &str| all.iter().find(|c| c.id == id).unwrap().confirms;
        // 2 threads against the paper's 4 slices: the ordering only.
        assert_eq!(
            confirms("mary-karatsuba-slice-1024"),
            Some(Confirms::Ordering)
        );
        // The paper's own setting, its gain within the MulMod bound: the figure.
        assert_eq!(
            confirms("mary-karatsuba-precomp-1024-4thr"),
            Some(Confirms::Figure)
        );
        // The paper's own setting, its −14 % beyond the −8.3 % bound: the ordering only.
        assert_eq!(
            confirms("mary-karatsuba-precomp-2048-1thr-4pt"),
            Some(Confirms::Ordering)
        );
        assert_eq!(
            confirms("mary-karatsuba-kara2-lockfree-e5"),
            Some(Confirms::Ordering)
        );
        assert_eq!(
            confirms("mary-karatsuba-count-comb-top"),
            Some(Confirms::Figure)
        );
    }

    #[test]
    fn setups_name_what_they_need() {
        let s = Setup::new("mary-precomp", 1024, 1).pt(4).r(2);
        assert_eq!(s.needs(), 4);
        assert_eq!(s.needs_sharing_table(), 2);
        assert_eq!(
            Setup::new("mary-precomp", 1024, 4)
                .pt(4)
                .needs_sharing_table(),
            4
        );
        assert_eq!(s.key(), "1024/mary-precomp/t1/p4/r2");
        let m = Measure::Change(s);
        assert_eq!(m.setups(), vec![s, Setup::binary(1024)]);
        assert_eq!(Measure::SquareOverProduct(4096).sizes(), vec![4096]);
        assert!(!Measure::SquareOverProduct(4096).against_binary());
    }
}
