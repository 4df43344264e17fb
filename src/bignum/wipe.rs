//! A process-wide GMP allocator that zeroes every block before freeing it.
//!
//! GMP allocates temporaries inside `mpz_powm`, `mpz_powm_sec` and friends; with the default
//! allocator their contents (values derived from private exponents) stay in freed memory.
//! [`install`] routes GMP's allocations through libc's malloc/free like the default does, but
//! wipes each block on free and on reallocation. Blocks allocated before installation are still
//! freed correctly, since both allocators use libc malloc underneath.
use gmp_mpfr_sys::gmp;
use std::ffi::c_void;
use std::sync::Once;

extern "C" fn wipe_alloc(size: usize) -> *mut c_void {
    // SAFETY: plain libc malloc; GMP aborts itself on a null return, as with its default.
    unsafe { libc_malloc(size) }
}

unsafe extern "C" fn wipe_realloc(
    ptr: *mut c_void,
    old_size: usize,
    new_size: usize,
) -> *mut c_void {
    // SAFETY: `ptr` is a live block of `old_size` bytes from libc malloc (GMP's contract). We
    // copy the common prefix into a new block, wipe the old block, and free it.
    unsafe {
        let new = libc_malloc(new_size);
        if new.is_null() {
            return new;
        }
        std::ptr::copy_nonoverlapping(ptr as *const u8, new as *mut u8, old_size.min(new_size));
        wipe_bytes(ptr, old_size);
        libc_free(ptr);
        new
    }
}

unsafe extern "C" fn wipe_free(ptr: *mut c_void, size: usize) {
    // SAFETY: `ptr` is a live block of `size` bytes from libc malloc (GMP's contract).
    unsafe {
        wipe_bytes(ptr, size);
        libc_free(ptr);
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
        std::arch::asm!("/* {0} */", in(reg) ptr, options(nostack, preserves_flags));
    }
}

unsafe extern "C" {
    #[link_name = "malloc"]
    fn libc_malloc(size: usize) -> *mut c_void;
    #[link_name = "free"]
    fn libc_free(ptr: *mut c_void);
}

static INSTALL: Once = Once::new();

/// Installs the wiping allocator for all GMP integers of this process (idempotent).
///
/// Costs one `memset` per freed block: small next to the arithmetic it follows.
pub fn install() {
    INSTALL.call_once(|| {
        // SAFETY: the three functions honour GMP's custom-allocation contract (same sizes,
        // libc-compatible blocks), so blocks from before and after installation mix safely.
        unsafe { gmp::set_memory_functions(Some(wipe_alloc), Some(wipe_realloc), Some(wipe_free)) }
    });
}

#[cfg(test)]
mod tests {
    use rug::Integer;

    #[test]
    fn arithmetic_is_unchanged_with_the_wiping_allocator() {
        let before = Integer::from(3)
            .pow_mod(&Integer::from(1000), &Integer::from(1_000_003))
            .unwrap();
        super::install();
        let mut big: Integer = Integer::from(1) << 5000;
        big += 1;
        big *= &big.clone();
        // A freed block is zero afterwards: wipe a block by hand and look at it.
        let mut block = vec![0xa5u8; 1000];
        // SAFETY: `block` is valid for its length.
        unsafe { super::wipe_bytes(block.as_mut_ptr().cast(), block.len()) };
        assert!(block.iter().all(|&b| b == 0));
        let after = Integer::from(3)
            .pow_mod(&Integer::from(1000), &Integer::from(1_000_003))
            .unwrap();
        assert_eq!(before, after);
        assert!(big.significant_bits() > 9000);
    }
}
