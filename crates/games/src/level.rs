//! [`Level`]: how strong a bot is asked to play, as people write it.

use std::fmt;
use std::str::FromStr;

use dice_core::LEVEL_ASKED_MAX;

/// A bot level: a rung of the ladder, its top, or the perfect player over
/// a solved table.
///
/// ```
/// use race_games::Level;
///
/// assert_eq!("3".parse::<Level>()?, Level::Ladder(3));
/// assert_eq!("top".parse::<Level>()?, Level::Top);
/// assert_eq!("perfect".parse::<Level>()?, Level::Perfect);
/// assert_eq!("05".parse::<Level>().unwrap_err().code(), "level");
/// # Ok::<(), race_games::ParseLevelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A rung of the ladder, 1 to 99 (above the game's top it plays the top).
    Ladder(u8),
    /// The top of the game's ladder.
    Top,
    /// The perfect player, reading a solved table.
    Perfect,
}

/// Text that is no level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no level {text:?}")]
pub struct ParseLevelError {
    /// The text given.
    pub text: String,
}

impl ParseLevelError {
    /// The contract word, `level`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "level"
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// `1` to `99` written without a leading zero, `top` or `perfect`.
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let level = match text {
            "top" => Some(Level::Top),
            "perfect" => Some(Level::Perfect),
            _ if text.starts_with('0') || !text.bytes().all(|b| b.is_ascii_digit()) => None,
            _ => text
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=LEVEL_ASKED_MAX).contains(n))
                .map(Level::Ladder),
        };
        level.ok_or_else(|| ParseLevelError {
            text: text.to_owned(),
        })
    }
}

/// The number, `top` or `perfect`.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Ladder(n) => write!(f, "{n}"),
            Level::Top => f.write_str("top"),
            Level::Perfect => f.write_str("perfect"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_1_to_99_top_and_perfect() {
        for (text, level) in [
            ("1", Level::Ladder(1)),
            ("99", Level::Ladder(99)),
            ("top", Level::Top),
            ("perfect", Level::Perfect),
        ] {
            assert_eq!(text.parse(), Ok(level));
            assert_eq!(level.to_string(), text);
        }
        for bad in ["0", "100", "05", "", "+3", "Top", "4 "] {
            assert_eq!(bad.parse::<Level>().unwrap_err().text, bad);
        }
    }
}
