//! `race soak`: seeded games of random legal moves, every invariant
//! checked.

use dice_core::Seed;
use race_games::RaceGame;

use super::variant;
use crate::error::{Failure, Outcome, Refused};
use crate::{cli, emit, query, soak};

pub(crate) fn soak_cmd<G: RaceGame>(a: &cli::SoakArgs) -> Outcome {
    let variants = if a.rules.is_empty() {
        G::PRESETS
            .iter()
            .filter(|p| p.reference)
            .map(|p| p.variant.clone())
            .collect()
    } else {
        a.rules
            .iter()
            .map(|r| variant::<G>(Some(r)))
            .collect::<Result<Vec<_>, _>>()?
    };
    let seed = Seed::new(a.seed.as_bytes())
        .map_err(|e| Refused::new("--seed", "seed", e.to_string()).why(e.code()))?;
    if let Err(there) = query::numbered(a.from, a.games) {
        return Err(Failure::usage(
            "--games",
            format!(
                "the games from index {} run out at the last index, {}: there are {there}, not {}",
                a.from,
                u64::MAX,
                a.games
            ),
        ));
    }
    let (totals, failures) = soak::soak::<G>(&variants, &seed, a.from, a.games);
    emit(&totals)?;
    if failures > 0 {
        return Err(Refused::new(
            "soak",
            "invariant",
            format!(
                "{failures} games broke an invariant (the first of each rule set are named above)"
            ),
        )
        .into());
    }
    Ok(())
}
