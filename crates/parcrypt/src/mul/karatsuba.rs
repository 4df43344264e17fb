//! The Karatsuba split, written once and generic over how its three half products are spread
//! over threads ([`Fork`]); every `kara-*` method is this code with a different `Fork`.
//!
//! With `n = max(limbs(a), limbs(b))` and `h = n / 2` limbs (`s = 64 h` bits),
//! `a = a1·2^s + a0`, `b = b1·2^s + b0`, and
//!
//! ```text
//! z0 = a0·b0,  z2 = a1·b1,  zm = (a1 − a0)·(b1 − b0)
//! a·b = z2·2^(2s) + (z0 + z2 − zm)·2^s + z0
//! ```
//!
//! as in the seed's `karaMul`: GMP multiplies the halves (`depth` = 1), or each half product is
//! split again sequentially, on whichever thread computes it, for `depth` > 1. Only the top
//! level is spread over threads. Signs are handled on the magnitudes (the product's sign is
//! applied at the end); unequal lengths split at the longer operand's half, so a short operand
//! has `b1 = 0` — still exact, only less profitable. Zero, one-limb operands and operands
//! below `threshold_bits` go straight to the leaf product.
//!
//! The leaf product is GMP's `mpz_mul` ([`Leaves::Gmp`], the seed's), or, beyond the seed, the
//! best one-thread product ([`Leaves::Best`]): the NTT from the one-thread threshold timed on
//! this machine ([`par::ntt_from`] on [`par::one_thread_pool`]), timed on the caller before the
//! first split so that no helper times it beside another product. Each leaf runs on one
//! thread, so an NTT leaf inside a fork posts nothing to a pool.
//!
//! The three products are independent; with `helpers` threads besides the caller:
//!
//! | helpers | helper 1 | helper 2 | helper 3 | caller |
//! |---|---|---|---|---|
//! | 0 | | | | z0, z2, zm |
//! | 1 | z0, z2 | | | zm |
//! | 2 | z0 | z2 | | zm (the seed's 3-thread layout) |
//! | 3 | z0 | z2 | zm | waits |
//!
//! The caller always splits, forms `a1 − a0` and `b1 − b0` before handing work out, and
//! composes the result after; with 1 helper the critical path is two half products.
use super::{KaraConfig, Leaves, Multiplier, par};
use rug::integer::Order;
use rug::{Assign, Integer};

/// A GMP limb (64 bits on the machines we target).
type Limb = gmp_mpfr_sys::gmp::limb_t;

/// One product for a helper: the two factors.
pub type Pair = (Integer, Integer);

/// How deep the half products themselves are split (sequentially).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inner {
    /// Karatsuba levels left below this one (0 = the leaf product).
    pub depth: u32,
    /// Operands below this many bits go to the leaf product.
    pub threshold_bits: u32,
    /// What multiplies the leaves.
    pub leaf: Leaf,
}

impl Inner {
    /// `x · y` by sequential Karatsuba to the remaining depth.
    pub fn mul(self, x: &Integer, y: &Integer) -> Integer {
        recurse(x, y, self.depth, self.threshold_bits, self.leaf)
    }
}

/// The leaf product, resolved for this machine ([`Leaf::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// `mpz_mul`.
    Gmp,
    /// The NTT on one thread where the operands have the shape [`par::product`] hands the NTT
    /// from this many limbs on ([`par::by_ntt_from`]), else `mpz_mul`.
    NttFrom(usize),
}

impl Leaf {
    /// The leaf product `leaves` names on this machine: for [`Leaves::Best`], the one-thread
    /// NTT threshold, timed now where this process has not ([`par::ntt_from`] on
    /// [`par::one_thread_pool`]; call it on the caller, before any fork).
    pub fn of(leaves: Leaves) -> Leaf {
        match leaves {
            Leaves::Gmp => Leaf::Gmp,
            Leaves::Best => match par::ntt_from(par::one_thread_pool(), 1) {
                Some(from) => Leaf::NttFrom(from),
                None => Leaf::Gmp,
            },
        }
    }

    /// `x · y` on the calling thread.
    pub fn mul(self, x: &Integer, y: &Integer) -> Integer {
        match self {
            Leaf::NttFrom(from) => par::by_ntt_from(par::one_thread_pool(), 1, from, x, y)
                .unwrap_or_else(|| Integer::from(x * y)),
            Leaf::Gmp => Integer::from(x * y),
        }
    }
}

/// The work handed to one helper thread: one or two half products. Owned, so it can cross to
/// a persistent thread that outlives the call.
#[derive(Debug)]
pub struct Task {
    first: Pair,
    second: Option<Pair>,
    inner: Inner,
}

/// A [`Task`]'s products, in the task's order.
#[derive(Debug)]
pub struct Done {
    first: Integer,
    second: Option<Integer>,
}

impl Task {
    /// Computes the task's products on the current thread.
    pub fn run(self) -> Done {
        let Task {
            first,
            second,
            inner,
        } = self;
        Done {
            first: inner.mul(&first.0, &first.1),
            second: second.map(|(x, y)| inner.mul(&x, &y)),
        }
    }
}

/// How the half products are spread: the one thing that differs between `kara-*` methods.
pub trait Fork: Send + Sync {
    /// Helper threads besides the caller (0 to [`MAX_HELPERS`](super::MAX_HELPERS)).
    fn helpers(&self) -> usize;

    /// How the helpers are started or woken, for [`Multiplier::describe`].
    fn mechanism(&self) -> String;

    /// Runs `tasks[i]` on helper `i` while the caller runs `local`; returns each task's result
    /// in order and `local`'s. `tasks.len() <= self.helpers()`. A fork that cannot hand work
    /// out at the moment (its helpers busy with another caller) runs everything inline.
    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R);
}

/// The serial "fork": every task inline, in order, then `local`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Fork for Serial {
    fn helpers(&self) -> usize {
        0
    }

    fn mechanism(&self) -> String {
        "sequential".into()
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        run_inline(tasks, local)
    }
}

/// Runs `tasks` and then `local` on the calling thread (the fallback of every fork).
pub fn run_inline<R>(tasks: Vec<Task>, local: impl FnOnce() -> R) -> (Vec<Done>, R) {
    let done = tasks.into_iter().map(Task::run).collect();
    (done, local())
}

/// The operands cut at `shift` bits, with the sign of the product.
struct Halves {
    a0: Integer,
    a1: Integer,
    b0: Integer,
    b1: Integer,
    shift: u32,
    negative: bool,
    bits: usize,
}

/// Splits `a` and `b` at half the longer one's limbs, or `None` when GMP should multiply them
/// directly: a zero operand, fewer than two limbs, or fewer than `threshold_bits` bits.
fn split(a: &Integer, b: &Integer, threshold_bits: u32) -> Option<Halves> {
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let n = la.len().max(lb.len());
    let bits = a.significant_bits().max(b.significant_bits());
    if la.is_empty() || lb.is_empty() || n < 2 || bits < threshold_bits {
        return None;
    }
    let h = n / 2;
    let low = |l: &[Limb]| Integer::from_digits(&l[..h.min(l.len())], Order::Lsf);
    let high = |l: &[Limb]| match l.get(h..) {
        Some(rest) => Integer::from_digits(rest, Order::Lsf),
        None => Integer::new(),
    };
    Some(Halves {
        a0: low(la),
        a1: high(la),
        b0: low(lb),
        b1: high(lb),
        shift: u32::try_from(h * Limb::BITS as usize).ok()?,
        negative: (*a < 0) != (*b < 0),
        bits: (a.significant_bits() + b.significant_bits()) as usize,
    })
}

/// `z2·2^(2s) + (z0 + z2 − zm)·2^s + z0`, negated if the product is negative.
fn compose(
    z0: Integer,
    z2: Integer,
    zm: Integer,
    shift: u32,
    bits: usize,
    negative: bool,
) -> Integer {
    let mut mid = Integer::from(&z0 + &z2);
    mid -= &zm;
    // One allocation for the result; the in-place shifts below then never reallocate.
    let mut r = Integer::with_capacity(bits + 2 * Limb::BITS as usize);
    r.assign(&z2 << shift);
    r += &mid;
    r <<= shift;
    r += &z0;
    if negative {
        r = -r;
    }
    r
}

/// `a · b` by sequential Karatsuba: `depth` levels (0 = GMP), GMP below `threshold_bits`.
pub fn sequential(a: &Integer, b: &Integer, depth: u32, threshold_bits: u32) -> Integer {
    sequential_with(a, b, depth, threshold_bits, Leaves::Gmp)
}

/// [`sequential`] with the leaves multiplied by `leaves` (depth 0, or below `threshold_bits`).
pub fn sequential_with(
    a: &Integer,
    b: &Integer,
    depth: u32,
    threshold_bits: u32,
    leaves: Leaves,
) -> Integer {
    recurse(a, b, depth, threshold_bits, Leaf::of(leaves))
}

/// [`sequential_with`] with its leaf product resolved.
fn recurse(a: &Integer, b: &Integer, depth: u32, threshold_bits: u32, leaf: Leaf) -> Integer {
    let Some(halves) = (depth > 0).then(|| split(a, b, threshold_bits)).flatten() else {
        return leaf.mul(a, b);
    };
    let Halves {
        a0,
        a1,
        b0,
        b1,
        shift,
        negative,
        bits,
    } = halves;
    let da = Integer::from(&a1 - &a0);
    let db = Integer::from(&b1 - &b0);
    let z0 = recurse(&a0, &b0, depth - 1, threshold_bits, leaf);
    let z2 = recurse(&a1, &b1, depth - 1, threshold_bits, leaf);
    let zm = recurse(&da, &db, depth - 1, threshold_bits, leaf);
    compose(z0, z2, zm, shift, bits, negative)
}

/// A Karatsuba multiplier whose top level is spread by `F`.
#[derive(Debug)]
pub struct Karatsuba<F> {
    name: &'static str,
    config: KaraConfig,
    fork: F,
    /// The leaf product where it was given ([`Karatsuba::with_leaf`]), not resolved from
    /// `config.leaves`.
    leaf: Option<Leaf>,
}

impl<F: Fork> Karatsuba<F> {
    /// A multiplier called `name` (the registry's method name) with `config`, spreading the
    /// top level's products with `fork`.
    pub fn new(name: &'static str, config: KaraConfig, fork: F) -> Self {
        Self {
            name,
            config,
            fork,
            leaf: None,
        }
    }

    /// The same multiplier with its leaves multiplied by `leaf` whatever `config.leaves` says
    /// and whatever this machine's threshold is: to measure or test the NTT leaves at a
    /// threshold of one's choosing ([`Leaf::NttFrom`]).
    pub fn with_leaf(self, leaf: Leaf) -> Self {
        Self {
            leaf: Some(leaf),
            ..self
        }
    }

    /// The configuration (depth, threshold, helpers, pinning).
    pub fn config(&self) -> &KaraConfig {
        &self.config
    }

    /// The fork, e.g. to inspect a pool.
    pub fn fork_ref(&self) -> &F {
        &self.fork
    }

    fn product(&self, a: &Integer, b: &Integer) -> Integer {
        let cfg = &self.config;
        // Resolved (and, the first time, timed) here on the caller, before any fork.
        let leaf = self.leaf.unwrap_or_else(|| Leaf::of(cfg.leaves));
        let Some(halves) = (cfg.depth > 0)
            .then(|| split(a, b, cfg.threshold_bits))
            .flatten()
        else {
            return leaf.mul(a, b);
        };
        let Halves {
            a0,
            a1,
            b0,
            b1,
            shift,
            negative,
            bits,
        } = halves;
        let inner = Inner {
            depth: cfg.depth - 1,
            threshold_bits: cfg.threshold_bits,
            leaf,
        };
        let zm_pair = (Integer::from(&a1 - &a0), Integer::from(&b1 - &b0));
        let (z0_pair, z2_pair) = ((a0, b0), (a1, b1));
        let one = |first: Pair| Task {
            first,
            second: None,
            inner,
        };
        // The layout of the module docs' table. Results come back in task order, then the
        // caller's, which is always z0, z2, zm.
        let (tasks, local): (Vec<Task>, Vec<Pair>) = match self.fork.helpers() {
            0 => (Vec::new(), vec![z0_pair, z2_pair, zm_pair]),
            1 => (
                vec![Task {
                    first: z0_pair,
                    second: Some(z2_pair),
                    inner,
                }],
                vec![zm_pair],
            ),
            2 => (vec![one(z0_pair), one(z2_pair)], vec![zm_pair]),
            _ => (vec![one(z0_pair), one(z2_pair), one(zm_pair)], Vec::new()),
        };
        let (done, mine) = self.fork.fork(tasks, move || {
            local
                .iter()
                .map(|(x, y)| inner.mul(x, y))
                .collect::<Vec<_>>()
        });
        let mut z = done
            .into_iter()
            .flat_map(|d| std::iter::once(d.first).chain(d.second))
            .chain(mine);
        let (Some(z0), Some(z2), Some(zm)) = (z.next(), z.next(), z.next()) else {
            unreachable!("a fork returns every product it was given");
        };
        compose(z0, z2, zm, shift, bits, negative)
    }
}

impl<F: Fork> Multiplier for Karatsuba<F> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> String {
        let c = &self.config;
        let leaves = match (self.leaf, c.leaves) {
            (Some(Leaf::Gmp), _) | (None, Leaves::Gmp) => "GMP".to_string(),
            (Some(Leaf::NttFrom(f)), _) => {
                format!("the NTT on one thread from {f} limbs (given), else GMP")
            }
            (None, Leaves::Best) => match par::ntt_from_known(1) {
                Some(Some(f)) => format!(
                    "the best one-thread product (the NTT from {f} limbs, timed here, else GMP)"
                ),
                Some(None) => "the best one-thread product (GMP: the NTT never won here)".into(),
                None => "the best one-thread product (the NTT above a threshold timed at the \
                         first product, else GMP)"
                    .into(),
            },
        };
        format!(
            "{}: Karatsuba, {} level(s), {leaves} on the halves and below {} bits; {} helper(s), {}",
            self.name,
            c.depth,
            c.threshold_bits,
            self.fork.helpers(),
            self.fork.mechanism()
        )
    }

    fn threads(&self) -> usize {
        1 + self.fork.helpers()
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        self.product(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(hex: &str) -> Integer {
        Integer::from_str_radix(hex, 16).unwrap()
    }

    #[test]
    fn sequential_matches_gmp_on_signs_zero_and_unequal_lengths() {
        let x = big("123456789abcdef0fedcba9876543210aaaabbbbccccddddeeeeffff0123");
        let y = big("fedcba98765432100123456789abcdef");
        for (a, b) in [
            (x.clone(), y.clone()),
            (Integer::from(-&x), y.clone()),
            (x.clone(), Integer::from(-&y)),
            (Integer::from(-&x), Integer::from(-&y)),
            (x.clone(), Integer::new()),
            (Integer::from(1), x.clone()),
            (Integer::from(u64::MAX), x.clone()),
        ] {
            for depth in 0..4 {
                let want = Integer::from(&a * &b);
                assert_eq!(sequential(&a, &b, depth, 0), want, "{a:x} * {b:x} @{depth}");
                assert_eq!(sequential(&b, &a, depth, 0), want);
            }
        }
    }

    #[test]
    fn split_refuses_what_gmp_should_do() {
        let two_limbs = Integer::from(1) << 64;
        assert!(split(&Integer::new(), &two_limbs, 0).is_none());
        assert!(split(&Integer::from(5), &Integer::from(7), 0).is_none());
        assert!(split(&two_limbs, &two_limbs, 66).is_none());
        let h = split(&two_limbs, &Integer::from(3), 65).unwrap();
        assert_eq!(
            (h.shift, h.a1, h.a0, h.b1, h.b0),
            (64, 1.into(), 0.into(), 0.into(), 3.into())
        );
    }

    #[test]
    fn every_helper_layout_gives_the_product() {
        /// A fork that claims helpers but runs inline: checks the layouts, not the threads.
        struct Claims(usize);
        impl Fork for Claims {
            fn helpers(&self) -> usize {
                self.0
            }
            fn mechanism(&self) -> String {
                "inline".into()
            }
            fn fork<R: Send>(
                &self,
                tasks: Vec<Task>,
                local: impl FnOnce() -> R + Send,
            ) -> (Vec<Done>, R) {
                assert!(tasks.len() <= self.0);
                run_inline(tasks, local)
            }
        }
        let a = (Integer::from(1) << 1000) - 12345;
        let b = Integer::from(-3) << 700;
        for helpers in 0..=3 {
            let cfg = KaraConfig {
                helpers,
                depth: 2,
                ..KaraConfig::default()
            };
            let k = Karatsuba::new("test", cfg, Claims(helpers));
            assert_eq!(k.mul(&a, &b), Integer::from(&a * &b), "{helpers} helpers");
            assert_eq!(k.threads(), helpers + 1);
            assert!(k.describe().contains("inline"));
        }
    }
}
