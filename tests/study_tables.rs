//! Every table of the study holds data: each experiment, run on the quick profile's sizes with
//! the fewest rounds that give an interval, yields a table whose numeric columns hold only
//! numbers (no text such as "1.23 µs [1.2, 1.3]", no "-"), whose CSV reads back as numbers in
//! those columns, and whose headers name their units.
use parcrypt_lab::study::sampling::Plan;
use parcrypt_lab::study::{Context, Profile, Table, experiments};

/// The CSV columns that must hold numbers: every numeric table column, with the two interval
/// columns of a measured one.
fn numeric_csv_columns(t: &Table) -> Vec<String> {
    let header = t.csv_header();
    t.columns
        .iter()
        .enumerate()
        .filter(|(i, _)| t.is_numeric(*i))
        .flat_map(|(_, c)| {
            header
                .iter()
                .filter(|h| {
                    *h == c
                        || h.strip_prefix(c.as_str())
                            .is_some_and(|s| s.starts_with("_ci95_"))
                })
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The problems of one table's CSV: a cell in a numeric column that does not parse as a
/// number (empty cells are missing values and allowed), a row of the wrong width.
fn csv_problems(id: &str, t: &Table) -> Vec<String> {
    let csv = t.to_csv();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(header, t.csv_header(), "{id}");
    let numeric = numeric_csv_columns(t);
    let mut problems = Vec::new();
    for (r, record) in reader.records().enumerate() {
        let record = record.expect("a CSV record");
        assert_eq!(record.len(), header.len(), "{id} row {r}");
        for (name, cell) in header.iter().zip(record.iter()) {
            if numeric.contains(name) && !cell.is_empty() && cell.parse::<f64>().is_err() {
                problems.push(format!("{id}.csv row {r} column {name}: '{cell}'"));
            }
        }
    }
    problems
}

#[test]
fn every_tables_numeric_columns_hold_numbers_with_units() {
    let mut ctx = Context::new(Profile::Quick);
    // Two rounds give every estimate an interval; no re-measuring.
    ctx.plan = Plan {
        min_rounds: 2,
        max_rounds: 2,
        extra_budget: 0.0,
        max_extra_s: 0.0,
        set_aside_far: false,
        pause_after_busy_s: 0.0,
        wait_apart_s: 0.0,
    };
    let mut problems = Vec::new();
    let mut measured_columns = 0;
    for exp in experiments::all() {
        let out = exp
            .run(&ctx)
            .unwrap_or_else(|e| panic!("{}: {e}", exp.id()));
        let t = &out.result.table;
        assert!(!t.rows.is_empty(), "{}: an empty table", exp.id());
        assert!(
            (0..t.columns.len()).any(|i| t.is_numeric(i)),
            "{}: no numeric column",
            exp.id()
        );
        problems.extend(
            t.problems()
                .into_iter()
                .map(|p| format!("{}: {p}", exp.id())),
        );
        problems.extend(csv_problems(exp.id(), t));
        measured_columns += t
            .csv_header()
            .iter()
            .filter(|h| h.ends_with("_ci95_low"))
            .count();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        measured_columns >= 8,
        "the timed experiments give their intervals as measured columns"
    );
}
