//! `race selfplay`: bot against bot.

use dice_core::Seed;
use race_games::RaceGame;

use super::variant;
use crate::error::{Outcome, Refused};
use crate::{cli, emit, engine, input, selfplay};

pub(crate) fn selfplay_cmd<G: RaceGame>(a: &cli::SelfplayArgs) -> Outcome {
    let variant = variant::<G>(a.rules.as_deref())?;
    let light = engine::bot::<G>(&a.light, &variant, "--light", a.table.as_deref())?;
    let dark = engine::bot::<G>(&a.dark, &variant, "--dark", a.table.as_deref())?;
    let seed = Seed::new(a.seed.as_bytes())
        .map_err(|e| Refused::new("--seed", "seed", e.to_string()).why(e.code()))?;
    let run = selfplay::Run::<G> {
        variant,
        games: a.games,
        light,
        dark,
        seed,
        records: a.records.as_deref(),
    };
    if let Some(dir) = run.records {
        selfplay::claim_records::<G>(dir, run.games, a.force, |dir| {
            eprintln!("race: --records: made the folder {}", dir.display());
        })?;
    }
    let summary = selfplay::run::<G>(&run)?;
    if a.json {
        emit(&format!("{summary}\n"))
    } else {
        emit(&selfplay::text(
            &summary,
            G::WORDS.capture,
            &input::shown(&run.seed),
        ))
    }
}
