//! **Hazardous materials**: the building blocks under the safe API, for study, benchmarks and
//! callers who know what each one does not do for them.
//!
//! The safe face is the crate root ([`RsaPrivateKey`](crate::RsaPrivateKey),
//! [`RsaPublicKey`](crate::RsaPublicKey), OAEP), [`crate::rsa`] (keys, OAEP, PEM, hashes), and
//! the parallel exponentiation, products and ciphers ([`crate::modexp`], [`crate::mul`],
//! [`crate::cipher`]). Everything here is a part of those that is unsafe on its own: textbook
//! RSA has no padding; the private-key primitives and kernels take whatever they are given;
//! the secrets' checks, encodings and primes are steps of loading and making keys; the big-
//! integer helpers include variable-time arithmetic. Each module says which of its functions
//! are variable-time.
//!
//! The modules are the crate's own (`src/rsa/…`, `src/bignum/…`), re-exported here and
//! nowhere else, so that a path through `hazmat` is the only way to reach them.

/// Textbook RSA, unpadded: **study only** (PaRSA's batches time it).
pub mod textbook {
    pub use crate::rsa::textbook::*;
}

/// The RSA primitives under OAEP: RSAEP and the blinded private-key operation in the five
/// forms of `PrivateOp`.
pub mod primitive {
    pub use crate::rsa::primitive::*;
}

/// SeRSA and PaRSA: textbook RSA over a batch of messages, sequential or on a schedule of
/// threads.
pub mod batch {
    pub use crate::rsa::batch::*;
}

/// The kernel of the constant-time private-key operation (IFMA, MULX/ADX, portable, GMP's
/// `mpn_sec_*`), chosen by measurement.
pub mod kernel {
    pub use crate::rsa::kernel::*;
}

/// The constant-time CRT engine: reduction, exponentiation, recombination, fault check,
/// blinding.
pub mod crt {
    pub use crate::rsa::crt::*;
}

/// Multi-buffer RSA: eight private-key operations in the lanes of AVX-512 IFMA registers.
pub mod multibuffer {
    pub use crate::rsa::multibuffer::*;
}

/// Multi-prime RSA's CRT (three to five primes); its variable-time form.
pub mod multiprime {
    pub use crate::rsa::multiprime::*;
}

/// A private key's secret values as fixed-width limbs, checked and completed in constant time.
pub mod secrets {
    pub use crate::rsa::secrets::*;
}

/// PEM armor as OpenSSL reads and writes it.
pub mod armor {
    pub use crate::rsa::armor::*;
}

/// Writing RSA keys as OpenSSL writes them (PKCS#8, PKCS#1, SPKI; DER).
pub mod encode {
    pub use crate::rsa::encode::*;
}

/// Probable primes (variable time: key generation).
pub mod prime {
    pub use crate::rsa::prime::*;
}

/// The sizes parcrypt generates and accepts for RSA keys.
pub mod limits {
    pub use crate::rsa::limits::*;
}

/// Big integers: GMP helpers, Montgomery arithmetic, secret integers, the constant-time
/// kernels (`ct`), the wiping allocator (`wipe`).
pub mod bignum {
    pub use crate::bignum::*;
}
