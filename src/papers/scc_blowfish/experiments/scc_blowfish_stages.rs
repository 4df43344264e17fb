//! SCC Blowfish: where the pipeline's time goes, stage by stage. Every round of the pipeline sweep
//! ([`super::scc_blowfish`]) reports, per stage, the seconds it was busy, blocked receiving (starved
//! by the stage before) and blocked sending (held back by the stage after); this keeps them
//! for the configurations charted, and draws their medians over the rounds as stacked bars,
//! one bar per stage.
use crate::study::sampling::Rounds;
use crate::study::{Chart, Point, Provenance, Series};
use parcrypt::cipher::parallel::bf_pipeline::PipelineStats;

/// What a stage's time is split into: the rounds' key suffix and the legend's name.
const PARTS: [(&str, &str); 3] = [
    ("busy", "busy"),
    ("recv", "waiting to receive"),
    ("send", "waiting to send"),
];

/// Per-stage times of some pipeline configurations over paired rounds.
#[derive(Default)]
pub struct StageTimes {
    /// The stage names of each configuration charted, by `(stages, chunk)`.
    names: Vec<((usize, usize), Vec<String>)>,
    rounds: Rounds,
}

fn key(stages: usize, chunk: usize, stage: usize, part: &str) -> String {
    format!("{stages}/{chunk}/{stage}/{part}")
}

impl StageTimes {
    /// Keeps the times of the configurations `(stages, chunk)` in `charted`.
    pub fn new(charted: &[(usize, usize)]) -> Self {
        Self {
            names: charted.iter().map(|&c| (c, Vec::new())).collect(),
            rounds: Rounds::new(),
        }
    }

    /// Adds one round: the statistics of each configuration run in it, `(stages, chunk)` with
    /// the run's stats.
    pub fn push<'a>(
        &mut self,
        runs: impl IntoIterator<Item = ((usize, usize), &'a PipelineStats)>,
    ) {
        let mut round = Vec::new();
        for (config, stats) in runs {
            let Some((_, names)) = self.names.iter_mut().find(|(c, _)| *c == config) else {
                continue;
            };
            if names.is_empty() {
                *names = stats.stages.iter().map(|s| s.name.clone()).collect();
            }
            let (stages, chunk) = config;
            for (i, s) in stats.stages.iter().enumerate() {
                for (part, v) in [
                    ("busy", s.busy_s),
                    ("recv", s.recv_wait_s),
                    ("send", s.send_wait_s),
                ] {
                    round.push((key(stages, chunk, i, part), v));
                }
            }
        }
        self.rounds.push(round);
    }

    /// Rounds kept.
    pub fn len(&self) -> usize {
        self.rounds.len()
    }

    /// Whether no round was kept.
    pub fn is_empty(&self) -> bool {
        self.rounds.is_empty()
    }

    /// The stacked-bar chart of configuration `(stages, chunk)`, named `what` (e.g. "36
    /// stages"): per stage, the median seconds busy, waiting to receive and waiting to send
    /// in one run (intervals kept in the data).
    pub fn chart(
        &self,
        (stages, chunk): (usize, usize),
        what: &str,
        message_bytes: usize,
    ) -> Chart {
        let names = self.names_of(stages, chunk).to_vec();
        let mut chart = Chart::stacked(
            format!(
                "Where each stage's time goes: {what}, {} KB chunks (median of {} rounds)",
                chunk / 1024,
                self.len()
            ),
            "stage (in: bytes to words; E…: encryption rounds; D…: decryption rounds; out: words to bytes)",
            &format!("seconds in one run of {} KB", message_bytes / 1024),
            names.clone(),
        );
        for (part, label) in PARTS {
            let points = (0..names.len())
                .filter_map(|i| {
                    let e = self.rounds.median(&key(stages, chunk, i, part))?;
                    Some(Point::with_ci(i as f64, e.value, e.low, e.high))
                })
                .collect();
            chart = chart.with(Series::new(label, points, Provenance::Measured));
        }
        let bottleneck = self.bottleneck(stages, chunk).map_or(String::new(), |i| {
            format!(" The busiest stage here is {}.", names[i])
        });
        chart.note(format!(
            "Each bar is one stage's wall time split into working, blocked on the channel before it (starved) and \
             blocked on the channel after it (back-pressure); a pipeline runs at the pace of its busiest stage, and \
             threads beyond the machine's CPUs show up as waiting.{bottleneck}"
        ))
    }

    /// The stage names of configuration `(stages, chunk)` (none if it was not charted).
    fn names_of(&self, stages: usize, chunk: usize) -> &[String] {
        self.names
            .iter()
            .find(|(c, _)| *c == (stages, chunk))
            .map_or(&[], |(_, n)| n.as_slice())
    }

    /// The stage with the most median busy time, if any.
    fn bottleneck(&self, stages: usize, chunk: usize) -> Option<usize> {
        (0..self.names_of(stages, chunk).len())
            .filter_map(|i| Some((i, self.rounds.median(&key(stages, chunk, i, "busy"))?.value)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::ChartKind;
    use parcrypt::cipher::parallel::bf_pipeline::StageStats;

    fn stats(busy: [f64; 3]) -> PipelineStats {
        PipelineStats {
            wall_s: 1.0,
            stages: ["in", "E1..DW", "out"]
                .iter()
                .zip(busy)
                .map(|(n, b)| StageStats {
                    name: n.to_string(),
                    rounds: 0,
                    chunks: 4,
                    busy_s: b,
                    recv_wait_s: 1.0 - b,
                    send_wait_s: 0.0,
                })
                .collect(),
        }
    }

    #[test]
    fn stage_times_become_stacked_bars_named_by_stage() {
        let mut t = StageTimes::new(&[(3, 8192)]);
        for r in 0..4 {
            let s = stats([0.1, 0.8 + 0.01 * f64::from(r), 0.2]);
            let other = stats([0.5; 3]);
            t.push([((3, 8192), &s), ((4, 8192), &other)]);
        }
        let c = t.chart((3, 8192), "3 stages", 1 << 20);
        assert!(c.title.contains("3 stages, 8 KB"), "{}", c.title);
        assert_eq!(c.kind, ChartKind::Stacked);
        assert_eq!(c.categories, ["in", "E1..DW", "out"]);
        assert_eq!(c.series.len(), 3);
        let busy = &c.series[0].points;
        assert_eq!(busy.len(), 3);
        assert!((busy[1].y - 0.815).abs() < 1e-9, "{:?}", busy[1]);
        assert!((c.series[1].points[0].y - 0.9).abs() < 1e-9);
        assert!(c.note.contains("busiest stage here is E1..DW"));
        assert!(
            crate::report::plot::render(&c)
                .unwrap()
                .contains("waiting to send")
        );
    }
}
