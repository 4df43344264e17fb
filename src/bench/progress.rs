//! A progress bar for long sweeps: a thin wrapper over `indicatif` that draws on stderr, and
//! draws nothing when stderr is not a terminal, when the user asked for quiet, or in tests.
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Template of the bar: label, elapsed time, bar, count, time left, message.
const TEMPLATE: &str = "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta}) {msg}";

/// A progress bar over a known number of steps (benchmarks in a sweep, points of a grid).
///
/// All methods take `&self`, so the bar can be shared with code that reports progress.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
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
        let style = ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(total), target).with_style(style);
        bar.set_prefix(label.to_string());
        Self { bar }
    }

    /// A bar that counts but never draws (tests, `--quiet`).
    pub fn hidden(total: u64) -> Self {
        Self::new(total, "", true)
    }

    /// Advances by `steps`.
    pub fn inc(&self, steps: u64) {
        self.bar.inc(steps);
    }

    /// Sets the number of steps done.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Sets the text after the bar (e.g. the benchmark now running).
    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Runs `f` with the bar cleared, so `f` can print to the terminal without garbling it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Stops the bar and leaves its final state on screen.
    pub fn finish(&self) {
        self.bar.finish();
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
    fn clones_share_one_bar() {
        let progress = Progress::hidden(2);
        let other = progress.clone();
        other.inc(2);
        assert_eq!(progress.position(), 2);
    }
}
