//! The catalogue: each game's named rule sets with a line about each, the
//! fields a custom rule set takes and their values, the default, the bot's
//! levels; and rules read from text as every front end reads them.

use std::collections::BTreeMap;

use dice_core::{Notation as _, Side, VariantError, read_rules as read_fields};
use serde::Serialize;

use crate::{Board, Kind, LegendEntry, RaceGame, RuleLine, Tables, Words, for_kind};

/// A named rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset<V: 'static> {
    /// Its name, as rules text gives it.
    pub name: &'static str,
    /// The rule set.
    pub variant: V,
    /// What it is, in a sentence.
    pub about: &'static str,
    /// Whether it is one of the game's reference rule sets (those the
    /// benchmarks and soak runs take when told none).
    pub reference: bool,
}

/// A field of a custom rule set and the values it takes, the default
/// rule set's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Field {
    /// The field's name.
    pub name: &'static str,
    /// The values it takes, the default rule set's first.
    pub values: &'static [&'static str],
}

/// A bot level and what it plays like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LevelNote {
    /// `1` to the top of the ladder, or `perfect`.
    pub level: &'static str,
    /// The level's name, a word (`Beginner` ... `Perfect`): the bot's name
    /// in a game it plays.
    pub name: &'static str,
    /// What the bot at that level does, in a few words.
    pub about: &'static str,
}

/// Rules text that is no rule set of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a rule set of {kind}: {source}")]
pub struct RulesError {
    /// The game.
    pub kind: Kind,
    /// The text given.
    pub text: String,
    /// What the game's own reader said.
    pub source: VariantError,
}

impl RulesError {
    /// The game's own code: `unknown_name`, `unknown_field`, `bad_value` ...
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.source.code()
    }
}

/// Reads rules as every front end reads them: a name, or the fields that
/// differ from the game's default rule set in any order; the default rule
/// set when `text` is `None`.
///
/// # Errors
///
/// [`RulesError`] with the game's own error for text it does not read.
///
/// ```
/// use race_games::read_rules;
/// use royal_ur::Ur;
///
/// assert_eq!(read_rules::<Ur>(None)?.to_string(), "finkel");
/// assert_eq!(read_rules::<Ur>(Some("masters"))?.to_string(), "masters");
/// let five = read_rules::<Ur>(Some("pieces=5 route=long"))?;
/// assert_eq!(five.pieces(), 5);
/// assert_eq!(read_rules::<Ur>(Some("kendall")).unwrap_err().code(), "unknown_name");
/// # Ok::<(), race_games::RulesError>(())
/// ```
pub fn read_rules<G: RaceGame>(text: Option<&str>) -> Result<G::Variant, RulesError> {
    let Some(text) = text else {
        return Ok(G::Variant::default());
    };
    read_fields::<G::Variant>(text).map_err(|source| RulesError {
        kind: G::KIND,
        text: text.to_owned(),
        source,
    })
}

/// The name of a rule set that is one of the game's presets.
#[must_use]
pub fn preset_of<G: RaceGame>(variant: &G::Variant) -> Option<&'static Preset<G::Variant>> {
    G::PRESETS.iter().find(|p| p.variant == *variant)
}

/// The presets a record names by name (the others it spells out), in the
/// catalogue's order.
#[must_use]
pub fn record_names<G: RaceGame>() -> Vec<&'static str> {
    G::PRESETS
        .iter()
        .filter(|p| G::read_rules_line(p.name).is_ok())
        .map(|p| p.name)
        .collect()
}

/// The game whose record a rules line (a record's line 1, without its
/// brackets) is: the first game that reads it.
#[must_use]
pub fn kind_of_rules_line(rules: &str) -> Option<Kind> {
    Kind::ALL
        .into_iter()
        .find(|&kind| for_kind!(kind, G => G::read_rules_line(rules).is_ok()))
}

/// Every game's rule sets, fields and bot levels (the server's `GET
/// /api/rules`).
#[derive(Debug, Serialize)]
pub struct Catalogue {
    /// One entry a game.
    pub games: Vec<GameCatalogue>,
}

/// One game's part of the [`Catalogue`].
#[derive(Debug, Serialize)]
pub struct GameCatalogue {
    /// `ur` or `senet`.
    pub game: &'static str,
    /// The game's name in words.
    pub title: &'static str,
    /// The game in a sentence, for a newcomer choosing one.
    pub about: &'static str,
    /// The default rule set's name.
    pub default: &'static str,
    /// The named rule sets with their fields.
    pub named: Vec<Named>,
    /// The fields of a custom rule set, in record order.
    pub fields: &'static [Field],
    /// The bot's ladder levels (`perfect` besides, for a rule set with a
    /// table).
    pub levels: Vec<u8>,
    /// What each level plays like (`perfect` too, when the game has it).
    pub level_notes: &'static [LevelNote],
    /// The rule sets the program has a solved table for, as record text.
    pub tables: Vec<String>,
}

/// A named rule set in the [`Catalogue`].
#[derive(Debug, Serialize)]
pub struct Named {
    /// Its name.
    pub name: &'static str,
    /// Its fields.
    pub fields: BTreeMap<&'static str, String>,
    /// What it is, in a sentence.
    pub about: &'static str,
}

impl GameCatalogue {
    /// One game's catalogue, with the rule sets `tables` holds.
    #[must_use]
    pub fn of<G: RaceGame>(tables: &Tables) -> GameCatalogue {
        GameCatalogue {
            game: G::KIND.as_str(),
            title: G::KIND.title(),
            about: G::ABOUT,
            default: preset_of::<G>(&G::Variant::default()).map_or("", |p| p.name),
            named: G::PRESETS
                .iter()
                .map(|p| Named {
                    name: p.name,
                    fields: G::fields(&p.variant).into_iter().collect(),
                    about: p.about,
                })
                .collect(),
            fields: G::FIELDS,
            levels: (1..=G::LEVEL_TOP).collect(),
            level_notes: G::LEVEL_NOTES,
            tables: tables.rules_of::<G>(),
        }
    }
}

/// The catalogue of every game, with the rule sets `tables` holds.
#[must_use]
pub fn catalogue(tables: &Tables) -> Catalogue {
    Catalogue {
        games: Kind::ALL
            .into_iter()
            .map(|kind| for_kind!(kind, G => GameCatalogue::of::<G>(tables)))
            .collect(),
    }
}

/// One rule set with the board it is played on (the server's `GET
/// /api/rules/{game}`).
#[derive(Debug, Serialize)]
pub struct RuleSetView {
    /// `ur` or `senet`.
    pub game: &'static str,
    /// The record's rules text: the name, or the fields spelled out.
    pub rules: String,
    /// The preset's name, for a rule set that is one (also one a record
    /// spells out, such as `finkel2p`).
    pub name: Option<&'static str>,
    /// The fields.
    pub fields: BTreeMap<&'static str, String>,
    /// Whether there is a solved table for it (the bot level `perfect`
    /// and the win-chance graph).
    pub perfect: bool,
    /// The board.
    pub board: RulesBoard,
    /// The board as data, pieces where they start (light to throw first):
    /// its squares with their coordinates and kinds, each side's route in
    /// order, hands and homes; a front end draws from it and parses no
    /// position.
    pub layout: Board,
    /// What the game calls its dice, a capture and home.
    pub words: Words,
    /// The rules in a few lines, for a how-to-play panel.
    pub how_to: Vec<RuleLine>,
    /// What the board's special squares do.
    pub legend: Vec<LegendEntry>,
}

impl RuleSetView {
    /// The view of a rule set, and whether `tables` holds it.
    #[must_use]
    pub fn of<G: RaceGame>(variant: &G::Variant, tables: &Tables) -> RuleSetView {
        RuleSetView {
            game: G::KIND.as_str(),
            rules: variant.to_string(),
            name: preset_of::<G>(variant).map(|p| p.name),
            fields: G::fields(variant).into_iter().collect(),
            perfect: tables.for_rules::<G>(variant).is_some(),
            board: G::rules_board(variant),
            layout: G::board(variant, &G::start(variant, Side::Light)),
            words: G::WORDS,
            how_to: G::how_to(variant),
            legend: G::legend(variant),
        }
    }
}

/// The board a rule set is played on, its shape and dice.
#[derive(Debug, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum RulesBoard {
    /// The Royal Game of Ur.
    Ur {
        /// The board's shape: `standard` or `aseb`.
        shape: &'static str,
        /// How many files the board is long: 8 (`a..h`) or 12 (`a..l`).
        files: u8,
        /// The board's squares, row 1 first, each row from `a`.
        squares: Vec<&'static str>,
        /// The path: `bell`, `masters`, `murray`, `skiriuk` or `aseb`.
        path: &'static str,
        /// Each side's squares, step 1 first; step 0 is the hand, the step
        /// after the last is home. (On murray's and skiriuk's paths the
        /// squares `a2..g2` come twice.)
        routes: BTreeMap<&'static str, Vec<&'static str>>,
        /// The rosettes.
        rosettes: Vec<&'static str>,
        /// Pieces a side.
        pieces: u8,
        /// Dice a throw.
        dice: u8,
        /// What a throw with nothing marked is worth.
        zero_rolls: u8,
        /// Whether a piece on a rosette is safe.
        safe_rosettes: bool,
        /// Whether landing on a rosette throws again.
        rosette_again: bool,
        /// Whether capturing throws again.
        capture_again: bool,
    },
    /// Senet.
    Senet {
        /// Houses on the track: 30.
        houses: u8,
        /// The houses with a name of their own.
        special: BTreeMap<u8, &'static str>,
        /// Pieces a side.
        pieces: u8,
        /// Sticks a throw.
        sticks: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use royal_ur::Ur;
    use senet::Senet;

    /// Every value offered reads, and every named set's values are offered
    /// (the default's first).
    fn offered<G: RaceGame>(custom: impl Fn(&str, &str) -> Result<G::Variant, VariantError>) {
        let cat = GameCatalogue::of::<G>(&Tables::default());
        for f in G::FIELDS {
            for v in f.values {
                custom(f.name, v).unwrap_or_else(|e| panic!("{} {v}: {e}", f.name));
            }
            let mut seen = f.values.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), f.values.len(), "{}", f.name);
            for n in &cat.named {
                assert!(
                    f.values.contains(&n.fields[f.name].as_str()),
                    "{} {}",
                    n.name,
                    f.name
                );
                if n.name == cat.default {
                    assert_eq!(f.values[0], n.fields[f.name]);
                }
            }
        }
        for p in G::PRESETS {
            assert_eq!(read_rules::<G>(Some(p.name)), Ok(p.variant.clone()));
            assert!(!p.about.is_empty());
        }
    }

    #[test]
    fn the_fields_offered_are_the_fields_the_games_read() {
        // Every Royal Game of Ur field but the board, which follows the path.
        let names: Vec<&str> = Ur::FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(names, royal_ur::FIELDS[1..]);
        offered::<Ur>(|name, value| {
            // A throw of nothing is worth 0, or one more than the dice.
            let dice = match (name, value.parse::<u8>()) {
                ("zero_rolls", Ok(zero @ 2..)) => zero - 1,
                _ => 4,
            }
            .to_string();
            let mut given = vec![(name, value)];
            if name != "dice" {
                given.push(("dice", &dice));
            }
            royal_ur::Variant::custom(given)
        });
        let names: Vec<&str> = Senet::FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(names, senet::FIELDS);
        offered::<Senet>(|name, value| senet::Variant::KENDALL.with_field(name, value));
    }

    #[test]
    fn records_name_four_ur_presets_and_both_senet_ones() {
        assert_eq!(record_names::<Ur>(), ["finkel", "masters", "blitz", "aseb"]);
        assert_eq!(record_names::<Senet>(), ["kendall", "skyruk"]);
        assert_eq!(kind_of_rules_line("skyruk"), Some(Kind::Senet));
        assert_eq!(kind_of_rules_line("masters"), Some(Kind::Ur));
        assert_eq!(kind_of_rules_line("finkel2p"), None);
    }

    #[test]
    fn rules_read_as_the_command_line_reads_them() {
        assert_eq!(
            read_rules::<Senet>(Some("skyruk")),
            Ok(senet::Variant::SKYRUK)
        );
        let e = read_rules::<Ur>(Some("pieces=3 pieces=4")).unwrap_err();
        assert_eq!((e.kind, e.text.as_str()), (Kind::Ur, "pieces=3 pieces=4"));
        assert!(e.to_string().contains("pieces"), "{e}");
        let names: Vec<&str> = catalogue(&Tables::default()).games[0]
            .named
            .iter()
            .map(|n| n.name)
            .collect();
        assert_eq!(
            names,
            [
                "finkel",
                "masters",
                "blitz",
                "aseb",
                "finkel2p",
                "masters4d"
            ]
        );
    }
}
