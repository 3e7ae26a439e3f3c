//! The help the command line gives of what the games' catalogue holds:
//! each game's presets, with a line about each, under `race play --help`,
//! and the presets' names under every `--rules`.

use clap::CommandFactory;
use race_games::{Kind, RaceGame, for_kind};
use royal_ur::Ur;

use crate::cli::Cli;
use crate::play;

/// The subcommands whose `--rules` takes either game's rules.
const RULES_OF_EITHER: [&str; 6] = ["moves", "bot", "position", "throws", "perft", "selfplay"];

/// The command line as clap reads it, with the help that comes from the
/// catalogue.
pub fn command() -> clap::Command {
    let either = format!(
        "The rule set: a name ({}), or the fields that differ from the default in any order \
         (e.g. pieces=5, or path=murray dice=3)",
        Kind::ALL
            .into_iter()
            .map(|kind| format!("{kind}: {}", for_kind!(kind, G => names::<G>().join(", "))))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let solve = format!(
        "The Royal Game of Ur rule set: a name ({}) or the fields that differ from {}",
        names::<Ur>().join(", "),
        names::<Ur>().first().copied().unwrap_or_default()
    );
    let mut command = Cli::command().mut_subcommand("play", |c| c.after_help(play_help()));
    for name in RULES_OF_EITHER {
        let help = either.clone();
        command = command.mut_subcommand(name, |c| c.mut_arg("rules", |a| a.help(help)));
    }
    command.mut_subcommand("solve", |c| c.mut_arg("rules", |a| a.help(solve)))
}

/// The names of a game's presets, the default first.
fn names<G: RaceGame>() -> Vec<&'static str> {
    G::PRESETS.iter().map(|p| p.name).collect()
}

/// What `race play --help` says after the options: the in-game commands,
/// the keys, the pace and how rule sets are written, for every game.
pub fn play_help() -> String {
    format!(
        "In game (on the screen, ? shows the keys):\n{}\n\
         On the screen: up/down and enter pick a move. Watching (--watch, or stepping \
         through a finished record): space pauses and goes on, right or n plays one ply, \
         + and - change the pace, q leaves. Ctrl-U clears the line and Ctrl-W deletes a \
         word; q, quit and Ctrl-D ask before leaving a game that is on; Ctrl-Z suspends; \
         Ctrl-C leaves at any time, and with --record the record is already written. Keys \
         typed before a new roll is shown are ignored.\n\n\
         Pace: {} ms between bot moves on a terminal, none through a pipe (--pace MS).\n\n\
         Rules are written as a name, or as fields name=value spelled out in any order; \
         fields not given are the default rule set's (the first name below):\n{}",
        play::COMMANDS,
        play::PACE_MS,
        Kind::ALL
            .into_iter()
            .map(|kind| for_kind!(kind, G => rules_help::<G>()))
            .collect::<String>(),
    )
}

/// A game's rule sets for `race play --help`: every preset with a line
/// about it, an example of fields spelled out (those of the second preset
/// that differ from the default) and the default in full.
fn rules_help<G: RaceGame>() -> String {
    let default = G::spelled_out(&G::Variant::default());
    let width = G::PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (i, preset) in G::PRESETS.iter().enumerate() {
        let game = if i == 0 { G::KIND.as_str() } else { "" };
        out.push_str(&format!(
            "  {game:<6} {:<width$}  {}\n",
            preset.name, preset.about
        ));
    }
    let other = G::PRESETS
        .get(1)
        .map_or_else(G::Variant::default, |p| p.variant.clone());
    let spelled = G::spelled_out(&other);
    let differs: Vec<&str> = spelled
        .split(' ')
        .filter(|field| !default.split(' ').any(|d| d == *field))
        .collect();
    let differs = if differs.is_empty() {
        default.clone()
    } else {
        differs.join(" ")
    };
    let first = G::PRESETS.first().map_or("the default", |p| p.name);
    out.push_str(&format!(
        "         spelled out: e.g. --rules \"{differs}\" ({first} in full: {default})\n"
    ));
    out
}
