//! The MPI records keep their columns (the lab's tests/record_columns.rs for the thread
//! benchmarks; the same fixture, in the harness crate's records/columns.json).
use parcrypt_harness::records::columns::keeps_its_columns;

#[test]
fn mpi_records_keep_their_columns() {
    use parcrypt_mpi::{batch_bench, bulk_bench, crsa_bench, pipeline_bench};
    keeps_its_columns::<batch_bench::BatchRecord>("mpi-rsa");
    keeps_its_columns::<pipeline_bench::PipelineMpiRecord>("mpi-pipeline");
    keeps_its_columns::<bulk_bench::BulkMpiRecord>("mpi-cipher");
    let r: crsa_bench::CrsaMpiRecord = keeps_its_columns("mpi-crsa");
    assert!(r.timing.times.is_empty());
}
