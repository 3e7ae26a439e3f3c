//! Records: a whole game as text, read and written byte for byte.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use std::iter::Peekable;
use std::ops::RangeInclusive;

use crate::{Ending, Faces, Notation, Rules, Seed, Side};

/// One turn line of a record: who threw, what it was worth, the faces if
/// written, and the move (`None` for a turn lost to the roll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Turn<R: Rules> {
    /// The side that threw.
    pub side: Side,
    /// What the throw was worth.
    pub roll: u8,
    /// The faces, when the record gives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<Faces>,
    /// The move, or `None` for a lost turn.
    #[serde(rename = "move")]
    pub mv: Option<R::Move>,
}

/// A record's result line: `[result light home]`, `[result dark resign]`,
/// `[result draw ply_cap]` and so on. With `resign` the side named is the
/// winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecordResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub how: Ending,
}

impl RecordResult {
    /// The result a line's two words name, if they are one of the five:
    /// `light home`, `dark home`, `light resign`, `dark resign`, `draw ply_cap`.
    #[must_use]
    pub fn from_words(who: &str, how: &str) -> Option<RecordResult> {
        let winner = match who {
            "light" => Some(Side::Light),
            "dark" => Some(Side::Dark),
            "draw" => None,
            _ => return None,
        };
        let how = match how {
            "home" => Ending::Home,
            "resign" => Ending::Resign,
            "ply_cap" => Ending::PlyCap,
            _ => return None,
        };
        (winner.is_some() != (how == Ending::PlyCap)).then_some(RecordResult { winner, how })
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = self.winner.map_or("draw", Side::as_str);
        write!(f, "{who} {}", self.how)
    }
}

/// A whole game as a record: the rules, who moved first, the seed, and every
/// turn with its dice.
///
/// The text form (see [`Record::parse`] and `Display`) is:
///
/// ```text
/// [rules NAME-OR-FIELDS]
/// [first light|dark]
/// [EXTRA]                optional, game-specific (Senet: [light p2])
/// [seed HEX]             optional, lowercase hex of the seed bytes
/// [opening N]            optional, only with a seed: the opening throws
/// 1. l 3: MOVE           numbered turn lines: side, roll, optional faces
/// 2. d 0 0000: -         '-' is a turn lost to the roll
/// [result light home]    optional, last
/// ```
///
/// Lines end with `\n`, and parsing then formatting gives back the same bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Record<R: Notation> {
    /// The rule set.
    #[serde(
        rename = "rules",
        serialize_with = "text_out",
        deserialize_with = "rules_in::<R, _>"
    )]
    pub variant: R::Variant,
    /// Whether the rules line spells the fields out although the rule set has
    /// a name (kept so that such a record is written back as it was read).
    #[serde(default)]
    pub spelled_out: bool,
    /// The side that moved first.
    pub first: Side,
    /// The game's extra set-up.
    #[serde(default)]
    pub extra: R::Extra,
    /// The seed, for a game played with seeded dice.
    #[serde(default)]
    pub seed: Option<Seed>,
    /// How many opening throws decided the first side (0 when none).
    #[serde(default)]
    pub opening: u64,
    /// Every ply, in order.
    pub turns: Vec<Turn<R>>,
    /// The result, when the record has one.
    #[serde(default)]
    pub result: Option<RecordResult>,
}

fn text_out<T: fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// A record's rules, read as its rules line is (strictly).
fn rules_in<'de, R: Notation, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<R::Variant, D::Error> {
    let text = String::deserialize(deserializer)?;
    R::read_rules_line(&text).map_err(serde::de::Error::custom)
}

/// What is wrong with a record's text: the line (counted from 1; 0 for the
/// text as a whole), which check it failed, and a sentence saying what was
/// found there and, where it can, how to put it right.
///
/// `line` and `kind` are the contract (the reference gives the same); the
/// sentence is for people and may change. Serialized, the error is its line
/// and kind.
///
/// ```
/// use dice_core::toy::Toy;
/// use dice_core::{Record, RecordErrorKind};
///
/// let err = Record::<Toy>::parse("[rules toy]\r\n[first light]\r\n").unwrap_err();
/// assert_eq!((err.line, err.kind), (1, RecordErrorKind::Rules));
/// assert_eq!(
///     err.message(),
///     "line 1 ends with a carriage return (Windows line endings); \
///      convert the file to LF line endings"
/// );
/// assert_eq!(err.to_string(), format!("{} (rules)", err.message()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[error("{} ({kind})", self.message())]
pub struct ParseRecordError {
    /// The line, counted from 1; 0 for `empty` and `no_newline`.
    pub line: usize,
    /// The check it failed.
    pub kind: RecordErrorKind,
    /// The sentence for people; empty for the check's general one.
    #[serde(skip)]
    message: String,
}

impl ParseRecordError {
    /// An error at `line` for `kind`, with the check's general sentence.
    #[must_use]
    pub fn new(line: usize, kind: RecordErrorKind) -> ParseRecordError {
        ParseRecordError {
            line,
            kind,
            message: String::new(),
        }
    }

    /// The same error with a sentence saying what was found (naming the
    /// line, as [`ParseRecordError::message`] does).
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> ParseRecordError {
        self.message = message.into();
        self
    }

    /// A lowercase sentence naming the line and saying what is wrong there,
    /// without the check's name (which [`Display`](fmt::Display) adds), e.g.
    /// `line 4 is numbered 5, but it is turn 2`.
    #[must_use]
    pub fn message(&self) -> String {
        match (self.message.is_empty(), self.line) {
            (false, _) => self.message.clone(),
            (true, 0) => self.kind.meaning().to_owned(),
            (true, line) => format!("line {line}: {}", self.kind.meaning()),
        }
    }
}

/// The checks a record's text can fail, each with its contract word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// `empty`: there is no text.
    Empty,
    /// `no_newline`: the text does not end with a newline.
    NoNewline,
    /// `rules`: the first line is not a rules line these rules can read.
    Rules,
    /// `first`: the second line is not `[first light]` or `[first dark]`.
    First,
    /// `opening`: an odd opening count, or one without a seed.
    Opening,
    /// `after_result`: a line after the result line.
    AfterResult,
    /// `result`: a result line that names none of the five results.
    Result,
    /// `turn`: a line that is not a turn line.
    Turn,
    /// `number`: a turn line numbered out of order.
    Number,
    /// `side`: a turn line for the side that does not throw next.
    Side,
    /// `faces`: faces of the wrong length, or that do not make the roll or
    /// the seed's throw.
    Faces,
    /// `roll`: a roll that is not the seed's throw.
    Roll,
    /// `move`: a move that is not a move in its canonical text.
    Move,
}

impl RecordErrorKind {
    /// The contract word, e.g. `no_newline`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordErrorKind::Empty => "empty",
            RecordErrorKind::NoNewline => "no_newline",
            RecordErrorKind::Rules => "rules",
            RecordErrorKind::First => "first",
            RecordErrorKind::Opening => "opening",
            RecordErrorKind::AfterResult => "after_result",
            RecordErrorKind::Result => "result",
            RecordErrorKind::Turn => "turn",
            RecordErrorKind::Number => "number",
            RecordErrorKind::Side => "side",
            RecordErrorKind::Faces => "faces",
            RecordErrorKind::Roll => "roll",
            RecordErrorKind::Move => "move",
        }
    }

    /// The check's general sentence, for an error with nothing more to say.
    #[must_use]
    pub const fn meaning(self) -> &'static str {
        match self {
            RecordErrorKind::Empty => "the record is empty",
            RecordErrorKind::NoNewline => {
                "the last line has no newline (the file may be cut short)"
            }
            RecordErrorKind::Rules => "the first line is not a rules line these rules read",
            RecordErrorKind::First => "the second line is not [first light] or [first dark]",
            RecordErrorKind::Opening => "an opening count is even and comes after a seed",
            RecordErrorKind::AfterResult => "the result line must be the last",
            RecordErrorKind::Result => {
                "the results are light home, dark home, light resign, dark resign and draw ply_cap"
            }
            RecordErrorKind::Turn => "the line is not a turn line (N. S R[ FACES]: MOVE)",
            RecordErrorKind::Number => "the turn lines are numbered 1, 2, 3 ... in order",
            RecordErrorKind::Side => "the turn names the side that does not throw next",
            RecordErrorKind::Faces => "the faces do not fit the dice, the roll or the seed",
            RecordErrorKind::Roll => "the roll is not the seed's throw",
            RecordErrorKind::Move => "the move is not written as a record writes moves",
        }
    }
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The inside of a `[tag VALUE]` line, when the line is one.
fn header<'a>(line: &'a str, tag: &str) -> Option<&'a str> {
    line.strip_prefix('[')?
        .strip_suffix(']')?
        .strip_prefix(tag)?
        .strip_prefix(' ')
}

/// `[1-9][0-9]*`: the digits, when the text is a number written without a
/// leading zero.
fn plain_number(text: &str) -> Option<&str> {
    let first = text.bytes().next()?;
    (first != b'0' && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

/// How a line is shown in a message: quoted, with escapes (so that a
/// trailing space or a carriage return shows), cut after 60 characters.
fn quoted(line: &str) -> String {
    match line.char_indices().nth(60) {
        None => format!("{line:?}"),
        Some((at, _)) => format!("{:?}...", line.get(..at).unwrap_or(line)),
    }
}

/// What explains a line's failure better than its check: a carriage return
/// at its end (Windows line endings) or, on line 1, a byte-order mark.
fn line_fault(number: usize, line: &str) -> Option<String> {
    if line.ends_with('\r') {
        Some(format!(
            "line {number} ends with a carriage return (Windows line endings); \
             convert the file to LF line endings"
        ))
    } else if number == 1 && line.starts_with('\u{feff}') {
        Some(
            "line 1 starts with a byte-order mark (U+FEFF); save the file as UTF-8 without one"
                .to_owned(),
        )
    } else {
        None
    }
}

/// The error for line `number` failing `kind`: the line's own fault when it
/// has one, else `message`.
fn line_error(
    number: usize,
    line: &str,
    kind: RecordErrorKind,
    message: impl FnOnce() -> String,
) -> ParseRecordError {
    ParseRecordError::new(number, kind)
        .with_message(line_fault(number, line).unwrap_or_else(message))
}

/// The rules text of a record's first line, `[rules TEXT]`, after the checks
/// every record passes before its rules are read: `empty`, `no_newline`,
/// then the shape of line 1 (`rules`; TEXT is made of lowercase letters,
/// digits, `_`, `=` and spaces). Whether TEXT names a rule set is for the
/// game to say: this lets a program find which game a record is.
///
/// ```
/// use dice_core::{RecordErrorKind, record_rules};
///
/// assert_eq!(record_rules("[rules finkel]\n[first light]\n"), Ok("finkel"));
/// assert_eq!(record_rules("").unwrap_err().kind, RecordErrorKind::Empty);
/// assert_eq!(record_rules("[rules finkel]").unwrap_err().kind, RecordErrorKind::NoNewline);
/// assert_eq!(record_rules("rules finkel\n").unwrap_err().line, 1);
/// ```
///
/// # Errors
///
/// A [`ParseRecordError`] of kind `empty` or `no_newline` (line 0) or
/// `rules` (line 1).
pub fn record_rules(text: &str) -> Result<&str, ParseRecordError> {
    if text.is_empty() {
        return Err(ParseRecordError::new(0, RecordErrorKind::Empty));
    }
    if !text.ends_with('\n') {
        let last = text.rsplit('\n').next().unwrap_or(text);
        return Err(
            ParseRecordError::new(0, RecordErrorKind::NoNewline).with_message(format!(
                "the last line has no newline (the file may be cut short): it ends {}",
                quoted(last)
            )),
        );
    }
    let line = text.split('\n').next().unwrap_or("");
    header(line, "rules")
        .filter(|t| {
            !t.is_empty()
                && t.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_= ".contains(&b))
        })
        .ok_or_else(|| {
            line_error(1, line, RecordErrorKind::Rules, || {
                if header(line, "rules").is_some() {
                    format!(
                        "line 1, {}, holds more than lowercase letters, digits, _, = and spaces",
                        quoted(line)
                    )
                } else {
                    format!(
                        "line 1 should be the rules line, [rules NAME] or [rules FIELDS], \
                         but it is {}",
                        quoted(line)
                    )
                }
            })
        })
}

/// The counts of a range in words: `4`, `3 or 4`, `3 to 5`.
fn counts(range: &RangeInclusive<usize>) -> String {
    let (lo, hi) = (*range.start(), *range.end());
    match hi.checked_sub(lo) {
        Some(0) => lo.to_string(),
        Some(1) => format!("{lo} or {hi}"),
        _ => format!("{lo} to {hi}"),
    }
}

/// A turn line split into its fields, before any meaning is checked.
struct TurnLine<'a> {
    number: &'a str,
    side: Side,
    roll: u8,
    faces: Option<&'a str>,
    mv: &'a str,
}

/// `N. S R[ FACES]: MOVE`, or what keeps the line from having that shape.
fn turn_line<'a>(
    line: &'a str,
    max_roll: u8,
    faces_len: &RangeInclusive<usize>,
) -> Result<TurnLine<'a>, String> {
    if line.is_empty() {
        return Err("it is blank (a record has no blank lines)".to_owned());
    }
    if line.starts_with(char::is_whitespace) {
        return Err("it starts with a space".to_owned());
    }
    if line.ends_with(char::is_whitespace) {
        return Err("it ends with a space".to_owned());
    }
    if line.starts_with('[') {
        let why = if header(line, "seed").is_some() {
            "a seed line holds an even number of lowercase hex digits and comes right after \
             the first line"
        } else if header(line, "opening").is_some() {
            "an opening line holds an even number from 2 up and comes right after the seed line"
        } else if header(line, "result").is_some() {
            "a result line is lowercase, e.g. [result light home]"
        } else {
            "it is a bracket line that is not a header here (the headers are [rules], \
             [first], [seed HEX], [opening N], in that order before the turns, and \
             [result W H] last)"
        };
        return Err(why.to_owned());
    }
    let (number, rest) = line
        .split_once(". ")
        .ok_or("the turn number is not followed by \". \"")?;
    let number = plain_number(number).ok_or("the turn number is not a number from 1 up")?;
    let mut chars = rest.chars();
    let side = chars
        .next()
        .and_then(Side::from_letter)
        .ok_or("the side is not l or d")?;
    let rest = chars
        .as_str()
        .strip_prefix(' ')
        .ok_or("the side is not followed by one space")?;
    let (head, mv) = rest
        .split_once(": ")
        .ok_or("the roll (and faces) are not followed by \": \" and the move")?;
    if mv.is_empty() || mv.contains(char::is_whitespace) {
        return Err("the move is empty or holds a space".to_owned());
    }
    let (roll, faces) = match head.split_once(' ') {
        Some((roll, faces)) => (roll, Some(faces)),
        None => (head, None),
    };
    let roll = match roll.as_bytes() {
        [digit @ b'0'..=b'9'] if digit - b'0' <= max_roll => digit - b'0',
        _ => {
            return Err(format!(
                "the roll {roll:?} is not one digit from 0 to {max_roll}"
            ));
        }
    };
    if let Some(faces) = faces
        && (!faces_len.contains(&faces.len()) || !faces.bytes().all(|b| b == b'0' || b == b'1'))
    {
        return Err(format!(
            "the faces {faces:?} are not {} digits 0 and 1",
            counts(faces_len)
        ));
    }
    Ok(TurnLine {
        number,
        side,
        roll,
        faces,
        mv,
    })
}

/// Line 2, `[first light]` or `[first dark]`: the side that throws first.
fn first_line(line: Option<(usize, &str)>) -> Result<Side, ParseRecordError> {
    match line {
        Some((_, line)) => match header(line, "first") {
            Some("light") => Ok(Side::Light),
            Some("dark") => Ok(Side::Dark),
            _ => Err(line_error(2, line, RecordErrorKind::First, || {
                format!(
                    "line 2 should be [first light] or [first dark], but it is {}",
                    quoted(line)
                )
            })),
        },
        None => Err(
            ParseRecordError::new(2, RecordErrorKind::First).with_message(
                "line 2 is missing: the record ends after its rules line, and line 2 \
                 should be [first light] or [first dark]",
            ),
        ),
    }
}

/// The game's own header after the first line, if the next line is one
/// (taken from `lines`); else the default.
fn extra_header<'a, R: Notation, I: Iterator<Item = (usize, &'a str)>>(
    lines: &mut Peekable<I>,
) -> R::Extra {
    let found = lines
        .peek()
        .and_then(|(_, line)| R::read_extra_header(line.strip_prefix('[')?.strip_suffix(']')?));
    if found.is_some() {
        lines.next();
    }
    found.unwrap_or_default()
}

/// The `[seed HEX]` header, if the next line is one (taken from `lines`).
fn seed_header<'a, I: Iterator<Item = (usize, &'a str)>>(lines: &mut Peekable<I>) -> Option<Seed> {
    let found = lines.peek().and_then(|(_, line)| {
        header(line, "seed")
            .filter(|hex| {
                hex.len() % 2 == 0 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            })
            .and_then(|hex| Seed::from_hex(hex).ok())
    });
    if found.is_some() {
        lines.next();
    }
    found
}

/// The `[opening N]` header, if the next line is one (taken from `lines`):
/// how many of the seed's throws the opening used, 0 without one.
fn opening_header<'a, I: Iterator<Item = (usize, &'a str)>>(
    lines: &mut Peekable<I>,
    seeded: bool,
) -> Result<u64, ParseRecordError> {
    let Some(&(line, text)) = lines.peek() else {
        return Ok(0);
    };
    let Some(count) = header(text, "opening").and_then(plain_number) else {
        return Ok(0);
    };
    let fail = |why: &str| {
        ParseRecordError::new(line, RecordErrorKind::Opening)
            .with_message(format!("line {line}, [opening {count}]: {why}"))
    };
    let opening = count
        .parse::<u64>()
        .map_err(|_| fail("the count is far too large"))?;
    if !opening.is_multiple_of(2) {
        return Err(fail(
            "the count is odd, but opening throws come in pairs (light's, then dark's)",
        ));
    }
    if !seeded {
        return Err(fail(
            "an opening comes only after a [seed] line, and this record has none",
        ));
    }
    lines.next();
    Ok(opening)
}

/// The turn lines and the result line of a record, read one at a time.
struct TurnLines<'t, R: Notation> {
    variant: &'t R::Variant,
    seed: Option<&'t Seed>,
    dice: u8,
    max_roll: u8,
    faces_len: RangeInclusive<usize>,
    turns: Vec<Turn<R>>,
    /// The result and its line, once read.
    result: Option<(usize, RecordResult)>,
    /// Who throws next; `None` when the line before cannot tell (the
    /// replay checks it against the game).
    expected: Option<Side>,
    /// Why `expected` throws next: the line before and what it did.
    because: Option<(usize, &'t str, &'static str)>,
    /// The seed's throw the next turn uses.
    counter: u64,
}

impl<'t, R: Notation> TurnLines<'t, R> {
    /// Ready for the first turn: `first` throws it, and the seed's throws
    /// go on after the opening's.
    fn new(variant: &'t R::Variant, seed: Option<&'t Seed>, first: Side, opening: u64) -> Self {
        TurnLines {
            variant,
            seed,
            dice: R::dice(variant),
            max_roll: R::max_roll(variant),
            faces_len: R::faces_len(variant),
            turns: Vec::new(),
            result: None,
            expected: Some(first),
            because: None,
            counter: opening,
        }
    }

    /// Reads line `line`, `text`: a turn, or the result.
    fn read(&mut self, line: usize, text: &'t str) -> Result<(), ParseRecordError> {
        if let Some((at, _)) = self.result {
            return Err(line_error(line, text, RecordErrorKind::AfterResult, || {
                format!(
                    "line {line}, {}, follows the result line (line {at}), which must be the last",
                    quoted(text)
                )
            }));
        }
        if let Some(found) = result_line(line, text)? {
            self.result = Some((line, found));
            return Ok(());
        }
        let turn = turn_line(text, self.max_roll, &self.faces_len).map_err(|why| {
            line_error(line, text, RecordErrorKind::Turn, || {
                format!(
                    "line {line} is not a turn line (N. S R[ FACES]: MOVE): {why}: {}",
                    quoted(text)
                )
            })
        })?;
        self.check_number_and_side(line, &turn)?;
        let faces = self.faces(line, &turn)?;
        self.check_seed(line, &turn, faces)?;
        self.counter += 1;
        let mv = self.read_move(line, turn.mv)?;
        let variant = self.variant;
        self.expected = R::next_in_record(variant, turn.side, turn.roll, mv);
        self.because = Some((
            line,
            text,
            R::next_in_record_why(variant, turn.side, turn.roll, mv),
        ));
        self.turns.push(Turn {
            side: turn.side,
            roll: turn.roll,
            faces,
            mv,
        });
        Ok(())
    }

    /// Whether the turn is numbered as the next and names the side that
    /// throws next.
    fn check_number_and_side(
        &self,
        line: usize,
        turn: &TurnLine<'_>,
    ) -> Result<(), ParseRecordError> {
        let fail = |kind, message: String| ParseRecordError::new(line, kind).with_message(message);
        if turn.number.parse::<usize>().ok() != Some(self.turns.len() + 1) {
            return Err(fail(
                RecordErrorKind::Number,
                format!(
                    "line {line} is numbered {}, but it is turn {}",
                    turn.number,
                    self.turns.len() + 1
                ),
            ));
        }
        if let Some(expected) = self.expected
            && turn.side != expected
        {
            let why = match self.because {
                Some((at, before, what)) => format!("line {at}, {}, {what}", quoted(before)),
                None => format!("{expected} moves first ([first {expected}] on line 2)"),
            };
            return Err(fail(
                RecordErrorKind::Side,
                format!(
                    "line {line} names {} to throw, but {expected} throws here: {why}",
                    turn.side
                ),
            ));
        }
        Ok(())
    }

    /// The turn's faces, if it gives them: as many as the rules throw, and
    /// worth the turn's roll.
    fn faces(&self, line: usize, turn: &TurnLine<'_>) -> Result<Option<Faces>, ParseRecordError> {
        let Some(digits) = turn.faces else {
            return Ok(None);
        };
        let fail = |message: String| {
            ParseRecordError::new(line, RecordErrorKind::Faces).with_message(message)
        };
        let faces: Faces = digits
            .parse()
            .map_err(|_| fail(format!("line {line}: the faces {digits} are not faces")))?;
        let dice = self.dice;
        if faces.len() != dice {
            return Err(fail(format!(
                "line {line}: the faces {faces} are {} dice, but these rules throw {dice}",
                faces.len()
            )));
        }
        let worth = R::roll(self.variant, faces);
        if worth != turn.roll {
            return Err(fail(format!(
                "line {line}: the faces {faces} make a roll of {worth}, not {}",
                turn.roll
            )));
        }
        Ok(Some(faces))
    }

    /// With a seed, whether the turn's roll and faces are the seed's next
    /// throw.
    fn check_seed(
        &self,
        line: usize,
        turn: &TurnLine<'_>,
        faces: Option<Faces>,
    ) -> Result<(), ParseRecordError> {
        let Some(seed) = self.seed else {
            return Ok(());
        };
        let counter = self.counter;
        let fail = |kind, message: String| ParseRecordError::new(line, kind).with_message(message);
        let thrown = Faces::thrown(seed, counter, self.dice);
        let worth = R::roll(self.variant, thrown);
        if worth != turn.roll {
            return Err(fail(
                RecordErrorKind::Roll,
                format!(
                    "line {line} says a roll of {}, but throw {counter} of the seed is \
                     {thrown}, a roll of {worth}",
                    turn.roll
                ),
            ));
        }
        if let Some(faces) = faces
            && faces != thrown
        {
            return Err(fail(
                RecordErrorKind::Faces,
                format!(
                    "line {line} says the faces {faces}, but throw {counter} of the seed \
                     is {thrown}"
                ),
            ));
        }
        Ok(())
    }

    /// The turn's move, `None` for `-` (a lost turn), spelled as records
    /// spell moves.
    fn read_move(&self, line: usize, written: &str) -> Result<Option<R::Move>, ParseRecordError> {
        if written == "-" {
            return Ok(None);
        }
        let fail = |message: String| {
            ParseRecordError::new(line, RecordErrorKind::Move).with_message(message)
        };
        match R::parse_move(self.variant, written) {
            Ok(mv) if mv.to_string() == written => Ok(Some(mv)),
            Ok(mv) => Err(fail(format!(
                "line {line}: the move {written:?} is not spelled as records \
                 spell moves; write it {mv}"
            ))),
            Err(e) => Err(fail(format!("line {line}: {written:?} is not a move: {e}"))),
        }
    }
}

/// A `[result WHO HOW]` line in lowercase words, as the result it names;
/// `None` when the line is not one (it is then read as a turn line).
fn result_line(line: usize, text: &str) -> Result<Option<RecordResult>, ParseRecordError> {
    let Some((who, how)) = header(text, "result").and_then(|words| words.split_once(' ')) else {
        return Ok(None);
    };
    let lowercase =
        |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    if !(lowercase(who) && lowercase(how)) {
        return Ok(None);
    }
    RecordResult::from_words(who, how).map(Some).ok_or_else(|| {
        ParseRecordError::new(line, RecordErrorKind::Result).with_message(format!(
            "line {line}, {}, names no result; the results are light home, \
             dark home, light resign, dark resign and draw ply_cap",
            quoted(text)
        ))
    })
}

impl<R: Notation> Record<R> {
    /// Reads a record's text.
    ///
    /// The checks run in order: the text as a whole (`empty`, `no_newline`),
    /// the rules line, the first line, the optional headers (`opening`), then
    /// each line: `after_result`, `result`, `turn`, `number`, `side`,
    /// `faces`, and with a seed `roll` and `faces` against the seed's throw,
    /// then `move`. Moves are not checked against a board here; replaying
    /// does that.
    ///
    /// # Errors
    ///
    /// A [`ParseRecordError`] naming the line and the check, with a sentence
    /// saying what was found (for a `side` error, which side the line names,
    /// which should throw and why).
    pub fn parse(text: &str) -> Result<Record<R>, ParseRecordError> {
        let rules_text = record_rules(text)?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut lines = body
            .split('\n')
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .peekable();
        lines.next();
        let variant = R::read_rules_line(rules_text).map_err(|e| {
            ParseRecordError::new(1, RecordErrorKind::Rules)
                .with_message(format!("line 1 names no rule set of this game: {e}"))
        })?;
        let spelled_out = rules_text != variant.to_string();
        let first = first_line(lines.next())?;
        let extra = extra_header::<R, _>(&mut lines);
        let seed = seed_header(&mut lines);
        let opening = opening_header(&mut lines, seed.is_some())?;
        let mut reader = TurnLines::<R>::new(&variant, seed.as_ref(), first, opening);
        for (line, text) in lines {
            reader.read(line, text)?;
        }
        let TurnLines { turns, result, .. } = reader;
        Ok(Record {
            variant,
            spelled_out,
            first,
            extra,
            seed,
            opening,
            turns,
            result: result.map(|(_, r)| r),
        })
    }

    /// The line of the record text that holds turn `ply` (counted from 0),
    /// counted from 1; for `ply` equal to the number of turns, the line
    /// after the last turn (where the result line is).
    ///
    /// ```
    /// use dice_core::toy::Toy;
    /// use dice_core::Record;
    ///
    /// let record = Record::<Toy>::parse("[rules toy]\n[first light]\n1. l 2: 0-2\n")?;
    /// assert_eq!(record.line_of(0), 3);
    /// assert_eq!(record.line_of(1), 4);
    /// # Ok::<(), dice_core::ParseRecordError>(())
    /// ```
    #[must_use]
    pub fn line_of(&self, ply: usize) -> usize {
        let headers = 2
            + usize::from(R::extra_header(&self.extra).is_some())
            + usize::from(self.seed.is_some())
            + usize::from(self.opening != 0);
        headers + ply + 1
    }

    /// The text of the rules line (without brackets).
    #[must_use]
    pub fn rules_text(&self) -> String {
        if self.spelled_out {
            R::spelled_out(&self.variant)
        } else {
            self.variant.to_string()
        }
    }
}

/// Writes the record text, lines ending with `\n`.
impl<R: Notation> fmt::Display for Record<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[rules {}]", self.rules_text())?;
        writeln!(f, "[first {}]", self.first)?;
        if let Some(extra) = R::extra_header(&self.extra) {
            writeln!(f, "[{extra}]")?;
        }
        if let Some(seed) = &self.seed {
            writeln!(f, "[seed {seed}]")?;
        }
        if self.opening != 0 {
            writeln!(f, "[opening {}]", self.opening)?;
        }
        let mut line = String::new();
        for (i, turn) in self.turns.iter().enumerate() {
            line.clear();
            let _ = write!(line, "{}. {} {}", i + 1, turn.side.letter(), turn.roll);
            if let Some(faces) = turn.faces {
                let _ = write!(line, " {faces}");
            }
            match turn.mv {
                Some(mv) => {
                    let _ = write!(line, ": {mv}");
                }
                None => line.push_str(": -"),
            }
            writeln!(f, "{line}")?;
        }
        if let Some(result) = self.result {
            writeln!(f, "[result {result}]")?;
        }
        Ok(())
    }
}
