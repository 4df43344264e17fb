//! Secret-flow annotations for Valgrind memcheck, BoringSSL's way (`CONSTTIME_SECRET` is
//! `VALGRIND_MAKE_MEM_UNDEFINED`, `CONSTTIME_DECLASSIFY` is `VALGRIND_MAKE_MEM_DEFINED`).
//!
//! Memcheck tracks, bit by bit, whether memory and registers are "defined". Memory marked
//! undefined by [`classify`] stays undefined through every value computed from it, and memcheck
//! reports each conditional jump or move (`cmov`) whose condition depends on it ("Conditional
//! jump or move depends on uninitialised value(s)") and each address computed from it ("Use of
//! uninitialised value of size 8"): exactly the secret-dependent branches and memory indexes a
//! constant-time path must not have. A value that is public by design (an accept/reject
//! decision, a plaintext's length after the padding check) is marked defined again by
//! [`declassify`] where it becomes public. `examples/secret_flow.rs` runs the private-key path
//! under memcheck with the key marked secret; `scripts/secret-flow.sh` is its CI step.
//!
//! The requests are Valgrind's documented client-request sequence (valgrind.h: four `rol`s of
//! `rdi` that leave it unchanged, then `xchg rbx, rbx`), issued by inline assembly on x86-64
//! and nothing elsewhere. They are always compiled, not behind a feature: outside Valgrind the
//! sequence is a handful of register instructions (a few cycles, against a few million for one
//! decryption), and the binary memcheck checks is then the binary users run, with no second
//! build of the crate in CI. Requests change only Valgrind's shadow state, never a value.
//!
//! What it cannot see: instructions whose latency depends on their operands (a division, a
//! multiplication on some cores) are not branches or addresses, so memcheck lets them pass.
use std::sync::atomic::{AtomicBool, Ordering};

/// Core request: are we running on Valgrind (valgrind.h).
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// Core request: errors reported so far (valgrind.h).
const COUNT_ERRORS: usize = 0x1201;
/// Memcheck's requests start at `VG_USERREQ_TOOL_BASE('M', 'C')` (memcheck.h).
const MEMCHECK_BASE: usize = ((b'M' as usize) << 24) | ((b'C' as usize) << 16);
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`.
const MAKE_MEM_UNDEFINED: usize = MEMCHECK_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`.
const MAKE_MEM_DEFINED: usize = MEMCHECK_BASE + 2;
/// `VG_USERREQ__GET_VBITS`.
const GET_VBITS: usize = MEMCHECK_BASE + 8;
/// `VG_USERREQ__SET_VBITS`.
const SET_VBITS: usize = MEMCHECK_BASE + 9;

/// One client request: Valgrind's answer, or `default` when not running on Valgrind.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn request(default: usize, args: [usize; 6]) -> usize {
    let args = std::hint::black_box(args);
    let result: usize;
    // SAFETY: the four rotations of rdi add up to 128 bits, so rdi leaves unchanged (it is
    // still declared clobbered), and `xchg rbx, rbx` changes nothing; outside Valgrind the
    // block is that and nothing more. Under Valgrind, rax points to the six words of `args`,
    // which live until the block ends, and rdx receives the answer. No stack is used; the
    // flags are changed by the rotations. Valgrind may change shadow state of the memory the
    // request names (never its contents), hence the default memory clobber.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") default => result,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
    result
}

/// Elsewhere there is no request: every answer is the default.
#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _args: [usize; 6]) -> usize {
    default
}

/// One marking request. No branch on `len`: it may itself be derived from a secret (a GMP
/// integer's limb count), and the mark must not be a finding of its own.
fn mark(what: usize, ptr: *const u8, len: usize) {
    request(0, [what, ptr as usize, len, 0, 0, 0]);
}

/// Whether this process runs under Valgrind (false elsewhere than x86-64).
pub fn running_on_valgrind() -> bool {
    request(0, [RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0
}

/// The errors Valgrind has reported so far in this process (0 outside Valgrind): a harness
/// reads it before and after a phase to tell which phase a finding belongs to.
pub fn error_count() -> usize {
    request(0, [COUNT_ERRORS, 0, 0, 0, 0, 0])
}

/// Marks `bytes` secret: memcheck reports any branch or address that depends on them, or on
/// anything computed from them. Their values do not change. A caller that holds a copy of
/// them in a register from before the call keeps a public copy: mark memory before it is read.
pub fn classify(bytes: &[u8]) {
    mark(MAKE_MEM_UNDEFINED, bytes.as_ptr(), bytes.len());
}

/// Marks `bytes` public again (after a value became public by design).
pub fn declassify(bytes: &[u8]) {
    mark(MAKE_MEM_DEFINED, bytes.as_ptr(), bytes.len());
}

/// [`classify`] on limbs.
pub fn classify_limbs(limbs: &[u64]) {
    mark(
        MAKE_MEM_UNDEFINED,
        limbs.as_ptr().cast(),
        size_of_val(limbs),
    );
}

/// [`declassify`] on limbs.
pub fn declassify_limbs(limbs: &[u64]) {
    mark(MAKE_MEM_DEFINED, limbs.as_ptr().cast(), size_of_val(limbs));
}

/// A GMP integer's limb buffer, all of its allocated limbs: read from the `mpz_t` without a
/// branch (`as_limbs` takes the absolute value of the size, a conditional move).
fn allocation(x: &rug::Integer) -> (*const u8, usize) {
    // SAFETY: `as_raw` points to the integer's live `mpz_t`; reading its fields by value
    // copies two integers and a pointer.
    let raw = unsafe { *x.as_raw() };
    (
        raw.d.as_ptr().cast_const().cast(),
        raw.alloc as usize * size_of::<u64>(),
    )
}

/// [`classify_limbs`] on a GMP integer's allocated limbs. Its header (size, that is its limb
/// count, and sign) stays public, as BoringSSL's `bn_secret` leaves a BIGNUM's width public.
pub fn classify_integer(x: &rug::Integer) {
    let (ptr, len) = allocation(x);
    mark(MAKE_MEM_UNDEFINED, ptr, len);
}

/// Marks a GMP integer public: its header (GMP derives the limb count from the value, so a
/// secret's may be secret) and then its allocated limbs.
pub fn declassify_integer(x: &rug::Integer) {
    mark(
        MAKE_MEM_DEFINED,
        x.as_raw().cast(),
        size_of::<gmp_mpfr_sys::gmp::mpz_t>(),
    );
    let (ptr, len) = allocation(x);
    mark(MAKE_MEM_DEFINED, ptr, len);
}

/// `value`, marked public: for a scalar that is public by design once computed (an
/// accept/reject decision, a length). The value is unchanged.
pub fn declassify_value<T: Copy>(value: T) -> T {
    let mut copy = value;
    let ptr: *mut T = &mut copy;
    mark(MAKE_MEM_DEFINED, ptr.cast_const().cast(), size_of::<T>());
    // SAFETY: `ptr` points to `copy`, a live, initialized T; the volatile read makes the
    // compiler read it from memory after the request (not a register copy from before).
    unsafe { std::ptr::read_volatile(ptr) }
}

/// How many bits of `bytes` memcheck holds secret (undefined), or `None` outside Valgrind: a
/// harness checks with it that a secret really reached a result (that the check is not
/// looking at public data). Reports nothing itself.
pub fn secret_bits(bytes: &[u8]) -> Option<u32> {
    if !running_on_valgrind() {
        return None;
    }
    let mut vbits = vec![0u8; bytes.len()];
    let answer = request(
        0,
        [
            GET_VBITS,
            bytes.as_ptr() as usize,
            vbits.as_mut_ptr() as usize,
            bytes.len(),
            0,
            0,
        ],
    );
    // SAFETY: Valgrind wrote the V bits into `vbits` (memory we own, the request's only
    // write); the volatile reads make the compiler read them after the request.
    let ones = (0..vbits.len())
        .map(|i| unsafe { std::ptr::read_volatile(vbits.as_ptr().add(i)) }.count_ones())
        .sum();
    (answer == 1).then_some(ones)
}

/// [`secret_bits`] on limbs.
pub fn secret_bits_limbs(limbs: &[u64]) -> Option<u32> {
    // SAFETY: a u64 slice viewed as its bytes (same memory, alignment 1 suffices).
    let bytes =
        unsafe { std::slice::from_raw_parts(limbs.as_ptr().cast::<u8>(), size_of_val(limbs)) };
    secret_bits(bytes)
}

/// Marks a big-endian unsigned value secret except its bit length: the zero bits above its
/// top set bit and that bit stay defined, every bit below is undefined (one `SET_VBITS`
/// request). For values whose size is public by design — a DER INTEGER's length is in the
/// file; the kernels run over each prime's bit length — so that the checks that reveal only
/// the size (a DER parser's leading-byte rules, GMP's limb count) are not reported, and any
/// that reads more is.
pub fn classify_keeping_bit_length(bytes: &[u8]) {
    if !running_on_valgrind() {
        return;
    }
    // V bits: 1 = undefined. Computed from the value while it is still public.
    let mut vbits = vec![0xffu8; bytes.len()];
    if let Some(top) = bytes.iter().position(|&b| b != 0) {
        vbits[..top].fill(0);
        let below = 7 - bytes[top].leading_zeros() as u8;
        vbits[top] = ((1u16 << below) - 1) as u8;
    } else {
        vbits.fill(0);
    }
    request(
        0,
        [
            SET_VBITS,
            bytes.as_ptr() as usize,
            vbits.as_ptr() as usize,
            bytes.len(),
            0,
            0,
        ],
    );
}

/// Set by [`assume_adx_under_valgrind`].
static ADX_UNDER_VALGRIND: AtomicBool = AtomicBool::new(false);

/// Lets the MULX/ADX backend run under Valgrind, for the secret-flow harness only: Valgrind
/// 3.19's synthetic CPUID hides ADX from `is_x86_feature_detected!`, yet it translates and
/// runs `adcx` and `adox` like any other instruction (whatever the host has; the harness
/// checks the backend's results). No effect outside Valgrind.
pub fn assume_adx_under_valgrind() {
    ADX_UNDER_VALGRIND.store(true, Ordering::Relaxed);
}

/// Whether [`assume_adx_under_valgrind`] was asked and we run under Valgrind.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn adx_assumed() -> bool {
    ADX_UNDER_VALGRIND.load(Ordering::Relaxed) && running_on_valgrind()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_harmless_outside_valgrind() {
        // The test runner is not under Valgrind (CI runs the harness there, not the tests).
        if running_on_valgrind() {
            return;
        }
        assert_eq!(error_count(), 0);
        let mut buf = [1u8, 2, 3, 4];
        classify(&buf);
        classify_keeping_bit_length(&buf);
        buf[0] ^= 1;
        declassify(&buf);
        assert_eq!(buf, [0, 2, 3, 4]);
        let limbs = [5u64, 6];
        classify_limbs(&limbs);
        declassify_limbs(&limbs);
        assert_eq!(limbs, [5, 6]);
        assert_eq!(declassify_value(0xfeu8), 0xfe);
        assert_eq!(declassify_value(12345usize), 12345);
        assert!(!adx_assumed());
        assert_eq!(secret_bits(&buf), None);
        assert_eq!(secret_bits_limbs(&limbs), None);
    }
}
