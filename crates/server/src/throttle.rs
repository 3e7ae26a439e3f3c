//! A log line that may come thousands of times a second (an error the
//! server keeps meeting) written at most once in a while, with the count
//! of those left out.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// At most one line every `every`.
#[derive(Debug)]
pub struct Throttle {
    every: Duration,
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    last: Option<Instant>,
    left_out: u64,
}

impl Throttle {
    /// At most one line every `every`.
    #[must_use]
    pub const fn new(every: Duration) -> Throttle {
        Throttle {
            every,
            seen: Mutex::new(Seen {
                last: None,
                left_out: 0,
            }),
        }
    }

    /// Whether to write the line now, at `now`; if so, how many were left
    /// out since the last one written.
    pub fn allow(&self, now: Instant) -> Option<u64> {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen
            .last
            .is_some_and(|last| now.saturating_duration_since(last) < self.every)
        {
            seen.left_out += 1;
            return None;
        }
        seen.last = Some(now);
        Some(std::mem::take(&mut seen.left_out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_a_period_and_the_count_of_the_others() {
        let throttle = Throttle::new(Duration::from_secs(10));
        let t = Instant::now();
        assert_eq!(throttle.allow(t), Some(0));
        for ms in 1..=50 {
            assert_eq!(throttle.allow(t + Duration::from_millis(ms)), None);
        }
        assert_eq!(throttle.allow(t + Duration::from_secs(10)), Some(50));
        assert_eq!(throttle.allow(t + Duration::from_secs(11)), None);
    }
}
