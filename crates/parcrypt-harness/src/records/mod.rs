//! Benchmark records shared by the lab's benchmarks and `parcrypt-mpi`'s: the same columns
//! whether one machine or many ranks measured them.
pub mod cipher;
#[cfg(feature = "test-support")]
pub mod columns;
pub mod pipeline;
pub mod rsa;
