//! What a pipeline simulation takes and gives: stages with their work per chunk, the links
//! between them (synchronous transfers or bounded queues), the cores they share, and per
//! stage where the time went.
use super::transfer::TransferCost;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One stage: CPU seconds of work on a full chunk and on the last (shorter) chunk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageSpec {
    /// Stage name (`in`, `E1`, ..., `out`).
    pub name: String,
    /// Work on a full chunk, CPU seconds.
    pub full_s: f64,
    /// Work on the last chunk, CPU seconds.
    pub last_s: f64,
}

/// How a stage hands a chunk to the next one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Link {
    /// Synchronous transfer (RCCE send/recv): starts when the sender is ready to send and the
    /// receiver ready to receive; both are then held for the transfer's time. Not shared
    /// out on the cores (on the SCC every stage has its own core).
    Synchronous {
        /// Cost of moving a full chunk.
        full: TransferCost,
        /// Cost of moving the last chunk.
        last: TransferCost,
    },
    /// A bounded queue (`sync_channel(capacity)`; 0 = rendezvous): each send and receive
    /// costs `op_s` CPU seconds, and waking a blocked peer costs that peer `wake_s` more. A
    /// woken peer retries its send or receive when it runs (a rendezvous hands the chunk over
    /// directly).
    Queue {
        /// Chunks the queue holds.
        capacity: usize,
        /// CPU seconds of one send or receive.
        op_s: f64,
        /// CPU seconds a blocked stage spends being woken (scheduler, context switch).
        wake_s: f64,
    },
}

/// A pipeline to simulate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Stages in order, input first.
    pub stages: Vec<StageSpec>,
    /// `stages.len() - 1` links, link i joining stage i to stage i + 1.
    pub links: Vec<Link>,
    /// Chunks through the pipeline.
    pub chunks: usize,
    /// Processors the stages share.
    pub cores: usize,
    /// Seconds before the first stage starts (e.g. starting the stage threads).
    pub startup_s: f64,
    /// Seconds a woken stage waits before it runs when a core is idle (an idle processor
    /// woken by an interrupt); 0 for dedicated spinning cores. With every core busy the woken
    /// stage simply queues for one.
    pub idle_wake_s: f64,
}

/// Where one stage's time went; every field in seconds except `chunks`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageTimes {
    /// Stage name.
    pub name: String,
    /// Chunks handled.
    pub chunks: usize,
    /// CPU time working on chunks.
    pub compute_s: f64,
    /// CPU time in queue operations and wake-ups.
    pub overhead_s: f64,
    /// Time moving data itself in synchronous transfers (put when sending, get when receiving).
    pub data_s: f64,
    /// Time in the flag handshakes of synchronous transfers.
    pub handshake_s: f64,
    /// Time held by a synchronous transfer while the other core moved the data.
    pub transfer_wait_s: f64,
    /// Time blocked waiting for a chunk (pipeline fill, a slower stage upstream).
    pub recv_wait_s: f64,
    /// Time blocked because the next stage could not take the chunk (back-pressure).
    pub send_wait_s: f64,
    /// Time ready to work but without a core (more working stages than cores).
    pub descheduled_s: f64,
    /// Time between being woken and running on an idle core.
    pub wake_latency_s: f64,
    /// Times the stage was woken from a blocked receive or send.
    pub wakes: usize,
}

impl StageTimes {
    /// Time the stage was occupied per its own chunks: computing, overheads and transfers.
    pub fn occupied_s(&self) -> f64 {
        self.compute_s + self.overhead_s + self.data_s + self.handshake_s + self.transfer_wait_s
    }
}

/// What a simulation found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimResult {
    /// Seconds from start (start-up included) until the last stage finished the last chunk.
    pub total_s: f64,
    /// Per-stage breakdown, input first.
    pub stages: Vec<StageTimes>,
    /// Events processed (time steps).
    pub events: usize,
}

impl SimResult {
    /// The stage that was occupied longest (the one that bounds throughput).
    pub fn bottleneck(&self) -> Option<&StageTimes> {
        self.stages
            .iter()
            .max_by(|a, b| a.occupied_s().total_cmp(&b.occupied_s()))
    }
}

impl Scenario {
    /// Checks shape and costs: at least two stages, one link between each pair, one core,
    /// finite non-negative costs.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidParameter(m));
        if self.stages.len() < 2 || self.links.len() + 1 != self.stages.len() {
            return bad(format!(
                "a pipeline needs at least 2 stages and one link between each pair ({} stages, {} links)",
                self.stages.len(),
                self.links.len()
            ));
        }
        if self.cores == 0 {
            return bad("a pipeline needs at least one core".into());
        }
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        let stage_ok = self.stages.iter().all(|s| ok(s.full_s) && ok(s.last_s));
        let link_ok = self.links.iter().all(|l| match l {
            Link::Synchronous { full, last } => [full, last]
                .iter()
                .all(|c| ok(c.put_s) && ok(c.get_s) && ok(c.handshake_s)),
            Link::Queue { op_s, wake_s, .. } => ok(*op_s) && ok(*wake_s),
        });
        if !(stage_ok && link_ok && ok(self.startup_s) && ok(self.idle_wake_s)) {
            return bad("pipeline costs must be finite and non-negative".into());
        }
        Ok(())
    }
}
