//! The MULX/ADX backend: CIOS Montgomery products on 64-bit limbs, compiled for BMI2 and ADX
//! (`mulx` leaves the flags alone, so the product and carry chains interleave) and unrolled at
//! compile time for the limb counts of common moduli; other sizes run the same code with their
//! length known only at run time. Chosen at run time: every entry point is a
//! `#[target_feature]` function reached only after [`available`] said yes.
use super::exp::Exp;
use super::portable::{Mont64, cios};
use super::select::{mask_from_bit, sub_masked};
use super::{Engine, chain_on, pow64};
use zeroize::Zeroize;

/// Whether this CPU has BMI2 and ADX (or ADX is hidden by Valgrind, which runs it:
/// [`super::secret_flow::assume_adx_under_valgrind`]).
pub fn available() -> bool {
    std::is_x86_feature_detected!("bmi2")
        && (std::is_x86_feature_detected!("adx") || super::secret_flow::adx_assumed())
}

/// The backend's state for one modulus: nothing beyond [`Mont64`]'s (the same limbs, k0 and
/// R²), so the context only records that the CPU was checked.
#[derive(Clone, Debug)]
pub struct Ctx {
    _checked: (),
}

impl Ctx {
    /// The context (the caller has checked [`available`]).
    pub fn new(_arith: &Mont64) -> Self {
        debug_assert!(available());
        Ctx { _checked: () }
    }

    /// `out = base^exp mod m` (see [`super::CtModulus::pow_limbs`]).
    pub fn pow(&self, arith: &Mont64, out: &mut [u64], base: &[u64], exp: Exp) {
        macro_rules! sized {
            ($($n:literal)*) => {
                match arith.limbs() {
                    $($n => pow64(&Fixed::<$n>::new(arith), arith, out, base, exp),)*
                    _ => pow64(&Dyn(arith), arith, out, base, exp),
                }
            };
        }
        sized!(8 12 16 24 32 48 64)
    }

    /// `count` squarings (see [`super::CtModulus::square_chain`]).
    pub fn chain(&self, arith: &Mont64, out: &mut [u64], x: &[u64], count: usize) {
        macro_rules! sized {
            ($($n:literal)*) => {
                match arith.limbs() {
                    $($n => chain_on(&Fixed::<$n>::new(arith), arith, out, x, count),)*
                    _ => chain_on(&Dyn(arith), arith, out, x, count),
                }
            };
        }
        sized!(8 12 16 24 32 48 64)
    }
}

/// A modulus of N limbs, with the products unrolled for N. Its copy of the modulus (a secret
/// prime) is wiped on drop.
struct Fixed<const N: usize> {
    m: [u64; N],
    k0: u64,
}

impl<const N: usize> Drop for Fixed<N> {
    fn drop(&mut self) {
        self.m.zeroize();
        self.k0.zeroize();
    }
}

impl<const N: usize> Fixed<N> {
    fn new(arith: &Mont64) -> Self {
        Fixed {
            m: arith.m().try_into().expect("N limbs"),
            k0: arith.k0(),
        }
    }
}

impl<const N: usize> Engine for Fixed<N> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        N
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let r: &mut [u64; N] = r.try_into().expect("N limbs");
        let a: &[u64; N] = a.try_into().expect("N limbs");
        let b: &[u64; N] = b.try_into().expect("N limbs");
        // SAFETY: a `Fixed` is built only for a `Ctx`, which exists only after `available()`
        // found BMI2 and ADX on this CPU.
        unsafe { mul_fixed(r, a, b, &self.m, self.k0) }
    }
    fn sqr(&self, r: &mut [u64], a: &[u64]) {
        let r: &mut [u64; N] = r.try_into().expect("N limbs");
        let a: &[u64; N] = a.try_into().expect("N limbs");
        // SAFETY: as for `mul`.
        unsafe { sqr_fixed(r, a, &self.m, self.k0) }
    }
}

/// One step of a product row, per limb j: `mulx` of the multiplicand limb at `$x + $o` by
/// rdx, its low half added with `adcx` to the high half carried in `$hin` (the carry-flag
/// chain) and stored at `$t + $o$adj`, its high half added with `adox` to the sum word at
/// `$t + $o + 8` into `$hout` (the overflow-flag chain).
macro_rules! row_step {
    ($x:literal, $t:literal, $adj:literal, $o:literal, $hin:literal, $hout:literal) => {
        concat!(
            "mulx ",
            $hout,
            ", {l}, qword ptr [",
            $x,
            " + ",
            stringify!($o),
            "]\n",
            "adcx {l}, ",
            $hin,
            "\n",
            "mov qword ptr [",
            $t,
            " + ",
            stringify!($o),
            $adj,
            "], {l}\n",
            "adox ",
            $hout,
            ", qword ptr [",
            $t,
            " + ",
            stringify!($o),
            " + 8]\n",
        )
    };
}

/// The steps of a row for the byte offsets given ([`row_step`]'s first three arguments
/// fixed), the high-half register alternating between `$h1` and `$h2` (starting in `$h1`).
macro_rules! alternate {
    ($x:literal, $t:literal, $adj:literal, $h1:literal, $h2:literal; ) => { "" };
    ($x:literal, $t:literal, $adj:literal, $h1:literal, $h2:literal; $o1:literal) => {
        row_step!($x, $t, $adj, $o1, $h1, $h2)
    };
    ($x:literal, $t:literal, $adj:literal, $h1:literal, $h2:literal; $o1:literal $o2:literal $($rest:literal)*) => {
        concat!(
            row_step!($x, $t, $adj, $o1, $h1, $h2),
            row_step!($x, $t, $adj, $o2, $h2, $h1),
            alternate!($x, $t, $adj, $h1, $h2; $($rest)*)
        )
    };
}

/// `r = a·b·R⁻¹` (below R, masked final subtraction) for n limbs, the rows unrolled: `$offs`
/// are the byte offsets 16, 24, …, 8(n−1).
///
/// CIOS, one pair of rows per digit b_i of b. The running sum t (n + 2 words) lives in a stack
/// buffer except t_0, kept in a register between rows. Row A adds a·b_i: per limb one `mulx`
/// (rdx = b_i), the low half added with `adcx` (carry-flag chain) and the high half with
/// `adox` into the next word (overflow-flag chain), so the two carry chains run side by side.
/// Row B adds m·y with y = t_0·k0 and moves t down one word in the same pass. No branch and no
/// data-dependent address: the same instructions for every value.
macro_rules! cios_asm {
    ($r:ident, $a:ident, $b:ident, $m:ident, $k0:ident, $n:literal; $($offs:literal)*) => {{
        let mut t = [0u64; $n + 2];
        let mut t0 = 0u64;
        for &bi in $b.iter() {
            // SAFETY: every address is a, m (n limbs) or t (n + 2 words) plus an offset below
            // their lengths; the block writes only t and the declared registers; rdx holds b_i
            // and then y. BMI2 and ADX are enabled on the enclosing function.
            unsafe {
                std::arch::asm!(
                    // Row A: t += a·b_i.
                    "xor {z:e}, {z:e}",
                    "mulx {h}, {l}, qword ptr [{a}]",
                    "adcx {l}, {t0}",
                    "mov {t0}, {l}",
                    "adox {h}, qword ptr [{t} + 8]",
                    alternate!("{a}", "{t}", "", "{h}", "{h2}"; 8 $($offs)*),
                    // The last word's carries: CF into t_n, then OF and CF into t_(n+1).
                    "adcx {h2}, {z}",
                    concat!("mov qword ptr [{t} + 8*", stringify!($n), "], {h2}"),
                    "mov {h2}, {z}",
                    "adox {h2}, {z}",
                    "adcx {h2}, {z}",
                    concat!("mov qword ptr [{t} + 8*", stringify!($n), " + 8], {h2}"),
                    // Row B: t = (t + m·y) / 2^64 with y = t_0·k0.
                    "mov rdx, {t0}",
                    "imul rdx, {k0}",
                    "xor {z:e}, {z:e}",
                    "mulx {h}, {l}, qword ptr [{m}]",
                    "adcx {l}, {t0}",
                    "adox {h}, qword ptr [{t} + 8]",
                    "mulx {h2}, {l}, qword ptr [{m} + 8]",
                    "adcx {l}, {h}",
                    "mov {t0}, {l}",
                    "adox {h2}, qword ptr [{t} + 16]",
                    alternate!("{m}", "{t}", " - 8", "{h2}", "{h}"; $($offs)*),
                    "adcx {h2}, {z}",
                    concat!("mov qword ptr [{t} + 8*", stringify!($n), " - 8], {h2}"),
                    concat!("mov {h2}, qword ptr [{t} + 8*", stringify!($n), " + 8]"),
                    "adox {h2}, {z}",
                    "adcx {h2}, {z}",
                    concat!("mov qword ptr [{t} + 8*", stringify!($n), "], {h2}"),
                    concat!("mov qword ptr [{t} + 8*", stringify!($n), " + 8], {z}"),
                    a = in(reg) $a.as_ptr(),
                    m = in(reg) $m.as_ptr(),
                    t = in(reg) t.as_mut_ptr(),
                    k0 = in(reg) $k0,
                    t0 = inout(reg) t0,
                    l = out(reg) _,
                    h = out(reg) _,
                    h2 = out(reg) _,
                    z = out(reg) _,
                    inout("rdx") bi => _,
                    options(nostack),
                );
            }
        }
        t[0] = t0;
        $r.copy_from_slice(&t[..$n]);
        let top = t[$n];
        t.zeroize();
        sub_masked($r, $m, mask_from_bit(top));
    }};
}

/// One row of the square's cross products: S[i+j] += a_i·a_j for j > i (`$oi` = 8i, `$oj`
/// the offsets 8j), then its carries into S[i+n] and S[i+n+1] (`$nb` = 8n). The high half
/// stays in `{h}` from step to step (a register move, free at rename).
macro_rules! cross_row {
    ($nb:literal, $oi:literal; $first:literal $($oj:literal)*) => {
        concat!(
            "mov rdx, qword ptr [{a} + ", stringify!($oi), "]\n",
            "xor {z:e}, {z:e}\n",
            "mov {h}, qword ptr [{s} + ", stringify!($oi), " + ", stringify!($first), "]\n",
            cross_step!($oi, $first),
            $(cross_step!($oi, $oj),)*
            "adcx {h}, {z}\n",
            "mov qword ptr [{s} + ", stringify!($oi), " + ", stringify!($nb), "], {h}\n",
            "mov {h}, {z}\n",
            "adox {h}, {z}\n",
            "adcx {h}, {z}\n",
            "mov qword ptr [{s} + ", stringify!($oi), " + ", stringify!($nb), " + 8], {h}\n",
        )
    };
}

macro_rules! cross_step {
    ($oi:literal, $oj:literal) => {
        concat!(
            "mulx {h2}, {l}, qword ptr [{a} + ",
            stringify!($oj),
            "]\n",
            "adcx {l}, {h}\n",
            "mov qword ptr [{s} + ",
            stringify!($oi),
            " + ",
            stringify!($oj),
            "], {l}\n",
            "adox {h2}, qword ptr [{s} + ",
            stringify!($oi),
            " + ",
            stringify!($oj),
            " + 8]\n",
            "mov {h}, {h2}\n",
        )
    };
}

/// Every cross-product row: row i multiplies by a_i the limbs after it.
macro_rules! cross_rows {
    ($nb:literal; $oi:literal) => { "" };
    ($nb:literal; $oi:literal $($rest:literal)+) => {
        concat!(cross_row!($nb, $oi; $($rest)+), cross_rows!($nb; $($rest)+))
    };
}

/// S = 2·S + Σ a_i²·2^(128i): the doubling in the overflow-flag chain (`adox w, w`), the
/// squares in the carry-flag chain.
macro_rules! diagonal {
    ($($oi:literal)*) => {
        concat!(
            "xor {z:e}, {z:e}\n",
            $(
                "mov rdx, qword ptr [{a} + ", stringify!($oi), "]\n",
                "mulx {h}, {l}, rdx\n",
                "mov {h2}, qword ptr [{s} + 2*", stringify!($oi), "]\n",
                "adox {h2}, {h2}\n",
                "adcx {h2}, {l}\n",
                "mov qword ptr [{s} + 2*", stringify!($oi), "], {h2}\n",
                "mov {h2}, qword ptr [{s} + 2*", stringify!($oi), " + 8]\n",
                "adox {h2}, {h2}\n",
                "adcx {h2}, {h}\n",
                "mov qword ptr [{s} + 2*", stringify!($oi), " + 8], {h2}\n",
            )*
        )
    };
}

/// `r = a²·R⁻¹` (below R, masked final subtraction) for n limbs: the cross products once,
/// doubled, plus the squares (n(n+1)/2 limb products instead of n²), then a Montgomery
/// reduction of the 2n-limb square. `$oi` = 0, 8, …, 8(n−1); `$offs` = 16, …, 8(n−1).
macro_rules! sqr_asm {
    ($r:ident, $a:ident, $m:ident, $k0:ident, $n:literal, $nb:literal; [$($oi:literal)*] [$($offs:literal)*]) => {{
        let mut s = [0u64; 2 * $n];
        // SAFETY: addresses are a (n limbs) and s (2n words) plus offsets below their
        // lengths; only s and the declared registers are written. BMI2 and ADX are enabled.
        unsafe {
            std::arch::asm!(
                cross_rows!($nb; $($oi)*),
                diagonal!($($oi)*),
                a = in(reg) $a.as_ptr(),
                s = in(reg) s.as_mut_ptr(),
                l = out(reg) _,
                h = out(reg) _,
                h2 = out(reg) _,
                z = out(reg) _,
                out("rdx") _,
                options(nostack),
            );
        }
        // The reduction, one row per i at S + 8i: y = S_i·k0 (S_i in `{t0}`),
        // S += m·y·2^(64i); S_(i+1) stays in `{t0}` for the next row, the row's carry out in
        // `{c}` for the next row's top word.
        let (mut t0, mut c) = (s[0], 0u64);
        for i in 0..$n {
            // SAFETY: the row touches s[i .. i + n] within 2n words (i < n), and m.
            unsafe {
                std::arch::asm!(
                    "mov rdx, {t0}",
                    "imul rdx, {k0}",
                    "xor {z:e}, {z:e}",
                    "mulx {h}, {l}, qword ptr [{m}]",
                    "adcx {l}, {t0}",
                    "adox {h}, qword ptr [{s} + 8]",
                    "mulx {h2}, {l}, qword ptr [{m} + 8]",
                    "adcx {l}, {h}",
                    "mov {t0}, {l}",
                    "adox {h2}, qword ptr [{s} + 16]",
                    alternate!("{m}", "{s}", "", "{h2}", "{h}"; $($offs)*),
                    // The top word S_(i+n) takes the carry-flag carry and the previous row's
                    // carry; the overflow-flag carry (out of the last adox) and this add's
                    // carry make the next row's.
                    "adcx {h2}, {c}",
                    concat!("mov qword ptr [{s} + ", stringify!($nb), "], {h2}"),
                    "mov {c}, {z}",
                    "adcx {c}, {z}",
                    "adox {c}, {z}",
                    m = in(reg) $m.as_ptr(),
                    s = in(reg) s.as_mut_ptr().add(i),
                    k0 = in(reg) $k0,
                    t0 = inout(reg) t0,
                    c = inout(reg) c,
                    l = out(reg) _,
                    h = out(reg) _,
                    h2 = out(reg) _,
                    z = out(reg) _,
                    out("rdx") _,
                    options(nostack),
                );
            }
        }
        $r[0] = t0;
        $r[1..].copy_from_slice(&s[$n + 1..]);
        s.zeroize();
        sub_masked($r, $m, mask_from_bit(c));
    }};
}

#[target_feature(enable = "bmi2,adx")]
fn sqr_fixed<const N: usize>(r: &mut [u64; N], a: &[u64; N], m: &[u64; N], k0: u64) {
    let (r, a, m): (&mut [u64], &[u64], &[u64]) = (r, a, m);
    match N {
        8 => sqr_asm!(r, a, m, k0, 8, 64; [0 8 16 24 32 40 48 56] [16 24 32 40 48 56]),
        16 => {
            sqr_asm!(r, a, m, k0, 16, 128; [0 8 16 24 32 40 48 56 64 72 80 88 96 104 112 120] [16 24 32 40 48 56 64 72 80 88 96 104 112 120])
        }
        32 => {
            sqr_asm!(r, a, m, k0, 32, 256; [0 8 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248] [16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248])
        }
        _ => {
            let top = cios(r, a, a, m, k0);
            sub_masked(r, m, mask_from_bit(top));
        }
    }
}

#[target_feature(enable = "bmi2,adx")]
fn mul_fixed<const N: usize>(r: &mut [u64; N], a: &[u64; N], b: &[u64; N], m: &[u64; N], k0: u64) {
    let (r, a, b, m): (&mut [u64], &[u64], &[u64], &[u64]) = (r, a, b, m);
    match N {
        8 => cios_asm!(r, a, b, m, k0, 8; 16 24 32 40 48 56),
        16 => cios_asm!(r, a, b, m, k0, 16; 16 24 32 40 48 56 64 72 80 88 96 104 112 120),
        24 => {
            cios_asm!(r, a, b, m, k0, 24; 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184)
        }
        32 => {
            cios_asm!(r, a, b, m, k0, 32; 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248)
        }
        48 => {
            cios_asm!(r, a, b, m, k0, 48; 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248 256 264 272 280 288 296 304 312 320 328 336 344 352 360 368 376)
        }
        64 => {
            cios_asm!(r, a, b, m, k0, 64; 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248 256 264 272 280 288 296 304 312 320 328 336 344 352 360 368 376 384 392 400 408 416 424 432 440 448 456 464 472 480 488 496 504)
        }
        _ => {
            let top = cios(r, a, b, m, k0);
            sub_masked(r, m, mask_from_bit(top));
        }
    }
}

/// Any other limb count, the length known at run time.
struct Dyn<'a>(&'a Mont64);

impl Engine for Dyn<'_> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        self.0.limbs()
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let n = self.0.limbs();
        assert!(
            r.len() == n && a.len() == n && b.len() == n,
            "mont mul sizes"
        );
        // SAFETY: as for `Fixed`: only reached through a `Ctx`.
        unsafe { mul_dyn(r, a, b, self.0.m(), self.0.k0()) }
    }
}

#[target_feature(enable = "bmi2,adx")]
fn mul_dyn(r: &mut [u64], a: &[u64], b: &[u64], m: &[u64], k0: u64) {
    let top = cios(r, a, b, m, k0);
    sub_masked(r, m, mask_from_bit(top));
}
