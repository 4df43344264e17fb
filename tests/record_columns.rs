//! Every benchmark record keeps its columns: a record as `parcrypt bench ...` wrote it
//! (the harness crate's `src/records/columns.json`, see `columns.md` beside it) reads into today's type, and written again it has
//! the same JSON keys in the same order, the same values and the same CSV header; without its
//! `times` (older files) it still reads. A deliberate change of columns regenerates the fixture
//! (issue 21 did: `wide_spread` gave way to `outliers_mild`/`outliers_severe`, and the `ci95_*`
//! columns are empty below 6 runs instead of holding min..max; issue 31 added
//! `private_op_choice` to the RSA batch records).
use parcrypt_harness::records::columns::keeps_its_columns;

#[test]
fn thread_benchmark_records_keep_their_columns() {
    use parcrypt_lab::suites::{
        cipher, cipher_pipeline, modexp, mul, mul_handoff, rsa, rsa_latency,
    };
    let r: rsa::RsaBenchRecord = keeps_its_columns("rsa");
    assert_eq!(r.timing.runs, 2);
    assert!(r.private_op_choice.starts_with("auto: "));
    // Written before `--private-op auto` recorded its choice, a record still reads (empty).
    let mut old: serde_json::Value = serde_json::to_value(&r).unwrap();
    old.as_object_mut().unwrap().remove("private_op_choice");
    let old: rsa::RsaBenchRecord = serde_json::from_value(old).unwrap();
    assert_eq!(old.private_op_choice, "");
    assert!(r.timing.mean_s.is_some() && r.timing.stddev_s.is_some());
    // Two runs: the interval columns are there and empty (no min..max under their name).
    assert_eq!(
        (r.timing.ci95_low_s, r.timing.ci95_high_s),
        (Some(None), Some(None))
    );
    let r: modexp::ModexpRecord = keeps_its_columns("modexp");
    assert!(r.timing.ci95_low_s == Some(None) && r.timing.mean_s.is_none());
    assert_eq!(
        (r.timing.outliers_mild, r.timing.outliers_severe),
        (Some(0), Some(0))
    );
    let r: rsa_latency::LatencyRecord = keeps_its_columns("rsa-private");
    assert!(r.timing.ci95_low_s.is_none(), "no interval columns at all");
    let r: mul::MulBenchRecord = keeps_its_columns("mul");
    assert!(r.timing.mean_s.is_some() && r.timing.stddev_s.is_none());
    keeps_its_columns::<mul_handoff::HandoffRecord>("handoff");
    let r: cipher::CipherBenchRecord = keeps_its_columns("cipher");
    assert_eq!(r.timing.times.len(), 2);
    keeps_its_columns::<cipher_pipeline::PipelineBenchRecord>("pipeline");
}
