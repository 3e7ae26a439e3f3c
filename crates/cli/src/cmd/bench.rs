//! `race bench`: engine speed on this machine.

use std::time::Duration;

use race_games::{Kind, for_kind};

use crate::error::{Failure, Outcome};
use crate::{bench, cli, emit};

pub(crate) fn bench_cmd(a: &cli::BenchArgs) -> Outcome {
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
