//! Seed 003 without a clock: the MulMod counts of our exponentiation methods on the seed's
//! operands (the work split the slides describe: fewer products, balanced comb threads,
//! unbalanced slices), and the slides' own arithmetic (their summaries against the figures
//! they summarise, derived figures against their inputs).
use super::{int, text};
use crate::claims::num;
use crate::claims::seed003::checks::{
    self, CONCLUSION_MUL, Count, Counted, I7_PAIRS, NEWER_HW_SIZES, ONDEMAND_8192_R6_3THR_PRINTED,
    ONDEMAND_WRAPUP_THREADS, SLICE_WRAPUP,
};
use crate::claims::seed003::{
    E5_2650, HANDOFF_US, I7_2600, I7_6800K, KARATSUBA_PARALLEL, MODEXP_BEST, Measure, Setup,
    karatsuba_us, modexp,
};
use crate::error::{Error, Result};
use crate::modexp::{Params, Slicing, UnitCount, method, pow_mod_vartime};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed,
};

/// The counts' provenance.
const MODEL: &str = "MulMod count of src/modexp on the seed's operands";
use crate::suites::modexp::critical_path;
use rug::Integer;
use std::collections::HashMap;

/// The counting experiment of seed 003.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Counts)]
}

struct Counts;

/// The counted units of one exponentiation, and the exponent's bits.
struct Run {
    counts: Vec<UnitCount>,
    exp_bits: u32,
}

fn count(s: &Setup) -> Result<Run> {
    let (b, e, m) = crate::suites::modexp::operands(s.bits, 3);
    let p = Params {
        threads: s.threads,
        window: s.window,
        precomp_threads: s.pt,
        slicing: match s.cut {
            crate::claims::seed003::Cut::Balanced => Slicing::Balanced,
            crate::claims::seed003::Cut::Even => Slicing::Even,
            crate::claims::seed003::Cut::Uneven => Slicing::Uneven,
        },
        ..Params::default()
    };
    let out = pow_mod_vartime(method(s.method)?.as_ref(), &b, &e, &m, &p)?;
    if out.value != Integer::from(b.pow_mod_ref(&e, &m).expect("e >= 0")) {
        return Err(Error::internal(format!("{} wrong", s.describe())));
    }
    Ok(Run {
        counts: out.counts,
        exp_bits: e.significant_bits(),
    })
}

fn working(run: &Run) -> Vec<(usize, &UnitCount)> {
    run.counts
        .iter()
        .filter_map(|c| {
            c.unit
                .strip_prefix("thread ")
                .and_then(|t| t.parse().ok())
                .map(|t| (t, c))
        })
        .collect()
}

/// The thread that holds the exponent's top bits: the last slice, or the comb thread of the
/// top digit.
fn top_thread(s: &Setup, run: &Run) -> usize {
    if s.method == "slice" {
        return s.threads.saturating_sub(1);
    }
    let r = s.window.unwrap_or(1).max(1);
    (run.exp_bits.div_ceil(r) as usize).saturating_sub(1) % s.threads.max(1)
}

fn figure(c: &Count, runs: &HashMap<String, Run>) -> f64 {
    let run = |s: &Setup| &runs[&s.key()];
    let total = |s: &Setup| run(s).counts.iter().map(UnitCount::mulmods).sum::<u64>() as f64;
    match c {
        Count::Total(a, b) => total(a) / total(b),
        Count::Critical(a, b) => {
            critical_path(&run(a).counts) as f64 / critical_path(&run(b).counts) as f64
        }
        Count::Imbalance(a) => {
            let w: Vec<f64> = working(run(a))
                .iter()
                .map(|(_, c)| c.mulmods() as f64)
                .collect();
            let hi = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            hi / w.iter().copied().fold(f64::INFINITY, f64::min)
        }
        Count::ThreadProducts(a, b) => {
            let most = working(run(a))
                .iter()
                .map(|(_, c)| c.multiplications)
                .max()
                .unwrap_or(0);
            let all: u64 = working(run(b)).iter().map(|(_, c)| c.multiplications).sum();
            most as f64 / all as f64
        }
        Count::Top(a) => {
            let top = top_thread(a, run(a));
            let w = working(run(a));
            let mine = w
                .iter()
                .find(|(t, _)| *t == top)
                .map_or(0, |(_, c)| c.mulmods());
            let others = w
                .iter()
                .filter(|(t, _)| *t != top)
                .map(|(_, c)| c.mulmods())
                .max()
                .unwrap_or(0);
            mine as f64 / others as f64
        }
        Count::TotalRatioOfRatios([a, b, cc, d]) => (total(a) / total(b)) / (total(cc) / total(d)),
    }
}

impl Experiment for Counts {
    fn id(&self) -> &'static str {
        checks::EXPERIMENT
    }
    fn estimate_s(&self, _: Profile) -> f64 {
        1.0
    }
    fn run(&self, _: &Context) -> Result<Output> {
        let counted = checks::counts();
        let mut runs: HashMap<String, Run> = HashMap::new();
        let mut table = Table::new(&[
            "configuration",
            "mulmods",
            "critical_path_mulmods",
            "busiest_thread_mulmods",
            "least_busy_thread_mulmods",
        ]);
        let (mut names, mut busiest, mut least) = (Vec::new(), Vec::new(), Vec::new());
        for s in counted
            .iter()
            .flat_map(|c| c.parts.iter().flat_map(Count::setups))
        {
            if runs.contains_key(&s.key()) {
                continue;
            }
            let run = count(&s)?;
            let w: Vec<u64> = working(&run).iter().map(|(_, c)| c.mulmods()).collect();
            let (hi, lo) = (
                w.iter().copied().max().unwrap_or(0),
                w.iter().copied().min().unwrap_or(0),
            );
            if s.threads > 1 {
                let x = names.len() as f64;
                names.push(s.describe());
                busiest.push((x, hi as f64));
                least.push((x, lo as f64));
            }
            table.push(vec![
                text(s.describe()),
                int(run.counts.iter().map(UnitCount::mulmods).sum::<u64>()),
                int(critical_path(&run.counts)),
                int(hi),
                int(lo),
            ]);
            runs.insert(s.key(), run);
        }
        let mut evidence: Vec<Fed> = counted.iter().map(|c| count_evidence(c, &runs)).collect();
        evidence.extend(paper_evidence());
        let result = ExperimentResult::new(
            self.id(),
            self.seed(),
            "MulMod counts and the slides' arithmetic",
            "the work split of m-ary and slicing (intro slides); the wrap-ups and conclusions against their slides",
            Provenance::Modelled("MulMod counts of src/modexp on the seed's operands; the slides' own numbers".into()),
            "Each configuration run once on the seed's operands (checked against GMP) with every modular product \
                      counted per thread: total MulMods, the critical path (busiest unit of each phase) and the busiest and least \
                      busy working thread. Counts are exact, so they decide by construction of the code, not by timing. The \
                      slides' summaries are checked against the figures they summarise (paper-checks).",
        )
        .with_table(table)
        .with_charts(vec![
                Chart::bar(
                    "Work per thread: the busiest and the least busy thread's MulMods (counted, exact)",
                    "configuration",
                    "MulMods",
                    names,
                )
                .with(Series::from_xy("busiest thread", busiest, Provenance::Modelled(MODEL.into())))
                .with(Series::from_xy("least busy thread", least, Provenance::Modelled(MODEL.into())))
                .note("Comb m-ary threads each square about k times, so they stay within a few per cent of each other; even slices leave the top slice three times the lowest one's work; balanced slices even it out."),
            ]);
        Ok(Output { result, evidence })
    }
}

fn count_evidence(c: &Counted, runs: &HashMap<String, Run>) -> Fed {
    let estimates: Vec<Estimate> = c
        .parts
        .iter()
        .map(|p| Estimate::exact(figure(p, runs)))
        .collect();
    fed(
        &c.claim.id,
        Evidence::modelled(
            estimates,
            "MulMods counted per thread on the seed's operands (exact)",
        ),
    )
}

/// The printed gains of the exponentiation slides' own configurations: (setup, %).
fn printed_configs() -> Vec<(Setup, f64)> {
    modexp::timed()
        .into_iter()
        .flat_map(|t| {
            t.parts
                .into_iter()
                .zip(t.printed)
                .filter_map(|(m, p)| match (m, p) {
                    (Measure::Change(s), Some(p)) if s.window.is_some() => Some((s, p)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn kara(method: &str, bits: u32, machine: &str) -> Option<(Option<f64>, Option<f64>)> {
    KARATSUBA_PARALLEL
        .iter()
        .find(|r| r.0 == method && r.1 == bits && r.4 == machine)
        .map(|r| (r.2, r.3))
}

/// Every paper-check's figures, from the slides' numbers as registered.
fn paper_evidence() -> Vec<Fed> {
    let exact = |v: &[f64]| v.iter().map(|x| Estimate::exact(*x)).collect::<Vec<_>>();
    let configs = printed_configs();
    // The best printed gain of a method over the sizes `at` accepts: its best figures and
    // its slides' configurations.
    let best_of = |m: &str, at: &dyn Fn(u32) -> bool| {
        MODEXP_BEST
            .iter()
            .filter(|b| b.0 == m && at(b.1))
            .map(|b| b.2)
            .chain(
                configs
                    .iter()
                    .filter(|(s, _)| s.method == m && at(s.bits))
                    .map(|c| c.1),
            )
            .fold(f64::INFINITY, f64::min)
    };
    let r4_best = configs
        .iter()
        .filter(|(s, _)| s.method == "mary-precomp" && s.window == Some(4))
        .map(|c| c.1)
        .fold(f64::INFINITY, f64::min);
    let ondemand_best = |bits: u32| best_of("mary-ondemand", &|b| b == bits);
    let on_slide: Vec<&(Setup, f64)> = configs
        .iter()
        .filter(|(s, p)| s.method == "mary-ondemand" && *p == ondemand_best(s.bits))
        .collect();
    let off_threads = on_slide
        .iter()
        .filter(|(s, _)| !ONDEMAND_WRAPUP_THREADS.contains(&s.threads))
        .count() as f64;
    let other_sizes = [4096u32, 8192, 16384, 32768]
        .iter()
        .map(|b| ondemand_best(*b))
        .fold(f64::NEG_INFINITY, f64::max);
    let i7_pairs: Vec<Estimate> = I7_PAIRS
        .iter()
        .map(|(m, b)| {
            let (g, s) = kara(m, *b, I7_2600).unwrap_or((None, None));
            let (g, s) = (g.unwrap_or(f64::NAN), s.unwrap_or(f64::NAN));
            Estimate::new(
                (1.0 + g) / (1.0 + s),
                (1.0 + g - 0.005) / (1.0 + s + 0.005),
                (1.0 + g + 0.005) / (1.0 + s - 0.005),
            )
        })
        .collect();
    let newer: Vec<f64> = NEWER_HW_SIZES
        .iter()
        .flat_map(|b| {
            let (g6, s6) = kara("kara-lockfree", *b, I7_6800K).unwrap_or((None, None));
            let (g5, s5) = kara("kara-lockfree", *b, E5_2650).unwrap_or((None, None));
            let d = |a: Option<f64>, b: Option<f64>| {
                (a.unwrap_or(f64::NAN) - b.unwrap_or(f64::NAN)) * 100.0
            };
            [d(s6, s5), d(g6, g5)]
        })
        .collect();
    let pct = |x: Option<f64>| x.map_or(f64::NAN, |x| (x * 100.0).round());
    let lockfree_seq = |machine: &str| -> Vec<f64> {
        KARATSUBA_PARALLEL
            .iter()
            .filter(|r| r.4 == machine && r.0 == "kara-lockfree")
            .filter_map(|r| r.3.map(|x| (x * 100.0).round()))
            .collect()
    };
    let at4096: Vec<f64> = [I7_2600, E5_2650, I7_6800K]
        .iter()
        .filter_map(|m| {
            kara("kara-lockfree", 4096, m)
                .and_then(|x| x.1)
                .map(|x| (x * 100.0).round())
        })
        .collect();
    let all_seq: Vec<f64> = KARATSUBA_PARALLEL
        .iter()
        .filter_map(|r| r.3.map(|x| (x * 100.0).round()))
        .collect();
    let beyond_gmp = KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.1 > 8192)
        .filter_map(|r| r.2.map(|x| (x * 100.0).round()))
        .fold(f64::INFINITY, f64::min);
    let k6800_seq = lockfree_seq(I7_6800K);
    let k6800_gains: Vec<f64> = KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.4 == I7_6800K)
        .filter_map(|r| r.2.map(|x| (x * 100.0).round()))
        .filter(|x| *x < 0.0)
        .collect();
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let activation = |n: &str| {
        HANDOFF_US
            .iter()
            .find(|h| h.0 == n)
            .map_or(f64::NAN, |h| h.1)
    };
    let gmp_us = |b| karatsuba_us("gmp", b).unwrap_or(f64::NAN);
    let slide = |id: &str, e: Vec<Estimate>, how: &str| fed(id, Evidence::arithmetic(e, how));
    vec![
        fed(
            "seed003-count-table-unused",
            Evidence::report("by construction: 128 digits, 254 table entries"),
        ),
        slide(
            "seed003-check-karatsuba-exponent",
            exact(&[3f64.log2()]),
            "log2 3",
        ),
        slide(
            "seed003-check-mary-wrapup",
            exact(&[best_of("mary-precomp", &|_| true)]),
            "the largest gain printed on the precomputation slides",
        ),
        slide(
            "seed003-check-precomp-r4-max",
            exact(&[r4_best]),
            "the largest 2^4-ary gain printed on the precomputation slides",
        ),
        slide(
            "seed003-check-ondemand-wrapup",
            exact(&[ondemand_best(1024), other_sizes]),
            "each size's best on-demand figure as printed",
        ),
        slide(
            "seed003-check-ondemand-best-threads",
            exact(&[off_threads]),
            &format!(
                "best on-demand configurations per size: {}",
                on_slide
                    .iter()
                    .map(|(s, p)| format!(
                        "{} bits 2^{}-ary {} thr {} %",
                        s.bits,
                        s.window.unwrap_or(0),
                        s.threads,
                        num(*p)
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
        slide(
            "seed003-check-ondemand-8192-twice",
            exact(&[(ONDEMAND_8192_R6_3THR_PRINTED[0] - ONDEMAND_8192_R6_3THR_PRINTED[1]).abs()]),
            "|−27 − (−25)|",
        ),
        slide(
            "seed003-check-slice-wrapup",
            exact(&SLICE_WRAPUP.map(|(b, p)| {
                p - MODEXP_BEST
                    .iter()
                    .find(|x| x.0 == "slice" && x.1 == b)
                    .map_or(f64::NAN, |x| x.2)
            })),
            "wrap-up less results slide",
        ),
        slide(
            "seed003-check-spawn-vs-product",
            exact(&[
                activation("spawn") / gmp_us(4096),
                activation("spawn+join") / gmp_us(8192),
            ]),
            "the cheapest activation over GMPmul from the table",
        ),
        slide(
            "seed003-check-kara-i7-table",
            i7_pairs,
            "(1 + change vs GMP) / (1 + change vs karaMul), with ±0.5 % printing",
        ),
        slide(
            "seed003-check-kara-newer-hw",
            exact(&newer),
            "i7-6800K's change less E5-2650 v2's, in points",
        ),
        slide(
            "seed003-check-kara-wrapup-seq",
            exact(&[max(&at4096), min(&at4096), min(&all_seq)]),
            "the slides' gains over karaMul",
        ),
        slide(
            "seed003-check-kara-wrapup-gmp",
            exact(&[
                pct(kara("kara-lockfree", 8192, I7_2600).and_then(|x| x.0)),
                pct(kara("kara-lockfree", 8192, E5_2650).and_then(|x| x.0)),
                pct(kara("kara-lockfree", 8192, I7_6800K).and_then(|x| x.0)),
                beyond_gmp,
            ]),
            "the slides' changes against GMP",
        ),
        slide(
            "seed003-check-conclusion-modexp",
            exact(&["slice", "mary-ondemand", "mary-precomp"].map(|m| best_of(m, &|_| true))),
            "each method's best printed figure",
        ),
        slide(
            "seed003-check-conclusion-mul",
            exact(&[
                max(&k6800_seq),
                min(&k6800_seq),
                max(&k6800_gains),
                min(&k6800_gains),
            ]),
            &format!(
                "the i7-6800K slide (the conclusion quotes {:?})",
                CONCLUSION_MUL
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slides' arithmetic: which summaries agree with their slides and which do not.
    #[test]
    fn the_slides_own_numbers_agree_where_they_do_and_not_where_they_do_not() {
        let inconsistent = [
            "seed003-check-karatsuba-exponent",
            "seed003-check-ondemand-best-threads",
            "seed003-check-ondemand-8192-twice",
            "seed003-check-kara-i7-table",
            "seed003-check-kara-wrapup-gmp",
        ];
        let fed = paper_evidence();
        let checks: Vec<Fed> = fed
            .iter()
            .filter(|f| f.claim.contains("-check-"))
            .cloned()
            .collect();
        assert_eq!(checks.len(), checks::checks().len() - 1);
        super::super::assert_paper_checks(&checks, &inconsistent);
        let wrapup = fed
            .iter()
            .find(|f| f.claim == "seed003-check-ondemand-wrapup")
            .unwrap();
        let v: Vec<f64> = wrapup.evidence.estimates.iter().map(|e| e.value).collect();
        assert_eq!(v, [-32.0, -27.0]);
        let threads = fed
            .iter()
            .find(|f| f.claim == "seed003-check-ondemand-best-threads")
            .unwrap();
        assert_eq!(
            threads.evidence.estimates[0].value, 2.0,
            "4096 on 4 threads, 32768 on 2"
        );
    }

    #[test]
    fn counts_follow_the_methods_work_split() {
        // Even slices on 4 threads: the top slice squares through every lower bit.
        let s = Setup::new("slice", 1024, 4).even();
        let run = count(&s).unwrap();
        assert_eq!(top_thread(&s, &run), 3);
        let runs = HashMap::from([(s.key(), run)]);
        assert!(figure(&Count::Imbalance(s), &runs) > 2.0);
        assert!(figure(&Count::Top(s), &runs) > 1.0);
    }
}
