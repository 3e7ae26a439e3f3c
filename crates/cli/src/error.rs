//! Refusals (exit 1) and how they are reported: one line on stderr, and the
//! JSON object for `--json` commands.

use std::fmt;

use serde_json::{Map, Value, json};

/// Why a command did not do what it was asked, with the input it names.
///
/// A refusal is about the input (a bad record, position, move, seed or
/// file); it exits with code 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The contract word, e.g. `bad_record`, `POS_GAP`, `wrong_distance`.
    pub code: &'static str,
    /// The parse error or replay reason of a `bad_record`.
    pub why: Option<&'static str>,
    /// The line of the input, counted from 1.
    pub line: Option<u32>,
    /// The ply of the game, counted from 0.
    pub ply: Option<u32>,
    /// Anything more a program may want (the text refused, the move ...),
    /// boxed so that a `Result<_, Refused>` stays small.
    pub detail: Box<Map<String, Value>>,
    /// What was refused: a file name, `--position`, `standard input` ...
    pub input: String,
    /// A lowercase sentence saying what was wrong.
    pub message: String,
}

impl Refused {
    /// A refusal of `input` with `code` and a message.
    pub fn new(
        input: impl Into<String>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Refused {
        Refused {
            code,
            why: None,
            line: None,
            ply: None,
            detail: Box::default(),
            input: input.into(),
            message: message.into(),
        }
    }

    /// Sets `why`.
    #[must_use]
    pub fn why(mut self, why: &'static str) -> Refused {
        self.why = Some(why);
        self
    }

    /// Sets the line.
    #[must_use]
    pub fn line(mut self, line: usize) -> Refused {
        self.line = Some(u32::try_from(line).unwrap_or(u32::MAX));
        self
    }

    /// Adds a detail field.
    #[must_use]
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> Refused {
        self.detail.insert(key.to_owned(), value.into());
        self
    }

    /// The JSON object a `--json` command prints for this refusal.
    pub fn to_json(&self) -> Value {
        json!({
            "ok": false,
            "error": {
                "code": self.code,
                "why": self.why,
                "line": self.line,
                "ply": self.ply,
                "detail": self.detail,
            }
        })
    }
}

impl fmt::Display for Refused {
    /// One line: `INPUT[ line N][ ply N]: CODE[ (WHY)]: MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.input)?;
        if let Some(line) = self.line {
            write!(f, " line {line}")?;
        }
        if let Some(ply) = self.ply {
            write!(f, " ply {ply}")?;
        }
        write!(f, ": {}", self.code)?;
        if let Some(why) = &self.why {
            write!(f, " ({why})")?;
        }
        // Keep it to one line whatever the message quotes.
        let message: String = self
            .message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(300)
            .collect();
        write!(f, ": {message}")
    }
}

/// How a command failed, which decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// The input was refused: exit 1.
    Refused(Box<Refused>),
    /// The command line was wrong in a way clap could not see: exit 2.
    Usage(String),
    /// Writing the output failed (other than a closed pipe): exit 1.
    Io(std::io::Error),
}

impl From<Refused> for Failure {
    fn from(r: Refused) -> Failure {
        Failure::Refused(Box::new(r))
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// A short result alias for commands.
pub type Outcome<T = ()> = Result<T, Failure>;
