//! `race`: the command-line front end for the Royal Game of Ur and Senet.
//!
//! Exit codes: 0 success, 1 the input was refused, 2 a usage error.

#![forbid(unsafe_code)]
#![allow(
    clippy::indexing_slicing,
    reason = "a front end's indexes are bounded by what they index (a move picked below the count of legal moves, a log cut at its length) or are JSON values, which give null for what is missing"
)]

mod bench;
mod cli;
mod cmd;
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

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};
use crate::error::{Failure, Outcome};

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
    let outcome = std::panic::catch_unwind(move || cmd::run(cli.command));
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
