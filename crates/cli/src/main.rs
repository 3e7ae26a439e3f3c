//! `race`: the command-line front end for the Royal Game of Ur and Senet.
//!
//! Exit codes: 0 success, 1 the input was refused, 2 a usage error.

#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod bench;
mod cli;
mod engine;
mod error;
mod help;
mod input;
mod output;
mod play;
mod query;
mod render;
mod selfplay;
mod serve;
mod soak;
mod solver;
mod style;
mod tables;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{CommandFactory, FromArgMatches};
use dice_core::{Game, Seed, Side, record_rules};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use race_games::{Bot, Kind, RaceGame, for_kind};
use serde_json::{Map, Value, json};

use crate::cli::{Cli, Command};
use crate::error::{Failure, Outcome, Refused};
use crate::play::record::RecordFile;
use crate::style::Style;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("race: internal error{at}; please report it with the command that caused it");
    }));
    let command = help::command();
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) if e.exit_code() == 0 => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let failure = clap_failure(&e);
            if std::env::args_os().any(|a| a == "--json")
                && let Some(value) = failure.to_json()
            {
                let _ = emit(&format!("{value}\n"));
            }
            eprintln!("race: {failure}");
            return ExitCode::from(2);
        }
    };
    let json = wants_json(&cli.command);
    let outcome = std::panic::catch_unwind(move || run(cli.command));
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure::Io(e))) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Ok(Err(failure)) => {
            if json && let Some(value) = failure.to_json() {
                let _ = emit(&format!("{value}\n"));
            }
            eprintln!("race: {failure}");
            ExitCode::from(match failure {
                Failure::Usage { .. } => 2,
                Failure::Interrupted(sig) => u8::try_from(128 + sig).unwrap_or(1),
                _ => 1,
            })
        }
        Err(_) => ExitCode::from(70),
    }
}

/// A usage error clap found, as one line in the style of every other:
/// where (the option, or the command), what clap says (with its tip, or
/// the values there are), and the help to read.
fn clap_failure(e: &clap::Error) -> Failure {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let command = Cli::command();
    let sub = std::env::args()
        .nth(1)
        .filter(|name| command.find_subcommand(name).is_some());
    let help = match &sub {
        Some(name) => format!("race {name} --help lists its options"),
        None => "race --help lists the commands".to_owned(),
    };
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        return Failure::usage(
            "",
            format!("a command is needed: {}; {help}", names.join(", ")),
        );
    }
    // clap's sentence, the lines that go on with it (the arguments missing,
    // the values there are) and its tips, up to its usage lines.
    let rendered = e.render().to_string();
    let mut said = String::new();
    let mut tips = Vec::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        match line.strip_prefix("tip: ") {
            Some(tip) => tips.push(tip.to_owned()),
            None if !line.is_empty() => {
                if !said.is_empty() {
                    said.push(' ');
                }
                said.push_str(line.strip_prefix("error: ").unwrap_or(line));
            }
            None => {}
        }
    }
    tips.push(help);
    let input = match e
        .get(ContextKind::InvalidArg)
        .or_else(|| e.get(ContextKind::InvalidSubcommand))
    {
        Some(ContextValue::String(arg)) => arg
            .split(' ')
            .next()
            .unwrap_or(arg)
            .trim_matches(['[', ']', '<', '>'])
            .to_owned(),
        _ => sub.unwrap_or_default(),
    };
    Failure::usage(input, format!("{said}; {}", tips.join("; ")))
}

fn wants_json(command: &Command) -> bool {
    match command {
        Command::Replay(a) => a.json,
        Command::Moves(a) => a.json,
        Command::Position(a) => a.json,
        Command::Throws(a) => a.json,
        Command::Perft(a) => a.json,
        Command::Bot(a) => a.json,
        Command::Selfplay(a) => a.json,
        Command::Solve(a) => a.json,
        Command::Tables(a) => a.json,
        Command::Table(a) => match &a.action {
            cli::TableAction::Export(e) => e.json,
            cli::TableAction::Import(i) => i.json,
        },
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

fn run(command: Command) -> Outcome {
    match command {
        Command::Play(a) => play(&a),
        Command::Replay(a) => replay_cmd(&a),
        Command::Moves(a) => for_kind!(Kind::from(a.at.game), G => moves_cmd::<G>(&a)),
        Command::Position(a) => for_kind!(Kind::from(a.game), G => position_cmd::<G>(&a)),
        Command::Throws(a) => for_kind!(Kind::from(a.game), G => throws_cmd::<G>(&a)),
        Command::Perft(a) => for_kind!(Kind::from(a.game), G => perft_cmd::<G>(&a)),
        Command::Bot(a) => for_kind!(Kind::from(a.at.game), G => bot_cmd::<G>(&a)),
        Command::Selfplay(a) => for_kind!(Kind::from(a.game), G => selfplay_cmd::<G>(&a)),
        Command::Bench(a) => bench_cmd(&a),
        Command::Soak(a) => for_kind!(Kind::from(a.game), G => soak_cmd::<G>(&a)),
        Command::Solve(a) => solver::solve_cmd(&a),
        Command::Tables(a) => tables::tables_cmd(&a),
        Command::Table(a) => tables::table_cmd(&a),
        Command::Analyse(a) => solver::analyse_cmd(&a),
        Command::Serve(a) => serve::serve_cmd(&a),
        Command::Loadtest(a) => serve::loadtest_cmd(&a),
    }
}

fn variant<G: RaceGame>(rules: Option<&str>) -> Result<G::Variant, Refused> {
    engine::parse_variant::<G>(rules, "--rules")
}

/// `race play`: the game named, or the record's with `--resume`.
fn play(a: &cli::PlayArgs) -> Outcome {
    let resumed = match &a.resume {
        Some(path) => Some(input::read_text(&path.display().to_string())?),
        None => None,
    };
    let game = match (a.game, &resumed) {
        (Some(game), _) => Kind::from(game),
        (None, Some((name, text))) => recognise(text, name)?,
        (None, None) => {
            return Err(Failure::usage(
                "play",
                "name a game (ur or senet), or --resume FILE",
            ));
        }
    };
    for_kind!(game, G => play_cmd::<G>(a, resumed.as_ref()))
}

fn play_cmd<G>(a: &cli::PlayArgs, resumed: Option<&(String, String)>) -> Outcome
where
    G: RaceGame,
    Bot<G>: Send,
    G::Move: Send,
    Game<G>: Send,
{
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let opts = |bot| play::Options::<G> {
        mode: if a.watch {
            play::Mode::Watch
        } else if a.hotseat {
            play::Mode::Hotseat
        } else {
            play::Mode::Bot
        },
        human: a.side.map_or(Side::Light, Side::from),
        bot,
        table: a.table.clone(),
        first: a.first.map(Side::from),
        style: Style::for_stdout(a.ascii, a.no_color),
        pace: Duration::from_millis(a.pace.unwrap_or(if terminal { play::PACE_MS } else { 0 })),
    };
    let claim = |path: &std::path::Path| RecordFile::claim(path, a.force, "--record");
    let session = match (resumed, &a.resume) {
        (Some((name, text)), Some(from)) => {
            let game = query::replay::<G>(name, text, None)?;
            let bot = engine::bot::<G>(&a.level, game.variant(), "--level", a.table.as_deref())?;
            let elsewhere = a
                .record
                .as_deref()
                .filter(|path| !same_file(path, from))
                .map(claim)
                .transpose()?;
            let record = elsewhere
                .clone()
                .unwrap_or_else(|| RecordFile::resumed(from, game.log().len(), game.is_over()));
            let session = play::Session::resume(opts(bot), game, name, Some(record))?;
            if elsewhere.is_some() {
                session.write_record()?;
            }
            session
        }
        _ => {
            let variant = variant::<G>(a.rules.as_deref())?;
            let bot = engine::bot::<G>(&a.level, &variant, "--level", a.table.as_deref())?;
            let seed = match input::seed(a.seed.seed.as_deref(), a.seed.seed_hex.as_deref())? {
                Some(seed) => seed,
                None => input::GivenSeed::made(play::fresh_seed()),
            };
            let record = a.record.as_deref().map(claim).transpose()?;
            play::Session::start(opts(bot), variant, seed, record)?
        }
    };
    if terminal && !a.plain {
        return play::screen::run(session);
    }
    play::on_signals(|sig| {
        let _held = output::hold_writes();
        // The terminal may be gone (SIGHUP): a failed write is no matter.
        let _ = writeln!(std::io::stderr(), "race: {}", Failure::Interrupted(sig));
        std::process::exit(128 + sig);
    })?;
    let stdin = std::io::stdin();
    let input = play::lines::Input::new(stdin.lock(), stdin.is_terminal());
    let live = std::io::stdout().is_terminal();
    play::lines::run(session, input, &mut std::io::stdout().lock(), live)
}

/// Whether two paths name the same file (the same path, or the same file
/// reached another way).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// Which game a record is, from its rules line, after the checks every
/// record passes first (`empty`, `no_newline`, the shape of line 1).
fn recognise(text: &str, name: &str) -> Result<Kind, Refused> {
    let rules = record_rules(text).map_err(|e| query::record_refusal(name, &e))?;
    race_games::kind_of_rules_line(rules).ok_or_else(|| {
        let names: Vec<String> = Kind::ALL
            .into_iter()
            .map(|kind| for_kind!(kind, G => words_list(&race_games::record_names::<G>())))
            .collect();
        Refused::new(
            name,
            "bad_record",
            format!(
                "line 1 names no rule set of either game: {rules:?} (the names are {}, or every \
                 field spelled out in order; give --game to hear what one game makes of it)",
                names.join(", ")
            ),
        )
        .why("rules")
        .line(1)
    })
}

/// Names in a list: `a, b and c`.
fn words_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn replay_cmd(a: &cli::ReplayArgs) -> Outcome {
    let (name, text) = input::read_text(&a.file)?;
    let game = match a.game {
        Some(g) => Kind::from(g),
        None => recognise(&text, &name)?,
    };
    for_kind!(game, G => replay_game::<G>(a, &name, &text))
}

fn replay_game<G: RaceGame>(a: &cli::ReplayArgs, name: &str, text: &str) -> Outcome {
    let game = query::replay::<G>(name, text, a.rules.as_deref())?;
    if a.json {
        emit(&format!("{}\n", query::game_json(&game)))
    } else {
        emit(&query::replay_text(
            &game,
            &Style::for_stdout(a.ascii, false),
        ))
    }
}

/// The rules, position and roll a question is about, each checked.
fn at<G: RaceGame>(a: &cli::RollArgs) -> Outcome<(G::Variant, G::Position, u8)> {
    let variant = variant::<G>(a.rules.as_deref())?;
    let position = query::position_or_start::<G>(a.position.as_deref(), &variant)?;
    let roll = query::check_roll::<G>(&variant, a.roll)?;
    Ok((variant, position, roll))
}

fn moves_cmd<G: RaceGame>(a: &cli::MovesArgs) -> Outcome {
    let (variant, position, roll) = at::<G>(&a.at)?;
    emit(&query::moves::<G>(&variant, &position, roll, a.json))
}

fn position_cmd<G: RaceGame>(a: &cli::PositionArgs) -> Outcome {
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

/// The most throws one `race throws` gives.
const THROWS_MAX: u64 = 1_000_000;

fn throws_cmd<G: RaceGame>(a: &cli::ThrowsArgs) -> Outcome {
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

fn perft_cmd<G: RaceGame>(a: &cli::PerftArgs) -> Outcome {
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

fn bot_cmd<G: RaceGame>(a: &cli::BotArgs) -> Outcome {
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

fn selfplay_cmd<G: RaceGame>(a: &cli::SelfplayArgs) -> Outcome {
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

fn soak_cmd<G: RaceGame>(a: &cli::SoakArgs) -> Outcome {
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

fn bench_cmd(a: &cli::BenchArgs) -> Outcome {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        return Err(Failure::usage(
            "--seconds",
            format!(
                "a measurement lasts more than 0 and at most 3600 seconds, not {}",
                a.seconds
            ),
        ));
    }
    let budget = Duration::from_secs_f64(a.seconds);
    let games = match a.game {
        Some(g) => vec![Kind::from(g)],
        None => Kind::ALL.to_vec(),
    };
    emit(&format!(
        "{} cores; figures for one core, {:.2} s a measurement\n",
        std::thread::available_parallelism().map_or(1, usize::from),
        a.seconds
    ))?;
    for g in games {
        let text = for_kind!(g, G => bench::report::<G>(budget));
        emit(&text)?;
    }
    Ok(())
}
