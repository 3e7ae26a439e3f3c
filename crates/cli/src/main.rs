//! `race`: the command-line front end for the Royal Game of Ur and Senet.
//!
//! Exit codes: 0 success, 1 the input was refused, 2 a usage error.

#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod bench;
mod cli;
mod engine;
mod error;
mod input;
mod play;
mod query;
mod selfplay;
mod senet;
mod serve;
mod soak;
mod solver;
mod style;
mod ur;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use dice_core::{Seed, Side};
use royal_ur::Ur;

use crate::cli::{Cli, Command, GameName};
use crate::engine::Engine;
use crate::error::{Failure, Outcome, Refused};
use crate::style::Style;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("race: internal error{at}; please report it with the command that caused it");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return ExitCode::from(u8::try_from(code).unwrap_or(2));
        }
    };
    let json = wants_json(&cli.command);
    let outcome = std::panic::catch_unwind(move || run(cli.command));
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure::Refused(r))) => {
            if json {
                let _ = emit(&format!("{}\n", r.to_json()));
            }
            eprintln!("race: {r}");
            ExitCode::from(1)
        }
        Ok(Err(Failure::Usage(message))) => {
            eprintln!("race: {message}");
            ExitCode::from(2)
        }
        Ok(Err(Failure::Io(e))) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Ok(Err(Failure::Io(e))) => {
            eprintln!("race: output: {}", input::io_words(&e));
            ExitCode::from(1)
        }
        Err(_) => ExitCode::from(70),
    }
}

fn wants_json(command: &Command) -> bool {
    match command {
        Command::Replay(a) => a.json,
        Command::Moves(a) => a.json,
        Command::Position(a) => a.json,
        Command::Throws(a) => a.json,
        Command::Selfplay(a) => a.json,
        Command::Solve(a) => a.json,
        Command::Analyse(a) => a.json,
        _ => false,
    }
}

/// Writes to standard output; a closed pipe is not an error worth a word.
fn emit(text: &str) -> Outcome {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::Io(e)),
        _ => Ok(()),
    }
}

/// Runs a generic command for the game named.
macro_rules! for_game {
    ($game:expr, $f:ident ( $($arg:expr),* )) => {
        match $game {
            GameName::Ur => $f::<Ur>($($arg),*),
            GameName::Senet => $f::<::senet::Senet>($($arg),*),
        }
    };
}

fn run(command: Command) -> Outcome {
    match command {
        Command::Play(a) => for_game!(a.game, play_cmd(&a)),
        Command::Replay(a) => replay_cmd(&a),
        Command::Moves(a) => for_game!(a.game, moves_cmd(&a)),
        Command::Position(a) => for_game!(a.game, position_cmd(&a)),
        Command::Throws(a) => for_game!(a.game, throws_cmd(&a)),
        Command::Perft(a) => for_game!(a.game, perft_cmd(&a)),
        Command::Selfplay(a) => for_game!(a.game, selfplay_cmd(&a)),
        Command::Bench(a) => bench_cmd(&a),
        Command::Soak(a) => for_game!(a.game, soak_cmd(&a)),
        Command::Solve(a) => solver::solve_cmd(&a),
        Command::Analyse(a) => solver::analyse_cmd(&a),
        Command::Serve(a) => serve::serve_cmd(&a),
        Command::Loadtest(a) => serve::loadtest_cmd(&a),
    }
}

fn variant<E: Engine>(rules: Option<&str>) -> Result<E::Variant, Refused> {
    match rules {
        Some(text) => E::parse_variant(text, "--rules"),
        None => Ok(E::default_variant()),
    }
}

fn play_cmd<E: Engine>(a: &cli::PlayArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let bot = E::bot_with_table(&a.level, &variant, "--level", a.table.as_deref())?;
    let seed = match input::seed(a.seed.seed.as_deref(), a.seed.seed_hex.as_deref())? {
        Some(seed) => seed,
        None => play::fresh_seed(),
    };
    let mode = if a.watch {
        play::Mode::Watch
    } else if a.hotseat {
        play::Mode::Hotseat
    } else {
        play::Mode::Bot
    };
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let pace = Duration::from_millis(a.pace.unwrap_or(if terminal { 400 } else { 0 }));
    let opts = play::Options::<E> {
        variant,
        mode,
        human: Side::from(a.side),
        bot,
        table: a.table.clone(),
        first: a.first.map(Side::from),
        seed,
        record: a.record.clone(),
        style: Style::for_stdout(a.ascii, a.no_color),
        pace,
        live: terminal,
    };
    let mut out = std::io::stdout().lock();
    if terminal && !a.lines && mode != play::Mode::Watch {
        return play::run(opts, &mut play::Keys, &mut out);
    }
    let stdin = std::io::stdin();
    let mut lines = play::Lines(stdin.lock());
    play::run(opts, &mut lines, &mut out)
}

/// Which game a record is, from its rules line.
fn recognise(text: &str, name: &str) -> Result<GameName, Refused> {
    let first = text.lines().next().unwrap_or("");
    let rules = first
        .strip_prefix("[rules ")
        .and_then(|r| r.strip_suffix(']'));
    let refused = || {
        Refused::new(
            name,
            "bad_record",
            "the first line is not a rules line of either game (give --game)",
        )
        .why("rules")
        .line(1)
    };
    let rules = rules.ok_or_else(refused)?;
    if Ur::parse_variant(rules, name).is_ok() {
        Ok(GameName::Ur)
    } else if <::senet::Senet as Engine>::parse_variant(rules, name).is_ok() {
        Ok(GameName::Senet)
    } else {
        Err(refused())
    }
}

fn replay_cmd(a: &cli::ReplayArgs) -> Outcome {
    let (name, text) = input::read_text(&a.file)?;
    let game = match a.game {
        Some(g) => g,
        None => recognise(&text, &name)?,
    };
    for_game!(game, replay_game(a, &name, &text))
}

fn replay_game<E: Engine>(a: &cli::ReplayArgs, name: &str, text: &str) -> Outcome {
    let game = query::replay::<E>(name, text, a.rules.as_deref())?;
    if a.json {
        emit(&format!("{}\n", query::game_json(&game)))
    } else {
        emit(&query::replay_text(
            &game,
            &Style::for_stdout(a.ascii, false),
        ))
    }
}

fn moves_cmd<E: Engine>(a: &cli::MovesArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let position = query::position_or_start::<E>(a.position.as_deref(), &variant)?;
    let roll = query::check_roll::<E>(a.roll)?;
    emit(&query::moves::<E>(&variant, &position, roll, a.json))
}

fn position_cmd<E: Engine>(a: &cli::PositionArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let position = E::parse_position(&a.position, &variant, "--position")?;
    emit(&query::position::<E>(
        &variant,
        &position,
        a.json,
        &Style::for_stdout(a.ascii, false),
    ))
}

const THROWS_MAX: u64 = 1_000_000;

fn throws_cmd<E: Engine>(a: &cli::ThrowsArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let Some(seed) = input::seed(a.seed.seed.as_deref(), a.seed.seed_hex.as_deref())? else {
        return Err(Failure::Usage(
            "throws needs a seed: --seed TEXT or --seed-hex HEX".to_owned(),
        ));
    };
    if a.count > THROWS_MAX {
        return Err(Refused::new(
            "--count",
            "count",
            format!(
                "{} throws is more than the {THROWS_MAX} one call gives",
                a.count
            ),
        )
        .into());
    }
    emit(&query::throws::<E>(
        &variant, &seed, a.from, a.count, a.json,
    ))
}

fn perft_cmd<E: Engine>(a: &cli::PerftArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let position = query::position_or_start::<E>(a.position.as_deref(), &variant)?;
    if a.depth > 64 {
        return Err(Refused::new("--depth", "depth", "a depth above 64 would never finish").into());
    }
    emit(&format!(
        "{}\n",
        query::perft_count::<E>(&variant, &position, a.depth)
    ))
}

fn selfplay_cmd<E: Engine>(a: &cli::SelfplayArgs) -> Outcome {
    let variant = variant::<E>(a.rules.as_deref())?;
    let light = E::bot_with_table(&a.light, &variant, "--light", a.table.as_deref())?;
    let dark = E::bot_with_table(&a.dark, &variant, "--dark", a.table.as_deref())?;
    let seed = Seed::new(a.seed.as_bytes())
        .map_err(|e| Refused::new("--seed", "seed", e.to_string()).why(e.code()))?;
    let run = selfplay::Run::<E> {
        variant,
        games: a.games,
        light,
        dark,
        seed,
        records: a.records.as_deref(),
    };
    let summary = selfplay::run::<E>(&run)?;
    if a.json {
        emit(&format!("{summary}\n"))
    } else {
        emit(&selfplay::text(&summary, E::CAPTURE_WORD))
    }
}

fn soak_cmd<E: soak::Soak>(a: &cli::SoakArgs) -> Outcome {
    let variants = if a.rules.is_empty() {
        E::named_variants()
    } else {
        a.rules
            .iter()
            .map(|r| E::parse_variant(r, "--rules"))
            .collect::<Result<Vec<_>, _>>()?
    };
    let seed = Seed::new(a.seed.as_bytes())
        .map_err(|e| Refused::new("--seed", "seed", e.to_string()).why(e.code()))?;
    let (totals, failures) = soak::soak::<E>(&variants, &seed, a.from, a.games);
    emit(&totals)?;
    if failures > 0 {
        return Err(Refused::new(
            "soak",
            "invariant",
            format!("{failures} games broke an invariant (each named above)"),
        )
        .into());
    }
    Ok(())
}

fn bench_cmd(a: &cli::BenchArgs) -> Outcome {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        return Err(Refused::new(
            "--seconds",
            "seconds",
            "give a number of seconds above 0 and at most 3600",
        )
        .into());
    }
    let budget = Duration::from_secs_f64(a.seconds);
    let games = match a.game {
        Some(g) => vec![g],
        None => vec![GameName::Ur, GameName::Senet],
    };
    emit(&format!(
        "{} cores; figures for one core, {:.2} s a measurement\n",
        std::thread::available_parallelism().map_or(1, usize::from),
        a.seconds
    ))?;
    for g in games {
        let text = match g {
            GameName::Ur => bench::report::<Ur>(budget),
            GameName::Senet => bench::report::<::senet::Senet>(budget),
        };
        emit(&text)?;
    }
    Ok(())
}
