//! `race moves`: the legal moves for a position and a roll.

use race_games::RaceGame;

use super::at;
use crate::error::Outcome;
use crate::{cli, emit, query};

pub(crate) fn moves_cmd<G: RaceGame>(a: &cli::MovesArgs) -> Outcome {
    let (variant, position, roll) = at::<G>(&a.at)?;
    emit(&query::moves::<G>(&variant, &position, roll, a.json))
}
