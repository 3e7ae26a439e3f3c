//! The one-shot commands, generic over the game: replay, moves, position,
//! throws, perft.

use dice_core::{Faces, Game, LogEntry, ParseRecordError, PlayError, ReplayError, Seed, Side};
use serde_json::{Map, Value, json};

use crate::engine::Engine;
use crate::error::Refused;
use crate::render;
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
        "rolls": game.throws(),
        "side": game.side().map(Side::as_str),
        "roll": game.roll(),
        "legal": game.legal().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "over": game.is_over(),
        "result": result,
        "record": game.to_record().to_string(),
    })
}

/// One sentence on how a game ended.
pub fn result_line<E: Engine>(game: &Game<E>) -> Option<String> {
    let o = game.result()?;
    let plies = o.plies;
    let home = |side| E::home(game.variant(), game.position(), side);
    let word = E::HOME_WORD;
    let score = format!(
        "light {} {word}, dark {} {word}",
        home(Side::Light),
        home(Side::Dark)
    );
    Some(match (o.winner, o.how) {
        (Some(w), dice_core::Ending::Home) => {
            format!("{w} wins with every piece {word} ({score}) after {plies} plies.")
        }
        (Some(w), dice_core::Ending::Resign) => {
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

/// The refusal for a record that could not be replayed: the contract's
/// code, why, line and ply, the library's sentence, and for a refused move
/// the detail of spec §10 and §14, `{from, to, roll, ply}`, with the reason
/// in words (or `{text, why}` for text that is not a move).
pub fn replay_refusal<E: Engine>(input: &str, e: &ReplayError<E>) -> Refused {
    if let ReplayError::Parse(e) = e {
        return record_refusal(input, e);
    }
    // The line is the record's line the error is about, also for a
    // refused move (where the reference gives only the ply).
    let mut r = Refused::new(input, e.code(), e.message()).line(e.record_line());
    r.why = e.why();
    if let Some(ply) = e.ply() {
        r = r.ply(ply);
    }
    if let ReplayError::Refused { error, ply, .. } = e {
        match error {
            PlayError::Refused { refusal, mv, roll } => {
                let (from, to) = E::places_json(*mv);
                r = r
                    .detail("from", from)
                    .detail("to", to)
                    .detail("roll", *roll)
                    .detail("ply", *ply)
                    .detail("reason", refusal.to_string());
            }
            PlayError::BadMove { text, why } => {
                r = r
                    .detail("text", text.as_str())
                    .detail("why", why.to_string())
                    .detail("ply", *ply);
            }
            _ => {}
        }
    }
    r
}

/// The refusal for text that is not a record: `bad_record` with the check
/// as `why`, the line, and the library's sentence.
pub fn record_refusal(input: &str, e: &ParseRecordError) -> Refused {
    Refused::new(input, "bad_record", e.message())
        .why(e.kind.as_str())
        .line(e.line)
}

/// Replays a record's text under its own rules or `rules`.
///
/// # Errors
///
/// A refusal naming the line or the ply.
pub fn replay<E: Engine>(input: &str, text: &str, rules: Option<&str>) -> Result<Game<E>, Refused> {
    let variant = rules
        .map(|r| crate::engine::parse_variant::<E>(Some(r), "--rules"))
        .transpose()?;
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
            .map(|s| format!(", seed {}", crate::input::shown(s)))
            .unwrap_or_default()
    ));
    out.push_str(&move_list::<E>(game.log()));
    out.push_str(&render::board_text(
        game.variant(),
        game.position(),
        game.log(),
        style,
    ));
    out.push_str(&format!(
        "position {}  key {}  ply {}  throws {}\n",
        E::position_text(game.position()),
        E::key_text(game.position(), game.variant()),
        game.ply(),
        game.throws()
    ));
    match result_line(game) {
        Some(line) => out.push_str(&format!("{line}\n")),
        None => match (game.side(), game.roll()) {
            (Some(side), Some(roll)) => out.push_str(&format!(
                "{side} to move, {}; legal: {}\n",
                render::throw::<E>(game.variant(), game.faces(), roll, style),
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

/// The columns one ply takes in [`move_list`].
pub const MOVE_LIST_COLUMN: usize = 24;

/// The numbered move list: `1. l 3: hand-d1`, four to a line.
pub fn move_list<E: Engine>(log: &[LogEntry<E>]) -> String {
    move_list_by::<E>(log, 4)
}

/// The numbered move list, `per_line` plies to a line (at least one).
pub fn move_list_by<E: Engine>(log: &[LogEntry<E>], per_line: usize) -> String {
    let mut out = String::new();
    let items: Vec<String> = log
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{:>4}. {} {}", i + 1, e.side.letter(), E::entry_label(e)))
        .collect();
    for chunk in items.chunks(per_line.max(1)) {
        let line: Vec<String> = chunk
            .iter()
            .map(|s| format!("{s:<MOVE_LIST_COLUMN$}"))
            .collect();
        out.push_str(line.join("").trim_end());
        out.push('\n');
    }
    out
}

/// Parses the position option (the start with light to move when absent)
/// and checks that it can occur under the rules.
///
/// # Errors
///
/// A refusal with the position's code, or `inconsistent` with the problem.
pub fn position_or_start<E: Engine>(
    position: Option<&str>,
    variant: &E::Variant,
) -> Result<E::Position, Refused> {
    match position {
        Some(text) => {
            let position = E::parse_position(text, variant, "--position")?;
            match inconsistency::<E>(text, variant, &position) {
                Some(refused) => Err(refused),
                None => Ok(position),
            }
        }
        None => Ok(E::start(variant, Side::Light)),
    }
}

/// The refusal of a position that cannot occur under the rules, or `None`
/// when it can.
pub fn inconsistency<E: Engine>(
    text: &str,
    variant: &E::Variant,
    position: &E::Position,
) -> Option<Refused> {
    let (why, problem) = E::inconsistency(variant, position)?;
    Some(
        Refused::new(
            "--position",
            "inconsistent",
            format!("{text:?} cannot occur under {variant}: {problem}"),
        )
        .why(why)
        .detail("text", text),
    )
}

/// Checks a roll given on the command line.
///
/// # Errors
///
/// `roll` when the dice cannot make it.
pub fn check_roll<E: Engine>(variant: &E::Variant, roll: u8) -> Result<u8, Refused> {
    let low = E::ROLL_MIN;
    let high = E::max_roll(variant);
    if (low..=high).contains(&roll) {
        Ok(roll)
    } else {
        Err(Refused::new(
            "--roll",
            "roll",
            format!("{roll} is not a roll of these rules; rolls are {low} to {high}"),
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
    let infos = E::move_infos(variant, position, roll);
    if json_out {
        let moves: Vec<Value> = infos.iter().map(E::move_json).collect();
        return format!("{}\n", json!({ "ok": true, "moves": moves }));
    }
    if infos.is_empty() {
        return format!(
            "{} has no move on a roll of {roll}: the turn is lost.\n",
            E::side(position)
        );
    }
    infos
        .iter()
        .enumerate()
        .map(|(i, info)| format!("{:>2}. {}\n", i + 1, E::move_label(info)))
        .collect()
}

/// `race position`'s JSON fields for a position.
pub fn position_fields<E: Engine>(
    variant: &E::Variant,
    position: &E::Position,
) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("position".to_owned(), json!(E::position_text(position)));
    map.insert("key".to_owned(), json!(E::key_text(position, variant)));
    map.insert("side".to_owned(), json!(E::side(position).as_str()));
    map.insert(
        "consistent".to_owned(),
        json!(E::is_consistent(variant, position)),
    );
    map
}

/// `race position`: the position checked, as JSON or drawn.
pub fn position<E: Engine>(
    variant: &E::Variant,
    position: &E::Position,
    json_out: bool,
    style: &Style,
) -> String {
    if json_out {
        let mut map = Map::new();
        map.insert("ok".to_owned(), Value::Bool(true));
        map.extend(position_fields::<E>(variant, position));
        return format!("{}\n", Value::Object(map));
    }
    format!(
        "{}position {}\nkey {}, {} to move, consistent under {variant}\n",
        render::board_text::<E>(variant, position, &[], style),
        E::position_text(position),
        E::key_text(position, variant),
        E::side(position),
    )
}

/// The numbers `from`, `from + 1`, ..., `count` of them (throw numbers,
/// game indices), or, when they would run past the last number
/// (`u64::MAX`), how many there are from `from` on.
///
/// # Errors
///
/// How many numbers there are from `from` on, when that is fewer than
/// `count`.
pub fn numbered(from: u64, count: u64) -> Result<impl Iterator<Item = u64>, u64> {
    if count > 0 && from.checked_add(count - 1).is_none() {
        return Err(u64::MAX - from + 1);
    }
    // Checked above: `from + i` stays within u64 for every i below count.
    Ok((0..count).map(move |i| from.wrapping_add(i)))
}

/// `race throws`: the faces and rolls of the throws numbered `numbers`.
pub fn throws<E: Engine>(
    variant: &E::Variant,
    seed: &Seed,
    numbers: impl Iterator<Item = u64>,
    json_out: bool,
) -> String {
    let dice = E::dice(variant);
    let rows = numbers.map(|n| {
        let faces = Faces::thrown(seed, n, dice);
        (n, faces, E::roll(variant, faces))
    });
    if json_out {
        let throws: Vec<Value> = rows
            .map(|(n, faces, roll)| json!({"n": n, "faces": faces.to_string(), "roll": roll}))
            .collect();
        return format!("{}\n", json!({ "ok": true, "throws": throws }));
    }
    rows.map(|(n, faces, roll)| format!("{n} {faces} {roll}\n"))
        .collect()
}

/// `race perft`: the leaves of the game tree `depth` plies deep, walked in
/// parts so that `progress(done, parts)` can be called after each.
pub fn perft_count<E: Engine>(
    variant: &E::Variant,
    position: &E::Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> u64 {
    // Two plies of branches (or fewer for a shallow walk), each walked to
    // the depth left; a leaf met early counts 1, as `walk` counts it.
    let mut parts = vec![(*position, depth)];
    for _ in 0..depth.min(2) {
        parts = parts
            .into_iter()
            .flat_map(|(p, d)| {
                let next = if d == 0 {
                    Vec::new()
                } else {
                    dice_core::successors::<E>(variant, &p)
                };
                if next.is_empty() {
                    vec![(p, 0)]
                } else {
                    next.into_iter().map(|n| (n, d - 1)).collect()
                }
            })
            .collect();
    }
    let total = parts.len();
    let mut leaves = 0;
    for (i, (p, d)) in parts.iter().enumerate() {
        leaves += dice_core::walk::<E>(variant, p, *d);
        progress(i + 1, total);
    }
    leaves
}

/// `race bot` in words: what the bot plays and what it found.
pub fn thought_text(side: Side, roll: u8, thought: Option<&Map<String, Value>>) -> String {
    let Some(t) = thought else {
        return format!("{side} has no move on a roll of {roll}: the turn is lost.\n");
    };
    let word = |key: &str| match t.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    let mut found = Vec::new();
    if let Some(depth) = t.get("depth").and_then(Value::as_u64) {
        found.push(if depth == 0 {
            "no look-ahead".to_owned()
        } else {
            format!("searched {depth} deep")
        });
    }
    match t.get("value") {
        Some(Value::Null) | None => {}
        Some(v) => found.push(format!("value {v}")),
    }
    if let Some(nodes) = t.get("nodes").and_then(Value::as_u64) {
        found.push(format!("{nodes} nodes"));
    }
    if t.get("stopped").and_then(Value::as_u64) == Some(1) {
        found.push("a deeper search ran out of budget".to_owned());
    }
    let index = t.get("index").and_then(Value::as_u64).map_or(0, |i| i + 1);
    format!(
        "the bot (level {}) plays {} for {side} on a roll of {roll}, move {index} of the list ({})\n",
        word("level"),
        word("move"),
        found.join(", ")
    )
}
