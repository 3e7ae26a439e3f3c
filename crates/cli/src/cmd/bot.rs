//! `race bot`: what the bot of a level plays.

use race_games::RaceGame;
use serde_json::{Map, Value};

use super::at;
use crate::error::{Outcome, Refused};
use crate::{cli, emit, engine, query};

pub(crate) fn bot_cmd<G: RaceGame>(a: &cli::BotArgs) -> Outcome {
    let (variant, position, roll) = at::<G>(&a.at)?;
    let bot = engine::bot::<G>(&a.level, &variant, "--level", a.table.as_deref())?;
    let thought = bot
        .think(&variant, &position, roll)
        .map_err(|e| Refused::new("--table", e.code(), e.to_string()))?
        .and_then(|t| match serde_json::to_value(t) {
            Ok(Value::Object(fields)) => Some(fields),
            _ => None,
        });
    if a.json {
        let mut value = Map::new();
        value.insert("ok".to_owned(), Value::Bool(true));
        match thought {
            Some(fields) => value.extend(fields),
            None => {
                value.insert("move".to_owned(), Value::Null);
            }
        }
        return emit(&format!("{}\n", Value::Object(value)));
    }
    emit(&query::thought_text(
        G::side(&position),
        roll,
        thought.as_ref(),
    ))
}
