//! Errors of the MPI programs, and which of them every rank already knows about.
//!
//! Exit statuses: 2 usage, 1 runtime (files, keys, a hung or dead peer), 70 internal (an
//! output that differs from its reference, a message that breaks the protocol).
//!
//! An error every rank reached together ([`MpiError::Usage`], [`MpiError::Agreed`]) ends the
//! run cleanly: rank 0 prints one line, every rank finalizes MPI and exits non-zero. Any other
//! error is local to one rank; that rank prints it and aborts the whole job (`MPI_Abort`),
//! since the other ranks would otherwise wait for it.

use parcrypt_harness::error::{BUG_REPORT, EXIT_INTERNAL, EXIT_RUNTIME, EXIT_USAGE};

/// An error of an MPI program.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// A usage error found identically on every rank (too few ranks, a hypercube that does
    /// not fit): exit status 2.
    #[error("{0}")]
    Usage(String),
    /// One or more ranks failed and every rank knows it: `rank` is the first that failed.
    #[error("rank {rank}: {message}")]
    Agreed {
        /// The lowest failing rank.
        rank: usize,
        /// What it reported.
        message: String,
        /// The exit status every rank uses (2 for usage errors, 1 otherwise).
        status: i32,
    },
    /// A wait passed its deadline: the rank waited on is stuck or gone.
    #[error("no message from {from} within {waited_s:.0} s (a rank hung or died)")]
    Timeout {
        /// Who was waited for (`rank 3`, `any rank`).
        from: String,
        /// Seconds waited.
        waited_s: f64,
    },
    /// A message that does not follow the protocol (a bug, or mismatched binaries): exit
    /// status 70; the line asks for a bug report.
    #[error("protocol error: {0} ({BUG_REPORT})")]
    Protocol(String),
    /// An output that differs from its reference (a bug): exit status 70; the line asks for a
    /// bug report.
    #[error("internal error: {0} ({BUG_REPORT})")]
    Mismatch(String),
    /// A file or peer problem found on this rank (an output folder not shared by every host):
    /// exit status 1.
    #[error("{0}")]
    Runtime(String),
    /// An error of the parcrypt library on this rank: its exit status is the error's class
    /// ([`parcrypt_harness::Error::exit_code`]).
    #[error(transparent)]
    Lib(#[from] parcrypt_harness::Error),
}

impl From<parcrypt::Error> for MpiError {
    fn from(e: parcrypt::Error) -> Self {
        MpiError::Lib(e.into())
    }
}

impl MpiError {
    /// Whether every rank has this error (so the run can end without `MPI_Abort`).
    pub fn is_collective(&self) -> bool {
        matches!(self, MpiError::Usage(_) | MpiError::Agreed { .. })
    }

    /// The process exit status for this error.
    pub fn exit_status(&self) -> i32 {
        match self {
            MpiError::Usage(_) => EXIT_USAGE,
            MpiError::Agreed { status, .. } => *status,
            MpiError::Lib(e) => e.exit_code(),
            MpiError::Protocol(_) | MpiError::Mismatch(_) => EXIT_INTERNAL,
            MpiError::Timeout { .. } | MpiError::Runtime(_) => EXIT_RUNTIME,
        }
    }
}

/// Shorthand for results of the MPI programs.
pub type MpiResult<T> = std::result::Result<T, MpiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collective_errors_and_statuses() {
        assert!(MpiError::Usage("x".into()).is_collective());
        let agreed = MpiError::Agreed {
            rank: 1,
            message: "cannot read 'f'".into(),
            status: 1,
        };
        assert_eq!(agreed.to_string(), "rank 1: cannot read 'f'");
        assert!(agreed.is_collective());
        assert_eq!(agreed.exit_status(), 1);
        assert_eq!(MpiError::Usage("x".into()).exit_status(), 2);
        let t = MpiError::Timeout {
            from: "rank 3".into(),
            waited_s: 5.0,
        };
        assert!(!t.is_collective());
        assert!(t.to_string().contains("rank 3 within 5 s"), "{t}");
        assert_eq!(t.exit_status(), 1);
        assert_eq!(MpiError::Mismatch("x".into()).exit_status(), 70);
        assert_eq!(MpiError::Protocol("x".into()).exit_status(), 70);
        assert_eq!(MpiError::Runtime("x".into()).exit_status(), 1);
        assert!(
            MpiError::Mismatch("x".into())
                .to_string()
                .contains("please report it")
        );
        let lib = |e: parcrypt_harness::Error| MpiError::Lib(e).exit_status();
        assert_eq!(
            lib(parcrypt_harness::Error::InvalidParameter("x".into())),
            2
        );
        assert_eq!(lib(parcrypt_harness::Error::internal("x")), 70);
        assert_eq!(lib(parcrypt_harness::Error::InvalidKey("x".into())), 1);
    }
}
