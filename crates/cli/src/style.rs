//! How text is drawn: colour or not, Unicode or plain ASCII.

use std::io::IsTerminal;

/// What a drawing may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Style {
    /// ANSI colour escapes.
    pub color: bool,
    /// Unicode glyphs; plain ASCII when false.
    pub unicode: bool,
}

/// The few colours the drawings use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// Light's pieces.
    Light,
    /// Dark's pieces.
    Dark,
    /// The last move's squares.
    Mark,
    /// Labels and empty squares.
    Dim,
    /// Headings.
    Bold,
    /// Refusals.
    Warn,
}

impl Style {
    /// The style for standard output: colour only on a terminal and when
    /// `NO_COLOR` is not set; Unicode unless `ascii`.
    pub fn for_stdout(ascii: bool, no_color: bool) -> Style {
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            color: !no_color && !no_color_env && std::io::stdout().is_terminal(),
            unicode: !ascii,
        }
    }

    /// `text` in a colour, when colour is on.
    pub fn paint(&self, text: &str, paint: Paint) -> String {
        if !self.color {
            return text.to_owned();
        }
        let code = match paint {
            Paint::Light => "1;33",
            Paint::Dark => "1;36",
            Paint::Mark => "7",
            Paint::Dim => "2",
            Paint::Bold => "1",
            Paint::Warn => "1;31",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }

    /// The Unicode glyph, or the ASCII one.
    pub fn pick<'a>(&self, unicode: &'a str, ascii: &'a str) -> &'a str {
        if self.unicode { unicode } else { ascii }
    }
}
