//! The browser page, embedded in the binary from `page/`.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");

fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /` and `GET /g/{id}`: the page.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /style.css`.
pub async fn style() -> Response {
    file("text/css; charset=utf-8", STYLE)
}
