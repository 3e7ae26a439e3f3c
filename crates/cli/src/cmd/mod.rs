//! One module a subcommand: each reads its arguments, asks the engine
//! layer (`race-games`, through `crate::engine` and `crate::query`) and
//! writes its answer. `solve`, `analyse`, `tables`, `table`, `serve` and
//! `loadtest` live in `crate::solver`, `crate::tables` and `crate::serve`.

mod bench;
mod bot;
mod moves;
mod perft;
mod play;
mod position;
mod replay;
mod selfplay;
mod soak;
mod throws;

use race_games::{Kind, RaceGame, for_kind};

pub(crate) use self::replay::recognise;

use crate::cli::{self, Command};
use crate::error::{Outcome, Refused};
use crate::{engine, query, serve, solver, tables};

/// Runs a command line's subcommand.
pub(crate) fn run(command: Command) -> Outcome {
    match command {
        Command::Play(a) => play::play(&a),
        Command::Replay(a) => replay::replay_cmd(&a),
        Command::Moves(a) => for_kind!(Kind::from(a.at.game), G => moves::moves_cmd::<G>(&a)),
        Command::Position(a) => for_kind!(Kind::from(a.game), G => position::position_cmd::<G>(&a)),
        Command::Throws(a) => for_kind!(Kind::from(a.game), G => throws::throws_cmd::<G>(&a)),
        Command::Perft(a) => for_kind!(Kind::from(a.game), G => perft::perft_cmd::<G>(&a)),
        Command::Bot(a) => for_kind!(Kind::from(a.at.game), G => bot::bot_cmd::<G>(&a)),
        Command::Selfplay(a) => for_kind!(Kind::from(a.game), G => selfplay::selfplay_cmd::<G>(&a)),
        Command::Bench(a) => bench::bench_cmd(&a),
        Command::Soak(a) => for_kind!(Kind::from(a.game), G => soak::soak_cmd::<G>(&a)),
        Command::Solve(a) => solver::solve_cmd(&a),
        Command::Tables(a) => tables::tables_cmd(&a),
        Command::Table(a) => tables::table_cmd(&a),
        Command::Analyse(a) => solver::analyse_cmd(&a),
        Command::Serve(a) => serve::serve_cmd(&a),
        Command::Loadtest(a) => serve::loadtest_cmd(&a),
    }
}

/// The rules a command names with `--rules`, or the game's default.
pub(crate) fn variant<G: RaceGame>(rules: Option<&str>) -> Result<G::Variant, Refused> {
    engine::parse_variant::<G>(rules, "--rules")
}

/// The rules, position and roll a question is about, each checked.
pub(crate) fn at<G: RaceGame>(a: &cli::RollArgs) -> Outcome<(G::Variant, G::Position, u8)> {
    let variant = variant::<G>(a.rules.as_deref())?;
    let position = query::position_or_start::<G>(a.position.as_deref(), &variant)?;
    let roll = query::check_roll::<G>(&variant, a.roll)?;
    Ok((variant, position, roll))
}
