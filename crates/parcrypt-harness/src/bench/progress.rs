//! A progress bar for long sweeps: a thin wrapper over `indicatif` that draws on stderr, and
//! draws nothing when stderr is not a terminal, when the user asked for quiet, or in tests.
//!
//! What it shows is kept true: a bar whose total is not known yet (a benchmark timing its
//! warm-ups to plan its runs) shows a spinner and no count; the count never passes the total
//! (a plan that proves short grows instead); the time left is shown only once a step was
//! measured, as the mean of the steps measured so far times the steps left (steps skipped
//! without work, like a resumed experiment, do not count); a spinner turns while a long step
//! runs; and the bar is cleared when it finishes, so nothing printed afterwards is glued to
//! it.
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Template of the bar: spinner, label, elapsed time, bar, count, time left (once measured),
/// message.
const TEMPLATE: &str =
    "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {measured_eta}{msg}";
/// Template while the total is not known: spinner, label, elapsed time, message.
const PENDING_TEMPLATE: &str = "{spinner} {prefix} [{elapsed_precise}] warming up {msg}";

/// How often the spinner turns while a step runs.
const TICK: Duration = Duration::from_millis(250);

/// Time spent on the steps that did work, for the time left.
#[derive(Debug)]
struct Timing {
    /// When the last step ended (or the bar started).
    mark: Instant,
    /// Total time of the measured steps.
    measured: Duration,
    /// Steps measured.
    steps: u64,
}

impl Timing {
    /// Seconds left: the mean measured step times the steps left, less the time already
    /// spent on the current step; `None` before any step was measured.
    fn eta(&self, pos: u64, len: u64) -> Option<Duration> {
        if self.steps == 0 {
            return None;
        }
        let left = len.saturating_sub(pos);
        let mean = self.measured.as_secs_f64() / self.steps as f64;
        let remaining = mean * left as f64 - self.mark.elapsed().as_secs_f64();
        Some(Duration::from_secs_f64(remaining.max(0.0)))
    }
}

/// `1h02m`, `3m05s`, `42s`.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// A progress bar over a known number of steps (benchmarks in a sweep, points of a grid).
///
/// All methods take `&self`, so the bar can be shared with code that reports progress.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
    timing: Arc<Mutex<Timing>>,
}

impl Progress {
    /// A bar of `total` steps labelled `label`, drawn on stderr if stderr is a terminal and
    /// `quiet` is false; otherwise it counts without drawing.
    pub fn new(total: u64, label: &str, quiet: bool) -> Self {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let timing = Arc::new(Mutex::new(Timing {
            mark: Instant::now(),
            measured: Duration::ZERO,
            steps: 0,
        }));
        // Cleared also when dropped unfinished (an error ends the command): the error line
        // must not be glued to a half-drawn bar.
        let bar = ProgressBar::with_draw_target(Some(total), target)
            .with_style(style(&timing, total == 0))
            .with_finish(ProgressFinish::AndClear);
        bar.set_prefix(label.to_string());
        if !bar.is_hidden() {
            bar.enable_steady_tick(TICK);
        }
        Self { bar, timing }
    }

    fn timing(&self) -> std::sync::MutexGuard<'_, Timing> {
        self.timing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves to `done` steps, the steps in between having taken the time since the last
    /// move (`measured`) or no real work (`!measured`). Grows the total if `done` passes it.
    fn advance(&self, done: u64, measured: bool) {
        let pos = self.bar.position();
        if done > self.total() {
            self.bar.set_length(done);
        }
        let mut t = self.timing();
        if done > pos && measured {
            let spent = t.mark.elapsed();
            t.measured += spent;
            t.steps += done - pos;
        }
        t.mark = Instant::now();
        drop(t);
        self.bar.set_position(done);
    }

    /// A bar that counts but never draws (tests, `--quiet`).
    pub fn hidden(total: u64) -> Self {
        Self::new(total, "", true)
    }

    /// Advances by `steps`.
    pub fn inc(&self, steps: u64) {
        self.advance(self.position() + steps, true);
    }

    /// Sets the number of steps done (the total grows if `done` passes it).
    pub fn set_position(&self, done: u64) {
        self.advance(done, true);
    }

    /// Sets the steps done and the total, for sweeps that plan their total as they go (a
    /// benchmark plans its runs from its warm-ups): a `total` of 0 means "not known yet" and
    /// keeps the spinner without a count; the first known total starts the bar (and the
    /// clock of its time left). The count never passes the total.
    pub fn set_position_of(&self, done: u64, total: u64) {
        if total == 0 && done == 0 {
            return;
        }
        if self.total() == 0 {
            self.bar.set_style(style(&self.timing, false));
            self.timing().mark = Instant::now();
        }
        self.bar.set_length(total.max(done));
        self.advance(done, true);
    }

    /// Marks steps done without measuring them (work resumed from disk), so they do not
    /// shorten the time left.
    pub fn skip_to(&self, done: u64) {
        self.advance(done, false);
    }

    /// Sets the text after the bar (e.g. the benchmark now running).
    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// The callback a suite's `run` reports through, `(done, total, label)`: the position
    /// (the total left as it was set) and the label after the bar.
    pub fn reporter(&self) -> impl FnMut(usize, usize, &str) + '_ {
        move |done, _, label| {
            self.set_position(done as u64);
            self.set_message(label);
        }
    }

    /// Runs `f` with the bar cleared, so `f` can print to the terminal without garbling it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Stops the bar and removes it from the screen, so what is printed next starts on a
    /// clean line (the same as [`Progress::finish_and_clear`]).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Stops the bar and removes it from the screen.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }

    /// Steps done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Total number of steps.
    pub fn total(&self) -> u64 {
        self.bar.length().unwrap_or(0)
    }

    /// Whether the bar draws nothing.
    pub fn is_hidden(&self) -> bool {
        self.bar.is_hidden()
    }

    /// Whether [`Progress::finish`] or [`Progress::finish_and_clear`] was called.
    pub fn is_finished(&self) -> bool {
        self.bar.is_finished()
    }
}

/// The bar's style: the spinner alone while the total is not known (`pending`), else the bar
/// with its count and the time left once a step was measured.
fn style(timing: &Arc<Mutex<Timing>>, pending: bool) -> ProgressStyle {
    let template = if pending { PENDING_TEMPLATE } else { TEMPLATE };
    let shared = Arc::clone(timing);
    let eta = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let t = shared.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(d) = t.eta(state.pos(), state.len().unwrap_or(0)) {
            let _ = write!(w, "(eta {}) ", short_duration(d));
        }
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("measured_eta", eta)
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_bar_still_counts() {
        let progress = Progress::hidden(3);
        assert!(progress.is_hidden());
        assert_eq!((progress.position(), progress.total()), (0, 3));
        progress.inc(1);
        progress.set_message("rsa-2048 threads=4");
        progress.inc(2);
        assert_eq!(progress.position(), 3);
        assert!(!progress.is_finished());
        progress.finish();
        assert!(progress.is_finished());
    }

    #[test]
    fn quiet_hides_and_suspend_runs_the_closure() {
        let progress = Progress::new(10, "sweep", true);
        progress.set_position(4);
        assert_eq!(progress.position(), 4);
        assert!(progress.is_hidden());
        assert_eq!(progress.suspend(|| 7), 7);
        progress.finish_and_clear();
        assert!(progress.is_finished());
    }

    #[test]
    fn the_count_never_passes_the_total() {
        let progress = Progress::hidden(4);
        progress.set_position(141);
        assert_eq!((progress.position(), progress.total()), (141, 141));
        let progress = Progress::hidden(4);
        progress.set_position_of(5, 6);
        assert_eq!((progress.position(), progress.total()), (5, 6));
        progress.set_position_of(9, 6);
        assert_eq!((progress.position(), progress.total()), (9, 9));
    }

    #[test]
    fn time_left_comes_from_measured_steps_only() {
        let t = Timing {
            mark: Instant::now(),
            measured: Duration::from_secs(20),
            steps: 2,
        };
        let eta = t.eta(6, 10).unwrap().as_secs_f64();
        assert!((39.0..=40.0).contains(&eta), "{eta}");
        let none = Timing {
            mark: Instant::now(),
            measured: Duration::ZERO,
            steps: 0,
        };
        assert!(none.eta(3, 10).is_none());
        let progress = Progress::hidden(10);
        progress.skip_to(5);
        assert_eq!(progress.timing().steps, 0, "skipped steps are not measured");
        progress.set_position(6);
        assert_eq!(progress.timing().steps, 1);
        assert_eq!(short_duration(Duration::from_secs(3725)), "1h02m");
        assert_eq!(short_duration(Duration::from_secs(185)), "3m05s");
    }

    #[test]
    fn a_total_not_known_yet_waits_without_a_count_and_starts_at_the_plan() {
        let progress = Progress::hidden(0);
        progress.set_position_of(0, 0);
        assert_eq!((progress.position(), progress.total()), (0, 0));
        assert_eq!(progress.timing().steps, 0);
        // The warm-ups planned 24 runs: the bar starts there, and its clock with it.
        progress.set_position_of(0, 24);
        assert_eq!((progress.position(), progress.total()), (0, 24));
        progress.set_position_of(1, 24);
        assert_eq!(progress.timing().steps, 1, "the first measured step");
        assert!(progress.timing().eta(1, 24).is_some());
    }

    #[test]
    fn clones_share_one_bar() {
        let progress = Progress::hidden(2);
        let other = progress.clone();
        other.inc(2);
        assert_eq!(progress.position(), 2);
    }
}
