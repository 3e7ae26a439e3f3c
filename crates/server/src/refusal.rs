//! What the hub refuses, in the domain's words: which of the contract's
//! checks failed, its code and sentence, and the game's state when the
//! refusal concerns its turn. `error.rs` maps each [`Fault`] to its HTTP
//! status; nothing here knows HTTP.

use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::throttle::Throttle;

/// The one message of a refusal the server itself caused.
pub const INTERNAL_MESSAGE: &str = "the server failed to complete the request; its log says why";
/// The message of every `unavailable` refusal.
pub const UNAVAILABLE_MESSAGE: &str =
    "the database is out of reach for now; nothing was done: try again in a moment";

/// Which kind of check refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// What was asked for cannot be offered (rules, a level).
    BadRequest,
    /// No game has the id.
    NoGame,
    /// The token holds no seat of the game, or the invite is wrong.
    NotYourSeat,
    /// The game is not in a state to do it (`not_started`, `game_over`,
    /// `not_your_turn`, `stale_ply`, `seat_taken`).
    Conflict,
    /// The engine refused the move.
    IllegalMove,
    /// The server failed (the store, the random source), not the request.
    Internal,
    /// The store's database is out of reach for now.
    Unavailable,
}

/// A refusal of the hub.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// Which kind of check refused.
    pub fault: Fault,
    /// The contract's code (`no_game`, `stale_ply`, ...).
    pub code: &'static str,
    /// A sentence saying what was wrong.
    pub message: String,
    /// For a refused move, the engine's refusal code.
    pub refusal: Option<&'static str>,
    /// The game's current state, when the refusal concerns its turn.
    pub state: Option<Bytes>,
}

impl Refusal {
    fn new(fault: Fault, code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            fault,
            code,
            message: message.into(),
            refusal: None,
            state: None,
        }
    }

    /// `bad_request`: what was asked for cannot be offered.
    pub fn bad_request(message: impl Into<String>) -> Refusal {
        Refusal::new(Fault::BadRequest, "bad_request", message)
    }

    /// `no_game`.
    #[must_use]
    pub fn no_game() -> Refusal {
        Refusal::new(Fault::NoGame, "no_game", "there is no game with that id")
    }

    /// `not_your_seat`.
    #[must_use]
    pub fn not_your_seat() -> Refusal {
        Refusal::new(
            Fault::NotYourSeat,
            "not_your_seat",
            "that token holds no seat of this game",
        )
    }

    /// One of the contract's conflict codes.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal::new(Fault::Conflict, code, message)
    }

    /// `illegal_move`, with the engine's own refusal code.
    pub fn illegal_move(engine_code: &'static str, message: impl Into<String>) -> Refusal {
        let mut r = Refusal::new(Fault::IllegalMove, "illegal_move", message);
        r.refusal = Some(engine_code);
        r
    }

    /// `internal`: the server failed (the store, the system), not the
    /// request. What failed goes to the log (at most a line every 10 s,
    /// with the count of those left out), never to the client: the reply
    /// says only that the server failed, since a database's or the
    /// system's error text can name files, queries or settings.
    pub fn internal(detail: impl std::fmt::Display) -> Refusal {
        static LOG: Throttle = Throttle::new(Duration::from_secs(10));
        if let Some(left_out) = LOG.allow(Instant::now()) {
            tracing::error!(
                "a request failed inside the server: {detail} ({left_out} more since the last line)"
            );
        }
        Refusal::new(Fault::Internal, "internal", INTERNAL_MESSAGE)
    }

    /// `unavailable`: the store's database cannot be reached; nothing was
    /// done, and the request may be sent again in a moment. What failed
    /// goes to the log as for [`Refusal::internal`].
    pub fn unavailable(detail: impl std::fmt::Display) -> Refusal {
        static LOG: Throttle = Throttle::new(Duration::from_secs(10));
        if let Some(left_out) = LOG.allow(Instant::now()) {
            tracing::warn!(
                "a request found the database out of reach: {detail} ({left_out} more since the last line)"
            );
        }
        Refusal::new(Fault::Unavailable, "unavailable", UNAVAILABLE_MESSAGE)
    }

    /// The same refusal with the game's current state beside it.
    #[must_use]
    pub fn with_state(mut self, state: Bytes) -> Refusal {
        self.state = Some(state);
        self
    }
}
