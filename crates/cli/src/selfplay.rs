//! `race selfplay`: bot against bot, many games, with statistics.

use std::io::IsTerminal;
use std::path::Path;

use dice_core::{Game, Seed, Side};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use race_games::{Bot, RaceGame};

use crate::error::{Refused, io_words};

/// What one self-play game came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStats {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// The side that moved first.
    pub first: Side,
    /// Plies played.
    pub plies: u32,
    /// Turns lost to the roll.
    pub lost_turns: u32,
    /// Captures (Ur) or swaps (Senet).
    pub captures: u32,
}

/// The seed of game `index` of a run seeded with `base`: the base bytes,
/// then `:` and the index in decimal.
pub fn game_seed(base: &Seed, index: u64) -> Seed {
    let mut bytes = base.as_bytes().to_vec();
    bytes.extend_from_slice(format!(":{index}").as_bytes());
    Seed::new(bytes).unwrap_or_else(|_| base.clone())
}

/// Plays one game between two bots to its end.
///
/// # Errors
///
/// A refusal when the game cannot be set up (an opening that never ends).
pub fn play_out<G: RaceGame>(
    variant: &G::Variant,
    seed: Seed,
    light: &Bot<G>,
    dark: &Bot<G>,
) -> Result<Game<G>, Refused> {
    let mut game = Game::<G>::seeded(seed, variant.clone())
        .map_err(|e| Refused::new("--seed", e.code(), e.to_string()))?;
    while let Some(side) = game.side() {
        let bot = if side == Side::Light { light } else { dark };
        let Some(mv) = bot.choose(&game) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    Ok(game)
}

/// The statistics of one finished game.
pub fn stats<G: RaceGame>(game: &Game<G>) -> GameStats {
    let log = game.log();
    GameStats {
        winner: game.result().and_then(|o| o.winner),
        first: game.first(),
        plies: game.ply(),
        lost_turns: log.iter().filter(|e| e.mv.is_none()).count() as u32,
        captures: log
            .iter()
            .filter(|e| e.mv.is_some() && G::is_capture(&e.flags))
            .count() as u32,
    }
}

/// The 95% Wilson interval of `wins` out of `n`.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964_f64;
    let n = n as f64;
    let p = wins as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted.get(i).copied().unwrap_or(0)
}

/// The options of a self-play run.
pub struct Run<'a, G: RaceGame> {
    /// The rule set.
    pub variant: G::Variant,
    /// How many games.
    pub games: u64,
    /// The bot playing light.
    pub light: Bot<G>,
    /// The bot playing dark.
    pub dark: Bot<G>,
    /// The seed every game's seed is made from.
    pub seed: Seed,
    /// Where to write every record, if anywhere.
    pub records: Option<&'a Path>,
}

/// The name of game `i`'s record (counted from 1), its number written in
/// `width` digits: `ur-0001.txt`.
fn record_name(cmd: &str, i: u64, width: usize) -> String {
    format!("{cmd}-{i:0width$}.txt")
}

/// Checks the folder for the records before the games are played: it must
/// take new files (it is made if missing and its own folder exists, and
/// `made` is told so), and hold none of the records' names unless `force`.
///
/// # Errors
///
/// `file` for a folder that cannot be made or written in, `exists` for a
/// record that is there already.
pub fn claim_records<G: RaceGame>(
    dir: &Path,
    games: u64,
    force: bool,
    made: impl FnOnce(&Path),
) -> Result<(), Refused> {
    if crate::output::claim_folder(dir, "--records")? {
        made(dir);
        return Ok(());
    }
    if force {
        return Ok(());
    }
    let width = width(games);
    let taken = std::fs::read_dir(dir)
        .map_err(|e| {
            Refused::new(
                "--records",
                "file",
                format!("{}: cannot be read: {}", dir.display(), io_words(&e)),
            )
        })?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| {
            let number = name
                .strip_prefix(G::KIND.as_str())
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.strip_suffix(".txt"))
                .filter(|digits| digits.len() == width)
                .and_then(|digits| digits.parse::<u64>().ok());
            number.is_some_and(|n| (1..=games).contains(&n))
        })
        .min();
    match taken {
        Some(name) => {
            let path = dir.join(&name);
            Err(Refused::new(
                "--records",
                "exists",
                format!(
                    "{} already holds {name}, a record this run would write: give --force to \
                     replace the records there, or another folder",
                    dir.display()
                ),
            )
            .detail("path", path.display().to_string()))
        }
        None => Ok(()),
    }
}

/// The digits a game's number is written with: at least four.
fn width(games: u64) -> usize {
    games.to_string().len().max(4)
}

/// Runs the games and returns the summary as JSON (the folder for the
/// records checked before: [`claim_records`]).
///
/// # Errors
///
/// A refusal when a record cannot be written.
pub fn run<G: RaceGame>(run: &Run<'_, G>) -> Result<Value, Refused> {
    let bar = if std::io::stderr().is_terminal() && run.games > 1 {
        let bar = ProgressBar::with_draw_target(Some(run.games), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut all = Vec::new();
    let width = width(run.games);
    for i in 0..run.games {
        let game = play_out::<G>(&run.variant, game_seed(&run.seed, i), &run.light, &run.dark)?;
        if let Some(dir) = run.records {
            let path = dir.join(record_name(G::KIND.as_str(), i + 1, width));
            std::fs::write(&path, game.to_record().to_string()).map_err(|e| {
                Refused::new(
                    path.display().to_string(),
                    "file",
                    format!("cannot be written: {}", io_words(&e)),
                )
            })?;
        }
        all.push(stats(&game));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(summary::<G>(run, &all))
}

fn summary<G: RaceGame>(run: &Run<'_, G>, all: &[GameStats]) -> Value {
    let n = all.len() as u64;
    let wins = |side| all.iter().filter(|g| g.winner == Some(side)).count() as u64;
    let draws = all.iter().filter(|g| g.winner.is_none()).count() as u64;
    let first_wins = all.iter().filter(|g| g.winner == Some(g.first)).count() as u64;
    let mut plies: Vec<u32> = all.iter().map(|g| g.plies).collect();
    plies.sort_unstable();
    let total = |f: fn(&GameStats) -> u32| all.iter().map(|g| u64::from(f(g))).sum::<u64>();
    let per_game = |t: u64| {
        if n == 0 {
            0.0
        } else {
            round4(t as f64 / n as f64)
        }
    };
    let side = |side: Side, bot: &Bot<G>| {
        let w = wins(side);
        let (lo, hi) = wilson(w, n);
        json!({
            "level": level_json(&bot.level().to_string()),
            "wins": w,
            "share": if n == 0 { 0.0 } else { round4(w as f64 / n as f64) },
            "ci95": [round4(lo), round4(hi)],
        })
    };
    let (min, max) = (
        plies.first().copied().unwrap_or(0),
        plies.last().copied().unwrap_or(0),
    );
    let buckets = 10u32;
    let step = ((max - min) / buckets + 1).max(1);
    let mut histogram = Vec::new();
    let mut from = min;
    while from <= max && !plies.is_empty() {
        let to = from + step - 1;
        let count = plies.iter().filter(|&&p| p >= from && p <= to).count();
        histogram.push(json!({"from": from, "to": to, "games": count}));
        from += step;
    }
    let lost = total(|g| g.lost_turns);
    let caps = total(|g| g.captures);
    json!({
        "ok": true,
        "game": G::GAME,
        "rules": run.variant.to_string(),
        // The seed as it was given, text (`--seed` takes text only).
        "seed": String::from_utf8_lossy(run.seed.as_bytes()),
        "games": n,
        "light": side(Side::Light, &run.light),
        "dark": side(Side::Dark, &run.dark),
        "draws": draws,
        "first_mover_wins": first_wins,
        "plies": {
            "total": total(|g| g.plies),
            "mean": per_game(total(|g| g.plies)),
            "min": min,
            "p10": percentile(&plies, 0.1),
            "median": percentile(&plies, 0.5),
            "p90": percentile(&plies, 0.9),
            "max": max,
        },
        "lost_turns": {"total": lost, "per_game": per_game(lost)},
        G::WORDS.capture: {"total": caps, "per_game": per_game(caps)},
        "histogram": histogram,
    })
}

/// The summary as text, the seed shown as `seed` (see
/// [`crate::input::shown`]).
pub fn text(summary: &Value, capture_word: &str, seed: &str) -> String {
    let g = |path: &[&str]| {
        let mut v = summary;
        for p in path {
            v = &v[*p];
        }
        match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    };
    let mut out = format!(
        "{} under {}, {} games, seed {seed}\n",
        g(&["game"]),
        g(&["rules"]),
        g(&["games"]),
    );
    for side in ["light", "dark"] {
        out.push_str(&format!(
            "{side:<5} (level {}): {} wins, {} (95% {} to {})\n",
            g(&[side, "level"]),
            g(&[side, "wins"]),
            g(&[side, "share"]),
            summary[side]["ci95"][0],
            summary[side]["ci95"][1],
        ));
    }
    out.push_str(&format!(
        "draws: {}; the side moving first won {}\n",
        g(&["draws"]),
        g(&["first_mover_wins"])
    ));
    out.push_str(&format!(
        "plies: mean {}, min {}, p10 {}, median {}, p90 {}, max {}\n",
        g(&["plies", "mean"]),
        g(&["plies", "min"]),
        g(&["plies", "p10"]),
        g(&["plies", "median"]),
        g(&["plies", "p90"]),
        g(&["plies", "max"])
    ));
    out.push_str(&format!(
        "lost turns: {} ({} a game); {capture_word}: {} ({} a game)\n",
        g(&["lost_turns", "total"]),
        g(&["lost_turns", "per_game"]),
        g(&[capture_word, "total"]),
        g(&[capture_word, "per_game"])
    ));
    out.push_str("game length (plies):\n");
    let most = summary["histogram"]
        .as_array()
        .map(|h| {
            h.iter()
                .filter_map(|b| b["games"].as_u64())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
        .max(1);
    for b in summary["histogram"].as_array().into_iter().flatten() {
        let count = b["games"].as_u64().unwrap_or(0);
        let bar = "#".repeat(((count * 40).div_ceil(most)) as usize);
        out.push_str(&format!(
            "  {:>5}-{:<5} {count:>6} {bar}\n",
            b["from"], b["to"]
        ));
    }
    out
}

/// A level for the summary: a number, or a word such as `perfect`.
fn level_json(name: &str) -> Value {
    name.parse::<u8>()
        .map_or_else(|_| Value::from(name), Value::from)
}
