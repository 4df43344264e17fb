//! The pipeline, CRSA and cipher programs.
use crate::args;
use parcrypt::mpi::{MpiError, MpiResult, Ranks};

/// `pipeline`.
pub fn pipeline(_ranks: &Ranks, _a: args::PipelineArgs) -> MpiResult<()> {
    Err(MpiError::Usage("not yet".into()))
}

/// `crsa`.
pub fn crsa(_ranks: &Ranks, _a: args::CrsaArgs) -> MpiResult<()> {
    Err(MpiError::Usage("not yet".into()))
}

/// `cipher`.
pub fn cipher(_ranks: &Ranks, _a: args::CipherArgs) -> MpiResult<()> {
    Err(MpiError::Usage("not yet".into()))
}
