//! The benchmark drivers: for each suite, what to run (a plan), what one configuration gives
//! (a record, whose field names are the JSON/CSV columns, whose timing columns are one
//! flattened [`TimingFields`](crate::bench::TimingFields) and whose energy columns are one
//! flattened [`EnergyFields`](crate::energy::meter::EnergyFields)), and the run itself, checked
//! against the sequential reference before any time is reported. The operations measured live
//! in their domain modules ([`rsa`](parcrypt::rsa), [`modexp`](parcrypt::modexp), [`mul`](parcrypt::mul),
//! [`cipher`](parcrypt::cipher)), which know nothing of benchmarks or energy.
//!
//! - [`rsa`](mod@rsa): SeRSA against PaRSA over threads, schedules and chunks (PaRSA), its
//!   records built by [`rsa_record`] (shared with the MPI batch); [`rsa_latency`]: one private-key operation (CRT, CRT on two threads, multi-prime);
//!   [`montmul`]: one Montgomery product per constant-time backend, beside an estimate of
//!   OpenSSL's;
//! - [`modexp`](mod@modexp): modular exponentiation strategies against binary and GMP
//!   (seeds 002, 003); [`crsa`](mod@crsa): main against pipelined CRSA on one batch (CRSA,
//!   Fig. 4);
//! - [`mul`](mod@mul): the Karatsuba family against GMP (m-ary/Karatsuba); [`mul_handoff`]: what it
//!   costs to activate a thread;
//! - [`cipher`](mod@cipher): cipher throughput against each sequential form (cipher-energy);
//!   [`cipher_pipeline`]: the round pipeline's chunk sweep (SCC Blowfish, Fig. 8);
//! - [`peers`]: parcrypt's best forms against GMP and OpenSSL (`bench peers`), its targets
//!   judged by the study's rule code;
//! - [`openssl`]: the OpenSSL peer (`openssl speed` for RSA sign and the ciphers);
//! - [`leak`]: the timing-leak test of RSA-OAEP decryption (dudect's Welch t-test, issue 20).
pub mod cipher;
pub mod cipher_pipeline;
pub mod crsa;
#[path = "../papers/crsa/formulas.rs"]
pub mod crsa_paper;
pub mod leak;
pub mod modexp;
pub mod montmul;
pub mod mul;
pub mod mul_handoff;
#[path = "../papers/mary_karatsuba/bench_figures.rs"]
pub mod mul_paper;
pub mod openssl;
pub mod peers;
pub mod rsa;
pub mod rsa_latency;
pub use parcrypt_harness::records::rsa as rsa_record;
