//! CRSA (CRSA) by counting: the MulMods of our CRSA schedule and of the binary method for
//! chosen exponents, machine-independent and exact ([`parcrypt::modexp::crsa::schedule()`]
//! predicts what the engine counts, by test), against Table 1, Section 4's formulas and the
//! trends of Sections 2–5; and the paper's own numbers against each other. Nothing here is
//! timed.
use super::parsa_tables::corners;
use super::scc_blowfish_paper::half_digit;
use super::{int, num, opt, text};
use crate::claims::crsa::{self as paper, NC_SWEEP, TABLE1_K, TABLE1_NC};
use crate::error::Result;
use crate::study::estimate::reference_s;
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed,
};
use crate::suites::crsa_paper::{PeRow, Row, binary_mulmods, mulmod_table, pe_table};
use parcrypt::modexp::crsa::{self, Schedule, Topology, schedule};
use rand::SeedableRng;
use rug::Integer;

/// Provenance of everything counted here.
pub fn counted() -> Provenance {
    Provenance::Modelled("exact MulMod counts of the CRSA schedule; machine-independent".into())
}

/// Random exponents the means over exponents take: enough that the sampling error of a mean
/// MulMod count (about 16/√n for 1024 bits) stays well under the one-MulMod steps the trend
/// claims compare.
pub const SAMPLE: usize = 1000;

/// [`SAMPLE`] random exponents of `k` bits (top bit set), the same on every run.
pub fn random_exponents(k: u32) -> Vec<Integer> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(u64::from(k) + 2);
    (0..SAMPLE)
        .map(|_| parcrypt::hazmat::bignum::random_bits(&mut rng, k) | (Integer::from(1) << (k - 1)))
        .collect()
}

/// The mean of `f` over the schedules of `exps` on `topo`.
pub fn mean_over(topo: &Topology, exps: &[Integer], f: impl Fn(&Schedule) -> f64) -> Result<f64> {
    let mut sum = 0.0;
    for e in exps {
        sum += f(&schedule(topo, e)?);
    }
    Ok(sum / exps.len().max(1) as f64)
}

/// The ratios of each value to the one before it (what a [`crate::claims::Rule::Order`]
/// judges), as exact estimates.
pub fn order_ratios(values: &[f64]) -> Vec<Estimate> {
    values
        .windows(2)
        .map(|w| Estimate::exact(w[1] / w[0]))
        .collect()
}

/// The pipelined-over-main throughput of one block of exponent `e` at `nc` cubes: with our
/// dataflow (the schedule's critical path over its busiest unit), and with the paper's (X =
/// 24·2^Nc − 12Nc − 26 and a hypercube of 5Nc − 1 MulMod times, Section 4; the busiest unit
/// is then the coordinator too).
pub fn throughput_gain(e: &Integer, nc: usize) -> Result<(f64, f64)> {
    let ours = schedule(&Topology::new(nc, false)?, e)?.ideal_ratio;
    let split = crsa::coordinator::split(e, paper::paper_x(nc) as u64)?;
    let (sq, mul) = crsa::coordinator::predicted(&split);
    let coordinator = (sq + mul) as f64;
    let latency = coordinator + 5.0 * nc as f64 - 1.0 + if split.r != 0 { 1.0 } else { 0.0 };
    Ok((ours, latency / coordinator.max(3.0)))
}

/// `crsa-s2-throughput-nc`'s figures: per step of [`NC_SWEEP`], the mean over `exps` of
/// each exponent's throughput gain over the one at the smaller Nc, with its bootstrap
/// interval, spanning our dataflow and the paper's (the value: ours).
pub fn throughput_steps(exps: &[Integer]) -> Result<Vec<Estimate>> {
    let mut per_nc: Vec<Vec<(f64, f64)>> = Vec::new();
    for &nc in &NC_SWEEP {
        per_nc.push(
            exps.iter()
                .map(|e| throughput_gain(e, nc))
                .collect::<Result<_>>()?,
        );
    }
    Ok(per_nc
        .windows(2)
        .map(|w| {
            let steps = |f: fn(&(f64, f64)) -> f64| -> Vec<f64> {
                w[0].iter().zip(&w[1]).map(|(a, b)| f(b) / f(a)).collect()
            };
            let ours = super::mean_with_interval(&steps(|x| x.0));
            let theirs = super::mean_with_interval(&steps(|x| x.1));
            Estimate::new(
                ours.value,
                ours.low.min(theirs.low),
                ours.high.max(theirs.high),
            )
        })
        .collect())
}

/// The PEs' pipeline levels (1-based) at Nc = 2, by PE number.
fn levels_nc2() -> Result<Vec<usize>> {
    Ok(pe_table(2)?.iter().map(|r| r.level).collect())
}

/// The most MulMods the paper gives a PE of `level` (1-based) at Nc = 2.
pub fn paper_level_max(level: usize) -> Result<u64> {
    Ok(levels_nc2()?
        .iter()
        .zip(paper::PE_MULMODS_NC2)
        .filter(|(l, _)| **l == level)
        .map(|(_, m)| m)
        .max()
        .unwrap_or(0))
}

/// The paper's Σ_{i=3, j=4}^{2^Nc − 1} i (i = 2j − 1, j = 2j), term by term: 3, 7, 15, …
/// up to 2^Nc − 1.
pub fn paper_sum(nc: usize) -> u64 {
    let top = (1u64 << nc) - 1;
    let (mut i, mut j, mut sum) = (3u64, 4u64, 0u64);
    while i <= top {
        sum += i;
        j *= 2;
        i = j - 1;
    }
    sum
}

/// Table 1 and Section 4, counted.
pub struct Counts;

fn exact(v: f64) -> Vec<Estimate> {
    vec![Estimate::exact(v)]
}

fn arithmetic(estimates: Vec<Estimate>, how: &str) -> Evidence {
    Evidence::arithmetic(estimates, how)
}

/// The assumption the dataflow claims are judged over, in words.
const DATAFLOW: &str =
    "the hypercube's dataflow (what each PE multiplies), which the paper does not state";

fn counted_evidence(estimates: Vec<Estimate>, how: &str) -> Evidence {
    Evidence::modelled(estimates, how)
}

impl Experiment for Counts {
    fn id(&self) -> &'static str {
        paper::COUNTS
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        reference_s(profile, 0.1, 0.1)
    }
    fn run(&self, _ctx: &Context) -> Result<Output> {
        let rows = mulmod_table(TABLE1_K, TABLE1_NC)?;
        let mut table = Table::new(&["quantity", "paper", "ours", "unit", "note"]);
        for r in &rows {
            table.push(vec![
                text(&r.quantity),
                opt(r.paper),
                opt(r.ours),
                text(unit_of(&r.quantity)),
                text(&r.note),
            ]);
        }
        let pes = pe_table(2)?;
        let per_pe = |f: &dyn Fn(&PeRow) -> Option<u64>| -> Vec<(f64, f64)> {
            pes.iter()
                .enumerate()
                .filter_map(|(i, p)| f(p).map(|v| (i as f64, v as f64)))
                .collect()
        };
        let categories: Vec<String> = pes.iter().map(|p| format!("{}", p.address)).collect();
        let chart = Chart::bar(
            "MulMods per PE at Nc = 2: the paper's example against our schedule (counted)",
            "processing element",
            "MulMods per block",
            categories,
        )
        .zero_y()
        .with(Series::from_xy(
            "paper",
            per_pe(&|p| p.paper),
            Provenance::Paper,
        ))
        .with(Series::from_xy(
            "ours, main (counted)",
            per_pe(&|p| Some(p.main)),
            counted(),
        ))
        .with(Series::from_xy(
            "ours, optimized (counted)",
            per_pe(&|p| p.optimized),
            counted(),
        ));
        let result = ExperimentResult::new(
            self.id(),
            "crsa",
            "MulMod counts of CRSA against the paper",
            "Table 1, Sections 2–5, Figs. 1–4",
            counted(),
            "Counts, not timings: per quantity for a 1024-bit exponent and Nc = 2 cubes, the paper against our \
                      schedule, and MulMods per processing element. The paper's printed η uses '·' where Table 1 needs \
                      '−'; CRT and Montgomery formulas count word operations, not MulMods, and are compared with nothing. \
                      The table's means are over 32 random 1024-bit exponents, the claims' over 1000 (fixed seeds).",
        )
        .with_table(table)
        .with_charts(vec![chart]);
        Ok(Output {
            result,
            evidence: evidence(&rows, &pes)?,
        })
    }
}

fn evidence(rows: &[Row], pes: &[PeRow]) -> Result<Vec<Fed>> {
    let mut v = Figures::new(rows, pes)?.evidence()?;
    v.extend(table1_text_evidence());
    Ok(v)
}

/// Section 4's "reduced in the average and worst cases" against Table 1's own formulas: binary's
/// average against CRSA's, and the most Montgomery [5] (a binary exponentiation) can need.
fn table1_text_evidence() -> Vec<Fed> {
    let (k, nc) = (TABLE1_K, TABLE1_NC);
    let (bin_avg, bin_worst) = (paper::binary_average(k), paper::binary_worst(k));
    let (crsa_avg, crsa_worst) = (
        paper::table1_average_crsa(k, nc),
        paper::table1_worst_crsa(k, nc),
    );
    let exact = Estimate::exact;
    vec![
        fed(
            "crsa-table1-average-formula",
            Evidence::arithmetic(
                vec![exact(bin_avg - crsa_avg)],
                "1.5(k − 1) − (1.5k − 1.5·log2 46 + 5·2 − 2.5) at k = 1024",
            )
            .text(format!(
                "binary {bin_avg:.2}, optimized CRSA {crsa_avg:.2}: {:.2} MulMods more for CRSA (the coordinator saves 1.5·log2 46 − 1.5 = {:.2}, the hypercube adds 5Nc − 1 = 9)",
                crsa_avg - bin_avg,
                1.5 * paper::paper_x(nc).log2() - 1.5
            )),
        ),
        fed(
            "crsa-table1-vs-montgomery",
            Evidence::arithmetic(
                vec![exact(bin_avg - crsa_avg), exact(bin_worst - crsa_worst)],
                "the most MulMods a binary exponentiation needs, 1.5(k − 1) and 2(k − 1), against Table 1's optimized CRSA at k = 1024, Nc = 2",
            )
            .text(format!(
                "average: Montgomery [5] at most {bin_avg:.1}, CRSA {crsa_avg:.2}; worst: at most {bin_worst:.0}, CRSA {crsa_worst:.2}; as Table 1 prints it, Montgomery's 2k² + k = {} is a count of another unit",
                paper::TABLE1_MONTGOMERY
            )),
        ),
    ]
}

/// What the count claims are judged on, worked out once: the count table's worst case, the
/// PE table at Nc = 2, the two topologies at Nc = 2 and the means over random exponents.
struct Figures<'a> {
    pes: &'a [PeRow],
    /// The count table's optimized-CRSA worst case.
    worst: Option<f64>,
    /// The main and the optimized topology at Nc = 2.
    topo2: (Topology, Topology),
    /// Critical paths of the main over the optimized schedule, times their PEs' ratio.
    eff: f64,
    /// Binary's mean MulMods over the random exponents.
    bin_mean: f64,
    /// The optimized CRSA's mean critical path at Nc = 2 over the random exponents.
    crsa_mean: f64,
    /// S/P of the main CRSA at each Nc of [`NC_SWEEP`].
    efficiency: Vec<f64>,
}

/// Binary's MulMods for exponent `e`.
fn binary_count(e: &Integer) -> f64 {
    binary_mulmods(e) as f64
}

impl<'a> Figures<'a> {
    fn new(rows: &[Row], pes: &'a [PeRow]) -> Result<Self> {
        let exps = random_exponents(TABLE1_K);
        let topo2 = (Topology::new(2, false)?, Topology::new(2, true)?);
        let eff = {
            let e = &exps[0];
            let (m, o) = (schedule(&topo2.0, e)?, schedule(&topo2.1, e)?);
            m.latency_steps as f64 / o.latency_steps as f64 * topo2.0.pe_count() as f64
                / topo2.1.pe_count() as f64
        };
        let bin_mean = exps.iter().map(binary_count).sum::<f64>() / exps.len() as f64;
        let crsa_mean = mean_over(&topo2.1, &exps, |s| s.latency_steps as f64)?;
        let mut efficiency = Vec::new();
        for &nc in &NC_SWEEP {
            let t = Topology::new(nc, false)?;
            let s = bin_mean / mean_over(&t, &exps, |s| s.latency_steps as f64)?;
            efficiency.push(s / t.pe_count() as f64);
        }
        let worst = rows
            .iter()
            .find(|r| {
                r.quantity
                    .starts_with("optimized CRSA worst, e = X·2^t − 1: critical path")
            })
            .and_then(|r| r.ours);
        Ok(Self {
            pes,
            worst,
            topo2,
            eff,
            bin_mean,
            crsa_mean,
            efficiency,
        })
    }

    fn evidence(&self) -> Result<Vec<Fed>> {
        let (k, kf) = (TABLE1_K, f64::from(TABLE1_K));
        let (pes, topo2, eff, worst) = (self.pes, &self.topo2, self.eff, self.worst);
        let (bin_mean, crsa_mean, efficiency) = (self.bin_mean, self.crsa_mean, &self.efficiency);
        let kept = pes.iter().filter(|p| p.optimized.is_some()).count();
        let bin = binary_count;
        // CRT: binary on each 512-bit half with a 512-bit exponent, 1.5·(k/2 − 1) MulMods on
        // average each; a half-size MulMod costs ¼ (schoolbook) to ⅓ (Karatsuba-like) of a full one.
        let crt_half = 2.0 * 1.5 * (kf / 2.0 - 1.0);
        let vs_crt = |cost: f64| crsa_mean / (crt_half * cost);
        let printed_2k2 = 2.0 * kf * kf;
        let bielecki = corners(&[half_digit(paper::TABLE1_BIELECKI / 1e307, 4)], |x| {
            (printed_2k2 / (x[0] * 1e307)).log10()
        });
        let x_ours = topo2.0.power() as f64;
        let hc_mulmods = hypercube(1..=4, |s| s.hypercube_mulmods as f64)?;
        let hc_time = hypercube(1..=3, |s| s.hypercube_steps as f64)?;
        let nc1 = Topology::new(1, false)?.power();
        Ok(vec![
        fed("crsa-s2-topology", Evidence::report("src/modexp/crsa/topology.rs, engine.rs")
            .text(format!("{} PEs at Nc = 2 in {} levels; every value crosses one hypercube edge", topo2.0.pe_count(), topo2.0.levels()))),
        fed("crsa-s2-pe-counts", Evidence::report("pe_table(2)")
            .text(format!("{} of 16 PEs count as printed", pes.iter().filter(|p| p.paper == Some(p.main)).count()))),
        fed("crsa-fig3-pes", Evidence::report("the optimized topology").text(format!("{} → {kept} PEs", pes.len()))),
        fed("crsa-s3-efficiency", counted_evidence(exact(eff), "critical paths of the main and the optimized schedule for a random 1024-bit exponent, times 16 / 12 PEs")),
        fed("crsa-s4-binary-counts", counted_evidence(
            vec![
                Estimate::exact(bin(&(Integer::from(1) << (k - 1)))),
                Estimate::exact(bin_mean),
                Estimate::exact(bin(&((Integer::from(1) << k) - 1u32))),
            ],
            "binary's MulMods (k − 1 squarings, one multiplication per further set bit), counted")),
        fed("crsa-s4-x-pes", arithmetic(exact(paper::paper_x(2)), "24·2^Nc − 12Nc − 26 at Nc = 2")
            .text(format!("{} against 16 PEs (12 optimized)", paper::paper_x(2)))),
        fed("crsa-s4-x-algebra", arithmetic(x_sum_err(), "the sum term by term (3, 7, 15, …) against 2^(Nc+1) − (Nc + 3)")),
        fed("crsa-s4-x", Evidence::modelled_range(vec![Estimate::new(x_ours, x_ours.min(paper::paper_x(2)), x_ours.max(paper::paper_x(2)))],
            "the exponent the hypercube's products give, PE by PE, with the paper's per-PE counts: with our guessed dataflow (the value) and with a dataflow that gives the paper's X (the paper states none), so the range spans both",
            &format!("{DATAFLOW}: ours gives {x_ours}, the paper's formula {}", paper::paper_x(2)))
            .text(format!("{x_ours} at Nc = 2 (paper {}); equal at Nc = 1 ({} = {})", paper::paper_x(2), nc1, paper::paper_x(1)))),
        fed("crsa-s4-eta-misprint", arithmetic(exact((kf - 1.0) - paper::paper_x(2).log2() + 5.0 * 2.0 - 1.0),
            "(k − 1) − log2(46) + 5Nc − 1 at k = 1024, Nc = 2: the \"·\" read as the \"−\" of Table 1")
            .text(format!("{:.2} MulMods, Table 1's best case; read literally, (k − 1)·log2 46 + 9 = {:.1} and k·log2 46 + 8 = {:.1} disagree with each other and with Table 1",
                (kf - 1.0) - paper::paper_x(2).log2() + 9.0,
                (kf - 1.0) * paper::paper_x(2).log2() + 9.0,
                kf * paper::paper_x(2).log2() + 8.0))),
        fed("crsa-s4-cube-sums", arithmetic(cube_sums(), "the paper's per-PE counts, summed")),
        fed("crsa-s4-hypercube-mulmods", counted_evidence(hc_mulmods, "the optimized hypercube's MulMods per block with X | e")),
        fed("crsa-s4-hypercube-time", Evidence::modelled_range(
            hc_time.iter().zip(1..).map(|(e, nc)| {
                let paper_t = 5.0 * f64::from(nc) - 1.0;
                Estimate::new(e.value, e.value.min(paper_t), e.value.max(paper_t))
            }).collect(),
            "the optimized hypercube's critical path with X | e: with our guessed dataflow (the value) and with one that takes the paper's 5Nc − 1 (the paper states no dataflow), so each range spans both",
            &format!("{DATAFLOW}: ours takes {}", hc_time.iter().map(|e| format!("{}", e.value)).collect::<Vec<_>>().join(", ")))),
        fed("crsa-table1-bielecki", arithmetic(vec![bielecki], "log10(2·1024² / 4.4942e+307)")
            .text(format!("2k² = {printed_2k2}, printed 4.4942e+307 = 2^1022: {:.1} decades apart", bielecki.value))),
        fed("crsa-table1-crt", arithmetic(exact(0.75 * kf * kf + kf), "3k²/4 + k at k = 1024")),
        fed("crsa-table1-montgomery", arithmetic(exact(2.0 * kf * kf + kf), "2k² + k at k = 1024")),
        fed("crsa-table1-binary", arithmetic(exact(paper::binary_worst(k)), "2(k − 1) at k = 1024")),
        fed("crsa-table1-crsa", arithmetic(exact(paper::table1_worst_crsa(k, TABLE1_NC)), "2k − 2·log2(46) + 5·2 − 3 at k = 1024")),
        fed("crsa-table1-worst", match worst {
            Some(w) => counted_evidence(exact(w),
                "counted on the critical path of the engine's schedule (equal to the engine's own counts, by test); the saving is log2 X ≈ 5 bits of a 1024-bit exponent")
                .text(format!("optimized CRSA {w:.0}, binary {}", paper::TABLE1_WORST_BINARY)),
            None => Evidence::unavailable("the count table has no worst-case row"),
        }),
        fed("crsa-table1-average", counted_evidence(exact(bin_mean - crsa_mean), "binary's MulMods minus the optimized CRSA's critical path, mean over 1000 random 1024-bit exponents")
            .text(format!("binary {bin_mean:.1}, optimized CRSA {crsa_mean:.1}"))),
        fed("crsa-table1-vs-crt", Evidence::modelled_range(
            vec![Estimate::new(vs_crt(0.3), vs_crt(1.0 / 3.0), vs_crt(0.25))],
            &format!("CRSA's critical path ({crsa_mean:.1} MulMods, mean of 1000 random exponents) over CRT's {crt_half:.0} half-size MulMods weighted by their cost"),
            "the cost of a 512-bit MulMod against a 1024-bit one: ¼ (schoolbook) to ⅓ (Karatsuba-like); 0.3 at the point value")),
        fed("crsa-fig4b-more-pes", counted_evidence(order_ratios(efficiency),
            "S/P with S = binary's MulMods / the main CRSA's critical path (means over 1000 random 1024-bit exponents), P = 8Nc")
            .text(format!("S/P = {}", efficiency.iter().zip(NC_SWEEP).map(|(e, n)| format!("{e:.4} at Nc = {n}")).collect::<Vec<_>>().join(", ")))),
    ])
    }
}

/// The paper's sum term by term against its closed form, at Nc = 1 to 4.
fn x_sum_err() -> Vec<Estimate> {
    (1..=4)
        .map(|nc| {
            let closed = (1u64 << (nc + 1)) - (nc as u64 + 3);
            Estimate::exact(paper_sum(nc) as f64 - closed as f64)
        })
        .collect()
}

/// The paper's per-PE counts summed over the first and the last cube, and their sum less
/// 10Nc − 5.
fn cube_sums() -> Vec<Estimate> {
    let sum = |ids: &[usize]| ids.iter().map(|&i| paper::PE_MULMODS_NC2[i]).sum::<u64>() as f64;
    let (first, last) = (sum(&[0, 2, 4, 5, 6, 7]), sum(&[8, 10, 12, 13, 14, 15]));
    vec![
        Estimate::exact(first),
        Estimate::exact(last),
        Estimate::exact(first + last - (10.0 * TABLE1_NC as f64 - 5.0)),
    ]
}

/// `f` of the optimized hypercube's schedule at each Nc of `ncs`, for an exponent X divides.
fn hypercube(
    ncs: std::ops::RangeInclusive<usize>,
    f: impl Fn(&Schedule) -> f64,
) -> Result<Vec<Estimate>> {
    let mut v = Vec::new();
    for nc in ncs {
        let t = Topology::new(nc, true)?;
        v.push(Estimate::exact(f(&schedule(
            &t,
            &(Integer::from(t.power()) << 10),
        )?)));
    }
    Ok(v)
}

/// The unit of a row of the count table, from the quantity it names: most rows count
/// MulMods; the others count PEs, bits or word operations, or are ratios.
fn unit_of(quantity: &str) -> &'static str {
    let starts = |p: &[&str]| p.iter().any(|s| quantity.starts_with(s));
    if starts(&["PEs"]) {
        "PEs"
    } else if starts(&["log2"]) {
        "bits"
    } else if starts(&["X ="]) {
        "number"
    } else if starts(&["CRT", "Montgomery", "Bielecki"]) {
        "word operations"
    } else if quantity.contains("throughput") || quantity.contains("efficiency") {
        "×"
    } else {
        "MulMods"
    }
}

/// A row of the pipelining table: cubes, PEs, and a schedule's MulMod times per block
/// unpipelined (its critical path) and pipelined (its busiest unit), their ratio and the
/// paper's.
pub fn level_cells(nc: usize, s: &Schedule, pes: usize) -> Vec<crate::study::Cell> {
    vec![
        int(nc),
        int(pes),
        int(s.latency_steps),
        int(s.period_steps),
        num(s.ideal_ratio),
        num(paper::pipelined_gain(nc)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims;
    use crate::study::{Verdict, judge};

    #[test]
    fn the_papers_sum_is_its_closed_form() {
        for nc in 1..=6 {
            assert_eq!(paper_sum(nc), (1 << (nc + 1)) - (nc as u64 + 3), "nc={nc}");
        }
        assert_eq!(paper_sum(2), 3);
        assert_eq!(paper_level_max(2).unwrap(), 1);
        assert_eq!(paper_level_max(3).unwrap(), 1);
        assert_eq!(paper_level_max(4).unwrap(), 3);
        assert_eq!(
            order_ratios(&[2.0, 4.0, 2.0]),
            [Estimate::exact(2.0), Estimate::exact(0.5)]
        );
    }

    /// Every claim the experiment feeds gets evidence of its kind, and the paper's arithmetic
    /// comes out as the paper's numbers say.
    #[test]
    fn counts_feed_their_claims_and_the_papers_arithmetic_is_what_it_is() {
        let out = Counts.run(&Context::new(Profile::Quick)).unwrap();
        let judged = crate::study::judge_experiment(paper::COUNTS, &out.evidence).unwrap();
        assert_eq!(
            crate::study::experiments::assert_defects(&out.evidence),
            [
                "x-is-not-the-pes",
                "bielecki-2k2",
                paper::TABLE1_AVERAGE_ABOVE_BINARY
            ]
        );
        assert_eq!(judged.len(), claims::of_experiment(paper::COUNTS).len());
        let verdict = |id: &str| {
            let e = &out
                .evidence
                .iter()
                .find(|f| f.claim == id)
                .unwrap()
                .evidence;
            judge(claims::find(id).unwrap(), e)
        };
        for (id, v) in [
            ("crsa-table1-crt", Verdict::Consistent),
            ("crsa-table1-montgomery", Verdict::Consistent),
            ("crsa-table1-binary", Verdict::Consistent),
            ("crsa-table1-crsa", Verdict::Consistent),
            ("crsa-table1-bielecki", Verdict::Inconsistent),
            ("crsa-s4-eta-misprint", Verdict::Consistent),
            ("crsa-table1-average-formula", Verdict::Inconsistent),
            ("crsa-table1-vs-montgomery", Verdict::Inconsistent),
            ("crsa-s4-x-pes", Verdict::Inconsistent),
            ("crsa-s4-x-algebra", Verdict::Consistent),
            ("crsa-s4-cube-sums", Verdict::Consistent),
            ("crsa-s4-hypercube-mulmods", Verdict::Holds),
            ("crsa-s4-hypercube-time", Verdict::Inconclusive),
            ("crsa-s4-x", Verdict::Inconclusive),
            ("crsa-s4-binary-counts", Verdict::Holds),
            ("crsa-s3-efficiency", Verdict::Holds),
            ("crsa-table1-worst", Verdict::Holds),
            ("crsa-table1-vs-crt", Verdict::DoesNotHold),
        ] {
            assert_eq!(verdict(id), v, "{id}");
        }
    }
}
