//! The HTTP edge: what every handler shares ([`App`]), the extractors that
//! read a request's game, bearer token, peer and JSON body, and the JSON
//! reply. The routes (`routes.rs`) and the page's endpoints (`review.rs`)
//! both stand on it; the hub below knows nothing of HTTP.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::error::ApiError;
use crate::hub::{Hub, Slot};
use crate::limit::{CreateLimit, Gate};
use crate::secret::TokenHash;
use crate::wire::BODY_MAX;

/// How long a request body may take to arrive.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The peer's address, put in each request by the connection that read it.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    /// The games.
    pub hub: Arc<Hub>,
    /// The per-address limit on games created.
    pub limit: Arc<CreateLimit>,
    /// The caps on event streams held open.
    pub streams: Arc<Gate>,
    /// How long an event stream stays quiet before it sends a comment.
    pub keep_alive: Duration,
}

/// The game the path's `{id}` names; 404 `no_game` for a path that names
/// none.
pub struct GameSlot(pub Arc<Slot>);

impl FromRequestParts<App> for GameSlot {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<GameSlot, ApiError> {
        let Ok(Path(id)) = Path::<String>::from_request_parts(parts, app).await else {
            return Err(ApiError::no_game());
        };
        Ok(GameSlot(app.hub.slot(&id).await?))
    }
}

/// The peer's IP address (unspecified when the connection gave none).
pub struct PeerIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for PeerIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<PeerIp, Self::Rejection> {
        Ok(PeerIp(
            parts
                .extensions
                .get::<Peer>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.0.ip()),
        ))
    }
}

/// The `Authorization: Bearer TOKEN` header, read with the request's head
/// but refused only when asked ([`Bearer::hash`]), so that a handler
/// checks it after the body, in the contract's order.
pub struct Bearer(Result<TokenHash, ApiError>);

impl Bearer {
    /// The token's hash, or 401 `no_token`.
    ///
    /// # Errors
    ///
    /// 401 `no_token` for a missing header, another scheme or an empty
    /// token.
    pub fn hash(self) -> Result<TokenHash, ApiError> {
        self.0
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Bearer, Self::Rejection> {
        Ok(Bearer(token_of(&parts.headers)))
    }
}

fn token_of(headers: &HeaderMap) -> Result<TokenHash, ApiError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(ApiError::no_token)?;
    let (scheme, token) = value
        .trim()
        .split_once(' ')
        .ok_or_else(ApiError::no_token)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(ApiError::no_token());
    }
    Ok(TokenHash::of(token))
}

/// A request body read strictly: at most [`BODY_MAX`] bytes (413), within
/// [`BODY_TIMEOUT`] (408), and sent as `application/json` when not empty
/// (400). What it says is read by `wire.rs`.
pub struct JsonBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<JsonBody, ApiError> {
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > BODY_MAX as u64) {
            return Err(ApiError::too_large(BODY_MAX));
        }
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        let read = Limited::new(req.into_body(), BODY_MAX).collect();
        let body = match tokio::time::timeout(BODY_TIMEOUT, read).await {
            Err(_) => {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    format!(
                        "the body did not arrive within {} s",
                        BODY_TIMEOUT.as_secs()
                    ),
                ));
            }
            Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
                return Err(ApiError::too_large(BODY_MAX));
            }
            Ok(Err(_)) => return Err(ApiError::bad_request("the body could not be read")),
            Ok(Ok(collected)) => collected.to_bytes(),
        };
        if !body.is_empty() && !is_json {
            return Err(ApiError::bad_request(
                "a body must be JSON, sent with Content-Type: application/json",
            ));
        }
        Ok(JsonBody(body))
    }
}

/// A JSON reply with this status.
pub fn json(status: StatusCode, body: impl Into<Body>) -> Response {
    let mut response = (status, body.into()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
