//! Error replies: `{"error": {"code", "message"[, "refusal"]}[, "state"]}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;
use std::time::{Duration, Instant};

use crate::throttle::Throttle;

/// The one message of a 500 `internal` reply.
pub const INTERNAL_MESSAGE: &str = "the server failed to complete the request; its log says why";

/// A refused request, as the contract writes it.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The contract's code (`no_game`, `stale_ply`, ...).
    pub code: &'static str,
    /// A sentence saying what was wrong.
    pub message: String,
    /// For a refused move, the engine's refusal code.
    pub refusal: Option<&'static str>,
    /// The game's current state, when the refusal concerns a game's turn.
    pub state: Option<Bytes>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            refusal: None,
            state: None,
        }
    }

    /// 400 `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 404 `no_game`.
    #[must_use]
    pub fn no_game() -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_game",
            "there is no game with that id",
        )
    }

    /// 401 `no_token`.
    #[must_use]
    pub fn no_token() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "no_token",
            "this needs a seat's token: send Authorization: Bearer TOKEN",
        )
    }

    /// 403 `not_your_seat`.
    #[must_use]
    pub fn not_your_seat() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "not_your_seat",
            "that token holds no seat of this game",
        )
    }

    /// 409 with one of the contract's conflict codes.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 413 `too_large`.
    #[must_use]
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("a request body may hold at most {limit} bytes"),
        )
    }

    /// 500 `internal`: the server failed (the store, the system), not the
    /// request. What failed goes to the log (at most a line every 10 s,
    /// with the count of those left out), never to the client: the reply
    /// says only that the server failed, since a database's or the
    /// system's error text can name files, queries or settings.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        static LOG: Throttle = Throttle::new(Duration::from_secs(10));
        if let Some(left_out) = LOG.allow(Instant::now()) {
            tracing::error!(
                "a request failed inside the server: {detail} ({left_out} more since the last line)"
            );
        }
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            INTERNAL_MESSAGE,
        )
    }

    /// The same error with the game's current state beside it.
    #[must_use]
    pub fn with_state(mut self, state: Bytes) -> ApiError {
        self.state = Some(state);
        self
    }

    /// The reply's body.
    #[must_use]
    pub fn body(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Inner<'a> {
            code: &'a str,
            message: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            refusal: Option<&'a str>,
        }
        let inner = Inner {
            code: self.code,
            message: &self.message,
            refusal: self.refusal,
        };
        let mut out = b"{\"error\":".to_vec();
        // A struct of strings always serializes.
        let _ = serde_json::to_writer(&mut out, &inner);
        if let Some(state) = &self.state {
            out.extend_from_slice(b",\"state\":");
            out.extend_from_slice(state);
        }
        out.push(b'}');
        out
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.body()).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_is_the_contracts_json() {
        let mut e = ApiError::conflict("stale_ply", "ply 3 is not the current ply 4");
        e.refusal = Some("wrong_distance");
        let e = e.with_state(Bytes::from_static(b"{\"ply\":4}"));
        let v: serde_json::Value = serde_json::from_slice(&e.body()).unwrap();
        assert_eq!(v["error"]["code"], "stale_ply");
        assert_eq!(v["error"]["refusal"], "wrong_distance");
        assert_eq!(v["state"]["ply"], 4);
        let plain: serde_json::Value = serde_json::from_slice(&ApiError::no_game().body()).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({"error": {"code": "no_game", "message": "there is no game with that id"}})
        );
    }
}
