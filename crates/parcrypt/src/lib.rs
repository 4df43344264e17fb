//! parcrypt — parallel and constant-time cryptography.
//!
//! RSA-OAEP whose private key never meets variable-time code (constant-time key loading,
//! blinding, CRT on AVX-512 IFMA, MULX/ADX or portable Montgomery kernels chosen at run time,
//! a fault check before output); parallel modular exponentiation (m-ary, slicing, CRSA's
//! hypercube) and parallel Karatsuba products; Blowfish, RC4 and RC4A with their parallel
//! forms (PBlock, the Blowfish round pipeline, PARC4, PARC4-I). Every parallel form gives the
//! same bytes as its sequential reference. The measuring, the papers' claims and the
//! `parcrypt` command live in the `parcrypt-lab` crate; this one has no paper data, no
//! plotting and no command line.
//!
//! # Start here
//!
//! A key, OAEP encryption and decryption: `parcrypt` and `rand = "0.8"` are all a program
//! needs (GMP comes from the system: `libgmp-dev` on Debian).
//!
//! ```
//! use parcrypt::RsaPrivateKey;
//! use rand::rngs::OsRng;
//!
//! let key = RsaPrivateKey::new_vartime(&mut OsRng, 2048)?;
//! let ct = key.public().encrypt_oaep(&mut OsRng, b"attack at dawn")?;
//! let msg = key.decrypt_oaep(&ct)?;
//! assert_eq!(&msg[..], b"attack at dawn");
//! # Ok::<(), parcrypt::Error>(())
//! ```
//!
//! The big-integer type of the lower layers is GMP's through `rug`, re-exported as
//! [`rug`] so a caller never names a version of it; [`rand`] is re-exported too.
//!
//! | task | API |
//! |---|---|
//! | make a key, encrypt, decrypt (OAEP, SHA-256) | [`RsaPrivateKey::new_vartime`], [`RsaPublicKey::encrypt_oaep`], [`RsaPrivateKey::decrypt_oaep`] |
//! | read an OpenSSL key (PKCS#8 or PKCS#1, PEM or DER), write one | [`RsaPrivateKey::from_key_file`], [`RsaPublicKey::from_key_file`], [`RsaPrivateKey::to_pem`], [`RsaPublicKey::to_pem`] (more forms: [`rsa::pem`]) |
//! | make a key | [`RsaPrivateKey::generate_vartime`] (variable time, and named so: it runs once) |
//! | RSA-OAEP (SHA-256 by default) | [`rsa::oaep::encrypt`], [`rsa::oaep::decrypt`], [`OaepParams`] |
//! | many textbook decryptions at once (SeRSA, PaRSA; study only) | [`hazmat::batch`] |
//! | eight private-key operations in the lanes of AVX-512 IFMA registers (multi-buffer) | [`hazmat::multibuffer`] |
//! | modular exponentiation, sequential or parallel | [`modexp::method`]`("mary-precomp")`, [`modexp::pow_mod_vartime`] |
//! | big-integer products, sequential or parallel | [`mul::multiplier`]`("kara-lockfree", …)` |
//! | a cipher over bytes or a file, sequential or parallel | [`cipher::file::transform_bytes`], [`cipher::file::transform_file`] |
//! | OpenMP-style loop schedules, thread teams | [`parallel`] |
//!
//! Runnable examples: `cargo run --release -p parcrypt --example oaep_roundtrip`,
//! `--example parallel_modexp`, `--example parallel_cipher`.
//!
//! # Files
//!
//! The library writes no file of its own. `auto`'s kernel choice is timed at first use and kept
//! in the process; [`keep_choices_on_disk`]`(true)` keeps it in a per-user cache file across
//! runs (the `parcrypt` command does; see [`hazmat::bignum::ct::choice`]).
//!
//! # Timing
//!
//! What touches a private key is constant time: no branch and no memory index depends on a
//! secret (checked under Valgrind by `examples/secret_flow.rs`). Everything else that could
//! be mistaken for it carries `vartime` in its name or says **variable-time** in its docs: the
//! exponentiation strategies of [`modexp`] (they take public or test operands), key
//! generation, and the `gmp-sec` kernel, which is constant time in the exponent but not in the
//! prime.
//!
//! # Secrets
//!
//! Secret values are wiped on drop. GMP frees its temporaries without wiping them unless the
//! allocator of [`hazmat::bignum::wipe`] is installed; the crate installs it itself before it handles
//! its first secret (a [`hazmat::bignum::SecretInteger`], a key read, built or generated), around
//! whatever allocator GMP had, so a user has nothing to call (calling
//! [`hazmat::bignum::wipe::install`] first covers the program's own integers from the start too).
//!
//! # The safe face and `hazmat`
//!
//! The crate root, [`rsa`] (keys, OAEP, PEM, hashes), [`modexp`], [`mul`], [`cipher`] and
//! [`parallel`] are the API to use. The building blocks under RSA — textbook RSA, the
//! private-key primitives, the constant-time kernels and CRT engines, multi-buffer, the
//! secrets' checks, encodings, primes, SeRSA/PaRSA batches — and the big-integer layer are
//! reached only through [`hazmat`]: a path with `hazmat` in it is a place to read the docs
//! twice.
//!
//! # Modules, from the bottom layer up
//!
//! A module imports only modules before it: [`error`] and [`io`] (atomic file output, never
//! over an input); [`parallel`] (generic machinery, no algorithm); `bignum` (GMP helpers,
//! the constant-time kernels, secret integers; public as [`hazmat::bignum`]); [`mul`];
//! [`modexp`]; [`rsa`]; [`cipher`]; [`hazmat`] (re-exports only).
#![warn(missing_docs)]

pub(crate) mod bignum;
pub mod cipher;
pub mod error;
pub mod hazmat;
pub mod io;
pub mod modexp;
pub mod mul;
pub mod parallel;
pub mod rsa;

pub use bignum::ct::choice::keep_choices_on_disk;
pub use error::{Error, Result};
/// The randomness crate of the API (`rand` 0.8): `parcrypt::rand::rngs::OsRng` is a
/// generator every call that takes one accepts.
pub use rand;
pub use rsa::oaep::OaepParams;
pub use rsa::{RsaPrivateKey, RsaPublicKey};
/// The big-integer crate of the API's lower layers (GMP through `rug`, pinned), so callers
/// use `parcrypt::rug::Integer` instead of naming a version of their own.
pub use rug;
