//! Seed 003's exponentiation claims, each with the timed configurations that judge it
//! ([`Timed`]): the methods' best figures at 2 threads, the slides' own configurations (1, 3,
//! 4, 6, 7, 8 and 10 threads, judged where the machine has the CPUs), and the orderings and
//! trends the slides state.
use super::{MODEXP_BEST, Measure, Setup, Timed, bound_pct, c};
use crate::claims::{Claim, Rule, above_one, below_one, num};

/// The experiment that times them.
pub const EXPERIMENT: &str = "seed003-modexp";

/// The window the m-ary bound of a method's best figure assumes: 2^6-ary, the smallest
/// window the methods choose between 1024 and 32768 bits (larger ones only raise the bound).
const BOUND_R: u32 = 6;

fn pm(bits: u32, threads: usize, pt: usize, r: u32) -> Setup {
    Setup::new("mary-precomp", bits, threads).pt(pt).r(r)
}

fn od(bits: u32, threads: usize, r: u32) -> Setup {
    Setup::new("mary-ondemand", bits, threads).r(r)
}

fn sl(bits: u32, threads: usize) -> Setup {
    Setup::new("slice", bits, threads)
}

/// Marks which parts of a hand-built claim are one printed configuration's gain.
fn printed(mut t: Timed, values: &[Option<f64>]) -> Timed {
    t.printed = values.to_vec();
    t
}

fn bundle(claim: Claim, parts: Vec<Measure>) -> Timed {
    let printed = vec![None; parts.len()];
    Timed {
        claim,
        parts,
        printed,
    }
}

/// The rule on a gain the paper printed for `s`: two thirds of the smaller of the paper's
/// gain and the MulMod bound of the method on that many threads, with the tolerance's text.
fn gain_rule(s: &Setup, paper: f64) -> (Rule, String) {
    let bound = bound_pct(s.method, s.window.unwrap_or(BOUND_R), s.threads, 1.0);
    let max = paper.max(bound) * 2.0 / 3.0;
    (
        Rule::AtMost { max },
        format!(
            "{}: two thirds of the smaller of the paper's {} % and the {:.1} % that {} thread(s) allow {} by the MulMod count ({}, a squaring as dear as a product); the third left is for thread start-up and a machine unlike the paper's",
            num(max),
            num(paper),
            bound,
            s.threads,
            s.method,
            if s.method == "slice" {
                "src/modexp/slice.rs"
            } else {
                "src/modexp/comb.rs"
            }
        ),
    )
}

/// The range a gain of `s` can plausibly take: from the MulMod bound with squarings at half
/// a product's cost, less 5 points, to +50 % (thread start-up swamping a small size).
fn gain_plausible(s: &Setup) -> (f64, f64) {
    (
        bound_pct(s.method, s.window.unwrap_or(BOUND_R), s.threads, 0.5) - 5.0,
        50.0,
    )
}

const GAIN_WHY: &str = "from the MulMod bound with a squaring at half a product's cost (less 5 points) to +50 % where thread start-up swamps a small size";

/// A claim on the gains the paper printed for its own configurations: one part per
/// configuration, each judged by [`gain_rule`].
fn exact(id: &str, reference: &str, claim: &str, printed: &str, parts: &[(Setup, f64)]) -> Timed {
    let (rules, tolerances): (Vec<Rule>, Vec<String>) =
        parts.iter().map(|(s, p)| gain_rule(s, *p)).unzip();
    let mut values: Vec<f64> = parts.iter().map(|p| p.1).collect();
    values.dedup();
    let needs = parts.iter().map(|p| p.0.needs()).max().unwrap_or(1);
    let claim = c(id, EXPERIMENT, reference, claim)
        .paper(printed)
        .paper_values(&values)
        .metric(
            format!(
                "time change against square-and-multiply of each configuration, paired rounds (negative = faster); needs {needs} hardware threads"
            ),
            "%",
        )
        .rule(
            Rule::Each {
                parts: parts.iter().map(|(s, _)| s.describe()).collect(),
                rules,
            },
            tolerances.join("; "),
        )
        .plausible(
            &parts.iter().map(|(s, _)| gain_plausible(s)).collect::<Vec<_>>(),
            GAIN_WHY,
        )
        .parallel_time();
    Timed {
        claim,
        parts: parts.iter().map(|(s, _)| Measure::Change(*s)).collect(),
        printed: parts.iter().map(|p| Some(p.1)).collect(),
    }
}

/// The methods' best figures, judged at 2 threads.
fn best() -> Vec<Timed> {
    MODEXP_BEST
        .iter()
        .map(|&(m, bits, pct, printed)| {
            let s = Setup::new(m, bits, 2);
            let (rule, why) = gain_rule(&s, pct);
            let claim = c(
                &format!("seed003-{m}-{bits}"),
                EXPERIMENT,
                &format!("{m}, {bits} bits"),
                &format!("{m} beats square-and-multiply at {bits} bits"),
            )
            // The conclusion's −30/−40 %: slicing −40 %, on demand −32 %, precomputation −29.5 %.
            .headline_if(matches!((m, bits), ("slice" | "mary-ondemand", 1024) | ("mary-precomp", 2048)))
            .paper(printed)
            .paper_values(&[pct])
            .metric(
                "time change against square-and-multiply at 2 threads, the method's own window, paired rounds (negative = faster)",
                "%",
            )
            .rule(rule, why)
            .plausible(&[gain_plausible(&s)], GAIN_WHY)
            .parallel_time();
            Timed {
                claim,
                parts: vec![Measure::Change(s)],
                printed: vec![Some(pct)],
            }
        })
        .collect()
}

/// Orderings and trends the slides state, on at most 2 threads.
fn stated() -> Vec<Timed> {
    let ratio = |a: Vec<Setup>, b: Vec<Setup>| Measure::Ratio(a, b);
    let grid = |bits: u32| -> Vec<Setup> {
        [2, 3, 4, 6]
            .iter()
            .flat_map(|&r| [1, 2].map(|pt| pm(bits, 1, pt, r)))
            .collect()
    };
    let ondemand_grid = |bits: u32| -> Vec<Setup> {
        [2, 3, 4, 6]
            .iter()
            .flat_map(|&r| [1, 2].map(|t| od(bits, t, r)))
            .collect()
    };
    let precomp_grid = |bits: u32| -> Vec<Setup> {
        [2, 3, 4, 6]
            .iter()
            .flat_map(|&r| [1, 2].map(|t| pm(bits, t, t, r)))
            .collect()
    };
    let sizes4 = [1024u32, 2048, 4096, 8192];
    vec![
        bundle(c("seed003-precomp-1024-1thr-worse", EXPERIMENT, "m-ary with precomputation, 1024 bits (1 thr)", "With 1 thread and 1 or 2 precomputation threads m-ary is always worse than square-and-multiply")
            .paper("1-thread with 1/2 pre-comp threads: always worse than S&M")
            .metric("the best time change over 2^2-, 2^3-, 2^4- and 2^6-ary, 1 thread, with 1 and with 2 precomputation threads, paired rounds", "%")
            .rule(Rule::Each { parts: vec!["1 pt".into(), "2 pt".into()], rules: vec![Rule::AtLeast { min: 0.0 }; 2] },
                "0: \"always worse\" is an ordering; by the MulMod count a 1-thread 2^3-ary saves about 14 % (k squarings and k/3·7/8 products against 1.5k), so it can fail")
            .plausible(&[(-30.0, 30.0); 2], "a 1-thread m-ary saves up to about 20 % by its MulMod count and loses up to 30 % to a slow table build")
            .parallel_time(),
            vec![Measure::Best([2, 3, 4, 6].map(|r| pm(1024, 1, 1, r)).to_vec()), Measure::Best([2, 3, 4, 6].map(|r| pm(1024, 1, 2, r)).to_vec())]),
        bundle(c("seed003-precomp-1024-1thr-wide", EXPERIMENT, "m-ary with precomputation, 1024 bits (1 thr)", "With 1 thread the 2^4- and 2^6-ary versions are very slow")
            .paper("Very slow for 4-ary or 6-ary versions")
            .metric("time of 2^4-ary and of 2^6-ary over 2^3-ary, 1 thread, 1 precomputation thread, paired rounds", "×")
            .rule(Rule::Each { parts: vec!["2^4-ary / 2^3-ary".into(), "2^6-ary / 2^3-ary".into()], rules: vec![Rule::AtLeast { min: 1.1 }; 2] },
                "1.1: \"very slow\" asks for a clear gap; by the MulMod count 2^6-ary's 62-entry table costs about 4 % of a 1024-bit exponentiation and saves 11 %, so it can fail")
            .plausible(&[(0.7, 1.5); 2], "table sizes 14–62 against 171–256 products move a 1024-bit exponentiation by up to 30 %")
            .measured(),
            vec![ratio(vec![pm(1024, 1, 1, 4)], vec![pm(1024, 1, 1, 3)]), ratio(vec![pm(1024, 1, 1, 6)], vec![pm(1024, 1, 1, 3)])]),
        bundle(c("seed003-precomp-2048-1thr-few-pt", EXPERIMENT, "m-ary with precomputation, 2048 bits", "With 1 thread, 2^2-ary needs 4 precomputation threads to gain 14 %: with 1 or 2 it gains less")
            .paper("1-thread: need 4 pre-comp threads to get -14% on 2^2-ary")
            .paper_values(&[-14.0])
            .metric("time change of 2^2-ary, 1 thread, with 1 and with 2 precomputation threads, paired rounds", "%")
            .rule(Rule::Each { parts: vec!["1 pt".into(), "2 pt".into()], rules: vec![Rule::AtLeast { min: -14.0 }; 2] },
                "-14: fewer table threads gain less than the 14 % the paper needed 4 for; by the MulMod count 2^2-ary saves 8 %, so it can fail only on a machine with cheap squarings")
            .plausible(&[(-25.0, 20.0); 2], "2^2-ary saves 8 % by the MulMod count, up to 20 % with squarings at half a product")
            .parallel_time(),
            vec![Measure::Change(pm(2048, 1, 1, 2)), Measure::Change(pm(2048, 1, 2, 2))]),
        bundle(c("seed003-precomp-4096-more-configs", EXPERIMENT, "m-ary with precomputation, 4096 bits", "Increasing the key size makes precomputation easier to exploit: more configurations gain")
            .paper("Increasing key size is easier to exploit pre-computations; More configurations get advantages")
            .metric("configurations faster than square-and-multiply at 4096 bits less those at 1024 bits, over 2^2–2^6-ary × 1/2 precomputation threads at 1 thread, per round", "configurations")
            .rule(Rule::AtLeast { min: 1.0 }, "1: \"more configurations\" is at least one more of the same 8")
            .plausible(&[(-8.0, 8.0)], "8 configurations at each size")
            .parallel(),
            vec![Measure::CountDiff(grid(4096), grid(1024))]),
        bundle(c("seed003-precomp-8192-pt-needed", EXPERIMENT, "m-ary with precomputation, 8192 bits", "At 8192 bits 2 or 4 precomputation threads are needed to exploit m-ary, even 2^2-ary")
            .paper("2/4 pre-computation threads are needed to exploit m-ary (even from 2^2-ary)")
            .metric("time change of 2^2-ary at 2 threads with 1 precomputation thread (no gain) and with 2 (a gain), paired rounds", "%")
            .rule(Rule::Each { parts: vec!["1 pt".into(), "2 pt".into()], rules: vec![Rule::AtLeast { min: 0.0 }, Rule::AtMost { max: 0.0 }] },
                "0: \"needed\" means no gain without them and a gain with them; 2^2-ary's table is 2 entries, so by the MulMod count both gain about 21 % on 2 threads and the first part can fail")
            .plausible(&[(-35.0, 30.0); 2], "2^2-ary on 2 threads gains up to 21 % by the MulMod count, 30 % with cheap squarings, and loses to thread start-up")
            .parallel_time(),
            vec![Measure::Change(pm(8192, 2, 1, 2)), Measure::Change(pm(8192, 2, 2, 2))]),
        bundle(c("seed003-precomp-small-windows-best", EXPERIMENT, "m-ary with precomputation: wrap up", "2^2- and 2^3-ary typically give the best results")
            .paper("m-ariety from 2^2, 2^3 typically gives best results")
            .metric("fastest of 2^2/2^3-ary over fastest of 2^4/2^6-ary, 2 threads and 2 precomputation threads, per size, paired rounds", "×")
            .rule(Rule::Each { parts: [1024, 2048, 4096].map(|b| format!("{b} bits")).to_vec(), rules: vec![below_one(); 3] },
                "1: an ordering; by the MulMod count 2^6-ary needs about 10 % fewer than 2^3-ary, so it can fail")
            .plausible(&[(0.8, 1.3); 3], "the windows' MulMod counts differ by up to 15 %, tables by up to 5 %")
            .parallel(),
            [1024, 2048, 4096].map(|b| ratio(vec![pm(b, 2, 2, 2), pm(b, 2, 2, 3)], vec![pm(b, 2, 2, 4), pm(b, 2, 2, 6)])).to_vec()),
        bundle(c("seed003-ondemand-1024-1thr-r4", EXPERIMENT, "m-ary on demand, 1024 bits", "On 1 thread on-demand m-ary is best at 2^4-ary, 22 % faster than square-and-multiply")
            .paper("1 thread exposes the effect of m-ary approach: best at 2^4-ary (-22%)")
            .paper_values(&[-22.0])
            .metric("time change of 2^4-ary on 1 thread; fastest of 2^2, 2^3, 2^6, 2^8, 2^10-ary over 2^4-ary, paired rounds", "")
            .rule(Rule::Each { parts: vec!["2^4-ary change (%)".into(), "others / 2^4-ary (×)".into()], rules: vec![gain_rule(&od(1024, 1, 4), -22.0).0, above_one()] },
                format!("{}; 1 for \"best at 2^4-ary\", an ordering (by the MulMod count 2^6-ary needs 233 against 2^4-ary's 254, so it can fail)", gain_rule(&od(1024, 1, 4), -22.0).1))
            .plausible(&[gain_plausible(&od(1024, 1, 4)), (0.8, 1.3)], "the bound on a 1-thread 2^4-ary; the windows' MulMod counts differ by up to 15 %")
            .measured(),
            vec![Measure::Change(od(1024, 1, 4)), ratio([2, 3, 6, 8, 10].map(|r| od(1024, 1, r)).to_vec(), vec![od(1024, 1, 4)])]),
        bundle(c("seed003-ondemand-threads-big-tables", EXPERIMENT, "m-ary on demand, 1024 bits; 4k & 8k", "More threads help on-demand m-ary most with big tables (2^8/2^10-ary)")
            .paper("Increasing thread number is beneficial especially for bigger tables (2^8/2^10-ary)")
            .metric("speedup from 1 to 2 threads of 2^10-ary over that of 2^4-ary, paired rounds", "×")
            .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![above_one(); 2] },
                "1: an ordering of two speedups")
            .plausible(&[(0.7, 1.5); 2], "2 threads give each window a speedup between 1 and 1.4; a 2^10 table adds up to a third more work to share")
            .parallel(),
            [1024, 4096].map(|b| Measure::RatioOfRatios([od(b, 1, 10), od(b, 2, 10), od(b, 1, 4), od(b, 2, 4)])).to_vec()),
        bundle(c("seed003-ondemand-1024-more-configs", EXPERIMENT, "m-ary on demand, 1024 bits", "More configurations gain with tables filled on demand than with precomputation")
            .paper("More configurations improve, compared to the preliminary pre-computation case")
            .metric("configurations faster than square-and-multiply on demand less with precomputation, 2^2–2^6-ary × 1/2 threads at 1024 bits, per round", "configurations")
            .rule(Rule::AtLeast { min: 1.0 }, "1: \"more configurations\" is at least one more of the same 8")
            .plausible(&[(-8.0, 8.0)], "8 configurations of each method")
            .parallel(),
            vec![Measure::CountDiff(ondemand_grid(1024), precomp_grid(1024))]),
        bundle(c("seed003-ondemand-bigger-keys-bigger-tables", EXPERIMENT, "m-ary on demand, 4k & 8k", "Bigger keys benefit from bigger tables")
            .paper("Bigger keys benefit from bigger tables")
            .metric("time of 2^10-ary over 2^4-ary at 4096 bits, over the same at 1024 bits, 2 threads, paired rounds", "×")
            .rule(below_one(), "1: an ordering (a bigger table pays more at the bigger key)")
            .plausible(&[(0.5, 1.5)], "a 2^10 table is about 40 % of a 1024-bit exponentiation and 10 % of a 4096-bit one")
            .parallel(),
            vec![Measure::RatioOfRatios([od(4096, 2, 10), od(4096, 2, 4), od(1024, 2, 10), od(1024, 2, 4)])]),
        bundle(c("seed003-slice-no-optimum-effect", EXPERIMENT, "Slicing – results", "'Optimum' (balanced) slicing has no measurable effect against even slices")
            .paper("'Optimum' slicing does not have measurable effect")
            .metric("time of balanced over even slices, 2 threads, paired rounds", "×")
            .rule(Rule::Each { parts: sizes4.map(|b| format!("{b} bits")).to_vec(), rules: vec![Rule::Ratio { target: 1.0, factor: 1.05 }; 4] },
                "within ×1.05: \"no measurable effect\" on a machine whose paired intervals resolve about 5 %; by the MulMod count balanced slices save 10 % on 2 threads (1.125k against 1.25k), so it can fail")
            .plausible(&[(0.8, 1.2); 4], "the MulMod count puts balanced 10 % ahead on 2 threads")
            .parallel(),
            sizes4.map(|b| ratio(vec![sl(b, 2)], vec![sl(b, 2).even()])).to_vec()),
        bundle(c("seed003-slice-smaller-keys-more", EXPERIMENT, "Slicing – results", "Smaller key sizes are accelerated more by slicing")
            .paper("Smaller key sizes are accelerated more")
            .metric("slicing's time change at 2048 bits less that at 1024, and at 4096 less that at 2048, 2 threads, paired rounds", "points")
            .rule(Rule::Each { parts: vec!["2048 − 1024".into(), "4096 − 2048".into()], rules: vec![Rule::AtLeast { min: 0.0 }; 2] },
                "0: an ordering; by the MulMod count the gain does not depend on the size, and thread start-up weighs most at small sizes, so it can fail")
            .plausible(&[(-20.0, 20.0); 2], "thread start-up is up to 20 % of a 1024-bit exponentiation")
            .parallel(),
            vec![Measure::ChangeDiff(sl(2048, 2), sl(1024, 2)), Measure::ChangeDiff(sl(4096, 2), sl(2048, 2))]),
        bundle(c("seed003-slice-fastest", EXPERIMENT, "Slicing: wrap up", "Slicing is the fastest of the three methods")
            .paper("Fastest, and stable, even if threads manage unbalanced work")
            .metric("slicing's time over the faster m-ary (precomputation or on demand), 2 threads, paired rounds", "×")
            .rule(Rule::Each { parts: sizes4.map(|b| format!("{b} bits")).to_vec(), rules: vec![below_one(); 4] },
                "1: an ordering; by the MulMod count comb m-ary on 2 threads (−28 %) can beat slicing (−25 %), so it can fail")
            .plausible(&[(0.7, 1.5); 4], "the methods' 2-thread bounds differ by a few points; their overheads by up to 30 %")
            .parallel(),
            sizes4.map(|b| ratio(vec![sl(b, 2)], vec![Setup::new("mary-precomp", b, 2), Setup::new("mary-ondemand", b, 2)])).to_vec()),
        bundle(c("seed003-squaring-cheaper", EXPERIMENT, "Slicing: wrap up, observation", "Modular squaring is simpler than modular multiplication")
            .paper("Simple: not involving big data structures and simpler than modular multiplication")
            .metric("time of a modular squaring over a modular product with the counted kernel (the methods' MulMod), per size, paired rounds", "×")
            .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![below_one(); 2] },
                "1: \"simpler\" is an ordering of costs")
            .plausible(&[(0.4, 1.2); 2], "GMP's squaring saves up to half a product; the reduction costs the same")
            .measured(),
            vec![Measure::SquareOverProduct(1024), Measure::SquareOverProduct(4096)]),
        bundle(c("seed003-modexp-affinity", EXPERIMENT, "m-ary with precomputation - results (setup)", "Enforced thread-to-core affinity makes a big difference")
            .paper("Enforced thread-to-core affinity: big difference in the results")
            .metric("time of m-ary with precomputation unpinned over pinned, 2 threads, paired rounds", "×")
            .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![Rule::AtLeast { min: 1.05 }; 2] },
                "1.05: a \"big difference\" is at least 5 %, about what paired intervals here resolve")
            .plausible(&[(0.8, 1.5); 2], "migrations cost cold caches; pinning can also lose to a busy CPU")
            .parallel(),
            [1024, 4096].map(|b| ratio(vec![Setup::new("mary-precomp", b, 2)], vec![Setup::new("mary-precomp", b, 2).pinned()])).to_vec()),
    ]
}

/// The slides' own configurations: 1 to 10 threads, judged where the machine has the CPUs.
fn configurations() -> Vec<Timed> {
    let grid8 = |bits: u32, rs: &[u32], pts: &[usize], t: usize| -> Vec<Setup> {
        rs.iter()
            .flat_map(|&r| pts.iter().map(move |&p| pm(bits, t, p, r)))
            .collect()
    };
    let mut v = vec![
        exact(
            "seed003-precomp-1024-1thr-4pt",
            "m-ary with precomputation, 1024 bits (1 thr)",
            "With 1 thread and 4 precomputation threads m-ary gains 9 % (2^2-ary) and 6 % (2^3-ary)",
            "1-thread with 4 pre-comp threads (4-pt): -9% (2^2-ary) and -6% (2^3-ary)",
            &[(pm(1024, 1, 4, 2), -9.0), (pm(1024, 1, 4, 3), -6.0)],
        ),
        exact(
            "seed003-precomp-1024-4thr",
            "m-ary with precomputation, 1024 bits (4 thr)",
            "With 4 threads m-ary gains 15–23 % depending on the window and the precomputation threads",
            "from -15% to -20% (2^2-ary, 1-4 threads); -23% (2^3-ary, 4 pre-threads), -20% (2^2-ary, 2-/4-pt), [-18% : -15%] (2^2-ary, 1-pt; 2^3-ary, 2-pt; 2^4-ary, 4-pt)",
            &[
                (pm(1024, 4, 4, 3), -23.0),
                (pm(1024, 4, 2, 2), -20.0),
                (pm(1024, 4, 4, 2), -20.0),
                (pm(1024, 4, 3, 2), -15.0),
                (pm(1024, 4, 1, 2), -15.0),
                (pm(1024, 4, 2, 3), -15.0),
                (pm(1024, 4, 4, 4), -15.0),
            ],
        ),
        exact(
            "seed003-precomp-2048-1thr-4pt",
            "m-ary with precomputation, 2048 bits",
            "With 1 thread and 4 precomputation threads 2^2-ary gains 14 %",
            "1-thread: need 4 pre-comp threads to get -14% on 2^2-ary",
            &[(pm(2048, 1, 4, 2), -14.0)],
        ),
        exact(
            "seed003-precomp-2048-4thr",
            "m-ary with precomputation, 2048 bits",
            "With 4 threads and multiple precomputation threads m-ary gains 25–29.5 %",
            "-29.5% (2^2-ary, 4-pt), -25% (2^3-ary, 4-pt; 2^4-ary, 4-pt; 2^2-ary, 2-pt)",
            &[
                (pm(2048, 4, 4, 2), -29.5),
                (pm(2048, 4, 4, 3), -25.0),
                (pm(2048, 4, 4, 4), -25.0),
                (pm(2048, 4, 2, 2), -25.0),
            ],
        ),
        exact(
            "seed003-precomp-4096-4pt",
            "m-ary with precomputation, 4096 bits",
            "At 4096 bits 4 precomputation threads give 10 % on 1 thread (2^2-ary) and 23 % on 4 (2^3-ary)",
            "1-thread: -10% (2^2-ary, 4-pc); 4-threads: -23% (2^3-ary, 4-pc)",
            &[(pm(4096, 1, 4, 2), -10.0), (pm(4096, 4, 4, 3), -23.0)],
        ),
        exact(
            "seed003-precomp-4096-8thr",
            "m-ary with precomputation, 4096 bits",
            "With 8 threads and 4 precomputation threads 2^3-ary gains 26 %",
            "8-threads: -26% (2^3-ary, 4-pc)",
            &[(pm(4096, 8, 4, 3), -26.0)],
        ),
        exact(
            "seed003-ondemand-1024-3thr",
            "m-ary on demand, 1024 bits",
            "The sweet spot is 3 threads with 2^3-ary: 32 % faster",
            "Sweet spot at 3-threads 2^3-ary (-32%)",
            &[(od(1024, 3, 3), -32.0)],
        ),
        exact(
            "seed003-ondemand-4096-3-4thr",
            "m-ary on demand, 4k & 8k",
            "At 4096 bits 2^6-ary on 3 threads and 2^4-ary on 4 threads gain 27 %",
            "4096: -27% (2^6-ary, 3 threads), -27% (2^4-ary, 4 threads)",
            &[(od(4096, 3, 6), -27.0), (od(4096, 4, 4), -27.0)],
        ),
        exact(
            "seed003-ondemand-4096-8thr",
            "m-ary on demand, 4k & 8k",
            "At 4096 bits 2^4-ary on 6, 7 or 8 threads gains 26 %",
            "4096: -26% (2^4-ary, 6/7/8 threads)",
            &[
                (od(4096, 6, 4), -26.0),
                (od(4096, 7, 4), -26.0),
                (od(4096, 8, 4), -26.0),
            ],
        ),
        exact(
            "seed003-ondemand-8192-3thr",
            "m-ary on demand, 4k & 8k",
            "At 8192 bits 2^4- and 2^6-ary on 3 threads gain 27 % (and 2^6-ary 25 %, printed twice)",
            "8192: -27% (2^4/2^6-ary, 3 threads), ... -25% (2^6-ary, 3 threads)",
            &[(od(8192, 3, 4), -27.0), (od(8192, 3, 6), -27.0)],
        ),
        exact(
            "seed003-ondemand-8192-8thr",
            "m-ary on demand, 4k & 8k",
            "At 8192 bits 2^3- and 2^4-ary on 6, 7 or 8 threads gain 25 %",
            "8192: -25% (2^3/2^4-ary, 6/7/8 threads)",
            &[6, 7, 8]
                .iter()
                .flat_map(|&t| [(od(8192, t, 3), -25.0), (od(8192, t, 4), -25.0)])
                .collect::<Vec<_>>(),
        ),
        exact(
            "seed003-ondemand-16384-3thr",
            "m-ary on demand, 16k & 32k",
            "At 16384 bits 2^6- and 2^8-ary on 3 threads gain 27 %",
            "16384: -27% (2^6/2^8-ary, 3 threads)",
            &[(od(16384, 3, 6), -27.0), (od(16384, 3, 8), -27.0)],
        ),
        exact(
            "seed003-ondemand-16384-7thr",
            "m-ary on demand, 16k & 32k",
            "At 16384 bits 2^6-ary on 7 threads gains 26 %",
            "16384: -26% (2^6-ary, 7 threads)",
            &[(od(16384, 7, 6), -26.0)],
        ),
        exact(
            "seed003-ondemand-32768-2thr",
            "m-ary on demand, 16k & 32k",
            "At 32768 bits 2^6-ary on 2 threads gains 27 %",
            "32768: -27% (2^6-ary, 2/8 threads)",
            &[(od(32768, 2, 6), -27.0)],
        ),
        exact(
            "seed003-ondemand-32768-8thr",
            "m-ary on demand, 16k & 32k",
            "At 32768 bits 2^6-ary on 8 threads gains 27 %, 2^8-ary on 7 or 8 threads 26 %",
            "32768: -27% (2^6-ary, 2/8 threads), -26% (2^8-ary, 7/8 threads)",
            &[
                (od(32768, 8, 6), -27.0),
                (od(32768, 7, 8), -26.0),
                (od(32768, 8, 8), -26.0),
            ],
        ),
        exact(
            "seed003-slice-1024-4thr",
            "Slicing – results",
            "Slicing gains up to 40 % at 1024 bits with 4 threads",
            "Up to -40% for 1024-bit (4-threads/slices)",
            &[(sl(1024, 4), -40.0)],
        ),
        exact(
            "seed003-slice-2048-6thr",
            "Slicing – results",
            "Slicing gains 35.5 % at 2048 bits with 6 threads",
            "-35.5% (6-thread/slices)",
            &[(sl(2048, 6), -35.5)],
        ),
        exact(
            "seed003-slice-2048-10thr",
            "Slicing – results",
            "Slicing gains up to 36.5 % at 2048 bits with 10 threads",
            "Up to -36.5% for 2048-bit (10-threads/slices)",
            &[(sl(2048, 10), -36.5)],
        ),
        exact(
            "seed003-slice-4096-8192-3-4thr",
            "Slicing – results",
            "From 4096 bits slicing reaches 30 % at 3 or 4 threads",
            "From 4096 and up, speedup reaches -30% at 3/4 threads/slices",
            &[
                (sl(4096, 3), -30.0),
                (sl(4096, 4), -30.0),
                (sl(8192, 3), -30.0),
                (sl(8192, 4), -30.0),
            ],
        ),
        exact(
            "seed003-slice-16384-32768-3-4thr",
            "Slicing – results",
            "From 4096 bits slicing reaches 30 % at 3 or 4 threads (16384 and 32768 bits)",
            "From 4096 and up, speedup reaches -30% at 3/4 threads/slices",
            &[
                (sl(16384, 3), -30.0),
                (sl(16384, 4), -30.0),
                (sl(32768, 3), -30.0),
                (sl(32768, 4), -30.0),
            ],
        ),
    ];
    // Parts other than a printed gain.
    let (rule26, why26) = gain_rule(&pm(1024, 8, 4, 4), -26.0);
    let (rule17, why17) = gain_rule(&pm(1024, 8, 4, 2), -17.0);
    v.push(bundle(c("seed003-precomp-1024-8thr", EXPERIMENT, "m-ary with precomputation, 1024 bits (8 thr)", "With 8 threads the best configuration (2^4-ary, 4 precomputation threads) gains 26 %, and 8 configurations gain 17 % or more")
        .paper("Best configuration: -26% (2^4-ary, 4 pre-computation threads); 8 configurations (m-ary, pt) -17% or better improvement")
        .paper_values(&[-26.0, 8.0, -17.0])
        .metric("time change of 2^4-ary with 4 pt, and the 8th best of 2^2–2^6-ary × 1/2/4 pt, 8 threads, paired rounds; needs 8 hardware threads", "%")
        .rule(Rule::Each { parts: vec!["2^4-ary, 4 pt".into(), "8th best of 12".into()], rules: vec![rule26, rule17] }, format!("{why26}; {why17}"))
        .plausible(&[gain_plausible(&pm(1024, 8, 4, 4)), gain_plausible(&pm(1024, 8, 4, 2))], GAIN_WHY)
        .parallel_time(),
        vec![Measure::Change(pm(1024, 8, 4, 4)), Measure::KthBest(8, grid8(1024, &[2, 3, 4, 6], &[1, 2, 4], 8))]));
    let last = v.pop().expect("just pushed");
    v.push(printed(last, &[Some(-26.0), None]));
    let (rule, why) = gain_rule(&pm(2048, 8, 4, 2), -25.0);
    v.push(bundle(c("seed003-precomp-2048-8thr", EXPERIMENT, "m-ary with precomputation, 2048 bits", "With 8 threads various configurations gain 25 %")
        .paper("8-threads: -25% (various 2^r-ary, n-pc configurations)")
        .paper_values(&[-25.0])
        .metric("the best time change of 2^2–2^6-ary × 1/2/4 pt at 8 threads, paired rounds; needs 8 hardware threads", "%")
        .rule(rule, why)
        .plausible(&[gain_plausible(&pm(2048, 8, 4, 2))], GAIN_WHY)
        .parallel_time(),
        vec![Measure::Best(grid8(2048, &[2, 3, 4, 6], &[1, 2, 4], 8))]));
    let higher = pm(2048, 4, 1, 4);
    v.push(bundle(c("seed003-precomp-2048-4thr-pt", EXPERIMENT, "m-ary with precomputation, 2048 bits", "With 4 threads the higher 2^r-ary configurations are sustainable only with multiple precomputation threads")
        .paper("4-threads: higher 2^r-ary configurations sustainable only with multiple pre-comp threads")
        .metric("time of 2^4-ary with 1 precomputation thread over 4, 4 threads, paired rounds; needs 4 hardware threads", "×")
        .rule(above_one(), "1: an ordering (4 table threads help)")
        .plausible(&[(0.8, 1.3)], "a 14-entry table is about 1 % of a 2048-bit exponentiation; thread start-up up to 20 %")
        .parallel(),
        vec![Measure::Ratio(vec![higher], vec![higher.pt(4)])]));
    let (rule, why) = gain_rule(&pm(8192, 8, 4, 2), -23.5);
    v.push(bundle(c("seed003-precomp-8192-8thr", EXPERIMENT, "m-ary with precomputation, 8192 bits", "At 8192 bits the best is 8 threads, 2^2-ary, 4 precomputation threads (−23.5 %), and 4 or 8 main threads are similar")
        .paper("Main threads are needed to take advantage of pre-computations; 4 or 8 are similar; Best performance: -23.5% (8-threads, 2^2-ary, 4-pt)")
        .paper_values(&[-23.5])
        .metric("time change of 2^2-ary, 8 threads, 4 pt; fastest of 2^2/2^3-ary with 4 pt at 8 threads over the same at 4; needs 8 hardware threads", "")
        .rule(Rule::Each { parts: vec!["2^2-ary, 8 thr, 4 pt (%)".into(), "8 threads / 4 threads (×)".into()], rules: vec![rule, Rule::Ratio { target: 1.0, factor: 1.05 }] },
            format!("{why}; within ×1.05 for \"similar\""))
        .plausible(&[gain_plausible(&pm(8192, 8, 4, 2)), (0.8, 1.2)], "the bound on 8 threads; 4 more comb threads save at most 4 % of the products")
        .parallel(),
        vec![Measure::Change(pm(8192, 8, 4, 2)), Measure::Ratio(grid8(8192, &[2, 3], &[4], 8), grid8(8192, &[2, 3], &[4], 4))]));
    let last = v.pop().expect("just pushed");
    v.push(printed(last, &[Some(-23.5), None]));
    let (r16, w16) = gain_rule(&pm(16384, 8, 4, 3), -24.0);
    let (r32, w32) = gain_rule(&pm(32768, 8, 4, 3), -24.5);
    v.push(bundle(c("seed003-precomp-16384-32768-8thr", EXPERIMENT, "m-ary with precomputation, 16k & 32k", "At 16384 and 32768 bits 8 threads, 2^3-ary and 4 pt gain 24–24.5 %: similar results, stable across key sizes")
        .paper("Similar results: Stability of the approach across key sizes; 16384: -24% (8-threads, 2^3-ary, 4-pt); 32768: -24.5% (8-threads, 2^3-ary, 4-pt)")
        .paper_values(&[-24.0, -24.5])
        .metric("time change of 2^3-ary, 8 threads, 4 pt at 16384 and 32768 bits; spread of the best (2^2/2^3-ary, 4 pt, 8 threads) over 4096–32768 bits; needs 8 hardware threads", "")
        .rule(Rule::Each { parts: vec!["16384 bits (%)".into(), "32768 bits (%)".into(), "spread over sizes (points)".into()], rules: vec![r16, r32, Rule::AtMost { max: 5.0 }] },
            format!("{w16}; {w32}; 5 points for \"similar\" (the paper's best figures from 4096 to 32768 bits span 2.5)"))
        .plausible(&[gain_plausible(&pm(16384, 8, 4, 3)), gain_plausible(&pm(32768, 8, 4, 3)), (0.0, 20.0)], "the bound on 8 threads; thread start-up moves small sizes by up to 20 points")
        .parallel_time(),
        vec![Measure::Change(pm(16384, 8, 4, 3)), Measure::Change(pm(32768, 8, 4, 3)),
            Measure::Spread([4096, 8192, 16384, 32768].map(|b| grid8(b, &[2, 3], &[4], 8)).to_vec())]));
    // The spread compares sizes: load can move it either way.
    let mut last = v.pop().expect("just pushed");
    last.claim.load = crate::claims::Load::Any;
    v.push(printed(last, &[Some(-24.0), Some(-24.5), None]));
    let sizes_all = [1024u32, 2048, 4096, 8192, 16384, 32768];
    let (r22, w22) = gain_rule(&pm(1024, 8, 4, 4), -22.0);
    let (r14, w14) = gain_rule(&pm(1024, 8, 4, 6), -14.0);
    v.push(bundle(c("seed003-precomp-8thr-4pt-averages", EXPERIMENT, "m-ary with precomputation: wrap up", "With 8 threads and 4 pt, 2^4-ary averages −22 % and 2^6-ary −14 % over the key sizes")
        .paper("8-threads and 4-pt can exploit 2^4-ary computation (average improvement: -22%, max -26%), 2^6-ary computation (average improvement: -14%, max -20%)")
        .paper_values(&[-22.0, -26.0, -14.0, -20.0])
        .metric("mean time change over 1024–32768 bits (the sizes the paper averaged) of 2^4-ary and of 2^6-ary at 8 threads, 4 pt; needs 8 hardware threads", "%")
        .rule(Rule::Each { parts: vec!["2^4-ary mean".into(), "2^6-ary mean".into()], rules: vec![r22, r14] }, format!("{w22}; {w14}"))
        .plausible(&[gain_plausible(&pm(1024, 8, 4, 4)), gain_plausible(&pm(1024, 8, 4, 6))], GAIN_WHY)
        .parallel_time(),
        vec![Measure::Mean(sizes_all.map(|b| pm(b, 8, 4, 4)).to_vec()), Measure::Mean(sizes_all.map(|b| pm(b, 8, 4, 6)).to_vec())]));
    let more = |bits: u32, r: u32, from: usize, to: usize| -> Measure {
        Measure::Ratio(
            vec![od(bits, from, r)],
            (from + 1..=to).map(|t| od(bits, t, r)).collect(),
        )
    };
    v.push(bundle(c("seed003-ondemand-1024-saturation", EXPERIMENT, "m-ary on demand, 1024 bits", "2^4-ary on demand saturates at 2 or 3 threads")
        .paper("Sort of saturation at 2/3 threads for 2^4-ary")
        .metric("time of 2^4-ary on 3 threads over the fastest on 4–8 threads, 1024 bits, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::AtMost { max: 1.05 }, "1.05: \"saturation\" leaves more threads at most 5 % to gain")
        .plausible(&[(0.9, 1.3)], "by the MulMod count 5 more comb threads save at most 4 % of the work; a bigger team costs start-up")
        .parallel(),
        vec![more(1024, 4, 3, 8)]));
    v.push(bundle(c("seed003-ondemand-beyond-5thr", EXPERIMENT, "m-ary on demand, 16k & 32k", "Beyond 5 threads on-demand m-ary gains little more")
        .paper("Less benefits from increasing beyond 5 threads")
        .metric("time of 2^6-ary on 5 threads over the fastest on 6–8 threads, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::Each { parts: vec!["16384 bits".into(), "32768 bits".into()], rules: vec![Rule::AtMost { max: 1.05 }; 2] }, "1.05: \"less benefit\" is at most 5 % more")
        .plausible(&[(0.9, 1.3); 2], "by the MulMod count 3 more comb threads save at most 1 % of the work")
        .parallel(),
        vec![more(16384, 6, 5, 8), more(32768, 6, 5, 8)]));
    v.push(bundle(c("seed003-slice-enough-threads", EXPERIMENT, "Slicing – results; Slicing: wrap up", "3 or 4 slices give the maximum benefit: more threads do not alter performance")
        .paper("3/4 threads, and slices, are typically enough to get the maximum benefit; More threads do not alter performance")
        .metric("time of slicing on 4 threads over the fastest on 5–8, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![Rule::Ratio { target: 1.0, factor: 1.05 }; 2] },
            "within ×1.05: \"do not alter\"; by the MulMod count 8 slices gain 1 point over 4")
        .plausible(&[(0.8, 1.3); 2], "the bound moves 1 point from 4 to 8 slices; more threads cost start-up")
        .parallel(),
        vec![Measure::Ratio(vec![sl(1024, 4)], (5..=8).map(|t| sl(1024, t)).collect()), Measure::Ratio(vec![sl(4096, 4)], (5..=8).map(|t| sl(4096, t)).collect())]));
    v
}

/// Every timed claim of the modexp experiment, in report order.
pub fn timed() -> Vec<Timed> {
    let mut v = best();
    v.extend(stated());
    v.extend(configurations());
    v
}
