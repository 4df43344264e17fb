//! The exponentiation schedules every backend runs on its [`Engine`]: the fixed window for a
//! secret exponent (the same products and table reads whatever its value) and
//! square-and-multiply for a short public one (the RSA public exponent of the fault check and
//! the blinding), which may branch on its bits since they are public.
use super::Engine;
use zeroize::Zeroizing;

/// The exponent of one exponentiation call.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Exp<'a> {
    /// Secret exponents, one per lane (64-bit limbs), read by the fixed window over this many
    /// bits (public).
    Secret(&'a [&'a [u64]], usize),
    /// A public exponent, the same for every lane, read bit by bit.
    Public(u64),
}

/// `out` = base^exp in Montgomery form, lane by lane, for `base` and `one` (R mod m) in
/// Montgomery form: [`exp_window`] or [`exp_public`] as `exp` says.
pub(crate) fn run_exp<E: Engine>(engine: &E, out: &mut [u64], base: &[u64], one: &[u64], exp: Exp) {
    match exp {
        Exp::Secret(exps, ebits) => exp_window(engine, out, base, one, exps, ebits),
        Exp::Public(e) => exp_public(engine, out, base, one, e),
    }
}

/// Square-and-multiply from the top bit of the public `e` (`one` for e = 0): bits(e) − 1
/// squarings and one product per further set bit — 17 products for e = 65537. The branch is
/// on e's bits, which are public; the values are never looked at.
pub(crate) fn exp_public<E: Engine>(
    engine: &E,
    out: &mut [u64],
    base: &[u64],
    one: &[u64],
    e: u64,
) {
    let size = E::LANES * engine.words();
    assert!(
        out.len() == size && base.len() == size && one.len() == size,
        "exp_public shapes"
    );
    if e == 0 {
        out.copy_from_slice(one);
        return;
    }
    let mut acc = Zeroizing::new(base.to_vec());
    let mut tmp = Zeroizing::new(vec![0u64; size]);
    for bit in (0..63 - e.leading_zeros()).rev() {
        engine.sqr(&mut tmp, &acc);
        std::mem::swap(&mut acc, &mut tmp);
        if (e >> bit) & 1 == 1 {
            engine.mul(&mut tmp, &acc, base);
            std::mem::swap(&mut acc, &mut tmp);
        }
    }
    out.copy_from_slice(&acc);
}

/// The window width for an exponent of `ebits` bits (the table has 2^w entries).
pub(crate) fn window_bits(ebits: usize) -> usize {
    match ebits {
        0..=64 => 3,
        65..=512 => 4,
        _ => 5,
    }
}

/// Bits `pos .. pos + w` of the limbs `e` (bits beyond `e` read as zero). `pos` and `w` are
/// public; the limbs read depend only on them.
pub(crate) fn window_at(e: &[u64], pos: usize, w: usize) -> u64 {
    let (i, s) = (pos / 64, pos % 64);
    let lo = e.get(i).copied().unwrap_or(0) >> s;
    let hi = if s + w > 64 {
        e.get(i + 1).copied().unwrap_or(0) << (64 - s)
    } else {
        0
    };
    (lo | hi) & ((1 << w) - 1)
}

/// Fixed-window exponentiation on an engine: `out` = base^e in Montgomery form, lane by lane,
/// for `base` and `one` (R mod m) in Montgomery form and the exponents `exps` (one per lane,
/// 64-bit limbs) read over `ebits` bits.
pub(crate) fn exp_window<E: Engine>(
    engine: &E,
    out: &mut [u64],
    base: &[u64],
    one: &[u64],
    exps: &[&[u64]],
    ebits: usize,
) {
    let (lanes, w) = (E::LANES, engine.words());
    let size = lanes * w;
    assert!(
        out.len() == size && base.len() == size && one.len() == size && exps.len() == lanes,
        "exp_window shapes"
    );
    let win = window_bits(ebits);
    let entries = 1usize << win;
    // table[k] = base^k, every lane side by side: entry k holds lanes * w words.
    let mut table = Zeroizing::new(vec![0u64; entries * size]);
    table[..size].copy_from_slice(one);
    table[size..2 * size].copy_from_slice(base);
    for k in 2..entries {
        let (done, rest) = table.split_at_mut(k * size);
        let r = &mut rest[..size];
        if k % 2 == 0 {
            engine.sqr(r, &done[(k / 2) * size..(k / 2 + 1) * size]);
        } else {
            engine.mul(r, &done[(k - 1) * size..k * size], &done[size..2 * size]);
        }
    }
    // Each lane picks its own entry (lane l of entry k: words l*w .. (l+1)*w).
    let pick = |dst: &mut [u64], pos: usize| {
        for (l, e) in exps.iter().enumerate() {
            let idx = window_at(e, pos, win);
            engine.select(&mut dst[l * w..(l + 1) * w], &table, size, l * w, idx);
        }
    };
    let windows = ebits.div_ceil(win).max(1);
    let mut acc = Zeroizing::new(vec![0u64; size]);
    let mut tmp = Zeroizing::new(vec![0u64; size]);
    let mut factor = Zeroizing::new(vec![0u64; size]);
    pick(&mut acc, (windows - 1) * win);
    for i in (0..windows - 1).rev() {
        for _ in 0..win {
            engine.sqr(&mut tmp, &acc);
            std::mem::swap(&mut acc, &mut tmp);
        }
        pick(&mut factor, i * win);
        engine.mul(&mut tmp, &acc, &factor);
        std::mem::swap(&mut acc, &mut tmp);
    }
    out.copy_from_slice(&acc);
}
