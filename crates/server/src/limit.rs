//! The per-address limit on games created: at most N in any 60 seconds.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered before the ones with nothing recent are forgotten.
const ADDRESSES_KEPT: usize = 4096;

/// A sliding window of creation times for each address.
#[derive(Debug)]
pub struct CreateLimit {
    per_minute: u32,
    seen: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl CreateLimit {
    /// At most `per_minute` games a minute from one address; 0 means no
    /// limit.
    #[must_use]
    pub fn new(per_minute: u32) -> CreateLimit {
        CreateLimit {
            per_minute,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `address` may create a game at `now`; if so it is counted.
    pub fn allow(&self, address: IpAddr, now: Instant) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.len() >= ADDRESSES_KEPT {
            seen.retain(|_, times| times.back().is_some_and(|&t| now - t < WINDOW));
        }
        let times = seen.entry(address).or_default();
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= self.per_minute as usize {
            return false;
        }
        times.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_slides() {
        let limit = CreateLimit::new(2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let t = Instant::now();
        assert!(limit.allow(a, t));
        assert!(limit.allow(a, t + Duration::from_secs(30)));
        assert!(!limit.allow(a, t + Duration::from_secs(59)));
        assert!(limit.allow(b, t + Duration::from_secs(59)), "per address");
        assert!(limit.allow(a, t + Duration::from_secs(60)));
        assert!(!limit.allow(a, t + Duration::from_secs(61)));
        let free = CreateLimit::new(0);
        assert!((0..1000).all(|_| free.allow(a, t)));
    }
}
