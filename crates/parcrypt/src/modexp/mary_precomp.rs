//! `mary-precomp` (m-ary/Karatsuba, "m-ary with precomputation"): Np threads first build the table
//! base^2 .. base^(2^r − 1), entries split evenly in contiguous ranges (thread p computes the
//! first power of its range by square-and-multiply, then multiplies by the base); then Nt
//! threads each compute their comb part (see [`super::comb`]) and the parts are multiplied.
//!
//! Units in the counts: "precomp p" for table builders, "thread t" for the scan, "combine".
//! Thread counts above the work available (table entries, digits) are reduced. Variable-time.
use super::comb::{comb_part, combine};
use super::digits::{default_mary_window, digits, small_power, window_or};
use super::{ModExp, Outcome, Params, Ring};
use crate::error::Result;
use crate::parallel::pool::team;
use rug::Integer;

/// Parallel m-ary with a precomputed table.
pub struct MaryPrecomp;

/// Contiguous ranges splitting `lo..hi` into `parts` nearly equal pieces (none empty).
pub fn even_ranges(lo: usize, hi: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let n = hi.saturating_sub(lo);
    let parts = parts.clamp(1, n.max(1));
    (0..parts)
        .map(|p| crate::parallel::schedule::static_block(n, parts, p))
        .map(|r| lo + r.start..lo + r.end)
        .filter(|r| !r.is_empty())
        .collect()
}

impl ModExp for MaryPrecomp {
    fn name(&self) -> &'static str {
        "mary-precomp"
    }

    fn describe(&self) -> &'static str {
        "m-ary/Karatsuba: Np threads build the 2^r table, then Nt threads scan digits j = t mod Nt"
    }

    fn is_parallel(&self) -> bool {
        true
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let r = window_or(params.window, exp.significant_bits(), default_mary_window)?;
        let ds = digits(exp, r);
        let size = 1usize << r;
        let ring = Ring::new(modulus, params.kernel);
        let base = &ring.enter(base);
        // Phase 1: the table, built by Np threads.
        let ranges = even_ranges(2, size, params.precomp_threads.unwrap_or(params.threads));
        let built = team(ranges.len(), params.pin, |p| {
            let mut c = ring.counter(format!("precomp {p}"));
            let range = ranges[p].clone();
            let mut part = Vec::with_capacity(range.len());
            let mut x = small_power(base, range.start as u64, &mut c);
            for _ in range {
                let next = c.product(&x, base);
                part.push(std::mem::replace(&mut x, next));
            }
            (part, c.count)
        });
        let mut table = vec![ring.one(), base.clone()];
        let mut counts = Vec::new();
        for (part, count) in built {
            table.extend(part);
            counts.push(count);
        }
        table.truncate(size);
        // Phase 2: Nt threads scan the exponent's digits comb-wise.
        let nt = params.threads.clamp(1, ds.len().max(1));
        let table = &table;
        let parts = team(nt, params.pin, |t| {
            let mut c = ring.counter(format!("thread {t}"));
            let part = comb_part(&ds, r, t, nt, &mut c, |d, _| &table[d as usize]);
            (part, c.count)
        });
        let (parts, scan_counts): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
        counts.extend(scan_counts);
        let (value, combine_count) = combine(parts, &ring);
        counts.push(combine_count);
        Ok(Outcome {
            value: ring.leave(&value),
            counts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_split_evenly_and_never_empty() {
        assert_eq!(even_ranges(2, 16, 4), vec![2..6, 6..10, 10..13, 13..16]);
        assert_eq!(even_ranges(2, 4, 8), vec![2..3, 3..4]);
        assert!(even_ranges(2, 2, 3).is_empty());
    }
}
