//! The endpoints the page reads beside the contract's: the rule sets on
//! offer (`GET /api/rules`), one rule set with its board
//! (`GET /api/rules/{game}?rules=TEXT`), and a game told ply by ply with
//! its analysis once over (`GET /api/games/{id}/plies[?from=N]`).
//! `docs/server.md` describes the replies.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::edge::{App, GameSlot, json};
use crate::error::ApiError;
use race_games::{Analysis, AnyVariant, Kind, PlyView, Point};
use serde::Serialize;

fn to_json(status: StatusCode, value: &impl serde::Serialize) -> Result<Response, ApiError> {
    let body = serde_json::to_vec(value)
        .map_err(|e| ApiError::internal(format!("the reply cannot be written: {e}")))?;
    Ok(json(status, body))
}

/// `GET /api/rules`: both games' named rule sets, custom fields, bot
/// levels, and the rule sets with a solved table.
pub async fn catalogue(State(app): State<App>) -> Result<Response, ApiError> {
    to_json(StatusCode::OK, &race_games::catalogue(&app.hub.tables()))
}

/// The query of `GET /api/rules/{game}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesQuery {
    rules: Option<String>,
}

/// `GET /api/rules/{game}?rules=TEXT`: the rule set `TEXT` names (the
/// game's default without it), its board, and whether a table is given
/// for it; 400 `bad_request` naming what is wrong with the text.
pub async fn rule_set(
    State(app): State<App>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<RulesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Ok(Path(word)) = path else {
        return Err(ApiError::bad_request("the path names no game"));
    };
    let game = Kind::from_exact_word(&word).ok_or_else(|| {
        ApiError::bad_request(format!(
            "there is no game {word:?}; the games are \"ur\" and \"senet\""
        ))
    })?;
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let rules = AnyVariant::read(game, query.rules.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    to_json(StatusCode::OK, &rules.view(&app.hub.tables()))
}

/// The query of `GET /api/games/{id}/plies`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PliesQuery {
    from: Option<u32>,
}

/// `GET /api/games/{id}/plies[?from=N]`: the start position and every ply
/// from `N` on (all by default), each with what it did and the position
/// after; for a finished Royal Game of Ur game whose rule set has a table,
/// the analysis too.
pub async fn plies(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    query: Result<Query<PliesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let game = slot.game().await;
    let tables = app.hub.tables();
    let from = query.from.map_or(0, |n| n as usize);
    // The table is memory-mapped: its pages are read on a blocking thread.
    let told = tokio::task::spawn_blocking(move || {
        let story = game.story(from);
        game.analysis(&tables).map(|analysis| Told {
            start: story.start,
            plies: story.plies,
            analysis,
        })
    })
    .await
    .map_err(|e| ApiError::internal(format!("telling the game failed: {e}")))?
    .map_err(|e| ApiError::internal(format!("the game cannot be analysed: {e}")))?;
    to_json(StatusCode::OK, &told)
}

/// The reply of `GET /api/games/{id}/plies`.
#[derive(Serialize)]
struct Told {
    start: Point,
    plies: Vec<PlyView>,
    analysis: Option<Analysis>,
}
