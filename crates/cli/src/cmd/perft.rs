//! `race perft`: the game tree counted.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use race_games::RaceGame;
use serde_json::json;

use super::variant;
use crate::error::Outcome;
use crate::{cli, emit, query};

pub(crate) fn perft_cmd<G: RaceGame>(a: &cli::PerftArgs) -> Outcome {
    let variant = variant::<G>(a.rules.as_deref())?;
    let position = query::position_or_start::<G>(a.position.as_deref(), &variant)?;
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let bar = ProgressBar::hidden();
    let leaves = query::perft_count::<G>(&variant, &position, a.depth, |done, parts| {
        if terminal && bar.is_hidden() && started.elapsed() >= Duration::from_secs(1) {
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "depth {}: {{bar:30}} {{pos}}/{{len}} branches  eta {{eta}}",
                a.depth
            )) {
                bar.set_style(style);
            }
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_length(parts as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    if a.json {
        return emit(&format!(
            "{}\n",
            json!({
                "ok": true,
                "game": G::GAME,
                "rules": variant.to_string(),
                "position": position.to_string(),
                "depth": a.depth,
                "leaves": leaves,
            })
        ));
    }
    emit(&format!("depth {}: {leaves} leaves\n", a.depth))
}
