//! The benchmark harness (placeholder until written).
