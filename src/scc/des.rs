//! A discrete-event simulation of a chunked pipeline: stages that receive a chunk, work on
//! it, and send it on, joined by links that are either synchronous transfers (RCCE on the
//! SCC: both cores held while the chunk moves) or bounded queues (threads and channels:
//! a cost per queue operation and per wake-up of a blocked peer). Stages share `cores`
//! processors as an operating system shares them among threads that work in short bursts: a
//! stage with work runs on a free core until it blocks, else it waits its turn in a
//! first-come run queue; a stage woken onto an idle core first pays the idle-wake latency;
//! blocked stages use no core. The simulation records, per stage, time computing, in overheads,
//! moving data, in handshakes, held by a transfer, starved, blocked by back-pressure, and
//! ready but descheduled.
pub use super::scenario::{Link, Scenario, SimResult, StageSpec, StageTimes};
use crate::error::{Error, Result};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Next {
    Recv,
    Compute,
    Send,
    ChunkDone,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Ready(Next),
    Working {
        left: f64,
        compute: bool,
        next: Next,
    },
    BlockedRecv {
        since: f64,
    },
    BlockedSend {
        since: f64,
    },
    Transfer {
        until: f64,
        next: Next,
    },
    Waking {
        until: f64,
        left: f64,
        next: Next,
    },
    Finished,
}

struct Sim<'a> {
    sc: &'a Scenario,
    state: Vec<State>,
    chunk: Vec<usize>,
    queued: Vec<usize>,
    times: Vec<StageTimes>,
    /// Whether each stage holds a core.
    on_core: Vec<bool>,
    /// Cores held.
    in_use: usize,
    /// Stages with work waiting for a core, first come first served.
    runq: VecDeque<usize>,
}

/// Runs the simulation to the end.
pub fn simulate(sc: &Scenario) -> Result<SimResult> {
    sc.validate()?;
    let n = sc.stages.len();
    let mut sim = Sim::new(sc);
    let mut t = sc.startup_s;
    let mut events = 0usize;
    let mut todo: VecDeque<usize> = (0..n).collect();
    loop {
        sim.settle(&mut todo, t);
        if sim.state.iter().all(|s| *s == State::Finished) {
            break;
        }
        sim.dispatch();
        let dt = sim.next_event(t)?.max(0.0);
        t = sim.advance(t, dt, &mut todo);
        events += 1;
    }
    Ok(SimResult {
        total_s: t,
        stages: sim.times,
        events,
    })
}

impl<'a> Sim<'a> {
    /// Every stage ready to receive its first chunk, no core held.
    fn new(sc: &'a Scenario) -> Self {
        let n = sc.stages.len();
        Sim {
            sc,
            state: vec![State::Ready(Next::Recv); n],
            chunk: vec![0; n],
            queued: vec![0; sc.links.len()],
            times: sc
                .stages
                .iter()
                .map(|s| StageTimes {
                    name: s.name.clone(),
                    ..StageTimes::default()
                })
                .collect(),
            on_core: vec![false; n],
            in_use: 0,
            runq: VecDeque::new(),
        }
    }

    /// Steps every stage in `todo` at time `t` until none can move on.
    fn settle(&mut self, todo: &mut VecDeque<usize>, t: f64) {
        let n = self.sc.stages.len();
        while let Some(i) = todo.pop_front() {
            if self.step(i, t) {
                // A change can let this stage or a neighbour move on.
                for j in [i.wrapping_sub(1), i, i + 1] {
                    if j < n {
                        todo.push_back(j);
                    }
                }
            }
        }
    }

    /// Seconds from `t` to the next event: a computation, transfer or wake-up ending; an
    /// error when nothing is under way (a deadlock).
    fn next_event(&self, t: f64) -> Result<f64> {
        let mut dt = f64::INFINITY;
        for (i, s) in self.state.iter().enumerate() {
            match *s {
                State::Working { left, .. } if self.on_core[i] => dt = dt.min(left),
                State::Transfer { until, .. } | State::Waking { until, .. } => {
                    dt = dt.min(until - t)
                }
                _ => {}
            }
        }
        if !dt.is_finite() {
            return Err(Error::internal("the simulated pipeline deadlocked"));
        }
        Ok(dt)
    }

    /// Advances every stage by `dt` from `t`, queueing in `todo` those that become ready;
    /// returns the new time.
    fn advance(&mut self, t: f64, dt: f64, todo: &mut VecDeque<usize>) -> f64 {
        let end = t + dt;
        let due = |until: f64| until <= end + 1e-12 * end.abs();
        for (i, s) in self.state.iter_mut().enumerate() {
            match *s {
                State::Working { .. } if !self.on_core[i] => self.times[i].descheduled_s += dt,
                State::Working {
                    left,
                    compute,
                    next,
                } => {
                    let done = dt.min(left);
                    let times = &mut self.times[i];
                    if compute {
                        times.compute_s += done;
                    } else {
                        times.overhead_s += done;
                    }
                    if left <= dt * (1.0 + 1e-12) {
                        *s = State::Ready(next);
                        todo.push_back(i);
                    } else {
                        *s = State::Working {
                            left: left - done,
                            compute,
                            next,
                        };
                    }
                }
                State::Transfer { until, next } if due(until) => {
                    *s = State::Ready(next);
                    todo.push_back(i);
                }
                State::Waking { until, left, next } if due(until) => {
                    self.times[i].wake_latency_s += until - t;
                    *s = if left > 0.0 {
                        State::Working {
                            left,
                            compute: false,
                            next,
                        }
                    } else {
                        todo.push_back(i);
                        State::Ready(next)
                    };
                }
                State::Waking { .. } => self.times[i].wake_latency_s += dt,
                _ => {}
            }
        }
        end
    }
}

impl Sim<'_> {
    fn last(&self) -> usize {
        self.sc.stages.len() - 1
    }

    fn work(&self, i: usize) -> f64 {
        let s = &self.sc.stages[i];
        if self.chunk[i] + 1 == self.sc.chunks {
            s.last_s
        } else {
            s.full_s
        }
    }

    fn take_core(&mut self, i: usize) {
        if !self.on_core[i] {
            self.on_core[i] = true;
            self.in_use += 1;
        }
    }

    fn release_core(&mut self, i: usize) {
        if self.on_core[i] {
            self.on_core[i] = false;
            self.in_use -= 1;
        }
    }

    /// Gives free cores to waiting stages, first come first served.
    fn dispatch(&mut self) {
        while self.in_use < self.sc.cores {
            let Some(i) = self.runq.pop_front() else {
                break;
            };
            if matches!(self.state[i], State::Working { .. }) {
                self.take_core(i);
            }
        }
    }

    /// Stage `i` goes on to `left` CPU seconds of work (then `next`), on its core if it holds
    /// one, else in the run queue.
    fn set_working(&mut self, i: usize, left: f64, compute: bool, next: Next) {
        if left > 0.0 {
            self.state[i] = State::Working {
                left,
                compute,
                next,
            };
            if !self.on_core[i] {
                self.runq.push_back(i);
            }
        } else {
            self.state[i] = State::Ready(next);
        }
    }

    /// Stage `i` blocks (or finishes) and gives its core back.
    fn block(&mut self, i: usize, state: State) {
        self.state[i] = state;
        self.release_core(i);
    }

    /// Wakes blocked stage `i` at `t` to do `left` CPU seconds then go to `next`: onto an
    /// idle core after the idle-wake latency, or into the run queue if every core is busy.
    fn wake(&mut self, i: usize, t: f64, left: f64, next: Next) {
        self.unblock(i, t);
        self.times[i].wakes += 1;
        if self.in_use < self.sc.cores {
            self.take_core(i);
            if self.sc.idle_wake_s > 0.0 {
                self.state[i] = State::Waking {
                    until: t + self.sc.idle_wake_s,
                    left,
                    next,
                };
                return;
            }
        }
        self.set_working(i, left, false, next);
    }

    /// Ends a blocked wait of stage `i` at `t`, adding it to the right account.
    fn unblock(&mut self, i: usize, t: f64) {
        match self.state[i] {
            State::BlockedRecv { since } => self.times[i].recv_wait_s += t - since,
            State::BlockedSend { since } => self.times[i].send_wait_s += t - since,
            _ => {}
        }
    }

    /// Starts a synchronous transfer over link `l` (stage l sends to stage l + 1) at `t`.
    fn start_transfer(&mut self, l: usize, t: f64) {
        let cost = match &self.sc.links[l] {
            Link::Synchronous { full, last } if self.chunk[l] + 1 == self.sc.chunks => *last,
            Link::Synchronous { full, .. } => *full,
            Link::Queue { .. } => return,
        };
        let (tx, rx) = (l, l + 1);
        self.unblock(tx, t);
        self.unblock(rx, t);
        let until = t + cost.total_s();
        self.times[tx].data_s += cost.put_s;
        self.times[tx].transfer_wait_s += cost.get_s;
        self.times[rx].data_s += cost.get_s;
        self.times[rx].transfer_wait_s += cost.put_s;
        for s in [tx, rx] {
            self.times[s].handshake_s += cost.handshake_s;
        }
        self.state[tx] = State::Transfer {
            until,
            next: Next::ChunkDone,
        };
        self.state[rx] = State::Transfer {
            until,
            next: Next::Compute,
        };
    }

    /// Moves stage `i` on as far as it can go at time `t`; true if its state changed.
    fn step(&mut self, i: usize, t: f64) -> bool {
        let State::Ready(next) = self.state[i] else {
            return false;
        };
        match next {
            Next::Recv if self.chunk[i] == self.sc.chunks => self.block(i, State::Finished),
            Next::Recv if i == 0 => self.state[i] = State::Ready(Next::Compute),
            Next::Recv => {
                let l = i - 1;
                let upstream_waiting = matches!(self.state[l], State::BlockedSend { .. });
                match self.sc.links[l] {
                    Link::Synchronous { .. } if upstream_waiting => self.start_transfer(l, t),
                    Link::Queue { op_s, wake_s, .. } if self.queued[l] > 0 => {
                        // A slot frees; a sender blocked on the full queue is woken to retry.
                        self.queued[l] -= 1;
                        if upstream_waiting {
                            self.wake(l, t, wake_s, Next::Send);
                        }
                        self.set_working(i, op_s, false, Next::Compute);
                    }
                    Link::Queue {
                        capacity: 0,
                        op_s,
                        wake_s,
                    } if upstream_waiting => {
                        // Rendezvous: take the chunk from the blocked sender, which returns.
                        self.wake(l, t, wake_s + op_s, Next::ChunkDone);
                        self.set_working(i, op_s, false, Next::Compute);
                    }
                    _ => self.block(i, State::BlockedRecv { since: t }),
                }
            }
            Next::Compute => {
                let w = self.work(i);
                self.set_working(i, w, true, Next::Send);
            }
            Next::Send if i == self.last() => self.state[i] = State::Ready(Next::ChunkDone),
            Next::Send => {
                let downstream_waiting = matches!(self.state[i + 1], State::BlockedRecv { .. });
                match self.sc.links[i] {
                    Link::Synchronous { .. } if downstream_waiting => self.start_transfer(i, t),
                    Link::Queue {
                        capacity,
                        op_s,
                        wake_s,
                    } if self.queued[i] < capacity => {
                        // The chunk goes in; a receiver blocked on the empty queue is woken to
                        // take it when it runs.
                        self.queued[i] += 1;
                        if downstream_waiting {
                            self.wake(i + 1, t, wake_s, Next::Recv);
                        }
                        self.set_working(i, op_s, false, Next::ChunkDone);
                    }
                    Link::Queue {
                        capacity: 0,
                        op_s,
                        wake_s,
                    } if downstream_waiting => {
                        // Rendezvous: hand the chunk to the blocked receiver.
                        self.wake(i + 1, t, wake_s + op_s, Next::Compute);
                        self.set_working(i, op_s, false, Next::ChunkDone);
                    }
                    _ => self.block(i, State::BlockedSend { since: t }),
                }
            }
            Next::ChunkDone => {
                self.chunk[i] += 1;
                self.times[i].chunks += 1;
                self.state[i] = State::Ready(Next::Recv);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue_pipeline(work: &[f64], chunks: usize, cores: usize, idle_wake_s: f64) -> Scenario {
        Scenario {
            stages: work
                .iter()
                .enumerate()
                .map(|(i, &w)| StageSpec {
                    name: format!("s{i}"),
                    full_s: w,
                    last_s: w,
                })
                .collect(),
            links: vec![
                Link::Queue {
                    capacity: 1,
                    op_s: 0.0,
                    wake_s: 0.0,
                };
                work.len() - 1
            ],
            chunks,
            cores,
            startup_s: 0.0,
            idle_wake_s,
        }
    }

    #[test]
    fn free_queues_on_enough_cores_pipeline_perfectly() {
        // Chunk k leaves stage i at (k + i + 1) w.
        let sim = simulate(&queue_pipeline(&[1.0; 5], 7, 5, 0.0)).unwrap();
        assert!((sim.total_s - 11.0).abs() < 1e-12, "{}", sim.total_s);
        assert!(
            sim.stages
                .iter()
                .all(|s| s.chunks == 7 && s.descheduled_s == 0.0)
        );
        let last = sim.stages.last().unwrap();
        assert!((last.compute_s + last.recv_wait_s - 11.0).abs() < 1e-12);
    }

    #[test]
    fn shared_cores_serialise_the_work() {
        let sim = simulate(&queue_pipeline(&[1.0, 1.0], 2, 1, 0.0)).unwrap();
        assert!((sim.total_s - 4.0).abs() < 1e-12);
        let desched: f64 = sim.stages.iter().map(|s| s.descheduled_s).sum();
        assert!(desched > 0.0);
    }

    #[test]
    fn waking_onto_an_idle_core_takes_the_latency() {
        let sim = simulate(&queue_pipeline(&[1.0, 1.0], 1, 2, 0.5)).unwrap();
        assert!((sim.total_s - 2.5).abs() < 1e-12, "{}", sim.total_s);
        assert!((sim.stages[1].wake_latency_s - 0.5).abs() < 1e-12);
        assert!((sim.stages[1].recv_wait_s - 1.0).abs() < 1e-12);
        let mut bad = queue_pipeline(&[1.0, 1.0], 1, 2, -1.0);
        assert!(simulate(&bad).is_err());
        bad.idle_wake_s = 0.0;
        bad.cores = 0;
        assert!(simulate(&bad).is_err());
    }
}
