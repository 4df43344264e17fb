//! schedule
