//! Exponent scanning helpers shared by the windowed strategies: r-bit digits, window-size
//! limits and defaults, and power tables.
use super::Counter;
use crate::error::{Error, Result};
use rug::Integer;

/// Largest window or digit size accepted (a table of 2^12 = 4096 entries).
pub const MAX_WINDOW: u32 = 12;

/// The r-bit digits of `e`, least significant first (no digits for e = 0).
pub fn digits(e: &Integer, r: u32) -> Vec<u32> {
    let bits = e.significant_bits();
    (0..bits.div_ceil(r))
        .map(|j| {
            (0..r).fold(0u32, |acc, b| {
                let i = j * r + b;
                acc | (u32::from(i < bits && e.get_bit(i)) << b)
            })
        })
        .collect()
}

/// Checks a requested window size: 1..=[`MAX_WINDOW`].
pub fn check_window(r: u32) -> Result<u32> {
    if r == 0 || r > MAX_WINDOW {
        return Err(Error::InvalidParameter(format!(
            "window size must be in 1..={MAX_WINDOW}, got {r}"
        )));
    }
    Ok(r)
}

/// The m-ary digit size minimising table + multiplications, (2^r - 2) + ceil(k / r), for a
/// k-bit exponent (ties go to the smaller table).
pub fn default_mary_window(k: u32) -> u32 {
    (1..=8u32)
        .min_by_key(|&r| ((1u64 << r) - 2) + u64::from(k.div_ceil(r)))
        .unwrap_or(1)
}

/// The sliding-window width minimising table + multiplications, 2^(w-1) + k / (w + 1).
pub fn default_sliding_window(k: u32) -> u32 {
    (1..=8u32)
        .min_by_key(|&w| (1u64 << (w - 1)) + u64::from(k / (w + 1)))
        .unwrap_or(1)
}

/// The window to use: the requested one (checked) or `default(k)`.
pub fn window_or(requested: Option<u32>, k: u32, default: fn(u32) -> u32) -> Result<u32> {
    match requested {
        Some(r) => check_window(r),
        None => Ok(default(k)),
    }
}

/// base^i for i in 0..2^r (entry 0 is 1, entry 1 the base), built by 2^r - 2 counted
/// multiplications; values in the counter's held form.
pub fn full_table(base: &Integer, r: u32, c: &mut Counter<'_>) -> Vec<Integer> {
    let size = 1usize << r;
    let mut table = Vec::with_capacity(size);
    table.push(c.one());
    table.push(base.clone());
    for i in 2..size {
        let next = c.product(&table[i - 1], base);
        table.push(next);
    }
    table.truncate(size);
    table
}

/// base^i by left-to-right binary exponentiation with counted MulMods (for small i).
pub fn small_power(base: &Integer, i: u64, c: &mut Counter<'_>) -> Integer {
    if i == 0 {
        return c.one();
    }
    let mut x = base.clone();
    for b in (0..63 - i.leading_zeros()).rev() {
        c.square(&mut x);
        if (i >> b) & 1 == 1 {
            c.mul(&mut x, base);
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_least_significant_first() {
        assert_eq!(
            digits(&Integer::from(0b1101_0111u32), 4),
            vec![0b0111, 0b1101]
        );
        assert_eq!(digits(&Integer::from(0b101u32), 2), vec![0b01, 0b1]);
        assert!(digits(&Integer::new(), 3).is_empty());
    }

    #[test]
    fn windows_are_checked_and_defaults_grow_with_size() {
        assert!(check_window(0).is_err());
        assert!(check_window(MAX_WINDOW + 1).is_err());
        assert_eq!(check_window(4).unwrap(), 4);
        assert!(default_mary_window(16) <= default_mary_window(1024));
        assert!(default_mary_window(1024) <= default_mary_window(16384));
        assert_eq!(default_sliding_window(1), 1);
    }

    #[test]
    fn small_powers_and_tables_are_exact() {
        let m = Integer::from(1_000_003);
        let b = Integer::from(777);
        let mut c = Counter::new("t", &m);
        for i in 0..40u64 {
            assert_eq!(
                small_power(&b, i, &mut c),
                b.clone().pow_mod(&Integer::from(i), &m).unwrap()
            );
        }
        let t = full_table(&b, 3, &mut c);
        assert_eq!(t.len(), 8);
        for (i, v) in t.iter().enumerate() {
            assert_eq!(*v, b.clone().pow_mod(&Integer::from(i), &m).unwrap());
        }
    }
}
