//! `mary-ondemand` (seed 003, "m-ary on demand"): Nt threads start at once on their comb parts
//! (see [`super::comb`]); a table entry base^d is computed by the first thread that needs it,
//! under a lock of that entry only (a `OnceLock` per entry: others needing the same entry wait
//! for it, others proceed), and counted in that thread's MulMods. Only entries some digit
//! uses are ever computed, which lets large windows pay. Variable-time.
use super::comb::{comb_part, combine};
use super::digits::{default_mary_window, digits, small_power, window_or};
use super::{Counter, ModExp, Outcome, Params};
use crate::error::Result;
use crate::parallel::team;
use rug::Integer;
use std::sync::OnceLock;

/// Parallel m-ary with a lazily filled table.
pub struct MaryOnDemand;

impl ModExp for MaryOnDemand {
    fn name(&self) -> &'static str {
        "mary-ondemand"
    }

    fn describe(&self) -> &'static str {
        "seed 003: Nt threads start at once; table entries computed on first use, per-entry lock"
    }

    fn is_parallel(&self) -> bool {
        true
    }

    fn pow_mod_normalized(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let r = window_or(params.window, exp.significant_bits(), default_mary_window)?;
        let ds = digits(exp, r);
        let table: Vec<OnceLock<Integer>> = (0..1usize << r).map(|_| OnceLock::new()).collect();
        let _ = table[1].set(base.clone());
        let nt = params.threads.clamp(1, ds.len().max(1));
        let table = &table;
        let parts = team(nt, params.pin, |t| {
            let mut c = Counter::new(format!("thread {t}"), modulus);
            let part = comb_part(&ds, r, t, nt, &mut c, |d, c| {
                table[d as usize].get_or_init(|| small_power(base, u64::from(d), c))
            });
            (part, c.count)
        });
        let (parts, mut counts): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
        let (value, combine_count) = combine(parts, modulus);
        counts.push(combine_count);
        Ok(Outcome { value, counts })
    }
}
