//! `race replay`: a record of either game replayed, and which game a
//! record is.

use dice_core::record_rules;
use race_games::{Kind, RaceGame, for_kind};

use crate::error::{Outcome, Refused};
use crate::style::Style;
use crate::{cli, emit, input, query};

/// Which game a record is, from its rules line, after the checks every
/// record passes first (`empty`, `no_newline`, the shape of line 1).
pub(crate) fn recognise(text: &str, name: &str) -> Result<Kind, Refused> {
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
pub(crate) fn words_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

pub(crate) fn replay_cmd(a: &cli::ReplayArgs) -> Outcome {
    let (name, text) = input::read_text(&a.file)?;
    let game = match a.game {
        Some(g) => Kind::from(g),
        None => recognise(&text, &name)?,
    };
    for_kind!(game, G => replay_game::<G>(a, &name, &text))
}

pub(crate) fn replay_game<G: RaceGame>(a: &cli::ReplayArgs, name: &str, text: &str) -> Outcome {
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
