//! [`Kind`]: which game, by the words people and programs use for it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which game: the one choice a front end makes by name. Everything else
/// it asks of the game goes through [`crate::for_kind!`], the
/// [`RaceGame`](crate::RaceGame) trait or an `Any*` value. (A new game is
/// a new arm: code that matches on it is meant to hear of it.)
///
/// ```
/// use race_games::Kind;
///
/// assert_eq!("senet".parse::<Kind>()?, Kind::Senet);
/// assert_eq!(Kind::from_word("royal-ur"), Some(Kind::Ur));
/// assert_eq!(Kind::Ur.to_string(), "ur");
/// assert_eq!(Kind::Ur.title(), "Royal Game of Ur");
/// # Ok::<(), race_games::UnknownGame>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The Royal Game of Ur.
    Ur,
    /// Senet.
    Senet,
}

impl Kind {
    /// Every game, in the order front ends list them.
    pub const ALL: [Kind; 2] = [Kind::Ur, Kind::Senet];

    /// The word for the game on the command line and in the server's API:
    /// `ur` or `senet`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Ur => "ur",
            Kind::Senet => "senet",
        }
    }

    /// Other words read as the game (`royal-ur`, the game's crate and
    /// record name).
    #[must_use]
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Kind::Ur => &["royal-ur"],
            Kind::Senet => &[],
        }
    }

    /// The game's name in words: `Royal Game of Ur` or `Senet`.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Kind::Ur => "Royal Game of Ur",
            Kind::Senet => "Senet",
        }
    }

    /// The game a word names ([`Kind::as_str`] or an alias), in any case.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| {
            kind.as_str().eq_ignore_ascii_case(word)
                || kind.aliases().iter().any(|a| a.eq_ignore_ascii_case(word))
        })
    }

    /// The game whose word ([`Kind::as_str`]) is exactly `word`: the strict
    /// reading of a wire format, which takes no alias and no other case.
    #[must_use]
    pub fn from_exact_word(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == word)
    }

    /// The top of the game's bot ladder: its levels are 1 to this.
    #[must_use]
    pub fn level_top(self) -> u8 {
        crate::for_kind!(self, G => <G as dice_core::Ladder>::LEVEL_TOP)
    }

    /// The name of the bot at `level` (`Beginner` ... `Expert`, `Perfect`),
    /// from the game's level notes; the top of the ladder's for
    /// [`Level::Top`](crate::Level::Top) and the rungs above it. `None`
    /// for `perfect` in a game without it.
    #[must_use]
    pub fn level_name(self, level: crate::Level) -> Option<&'static str> {
        use crate::RaceGame as _;
        let top = self.level_top();
        let word = match level {
            crate::Level::Ladder(n) => n.min(top).to_string(),
            crate::Level::Top => top.to_string(),
            crate::Level::Perfect => "perfect".into(),
        };
        let notes = crate::for_kind!(self, G => G::LEVEL_NOTES);
        notes.iter().find(|n| n.level == word).map(|n| n.name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{word:?} is not a game: the games are ur and senet")]
pub struct UnknownGame {
    /// The word given.
    pub word: String,
}

impl UnknownGame {
    /// The contract word, `unknown_game`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "unknown_game"
    }
}

impl FromStr for Kind {
    type Err = UnknownGame;

    fn from_str(word: &str) -> Result<Kind, UnknownGame> {
        Kind::from_word(word).ok_or_else(|| UnknownGame {
            word: word.to_owned(),
        })
    }
}

/// Runs `$body` with `$G` standing for the game type of `$kind`
/// (`royal_ur::Ur` or `senet::Senet`), so that generic code over
/// [`RaceGame`](crate::RaceGame) is chosen once, from a [`Kind`]. A new game
/// adds its arm here.
///
/// ```
/// use race_games::{Kind, RaceGame, for_kind};
///
/// fn presets<G: RaceGame>() -> usize {
///     G::PRESETS.len()
/// }
///
/// assert_eq!(for_kind!(Kind::Ur, G => presets::<G>()), 6);
/// assert_eq!(for_kind!(Kind::Senet, G => presets::<G>()), 2);
/// ```
#[macro_export]
macro_rules! for_kind {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::Kind::Ur => {
                type $G = $crate::royal_ur::Ur;
                $body
            }
            $crate::Kind::Senet => {
                type $G = $crate::senet::Senet;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_the_games_in_any_case() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_word(kind.as_str()), Some(kind));
            assert_eq!(kind.to_string().parse::<Kind>(), Ok(kind));
        }
        assert_eq!(Kind::from_word("UR"), Some(Kind::Ur));
        assert_eq!(Kind::from_word("Royal-Ur"), Some(Kind::Ur));
        let e = "chess".parse::<Kind>().unwrap_err();
        assert_eq!((e.code(), e.word.as_str()), ("unknown_game", "chess"));
        assert_eq!(serde_json::to_string(&Kind::Senet).unwrap(), "\"senet\"");
    }

    #[test]
    fn the_exact_word_takes_no_alias_and_no_other_case() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_exact_word(kind.as_str()), Some(kind));
            assert_eq!(Kind::from_exact_word(&kind.as_str().to_uppercase()), None);
        }
        assert_eq!(Kind::from_exact_word("royal-ur"), None);
        assert_eq!(Kind::Ur.level_top(), royal_ur::LEVEL_TOP);
        assert_eq!(Kind::Senet.level_top(), senet::LEVEL_TOP);
    }

    #[test]
    fn each_level_has_a_name() {
        use crate::Level;
        assert_eq!(Kind::Ur.level_name(Level::Ladder(1)), Some("Beginner"));
        assert_eq!(Kind::Ur.level_name(Level::Top), Some("Expert"));
        assert_eq!(Kind::Ur.level_name(Level::Ladder(9)), Some("Expert"));
        assert_eq!(Kind::Ur.level_name(Level::Perfect), Some("Perfect"));
        assert_eq!(Kind::Senet.level_name(Level::Ladder(2)), Some("Casual"));
        assert_eq!(Kind::Senet.level_name(Level::Perfect), None);
    }
}
