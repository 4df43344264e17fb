//! A model of Intel's Single-chip Cloud Computer (SCC) running SCC Blowfish's round pipeline: the
//! machine the paper had, modelled openly so its headline figures can be judged as modelled
//! claims next to this machine's measured ones.
//!
//! - [`params`]: every parameter with its value and source (paper, published, derived or
//!   assumed), each overridable.
//! - [`mesh`]: the 6×4 mesh, the SCC's core numbering, hop counts and stage placement.
//! - [`transfer`]: one chunk moved by RCCE's synchronous send/recv: buffer-sized pieces, put,
//!   get across the hops, a flag handshake per piece.
//! - [`scenario`], [`des`]: a discrete-event simulation of a chunked pipeline (synchronous
//!   links or bounded queues, stages sharing cores by a run queue); [`analytic`]: the exact
//!   recurrence for synchronous links on dedicated cores, checked against the simulation.
//! - [`model`]: the seed's 36 stages on the modelled SCC: predicted time, speedup, energy
//!   ([`power`]: the paper's watts), limiter per chunk size, optimum.
//! - [`sensitivity`], [`claims`]: the ±50 % sweep and the seed's three claims as data.
//! - [`calibrate`], [`validate`]: the same simulation with this machine's measured parameters
//!   predicting this machine's own pipeline sweep.
pub mod analytic;
pub mod calibrate;
pub mod claims;
pub mod des;
pub mod mesh;
pub mod model;
pub mod params;
pub mod power;
pub mod scenario;
pub mod sensitivity;
pub mod transfer;
pub mod validate;
