//! `race position`: a position string checked and drawn.

use race_games::RaceGame;

use super::variant;
use crate::error::Outcome;
use crate::style::Style;
use crate::{cli, emit, engine, query};

pub(crate) fn position_cmd<G: RaceGame>(a: &cli::PositionArgs) -> Outcome {
    let variant = variant::<G>(a.rules.as_deref())?;
    let position = engine::parse_position::<G>(&a.position, &variant, "--position")?;
    if let Some(refused) = query::inconsistency::<G>(&a.position, &variant, &position) {
        return Err(refused
            .report(query::position_fields::<G>(&variant, &position))
            .into());
    }
    emit(&query::position::<G>(
        &variant,
        &position,
        a.json,
        &Style::for_stdout(a.ascii, false),
    ))
}
