//! m-ary/Karatsuba's exponentiation claims at the slides' own configurations: 1 to 10 threads and
//! 1, 2 or 4 precomputation threads, judged where the machine has the CPUs (a 1-thread scan
//! with 4 table threads on 2, [`Timed::table_shares`]), each printed gain by
//! [`super::modexp`]'s rule.
use super::modexp::{
    EXPERIMENT, GAIN_WHY, bundle, exact, exact_sharing_table, gain_plausible, gain_rule, od, pm,
    printed, sl,
};
use super::{Measure, Setup, Timed, c};
use crate::claims::{Rule, above_one};

/// The slides' own configurations: 1 to 10 threads, judged where the machine has the CPUs.
pub fn configurations() -> Vec<Timed> {
    let grid8 = |bits: u32, rs: &[u32], pts: &[usize], t: usize| -> Vec<Setup> {
        rs.iter()
            .flat_map(|&r| pts.iter().map(move |&p| pm(bits, t, p, r)))
            .collect()
    };
    let mut v = vec![
        exact_sharing_table(
            "mary-karatsuba-precomp-1024-1thr-4pt",
            "m-ary with precomputation, 1024 bits (1 thr)",
            "With 1 thread and 4 precomputation threads m-ary gains 9 % (2^2-ary) and 6 % (2^3-ary)",
            "1-thread with 4 pre-comp threads (4-pt): -9% (2^2-ary) and -6% (2^3-ary)",
            &[(pm(1024, 1, 4, 2), -9.0), (pm(1024, 1, 4, 3), -6.0)],
        ),
        exact(
            "mary-karatsuba-precomp-1024-4thr",
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
        exact_sharing_table(
            "mary-karatsuba-precomp-2048-1thr-4pt",
            "m-ary with precomputation, 2048 bits",
            "With 1 thread and 4 precomputation threads 2^2-ary gains 14 %",
            "1-thread: need 4 pre-comp threads to get -14% on 2^2-ary",
            &[(pm(2048, 1, 4, 2), -14.0)],
        ),
        exact(
            "mary-karatsuba-precomp-2048-4thr",
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
        exact_sharing_table(
            "mary-karatsuba-precomp-4096-1thr-4pt",
            "m-ary with precomputation, 4096 bits",
            "At 4096 bits 4 precomputation threads give 10 % on 1 thread (2^2-ary)",
            "1-thread: -10% (2^2-ary, 4-pc)",
            &[(pm(4096, 1, 4, 2), -10.0)],
        ),
        exact(
            "mary-karatsuba-precomp-4096-4pt",
            "m-ary with precomputation, 4096 bits",
            "At 4096 bits 4 precomputation threads give 23 % on 4 threads (2^3-ary)",
            "4-threads: -23% (2^3-ary, 4-pc)",
            &[(pm(4096, 4, 4, 3), -23.0)],
        ),
        exact(
            "mary-karatsuba-precomp-4096-8thr",
            "m-ary with precomputation, 4096 bits",
            "With 8 threads and 4 precomputation threads 2^3-ary gains 26 %",
            "8-threads: -26% (2^3-ary, 4-pc)",
            &[(pm(4096, 8, 4, 3), -26.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-1024-3thr",
            "m-ary on demand, 1024 bits",
            "The sweet spot is 3 threads with 2^3-ary: 32 % faster",
            "Sweet spot at 3-threads 2^3-ary (-32%)",
            &[(od(1024, 3, 3), -32.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-4096-3-4thr",
            "m-ary on demand, 4k & 8k",
            "At 4096 bits 2^6-ary on 3 threads and 2^4-ary on 4 threads gain 27 %",
            "4096: -27% (2^6-ary, 3 threads), -27% (2^4-ary, 4 threads)",
            &[(od(4096, 3, 6), -27.0), (od(4096, 4, 4), -27.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-4096-8thr",
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
            "mary-karatsuba-ondemand-8192-3thr",
            "m-ary on demand, 4k & 8k",
            "At 8192 bits 2^4- and 2^6-ary on 3 threads gain 27 % (and 2^6-ary 25 %, printed twice)",
            "8192: -27% (2^4/2^6-ary, 3 threads), ... -25% (2^6-ary, 3 threads)",
            &[(od(8192, 3, 4), -27.0), (od(8192, 3, 6), -27.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-8192-8thr",
            "m-ary on demand, 4k & 8k",
            "At 8192 bits 2^3- and 2^4-ary on 6, 7 or 8 threads gain 25 %",
            "8192: -25% (2^3/2^4-ary, 6/7/8 threads)",
            &[6, 7, 8]
                .iter()
                .flat_map(|&t| [(od(8192, t, 3), -25.0), (od(8192, t, 4), -25.0)])
                .collect::<Vec<_>>(),
        ),
        exact(
            "mary-karatsuba-ondemand-16384-3thr",
            "m-ary on demand, 16k & 32k",
            "At 16384 bits 2^6- and 2^8-ary on 3 threads gain 27 %",
            "16384: -27% (2^6/2^8-ary, 3 threads)",
            &[(od(16384, 3, 6), -27.0), (od(16384, 3, 8), -27.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-16384-7thr",
            "m-ary on demand, 16k & 32k",
            "At 16384 bits 2^6-ary on 7 threads gains 26 %",
            "16384: -26% (2^6-ary, 7 threads)",
            &[(od(16384, 7, 6), -26.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-32768-2thr",
            "m-ary on demand, 16k & 32k",
            "At 32768 bits 2^6-ary on 2 threads gains 27 %",
            "32768: -27% (2^6-ary, 2/8 threads)",
            &[(od(32768, 2, 6), -27.0)],
        ),
        exact(
            "mary-karatsuba-ondemand-32768-8thr",
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
            "mary-karatsuba-slice-1024-4thr",
            "Slicing – results",
            "Slicing gains up to 40 % at 1024 bits with 4 threads",
            "Up to -40% for 1024-bit (4-threads/slices)",
            &[(sl(1024, 4), -40.0)],
        ),
        exact(
            "mary-karatsuba-slice-2048-6thr",
            "Slicing – results",
            "Slicing gains 35.5 % at 2048 bits with 6 threads",
            "-35.5% (6-thread/slices)",
            &[(sl(2048, 6), -35.5)],
        ),
        exact(
            "mary-karatsuba-slice-2048-10thr",
            "Slicing – results",
            "Slicing gains up to 36.5 % at 2048 bits with 10 threads",
            "Up to -36.5% for 2048-bit (10-threads/slices)",
            &[(sl(2048, 10), -36.5)],
        ),
        exact(
            "mary-karatsuba-slice-4096-8192-3-4thr",
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
            "mary-karatsuba-slice-16384-32768-3-4thr",
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
    v.push(bundle(c("mary-karatsuba-precomp-1024-8thr", EXPERIMENT, "m-ary with precomputation, 1024 bits (8 thr)", "With 8 threads the best configuration (2^4-ary, 4 precomputation threads) gains 26 %, and 8 configurations gain 17 % or more")
        .paper("Best configuration: -26% (2^4-ary, 4 pre-computation threads); 8 configurations (m-ary, pt) -17% or better improvement")
        .paper_values(&[-26.0, 8.0, -17.0])
        .metric("time change of 2^4-ary with 4 pt, and the 8th best of 2^2–2^6-ary × 1/2/4 pt, 8 threads, paired rounds; needs 8 hardware threads", "%")
        .rule(Rule::Each { parts: vec!["2^4-ary, 4 pt".into(), "8th best of 12".into()], rules: vec![rule26, rule17] }, format!("{why26}; {why17}"))
        .plausible(&[gain_plausible(&pm(1024, 8, 4, 4)), gain_plausible(&pm(1024, 8, 4, 2))], GAIN_WHY)
        .parallel_time()
        .confirms_figure(),
        vec![Measure::Change(pm(1024, 8, 4, 4)), Measure::KthBest(8, grid8(1024, &[2, 3, 4, 6], &[1, 2, 4], 8))]));
    let last = v.pop().expect("just pushed");
    v.push(printed(last, &[Some(-26.0), None]));
    let (rule, why) = gain_rule(&pm(2048, 8, 4, 2), -25.0);
    v.push(bundle(c("mary-karatsuba-precomp-2048-8thr", EXPERIMENT, "m-ary with precomputation, 2048 bits", "With 8 threads various configurations gain 25 %")
        .paper("8-threads: -25% (various 2^r-ary, n-pc configurations)")
        .paper_values(&[-25.0])
        .metric("the best time change of 2^2–2^6-ary × 1/2/4 pt at 8 threads, paired rounds; needs 8 hardware threads", "%")
        .rule(rule, why)
        .plausible(&[gain_plausible(&pm(2048, 8, 4, 2))], GAIN_WHY)
        .parallel_time()
        .confirms_figure(),
        vec![Measure::Best(grid8(2048, &[2, 3, 4, 6], &[1, 2, 4], 8))]));
    let higher = pm(2048, 4, 1, 4);
    v.push(bundle(c("mary-karatsuba-precomp-2048-4thr-pt", EXPERIMENT, "m-ary with precomputation, 2048 bits", "With 4 threads the higher 2^r-ary configurations are sustainable only with multiple precomputation threads")
        .paper("4-threads: higher 2^r-ary configurations sustainable only with multiple pre-comp threads")
        .metric("time of 2^4-ary with 1 precomputation thread over 4, 4 threads, paired rounds; needs 4 hardware threads", "×")
        .rule(above_one(), "1: an ordering (4 table threads help)")
        .plausible(&[(0.8, 1.3)], "a 14-entry table is about 1 % of a 2048-bit exponentiation; thread start-up up to 20 %")
        .parallel()
        .confirms_figure(),
        vec![Measure::Ratio(vec![higher], vec![higher.pt(4)])]));
    let (rule, why) = gain_rule(&pm(8192, 8, 4, 2), -23.5);
    v.push(bundle(c("mary-karatsuba-precomp-8192-8thr", EXPERIMENT, "m-ary with precomputation, 8192 bits", "At 8192 bits the best is 8 threads, 2^2-ary, 4 precomputation threads (−23.5 %), and 4 or 8 main threads are similar")
        .paper("Main threads are needed to take advantage of pre-computations; 4 or 8 are similar; Best performance: -23.5% (8-threads, 2^2-ary, 4-pt)")
        .paper_values(&[-23.5])
        .metric("time change of 2^2-ary, 8 threads, 4 pt; fastest of 2^2/2^3-ary with 4 pt at 8 threads over the same at 4; needs 8 hardware threads", "")
        .rule(Rule::Each { parts: vec!["2^2-ary, 8 thr, 4 pt (%)".into(), "8 threads / 4 threads (×)".into()], rules: vec![rule, Rule::Ratio { target: 1.0, factor: 1.05 }] },
            format!("{why}; within ×1.05 for \"similar\""))
        .plausible(&[gain_plausible(&pm(8192, 8, 4, 2)), (0.8, 1.2)], "the bound on 8 threads; 4 more comb threads save at most 4 % of the products")
        .parallel()
        .confirms_figure(),
        vec![Measure::Change(pm(8192, 8, 4, 2)), Measure::Ratio(grid8(8192, &[2, 3], &[4], 8), grid8(8192, &[2, 3], &[4], 4))]));
    let last = v.pop().expect("just pushed");
    v.push(printed(last, &[Some(-23.5), None]));
    let (r16, w16) = gain_rule(&pm(16384, 8, 4, 3), -24.0);
    let (r32, w32) = gain_rule(&pm(32768, 8, 4, 3), -24.5);
    v.push(bundle(c("mary-karatsuba-precomp-16384-32768-8thr", EXPERIMENT, "m-ary with precomputation, 16k & 32k", "At 16384 and 32768 bits 8 threads, 2^3-ary and 4 pt gain 24–24.5 %: similar results, stable across key sizes")
        .paper("Similar results: Stability of the approach across key sizes; 16384: -24% (8-threads, 2^3-ary, 4-pt); 32768: -24.5% (8-threads, 2^3-ary, 4-pt)")
        .paper_values(&[-24.0, -24.5])
        .metric("time change of 2^3-ary, 8 threads, 4 pt at 16384 and 32768 bits; spread of the best (2^2/2^3-ary, 4 pt, 8 threads) over 4096–32768 bits; needs 8 hardware threads", "")
        .rule(Rule::Each { parts: vec!["16384 bits (%)".into(), "32768 bits (%)".into(), "spread over sizes (points)".into()], rules: vec![r16, r32, Rule::AtMost { max: 5.0 }] },
            format!("{w16}; {w32}; 5 points for \"similar\" (the paper's best figures from 4096 to 32768 bits span 2.5)"))
        .plausible(&[gain_plausible(&pm(16384, 8, 4, 3)), gain_plausible(&pm(32768, 8, 4, 3)), (0.0, 20.0)], "the bound on 8 threads; thread start-up moves small sizes by up to 20 points")
        .parallel_time()
        .confirms_figure(),
        vec![Measure::Change(pm(16384, 8, 4, 3)), Measure::Change(pm(32768, 8, 4, 3)),
            Measure::Spread([4096, 8192, 16384, 32768].map(|b| grid8(b, &[2, 3], &[4], 8)).to_vec())]));
    // The spread compares sizes: load can move it either way.
    let mut last = v.pop().expect("just pushed");
    last.claim.load = crate::claims::Load::Any;
    v.push(printed(last, &[Some(-24.0), Some(-24.5), None]));
    let sizes_all = [1024u32, 2048, 4096, 8192, 16384, 32768];
    let (r22, w22) = gain_rule(&pm(1024, 8, 4, 4), -22.0);
    let (r14, w14) = gain_rule(&pm(1024, 8, 4, 6), -14.0);
    v.push(bundle(c("mary-karatsuba-precomp-8thr-4pt-averages", EXPERIMENT, "m-ary with precomputation: wrap up", "With 8 threads and 4 pt, 2^4-ary averages −22 % and 2^6-ary −14 % over the key sizes")
        .paper("8-threads and 4-pt can exploit 2^4-ary computation (average improvement: -22%, max -26%), 2^6-ary computation (average improvement: -14%, max -20%)")
        .paper_values(&[-22.0, -26.0, -14.0, -20.0])
        .metric("mean time change over 1024–32768 bits (the sizes the paper averaged) of 2^4-ary and of 2^6-ary at 8 threads, 4 pt; needs 8 hardware threads", "%")
        .rule(Rule::Each { parts: vec!["2^4-ary mean".into(), "2^6-ary mean".into()], rules: vec![r22, r14] }, format!("{w22}; {w14}"))
        .plausible(&[gain_plausible(&pm(1024, 8, 4, 4)), gain_plausible(&pm(1024, 8, 4, 6))], GAIN_WHY)
        .parallel_time()
        .confirms_figure(),
        vec![Measure::Mean(sizes_all.map(|b| pm(b, 8, 4, 4)).to_vec()), Measure::Mean(sizes_all.map(|b| pm(b, 8, 4, 6)).to_vec())]));
    let more = |bits: u32, r: u32, from: usize, to: usize| -> Measure {
        Measure::Ratio(
            vec![od(bits, from, r)],
            (from + 1..=to).map(|t| od(bits, t, r)).collect(),
        )
    };
    v.push(bundle(c("mary-karatsuba-ondemand-1024-saturation", EXPERIMENT, "m-ary on demand, 1024 bits", "2^4-ary on demand saturates at 2 or 3 threads")
        .paper("Sort of saturation at 2/3 threads for 2^4-ary")
        .metric("time of 2^4-ary on 3 threads over the fastest on 4–8 threads, 1024 bits, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::AtMost { max: 1.05 }, "1.05: \"saturation\" leaves more threads at most 5 % to gain")
        .plausible(&[(0.9, 1.3)], "by the MulMod count 5 more comb threads save at most 4 % of the work; a bigger team costs start-up")
        .parallel()
        .confirms_figure(),
        vec![more(1024, 4, 3, 8)]));
    v.push(bundle(c("mary-karatsuba-ondemand-beyond-5thr", EXPERIMENT, "m-ary on demand, 16k & 32k", "Beyond 5 threads on-demand m-ary gains little more")
        .paper("Less benefits from increasing beyond 5 threads")
        .metric("time of 2^6-ary on 5 threads over the fastest on 6–8 threads, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::Each { parts: vec!["16384 bits".into(), "32768 bits".into()], rules: vec![Rule::AtMost { max: 1.05 }; 2] }, "1.05: \"less benefit\" is at most 5 % more")
        .plausible(&[(0.9, 1.3); 2], "by the MulMod count 3 more comb threads save at most 1 % of the work")
        .parallel()
        .confirms_figure(),
        vec![more(16384, 6, 5, 8), more(32768, 6, 5, 8)]));
    v.push(bundle(c("mary-karatsuba-slice-enough-threads", EXPERIMENT, "Slicing – results; Slicing: wrap up", "3 or 4 slices give the maximum benefit: more threads do not alter performance")
        .paper("3/4 threads, and slices, are typically enough to get the maximum benefit; More threads do not alter performance")
        .metric("time of slicing on 4 threads over the fastest on 5–8, paired rounds; needs 8 hardware threads", "×")
        .rule(Rule::Each { parts: vec!["1024 bits".into(), "4096 bits".into()], rules: vec![Rule::Ratio { target: 1.0, factor: 1.05 }; 2] },
            "within ×1.05: \"do not alter\"; by the MulMod count 8 slices gain 1 point over 4")
        .plausible(&[(0.8, 1.3); 2], "the bound moves 1 point from 4 to 8 slices; more threads cost start-up")
        .parallel()
        .confirms_figure(),
        vec![Measure::Ratio(vec![sl(1024, 4)], (5..=8).map(|t| sl(1024, t)).collect()), Measure::Ratio(vec![sl(4096, 4)], (5..=8).map(|t| sl(4096, t)).collect())]));
    v
}
