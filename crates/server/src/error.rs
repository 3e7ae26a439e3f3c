//! Error replies: `{"error": {"code", "message"[, "refusal"]}[, "state"]}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;

use crate::refusal::{Fault, Refusal};

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

/// The contract's status for each kind of refusal of the hub.
const fn status_of(fault: Fault) -> StatusCode {
    match fault {
        Fault::BadRequest => StatusCode::BAD_REQUEST,
        Fault::NoGame => StatusCode::NOT_FOUND,
        Fault::NotYourSeat => StatusCode::FORBIDDEN,
        Fault::Conflict => StatusCode::CONFLICT,
        Fault::IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
        Fault::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Fault::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError {
            status: status_of(r.fault),
            code: r.code,
            message: r.message,
            refusal: r.refusal,
            state: r.state,
        }
    }
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
        Refusal::bad_request(message).into()
    }

    /// 404 `no_game`.
    #[must_use]
    pub fn no_game() -> ApiError {
        Refusal::no_game().into()
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

    /// 413 `too_large`.
    #[must_use]
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("a request body may hold at most {limit} bytes"),
        )
    }

    /// 500 `internal`, logged as [`Refusal::internal`] logs it.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        Refusal::internal(detail).into()
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
        let e = Refusal::illegal_move("wrong_distance", "a2-d2 on a roll of 2: too far")
            .with_state(Bytes::from_static(b"{\"ply\":4}"));
        let e = ApiError::from(e);
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        let v: serde_json::Value = serde_json::from_slice(&e.body()).unwrap();
        assert_eq!(v["error"]["code"], "illegal_move");
        assert_eq!(v["error"]["refusal"], "wrong_distance");
        assert_eq!(v["state"]["ply"], 4);
        let plain: serde_json::Value = serde_json::from_slice(&ApiError::no_game().body()).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({"error": {"code": "no_game", "message": "there is no game with that id"}})
        );
    }
}
