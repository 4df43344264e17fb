//! affinity
