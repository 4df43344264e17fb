//! A process-wide GMP allocator that zeroes every block before freeing it, installed by the
//! library itself before it handles a secret.
//!
//! GMP allocates temporaries inside `mpz_powm`, `mpz_invert` and friends, and frees the old
//! block when an integer grows; with GMP's own allocator their contents (values derived from
//! private keys) stay in freed memory. [`install`] wraps the memory functions GMP has at that
//! moment: allocation is theirs unchanged, and every free (and the old block of every
//! reallocation) is wiped first and then handed to the previous free function.
//!
//! **When it is installed.** Nobody has to call [`install`]: every place the library creates a
//! secret — a [`crate::hazmat::bignum::SecretInteger`], a key being loaded, generated or built from its
//! values — calls it first (a `std::sync::Once`: after the first time, one atomic load). The
//! `parcrypt` command also calls it at start. Calling it early yourself is harmless and covers
//! your own GMP integers from the start.
//!
//! **Why installing late is safe.** GMP's manual asks that the memory functions be set before
//! any allocation that they will later free. Here every block, whenever it was allocated, is
//! still freed (and reallocated) by the function family that allocated it — the wrapper only
//! wipes and delegates — so blocks allocated before installation mix safely with those after,
//! whatever allocator GMP had (its default `malloc`/`free`, or one a program set earlier). GMP
//! keeps the three functions in three global pointers; a thread that reads them while
//! [`install`] writes them may pair an old function with a new one, and every such pair is
//! consistent too (the new ones are the old ones plus a wipe). A program that sets its own
//! GMP memory functions after the library installed these replaces the wiping.
use gmp_mpfr_sys::gmp;
use std::ffi::c_void;
use std::sync::OnceLock;

type Alloc = extern "C" fn(usize) -> *mut c_void;
type Realloc = unsafe extern "C" fn(*mut c_void, usize, usize) -> *mut c_void;
type Free = unsafe extern "C" fn(*mut c_void, usize);

/// The memory functions GMP had when [`install`] ran: the ones every block goes back to.
#[derive(Clone, Copy)]
struct Previous {
    alloc: Alloc,
    free: Free,
}

static PREVIOUS: OnceLock<Previous> = OnceLock::new();

fn previous() -> Previous {
    *PREVIOUS
        .get()
        .expect("the wiping functions run only after install recorded the previous ones")
}

extern "C" fn wipe_alloc(size: usize) -> *mut c_void {
    // GMP's allocation contract, passed through to the function that held it before.
    (previous().alloc)(size)
}

unsafe extern "C" fn wipe_realloc(
    ptr: *mut c_void,
    old_size: usize,
    new_size: usize,
) -> *mut c_void {
    let prev = previous();
    // SAFETY: `ptr` is a live block of `old_size` bytes from the previous functions (GMP's
    // contract: blocks from before installation came from them, blocks after from `wipe_alloc`,
    // which is theirs). We copy the common prefix into a new block, wipe the old block, and
    // free it with the previous free function.
    unsafe {
        let new = (prev.alloc)(new_size);
        if new.is_null() {
            return new;
        }
        std::ptr::copy_nonoverlapping(ptr as *const u8, new as *mut u8, old_size.min(new_size));
        wipe_bytes(ptr, old_size);
        (prev.free)(ptr, old_size);
        new
    }
}

unsafe extern "C" fn wipe_free(ptr: *mut c_void, size: usize) {
    // SAFETY: `ptr` is a live block of `size` bytes from the previous functions (see
    // `wipe_realloc`).
    unsafe {
        wipe_bytes(ptr, size);
        (previous().free)(ptr, size);
    }
}

/// Zeroes `size` bytes at `ptr` at `memset` speed, in a way the optimizer keeps: the empty
/// `asm!` block takes the pointer and may read memory, so the stores before it are not dead
/// (the `memzero_explicit` idiom). Byte-wise volatile writes did the same at about 1 byte a
/// cycle, which cost a 1 Mbit product several times its arithmetic (its FFT frees megabytes).
unsafe fn wipe_bytes(ptr: *mut c_void, size: usize) {
    // SAFETY: the caller guarantees `ptr` is valid for `size` writable bytes; the asm block
    // has no instructions, only a register input.
    unsafe {
        std::ptr::write_bytes(ptr.cast::<u8>(), 0, size);
        #[cfg(target_arch = "x86_64")]
        std::arch::asm!("/* {0} */", in(reg) ptr, options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::hint::black_box(ptr);
}

/// The memory functions GMP uses now.
fn current() -> (Option<Alloc>, Option<Realloc>, Option<Free>) {
    let (mut a, mut r, mut f) = (None, None, None);
    // SAFETY: GMP writes the three current functions through the pointers given.
    unsafe { gmp::get_memory_functions(&mut a, &mut r, &mut f) };
    (a, r, f)
}

/// Whether GMP's memory functions are this module's wiping ones.
pub fn installed() -> bool {
    let (a, r, f) = current();
    a.is_some_and(|a| std::ptr::fn_addr_eq(a, wipe_alloc as Alloc))
        && r.is_some_and(|r| std::ptr::fn_addr_eq(r, wipe_realloc as Realloc))
        && f.is_some_and(|f| std::ptr::fn_addr_eq(f, wipe_free as Free))
}

static INSTALL: std::sync::Once = std::sync::Once::new();

/// Installs the wiping functions for all GMP integers of this process, around the ones GMP
/// has now (see the module docs). Idempotent; after the first call it costs one atomic load.
/// Costs one `memset` per freed block: small next to the arithmetic it follows.
pub fn install() {
    INSTALL.call_once(|| {
        let (alloc, _, free) = current();
        let prev = Previous {
            alloc: alloc.expect("GMP always has an allocation function"),
            free: free.expect("GMP always has a free function"),
        };
        // Recorded before GMP can call the wrappers, which read it.
        let _ = PREVIOUS.set(prev);
        // SAFETY: the three functions honour GMP's custom-allocation contract (same sizes;
        // every block goes back to the functions that allocated it, see the module docs), so
        // blocks from before and after installation mix safely.
        unsafe { gmp::set_memory_functions(Some(wipe_alloc), Some(wipe_realloc), Some(wipe_free)) }
    });
}

#[cfg(test)]
mod tests {
    use rug::Integer;

    #[test]
    fn installed_late_it_frees_earlier_blocks_and_keeps_arithmetic() {
        // An integer allocated before (in this process, maybe) the installation, grown after
        // it (a reallocation of an older block) and freed after it.
        let mut early: Integer = Integer::from(1) << 3000;
        early += 7;
        super::install();
        assert!(super::installed());
        // The previous functions are not the wiping ones (no wrapper around itself).
        let prev = super::previous();
        assert!(!std::ptr::fn_addr_eq(
            prev.free,
            super::wipe_free as super::Free
        ));
        early <<= 20_000;
        early *= &early.clone();
        assert!(early.significant_bits() > 40_000);
        drop(early);
        let after = Integer::from(3)
            .pow_mod(&Integer::from(1000), &Integer::from(1_000_003))
            .unwrap();
        assert_eq!(
            after,
            Integer::from(3)
                .pow_mod(&Integer::from(1000), &Integer::from(1_000_003))
                .unwrap()
        );
        super::install();
        assert!(super::installed(), "installing twice changes nothing");
        // A freed block is zero afterwards: wipe a block by hand and look at it.
        let mut block = vec![0xa5u8; 1000];
        // SAFETY: `block` is valid for its length.
        unsafe { super::wipe_bytes(block.as_mut_ptr().cast(), block.len()) };
        assert!(block.iter().all(|&b| b == 0));
    }

    #[test]
    fn the_library_installs_it_before_a_secret() {
        let _ = crate::bignum::SecretInteger::new(Integer::from(5));
        assert!(super::installed());
    }
}
