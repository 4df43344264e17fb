//! The parallel forms of the ciphers, each tested byte-for-byte against its sequential reference
//! in [`cipher`](crate::cipher): PBlock (data-parallel Blowfish), the Blowfish round pipeline
//! (SCC Blowfish's layout and the folded one), PARC4 and PARC4-I. The generic machinery they run on
//! (static splits, schedules, SPSC rings) is in [`parallel`](crate::parallel).
pub mod bf_folded;
pub mod bf_pipeline;
pub mod parc4;
pub mod parc4i;
pub mod pblock;
