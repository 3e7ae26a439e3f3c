//! The browser page, embedded in the binary from `page/`: one HTML file
//! for every page path, and its styles and JavaScript modules under
//! `/page/`.

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

const INDEX: &str = include_str!("../page/index.html");

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The files under `/page/`: name, content type, content.
const ASSETS: [(&str, &str, &str); 16] = [
    ("style.css", CSS, include_str!("../page/style.css")),
    ("app.js", JS, include_str!("../page/app.js")),
    ("api.js", JS, include_str!("../page/api.js")),
    ("board.js", JS, include_str!("../page/board.js")),
    ("dom.js", JS, include_str!("../page/dom.js")),
    ("games.js", JS, include_str!("../page/games.js")),
    ("game-senet.js", JS, include_str!("../page/game-senet.js")),
    ("game-ur.js", JS, include_str!("../page/game-ur.js")),
    ("people.js", JS, include_str!("../page/people.js")),
    ("play.js", JS, include_str!("../page/play.js")),
    ("review.js", JS, include_str!("../page/review.js")),
    ("start.js", JS, include_str!("../page/start.js")),
    ("teach.js", JS, include_str!("../page/teach.js")),
    ("words.js", JS, include_str!("../page/words.js")),
    (
        "icon.svg",
        "image/svg+xml",
        include_str!("../page/icon.svg"),
    ),
    // The tab's icon while it is the viewer's turn.
    (
        "icon-turn.svg",
        "image/svg+xml",
        include_str!("../page/icon-turn.svg"),
    ),
];

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

/// `GET /`, `GET /g/{id}` and `GET /g/{id}/review`: the page.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

/// The page with another status than 200: what a browser is shown for a
/// game or a path that is not there (the page then says so itself).
pub fn index_with(status: StatusCode) -> Response {
    let mut response = file("text/html; charset=utf-8", INDEX);
    *response.status_mut() = status;
    response
}

/// Whether a request asks for HTML (`Accept: text/html`, as a browser
/// opening an address does), rather than the API's JSON.
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|kind| kind.split(';').next())
        .any(|kind| kind.trim().eq_ignore_ascii_case("text/html"))
}

/// `GET /page/{file}`: a style sheet, script or icon of the page.
///
/// # Errors
///
/// 404 `not_found` for a name the page does not have.
pub async fn asset(Path(name): Path<String>) -> Result<Response, ApiError> {
    ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, kind, body)| file(kind, body))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "the page has no such file",
            )
        })
}
