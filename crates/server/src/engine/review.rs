//! What the page asks of the games beyond the contract: the rule sets on
//! offer, the board a rule set is played on, and a game told ply by ply
//! (the position after each ply, what each move did, how far each side
//! still has to go) with, when a solved table is given, the analysis that
//! `race analyse --json` prints.

use std::collections::BTreeMap;

use dice_core::{Game, LogEntry, Notation, Rules, Side};
use royal_ur::{Square, Ur};
use senet::{House, Place, Senet};
use serde::Serialize;
use ur_solve::{GameAnalysis, WinChances as _};

use super::{AnyGame, GameKind, RuleSet, Tables};

/// A rule field, the values it takes (the default first), as the page
/// offers them.
struct Field {
    name: &'static str,
    values: &'static [&'static str],
}

/// The fields of a custom Royal Game of Ur rule set the start form offers,
/// in record order. The board is not among them: it follows the path (the
/// aseb path is played on the aseb board, the others on the standard one).
const UR_FIELDS: [Field; 7] = [
    Field {
        name: "path",
        values: &["bell", "masters", "murray", "skiriuk", "aseb"],
    },
    Field {
        name: "dice",
        values: &["4", "3", "2", "1", "5", "6", "7", "8"],
    },
    Field {
        name: "zero_rolls",
        values: &["0", "4", "5", "2", "3", "6", "7", "8", "9"],
    },
    Field {
        name: "safe_rosettes",
        values: &["1", "0"],
    },
    Field {
        name: "rosette_again",
        values: &["1", "0"],
    },
    Field {
        name: "capture_again",
        values: &["0", "1"],
    },
    Field {
        name: "pieces",
        values: &["7", "6", "5", "4", "3", "2", "1"],
    },
];

const SENET_FIELDS: [Field; 7] = [
    Field {
        name: "protect",
        values: &["all", "ends"],
    },
    Field {
        name: "blockade",
        values: &["3", "2"],
    },
    Field {
        name: "reach26",
        values: &["exact", "from25"],
    },
    Field {
        name: "on26",
        values: &["none", "again"],
    },
    Field {
        name: "water",
        values: &["reborn", "stand"],
    },
    Field {
        name: "off30",
        values: &["one", "any"],
    },
    Field {
        name: "pieces",
        values: &["5", "7"],
    },
];

/// Senet's houses with a name of their own.
const SENET_HOUSES: [(u8, &str); 6] = [
    (15, "rebirth"),
    (26, "happiness"),
    (27, "water"),
    (28, "three truths"),
    (29, "re-atoum"),
    (30, "horus"),
];

/// Every game's rule sets, fields and bot levels: `GET /api/rules`.
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
    /// The default rule set's name.
    pub default: &'static str,
    /// The named rule sets with their fields.
    pub named: Vec<Named>,
    /// The fields of a custom rule set, in record order.
    pub fields: Vec<FieldView>,
    /// The bot's ladder levels (`perfect` besides, for a rule set with a
    /// table).
    pub levels: Vec<u8>,
    /// The rule sets the server has a solved table for, as record text.
    pub tables: Vec<String>,
}

/// A named rule set.
#[derive(Debug, Serialize)]
pub struct Named {
    /// Its name.
    pub name: &'static str,
    /// Its fields.
    pub fields: BTreeMap<&'static str, String>,
}

/// A field of a custom rule set.
#[derive(Debug, Serialize)]
pub struct FieldView {
    /// The field's name.
    pub name: &'static str,
    /// The values it takes, the default rule set's first.
    pub values: &'static [&'static str],
}

fn field_views(fields: &[Field]) -> Vec<FieldView> {
    fields
        .iter()
        .map(|f| FieldView {
            name: f.name,
            values: f.values,
        })
        .collect()
}

fn named(game: GameKind, names: &[&'static str]) -> Vec<Named> {
    names
        .iter()
        .filter_map(|&name| {
            let rules = RuleSet::parse(game, Some(name)).ok()?;
            Some(Named {
                name,
                fields: fields_of(&rules),
            })
        })
        .collect()
}

/// The catalogue of both games, with the rule sets `tables` holds.
#[must_use]
pub fn catalogue(tables: &Tables) -> Catalogue {
    Catalogue {
        games: vec![
            GameCatalogue {
                game: GameKind::Ur.as_str(),
                title: "Royal Game of Ur",
                default: "finkel",
                named: named(
                    GameKind::Ur,
                    &[
                        "finkel",
                        "masters",
                        "blitz",
                        "aseb",
                        "finkel2p",
                        "masters4d",
                    ],
                ),
                fields: field_views(&UR_FIELDS),
                levels: (1..=royal_ur::LEVEL_TOP).collect(),
                tables: tables.rules(),
            },
            GameCatalogue {
                game: GameKind::Senet.as_str(),
                title: "Senet",
                default: "kendall",
                named: named(GameKind::Senet, &["kendall", "skyruk"]),
                fields: field_views(&SENET_FIELDS),
                levels: (1..=senet::LEVEL_TOP).collect(),
                tables: Vec::new(),
            },
        ],
    }
}

fn fields_of(rules: &RuleSet) -> BTreeMap<&'static str, String> {
    match rules {
        RuleSet::Ur(v) => v.fields().into_iter().collect(),
        RuleSet::Senet(v) => senet::FIELDS
            .into_iter()
            .zip(v.spelled_out().split(' ').map(|fv| {
                fv.split_once('=')
                    .map_or_else(String::new, |(_, value)| value.to_owned())
            }))
            .collect(),
    }
}

/// One rule set, with the board it is played on: `GET /api/rules/{game}`.
#[derive(Debug, Serialize)]
pub struct RuleSetView {
    /// `ur` or `senet`.
    pub game: &'static str,
    /// The record's rules text: the name, or the fields spelled out.
    pub rules: String,
    /// The name, for a named set.
    pub name: Option<&'static str>,
    /// The fields.
    pub fields: BTreeMap<&'static str, String>,
    /// Whether the server has a solved table for it (the bot level
    /// `perfect` and the win-chance graph).
    pub perfect: bool,
    /// The board.
    pub board: BoardView,
}

/// The board a rule set is played on.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BoardView {
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

/// The view of a rule set, and whether `tables` holds it.
#[must_use]
pub fn rule_set(rules: &RuleSet, tables: &Tables) -> RuleSetView {
    let board = match rules {
        RuleSet::Ur(v) => {
            let route = v.path();
            let shape = v.board();
            BoardView::Ur {
                shape: shape.as_str(),
                files: shape.row_width(2),
                squares: shape.squares().iter().map(|sq| sq.name()).collect(),
                path: route.as_str(),
                routes: Side::ALL
                    .into_iter()
                    .map(|side| {
                        let squares = route.squares(side).into_iter().map(Square::name).collect();
                        (side.as_str(), squares)
                    })
                    .collect(),
                rosettes: v.board().rosettes().into_iter().map(Square::name).collect(),
                pieces: v.pieces(),
                dice: v.dice(),
                zero_rolls: v.zero_rolls(),
                safe_rosettes: v.safe_rosettes(),
                rosette_again: v.rosette_again(),
                capture_again: v.capture_again(),
            }
        }
        RuleSet::Senet(v) => BoardView::Senet {
            houses: 30,
            special: SENET_HOUSES.into_iter().collect(),
            pieces: v.piece_count(),
            sticks: <Senet as Rules>::dice(v),
        },
    };
    RuleSetView {
        game: rules.kind().as_str(),
        rules: rules.to_string(),
        name: match rules {
            RuleSet::Ur(v) => v.name(),
            RuleSet::Senet(v) => v.name(),
        },
        fields: fields_of(rules),
        perfect: tables.for_rules(rules).is_some(),
        board,
    }
}

/// How far each side still has to go: the steps its pieces need, together,
/// to reach home (Ur) or to bear off (Senet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Race {
    /// Light's steps to go.
    pub light: u32,
    /// Dark's steps to go.
    pub dark: u32,
}

/// A position in a game's story.
#[derive(Debug, Serialize)]
pub struct Point {
    /// The position text.
    pub position: String,
    /// The race count there.
    pub race: Race,
}

/// One ply told: the throw, the move, what it did, and the position after.
#[derive(Debug, Serialize)]
pub struct PlyView {
    /// The ply (0 for the first).
    pub ply: u32,
    /// The side that threw.
    pub side: &'static str,
    /// What the throw was worth.
    pub roll: u8,
    /// The faces of the throw, when known.
    pub faces: Option<String>,
    /// The move text, or `None` for a lost turn.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The same side throws next.
    pub again: bool,
    /// An enemy piece went back to its owner's hand (Ur).
    pub capture: bool,
    /// The piece landed on a rosette (Ur).
    pub rosette: bool,
    /// The enemy piece swapped places with the one moved (Senet).
    pub swap: bool,
    /// The piece went home (Ur) or off the board (Senet).
    pub home: bool,
    /// Where the piece ended when that is not where the move points
    /// (Senet's water and diversions): a house or `off`.
    pub ends: Option<String>,
    /// The position after the ply.
    pub position: String,
    /// The race count after the ply.
    pub race: Race,
}

/// A game ply by ply: `GET /api/games/{id}/plies`.
#[derive(Debug, Serialize)]
pub struct Story {
    /// The position before the first ply.
    pub start: Point,
    /// Every ply, in order.
    pub plies: Vec<PlyView>,
    /// For a finished Royal Game of Ur game whose rule set has a table:
    /// light's chance to win at the start and after every ply, and the
    /// analysis of every ply as `race analyse --json` gives it.
    pub analysis: Option<Analysis>,
}

/// The table's verdict on a finished game.
#[derive(Debug, Serialize)]
pub struct Analysis {
    /// Light's chance to win before the first throw.
    pub start: f64,
    /// Light's chance to win after each ply.
    pub light_chances: Vec<f64>,
    /// Every ply judged, and each side's totals, as `race analyse --json`
    /// prints them.
    #[serde(flatten)]
    pub report: GameAnalysis,
}

/// What a ply did, in terms both games share.
#[derive(Default)]
struct Did {
    again: bool,
    capture: bool,
    rosette: bool,
    swap: bool,
    home: bool,
    ends: Option<String>,
}

/// Replays a game's log from its start, telling each ply.
fn story<R: Notation>(
    game: &Game<R>,
    race: impl Fn(&R::Position) -> Race,
    did: impl Fn(&LogEntry<R>) -> Did,
) -> (Point, Vec<PlyView>) {
    let variant = game.variant();
    let mut position = R::start(variant, game.first());
    let start = Point {
        position: position.to_string(),
        race: race(&position),
    };
    let plies = game
        .log()
        .iter()
        .map(|entry| {
            position = match entry.mv {
                Some(mv) => R::apply(variant, &position, entry.roll, mv).0,
                None => R::forfeit(variant, &position, entry.roll).0,
            };
            let d = did(entry);
            PlyView {
                ply: entry.ply,
                side: entry.side.as_str(),
                roll: entry.roll,
                faces: entry.faces.map(|f| f.to_string()),
                mv: entry.mv.map(|m| m.to_string()),
                again: d.again,
                capture: d.capture,
                rosette: d.rosette,
                swap: d.swap,
                home: d.home,
                ends: d.ends,
                position: position.to_string(),
                race: race(&position),
            }
        })
        .collect();
    (start, plies)
}

fn ur_race(variant: &royal_ur::Variant, position: &royal_ur::Position) -> Race {
    let route = variant.path();
    let home = u32::from(route.len()) + 1;
    let of = |side: Side| {
        let on_board: u32 = position
            .steps(side, route)
            .into_iter()
            .map(|s| home - u32::from(s))
            .sum();
        on_board + u32::from(position.hand(side)) * home
    };
    Race {
        light: of(Side::Light),
        dark: of(Side::Dark),
    }
}

fn senet_race(position: &senet::Position) -> Race {
    let mut race = Race::default();
    for house in House::ALL {
        let to_go = u32::from(senet::HOUSES + 1 - house.number());
        match position.at(house) {
            Some(Side::Light) => race.light += to_go,
            Some(Side::Dark) => race.dark += to_go,
            None => {}
        }
    }
    race
}

/// Why a finished game could not be analysed.
#[derive(Debug, thiserror::Error)]
#[error("the game cannot be analysed: {0}")]
pub struct StoryError(String);

/// The game told ply by ply; with `tables`, a finished Royal Game of Ur
/// game is analysed too (the same numbers as `race analyse --json`).
///
/// # Errors
///
/// [`StoryError`] when the table refuses a position of the game (a table
/// file that does not hold what it says).
pub fn tell(game: &AnyGame, tables: &Tables) -> Result<Story, StoryError> {
    let (start, plies, analysis) = match game {
        AnyGame::Ur(g) => {
            let variant = *g.variant();
            let (start, plies) = story(
                g,
                |p| ur_race(&variant, p),
                |e| Did {
                    again: variant.throws_again(e.flags),
                    capture: e.flags.captures,
                    rosette: e.flags.rosette,
                    home: e.flags.home,
                    ..Did::default()
                },
            );
            let analysis = match tables.for_rules(&game.rules()) {
                Some(bot) if g.is_over() => Some(analyse(g, bot.table())?),
                _ => None,
            };
            (start, plies, analysis)
        }
        AnyGame::Senet(g) => {
            let (start, plies) = story(g, senet_race, |e| {
                let ends = e.flags.ends;
                let to = e.mv.map(|m| m.to());
                Did {
                    again: e.flags.again,
                    swap: e.flags.swap,
                    home: ends == Some(Place::Off),
                    ends: ends.filter(|&d| Some(d) != to).map(|d| d.to_string()),
                    ..Did::default()
                }
            });
            (start, plies, None)
        }
    };
    Ok(Story {
        start,
        plies,
        analysis,
    })
}

fn analyse(game: &Game<Ur>, table: &ur_solve::Table) -> Result<Analysis, StoryError> {
    let fail = |e: &dyn std::fmt::Display| StoryError(e.to_string());
    let report = ur_solve::analyse_game(table, game).map_err(|e| fail(&e))?;
    let start_position = Ur::start(game.variant(), game.first());
    let light = |side: Side, chance: f64| match side {
        Side::Light => chance,
        Side::Dark => 1.0 - chance,
    };
    let start = light(
        start_position.side(),
        table.win_chance(&start_position).map_err(|e| fail(&e))?,
    );
    let light_chances = report
        .turns
        .iter()
        .map(|t| light(t.side, t.after))
        .collect();
    Ok(Analysis {
        start,
        light_chances,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_core::Seed;

    #[test]
    fn the_fields_offered_are_the_fields_the_games_read() {
        // Every Royal Game of Ur field but the board, which follows the path.
        let names: Vec<&str> = UR_FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(royal_ur::FIELDS[0], "board");
        assert_eq!(names, royal_ur::FIELDS[1..]);
        let names: Vec<&str> = SENET_FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(names, senet::FIELDS);
        for f in &UR_FIELDS {
            for v in f.values {
                // A throw of nothing is worth 0, or one more than the dice.
                let dice = match (f.name, v.parse::<u8>()) {
                    ("zero_rolls", Ok(zero @ 2..)) => zero - 1,
                    _ => 4,
                }
                .to_string();
                let mut given = vec![(f.name, *v)];
                if f.name != "dice" {
                    given.push(("dice", &dice));
                }
                royal_ur::Variant::custom(given).unwrap();
            }
            assert_eq!(
                f.values.len(),
                f.values
                    .iter()
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            );
        }
        for f in &SENET_FIELDS {
            for v in f.values {
                senet::Variant::KENDALL.with_field(f.name, v).unwrap();
            }
        }
        // Every named set's values are offered, and the default's come first.
        let cat = catalogue(&Tables::default());
        for (g, fields) in cat.games.iter().zip([&UR_FIELDS[..], &SENET_FIELDS[..]]) {
            for n in &g.named {
                for f in fields {
                    assert!(
                        f.values.contains(&n.fields[f.name].as_str()),
                        "{} {}",
                        n.name,
                        f.name
                    );
                    if n.name == g.default {
                        assert_eq!(f.values[0], n.fields[f.name]);
                    }
                }
            }
        }
    }

    #[test]
    fn boards_follow_the_rules() {
        let masters = RuleSet::parse(GameKind::Ur, Some("masters")).unwrap();
        let view = serde_json::to_value(rule_set(&masters, &Tables::default())).unwrap();
        assert_eq!(view["rules"], "masters");
        assert_eq!(view["perfect"], false);
        assert_eq!(
            view["board"]["routes"]["light"].as_array().unwrap().len(),
            16
        );
        assert_eq!(view["board"]["routes"]["dark"][0], "d3");
        assert_eq!(
            view["board"]["rosettes"],
            serde_json::json!(["a1", "g1", "d2", "a3", "g3"])
        );
        assert_eq!(view["board"]["shape"], "standard");
        assert_eq!(view["board"]["files"], 8);
        assert_eq!(view["board"]["squares"].as_array().unwrap().len(), 20);
        assert_eq!(view["board"]["capture_again"], false);
        let aseb = RuleSet::parse(GameKind::Ur, Some("aseb")).unwrap();
        let view = serde_json::to_value(rule_set(&aseb, &Tables::default())).unwrap();
        assert_eq!(view["rules"], "aseb");
        assert_eq!(
            (&view["board"]["shape"], &view["board"]["path"]),
            (&"aseb".into(), &"aseb".into())
        );
        assert_eq!(view["board"]["files"], 12);
        assert_eq!(view["board"]["squares"][15], "l2");
        assert_eq!(view["board"]["routes"]["dark"][15], "l2");
        assert_eq!(
            view["board"]["rosettes"],
            serde_json::json!(["a1", "d2", "h2", "l2", "a3"])
        );
        let blitz = RuleSet::parse(GameKind::Ur, Some("blitz")).unwrap();
        let view = serde_json::to_value(rule_set(&blitz, &Tables::default())).unwrap();
        assert_eq!(view["board"]["capture_again"], true);
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
        let senet = RuleSet::parse(GameKind::Senet, Some("skyruk")).unwrap();
        let view = serde_json::to_value(rule_set(&senet, &Tables::default())).unwrap();
        assert_eq!(view["board"]["special"]["27"], "water");
        assert_eq!(view["fields"]["water"], "stand");
    }

    #[test]
    fn the_story_says_again_when_the_same_side_throws_next() {
        for text in ["blitz", "aseb", "rosette_again=0 capture_again=1"] {
            let rules = RuleSet::parse(GameKind::Ur, Some(text)).unwrap();
            let mut game = AnyGame::new(&rules, Seed::new([5u8; 32]).unwrap()).unwrap();
            while !game.is_over() {
                let legal = game.legal();
                game.play(&legal[legal.len() - 1]).unwrap();
            }
            let told = tell(&game, &Tables::default()).unwrap();
            let mut seen = [false; 2];
            for pair in told.plies.windows(2) {
                assert_eq!(
                    pair[0].again,
                    pair[0].side == pair[1].side,
                    "{text} {:?}",
                    pair[0]
                );
                if pair[0].again {
                    seen[usize::from(pair[0].capture)] = true;
                }
            }
            // Some extra throw came from a rosette, or from a capture.
            assert!(seen.iter().any(|&s| s), "{text}");
        }
    }

    #[test]
    fn the_story_replays_to_the_game_and_counts_the_race() {
        for rules in [
            RuleSet::parse(GameKind::Ur, None).unwrap(),
            RuleSet::parse(GameKind::Senet, Some("skyruk")).unwrap(),
        ] {
            let mut game = AnyGame::new(&rules, Seed::new([3u8; 32]).unwrap()).unwrap();
            let mut n = 0;
            while !game.is_over() && n < 400 {
                let legal = game.legal();
                game.play(&legal[n % legal.len()]).unwrap();
                n += 1;
            }
            let told = tell(&game, &Tables::default()).unwrap();
            assert_eq!(told.plies.len(), game.ply() as usize);
            assert_eq!(told.plies.last().unwrap().position, game.position());
            assert!(told.analysis.is_none());
            let start = &told.start.race;
            match &rules {
                RuleSet::Ur(_) => assert_eq!((start.light, start.dark), (105, 105)),
                RuleSet::Senet(_) => {
                    assert_eq!(
                        start.light,
                        [2, 4, 6, 8, 10].iter().map(|h| 31 - h).sum::<u32>()
                    );
                    assert_eq!(
                        start.dark,
                        [1, 3, 5, 7, 9].iter().map(|h| 31 - h).sum::<u32>()
                    );
                }
            }
            // An Ur move that captures nothing takes the mover the roll
            // closer; a lost turn changes nothing.
            let mut before = told.start.race;
            for p in &told.plies {
                let (mover, other) = match p.side {
                    "light" => ((before.light, p.race.light), (before.dark, p.race.dark)),
                    _ => ((before.dark, p.race.dark), (before.light, p.race.light)),
                };
                if p.mv.is_none() {
                    assert_eq!((mover.0, other.0), (mover.1, other.1));
                } else if matches!(rules, RuleSet::Ur(_)) {
                    assert_eq!(mover.0 - mover.1, u32::from(p.roll));
                    assert_eq!(p.capture, other.1 > other.0, "{p:?}");
                }
                before = p.race;
            }
        }
    }
}
