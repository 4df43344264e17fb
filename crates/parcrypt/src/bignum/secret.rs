//! `SecretInteger`: a GMP integer whose limbs are overwritten with zeros when it is dropped.
//!
//! Copies GMP makes while computing (temporaries inside `powm`, old buffers freed on
//! reallocation) are wiped by the allocator of [`crate::hazmat::bignum::wipe`], which creating a
//! `SecretInteger` installs first if it is not yet (library users need not call anything).
use rug::Integer;
use std::fmt;
use std::ops::Deref;
use zeroize::Zeroize;

/// A secret big integer (a private exponent, a prime, a CRT value), wiped on drop.
///
/// It dereferences to `rug::Integer` for arithmetic. `Debug` prints no digits.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretInteger(Integer);

impl SecretInteger {
    /// Wraps an integer as secret (installing the wiping GMP allocator first, if it is not
    /// yet: [`crate::hazmat::bignum::wipe::install`]).
    pub fn new(value: Integer) -> Self {
        crate::bignum::wipe::install();
        Self(value)
    }

    /// The integer, for arithmetic.
    pub fn expose(&self) -> &Integer {
        &self.0
    }
}

impl From<Integer> for SecretInteger {
    fn from(value: Integer) -> Self {
        Self::new(value)
    }
}

impl Deref for SecretInteger {
    type Target = Integer;
    fn deref(&self) -> &Integer {
        &self.0
    }
}

impl fmt::Debug for SecretInteger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretInteger({} bits)", self.0.significant_bits())
    }
}

/// Overwrites every allocated limb of `x` with zeros (volatile writes through `zeroize`).
pub fn wipe_integer(x: &mut Integer) {
    // SAFETY: `as_raw_mut` gives the live mpz_t of `x`. Its `d` points to `alloc` limbs owned
    // by `x` (GMP's documented layout); when `alloc` is 0, `d` is a dummy and we skip it. We
    // only overwrite limb values, then set the size to 0 so the value reads as zero.
    unsafe {
        let raw = x.as_raw_mut();
        let alloc = (*raw).alloc;
        if alloc > 0 {
            let limbs = std::slice::from_raw_parts_mut((*raw).d.as_ptr(), alloc as usize);
            limbs.zeroize();
        }
        (*raw).size = 0;
    }
}

impl Drop for SecretInteger {
    fn drop(&mut self) {
        wipe_integer(&mut self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wipe_sets_value_to_zero_and_keeps_integer_usable() {
        let mut x = Integer::from(1) << 1000;
        x -= 12345;
        wipe_integer(&mut x);
        assert_eq!(x, 0);
        x += 5;
        assert_eq!(x, 5);
    }

    #[test]
    fn debug_does_not_print_digits() {
        let s = SecretInteger::new(Integer::from(123456789));
        let shown = format!("{s:?}");
        assert!(!shown.contains("123456789"), "{shown}");
        assert_eq!(*s.expose(), 123456789);
    }
}
