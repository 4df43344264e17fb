//! `mary-ondemand` (m-ary/Karatsuba, "m-ary on demand"): Nt threads start at once on their comb parts
//! (see [`super::comb`]); a table entry base^d is computed by the first thread that needs it,
//! under a lock of that entry only (a `OnceLock` per entry: others needing the same entry wait
//! for it, others proceed), and counted in that thread's MulMods. An entry is one MulMod from
//! a smaller one — base^d = (base^(d/2))² for even d, base^(d−1)·base for odd d — fetched (or
//! computed) the same way, so every entry costs at most one MulMod, as in a full table, and
//! only entries some digit needs (with their chains) are ever computed, which lets large
//! windows pay. Dependencies strictly decrease, so waiting on an entry cannot deadlock.
//! Variable-time.
use super::comb::{comb_part, combine};
use super::digits::{default_mary_window, digits, window_or};
use super::{Counter, ModExp, Outcome, Params, Ring};
use crate::error::Result;
use crate::parallel::pool::team;
use rug::Integer;
use std::sync::OnceLock;

/// Parallel m-ary with a lazily filled table.
pub struct MaryOnDemand;

impl ModExp for MaryOnDemand {
    fn name(&self) -> &'static str {
        "mary-ondemand"
    }

    fn describe(&self) -> &'static str {
        "m-ary/Karatsuba: Nt threads start at once; table entries computed on first use, per-entry lock"
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
        let ring = Ring::new(modulus, params.kernel);
        let table: Vec<OnceLock<Integer>> = (0..1usize << r).map(|_| OnceLock::new()).collect();
        let _ = table[1].set(ring.enter(base));
        let nt = params.threads.clamp(1, ds.len().max(1));
        let table = &table;
        let parts = team(nt, params.pin, |t| {
            let mut c = ring.counter(format!("thread {t}"));
            let part = comb_part(&ds, r, t, nt, &mut c, |d, c| entry(table, d as usize, c));
            (part, c.count)
        });
        let (parts, mut counts): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
        let (value, combine_count) = combine(parts, &ring);
        counts.push(combine_count);
        Ok(Outcome {
            value: ring.leave(&value),
            counts,
        })
    }
}

/// base^d from the table, computing it (and what it depends on) on first use.
fn entry<'a>(table: &'a [OnceLock<Integer>], d: usize, c: &mut Counter<'_>) -> &'a Integer {
    if let Some(v) = table[d].get() {
        return v;
    }
    table[d].get_or_init(|| {
        if d % 2 == 0 {
            let mut x = entry(table, d / 2, c).clone();
            c.square(&mut x);
            x
        } else {
            let below = entry(table, d - 1, c);
            let base = table[1]
                .get()
                .expect("entry 1 is the base, set before the threads start");
            c.product(below, base)
        }
    })
}
