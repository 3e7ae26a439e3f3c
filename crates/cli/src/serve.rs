//! `race serve` and `race loadtest`: the game server (the `race-server`
//! crate) on the command line.

use std::time::Duration;

use race_games::Kind as GameKind;
use race_server::loadtest::{self, LoadError, Options};
use race_server::{Config, Database, HubError, OpenError, ServeError};

use crate::cli::{GameName, LoadtestArgs, ServeArgs};
use crate::emit;
use crate::error::{Failure, Outcome, Refused, io_words};

/// `race serve`: prints `listening on http://ADDR/` once ready, logs to
/// standard error, and stops cleanly on SIGINT or SIGTERM.
pub fn serve_cmd(a: &ServeArgs) -> Outcome {
    race_server::log_to_stderr();
    if !(a.stall.is_finite() && a.stall >= 0.1 && a.stall <= 3600.0) {
        return Err(Failure::usage(
            "--stall",
            "give a number of seconds from 0.1 to 3600",
        ));
    }
    if !(a.waiting_expiry.is_finite() && a.waiting_expiry >= 0.0 && a.waiting_expiry <= 1e9) {
        return Err(Failure::usage(
            "--waiting-expiry",
            "give a number of seconds from 0 (for ever) to 1000000000",
        ));
    }
    if !(a.presence_window.is_finite() && a.presence_window >= 0.1 && a.presence_window <= 86400.0)
    {
        return Err(Failure::usage(
            "--presence-window",
            "give a number of seconds from 0.1 to 86400",
        ));
    }
    if !(a.open_expiry.is_finite() && a.open_expiry >= 1.0 && a.open_expiry <= 1e9) {
        return Err(Failure::usage(
            "--open-expiry",
            "give a number of seconds from 1 to 1000000000",
        ));
    }
    let database = match a.database.as_deref().map(Database::parse).transpose() {
        Ok(database) => database,
        Err(e) => return Err(Refused::new("--database", "database", e.0).into()),
    };
    let place = database
        .as_ref()
        .map_or_else(|| a.data.display().to_string(), ToString::to_string);
    let config = Config {
        database,
        tables: a.table.clone(),
        solve: a.solve.clone(),
        bot_pace: Duration::from_millis(a.bot_pace),
        create_limit: a.create_limit,
        connections: a.max_connections,
        connections_per_address: a.max_connections_per_address,
        streams: a.max_streams,
        streams_per_address: a.max_streams_per_address,
        stall: Duration::from_secs_f64(a.stall),
        waiting_expiry: Duration::from_secs_f64(a.waiting_expiry),
        presence_window: Duration::from_secs_f64(a.presence_window),
        open_games: !a.no_open_games,
        open_expiry: Duration::from_secs_f64(a.open_expiry),
        allow_shared_data: a.allow_shared_data,
        ..Config::new(a.addr, a.data.clone())
    };
    let mut announced = Ok(());
    let started = std::time::Instant::now();
    let served = race_server::serve_until_signal(&config, |addr, games| {
        announced = emit(&format!("listening on http://{addr}/\n"));
        eprintln!(
            "race serve: {games} unfinished games in {place} (each loaded when first asked for); ready in {:.2} s",
            started.elapsed().as_secs_f64()
        );
    });
    announced?;
    served.map_err(|e| serve_refusal(&e, place))
}

/// What `race serve` answers when it cannot start; `data` names the
/// store (the folder, or the database without its password).
fn serve_refusal(e: &ServeError, data: String) -> Failure {
    let (input, code, message) = match e {
        ServeError::Table(t) => (t.path.clone(), "table", t.why.clone()),
        ServeError::Solve { error, .. } => ("--solve".to_owned(), error.code(), e.to_string()),
        ServeError::Listen { addr, why } => (
            "--addr".to_owned(),
            "listen",
            format!("cannot listen on {addr}: {why}"),
        ),
        ServeError::Store(s)
        | ServeError::Hub(HubError::Store(s))
        | ServeError::Open(OpenError::Store(s)) => (data, "store", s.0.clone()),
        ServeError::Open(e @ OpenError::Shared { .. }) => (data, "shared_data", e.to_string()),
        ServeError::Open(e @ OpenError::Held { .. }) => (data, "held", e.to_string()),
        other => (data, "store", other.to_string()),
    };
    Refused::new(input, code, message).into()
}

/// `race loadtest URL...`: exit 1 when a record differs from what was seen.
pub fn loadtest_cmd(a: &LoadtestArgs) -> Outcome {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 86_400.0) {
        return Err(Failure::usage(
            "--seconds",
            "give a number of seconds above 0 and at most 86400",
        ));
    }
    if !(a.rate.is_finite() && a.rate >= 0.0) {
        return Err(Failure::usage(
            "--rate",
            "give a rate of 0 or more moves a second",
        ));
    }
    if a.games == 0 || a.games > 100_000 || a.watchers > 100_000 {
        return Err(Failure::usage(
            "--games",
            "give 1 to 100000 games and at most 100000 watchers",
        ));
    }
    let kinds = match a.game {
        Some(GameName::Ur) => vec![GameKind::Ur],
        Some(GameName::Senet) => vec![GameKind::Senet],
        None => vec![GameKind::Ur, GameKind::Senet],
    };
    let options = Options {
        urls: a.urls.clone(),
        games: a.games,
        seconds: a.seconds,
        watchers: a.watchers,
        kinds,
        rate: a.rate,
        delta: a.delta,
    };
    let report = loadtest::run(&options).map_err(|e| match e {
        LoadError::Url(_) => Refused::new("URL", "url", e.to_string()),
        _ => Refused::new(a.urls.join(" "), "server", e.to_string()),
    })?;
    if let Some(path) = &a.acks {
        let mut lines = String::new();
        for game in &report.games {
            for (ply, mv) in &game.moves {
                lines.push_str(&format!("{} {ply} {mv}\n", game.id));
            }
        }
        std::fs::write(path, lines).map_err(|e| {
            Refused::new(
                path.display().to_string(),
                "file",
                format!("cannot be written: {}", io_words(&e)),
            )
        })?;
    }
    emit(&report.to_string())?;
    if report.is_sound() {
        Ok(())
    } else {
        Err(Refused::new(
            a.urls.join(" "),
            "lost_moves",
            format!(
                "{} of {} records do not hold exactly the moves seen accepted",
                report.mismatches.len(),
                report.checked
            ),
        )
        .into())
    }
}
