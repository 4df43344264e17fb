//! m-ary/Karatsuba's claims that no timing decides: the work split the slides describe, judged on
//! the MulMod counts of our implementation ([`Count`], modelled: exact, fixed by the code and
//! the operands), and the slides' own arithmetic (paper-checks: a summary against the figures
//! it summarises, a derived figure against its inputs).
use super::{Setup, c};
use crate::claims::{Claim, Rule, num};

/// The experiment that counts and checks.
pub const EXPERIMENT: &str = "mary-karatsuba-counts";

/// The exponent of Karatsuba's complexity as printed ("O(n^{1.583})"; log2 3 = 1.58496).
pub const KARATSUBA_EXPONENT_PRINTED: f64 = 1.583;

/// On-demand m-ary at 8192 bits, 2^6-ary on 3 threads: printed twice on one slide, as −27 %
/// ("−27% (2^4/2^6-ary, 3 threads)") and −25 % ("−25% (2^6-ary, 3 threads)").
pub const ONDEMAND_8192_R6_3THR_PRINTED: [f64; 2] = [-27.0, -25.0];

/// The slicing wrap-up: "Up to −40% for 1024-bit, −36.5% for 2048-bit, −30% for
/// 4096-32768-bit", (bits, %).
pub const SLICE_WRAPUP: [(u32, f64); 6] = [
    (1024, -40.0),
    (2048, -36.5),
    (4096, -30.0),
    (8192, -30.0),
    (16384, -30.0),
    (32768, -30.0),
];

/// The m-ary-with-precomputation wrap-up: "Up to −25% / −30% improvement".
pub const MARY_WRAPUP_UP_TO: f64 = -30.0;
/// The on-demand wrap-up: "Up to −32% (1024) and never less than −27% in the other cases".
pub const ONDEMAND_WRAPUP: (f64, f64) = (-32.0, -27.0);
/// The on-demand wrap-up: "3-threads or 6/7/8 threads are the best configuration".
pub const ONDEMAND_WRAPUP_THREADS: [usize; 4] = [3, 6, 7, 8];
/// The conclusions: exponentiation "−30/−40%".
pub const CONCLUSION_MODEXP: (f64, f64) = (-30.0, -40.0);
/// The conclusions: multiplication "−15% to −60% vs sequential Square&Multiply" (the
/// figures are against sequential Karatsuba) and "−19% to −54% vs native GMP/MPIR".
pub const CONCLUSION_MUL: [f64; 4] = [-15.0, -60.0, -19.0, -54.0];
/// The Karatsuba wrap-up against karaMul: "from 4096 keys (−15%/−25%) up to −55%/60%".
pub const KARA_WRAPUP_SEQ: [f64; 3] = [-15.0, -25.0, -60.0];
/// The Karatsuba wrap-up against GMP: "less than −30% @8192 and up to less than −50% for
/// bigger cases".
pub const KARA_WRAPUP_GMP: (f64, f64) = (-30.0, -50.0);

/// One MulMod-count figure: what the counts experiment computes from one or more counted
/// exponentiations on the seed's operands.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    /// Total MulMods of the first over the second.
    Total(Setup, Setup),
    /// Critical path (the busiest unit of each phase, summed) of the first over the second.
    Critical(Setup, Setup),
    /// The busiest working thread's MulMods over the least busy one's.
    Imbalance(Setup),
    /// Products (not squarings) of the busiest working thread over all products of the
    /// second (a 1-thread run).
    ThreadProducts(Setup, Setup),
    /// MulMods of the thread holding the exponent's top bits over the busiest other one.
    Top(Setup),
    /// `(Total a/b) / (Total c/d)`.
    TotalRatioOfRatios([Setup; 4]),
}

impl Count {
    /// Every setup it counts.
    pub fn setups(&self) -> Vec<Setup> {
        match self {
            Count::Total(a, b) | Count::Critical(a, b) | Count::ThreadProducts(a, b) => {
                vec![*a, *b]
            }
            Count::Imbalance(a) | Count::Top(a) => vec![*a],
            Count::TotalRatioOfRatios(s) => s.to_vec(),
        }
    }
}

/// A claim judged on MulMod counts, one [`Count`] per part.
#[derive(Clone, Debug)]
pub struct Counted {
    /// The claim as registered.
    pub claim: Claim,
    /// One count per part of its rule.
    pub parts: Vec<Count>,
}

/// Random exponents (with their bases and moduli) each count claim is judged over, per size.
pub const SAMPLES: usize = 32;

const MODEL: &str = "MulMod count of src/modexp (exact for each exponent), mean over 32 random operands per size with a bootstrap interval";

/// A count claim: judged at the slides' own configurations (sizes, windows, threads), so a
/// verdict confirms their statement, not an ordering at a scaled setting.
fn counted(claim: Claim, parts: Vec<Count>) -> Counted {
    Counted {
        claim: claim.modelled(MODEL).confirms_figure(),
        parts,
    }
}

/// The claims judged on MulMod counts, in report order.
pub fn counts() -> Vec<Counted> {
    let pm = |bits, t, pt, r| Setup::new("mary-precomp", bits, t).pt(pt).r(r);
    let od = |bits, r| Setup::new("mary-ondemand", bits, 1).r(r);
    let sl = |t| Setup::new("slice", 2048, t);
    vec![
        counted(c("mary-karatsuba-count-mary-fewer", EXPERIMENT, "m-ary approach with precomputation - intro", "Scanning the exponent log2(m) bits at a time reduces the number of modular multiplications")
            .paper("m-ary method → reduces number of modular multiplications")
            .metric("MulMods of sequential m-ary (its own window) over square-and-multiply's, mean over random exponents", "×")
            .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![Rule::AtMost { max: 1.0 }; 2] }, "1: \"reduces\" is an ordering; a window too big for the key (2^10-ary at 1024 bits) needs more, so it can fail")
            .plausible(&[(0.6, 1.5); 2], "windows 1 to 10: from 1.4× (a 1022-entry table at 1024 bits) down to about 0.8×"),
            vec![Count::Total(Setup::new("mary", 1024, 1), Setup::binary(1024)), Count::Total(Setup::new("mary", 4096, 1), Setup::binary(4096))]),
        counted(c("mary-karatsuba-count-comb-split", EXPERIMENT, "m-ary approach with precomputation – intro (2)", "Each thread performs fewer multiplications, and the threads' work is quite balanced")
            .paper("Each thread performs a reduced amount of multiplications; Work of each thread is quite balanced (e is thousands bits, r a few bits)")
            .metric("2048 bits, 2^4-ary, 4 threads: the busiest thread's products over 1 thread's; busiest thread's MulMods over the least busy one's; means over random exponents", "×")
            .rule(Rule::Each { parts: vec!["thread products / 1-thread products".into(), "busiest / least busy".into()], rules: vec![Rule::AtMost { max: 0.3 }, Rule::AtMost { max: 1.1 }] },
                "0.3: a quarter of the products per thread, plus a fifth for uneven digits; 1.1: \"quite balanced\" is within 10 %")
            .plausible(&[(0.2, 1.0), (0.9, 2.0)], "a thread's share of the digits is 1/4 to all of them; every thread squares about k times"),
            vec![Count::ThreadProducts(pm(2048, 4, 1, 4), pm(2048, 1, 1, 4)), Count::Imbalance(pm(2048, 4, 1, 4))]),
        counted(c("mary-karatsuba-count-comb-top", EXPERIMENT, "m-ary approach with precomputation – intro (2)", "The time is bounded by the thread holding the most significant digit (e3)")
            .paper("Work execution time is limited by the exponentiation by e3 ...")
            .metric("MulMods of the thread holding the top digit over the busiest other thread, 2048 bits, 2^4-ary, 4 threads, mean over random exponents", "×")
            .rule(Rule::AtLeast { min: 1.0 }, "1: \"limited by\" means it is the busiest")
            .plausible(&[(0.9, 1.1)], "the threads differ by a digit's r squarings and a few products"),
            vec![Count::Top(pm(2048, 4, 1, 4))]),
        counted(c("mary-karatsuba-count-ondemand-saves", EXPERIMENT, "m-ary “on-demand” - intro", "On demand only the required table entries are computed, which pays for bigger m")
            .paper("Only the required precomputed entries are calculated; Useful for bigger m-ary approaches")
            .metric("MulMods on demand over with a full table, 2^8-ary at 1024 bits, 1 thread; and that ratio over the same at 2^4-ary; means over random exponents", "×")
            .rule(Rule::Each { parts: vec!["2^8-ary".into(), "2^8-ary / 2^4-ary".into()], rules: vec![Rule::AtMost { max: 0.95 }, Rule::AtMost { max: 1.0 }] },
                "0.95: computing only what the digits need saves at least 5 %; 1: more for a bigger table")
            .plausible(&[(0.5, 1.05), (0.5, 1.2)], "a 2^8 table is 254 MulMods of about 1400; a 1024-bit exponent uses at most 128 entries"),
            vec![Count::Total(od(1024, 8), pm(1024, 1, 1, 8)), Count::TotalRatioOfRatios([od(1024, 8), pm(1024, 1, 1, 8), od(1024, 4), pm(1024, 1, 1, 4)])]),
        counted(c("mary-karatsuba-count-slice-unbalanced", EXPERIMENT, "Slicing – intro (2)", "Slicing's load is quite unbalanced, bounded by the thread with the most significant slice")
            .paper("The load of the threads is quite unbalanced; Their overall computation time is bounded by the one with the most significant slice")
            .metric("even slices, 2048 bits, 4 threads: busiest thread's MulMods over the least busy's; top slice's over the busiest other's; means over random exponents", "×")
            .rule(Rule::Each { parts: vec!["busiest / least busy".into(), "top slice / busiest other".into()], rules: vec![Rule::AtLeast { min: 1.5 }, Rule::AtLeast { min: 1.0 }] },
                "1.5: \"quite unbalanced\" is half as much work again; 1: \"bounded by\" means the top slice is the busiest")
            .plausible(&[(1.0, 4.0), (0.5, 1.5)], "the top slice also squares the lower bits through: up to 3× the lowest's work with 4 even slices"),
            vec![Count::Imbalance(sl(4).even()), Count::Top(sl(4).even())]),
        counted(c("mary-karatsuba-count-slice-thinner", EXPERIMENT, "Slicing – intro (2)", "Thinner high slices (uneven, or optimally balanced) relieve the most significant slice")
            .paper("The load of the more significant slices can be made thinner with uneven exponent slicing; Optimally balanced approaches have been proposed")
            .metric("critical path of uneven and of balanced slices over even ones, 2048 bits, 4 threads, means over random exponents", "×")
            .rule(Rule::Each { parts: vec!["uneven / even".into(), "balanced / even".into()], rules: vec![Rule::AtMost { max: 0.95 }; 2] }, "0.95: a cut that relieves the top slice shortens the critical path by at least 5 %")
            .plausible(&[(0.6, 1.1); 2], "by the MulMod count the best cut saves about 22 % of even slicing's critical path on 4 threads"),
            vec![Count::Critical(sl(4).uneven(), sl(4).even()), Count::Critical(sl(4), sl(4).even())]),
        counted(c("mary-karatsuba-count-slice-enough", EXPERIMENT, "Slicing – results", "3 or 4 slices are enough for the maximum benefit (by the work on the critical path)")
            .paper("3/4 threads, and slices, are typically enough to get the maximum benefit")
            .metric("critical path of 4 balanced slices over 10, 2048 bits, mean over random exponents", "×")
            .rule(Rule::AtMost { max: 1.05 }, "1.05: \"enough\" leaves 10 slices at most 5 % to gain")
            .plausible(&[(0.9, 1.5)], "by the MulMod count 4 slices reach −32.5 %, 10 reach −33.3 %; even cuts would leave much more"),
            vec![Count::Critical(sl(4), sl(10))]),
    ]
}

/// The slides' own arithmetic and the by-construction claims, in report order.
pub fn checks() -> Vec<Claim> {
    let check = |id: &str, reference: &str, claim: &str| c(id, EXPERIMENT, reference, claim);
    vec![
        c("mary-karatsuba-count-table-unused", EXPERIMENT, "m-ary with precomputation: wrap up", "With a big m not all precomputations are used")
            .paper("Big m: not all precomputations are statistically used")
            .by_construction("a 1024-bit exponent has 128 digits of 8 bits, so at most 128 of a 2^8-ary table's 254 powers can be used (pigeonhole); mary-ondemand (src/modexp/mary_ondemand.rs) computes only those, which mary-karatsuba-count-ondemand-saves counts"),
        check("mary-karatsuba-check-karatsuba-exponent", "Parallel Karatsuba - intro", "Karatsuba reduces the complexity of multiplication to O(n^1.583)")
            .paper("from O(n^2) to O(n^{1.583})")
            .paper_values(&[KARATSUBA_EXPONENT_PRINTED])
            .metric("log2 3, Karatsuba's exponent", "")
            .rule(Rule::Diff { target: KARATSUBA_EXPONENT_PRINTED, tol: 0.0005 }, "±0.0005: the slide prints three decimals")
            .paper_check()
            .defect("karatsuba-exponent"),
        check("mary-karatsuba-check-mary-wrapup", "m-ary with precomputation: wrap up", "2/4 precomputation threads improve m-ary by up to 25–30 %")
            .paper("Up to -25% / -30% improvement")
            .paper_values(&[-25.0, -30.0])
            .metric("the largest gain of the precomputation slides' figures", "%")
            .rule(Rule::Diff { target: MARY_WRAPUP_UP_TO, tol: 0.5 }, "±0.5 points: a wrap-up rounds to whole percent")
            .paper_check(),
        check("mary-karatsuba-check-precomp-r4-max", "m-ary with precomputation: wrap up", "With 8 threads and 4 pt, 2^4-ary gains at most 26 %")
            .paper("2^4-ary computation (average improvement: -22%, max -26%)")
            .paper_values(&[-26.0])
            .metric("the largest gain of the precomputation slides' 2^4-ary figures", "%")
            .rule(Rule::Diff { target: -26.0, tol: 0.5 }, "±0.5 points: whole percent")
            .paper_check(),
        check("mary-karatsuba-check-ondemand-wrapup", "m-ary “on-demand”: wrap up", "On-demand m-ary gains up to 32 % (1024 bits) and never less than 27 % at the other sizes")
            .paper("Up to -32% (1024) and never less than -27% in the other cases")
            .paper_values(&[ONDEMAND_WRAPUP.0, ONDEMAND_WRAPUP.1])
            .metric("the on-demand slides' best gain at 1024 bits; the smallest of their best gains at the other sizes", "%")
            .rule(Rule::Each { parts: vec!["1024 bits".into(), "other sizes".into()], rules: vec![Rule::Diff { target: ONDEMAND_WRAPUP.0, tol: 0.5 }, Rule::AtMost { max: ONDEMAND_WRAPUP.1 }] }, "±0.5 points: whole percent; \"never less than\" is a bound")
            .paper_check(),
        check("mary-karatsuba-check-ondemand-best-threads", "m-ary “on-demand”: wrap up", "3 threads or 6/7/8 threads are the best configurations")
            .paper("3-threads or 6/7/8 threads are the best configuration")
            .paper_values(&[3.0, 6.0, 7.0, 8.0])
            .metric("sizes of the on-demand slides whose best printed figure no configuration on 3, 6, 7 or 8 threads reaches", "sizes")
            .rule(Rule::AtMost { max: 0.0 }, "0: at every size a best configuration runs 3 or 6/7/8 threads; where configurations tie for a size's best (4096: 3 and 4 threads at −27 %; 32768: 2 and 8 threads at −27 %), one on a named count is what \"3 or 6/7/8 threads are the best\" says, and a tie on another count does not contradict it")
            .paper_check(),
        check("mary-karatsuba-check-ondemand-8192-twice", "m-ary “on-demand” – results 4k & 8k", "The 8192-bit figure of 2^6-ary on 3 threads is printed once")
            .paper("8192: -27% (2^4/2^6-ary, 3 threads), ... -25% (2^6-ary, 3 threads)")
            .paper_values(&ONDEMAND_8192_R6_3THR_PRINTED)
            .metric("the difference between the two figures printed for 2^6-ary on 3 threads at 8192 bits", "points")
            .rule(Rule::AtMost { max: 0.5 }, "0.5 points: one configuration, one figure up to rounding")
            .paper_check()
            .defect("ondemand-8192-r6-twice"),
        check("mary-karatsuba-check-slice-wrapup", "Slicing: wrap up", "The slicing wrap-up repeats the results slide: −40 % (1024), −36.5 % (2048), −30 % (4096–32768)")
            .paper("Up to -40% for 1024-bit, -36.5% for 2048-bit, -30% for 4096-32768-bit")
            .paper_values(&[-40.0, -36.5, -30.0])
            .metric("the wrap-up's figure less the results slide's, per size", "points")
            .rule(Rule::Each { parts: SLICE_WRAPUP.iter().map(|(b, _)| format!("{b} bits")).collect(), rules: vec![Rule::Diff { target: 0.0, tol: 0.05 }; SLICE_WRAPUP.len()] }, "±0.05 points: the same figure")
            .paper_check(),
        check("mary-karatsuba-check-spawn-vs-product", "Parallel Karatsuba – implementation (threads) discussion", "A GMP product is fast compared with a spawn (4096 bits) and a spawn + join (8192 bits), by the slide's own figures")
            .paper("GMPmul 2.57911 us at 4096 and 7.86512 us at 8192 bits, compared to spawn 4.3–6.5 us and spawn+join 10.1–16.0 us")
            .paper_values(&[2.57911, 7.86512])
            .metric("the cheapest spawn over GMPmul at 4096 bits; the cheapest spawn + join over GMPmul at 8192 bits", "×")
            .rule(Rule::Each { parts: vec!["spawn / 4096-bit product".into(), "spawn+join / 8192-bit product".into()], rules: vec![Rule::AtLeast { min: 1.0 }; 2] }, "1: \"fast compared to\" is an ordering")
            .paper_check(),
        check("mary-karatsuba-check-kara-i7-table", "Parallel Karatsuba – results parallel simple (i7-2600)", "The i7-2600 slide's changes against karaMul and against GMP agree: std::async and std::thread at one size imply one karaMul/GMP ratio")
            .paper("32768: -35%/-21% (std::async), -37%/-25% (std::thread); 65536: -52%/-45%, -48%/-41%")
            .paper_values(&[-35.0, -21.0, -37.0, -25.0, -52.0, -45.0, -48.0, -41.0])
            .metric("karaMul / GMPmul implied by std::async's pair less that implied by std::thread's ((1 + vs GMP) / (1 + vs karaMul) each, the interval from the whole-percent printing of all four changes), per size", "×")
            .rule(Rule::Each {
                parts: I7_SAME_SIZE.iter().map(|b| format!("{b} bits")).collect(),
                rules: vec![Rule::Diff { target: 0.0, tol: 0.0 }; I7_SAME_SIZE.len()],
            }, "0 within the printing: both forms were normalised by the same karaMul and GMP runs of one machine (the slide's i7-2600); the µs table of the implementation slides names no machine, so the slide is not held to it (shown beside)")
            .paper_check(),
        check("mary-karatsuba-check-kara-newer-hw", "Parallel Karatsuba – results parallel inf-threadsLF (3)", "On the newer i7-6800K sequential code is faster, so the lock-free gains are smaller than on the E5-2650 v2")
            .paper("newer HW: slightly better performance on sequential code ← turbo frequency, ILP")
            .metric("the i7-6800K's change less the E5-2650 v2's, per size, against karaMul and against GMP", "points")
            .rule(Rule::Each {
                parts: NEWER_HW_SIZES.iter().flat_map(|b| [format!("{b} vs karaMul"), format!("{b} vs GMP")]).collect(),
                rules: vec![Rule::AtLeast { min: 0.0 }; NEWER_HW_SIZES.len() * 2],
            }, "0: a smaller gain (or a larger loss) at every size")
            .paper_check(),
        check("mary-karatsuba-check-kara-wrapup-seq", "Parallel Karatsuba: wrap up", "Over plain sequential Karatsuba: from 15–25 % at 4096 bits up to 55–60 %")
            .paper("Over plain Karatsuba sequential from 4096 keys (-15%/-25%) up to -55%/60%")
            .paper_values(&KARA_WRAPUP_SEQ)
            .metric("the slides' smallest and largest 4096-bit gains over karaMul; their largest gain at any size", "%")
            .rule(Rule::Each { parts: vec!["4096, smallest".into(), "4096, largest".into(), "largest".into()],
                rules: vec![Rule::Diff { target: KARA_WRAPUP_SEQ[0], tol: 0.5 }, Rule::Diff { target: KARA_WRAPUP_SEQ[1], tol: 0.5 }, Rule::Diff { target: KARA_WRAPUP_SEQ[2], tol: 2.5 }] },
                "±0.5 points for figures quoted from the slides; ±2.5 for \"up to −55%/60%\", round figures")
            .paper_check(),
        check("mary-karatsuba-check-kara-wrapup-gmp", "Parallel Karatsuba: wrap up", "Over GMP: more than 30 % at 8192 bits, up to more than 50 % at bigger sizes")
            .paper("Over GMP: less than -30% @8192 and up to less than -50% for bigger cases")
            .paper_values(&[KARA_WRAPUP_GMP.0, KARA_WRAPUP_GMP.1])
            .metric("each machine's change against GMP at 8192 bits (i7-2600, E5-2650 v2, i7-6800K); the largest gain beyond", "%")
            .rule(Rule::Each { parts: vec!["i7-2600 at 8192".into(), "E5-2650 v2 at 8192".into(), "i7-6800K at 8192".into(), "largest beyond 8192".into()],
                rules: vec![Rule::AtMost { max: KARA_WRAPUP_GMP.0 }, Rule::AtMost { max: KARA_WRAPUP_GMP.0 }, Rule::AtMost { max: KARA_WRAPUP_GMP.0 }, Rule::AtMost { max: KARA_WRAPUP_GMP.1 }] },
                "the wrap-up's bounds as printed")
            .paper_check()
            .defect("kara-wrapup-gmp-8192"),
        check("mary-karatsuba-check-conclusion-modexp", "Conclusions", "Exponentiation can be accelerated 30–40 % through parallelism")
            .headline()
            .paper("Exponentiation, as it is, can be accelerated through parallelism -30/-40%")
            .paper_values(&[CONCLUSION_MODEXP.0, CONCLUSION_MODEXP.1])
            .metric("each method's best figure on its slides (slicing, on demand, precomputation)", "%")
            .rule(Rule::Each { parts: vec!["slice".into(), "mary-ondemand".into(), "mary-precomp".into()], rules: vec![Rule::Diff { target: -35.0, tol: 5.5 }; 3] }, "within −30 to −40 % with half a point of rounding")
            .paper_check(),
        check("mary-karatsuba-check-conclusion-mul", "Conclusions", "Multiplication gains 15–60 % against the sequential form (printed as \"vs sequential Square&Multiply\", though the slides compare with sequential Karatsuba) and 19–54 % against GMP")
            .headline()
            .paper("-15% to -60% vs sequential Square&Multiply; -19% to -54% vs native GMP/MPIR")
            .paper_values(&CONCLUSION_MUL)
            .metric("the i7-6800K slide's smallest and largest gains against karaMul and against GMP (the slide whose range the conclusion quotes)", "%")
            .rule(Rule::Each { parts: vec!["smallest vs karaMul".into(), "largest vs karaMul".into(), "smallest vs GMP".into(), "largest vs GMP".into()],
                rules: CONCLUSION_MUL.iter().map(|&t| Rule::Diff { target: t, tol: 1.0 }).collect() },
                "±1 point: a conclusion's round figures")
            .paper_check(),
        bound_check("mary-karatsuba-check-slice-count-bound", "Slicing – results", "Slicing's −40 % at 1024 bits on 4 slices is within what slicing's MulMod count allows",
            "Up to -40% for 1024-bit (4-threads/slices)", SLICE_1024_4, "4 slices with the best cut (src/modexp/slice.rs)")
            .defect("slice-1024-beyond-count-bound"),
        bound_check("mary-karatsuba-check-ondemand-count-bound", "m-ary “on-demand” – results 1024", "On-demand's −32 % at 1024 bits on 3 threads (2^3-ary) is within what the comb split's MulMod count allows",
            "Sweet spot at 3-threads 2^3-ary (-32%)", ONDEMAND_1024_3, "3 comb threads, 2^3-ary digits, the table left out (src/modexp/comb.rs)"),
    ]
}

/// Slicing's best 1024-bit figure: (slices, %).
pub const SLICE_1024_4: (usize, f64) = (4, -40.0);
/// On-demand's sweet spot at 1024 bits: (threads, %), 2^3-ary.
pub const ONDEMAND_1024_3: (usize, f64) = (3, -32.0);

/// A paper-check of a printed gain against the MulMod count bound of its configuration
/// (the model: [`super::bound_pct`]), with a squaring costing σ of a product over
/// [`super::SQUARING_COST`]: consistent when the bound reaches the printed gain (less its
/// half point of rounding) for some σ there.
fn bound_check(
    id: &str,
    reference: &str,
    claim: &str,
    printed: &str,
    (threads, pct): (usize, f64),
    how: &str,
) -> Claim {
    let (lo, hi) = super::SQUARING_COST;
    c(id, EXPERIMENT, reference, claim)
        .paper(printed)
        .paper_values(&[pct])
        .metric(format!("the most the method can gain over square-and-multiply by the MulMod count on {threads} threads ({how}), a modular squaring costing σ of a modular product, σ from {} to {} (the point: {})", num(lo), num(hi), num(hi)), "%")
        .rule(Rule::AtMost { max: pct + 0.5 }, format!("{}: the printed whole percent, less half a point, must be within the bound for some σ in {}–{}; {}", num(pct + 0.5), num(lo), num(hi), super::SQUARING_COST_WHY))
        .paper_check()
}

/// The sizes of the i7-2600's simple-threads slide where two forms (std::async,
/// std::thread) each print a change against karaMul and one against GMP.
pub const I7_SAME_SIZE: [u32; 2] = [32768, 65536];

/// The i7-2600's (method, bits) with both a change against karaMul and one against GMP.
pub const I7_PAIRS: [(&str, u32); 6] = [
    ("kara-spawn", 32768),
    ("kara-scoped", 32768),
    ("kara-spawn", 65536),
    ("kara-scoped", 65536),
    ("kara-pool", 16384),
    ("kara-lockfree", 8192),
];

/// The sizes both lock-free slides (E5-2650 v2, i7-6800K) give.
pub const NEWER_HW_SIZES: [u32; 5] = [4096, 8192, 16384, 32768, 65536];

/// Every claim of this file, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v: Vec<Claim> = counts().into_iter().map(|c| c.claim).collect();
    v.extend(checks());
    v
}
