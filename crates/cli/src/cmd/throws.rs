//! `race throws`: a seed's throws.

use race_games::RaceGame;

use super::variant;
use crate::error::{Failure, Outcome};
use crate::{cli, emit, input, query};

/// The most throws one `race throws` gives.
pub(crate) const THROWS_MAX: u64 = 1_000_000;

pub(crate) fn throws_cmd<G: RaceGame>(a: &cli::ThrowsArgs) -> Outcome {
    let variant = variant::<G>(a.rules.as_deref())?;
    let Some(given) = input::seed(a.seed.seed.as_deref(), a.seed.seed_hex.as_deref())? else {
        return Err(Failure::usage(
            "throws",
            "a seed is needed: --seed TEXT or --seed-hex HEX",
        ));
    };
    if a.count > THROWS_MAX {
        return Err(Failure::usage(
            "--count",
            format!("at most {THROWS_MAX} throws at a time, not {}", a.count),
        ));
    }
    // Past the last number is out of range, as soak's --games is.
    let numbers = query::numbered(a.from, a.count).map_err(|there| {
        Failure::usage(
            "--count",
            format!(
                "the throws from {} run out at the last number, {}: there are {there}, not {}",
                a.from,
                u64::MAX,
                a.count
            ),
        )
    })?;
    emit(&query::throws::<G>(&variant, &given.seed, numbers, a.json))
}
