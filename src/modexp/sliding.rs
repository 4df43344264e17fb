//! `sliding`: left-to-right sliding-window exponentiation with odd powers only.
//!
//! Windows of at most w bits that start and end with a 1; zeros between windows cost one
//! squaring each. Table: base, base^3, ..., base^(2^w - 1) (2^(w-1) - 1 multiplications after
//! base^2). Variable-time.
use super::digits::{default_sliding_window, window_or};
use super::{Counter, ModExp, Outcome, Params};
use crate::error::Result;
use rug::Integer;

/// Sliding-window exponentiation.
pub struct Sliding;

impl ModExp for Sliding {
    fn name(&self) -> &'static str {
        "sliding"
    }

    fn describe(&self) -> &'static str {
        "sliding window over odd powers, left to right (--window w)"
    }

    fn pow_mod_normalized(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let bits = exp.significant_bits();
        let w = window_or(params.window, bits, default_sliding_window)?;
        let mut c = Counter::new("thread 0", modulus);
        if bits == 0 {
            return Ok(Outcome {
                value: Integer::from(1),
                counts: vec![c.count],
            });
        }
        // odd[j] = base^(2j + 1)
        let half = 1usize << (w - 1);
        let mut odd = Vec::with_capacity(half);
        odd.push(base.clone());
        if half > 1 {
            let mut b2 = base.clone();
            c.square(&mut b2);
            for j in 1..half {
                let next = c.product(&odd[j - 1], &b2);
                odd.push(next);
            }
        }
        let mut x: Option<Integer> = None;
        let mut i = i64::from(bits) - 1;
        while i >= 0 {
            if !exp.get_bit(i as u32) {
                if let Some(x) = x.as_mut() {
                    c.square(x);
                }
                i -= 1;
                continue;
            }
            // The longest window [l, i] of at most w bits ending in a 1.
            let mut l = (i - i64::from(w) + 1).max(0);
            while !exp.get_bit(l as u32) {
                l += 1;
            }
            let value = (l..=i).rev().fold(0usize, |acc, b| {
                (acc << 1) | usize::from(exp.get_bit(b as u32))
            });
            match x.as_mut() {
                Some(x) => {
                    for _ in l..=i {
                        c.square(x);
                    }
                    c.mul(x, &odd[value >> 1]);
                }
                None => x = Some(odd[value >> 1].clone()),
            }
            i = l - 1;
        }
        Ok(Outcome {
            value: x.unwrap_or_else(|| Integer::from(1)),
            counts: vec![c.count],
        })
    }
}
