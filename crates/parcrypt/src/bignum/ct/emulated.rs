//! The IFMA kernels (`ifma`, `ifma-mb`) with a choice of [`Instantiation`]: the AVX-512
//! instructions, or the same kernel source with each 512-bit operation emulated in portable,
//! branch-free Rust (`simd.rs`). The emulated one is for checking, not for use (it is many
//! times slower): Valgrind, which has no AVX-512, runs it in the secret-flow check
//! (`examples/secret_flow.rs`, phases `ifma-emulated` and `ifma-mb-emulated`), and the tests
//! below hold it equal to the vector one and to the portable kernel. Every function is
//! constant time in its bases and exponents in both instantiations, as the kernels are.
use super::Mont64;
use super::exp::Exp;
use super::ifma::{self, Ctx};
use super::ifma_mb::{self, LANES, MbCtx, MbLane};
use super::simd::{Avx512Ifma, Emulated};

/// Which instantiation of the kernel source runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instantiation {
    /// The AVX-512 F and IFMA instructions (where the CPU has them).
    Vector,
    /// Each 512-bit operation emulated on `[u64; 8]` (any x86-64 CPU, and Valgrind).
    Emulated,
}

impl Instantiation {
    /// Whether it runs here (the emulation always does).
    pub fn available(self) -> bool {
        self == Instantiation::Emulated || Avx512Ifma::detect().is_some()
    }
}

/// `base^exp mod m` by the single-modulus IFMA kernel (`exp` as limbs read over `ebits`
/// bits; `base < m` at m's limb count); `None` where the instantiation does not run here or m
/// is out of the kernel's range.
pub fn ifma_pow(
    inst: Instantiation,
    m: &Mont64,
    base: &[u64],
    exp: &[u64],
    ebits: usize,
) -> Option<Vec<u64>> {
    let ctx = context(inst, m)?;
    let mut out = vec![0u64; m.limbs()];
    let exps = [exp];
    let exp = Exp::Secret(&exps, ebits);
    match inst {
        Instantiation::Vector => ctx.pow_in(Avx512Ifma::detect()?, &mut out, base, exp),
        Instantiation::Emulated => ctx.pow_in(Emulated, &mut out, base, exp),
    }
    Some(out)
}

/// The dual form (the two CRT halves of a key, interleaved): `base_i^exp_i mod m_i` for two
/// moduli of the same digit count; `None` as for [`ifma_pow`], or when the digit counts differ.
pub fn ifma_pow_pair(
    inst: Instantiation,
    m: [&Mont64; 2],
    base: [&[u64]; 2],
    exp: [&[u64]; 2],
    ebits: usize,
) -> Option<[Vec<u64>; 2]> {
    let (a, b) = (context(inst, m[0])?, context(inst, m[1])?);
    if !a.same_shape(&b) {
        return None;
    }
    let [mut oa, mut ob] = [vec![0u64; m[0].limbs()], vec![0u64; m[1].limbs()]];
    let outs = [&mut oa[..], &mut ob[..]];
    match inst {
        Instantiation::Vector => {
            ifma::pow2_in(Avx512Ifma::detect()?, [&a, &b], outs, base, exp, ebits)
        }
        Instantiation::Emulated => ifma::pow2_in(Emulated, [&a, &b], outs, base, exp, ebits),
    }
    Some([oa, ob])
}

/// The multi-buffer kernel: `base_j^exp_j mod m_j` in each of the eight lanes, all moduli at
/// the digit count of the largest; `None` where the instantiation does not run here or a
/// modulus is out of range.
pub fn ifma_mb_pow(
    inst: Instantiation,
    m: [&Mont64; LANES],
    base: [&[u64]; LANES],
    exp: [&[u64]; LANES],
    ebits: usize,
) -> Option<Vec<Vec<u64>>> {
    if !inst.available() {
        return None;
    }
    let n = ifma_mb::digits_for(m.iter().map(|x| x.bits()).max()?);
    if n > ifma_mb::MAX_DIGITS {
        return None;
    }
    let lanes: Vec<MbLane> = m.iter().map(|x| MbLane::new(x, n)).collect();
    let ctx = MbCtx::new(std::array::from_fn(|j| &lanes[j]));
    let mut outs: Vec<Vec<u64>> = m.iter().map(|x| vec![0u64; x.limbs()]).collect();
    {
        let mut it = outs.iter_mut();
        let o: [&mut [u64]; LANES] = std::array::from_fn(|_| &mut it.next().expect("8")[..]);
        match inst {
            Instantiation::Vector => ctx.pow_in(Avx512Ifma::detect()?, o, base, exp, ebits),
            Instantiation::Emulated => ctx.pow_in(Emulated, o, base, exp, ebits),
        }
    }
    Some(outs)
}

/// The single-modulus context, where the instantiation runs and m is in range.
fn context(inst: Instantiation, m: &Mont64) -> Option<Ctx> {
    (inst.available() && (2..=super::IFMA_MAX_BITS).contains(&m.bits()))
        .then(|| Ctx::new(m, m.bits()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bignum::ct::{Backend, CtModulus};
    use crate::bignum::mpn;
    use proptest::prelude::*;
    use rug::Integer;

    /// An odd modulus of exactly `bits` bits from a seed.
    fn modulus(bits: u32, seed: u64) -> Integer {
        let mut r = rug::rand::RandState::new();
        r.seed(&Integer::from(seed));
        let mut m = Integer::from(Integer::random_bits(bits, &mut r));
        m.set_bit(bits - 1, true);
        m.set_bit(0, true);
        m
    }

    /// A value below `m` from a seed.
    fn below(m: &Integer, seed: u64) -> Integer {
        let mut r = rug::rand::RandState::new();
        r.seed(&Integer::from(seed));
        Integer::from(m.random_below_ref(&mut r))
    }

    fn limbs(x: &Integer, bits: u32) -> Vec<u64> {
        mpn::padded(x, bits.div_ceil(64) as usize)
    }

    /// The portable kernel's answer (the oracle every kernel is held to).
    fn portable(m: &Integer, base: &Integer, exp: &Integer, ebits: u32) -> Vec<u64> {
        let ct = CtModulus::new(m, Backend::Portable).unwrap();
        let mut out = vec![0u64; ct.limbs()];
        let e = limbs(exp, ebits.max(1));
        ct.pow_limbs(&mut out, &limbs(base, m.significant_bits()), &e, ebits);
        out
    }

    /// Emulated, vector (where the CPU has it) and portable agree, single and dual.
    fn check_single_and_pair(bits: [u32; 2], seed: u64, ebits: u32) {
        let m = [modulus(bits[0], seed), modulus(bits[1], seed + 1)];
        let ar = m
            .each_ref()
            .map(|x| Mont64::new(&limbs(x, x.significant_bits())).unwrap());
        let base = [below(&m[0], seed + 2), below(&m[1], seed + 3)];
        let exp = [
            Integer::from(Integer::u_pow_u(2, ebits)) - (seed % 7 + 1),
            Integer::from(seed % 5),
        ];
        let bl = [0, 1].map(|i| limbs(&base[i], bits[i]));
        let el = [0, 1].map(|i| limbs(&exp[i], ebits));
        let want = [0, 1].map(|i| portable(&m[i], &base[i], &exp[i], ebits));
        for inst in [Instantiation::Emulated, Instantiation::Vector] {
            if !inst.available() {
                eprintln!("emulated: {inst:?} skipped: this CPU lacks avx512f, avx512ifma");
                continue;
            }
            let one = ifma_pow(inst, &ar[0], &bl[0], &el[0], ebits as usize).unwrap();
            assert_eq!(one, want[0], "{inst:?} single, {bits:?} bits");
            let pair = ifma_pow_pair(
                inst,
                [&ar[0], &ar[1]],
                [&bl[0], &bl[1]],
                [&el[0], &el[1]],
                ebits as usize,
            );
            if let Some(pair) = pair {
                assert_eq!(pair, want, "{inst:?} pair, {bits:?} bits");
            }
        }
    }

    /// Emulated, vector and portable agree over eight lanes of different moduli.
    fn check_mb(bits: u32, seed: u64) {
        let m: Vec<Integer> = (0..LANES as u64)
            .map(|j| modulus(bits - (j as u32 % 3), seed + j))
            .collect();
        let ar: Vec<Mont64> = m
            .iter()
            .map(|x| Mont64::new(&limbs(x, x.significant_bits())).unwrap())
            .collect();
        let base: Vec<Vec<u64>> = m
            .iter()
            .enumerate()
            .map(|(j, x)| limbs(&below(x, seed + 100 + j as u64), x.significant_bits()))
            .collect();
        let exp: Vec<Integer> = m.iter().map(|x| Integer::from(x - 2u32)).collect();
        let el: Vec<Vec<u64>> = exp.iter().map(|e| limbs(e, bits)).collect();
        let want: Vec<Vec<u64>> = (0..LANES)
            .map(|j| portable(&m[j], &mpn::to_integer(&base[j]), &exp[j], bits))
            .collect();
        for inst in [Instantiation::Emulated, Instantiation::Vector] {
            if !inst.available() {
                eprintln!("emulated: ifma-mb {inst:?} skipped: this CPU lacks avx512ifma");
                continue;
            }
            let got = ifma_mb_pow(
                inst,
                std::array::from_fn(|j| &ar[j]),
                std::array::from_fn(|j| &base[j][..]),
                std::array::from_fn(|j| &el[j][..]),
                bits as usize,
            )
            .unwrap();
            assert_eq!(got, want, "ifma-mb {inst:?}, {bits} bits");
        }
    }

    #[test]
    fn boundary_sizes_agree() {
        // One and two digits, a vector's edge (8 digits = 414 bits), several vectors.
        for (bits, seed) in [(3, 1), (50, 2), (51, 3), (414, 4), (415, 5), (1024, 6)] {
            check_single_and_pair([bits, bits], seed, bits);
        }
        check_mb(1024, 7);
        check_mb(61, 8);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        #[test]
        fn emulated_vector_and_portable_agree(
            bits in 2u32..1600,
            seed in any::<u64>(),
            short in any::<bool>(),
        ) {
            let ebits = if short { bits.min(17) } else { bits };
            check_single_and_pair([bits, bits.saturating_sub(1).max(2)], seed >> 1, ebits);
        }

        #[test]
        fn the_multi_buffer_kernel_agrees(bits in 64u32..1300, seed in any::<u64>()) {
            check_mb(bits, seed >> 1);
        }
    }
}
