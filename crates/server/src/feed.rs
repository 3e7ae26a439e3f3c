//! What readers and watchers see of a game: the last state, serialised
//! once, and for each event stream its own queue of the events not yet
//! sent, bounded in bytes.
//!
//! An event is one buffer shared by every stream it is queued on; a queue
//! holds references, and counts the bytes it refers to. A stream whose
//! queue would pass [`STREAM_BACKLOG`], or that is behind when the queues
//! of all streams together hold [`TOTAL_BACKLOG`], is cut: its queue is
//! dropped at once, and the client reconnects and is sent the current
//! state.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use tokio::sync::Notify;

use crate::metrics::Metrics;

/// The most bytes of events one stream may have waiting to be sent.
pub const STREAM_BACKLOG: usize = 1 << 20;
/// The most bytes of events all streams together may have waiting.
pub const TOTAL_BACKLOG: usize = 64 << 20;

/// What a stream is sent after the first state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every state, whole (the contract's stream).
    Full,
    /// What changed: the state without the log entries already sent.
    Delta,
}

/// How far a game is, for its streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// On: every stream follows it.
    On,
    /// Over, and a rematch may still be offered or started: the streams
    /// that follow a game past its end go on, the others end.
    Over,
    /// Over, with nothing more to follow: every stream ends.
    Done,
}

impl Stage {
    /// Whether a stream (following past the end or not) ends here.
    fn ends(self, after_end: bool) -> bool {
        match self {
            Stage::On => false,
            Stage::Over => !after_end,
            Stage::Done => true,
        }
    }
}

/// How a stream ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// It goes on.
    No,
    /// Once its queue is sent (the game is over).
    Drained,
    /// At once (it fell behind, or the game is gone).
    Now,
}

struct Queue {
    events: VecDeque<Bytes>,
    bytes: usize,
    end: End,
}

/// One event stream's queue.
pub struct Watcher {
    kind: Kind,
    /// It follows the game past its end (rematch offers).
    after_end: bool,
    queue: Mutex<Queue>,
    wake: Notify,
    metrics: Arc<Metrics>,
}

/// What a stream does next.
#[derive(Debug)]
pub enum Next {
    /// Sends this event.
    Event(Bytes),
    /// Waits for [`Watcher::woken`].
    Wait,
    /// Ends.
    End,
}

impl Watcher {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next thing to send.
    pub fn next(&self) -> Next {
        let mut queue = self.queue();
        if queue.end == End::Now {
            return Next::End;
        }
        match queue.events.pop_front() {
            Some(event) => {
                queue.bytes -= event.len();
                self.metrics.queued(-(event.len() as i64));
                Next::Event(event)
            }
            None if queue.end == End::Drained => Next::End,
            None => Next::Wait,
        }
    }

    /// Resolves when something was queued or the stream is to end (at
    /// once if that happened since the last [`Watcher::next`]).
    pub async fn woken(&self) {
        self.wake.notified().await;
    }

    /// Queues `event`, or cuts the stream when it is too far behind.
    fn push(&self, event: &Bytes, last: bool) {
        let mut queue = self.queue();
        if queue.end != End::No {
            return;
        }
        let behind = queue.bytes > 0
            && (queue.bytes + event.len() > STREAM_BACKLOG
                || self.metrics.queued_bytes() + event.len() > TOTAL_BACKLOG);
        if behind {
            Self::drop_queue(&mut queue, &self.metrics);
            queue.end = End::Now;
            self.metrics.stream_cut();
        } else {
            queue.bytes += event.len();
            self.metrics.queued(event.len() as i64);
            queue.events.push_back(event.clone());
            if last {
                queue.end = End::Drained;
            }
        }
        drop(queue);
        self.wake.notify_one();
    }

    /// Ends the stream at once.
    fn cut(&self) {
        let mut queue = self.queue();
        Self::drop_queue(&mut queue, &self.metrics);
        queue.end = End::Now;
        drop(queue);
        self.wake.notify_one();
    }

    fn drop_queue(queue: &mut Queue, metrics: &Metrics) {
        metrics.queued(-(queue.bytes as i64));
        queue.bytes = 0;
        queue.events = VecDeque::new();
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let queue = self.queue.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.metrics.queued(-(queue.bytes as i64));
    }
}

/// A game's last state and its streams.
pub struct Feed {
    /// The state's JSON.
    pub state: Bytes,
    /// The same state as one `state` event (`state` is a slice of it).
    pub event: Bytes,
    /// How far the game is.
    pub stage: Stage,
    /// Entries in the state's log: where the next delta's log starts.
    pub log_len: usize,
    watchers: Vec<Arc<Watcher>>,
}

impl Feed {
    /// A feed showing this state, watched by nobody yet.
    #[must_use]
    pub fn new(state: Bytes, event: Bytes, stage: Stage, log_len: usize) -> Feed {
        Feed {
            state,
            event,
            stage,
            log_len,
            watchers: Vec::new(),
        }
    }

    /// The current state as an event, and the queue of a new stream of
    /// `kind`, following the game past its end or not; no queue when
    /// nothing follows for it.
    pub fn watch(
        &mut self,
        kind: Kind,
        after_end: bool,
        metrics: &Arc<Metrics>,
    ) -> (Bytes, Option<Arc<Watcher>>) {
        let watcher = (!self.stage.ends(after_end)).then(|| {
            let w = Arc::new(Watcher {
                kind,
                after_end,
                queue: Mutex::new(Queue {
                    events: VecDeque::new(),
                    bytes: 0,
                    end: End::No,
                }),
                wake: Notify::new(),
                metrics: Arc::clone(metrics),
            });
            self.watchers.push(Arc::clone(&w));
            w
        });
        (self.event.clone(), watcher)
    }

    /// Forgets a stream that ended.
    pub fn unwatch(&mut self, watcher: &Arc<Watcher>) {
        self.watchers.retain(|w| !Arc::ptr_eq(w, watcher));
    }

    /// How many streams follow the game.
    #[must_use]
    pub fn watchers(&self) -> usize {
        self.watchers.len()
    }

    /// Whether some stream wants deltas.
    #[must_use]
    pub fn wants_delta(&self) -> bool {
        self.watchers.iter().any(|w| w.kind == Kind::Delta)
    }

    /// Shows a new state and queues it for every stream: `event` for the
    /// full streams, `delta` (when given) for the others; the streams
    /// that end at `stage` end after it.
    pub fn publish(&mut self, state: Bytes, event: Bytes, delta: Option<Bytes>, stage: Stage) {
        for w in &self.watchers {
            let last = stage.ends(w.after_end);
            match (w.kind, &delta) {
                (Kind::Delta, Some(delta)) => w.push(delta, last),
                _ => w.push(&event, last),
            }
        }
        self.watchers.retain(|w| !stage.ends(w.after_end));
        self.state = state;
        self.event = event;
        self.stage = stage;
    }

    /// Ends every stream at once (the game is gone from memory).
    pub fn close(&mut self) {
        for w in self.watchers.drain(..) {
            w.cut();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: usize) -> Bytes {
        Bytes::from(vec![b'x'; n])
    }

    #[test]
    fn a_stream_gets_every_event_in_order_then_ends_after_the_last() {
        let metrics = Arc::new(Metrics::new([0; 3]));
        let mut feed = Feed::new(event(1), event(2), Stage::On, 0);
        let (first, w) = feed.watch(Kind::Full, false, &metrics);
        assert_eq!(first, event(2));
        let w = w.unwrap();
        assert!(matches!(w.next(), Next::Wait));
        feed.publish(event(3), event(4), None, Stage::On);
        feed.publish(event(5), event(6), None, Stage::Done);
        assert_eq!(metrics.queued_bytes(), 10);
        assert!(matches!(w.next(), Next::Event(e) if e.len() == 4));
        assert!(matches!(w.next(), Next::Event(e) if e.len() == 6));
        assert!(matches!(w.next(), Next::End));
        assert_eq!(metrics.queued_bytes(), 0);
        assert_eq!(feed.watchers(), 0);
        assert!(feed.watch(Kind::Full, false, &metrics).1.is_none(), "over");
    }

    #[test]
    fn a_stream_following_past_the_end_goes_on_until_nothing_follows() {
        let metrics = Arc::new(Metrics::new([0; 3]));
        let mut feed = Feed::new(event(1), event(1), Stage::On, 0);
        let plain = feed.watch(Kind::Full, false, &metrics).1.unwrap();
        let after = feed.watch(Kind::Full, true, &metrics).1.unwrap();
        feed.publish(event(1), event(2), None, Stage::Over);
        assert!(feed.watch(Kind::Full, false, &metrics).1.is_none());
        let late = feed.watch(Kind::Delta, true, &metrics).1.unwrap();
        feed.publish(event(1), event(3), Some(event(4)), Stage::Done);
        assert!(matches!(plain.next(), Next::Event(e) if e.len() == 2));
        assert!(matches!(plain.next(), Next::End));
        for len in [2, 3] {
            assert!(matches!(after.next(), Next::Event(e) if e.len() == len));
        }
        assert!(matches!(after.next(), Next::End));
        assert!(matches!(late.next(), Next::Event(e) if e.len() == 4));
        assert!(matches!(late.next(), Next::End));
        assert_eq!(feed.watchers(), 0);
        assert!(feed.watch(Kind::Full, true, &metrics).1.is_none());
    }

    #[test]
    fn a_stream_that_falls_behind_is_cut_and_its_bytes_given_back() {
        let metrics = Arc::new(Metrics::new([0; 3]));
        let mut feed = Feed::new(event(1), event(1), Stage::On, 0);
        let slow = feed.watch(Kind::Full, false, &metrics).1.unwrap();
        let delta = feed.watch(Kind::Delta, false, &metrics).1.unwrap();
        let big = STREAM_BACKLOG / 4 + 1;
        for _ in 0..3 {
            feed.publish(event(1), event(big), Some(event(10)), Stage::On);
        }
        assert_eq!(metrics.queued_bytes(), 3 * big + 30);
        assert!(matches!(slow.next(), Next::Event(_)), "within its backlog");
        // Two more full states would pass the stream's backlog: it is cut,
        // and the delta stream, far from its own, goes on.
        feed.publish(event(1), event(big), Some(event(10)), Stage::On);
        feed.publish(event(1), event(big), Some(event(10)), Stage::On);
        assert!(matches!(slow.next(), Next::End));
        assert_eq!(metrics.queued_bytes(), 50);
        for _ in 0..5 {
            assert!(matches!(delta.next(), Next::Event(e) if e.len() == 10));
        }
        assert!(matches!(delta.next(), Next::Wait));
        assert_eq!(metrics.queued_bytes(), 0);
        assert_eq!(metrics.streams_cut(), 1);
    }

    #[test]
    fn a_stream_behind_is_cut_when_all_queues_together_are_full() {
        let metrics = Arc::new(Metrics::new([0; 3]));
        metrics.queued(TOTAL_BACKLOG as i64);
        let mut feed = Feed::new(event(1), event(1), Stage::On, 0);
        let w = feed.watch(Kind::Full, false, &metrics).1.unwrap();
        feed.publish(event(1), event(100), None, Stage::On);
        assert!(
            matches!(w.next(), Next::Event(_)),
            "one event is always queued"
        );
        feed.publish(event(1), event(100), None, Stage::On);
        feed.publish(event(1), event(100), None, Stage::On);
        assert!(matches!(w.next(), Next::End));
        drop(w);
        assert_eq!(metrics.queued_bytes(), TOTAL_BACKLOG);
    }

    #[test]
    fn closing_ends_every_stream_and_frees_its_queue() {
        let metrics = Arc::new(Metrics::new([0; 3]));
        let mut feed = Feed::new(event(1), event(1), Stage::On, 0);
        let w = feed.watch(Kind::Full, false, &metrics).1.unwrap();
        feed.publish(event(1), event(100), None, Stage::On);
        feed.close();
        assert!(matches!(w.next(), Next::End));
        assert_eq!(metrics.queued_bytes(), 0);
        assert_eq!(feed.watchers(), 0);
    }
}
