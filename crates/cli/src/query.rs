//! The one-shot commands, generic over the game: replay, moves, position,
//! throws, perft.

use dice_core::{Faces, Game, LogEntry, ParseRecordError, PlayError, ReplayError, Seed, Side};
use race_games::{GameView, PositionView, RaceGame};
use serde_json::{Map, Value, json};

use crate::error::Refused;
use crate::render;
use crate::style::Style;

/// A game as the JSON object `race replay --json` prints.
pub fn game_json<G: RaceGame>(game: &Game<G>) -> Value {
    with_ok(&GameView::of(game))
}

/// A view's JSON object with `"ok": true` first.
pub fn with_ok(view: &impl serde::Serialize) -> Value {
    let mut map = Map::new();
    map.insert("ok".to_owned(), Value::Bool(true));
    if let Ok(Value::Object(fields)) = serde_json::to_value(view) {
        map.extend(fields);
    }
    Value::Object(map)
}

/// One sentence on how a game ended.
pub fn result_line<G: RaceGame>(game: &Game<G>) -> Option<String> {
    race_games::result_words(game)
}

/// The refusal for a record that could not be replayed: the contract's
/// code, why, line and ply, the library's sentence, and for a refused move
/// the detail of spec §10 and §14, `{from, to, roll, ply}`, with the reason
/// in words (or `{text, why}` for text that is not a move).
pub fn replay_refusal<G: RaceGame>(input: &str, e: &ReplayError<G>) -> Refused {
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
                let (from, to) = G::places(*mv);
                r = r
                    .detail("from", json!(from))
                    .detail("to", json!(to))
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
pub fn replay<G: RaceGame>(
    input: &str,
    text: &str,
    rules: Option<&str>,
) -> Result<Game<G>, Refused> {
    let variant = rules
        .map(|r| crate::engine::parse_variant::<G>(Some(r), "--rules"))
        .transpose()?;
    Game::<G>::replay_text(text, variant).map_err(|e| replay_refusal(input, &e))
}

/// The human-readable replay report: the board, the moves and the result.
pub fn replay_text<G: RaceGame>(game: &Game<G>, style: &Style) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} under {}, {} first{}\n",
        G::GAME,
        game.variant(),
        game.first(),
        game.seed()
            .map(|s| format!(", seed {}", crate::input::shown(s)))
            .unwrap_or_default()
    ));
    out.push_str(&move_list::<G>(game.log()));
    out.push_str(&render::board_text(
        game.variant(),
        game.position(),
        game.log(),
        style,
    ));
    out.push_str(&format!(
        "position {}  key {}  ply {}  throws {}\n",
        game.position(),
        G::key_text(game.variant(), game.position()),
        game.ply(),
        game.throws()
    ));
    match result_line(game) {
        Some(line) => out.push_str(&format!("{line}\n")),
        None => match (game.side(), game.roll()) {
            (Some(side), Some(roll)) => out.push_str(&format!(
                "{side} to move, {}; legal: {}\n",
                render::throw::<G>(game.variant(), game.faces(), roll, style),
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
pub fn move_list<G: RaceGame>(log: &[LogEntry<G>]) -> String {
    move_list_by::<G>(log, 4)
}

/// The numbered move list, `per_line` plies to a line (at least one).
pub fn move_list_by<G: RaceGame>(log: &[LogEntry<G>], per_line: usize) -> String {
    let mut out = String::new();
    let items: Vec<String> = log
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{:>4}. {} {}", i + 1, e.side.letter(), G::entry_label(e)))
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
pub fn position_or_start<G: RaceGame>(
    position: Option<&str>,
    variant: &G::Variant,
) -> Result<G::Position, Refused> {
    match position {
        Some(text) => {
            let position = crate::engine::parse_position::<G>(text, variant, "--position")?;
            match inconsistency::<G>(text, variant, &position) {
                Some(refused) => Err(refused),
                None => Ok(position),
            }
        }
        None => Ok(G::start(variant, Side::Light)),
    }
}

/// The refusal of a position that cannot occur under the rules, or `None`
/// when it can.
pub fn inconsistency<G: RaceGame>(
    text: &str,
    variant: &G::Variant,
    position: &G::Position,
) -> Option<Refused> {
    let problem = G::check(variant, position).err()?;
    Some(
        Refused::new(
            "--position",
            "inconsistent",
            format!("{text:?} cannot occur under {variant}: {problem}"),
        )
        .why(problem.code)
        .detail("text", text),
    )
}

/// Checks a roll given on the command line.
///
/// # Errors
///
/// `roll` when the dice cannot make it.
pub fn check_roll<G: RaceGame>(variant: &G::Variant, roll: u8) -> Result<u8, Refused> {
    let low = G::ROLL_MIN;
    let high = G::max_roll(variant);
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
pub fn moves<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    roll: u8,
    json_out: bool,
) -> String {
    let legal = G::legal_moves(variant, position, roll);
    if json_out {
        let moves: Vec<&G::MoveView> = legal.iter().map(|m| &m.view).collect();
        return format!("{}\n", json!({ "ok": true, "moves": moves }));
    }
    if legal.is_empty() {
        return format!(
            "{} has no move on a roll of {roll}: the turn is lost.\n",
            G::side(position)
        );
    }
    legal
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{:>2}. {}\n", i + 1, m.label()))
        .collect()
}

/// `race position`'s JSON fields for a position.
pub fn position_fields<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
) -> Map<String, Value> {
    match serde_json::to_value(PositionView::of::<G>(variant, position)) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// `race position`: the position checked, as JSON or drawn.
pub fn position<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    json_out: bool,
    style: &Style,
) -> String {
    if json_out {
        return format!("{}\n", with_ok(&PositionView::of::<G>(variant, position)));
    }
    format!(
        "{}position {position}\nkey {}, {} to move, consistent under {variant}\n",
        render::board_text::<G>(variant, position, &[], style),
        G::key_text(variant, position),
        G::side(position),
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
pub fn throws<G: RaceGame>(
    variant: &G::Variant,
    seed: &Seed,
    numbers: impl Iterator<Item = u64>,
    json_out: bool,
) -> String {
    let dice = G::dice(variant);
    let rows = numbers.map(|n| {
        let faces = Faces::thrown(seed, n, dice);
        (n, faces, G::roll(variant, faces))
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
pub fn perft_count<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
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
                    dice_core::successors::<G>(variant, &p)
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
        leaves += dice_core::walk::<G>(variant, p, *d);
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
