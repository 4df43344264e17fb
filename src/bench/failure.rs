//! Failures inside a timed region: a timed closure returns a time, not a `Result`, so it notes
//! the first failure here and the benchmark reports it after timing, as an internal error, in
//! every build (a `debug_assert` would let a release build time a failure).
use crate::error::{Error, Result};
use std::fmt::Display;

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
