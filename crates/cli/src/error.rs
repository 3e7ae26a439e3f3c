//! Refusals (exit 1) and how they are reported: one line on stderr, and the
//! JSON object for `--json` commands.

use std::fmt;

use serde_json::{Map, Value, json};

/// Why a command did not do what it was asked, with the input it names.
///
/// A refusal is about the input (a bad record, position, rules, roll, move,
/// seed or file); it exits with code 1. On stderr it is one line,
/// `race: WHERE: WHAT (CODE[, WHY])`: where the input came from, a plain
/// sentence (which names the line or ply of a record itself), and the
/// machine's words once, in parentheses.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The contract word, e.g. `bad_record`, `POS_GAP`, `wrong_distance`.
    pub code: &'static str,
    /// The parse error or replay reason of a `bad_record`, or the problem
    /// of an `inconsistent` position.
    pub why: Option<&'static str>,
    /// The line of the input, counted from 1 (0 for the text as a whole).
    pub line: Option<u32>,
    /// The ply of the game, counted from 0.
    pub ply: Option<u32>,
    /// Anything more a program may want (the text refused, the move ...),
    /// boxed so that a `Result<_, Refused>` stays small.
    pub detail: Box<Map<String, Value>>,
    /// Fields the JSON answer carries beside `ok` and `error` (what a
    /// command could still say about the input).
    pub report: Box<Map<String, Value>>,
    /// Where the input came from: a file name, `--position`, `standard
    /// input` ...
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
            report: Box::default(),
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

    /// Sets the ply.
    #[must_use]
    pub fn ply(mut self, ply: usize) -> Refused {
        self.ply = Some(u32::try_from(ply).unwrap_or(u32::MAX));
        self
    }

    /// Adds a detail field.
    #[must_use]
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> Refused {
        self.detail.insert(key.to_owned(), value.into());
        self
    }

    /// Puts these fields in the JSON answer, between `ok` and `error`.
    #[must_use]
    pub fn report(mut self, fields: Map<String, Value>) -> Refused {
        *self.report = fields;
        self
    }

    /// The JSON object a `--json` command prints for this refusal: `ok`
    /// false, what the command could still say, and the `error`, with
    /// every field always there (`null` when it does not apply): `code`,
    /// `message` (the sentence of the stderr line), `why`, `line`, `ply`
    /// and `detail`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("ok".to_owned(), Value::Bool(false));
        out.extend(self.report.iter().map(|(k, v)| (k.clone(), v.clone())));
        out.insert(
            "error".to_owned(),
            json!({
                "code": self.code,
                "message": one_line(&self.message),
                "why": self.why,
                "line": self.line,
                "ply": self.ply,
                "detail": self.detail,
            }),
        );
        Value::Object(out)
    }
}

impl fmt::Display for Refused {
    /// One line: `INPUT: MESSAGE (CODE[, WHY])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({}",
            self.input,
            one_line(&self.message),
            self.code
        )?;
        if let Some(why) = self.why {
            write!(f, ", {why}")?;
        }
        f.write_str(")")
    }
}

/// The text on one line, whatever it quotes, and not too long to read.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(400)
        .collect()
}

/// The code of a usage error, in its stderr line and its JSON.
pub const USAGE: &str = "usage";

/// How a command failed, which decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// The input was refused: exit 1.
    Refused(Box<Refused>),
    /// The command line was wrong in a way clap could not see (an option
    /// value out of range ...): exit 2.
    Usage {
        /// The option, e.g. `--level`.
        input: String,
        /// What is wrong with its value.
        message: String,
    },
    /// Writing the output failed (other than a closed pipe): exit 1.
    Io(std::io::Error),
    /// A signal (or Ctrl-C at the game's screen) stopped the command:
    /// exit 128 + the signal's number.
    Interrupted(i32),
}

impl Failure {
    /// A usage error: `input`'s value is not one the command takes.
    pub fn usage(input: impl Into<String>, message: impl Into<String>) -> Failure {
        Failure::Usage {
            input: input.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    /// The line on stderr after `race: `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Refused(r) => r.fmt(f),
            Failure::Usage { input, message } if input.is_empty() => {
                write!(f, "{} ({USAGE})", one_line(message))
            }
            Failure::Usage { input, message } => {
                write!(f, "{input}: {} ({USAGE})", one_line(message))
            }
            Failure::Io(e) => write!(f, "output: {}", io_words(e)),
            Failure::Interrupted(sig) => write!(f, "stopped by {}", signal_name(*sig)),
        }
    }
}

impl Failure {
    /// The JSON object a `--json` command prints for this failure: a
    /// refusal's, or a usage error's in the same shape (code `usage`);
    /// `None` when output itself failed or a signal stopped the command.
    pub fn to_json(&self) -> Option<Value> {
        match self {
            Failure::Refused(r) => Some(r.to_json()),
            Failure::Usage { input, message } => {
                Some(Refused::new(input.as_str(), USAGE, message.as_str()).to_json())
            }
            Failure::Io(_) | Failure::Interrupted(_) => None,
        }
    }
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

/// A lowercase description of an I/O error, without the OS error number.
pub fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        _ => {
            let text = e.to_string().to_lowercase();
            match text.find(" (os error") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
    }
}

/// A signal's name: `SIGINT`, `SIGHUP`, `SIGTERM`, or its number.
pub fn signal_name(sig: i32) -> String {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    match sig {
        SIGINT => "SIGINT".to_owned(),
        SIGHUP => "SIGHUP".to_owned(),
        SIGTERM => "SIGTERM".to_owned(),
        other => format!("signal {other}"),
    }
}

/// A short result alias for commands.
pub type Outcome<T = ()> = Result<T, Failure>;
