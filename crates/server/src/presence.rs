//! Who has a game open: for each seat, whether someone holding its token
//! follows the game now (an event stream opened with the token, or a
//! request sent with it within the presence window), and since when; and
//! how many others watch (a count sent with the next state: a watcher
//! coming or going sends nothing by itself).
//!
//! This is bookkeeping only, under a plain lock of its own: the hub turns
//! each change into a new state for the game's readers and watchers.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use dice_core::Side;

use crate::secret::TokenHash;

/// How long a request with a seat's token keeps the seat `connected`, by
/// default.
pub const WINDOW: Duration = Duration::from_secs(30);

/// What is known of one seat's player.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// Event streams open with the seat's token.
    streams: u32,
    /// The last request with the token (or the end of its last stream).
    last: Option<Instant>,
    /// What the state shows: `connected` or not.
    connected: bool,
    /// When that last changed, in Unix seconds.
    since: Option<i64>,
    /// A task waits to turn the seat `away` once the window has passed.
    timer: bool,
}

impl Seen {
    fn is_connected(&self, now: Instant, window: Duration) -> bool {
        self.streams > 0 || self.last.is_some_and(|t| now.duration_since(t) < window)
    }
}

struct Inner {
    seats: [Seen; 2],
    /// The seats' token hashes as the game last stood (a person's seat
    /// only).
    hashes: [Option<TokenHash>; 2],
    /// Event streams that hold no seat.
    watchers: u32,
    /// A new state for a presence change is on its way.
    queued: bool,
}

/// One game's presence.
pub struct Presence {
    window: Duration,
    inner: Mutex<Inner>,
}

/// What the hub is to do after a presence change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct Follow {
    /// Publish a new state (unless one is queued already: see
    /// [`Presence::queue`]).
    pub publish: bool,
    /// Start the task that turns the seat `away` after the window.
    pub timer: bool,
}

/// A seat's presence as the state shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// `connected`, `away`, `bot` or `open`.
    pub word: &'static str,
    /// Since when (Unix seconds); `None` for a bot, an open seat, or a
    /// player not seen since the server started.
    pub since: Option<i64>,
}

/// What a seat is, for [`Presence::view`].
#[derive(Clone, Copy)]
pub enum Holds {
    /// A person, whose token hash this is.
    Person(TokenHash),
    /// The bot.
    Bot,
    /// Nobody yet.
    Open,
}

/// A side's one of a pair kept light first.
pub(crate) fn of_side<T>(pair: &[T; 2], side: Side) -> &T {
    let [light, dark] = pair;
    match side {
        Side::Light => light,
        Side::Dark => dark,
    }
}

/// A side's one of a pair kept light first, to change.
pub(crate) fn of_side_mut<T>(pair: &mut [T; 2], side: Side) -> &mut T {
    let [light, dark] = pair;
    match side {
        Side::Light => light,
        Side::Dark => dark,
    }
}

impl Presence {
    /// Nobody seen yet; a request keeps a seat `connected` for `window`.
    #[must_use]
    pub fn new(window: Duration) -> Presence {
        Presence {
            window,
            inner: Mutex::new(Inner {
                seats: [Seen::default(); 2],
                hashes: [None; 2],
                watchers: 0,
                queued: false,
            }),
        }
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The presence window.
    #[must_use]
    pub fn window(&self) -> Duration {
        self.window
    }

    /// The seat a token's hash holds, by the seats as the game last
    /// stood; both are compared, in constant time each.
    #[must_use]
    pub fn seat_of(&self, token: &TokenHash) -> Option<Side> {
        let inner = self.inner();
        let holds = |h: &Option<TokenHash>| h.as_ref().is_some_and(|h| h.matches(token));
        let [light, dark] = &inner.hashes;
        let (light, dark) = (holds(light), holds(dark));
        match (light, dark) {
            (true, _) => Some(Side::Light),
            (_, true) => Some(Side::Dark),
            _ => None,
        }
    }

    /// Turns the seat `connected` or `away` as it now is; whether that
    /// changed what the state shows.
    fn settle(seen: &mut Seen, now: Instant, window: Duration) -> bool {
        let connected = seen.is_connected(now, window);
        if connected == seen.connected {
            return false;
        }
        seen.connected = connected;
        seen.since = Some(crate::sqlite::now());
        true
    }

    /// A request came with the seat's token.
    pub fn seen(&self, side: Side, now: Instant) -> Follow {
        let window = self.window;
        let mut inner = self.inner();
        let seen = of_side_mut(&mut inner.seats, side);
        seen.last = Some(now);
        let publish = Self::settle(seen, now, window);
        let timer = !seen.timer && seen.streams == 0;
        seen.timer |= timer;
        Follow { publish, timer }
    }

    /// An event stream opened, with the token of `seat` or none.
    pub fn opened(&self, seat: Option<Side>, now: Instant) -> Follow {
        let window = self.window;
        let mut inner = self.inner();
        match seat {
            Some(side) => {
                let seen = of_side_mut(&mut inner.seats, side);
                seen.streams += 1;
                Follow {
                    publish: Self::settle(seen, now, window),
                    timer: false,
                }
            }
            // The count rides with the next state sent for another
            // reason: a stream coming or going sends nothing itself.
            None => {
                inner.watchers += 1;
                Follow::default()
            }
        }
    }

    /// An event stream ended. A seat's last stream counts as a request at
    /// its end: the seat turns `away` a window later.
    pub fn closed(&self, seat: Option<Side>, now: Instant) -> Follow {
        let mut inner = self.inner();
        match seat {
            Some(side) => {
                let seen = of_side_mut(&mut inner.seats, side);
                seen.streams = seen.streams.saturating_sub(1);
                seen.last = Some(now);
                let timer = !seen.timer && seen.streams == 0;
                seen.timer |= timer;
                Follow {
                    publish: false,
                    timer,
                }
            }
            None => {
                inner.watchers = inner.watchers.saturating_sub(1);
                Follow::default()
            }
        }
    }

    /// The timer of `side` fired: whether the state changed, and how long
    /// to wait before looking again (`None`: the timer ends).
    pub fn recheck(&self, side: Side, now: Instant) -> (bool, Option<Duration>) {
        let window = self.window;
        let mut inner = self.inner();
        let seen = of_side_mut(&mut inner.seats, side);
        let changed = Self::settle(seen, now, window);
        let again = match (seen.streams, seen.last) {
            (0, Some(last)) if seen.connected => {
                Some(window.saturating_sub(now.duration_since(last)))
            }
            _ => None,
        };
        if again.is_none() {
            seen.timer = false;
        }
        (changed, again)
    }

    /// Marks a presence state as on its way; false if one already is.
    pub fn queue(&self) -> bool {
        let mut inner = self.inner();
        !std::mem::replace(&mut inner.queued, true)
    }

    /// The seats as they now stand (their token hashes), and each seat's
    /// presence and the watchers for the state; a queued presence state
    /// is then sent.
    pub fn view(&self, holds: [Holds; 2]) -> ([SeatView; 2], u32) {
        let mut inner = self.inner();
        inner.queued = false;
        inner.hashes = holds.map(|h| match h {
            Holds::Person(h) => Some(h),
            _ => None,
        });
        let view = |holds: Holds, seen: &Seen| match holds {
            Holds::Bot => SeatView {
                word: "bot",
                since: None,
            },
            Holds::Open => SeatView {
                word: "open",
                since: None,
            },
            Holds::Person(_) => SeatView {
                word: if seen.connected { "connected" } else { "away" },
                since: seen.since,
            },
        };
        let [light, dark] = holds;
        let [seen_light, seen_dark] = &inner.seats;
        (
            [view(light, seen_light), view(dark, seen_dark)],
            inner.watchers,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(p: &Presence, holds: [Holds; 2]) -> [&'static str; 2] {
        let (views, _) = p.view(holds);
        [views[0].word, views[1].word]
    }

    #[test]
    fn a_seat_is_connected_while_its_stream_is_open_and_a_window_after() {
        let window = Duration::from_secs(30);
        let p = Presence::new(window);
        let a = TokenHash::of("a");
        let holds = [Holds::Person(a), Holds::Bot];
        assert_eq!(words(&p, holds), ["away", "bot"]);
        assert_eq!(p.seat_of(&a), Some(Side::Light));
        assert_eq!(p.seat_of(&TokenHash::of("b")), None);
        let t0 = Instant::now();
        assert!(p.opened(Some(Side::Light), t0).publish);
        assert!(!p.opened(Some(Side::Light), t0).publish, "a second tab");
        assert_eq!(words(&p, holds), ["connected", "bot"]);
        assert_eq!(p.closed(Some(Side::Light), t0), Follow::default());
        let last = p.closed(Some(Side::Light), t0);
        assert!(last.timer && !last.publish);
        let (changed, again) = p.recheck(Side::Light, t0 + window / 2);
        assert!(!changed);
        assert_eq!(again, Some(window / 2));
        let (changed, again) = p.recheck(Side::Light, t0 + window);
        assert!(changed && again.is_none());
        assert_eq!(words(&p, holds), ["away", "bot"]);
        let seen = p.seen(Side::Light, t0 + window);
        assert!(seen.publish && seen.timer);
        assert!(!p.seen(Side::Light, t0 + window).timer, "one timer a seat");
    }

    #[test]
    fn watchers_are_the_streams_without_a_seat_and_presence_states_coalesce() {
        let p = Presence::new(WINDOW);
        let holds = [Holds::Open, Holds::Person(TokenHash::of("b"))];
        let now = Instant::now();
        assert_eq!(
            p.opened(None, now),
            Follow::default(),
            "sent with the next state"
        );
        assert_eq!(p.opened(None, now), Follow::default());
        assert_eq!(p.view(holds).1, 2);
        let _ = p.closed(None, now);
        assert_eq!(words(&p, holds), ["open", "away"]);
        assert_eq!(p.view(holds).1, 1);
        assert!(p.queue());
        assert!(!p.queue(), "one on its way");
        let _ = p.view(holds);
        assert!(p.queue(), "sent");
    }
}
