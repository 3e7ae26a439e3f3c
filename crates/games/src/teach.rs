//! What a page needs to teach a game: each legal move offered with the
//! squares its piece passes and what landing does, a ply said to the
//! player it happened to ("You", "your piece") or to one who watches, and
//! a rule set's rules in a few lines with a legend of its special squares.

use dice_core::Side;
use serde::Serialize;

use crate::{LegalMove, PlaceView, RaceGame, SquareKind};

/// What a move's landing does, for marking its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// The piece enters the board from the hand (Ur).
    Enter,
    /// An enemy piece goes back to its owner's hand (Ur).
    Capture,
    /// The piece lands on a rosette (Ur).
    Rosette,
    /// The enemy piece there swaps places with the one moved (Senet).
    Swap,
    /// The piece lands on the house of happiness, which every piece must
    /// stand on (Senet's 26).
    Happiness,
    /// The piece goes into the water (Senet's 27): it stands there or is
    /// reborn.
    Water,
    /// The piece moves backward (Senet).
    Backward,
    /// The piece goes home (Ur) or off the board (Senet).
    Home,
    /// The same side throws again.
    Again,
}

/// A place's name as the board names it (`a2`, `hand`, `15`, `off`).
fn place_name(place: PlaceView) -> String {
    match place {
        PlaceView::Name(name) => name,
        PlaceView::Number(n) => n.to_string(),
    }
}

/// A legal move as a page offers it: where it starts and points, the
/// squares its piece passes in order, what landing does, and where the
/// piece ends when that is not where the move points. A front end draws
/// the route from `path` and splits no move text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OfferView {
    /// The move's text, as a move request sends it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Where the piece starts: a square, `hand` (Ur) or a house.
    pub from: String,
    /// Where the move points: a square, `home`, a house or `off`.
    pub to: String,
    /// The places the piece passes, in order, the last where the move
    /// points (`home`, `off` included): a square passed twice on a route
    /// that visits it twice is named each time.
    pub path: Vec<String>,
    /// What landing does.
    pub lands: Vec<Landing>,
    /// Where the piece ends when that is not where the move points (the
    /// water's rebirth, a diversion).
    pub ends: Option<String>,
    /// What it does, in a few words each.
    pub notes: Vec<String>,
}

impl OfferView {
    /// The offer of a legal move.
    #[must_use]
    pub fn of<G: RaceGame>(legal: &LegalMove<G>) -> OfferView {
        let MovePlaces { from, to } = MovePlaces::of::<G>(legal.mv);
        OfferView {
            mv: legal.mv.to_string(),
            from,
            to,
            path: legal.path.clone(),
            lands: legal.lands.clone(),
            ends: legal.ends.clone(),
            notes: legal.notes.clone(),
        }
    }
}

/// Where a played move started and where it pointed, as the board names
/// them: a front end marks and animates the move from these.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MovePlaces {
    /// Where the piece started.
    pub from: String,
    /// Where the move pointed.
    pub to: String,
}

impl MovePlaces {
    /// The places of a move.
    #[must_use]
    pub fn of<G: RaceGame>(mv: G::Move) -> MovePlaces {
        let (from, to) = G::places(mv);
        MovePlaces {
            from: place_name(from),
            to: place_name(to),
        }
    }
}

/// Who a sentence is said to: the side that played and the reader's own
/// side (`None` for one who watches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Voice {
    /// The side that threw.
    pub side: Side,
    /// The reader's side; `None` for one who watches.
    pub viewer: Option<Side>,
}

impl Voice {
    fn is_you(self, side: Side) -> bool {
        self.viewer == Some(side)
    }

    /// The side that threw, to begin a sentence: `You`, `Light`.
    #[must_use]
    pub fn who(self) -> String {
        if self.is_you(self.side) {
            "You".to_owned()
        } else {
            capitalised(self.side.as_str())
        }
    }

    /// The other side's piece: `your piece`, `the dark piece`.
    #[must_use]
    pub fn their_piece(self) -> String {
        let other = self.side.other();
        if self.is_you(other) {
            "your piece".to_owned()
        } else {
            format!("the {other} piece")
        }
    }

    /// The other side's hand: `your hand`, `dark's hand`.
    #[must_use]
    pub fn their_hand(self) -> String {
        let other = self.side.other();
        if self.is_you(other) {
            "your hand".to_owned()
        } else {
            format!("{other}'s hand")
        }
    }

    /// The side that threw throws again: `you throw again`, `light throws
    /// again`.
    #[must_use]
    pub fn throws_again(self) -> String {
        if self.is_you(self.side) {
            "you throw again".to_owned()
        } else {
            format!("{} throws again", self.side)
        }
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A ply said to each reader: the player of light, the player of dark,
/// and one who watches. "Dark threw 2 and moved a2 to b2, taking your
/// piece there: it goes back to your hand."
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Said {
    /// To the player of light.
    pub light: String,
    /// To the player of dark.
    pub dark: String,
    /// To one who watches.
    pub watcher: String,
}

impl Said {
    /// A ply said three ways by `say`, given whom it is said to.
    pub fn of(side: Side, say: impl Fn(Voice) -> String) -> Said {
        let to = |viewer| say(Voice { side, viewer });
        Said {
            light: to(Some(Side::Light)),
            dark: to(Some(Side::Dark)),
            watcher: to(None),
        }
    }
}

/// A line of a rule set's rules, for a how-to-play panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleLine {
    /// What it is about: `Dice`, `Route`, `Captures` ...
    pub topic: &'static str,
    /// The rule, in a sentence or two.
    pub text: String,
}

impl RuleLine {
    /// A line on `topic`.
    #[must_use]
    pub fn new(topic: &'static str, text: impl Into<String>) -> RuleLine {
        RuleLine {
            topic,
            text: text.into(),
        }
    }
}

/// An entry of a board's legend: a kind of square and what it does under
/// the rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegendEntry {
    /// The kind of square.
    pub kind: SquareKind,
    /// The squares of that kind, by name.
    pub squares: Vec<String>,
    /// Its name in words (`rosette`, `the water`).
    pub name: &'static str,
    /// What it does.
    pub about: String,
}

/// Names joined in words: `a`, `a and b`, `a, b and c`.
#[must_use]
pub(crate) fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_voice_says_you_to_its_own_side_only() {
        let to_dark = Voice {
            side: Side::Light,
            viewer: Some(Side::Dark),
        };
        assert_eq!(to_dark.who(), "Light");
        assert_eq!(to_dark.their_piece(), "your piece");
        assert_eq!(to_dark.their_hand(), "your hand");
        assert_eq!(to_dark.throws_again(), "light throws again");
        let to_light = Voice {
            viewer: Some(Side::Light),
            ..to_dark
        };
        assert_eq!(to_light.who(), "You");
        assert_eq!(to_light.their_piece(), "the dark piece");
        assert_eq!(to_light.their_hand(), "dark's hand");
        assert_eq!(to_light.throws_again(), "you throw again");
        let watching = Voice {
            viewer: None,
            ..to_dark
        };
        assert_eq!(watching.who(), "Light");
        assert_eq!(watching.their_hand(), "dark's hand");
    }

    #[test]
    fn lists_read_as_words() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(listed(&names(&[])), "");
        assert_eq!(listed(&names(&["d1"])), "d1");
        assert_eq!(listed(&names(&["d1", "d3"])), "d1 and d3");
        assert_eq!(listed(&names(&["a1", "d2", "h1"])), "a1, d2 and h1");
    }
}
