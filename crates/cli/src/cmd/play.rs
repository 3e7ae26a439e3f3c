//! `race play`: a game in the terminal, against the bot, hotseat or watched.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use dice_core::{Game, Side};
use race_games::{Bot, Kind, RaceGame, for_kind};

use super::recognise;
use super::variant;
use crate::error::{Failure, Outcome};
use crate::play::record::RecordFile;
use crate::style::Style;
use crate::{cli, engine, input, output, play, query};

/// `race play`: the game named, or the record's with `--resume`.
pub(crate) fn play(a: &cli::PlayArgs) -> Outcome {
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

pub(crate) fn play_cmd<G>(a: &cli::PlayArgs, resumed: Option<&(String, String)>) -> Outcome
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
pub(crate) fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}
