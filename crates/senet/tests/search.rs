//! The bot's answers are pinned, node counts included: 314 questions (rule
//! set, position, roll, level, node budget) asked at positions of seeded
//! random-move games under four rule sets, with their answers (move index,
//! depth, value, nodes) as the bot gave them when each game crate still had
//! its own search. The same search must give the same answers wherever it
//! lives.

use senet::{Bot, Position, Variant};

#[test]
fn the_bot_gives_the_recorded_answers() {
    let data = include_str!("data/search.txt");
    let mut asked = 0;
    for line in data.lines() {
        let fields: Vec<&str> = line.split('|').collect();
        let [rules, position, roll, level, budget, answer] = fields[..] else {
            panic!("not a question: {line}");
        };
        let variant: Variant = rules.parse().unwrap();
        let position = Position::parse(position).unwrap();
        let budget = (budget != "-").then(|| budget.parse().unwrap());
        let bot = Bot::new(Some(level.parse().unwrap()), budget).unwrap();
        let t = bot
            .think(&variant, &position, roll.parse().unwrap())
            .unwrap();
        let value = t.value.expect("every question is answered by a search");
        let got = format!("{} {} {value} {}", t.index, t.depth, t.nodes);
        assert_eq!(got, answer, "{line}");
        asked += 1;
    }
    assert_eq!(asked, 314);
}
