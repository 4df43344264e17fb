//! Failures inside a timed region: a timed closure returns a time, not a `Result`, so it notes
//! the first failure here and the benchmark reports it after timing, as an internal error, in
//! every build (a `debug_assert` would let a release build time a failure).
//!
//! [`fingerprint`] lets a benchmark check each timed output against its verified reference
//! without holding one reference buffer per configuration; [`planted_fault`] is the test-only
//! hook that plants a wrong output inside a timed region, so a test can show the check fires.
use crate::error::{Error, Result};
use std::fmt::Display;
use std::sync::OnceLock;

/// The environment variable that plants faults for tests: a comma-separated list of names
/// (`cipher-timed`: `bench cipher` corrupts one output inside its timed loop). Test-only fault
/// injection; never set it in a real run.
pub const FAULT_VAR: &str = "PARCRYPT_FAULT";

/// Whether the test-only fault `name` is planted ([`FAULT_VAR`]). The variable is read once
/// per process; later calls cost one atomic load and a scan of the (normally absent) list.
pub fn planted_fault(name: &str) -> bool {
    static PLANTED: OnceLock<Vec<String>> = OnceLock::new();
    PLANTED
        .get_or_init(|| {
            std::env::var(FAULT_VAR)
                .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
                .unwrap_or_default()
        })
        .iter()
        .any(|f| f == name)
}

/// A 64-bit fingerprint of `bytes` for checking a timed output against its reference: any
/// difference confined to one aligned 8-byte word always changes it (each step is a bijection
/// of the state), and other differences escape it with a chance of about 2^-64. Not a
/// cryptographic hash: it catches a wrong result, not an adversary. Four independent lanes
/// keep it at several GB/s, so checking a run costs a fraction of running it.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |h: u64, w: u64| {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 29)
    };
    let mut lanes = [1u64, 2, 3, 4];
    let mut words = bytes.chunks_exact(32);
    for block in &mut words {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = step(*lane, u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
    }
    let mut tail = [0u8; 32];
    let rest = words.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    for (lane, w) in lanes.iter_mut().zip(tail.chunks_exact(8)) {
        *lane = step(*lane, u64::from_le_bytes(w.try_into().unwrap_or_default()));
    }
    lanes
        .iter()
        .fold(bytes.len() as u64, |h, &l| step(h.rotate_left(17), l))
}

/// The first failure noted inside a timed region.
#[derive(Debug, Default)]
pub struct Failures(Option<String>);

impl Failures {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Notes `result`'s error (the first one only), naming `what` failed; gives the value back.
    pub fn note<T, E: Display>(
        &mut self,
        what: &str,
        result: std::result::Result<T, E>,
    ) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.0
                    .get_or_insert_with(|| format!("{what} failed while timed: {e}"));
                None
            }
        }
    }

    /// Notes a wrong result: `ok` false means `what` gave the wrong output.
    pub fn check(&mut self, what: &str, ok: bool) {
        if !ok {
            self.0
                .get_or_insert_with(|| format!("{what} gave a wrong result while timed"));
        }
    }

    /// `Ok` when nothing failed, else the first failure as [`Error::Internal`].
    pub fn result(self) -> Result<()> {
        self.0.map_or(Ok(()), |what| Err(Error::internal(what)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_one_word_change_changes_the_fingerprint(
            data in proptest::collection::vec(any::<u8>(), 1..300),
            at in any::<prop::sample::Index>(),
            flip in 1u8..,
        ) {
            let mut other = data.clone();
            other[at.index(data.len())] ^= flip;
            prop_assert_ne!(fingerprint(&data), fingerprint(&other));
            prop_assert_eq!(fingerprint(&data), fingerprint(&data.clone()));
        }
    }

    #[test]
    fn the_length_counts_and_no_fault_is_planted_by_default() {
        assert_ne!(fingerprint(&[0; 8]), fingerprint(&[0; 16]));
        assert_ne!(fingerprint(&[]), fingerprint(&[0]));
        // The unit tests never set the variable.
        assert!(!planted_fault("cipher-timed"));
    }

    #[test]
    fn the_first_failure_becomes_an_internal_error() {
        let mut f = Failures::new();
        assert_eq!(f.note("a", Ok::<_, String>(3)), Some(3));
        assert!(Failures::new().result().is_ok());
        assert_eq!(
            f.note("pipeline x2", Err::<(), _>("not whole blocks")),
            None
        );
        f.check("other", false);
        let err = f.result().unwrap_err();
        assert_eq!(err.exit_code(), crate::error::EXIT_INTERNAL);
        assert!(
            err.to_string()
                .contains("pipeline x2 failed while timed: not whole blocks")
        );
    }
}
