//! The one-shot commands, generic over the game: replay, moves, position,
//! throws, perft.

use dice_core::{Faces, Game, LogEntry, PlayError, ReplayError, Seed, Side};
use serde_json::{Value, json};

use crate::engine::{Engine, legal};
use crate::error::Refused;
use crate::style::Style;

/// A game as the JSON object `race replay --json` prints.
pub fn game_json<E: Engine>(game: &Game<E>) -> Value {
    let result = game.result().map(|o| {
        json!({
            "winner": o.winner.map(Side::as_str),
            "how": o.how.as_str(),
        })
    });
    json!({
        "ok": true,
        "game": E::GAME,
        "position": E::position_text(game.position()),
        "key": E::key_text(game.position(), game.variant()),
        "ply": game.ply(),
        "rolls": game.rolls(),
        "side": game.side().map(Side::as_str),
        "roll": game.roll(),
        "legal": game.legal().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "over": game.is_over(),
        "result": result,
        "record": game.to_record().to_string(),
    })
}

/// The last move of each side, for marking on the board.
pub fn last_moves<E: Engine>(log: &[LogEntry<E>]) -> Vec<LogEntry<E>> {
    let mut out: Vec<LogEntry<E>> = Vec::new();
    for side in Side::ALL {
        if let Some(e) = log.iter().rev().find(|e| e.side == side && e.mv.is_some()) {
            out.push(*e);
        }
    }
    out.sort_by_key(|e| e.ply);
    out
}

/// One sentence on how a game ended.
pub fn result_line<E: Engine>(game: &Game<E>) -> Option<String> {
    let o = game.result()?;
    let plies = o.plies;
    let home = |side| E::home(game.variant(), game.position(), side);
    let score = format!(
        "light {} home, dark {} home",
        home(Side::Light),
        home(Side::Dark)
    );
    Some(match (o.winner, o.how) {
        (Some(w), dice_core::How::Home) => {
            format!("{w} wins with every piece home ({score}) after {plies} plies.")
        }
        (Some(w), dice_core::How::Resign) => {
            format!(
                "{} resigns: {w} wins ({score}) after {plies} plies.",
                w.other()
            )
        }
        _ => format!(
            "the game is drawn: it reached the cap of {} plies ({score}).",
            dice_core::PLY_CAP
        ),
    })
}

/// The refusal for a record that could not be replayed.
pub fn replay_refusal<E: Engine>(input: &str, e: &ReplayError<E>) -> Refused {
    let message = match e {
        ReplayError::Parse(p) => format!("the text is not a record: check {} fails here", p.kind),
        ReplayError::Mismatch { why, .. } => format!(
            "the record parts from the game here ({})",
            match why.as_str() {
                "opening" => "the opening throw or the first side differs",
                "move" => "a move where the game lost the turn by itself, or the other way round",
                "side" => "the wrong side is named",
                "roll" => "the roll is not the game's",
                "over" => "the record goes on after the game ended",
                "forfeit" => "a lost turn where the game has a move to make",
                "result" => "the result line is not how the game ended",
                other => other,
            }
        ),
        ReplayError::Refused { .. } => e.to_string(),
        _ => e.to_string(),
    };
    let mut r = Refused::new(input, e.code(), message);
    r.why = e.why();
    r.line = e.line().map(|l| u32::try_from(l).unwrap_or(u32::MAX));
    r.ply = e.ply().map(|p| u32::try_from(p).unwrap_or(u32::MAX));
    if let ReplayError::Refused { error, .. } = e {
        r.message = error.to_string();
        match error {
            PlayError::Refused { refusal, mv, roll } => {
                r.message = format!("{mv} on a roll of {roll}: {refusal}");
                r = r
                    .detail("move", mv.to_string())
                    .detail("roll", *roll)
                    .detail("reason", refusal.to_string());
            }
            PlayError::BadMove { text, why } => {
                r.message = format!("{text:?} is not a move: {why}");
                r = r
                    .detail("text", text.as_str())
                    .detail("why", why.to_string());
            }
            _ => {}
        }
    }
    r
}

/// Replays a record's text under its own rules or `rules`.
///
/// # Errors
///
/// A refusal naming the line or the ply.
pub fn replay<E: Engine>(input: &str, text: &str, rules: Option<&str>) -> Result<Game<E>, Refused> {
    let variant = rules.map(|r| E::parse_variant(r, "--rules")).transpose()?;
    Game::<E>::replay_text(text, variant).map_err(|e| replay_refusal(input, &e))
}

/// The human-readable replay report: the board, the moves and the result.
pub fn replay_text<E: Engine>(game: &Game<E>, style: &Style) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} under {}, {} first{}\n",
        E::GAME,
        game.variant(),
        game.first(),
        game.seed()
            .map(|s| format!(", seed {}", s.to_hex()))
            .unwrap_or_default()
    ));
    out.push_str(&move_list::<E>(game.log()));
    out.push_str(&E::draw(
        game.variant(),
        game.position(),
        &last_moves(game.log()),
        style,
    ));
    out.push_str(&format!(
        "position {}  key {}  ply {}  throws {}\n",
        E::position_text(game.position()),
        E::key_text(game.position(), game.variant()),
        game.ply(),
        game.rolls()
    ));
    match result_line(game) {
        Some(line) => out.push_str(&format!("{line}\n")),
        None => match (game.side(), game.roll()) {
            (Some(side), Some(roll)) => out.push_str(&format!(
                "{side} to move, {}; legal: {}\n",
                E::draw_throw(game.variant(), game.faces(), roll, style),
                game.legal()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
            (Some(side), None) => {
                out.push_str(&format!(
                    "{side} to move; the record ends here with no roll in hand.\n"
                ));
            }
            _ => {}
        },
    }
    out
}

/// The numbered move list: `1. light 3: hand-d1`, several to a line.
pub fn move_list<E: Engine>(log: &[LogEntry<E>]) -> String {
    let mut out = String::new();
    let items: Vec<String> = log
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{:>4}. {} {}", i + 1, e.side.letter(), E::entry_label(e)))
        .collect();
    for chunk in items.chunks(4) {
        let line: Vec<String> = chunk.iter().map(|s| format!("{s:<24}")).collect();
        out.push_str(line.join("").trim_end());
        out.push('\n');
    }
    out
}

/// Parses the position option (the start with light to move when absent).
///
/// # Errors
///
/// A refusal with the position's code.
pub fn position_or_start<E: Engine>(
    position: Option<&str>,
    variant: &E::Variant,
) -> Result<E::Position, Refused> {
    match position {
        Some(text) => E::parse_position(text, variant, "--position"),
        None => Ok(E::start(variant, Side::Light)),
    }
}

/// Checks a roll given on the command line.
///
/// # Errors
///
/// `roll` when the dice cannot make it.
pub fn check_roll<E: Engine>(roll: u8) -> Result<u8, Refused> {
    let low = u8::from(E::CMD != "ur");
    if (low..=E::MAX_ROLL).contains(&roll) {
        Ok(roll)
    } else {
        Err(Refused::new(
            "--roll",
            "roll",
            format!(
                "{roll} is not a roll of this game; rolls are {low} to {}",
                E::MAX_ROLL
            ),
        )
        .detail("roll", roll))
    }
}

/// `race moves`: the legal moves in engine order, as JSON or a list.
pub fn moves<E: Engine>(
    variant: &E::Variant,
    position: &E::Position,
    roll: u8,
    json_out: bool,
) -> String {
    let list = legal::<E>(variant, position, roll);
    if json_out {
        let moves: Vec<Value> = list
            .iter()
            .map(|&mv| E::move_json(variant, position, roll, mv))
            .collect();
        return format!("{}\n", json!({ "moves": moves }));
    }
    if list.is_empty() {
        return format!(
            "{} has no move on a roll of {roll}: the turn is lost.\n",
            E::side(position)
        );
    }
    list.iter()
        .enumerate()
        .map(|(i, &mv)| {
            format!(
                "{:>2}. {}\n",
                i + 1,
                E::move_label(variant, position, roll, mv)
            )
        })
        .collect()
}

/// `race position`: the position checked, as JSON or drawn.
pub fn position<E: Engine>(
    variant: &E::Variant,
    position: &E::Position,
    json_out: bool,
    style: &Style,
) -> String {
    let consistent = E::is_consistent(variant, position);
    let side = E::side(position);
    if json_out {
        let v = json!({
            "ok": true,
            "position": E::position_text(position),
            "key": E::key_text(position, variant),
            "side": side.as_str(),
            "consistent": consistent,
        });
        return format!("{v}\n");
    }
    format!(
        "{}position {}\nkey {}, {side} to move, {} under {variant}\n",
        E::draw(variant, position, &[], style),
        E::position_text(position),
        E::key_text(position, variant),
        if consistent {
            "consistent"
        } else {
            "not consistent"
        },
    )
}

/// `race throws`: throws `from`..`from+count` of a seed.
pub fn throws<E: Engine>(
    variant: &E::Variant,
    seed: &Seed,
    from: u64,
    count: u64,
    json_out: bool,
) -> String {
    let dice = E::dice(variant);
    let rows = (from..from.saturating_add(count)).map(|n| {
        let faces = Faces::thrown(seed, n, dice);
        (n, faces, E::roll(variant, faces))
    });
    if json_out {
        let throws: Vec<Value> = rows
            .map(|(n, faces, roll)| json!({"n": n, "faces": faces.to_string(), "roll": roll}))
            .collect();
        return format!("{}\n", json!({ "throws": throws }));
    }
    rows.map(|(n, faces, roll)| format!("{n} {faces} {roll}\n"))
        .collect()
}

/// `race perft`: the walk count.
pub fn perft_count<E: Engine>(variant: &E::Variant, position: &E::Position, depth: u32) -> u64 {
    dice_core::walk::<E>(variant, position, depth)
}
