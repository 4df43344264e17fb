//! PaRSA beyond the paper, measured in the thread-scaling rounds ([`super::parsa_threads`]):
//! lanes × threads. The paper parallelises over threads only, one message per core at a time,
//! on a variable-time exponentiation. Here the same batch also runs on the constant-time CRT
//! one message at a time (1 lane) and on the multi-buffer AVX-512 IFMA kernel (8 messages per
//! call, one per 64-bit lane), each at 1 thread and at the machine's logical CPUs, timed in
//! the same rounds as the paper's configurations so every ratio is paired. It feeds no claim:
//! the paper says nothing about lanes; the table and chart show what a user's PaRSA gets.
use super::parsa::{SERSA, rsa_round_op};
use super::{int, measured, reduction_pct, text};
use crate::error::Result;
use crate::study::sampling::{Rounds, Values};
use crate::study::{Cell, Chart, Point, Provenance, Series, Table};
use parcrypt::hazmat::multibuffer;
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::rsa::RsaPrivateKey;

/// The constant-time forms beside the paper's: the rounds' key prefix, the form, its lanes.
const FORMS: [(&str, PrivateOp, usize); 2] = [
    ("ct", PrivateOp::CrtConstTime, 1),
    ("mb", PrivateOp::CrtConstTimeMb, multibuffer::LANES),
];

/// The thread count of the lanes rows beside 1: the logical CPUs (at least 2).
pub(super) fn threads(cpus: usize) -> usize {
    cpus.max(2)
}

/// The rounds' key of form `prefix` at `t` threads (1 thread: its own sequential baseline).
fn key_of(prefix: &str, t: usize) -> String {
    if t == 1 {
        format!("{prefix}/{SERSA}")
    } else {
        format!("{prefix}/{t}:guided")
    }
}

/// The paper's form's key at `t` threads, as [`super::parsa_threads`] names it.
fn paper_key(t: usize) -> String {
    if t == 1 {
        SERSA.to_string()
    } else {
        format!("{t}:guided")
    }
}

/// Why the multi-buffer form is not run here (no AVX-512 IFMA, or a key of more primes),
/// `None` where it runs.
pub(super) fn mb_skipped(key: &RsaPrivateKey) -> Option<String> {
    multibuffer::unavailable_reason().or_else(|| {
        (key.prime_count() != 2).then(|| "the multi-buffer kernel takes two-prime keys".into())
    })
}

/// One round's lanes × threads timings: each constant-time form at 1 thread and at `t`
/// (guided), keys `ct/…` and `mb/…` (the multi-buffer form only where it runs).
pub(super) fn round(
    key: &RsaPrivateKey,
    messages: usize,
    t: usize,
    round: usize,
    repeats: u32,
) -> Result<Vec<(String, f64)>> {
    let mut v = Vec::new();
    for (prefix, op, _) in FORMS {
        if op == PrivateOp::CrtConstTimeMb && mb_skipped(key).is_some() {
            continue;
        }
        let one = rsa_round_op(key, op, messages, vec![t], round, repeats)?;
        v.extend(one.into_iter().map(|(k, x)| (format!("{prefix}/{k}"), x)));
    }
    Ok(v)
}

/// The columns of the thread-scaling table, the paper's rows and these alike.
pub(super) const COLUMNS: [&str; 8] = [
    "kernel",
    "lanes",
    "threads",
    "median_s",
    "msgs_per_s",
    "speedup_over_sersa_x",
    "time_reduction_pct",
    "oversubscribed",
];

/// The name of the paper's form in the table and charts.
pub(super) const PAPER_FORM: &str = "crt (the paper's form, variable-time mpz_powm)";

/// One row of [`COLUMNS`] for the rounds' key `key` at `threads`: the batch's median,
/// messages per second and the time against SeRSA (the paper's kernel, 1 thread), all paired
/// per round.
pub(super) fn row(
    rounds: &Rounds,
    name: &str,
    lanes: usize,
    threads: usize,
    key: &str,
    messages: usize,
) -> Vec<Cell> {
    let speedup = |v: &Values| v(SERSA) / v(key);
    vec![
        text(name),
        int(lanes),
        int(threads),
        measured(rounds.median(key), "s"),
        measured(rounds.paired(|v| messages as f64 / v(key)), "/s"),
        measured(rounds.paired(speedup), "×"),
        measured(rounds.paired(|v| reduction_pct(speedup(v))), "%"),
        crate::bench::oversubscribed(threads).into(),
    ]
}

/// The constant-time forms' rows at 1 thread and `t` under the paper's ([`row`]); `backend`
/// names the one-at-a-time kernel, `skipped` why the multi-buffer form did not run.
pub(super) fn push_rows(
    table: &mut Table,
    rounds: &Rounds,
    messages: usize,
    t: usize,
    backend: &str,
    skipped: Option<&str>,
) {
    for (name, lanes, k) in forms(backend).into_iter().skip(1) {
        for threads in [1, t] {
            table.push(row(rounds, &name, lanes, threads, &k(threads), messages));
        }
    }
    if let Some(why) = skipped {
        let mut cells = vec![
            text(format!("crt-const-time-mb (not run: {why})")),
            int(multibuffer::LANES),
            int(t),
        ];
        cells.resize(COLUMNS.len(), Cell::Missing);
        table.push(cells);
    }
}

/// The forms' names, lanes and keys by thread count, the paper's first.
#[allow(clippy::type_complexity)]
fn forms(backend: &str) -> Vec<(String, usize, Box<dyn Fn(usize) -> String>)> {
    let mut v: Vec<(String, usize, Box<dyn Fn(usize) -> String>)> =
        vec![(PAPER_FORM.into(), 1, Box::new(paper_key))];
    for (prefix, op, lanes) in FORMS {
        let name = match op {
            PrivateOp::CrtConstTimeMb => "crt-const-time-mb (multi-buffer AVX-512 IFMA)".into(),
            _ => format!("crt-const-time ({backend} kernel, one message at a time)"),
        };
        v.push((name, lanes, Box::new(move |t| key_of(prefix, t))));
    }
    v
}

/// Messages per second of each form against threads (1 and `t`), with the rounds behind each
/// point; a form the rounds lack (not run here) draws nothing.
pub(super) fn chart(rounds: &Rounds, messages: usize, t: usize, backend: &str) -> Chart {
    let mut chart = Chart::line(
        "PaRSA beyond the paper — lanes × threads: messages per second by kernel (this machine)",
        "threads",
        "messages per second",
        false,
    )
    .zero_y();
    for (name, lanes, k) in forms(backend) {
        let mut points = Vec::new();
        let mut each = Vec::new();
        for threads in [1, t] {
            let key = k(threads);
            let rate = |v: &Values| messages as f64 / v(&key);
            if let Some(e) = rounds.paired(rate) {
                points.push(Point::with_ci(threads as f64, e.value, e.low, e.high));
            }
            each.extend(rounds.each(rate).into_iter().map(|y| (threads as f64, y)));
        }
        if !points.is_empty() {
            chart = chart.with(
                Series::new(
                    format!("{name}, {lanes} lane(s)"),
                    points,
                    Provenance::Measured,
                )
                .with_rounds(each),
            );
        }
    }
    chart.note(format!(
        "Lanes are messages one core works on at once: the multi-buffer kernel runs {} independent RSA operations \
         in the 64-bit lanes of AVX-512 IFMA registers. Threads and lanes multiply; the paper varied threads only.",
        multibuffer::LANES
    ))
}

/// One sentence for the experiment's summary: the multi-buffer form over the one-at-a-time
/// one at 1 and `t` threads (paired), or why it did not run.
pub(super) fn summary(rounds: &Rounds, t: usize, skipped: Option<&str>) -> String {
    if let Some(why) = skipped {
        return format!("Lanes × threads: the multi-buffer form did not run ({why}).");
    }
    let gain = |threads: usize| {
        rounds
            .paired(|v| v(&key_of("ct", threads)) / v(&key_of("mb", threads)))
            .map_or("-".into(), |e| e.text("×"))
    };
    format!(
        "Lanes × threads, beyond the paper: the constant-time CRT on {} lanes (multi-buffer IFMA) runs {} the \
         one-message-at-a-time kernel at 1 thread and {} at {t} threads, paired per round; PaRSA's `auto` takes \
         whichever is faster.",
        multibuffer::LANES,
        gain(1),
        gain(t)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Cell;

    /// Rounds where SeRSA takes 1.0 s, the paper's form 0.5 s at 2 threads, the one-at-a-time
    /// constant-time form 0.4 / 0.2 s and the multi-buffer form 0.25 / 0.125 s.
    fn rounds() -> Rounds {
        let mut r = Rounds::new();
        for i in 0..8 {
            let jitter = 1.0 + 0.001 * i as f64;
            r.push(
                [
                    (SERSA.to_string(), 1.0),
                    (paper_key(2), 0.5),
                    (key_of("ct", 1), 0.4),
                    (key_of("ct", 2), 0.2),
                    (key_of("mb", 1), 0.25),
                    (key_of("mb", 2), 0.125),
                ]
                .into_iter()
                .map(|(k, v)| (k, v * jitter))
                .collect(),
            );
        }
        r
    }

    fn value(c: &Cell) -> f64 {
        match c {
            Cell::Measured(m) => m.value,
            other => panic!("not measured: {other:?}"),
        }
    }

    #[test]
    fn the_rows_give_each_forms_rate_and_its_speed_over_sersa_paired() {
        let r = rounds();
        let mut t = Table::new(&COLUMNS);
        push_rows(&mut t, &r, 100, 2, "ifma", None);
        assert_eq!(t.rows.len(), 4, "two forms × (1, 2 threads)");
        let speedups: Vec<f64> = t.rows.iter().map(|row| value(&row[5])).collect();
        for (got, want) in speedups.iter().zip([2.5, 5.0, 4.0, 8.0]) {
            assert!((got - want).abs() < 1e-9, "{speedups:?}");
        }
        // Messages per second: 100 messages over the batch's time.
        assert!((value(&t.rows[3][4]) / 800.0 - 1.0).abs() < 0.01);
        let said = summary(&r, 2, None);
        assert!(
            said.contains("runs 1.6 ×") && said.contains("and 1.6 × at 2"),
            "{said}"
        );
        assert_eq!(chart(&r, 100, 2, "ifma").series.len(), 3);
    }

    #[test]
    fn a_form_that_did_not_run_is_named_with_its_reason_and_draws_nothing() {
        let mut r = Rounds::new();
        r.push(vec![
            (SERSA.to_string(), 1.0),
            (key_of("ct", 1), 0.4),
            (key_of("ct", 2), 0.2),
        ]);
        let mut t = Table::new(&COLUMNS);
        push_rows(&mut t, &r, 100, 2, "mulx", Some("no IFMA"));
        let last = t.rows.last().unwrap();
        assert!(matches!(&last[0], Cell::Text(s) if s.contains("not run: no IFMA")));
        assert_eq!(last.len(), COLUMNS.len());
        assert!(summary(&r, 2, Some("no IFMA")).contains("did not run (no IFMA)"));
        // The paper's form and the one-at-a-time form only.
        assert_eq!(chart(&r, 100, 2, "mulx").series.len(), 2);
    }
}
