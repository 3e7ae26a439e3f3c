//! The search's answers are pinned, node counts included: 409 questions
//! (rule set, position, roll, the weights of a ladder level, depth, node
//! budget), asked at positions of seeded random-move games under four rule
//! sets, with their answers (move index, nodes, deepest finished level,
//! value, whether a level stopped) as the search gave them when each game
//! crate still had its own. The same search must give the same answers
//! wherever it lives (spec §17).

use royal_ur::{Position, Rung, Variant, rung, search};

#[test]
fn the_search_gives_the_recorded_answers() {
    let data = include_str!("data/search.txt");
    let mut asked = 0;
    for line in data.lines() {
        let fields: Vec<&str> = line.split('|').collect();
        let [rules, position, roll, level, depth, budget, answer] = fields[..] else {
            panic!("not a question: {line}");
        };
        let variant: Variant = rules.parse().unwrap();
        let position = Position::parse(position).unwrap();
        let Rung::Search { weights, .. } = rung(level.parse().unwrap(), variant.path()).unwrap()
        else {
            panic!("level {level} does not search");
        };
        let info = search(
            &variant,
            &position,
            roll.parse().unwrap(),
            depth.parse().unwrap(),
            budget.parse().unwrap(),
            &weights,
        );
        let got = format!(
            "{} {} {} {} {}",
            info.index.map_or(-1, |i| i as i64),
            info.nodes,
            info.depth,
            info.value,
            u8::from(info.stopped)
        );
        assert_eq!(got, answer, "{line}");
        asked += 1;
    }
    assert_eq!(asked, 409);
}
