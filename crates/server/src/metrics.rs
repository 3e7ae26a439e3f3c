//! Counters for `GET /metrics`, written in the Prometheus text format.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::store::{Counts, Status};

/// Upper bounds of the request latency histogram, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
];

/// The server's counters. All updates are lock-free except refusals by
/// code, which are rare.
#[derive(Debug, Default)]
pub struct Metrics {
    games: [AtomicI64; 3],
    accepted: AtomicU64,
    refused: Mutex<BTreeMap<&'static str, u64>>,
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
    watchers: AtomicI64,
    connections: AtomicI64,
    queued: AtomicI64,
    cut: AtomicU64,
    busy: Mutex<BTreeMap<&'static str, u64>>,
    solves: Mutex<BTreeMap<String, Solving>>,
}

/// Where the solve of one rule set's table stands.
#[derive(Clone, Copy, Debug, Default)]
struct Solving {
    phase: &'static str,
    states_done: u64,
    states: u64,
}

impl Metrics {
    /// Counters starting from the games the store holds.
    #[must_use]
    pub fn new(counts: Counts) -> Metrics {
        let m = Metrics::default();
        for (gauge, n) in m.games.iter().zip(counts) {
            gauge.store(i64::try_from(n).unwrap_or(i64::MAX), Ordering::Relaxed);
        }
        m
    }

    fn gauge(&self, status: Status) -> &AtomicI64 {
        let [waiting, playing, over] = &self.games;
        match status {
            Status::Waiting => waiting,
            Status::Playing => playing,
            Status::Over => over,
        }
    }

    /// A game came into being with this status.
    pub fn game_created(&self, status: Status) {
        self.gauge(status).fetch_add(1, Ordering::Relaxed);
    }

    /// A game went from one status to another.
    pub fn game_moved(&self, from: Status, to: Status) {
        if from != to {
            self.gauge(from).fetch_sub(1, Ordering::Relaxed);
            self.gauge(to).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A game waiting for its friend expired (and was deleted).
    pub fn game_expired(&self) {
        self.gauge(Status::Waiting).fetch_sub(1, Ordering::Relaxed);
    }

    /// A move was accepted.
    pub fn move_accepted(&self) {
        self.accepted.fetch_add(1, Ordering::Relaxed);
    }

    /// A move was refused with this code.
    pub fn move_refused(&self, code: &'static str) {
        *self
            .refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(code)
            .or_default() += 1;
    }

    /// A watcher connected (`1`) or left (`-1`).
    pub fn watchers(&self, change: i64) {
        self.watchers.fetch_add(change, Ordering::Relaxed);
    }

    /// A connection opened (`1`) or closed (`-1`).
    pub fn connections(&self, change: i64) {
        self.connections.fetch_add(change, Ordering::Relaxed);
    }

    /// Bytes of events were queued for a stream (positive) or sent or
    /// dropped (negative).
    pub fn queued(&self, change: i64) {
        self.queued.fetch_add(change, Ordering::Relaxed);
    }

    /// Bytes of events queued for all streams together.
    #[must_use]
    pub fn queued_bytes(&self) -> usize {
        usize::try_from(self.queued.load(Ordering::Relaxed)).unwrap_or(0)
    }

    /// A stream was cut for falling behind.
    pub fn stream_cut(&self) {
        self.cut.fetch_add(1, Ordering::Relaxed);
    }

    /// Streams cut for falling behind so far.
    #[must_use]
    pub fn streams_cut(&self) -> u64 {
        self.cut.load(Ordering::Relaxed)
    }

    /// A connection or a stream was refused, being over this cap.
    pub fn busy(&self, cap: &'static str) {
        *self
            .busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(cap)
            .or_default() += 1;
    }

    /// The table of `rules` being solved in the background is in `phase`
    /// (`queued`, `sweeping`, `residual`, `writing`, `done`, `failed`)
    /// with `states_done` of its `states` settled.
    pub fn solving(&self, rules: &str, phase: &'static str, states_done: u64, states: u64) {
        self.solves
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                rules.to_owned(),
                Solving {
                    phase,
                    states_done,
                    states,
                },
            );
    }

    /// A request was answered after `took`.
    pub fn request(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        if let Some(bucket) = BUCKETS
            .iter()
            .position(|&b| seconds <= b)
            .and_then(|i| self.buckets.get(i))
        {
            bucket.fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// Everything, in the Prometheus text format (version 0.0.4).
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(2048);
        let _ = writeln!(out, "# HELP race_games Games by status.");
        let _ = writeln!(out, "# TYPE race_games gauge");
        for status in Status::ALL {
            let n = self.gauge(status).load(Ordering::Relaxed);
            let _ = writeln!(out, "race_games{{status=\"{}\"}} {n}", status.as_str());
        }
        let _ = writeln!(
            out,
            "# HELP race_moves_accepted_total Moves accepted and stored."
        );
        let _ = writeln!(out, "# TYPE race_moves_accepted_total counter");
        let _ = writeln!(
            out,
            "race_moves_accepted_total {}",
            self.accepted.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP race_moves_refused_total Moves refused, by error code."
        );
        let _ = writeln!(out, "# TYPE race_moves_refused_total counter");
        let refused = self
            .refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for (code, n) in refused {
            let _ = writeln!(out, "race_moves_refused_total{{code=\"{code}\"}} {n}");
        }
        let _ = writeln!(out, "# HELP race_watchers Event streams open.");
        let _ = writeln!(out, "# TYPE race_watchers gauge");
        let _ = writeln!(
            out,
            "race_watchers {}",
            self.watchers.load(Ordering::Relaxed)
        );
        for (name, help, value) in [
            (
                "race_connections",
                "Connections open.",
                self.connections.load(Ordering::Relaxed),
            ),
            (
                "race_event_bytes_queued",
                "Bytes of events waiting to be sent, over all event streams.",
                self.queued.load(Ordering::Relaxed),
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} gauge");
            let _ = writeln!(out, "{name} {value}");
        }
        let _ = writeln!(
            out,
            "# HELP race_streams_cut_total Event streams cut for falling behind."
        );
        let _ = writeln!(out, "# TYPE race_streams_cut_total counter");
        let _ = writeln!(out, "race_streams_cut_total {}", self.streams_cut());
        let _ = writeln!(
            out,
            "# HELP race_busy_total Connections and event streams refused (503), by the cap they were over."
        );
        let _ = writeln!(out, "# TYPE race_busy_total counter");
        let busy = self
            .busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for (cap, n) in busy {
            let _ = writeln!(out, "race_busy_total{{cap=\"{cap}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP race_request_duration_seconds Time to answer a request (to the reply's head)."
        );
        let _ = writeln!(out, "# TYPE race_request_duration_seconds histogram");
        let mut cumulative = 0;
        for (bound, n) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "race_request_duration_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "race_request_duration_seconds_bucket{{le=\"+Inf\"}} {count}"
        );
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "race_request_duration_seconds_sum {sum}");
        let _ = writeln!(out, "race_request_duration_seconds_count {count}");
        self.render_solves(&mut out);
        out
    }

    /// The tables being solved in the background: states settled, states
    /// in all and the phase, by rule set.
    fn render_solves(&self, out: &mut String) {
        let solves = self
            .solves
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if solves.is_empty() {
            return;
        }
        let label = |rules: &str| rules.replace('\\', "\\\\").replace('"', "\\\"");
        for (name, help, value) in [
            (
                "race_table_solve_states_done",
                "States settled by the solve of a table in the background, by rule set.",
                (|s: &Solving| s.states_done) as fn(&Solving) -> u64,
            ),
            (
                "race_table_solve_states",
                "States of a table being solved in the background, by rule set.",
                |s: &Solving| s.states,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} gauge");
            for (rules, solving) in &solves {
                let _ = writeln!(
                    out,
                    "{name}{{rules=\"{}\"}} {}",
                    label(rules),
                    value(solving)
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP race_table_solve_phase The phase of a table's solve in the background (1 for the phase it is in), by rule set."
        );
        let _ = writeln!(out, "# TYPE race_table_solve_phase gauge");
        for (rules, solving) in &solves {
            let _ = writeln!(
                out,
                "race_table_solve_phase{{rules=\"{}\",phase=\"{}\"}} 1",
                label(rules),
                solving.phase
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_counts_what_happened() {
        let m = Metrics::new([1, 2, 3]);
        m.game_created(Status::Waiting);
        m.game_moved(Status::Waiting, Status::Playing);
        m.move_accepted();
        m.move_refused("stale_ply");
        m.move_refused("stale_ply");
        m.request(Duration::from_micros(700));
        m.request(Duration::from_secs(60));
        m.connections(1);
        m.queued(300);
        m.queued(-100);
        m.stream_cut();
        m.busy("streams_per_address");
        m.solving("finkel", "sweeping", 40, 100);
        let text = m.render();
        for line in [
            "race_games{status=\"waiting\"} 1",
            "race_games{status=\"playing\"} 3",
            "race_games{status=\"over\"} 3",
            "race_moves_accepted_total 1",
            "race_moves_refused_total{code=\"stale_ply\"} 2",
            "race_request_duration_seconds_bucket{le=\"0.0005\"} 0",
            "race_request_duration_seconds_bucket{le=\"0.001\"} 1",
            "race_request_duration_seconds_bucket{le=\"10\"} 1",
            "race_request_duration_seconds_bucket{le=\"+Inf\"} 2",
            "race_request_duration_seconds_count 2",
            "race_connections 1",
            "race_event_bytes_queued 200",
            "race_streams_cut_total 1",
            "race_busy_total{cap=\"streams_per_address\"} 1",
            "race_table_solve_states_done{rules=\"finkel\"} 40",
            "race_table_solve_states{rules=\"finkel\"} 100",
            "race_table_solve_phase{rules=\"finkel\",phase=\"sweeping\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }
}
