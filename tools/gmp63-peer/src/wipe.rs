//! `wipe`: GMP's frees zeroed first, as parcrypt's `bignum::wipe` makes the system GMP's in the
//! `parcrypt` process, so that both GMPs pay the same for a free (a `memset` of the block)
//! and a time difference is the GMPs', not the allocators'.
use gmp_mpfr_sys::gmp;
use std::ffi::c_void;
use std::sync::OnceLock;

type Alloc = extern "C" fn(usize) -> *mut c_void;
type Free = unsafe extern "C" fn(*mut c_void, usize);

/// GMP's own allocation and free, recorded before the wrappers are installed.
static PREVIOUS: OnceLock<(Alloc, Free)> = OnceLock::new();

fn previous() -> (Alloc, Free) {
    // Set before GMP can call any wrapper: no other way here (and no unwinding across C).
    *PREVIOUS.get().unwrap_or_else(|| std::process::abort())
}

extern "C" fn alloc(size: usize) -> *mut c_void {
    (previous().0)(size)
}

unsafe extern "C" fn realloc(ptr: *mut c_void, old: usize, new: usize) -> *mut c_void {
    let fresh = alloc(new);
    // SAFETY: GMP hands a live block of `old` bytes from these functions; `fresh` has `new`.
    unsafe {
        std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), fresh.cast::<u8>(), old.min(new));
        free(ptr, old);
    }
    fresh
}

unsafe extern "C" fn free(ptr: *mut c_void, size: usize) {
    // SAFETY: GMP hands a live block of `size` bytes; zeroed, then given back to GMP's free
    // (an opaque call that takes the pointer, so the stores are kept).
    unsafe {
        std::ptr::write_bytes(ptr.cast::<u8>(), 0, size);
        (previous().1)(std::hint::black_box(ptr), size);
    }
}

/// Installs the wiping functions (once; later calls do nothing).
pub fn install() {
    if PREVIOUS.get().is_some() {
        return;
    }
    let (mut a, mut f) = (None, None);
    // SAFETY: GMP writes its current functions through the pointers (null: not wanted).
    unsafe { gmp::get_memory_functions(&mut a, std::ptr::null_mut(), &mut f) };
    let (Some(a), Some(f)) = (a, f) else { return };
    let _ = PREVIOUS.set((a, f));
    // SAFETY: the three functions keep GMP's contract (same sizes); every block, allocated
    // before or after, goes back to the free of GMP's own allocator, as parcrypt's does.
    unsafe { gmp::set_memory_functions(Some(alloc), Some(realloc), Some(free)) };
}
