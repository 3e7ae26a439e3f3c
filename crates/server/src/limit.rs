//! Limits by peer address: games created (at most N in any 60 seconds),
//! and things held open at once (connections, event streams), per address
//! and in all.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
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

/// At most so many of a thing held at once from one address, and in all.
#[derive(Debug)]
pub struct Gate {
    per_address: usize,
    total: usize,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// Which cap a refused one was over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// The cap for one address.
    Address(usize),
    /// The cap for all addresses together.
    Total(usize),
}

/// One held: given back when dropped.
#[derive(Debug)]
pub struct Ticket {
    gate: Arc<Gate>,
    address: IpAddr,
}

impl Gate {
    /// At most `per_address` from one address and `total` in all; 0 for
    /// either means no cap of that kind.
    #[must_use]
    pub fn new(per_address: usize, total: usize) -> Gate {
        Gate {
            per_address,
            total,
            held: Mutex::new(Held::default()),
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One more for `address`, unless that passes a cap.
    ///
    /// # Errors
    ///
    /// [`Over`] naming the cap it would pass.
    pub fn admit(self: &Arc<Gate>, address: IpAddr) -> Result<Ticket, Over> {
        let mut held = self.held();
        if self.total > 0 && held.total >= self.total {
            return Err(Over::Total(self.total));
        }
        let mine = held.by_address.entry(address).or_default();
        if self.per_address > 0 && *mine >= self.per_address {
            return Err(Over::Address(self.per_address));
        }
        *mine += 1;
        held.total += 1;
        Ok(Ticket {
            gate: Arc::clone(self),
            address,
        })
    }

    /// How many are held now.
    #[must_use]
    pub fn held_now(&self) -> usize {
        self.held().total
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut held = self.gate.held();
        held.total = held.total.saturating_sub(1);
        if let Some(n) = held.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                held.by_address.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_caps_each_address_and_all_together_and_takes_back_what_is_dropped() {
        let gate = Arc::new(Gate::new(2, 3));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let a1 = gate.admit(a).unwrap();
        let _a2 = gate.admit(a).unwrap();
        assert_eq!(gate.admit(a).unwrap_err(), Over::Address(2));
        let b1 = gate.admit(b).unwrap();
        assert_eq!(gate.admit(b).unwrap_err(), Over::Total(3));
        drop(a1);
        assert_eq!(gate.held_now(), 2);
        let b2 = gate.admit(b).unwrap();
        drop(b1);
        let _a3 = gate.admit(a).unwrap();
        assert_eq!(gate.admit(a).unwrap_err(), Over::Total(3));
        drop(b2);
        assert_eq!(gate.admit(a).unwrap_err(), Over::Address(2));
        let open = Arc::new(Gate::new(0, 0));
        let held: Vec<_> = (0..1000).map(|_| open.admit(a).unwrap()).collect();
        assert_eq!(open.held_now(), held.len());
    }

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
