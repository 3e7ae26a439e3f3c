//! Records: a whole game as text, read and written byte for byte.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Faces, How, Rules, Seed, Side};

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
    pub how: How,
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
            "home" => How::Home,
            "resign" => How::Resign,
            "ply_cap" => How::PlyCap,
            _ => return None,
        };
        (winner.is_some() != (how == How::PlyCap)).then_some(RecordResult { winner, how })
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
pub struct Record<R: Rules> {
    /// The rule set.
    #[serde(
        rename = "rules",
        serialize_with = "text_out",
        deserialize_with = "text_in"
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

fn text_in<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: std::str::FromStr<Err: fmt::Display>,
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// What is wrong with a record's text: the line (counted from 1; 0 for the
/// text as a whole) and which check it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[error("record line {line}: {kind}")]
pub struct ParseRecordError {
    /// The line, counted from 1; 0 for `empty` and `no_newline`.
    pub line: usize,
    /// The check it failed.
    pub kind: RecordErrorKind,
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

/// A turn line split into its fields, before any meaning is checked.
struct TurnLine<'a> {
    number: &'a str,
    side: Side,
    roll: u8,
    faces: Option<&'a str>,
    mv: &'a str,
}

/// `N. S R[ FACES]: MOVE`, or `None` when the line does not have that shape.
fn turn_line(line: &str, max_roll: u8) -> Option<TurnLine<'_>> {
    let (number, rest) = line.split_once(". ")?;
    let number = plain_number(number)?;
    let mut chars = rest.chars();
    let side = Side::from_letter(chars.next()?)?;
    let rest = chars.as_str().strip_prefix(' ')?;
    let (head, mv) = rest.split_once(": ")?;
    if mv.is_empty() || mv.contains(char::is_whitespace) {
        return None;
    }
    let (roll, faces) = match head.split_once(' ') {
        Some((roll, faces)) => (roll, Some(faces)),
        None => (head, None),
    };
    let roll = match roll.as_bytes() {
        [digit @ b'0'..=b'9'] if digit - b'0' <= max_roll => digit - b'0',
        _ => return None,
    };
    if let Some(faces) = faces
        && (!(3..=4).contains(&faces.len()) || !faces.bytes().all(|b| b == b'0' || b == b'1'))
    {
        return None;
    }
    Some(TurnLine {
        number,
        side,
        roll,
        faces,
        mv,
    })
}

impl<R: Rules> Record<R> {
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
    /// A [`ParseRecordError`] naming the line and the check.
    pub fn parse(text: &str) -> Result<Record<R>, ParseRecordError> {
        let fail = |line, kind| ParseRecordError { line, kind };
        if text.is_empty() {
            return Err(fail(0, RecordErrorKind::Empty));
        }
        let Some(body) = text.strip_suffix('\n') else {
            return Err(fail(0, RecordErrorKind::NoNewline));
        };
        let mut lines = body
            .split('\n')
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .peekable();

        let rules_text = lines
            .next()
            .and_then(|(_, line)| header(line, "rules"))
            .filter(|t| {
                !t.is_empty()
                    && t.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || b"_= ".contains(&b)
                    })
            })
            .ok_or(fail(1, RecordErrorKind::Rules))?;
        let variant: R::Variant = rules_text
            .parse()
            .map_err(|_| fail(1, RecordErrorKind::Rules))?;
        let spelled_out = rules_text != variant.to_string();

        let first = match lines.next() {
            Some((_, line)) => match header(line, "first") {
                Some("light") => Side::Light,
                Some("dark") => Side::Dark,
                _ => return Err(fail(2, RecordErrorKind::First)),
            },
            None => return Err(fail(2, RecordErrorKind::First)),
        };

        let mut extra = R::Extra::default();
        if let Some(found) = lines
            .peek()
            .and_then(|(_, line)| R::read_extra_header(line.strip_prefix('[')?.strip_suffix(']')?))
        {
            extra = found;
            lines.next();
        }

        let mut seed = None;
        if let Some(found) = lines.peek().and_then(|(_, line)| {
            header(line, "seed")
                .filter(|hex| {
                    hex.len() % 2 == 0
                        && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
                })
                .and_then(|hex| Seed::from_hex(hex).ok())
        }) {
            seed = Some(found);
            lines.next();
        }

        let mut opening = 0;
        if let Some(&(line, text)) = lines.peek()
            && let Some(count) = header(text, "opening").and_then(plain_number)
        {
            opening = count
                .parse::<u64>()
                .ok()
                .filter(|n| n.is_multiple_of(2) && seed.is_some())
                .ok_or(fail(line, RecordErrorKind::Opening))?;
            lines.next();
        }

        let dice = R::dice(&variant);
        let mut turns: Vec<Turn<R>> = Vec::new();
        let mut result = None;
        let mut expected = first;
        let mut counter = opening;
        for (line, text) in lines {
            if result.is_some() {
                return Err(fail(line, RecordErrorKind::AfterResult));
            }
            if let Some((who, how)) = header(text, "result").and_then(|words| words.split_once(' '))
            {
                let lowercase = |w: &str| {
                    !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                };
                if lowercase(who) && lowercase(how) {
                    result = Some(
                        RecordResult::from_words(who, how)
                            .ok_or(fail(line, RecordErrorKind::Result))?,
                    );
                    continue;
                }
            }
            let turn = turn_line(text, R::MAX_ROLL).ok_or(fail(line, RecordErrorKind::Turn))?;
            if turn.number.parse::<usize>().ok() != Some(turns.len() + 1) {
                return Err(fail(line, RecordErrorKind::Number));
            }
            if turn.side != expected {
                return Err(fail(line, RecordErrorKind::Side));
            }
            let faces = match turn.faces {
                Some(digits) => {
                    let faces: Faces = digits
                        .parse()
                        .map_err(|_| fail(line, RecordErrorKind::Faces))?;
                    if faces.len() != dice || R::roll(&variant, faces) != turn.roll {
                        return Err(fail(line, RecordErrorKind::Faces));
                    }
                    Some(faces)
                }
                None => None,
            };
            if let Some(seed) = &seed {
                let thrown = Faces::thrown(seed, counter, dice);
                if R::roll(&variant, thrown) != turn.roll {
                    return Err(fail(line, RecordErrorKind::Roll));
                }
                if faces.is_some_and(|f| f != thrown) {
                    return Err(fail(line, RecordErrorKind::Faces));
                }
            }
            counter += 1;
            let mv = match turn.mv {
                "-" => None,
                text => Some(
                    text.parse::<R::Move>()
                        .ok()
                        .filter(|mv| mv.to_string() == text)
                        .ok_or(fail(line, RecordErrorKind::Move))?,
                ),
            };
            expected = R::next_in_record(&variant, turn.side, turn.roll, mv);
            turns.push(Turn {
                side: turn.side,
                roll: turn.roll,
                faces,
                mv,
            });
        }
        Ok(Record {
            variant,
            spelled_out,
            first,
            extra,
            seed,
            opening,
            turns,
            result,
        })
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
impl<R: Rules> fmt::Display for Record<R> {
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
