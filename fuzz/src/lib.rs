//! The checks behind every fuzz target, shared with the regression test
//! (`tests/regressions.rs`) so that a saved input is judged by exactly the
//! code that found it.
//!
//! Every check takes arbitrary bytes, must never panic on its own account,
//! and asserts the round-trip contracts of the text forms:
//!
//! * records: `format(parse(x)) == x` for every accepted record; replay never
//!   panics; a replayed game's own record parses and replays to an equal game
//!   with identical text;
//! * positions: whatever is accepted writes a text that reads back to the
//!   same position, and writing is idempotent;
//! * moves: whatever is accepted writes a text that reads back equal (Ur
//!   reads any case, Senet only lowercase `off`);
//! * rules text: whatever is accepted is its canonical text (the name, or the
//!   fields spelled out), and that text reads back to the same rule set;
//!   rules a person writes (`parse_lenient`: the differences, in any order)
//!   take everything the strict form takes, to the same rule set, and what
//!   they accept writes a canonical text that reads back to it;
//! * errors: a refused record's sentence is never empty and ends in its
//!   check's word.
//! * request bodies of `race serve`: every body is accepted or refused with
//!   a message, never a panic; what is accepted keeps to the limits and
//!   reads back the same from its own JSON.

#![forbid(unsafe_code)]

use dice_core::{Game, Notation, Record, Seed};

/// The targets, by name, as `cargo fuzz run NAME` knows them.
pub const TARGETS: [&str; 10] = [
    "seed_hex",
    "ur_record",
    "ur_position",
    "ur_move",
    "ur_rules",
    "senet_record",
    "senet_position",
    "senet_move",
    "senet_rules",
    "request_body",
];

/// Runs the named target's check on one input. Unknown names are a bug in
/// the caller and panic.
pub fn check(target: &str, data: &[u8]) {
    match target {
        "seed_hex" => seed_hex(data),
        "ur_record" => record::<royal_ur::Ur>(data),
        "ur_position" => ur_position(data),
        "ur_move" => ur_move(data),
        "ur_rules" => rules::<royal_ur::Ur>(data),
        "senet_record" => record::<senet::Senet>(data),
        "senet_position" => senet_position(data),
        "senet_move" => senet_move(data),
        "senet_rules" => rules::<senet::Senet>(data),
        "request_body" => request_body(data),
        other => panic!("no fuzz target named {other:?}"),
    }
}

/// Seed hex: whatever is accepted writes back as its lowercase form, and the
/// canonical form reads back to the same seed.
pub fn seed_hex(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        match Seed::from_hex(text) {
            Ok(seed) => {
                assert_eq!(seed.to_hex(), text.to_ascii_lowercase());
                assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed));
            }
            Err(e) => assert!(!e.code().is_empty()),
        }
    }
    if let Ok(seed) = Seed::new(data) {
        assert_eq!(
            Seed::from_hex(&seed.to_hex()).map(|s| s.as_bytes().to_vec()),
            Ok(data.to_vec())
        );
    }
}

/// Records: byte-exact round trip, replay without panics, and a replayed
/// game's record replays to an equal game.
pub fn record<R: Notation>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match Record::<R>::parse(text) {
        Ok(record) => record,
        Err(e) => {
            assert!(!e.kind.as_str().is_empty());
            assert!(!e.message().is_empty());
            assert!(e.to_string().ends_with(&format!("({})", e.kind)));
            return;
        }
    };
    let written = record.to_string();
    assert_eq!(written, text, "format(parse(x)) != x");
    assert_eq!(Record::<R>::parse(&written).as_ref(), Ok(&record));

    let game = match Game::<R>::replay(&record, None) {
        Ok(game) => game,
        Err(e) => {
            assert!(!e.message().is_empty());
            assert!(e.record_line() > 0);
            return;
        }
    };
    // Every position a replay reaches passes the game's whole-position
    // checker (its `Position::check`).
    assert!(
        R::check_position(game.variant(), game.position()).is_ok(),
        "a replayed game reached a position that cannot occur"
    );
    let own = game.to_record();
    let own_text = own.to_string();
    let reread = Record::<R>::parse(&own_text)
        .unwrap_or_else(|e| panic!("a replayed game's record does not parse: {e}\n{own_text}"));
    assert_eq!(reread.to_string(), own_text);
    let again = Game::<R>::replay(&reread, None)
        .unwrap_or_else(|e| panic!("a replayed game's record does not replay: {e}\n{own_text}"));
    assert!(
        again == game,
        "replaying a game's own record gave another game\n{own_text}"
    );
    assert_eq!(again.to_record().to_string(), own_text);
}

/// Rules text: text the record's reader accepts is canonical, and the
/// canonical forms read back; the rule set's `FromStr` (rules as a person
/// writes them) takes what the record's reader takes, and its answers are
/// rule sets with a canonical text.
pub fn rules<R: Notation>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let loose = text.parse::<R::Variant>().ok();
    if let Some(v) = &loose {
        assert_eq!(R::read_rules_line(&v.to_string()).ok().as_ref(), Some(v));
    }
    let Ok(variant) = R::read_rules_line(text) else {
        return;
    };
    assert_eq!(loose.as_ref(), Some(&variant), "{text:?}");
    let shown = variant.to_string();
    let spelled = R::spelled_out(&variant);
    assert!(
        text == shown || text == spelled,
        "{text:?} is accepted but is neither {shown:?} nor {spelled:?}"
    );
    assert_eq!(R::read_rules_line(&shown).ok().as_ref(), Some(&variant));
    assert_eq!(R::read_rules_line(&spelled).ok().as_ref(), Some(&variant));
    let again = R::read_rules_line(&shown).map(|v| v.to_string());
    assert_eq!(again.ok().as_deref(), Some(shown.as_str()));
}

/// Ur positions: the written form reads back to the same position, and
/// writing is idempotent.
pub fn ur_position(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(position) = royal_ur::Position::parse(text) else {
        return;
    };
    let shown = position.to_string();
    let back = royal_ur::Position::parse(&shown)
        .unwrap_or_else(|e| panic!("{text:?} reads but its form {shown:?} does not: {e}"));
    assert_eq!(
        back, position,
        "{text:?} -> {shown:?} reads back as another position"
    );
    assert_eq!(back.to_string(), shown);
    let key = position.key(&royal_ur::Variant::FINKEL).to_string();
    assert_eq!(key.len(), 12);
    for variant in [royal_ur::Variant::FINKEL, royal_ur::Variant::MASTERS] {
        match position.check(&variant) {
            Ok(()) => assert!(ur_counts_hold(&position, &variant)),
            Err(e) => assert!(!e.code().is_empty() && !e.to_string().is_empty()),
        }
    }
    ur_position_under_every_board(text);
}

/// Whether each side of an Ur position has the rule set's pieces in hand,
/// on the board and home together.
fn ur_counts_hold(position: &royal_ur::Position, variant: &royal_ur::Variant) -> bool {
    dice_core::Side::ALL.into_iter().all(|side| {
        u32::from(position.hand(side))
            + u32::from(position.home(side, variant))
            + position.board_mask(side).count_ones()
            == u32::from(variant.pieces())
    })
}

/// Ur positions read under rule sets of each board and path (aseb's rows,
/// murray's and skiriuk's second visits): accepted text is exactly its
/// written form and reads back equal; the standard board's paths read what
/// the reference reads; the key text has 14 digits on the paths that come
/// back, 12 on the others; `check` passing means the piece count holds.
fn ur_position_under_every_board(text: &str) {
    use royal_ur::{Path, Position, Variant};
    let reference = Position::parse(text);
    for path in Path::ALL {
        let variant = Variant::FINKEL.with_path(path);
        let read = Position::parse_for(text, &variant);
        if matches!(path, Path::Bell | Path::Masters) {
            assert_eq!(
                read.as_ref().map_err(|e| e.code()),
                reference.as_ref().map_err(|e| e.code()),
                "{text:?} under {path}"
            );
        }
        let position = match read {
            Ok(position) => position,
            Err(e) => {
                assert!(!e.code().is_empty() && !e.to_string().is_empty());
                continue;
            }
        };
        let shown = position.to_string();
        let back = Position::parse_for(&shown, &variant)
            .unwrap_or_else(|e| panic!("{text:?} reads under {path} but {shown:?} does not: {e}"));
        assert_eq!(back, position, "{text:?} -> {shown:?} under {path}");
        assert_eq!(back.to_string(), shown);
        let width = if path.revisits() { 14 } else { 12 };
        assert_eq!(position.key_text(&variant).len(), width, "{text:?} under {path}");
        for pieces in 1..=royal_ur::PIECES_MAX {
            let Ok(variant) = variant.with_pieces(pieces) else {
                continue;
            };
            match position.check(&variant) {
                Ok(()) => assert!(ur_counts_hold(&position, &variant)),
                Err(e) => assert!(!e.code().is_empty() && !e.to_string().is_empty()),
            }
        }
    }
}

/// Senet positions: the first byte picks one of the 128 rule sets, the rest
/// is the position text; accepted text is its own written form.
pub fn senet_position(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let variant = senet_variant(pick);
    let Ok(position) = senet::Position::parse(text) else {
        return;
    };
    let shown = position.to_string();
    assert_eq!(shown, text, "format(parse(x)) != x under {variant}");
    let back = senet::Position::parse(&shown)
        .unwrap_or_else(|e| panic!("{shown:?} does not read back under {variant}: {e}"));
    assert_eq!(back, position);
    assert_eq!(back.to_string(), shown);
    let _ = position.key(&variant).to_string();
    if let Err(e) = position.check(&variant) {
        assert!(!e.code().is_empty());
    }
    let _ = position.bound(&variant);
    for house in senet::House::ALL {
        let _ = position.at(house);
        let _ = position.protected(house, &variant);
        let _ = position.in_blockade(house, &variant);
    }
}

/// The Senet rule set whose seven fields are the bits of `pick`.
#[must_use]
pub fn senet_variant(pick: u8) -> senet::Variant {
    let values = [
        ["all", "ends"],
        ["3", "2"],
        ["exact", "from25"],
        ["none", "again"],
        ["reborn", "stand"],
        ["one", "any"],
        ["5", "7"],
    ];
    let mut v = senet::Variant::KENDALL;
    for (i, (field, choice)) in senet::FIELDS.iter().zip(values).enumerate() {
        let value = choice[usize::from(pick >> i & 1)];
        v = v
            .with_field(field, value)
            .unwrap_or_else(|e| panic!("{field}={value}: {e}"));
    }
    v
}

/// Ur moves: any case reads; the written form is the lowercase input and
/// reads back equal.
pub fn ur_move(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mv) = text.parse::<royal_ur::Move>() else {
        return;
    };
    let shown = mv.to_string();
    assert_eq!(shown, text.to_ascii_lowercase());
    assert_eq!(shown.parse::<royal_ur::Move>(), Ok(mv));
    assert_eq!(text.to_ascii_uppercase().parse::<royal_ur::Move>(), Ok(mv));
    assert_eq!(royal_ur::Move::new(mv.from(), mv.to()), Ok(mv));
}

/// Senet moves: accepted text is its own written form and reads back equal.
pub fn senet_move(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mv) = text.parse::<senet::Move>() else {
        return;
    };
    let shown = mv.to_string();
    assert_eq!(shown, text);
    assert_eq!(shown.parse::<senet::Move>(), Ok(mv));
    assert_eq!(senet::Move::new(mv.from(), mv.to()), Ok(mv));
}

/// Request bodies of `race serve`: byte 0 picks the endpoint (create, move,
/// join, resign), the rest is the body. Refusals carry a message; accepted
/// moves hold at most 64 bytes of text; every accepted body, written back
/// as JSON, reads as the same request.
pub fn request_body(data: &[u8]) {
    use race_server::wire;
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    match pick % 4 {
        0 => match wire::parse_create(body) {
            Ok(req) => {
                let again = serde_json::to_vec(&req).expect("a request writes as JSON");
                assert_eq!(wire::parse_create(&again).as_ref(), Ok(&req));
            }
            Err(e) => assert!(!e.0.is_empty()),
        },
        1 => match wire::parse_move(body) {
            Ok(req) => {
                assert!(req.mv.len() <= wire::MOVE_MAX);
                let again = serde_json::to_vec(&req).expect("a move writes as JSON");
                assert_eq!(wire::parse_move(&again).as_ref(), Ok(&req));
            }
            Err(e) => assert!(!e.0.is_empty()),
        },
        2 => match wire::parse_join(body) {
            Ok(req) => {
                let again = serde_json::to_vec(&req).expect("a join writes as JSON");
                assert_eq!(wire::parse_join(&again).as_ref(), Ok(&req));
            }
            Err(e) => assert!(!e.0.is_empty()),
        },
        _ => {
            if wire::parse_resign(body).is_ok() {
                let text = std::str::from_utf8(body).expect("an accepted body is UTF-8");
                let inside: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
                assert!(inside.is_empty() || inside == "{}", "{text:?}");
            }
        }
    }
}
