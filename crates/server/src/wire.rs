//! What travels on the wire: the request bodies a client may send, read
//! strictly, and the game's state the server sends back (`StateView`).
//!
//! Every body is a JSON object with only the fields named here; a missing
//! required field, an unknown field, a field of the wrong type or a value
//! out of range is a [`BodyError`] (400 `bad_request`). The size limit
//! (16 KiB, 413) is checked before a body is read.

use serde::{Deserialize, Serialize};

use race_games::{Board, Kind, Level, LineView, OfferView};

/// The most bytes a request body may hold.
pub const BODY_MAX: usize = 16 * 1024;
/// The most bytes a move text may hold.
pub const MOVE_MAX: usize = 64;
/// The most characters a player's name may hold (after trimming).
pub const NAME_MAX: usize = 24;

/// What is wrong with a request body.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BodyError(pub String);

fn json<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, BodyError> {
    if body.is_empty() {
        return Err(BodyError(
            "the body is empty; it must be a JSON object".into(),
        ));
    }
    let text = std::str::from_utf8(body).map_err(|e| {
        BodyError(format!(
            "the body is not UTF-8 (at byte {})",
            e.valid_up_to()
        ))
    })?;
    // serde reads a struct from a JSON list too; the contract's bodies are
    // objects.
    if !text.trim_start().starts_with('{') {
        return Err(BodyError("the body must be a JSON object".into()));
    }
    serde_json::from_str(text)
        .map_err(|e| BodyError(format!("the body is not the JSON asked for: {e}")))
}

/// Who the creator plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// The server's bot.
    #[default]
    Bot,
    /// A friend who opens the invite link.
    Friend,
    /// Anyone: the game is listed as open, and the first to join plays.
    Open,
}

/// The creator's seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    /// Light.
    Light,
    /// Dark.
    Dark,
    /// Either, by a coin the server throws.
    #[default]
    Random,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum LevelField {
    Number(u64),
    Word(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    opponent: Option<Opponent>,
    #[serde(default)]
    level: Option<LevelField>,
    #[serde(default)]
    side: Option<SideChoice>,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/games`: a new game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CreateRequest {
    /// The game.
    #[serde(serialize_with = "kind_out")]
    pub game: Kind,
    /// The rules text as given (the game's default when `None`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The bot, or a friend.
    pub opponent: Opponent,
    /// The bot's level.
    #[serde(serialize_with = "level_out")]
    pub level: Level,
    /// The creator's seat.
    pub side: SideChoice,
    /// The creator's name, checked by [`name_of`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

fn kind_out<S: serde::Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_str())
}

fn level_out<S: serde::Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
    match level {
        Level::Ladder(n) => s.serialize_u8(*n),
        other => s.collect_str(other),
    }
}

/// Reads a create body.
///
/// # Errors
///
/// [`BodyError`] naming what is wrong.
///
/// ```
/// use race_server::wire::{parse_create, Opponent};
///
/// let req = parse_create(br#"{"game": "senet", "opponent": "friend"}"#)?;
/// assert_eq!(req.opponent, Opponent::Friend);
/// assert!(parse_create(br#"{"game": "chess"}"#).is_err());
/// assert!(parse_create(br#"{"game": "ur", "level": 5}"#).is_err());
/// # Ok::<(), race_server::wire::BodyError>(())
/// ```
pub fn parse_create(body: &[u8]) -> Result<CreateRequest, BodyError> {
    let raw: CreateBody = json(body)?;
    let game = Kind::from_exact_word(&raw.game).ok_or_else(|| {
        BodyError(format!(
            "there is no game {:?}; the games are \"ur\" and \"senet\"",
            raw.game
        ))
    })?;
    // The server offers the ladder's rungs and the perfect player, not
    // the rungs above the top that the command line reads as the top.
    let top = game.level_top();
    let level = match raw.level {
        None => Level::Ladder(top),
        Some(LevelField::Number(n)) => u8::try_from(n)
            .ok()
            .filter(|n| (1..=top).contains(n))
            .map(Level::Ladder)
            .ok_or_else(|| {
                BodyError(format!(
                    "there is no level {n}; the levels are 1 to {top} and \"perfect\""
                ))
            })?,
        Some(LevelField::Word(w)) => match w.as_str() {
            "perfect" => Level::Perfect,
            _ => {
                return Err(BodyError(format!(
                    "there is no level {w:?}; the levels are 1 to {top} and \"perfect\""
                )));
            }
        },
    };
    Ok(CreateRequest {
        game,
        rules: raw.rules,
        opponent: raw.opponent.unwrap_or_default(),
        level,
        side: raw.side.unwrap_or_default(),
        name: name_of(raw.name)?,
    })
}

/// Whether a character may stand in a name: no control character, and
/// none of the invisible ones that reorder or hide text (bidirectional
/// controls, zero-width characters, the byte-order mark).
fn is_printable(c: char) -> bool {
    !c.is_control()
        && !matches!(c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}'
            | '\u{feff}' | '\u{fff9}'..='\u{fffb}')
}

/// A player's name as given: trimmed, then at most [`NAME_MAX`]
/// characters of printable text; nothing left after trimming is no name.
///
/// # Errors
///
/// [`BodyError`] naming the rule.
///
/// ```
/// use race_server::wire::name_of;
///
/// assert_eq!(name_of(Some("  Ann ".into()))?.as_deref(), Some("Ann"));
/// assert_eq!(name_of(Some("   ".into()))?, None);
/// assert!(name_of(Some("a".repeat(25))).is_err());
/// assert!(name_of(Some("a\u{7}b".into())).is_err());
/// # Ok::<(), race_server::wire::BodyError>(())
/// ```
pub fn name_of(given: Option<String>) -> Result<Option<String>, BodyError> {
    let Some(given) = given else {
        return Ok(None);
    };
    let name = given.trim();
    if name.chars().count() > NAME_MAX || !name.chars().all(is_printable) {
        return Err(BodyError(format!(
            "a name is at most {NAME_MAX} characters of printable text, with no control \
             or invisible characters"
        )));
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenameBody {
    name: Option<String>,
}

/// Reads a rename body (`PATCH /api/games/{id}/seat`): `{"name": TEXT}`,
/// or `{"name": null}` for no name.
///
/// # Errors
///
/// [`BodyError`] naming what is wrong, or the rule of [`name_of`].
pub fn parse_rename(body: &[u8]) -> Result<Option<String>, BodyError> {
    let raw: RenameBody = json(body)?;
    name_of(raw.name)
}

/// `POST /api/games/{id}/moves`: a move for a ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The ply the move is for (the state's `ply`).
    pub ply: u32,
    /// The move text.
    #[serde(rename = "move")]
    pub mv: String,
}

/// Reads a move body; the move text may hold at most [`MOVE_MAX`] bytes.
///
/// # Errors
///
/// [`BodyError`] naming what is wrong.
///
/// ```
/// use race_server::wire::parse_move;
///
/// assert_eq!(parse_move(br#"{"ply": 3, "move": "a2-d2"}"#)?.ply, 3);
/// assert!(parse_move(br#"{"ply": -1, "move": "a2-d2"}"#).is_err());
/// assert!(parse_move(br#"{"ply": 3, "move": "a2-d2", "x": 1}"#).is_err());
/// # Ok::<(), race_server::wire::BodyError>(())
/// ```
pub fn parse_move(body: &[u8]) -> Result<MoveRequest, BodyError> {
    let req: MoveRequest = json(body)?;
    if req.mv.len() > MOVE_MAX {
        return Err(BodyError(format!(
            "a move text holds at most {MOVE_MAX} bytes, not {}",
            req.mv.len()
        )));
    }
    Ok(req)
}

/// `POST /api/games/{id}/join`: the invite token of the open seat (none
/// for a game open to anyone), and the joining client's own join key,
/// with which a retry of this join (its reply lost) is answered as the
/// first join was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite token (from the link's `#join=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The join key: random, chosen by the client, 22 to 128 URL-safe
    /// base64 characters (at least 128 bits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The joining player's name, checked by [`name_of`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Reads a join body; a join key must be 22 to 128 URL-safe base64
/// characters.
///
/// # Errors
///
/// [`BodyError`] naming what is wrong.
///
/// ```
/// use race_server::wire::parse_join;
///
/// let req = parse_join(br#"{"invite": "abc", "key": "0123456789abcdefghij-_"}"#)?;
/// assert_eq!(req.key.as_deref(), Some("0123456789abcdefghij-_"));
/// assert!(parse_join(br#"{"invite": "abc"}"#)?.key.is_none());
/// assert!(parse_join(br#"{}"#)?.invite.is_none());
/// assert!(parse_join(br#"{"invite": "abc", "key": "short"}"#).is_err());
/// # Ok::<(), race_server::wire::BodyError>(())
/// ```
pub fn parse_join(body: &[u8]) -> Result<JoinRequest, BodyError> {
    let mut req: JoinRequest = json(body)?;
    req.name = name_of(req.name)?;
    if let Some(key) = &req.key
        && !crate::secret::is_join_key(key)
    {
        return Err(BodyError(format!(
            "a join key must be {} to {} URL-safe base64 characters (A-Z, a-z, 0-9, - and _)",
            crate::secret::JOIN_KEY_MIN,
            crate::secret::JOIN_KEY_MAX,
        )));
    }
    Ok(req)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// Reads a body that says nothing (a resignation, a rematch offered or
/// withdrawn): none, or an empty JSON object.
///
/// # Errors
///
/// [`BodyError`] for anything else.
pub fn parse_empty(body: &[u8]) -> Result<(), BodyError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    json::<Empty>(body).map(drop)
}

/// How a finished game ended, in the state.
#[derive(Serialize)]
pub(crate) struct ResultView {
    /// `light`, `dark`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// `home`, `resign` or `cap`.
    pub how: &'static str,
}

/// Who holds each seat, in the state: `person`, `open` or `bot:LEVEL`.
#[derive(Serialize)]
pub(crate) struct SeatsView {
    /// Light's seat.
    pub light: String,
    /// Dark's seat.
    pub dark: String,
}

/// One thing for each seat, in the state: `names`, `presence`,
/// `presence_since`.
#[derive(Serialize)]
pub(crate) struct Pair<T> {
    /// Light's.
    pub light: T,
    /// Dark's.
    pub dark: T,
}

/// A rematch in the state.
#[derive(Serialize)]
pub(crate) struct RematchView<'a> {
    /// The seat that offered it.
    pub offered_by: &'static str,
    /// The game it started, once accepted.
    pub game: Option<&'a str>,
}

/// A game's state, as the contract writes it (`docs/server.md` lists what
/// the server adds: `light_chance`, `board`, the log entries' effects and
/// words, and `log_from` in a delta).
#[derive(Serialize)]
pub(crate) struct StateView<'a> {
    pub id: &'a str,
    pub game: &'static str,
    pub rules: String,
    pub status: &'static str,
    pub seats: SeatsView,
    pub names: Pair<Option<&'a str>>,
    /// `connected`, `away`, `bot` or `open`.
    pub presence: Pair<&'static str>,
    /// Since when each seat is `connected` or `away` (Unix seconds).
    pub presence_since: Pair<Option<i64>>,
    /// Event streams following the game that hold no seat.
    pub watchers: u32,
    pub rematch: Option<RematchView<'a>>,
    /// When the game last changed (created, a move, a join, a
    /// resignation, a rematch offered, withdrawn, declined or accepted),
    /// in Unix seconds.
    pub changed: i64,
    pub ply: u32,
    pub side: Option<&'static str>,
    pub roll: Option<u8>,
    pub faces: Option<String>,
    pub position: String,
    pub key: String,
    pub legal: Vec<String>,
    /// The legal moves with their routes and what landing does.
    pub moves: Vec<OfferView>,
    /// In a delta: the index of the first log entry it carries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_from: Option<usize>,
    pub log: Vec<LineView>,
    pub board: Board,
    pub result: Option<ResultView>,
    pub commitment: &'a str,
    pub seed: Option<&'a str>,
    pub record_url: String,
    pub light_chance: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_defaults_and_levels() {
        let req = parse_create(br#"{"game": "ur"}"#).unwrap();
        assert_eq!(
            req,
            CreateRequest {
                game: Kind::Ur,
                rules: None,
                opponent: Opponent::Bot,
                level: Level::Ladder(4),
                side: SideChoice::Random,
                name: None,
            }
        );
        let req = parse_create(
            br#"{"game": "ur", "rules": "masters", "opponent": "bot", "level": "perfect", "side": "dark"}"#,
        )
        .unwrap();
        assert_eq!(req.level, Level::Perfect);
        assert_eq!(req.side, SideChoice::Dark);
        for bad in [
            &br#"{}"#[..],
            br#"{"game": 1}"#,
            br#"{"game": "ur", "level": 0}"#,
            br#"{"game": "ur", "level": "top"}"#,
            br#"{"game": "ur", "level": 1.5}"#,
            br#"{"game": "ur", "side": "left"}"#,
            br#"{"game": "ur", "opponent": "cat"}"#,
            br#"{"game": "ur", "token": "x"}"#,
            br#"[]"#,
            b"",
            b"\xff\xfe",
        ] {
            assert!(
                parse_create(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn move_text_is_limited() {
        let ok = format!(r#"{{"ply": 0, "move": "{}"}}"#, "a".repeat(MOVE_MAX));
        assert!(parse_move(ok.as_bytes()).is_ok());
        let long = format!(r#"{{"ply": 0, "move": "{}"}}"#, "a".repeat(MOVE_MAX + 1));
        assert!(parse_move(long.as_bytes()).unwrap_err().0.contains("64"));
        assert!(parse_move(br#"{"ply": 4294967296, "move": "x"}"#).is_err());
        assert!(parse_move(br#"{"ply": "1", "move": "x"}"#).is_err());
        assert!(parse_move(br#"{"move": "x"}"#).is_err());
    }

    #[test]
    fn resign_takes_nothing_or_an_empty_object() {
        assert!(parse_empty(b"").is_ok());
        assert!(parse_empty(b" {} ").is_ok());
        assert!(parse_empty(br#"{"side": "light"}"#).is_err());
        // Lists are not objects, though serde would read a struct from one.
        assert!(parse_empty(b"[]").is_err());
        assert!(parse_move(br#"[3, "a2-d2"]"#).is_err());
        assert!(parse_join(br#"["x"]"#).is_err());
        assert!(parse_join(br#"{"invite": 5}"#).is_err());
        assert!(parse_join(br#"{"name": "Ann", "x": 1}"#).is_err());
    }
}
