//! `race soak`: many seeded games of random legal moves, every invariant
//! checked after every step.
//!
//! Game `i` of a run seeded with `S` is thrown from the seed `S:i` (as in
//! self-play), and its moves are chosen by dice-core's `Xorshift` seeded
//! from the same bytes, so any failure is reproduced by its seed and index alone.
//!
//! After every step (a move and the turns lost after it) the soak checks:
//!
//! * the game's own bookkeeping: the log has one entry a ply, the roll in
//!   hand has a move, a finished game offers none and refuses a move;
//! * the position, by the game's own whole-position checker
//!   (`Position::check`: pieces conserved, no square held twice, nobody off
//!   the board or off their route, nobody on 27 under `water=reborn`, the
//!   key laid out as the board says, ...); homes never shrink; the position
//!   text reads back to the same position;
//! * undo, on every step: undo gives back the game before the move and
//!   playing the same move again gives the game after it, compared by what a
//!   caller sees (position, ply, throws, roll, faces, legal moves, log length
//!   and last entry); on one step in eight, picked by the generator, the
//!   whole games are compared (`Game: PartialEq`: log, undo stack and all);
//! * refusals: on those same steps, a random move the roll does not allow
//!   (when the random one happens to be legal, none) is refused and changes
//!   nothing;
//! * at the end: the record parses back to the same record, replays to an
//!   identical game, and that game writes identical text.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Instant;

use dice_core::{Game, LogEntry, MoveList, PlayError, Record, Seed, Side, Xorshift};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use race_games::RaceGame;

use crate::selfplay::game_seed;

/// How many failures are printed one by one before they are only counted.
const SHOWN_FAILURES: u64 = 20;

/// The totals of a soak run under one rule set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Plies: moves and lost turns.
    pub plies: u64,
    /// Turns lost to the roll.
    pub lost_turns: u64,
    /// Captures (Ur) or swaps (Senet).
    pub captures: u64,
    /// Undo checks (undo, compare, replay the move, compare).
    pub undo_checks: u64,
    /// Illegal moves tried and refused without a change.
    pub refusals: u64,
    /// Records parsed and replayed at a game's end.
    pub replays: u64,
    /// Games where an invariant failed.
    pub failures: u64,
}

/// A failed invariant: which game, which ply, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The game's index in the run.
    pub index: u64,
    /// The game's seed, as text when it is (`"soak:12"`), else as hex.
    pub seed: String,
    /// The ply at which the check failed.
    pub ply: u32,
    /// What failed.
    pub what: String,
}

/// Plays one soak game to its end, checking everything.
///
/// # Errors
///
/// The first invariant that failed, with its ply.
pub fn soak_game<G: RaceGame>(
    variant: &G::Variant,
    seed: &Seed,
    totals: &mut Totals,
) -> Result<(), (u32, String)> {
    let mut rng = Xorshift::from_bytes(seed.as_bytes());
    let mut game = Game::<G>::seeded(seed.clone(), variant.clone())
        .map_err(|e| (0, format!("the game does not start: {e}")))?;
    let fail = |game: &Game<G>, what: String| (game.ply(), what);
    let mut before_pos = *game.position();
    check_step::<G>(&game, &before_pos).map_err(|w| fail(&game, w))?;
    while !game.is_over() {
        let legal = game.legal();
        if legal.is_empty() || game.roll().is_none() {
            return Err(fail(&game, "the game is on but offers no move".to_owned()));
        }
        let mv = legal[rng.below(legal.len())];
        // One step in eight (chosen by the generator) compares whole games:
        // a refused illegal move and undo must leave the game exactly equal,
        // log, undo stack and all. Every other step compares what a caller
        // sees of the game (`Glance`), which is cheap.
        let full = rng.next_u64() & 7 == 0;
        let before = if full {
            let wrong = G::any_move(rng.next_u64());
            let kept = game.clone();
            if let Some(wrong) = wrong.filter(|mv| !game.legal().contains(mv)) {
                match game.play(wrong) {
                    Err(PlayError::Refused { .. }) if game == kept => totals.refusals += 1,
                    Err(PlayError::Refused { .. }) => {
                        return Err(fail(&game, format!("refusing {wrong} changed the game")));
                    }
                    Err(e) => {
                        return Err(fail(&game, format!("{wrong} refused as {}", e.code())));
                    }
                    Ok(_) => {
                        return Err(fail(&game, format!("{wrong} was played though not legal")));
                    }
                }
            }
            Some(kept)
        } else {
            None
        };
        let glance = Glance::of(&game);
        if let Err(e) = game.play(mv) {
            return Err(fail(&game, format!("legal move {mv} refused: {e}")));
        }
        let after_glance = Glance::of(&game);
        let after = full.then(|| game.clone());
        let ply = game.ply();
        if game.undo().is_err()
            || Glance::of(&game) != glance
            || before.as_ref().is_some_and(|b| *b != game)
        {
            return Err((ply, format!("undo after {mv} does not restore the game")));
        }
        if game.play(mv).is_err()
            || Glance::of(&game) != after_glance
            || after.as_ref().is_some_and(|a| *a != game)
        {
            return Err((ply, format!("playing {mv} again after undo differs")));
        }
        totals.undo_checks += 1;
        check_step::<G>(&game, &before_pos).map_err(|w| fail(&game, w))?;
        before_pos = *game.position();
    }
    if !game.legal().is_empty()
        || !G::any_move(0).is_some_and(|mv| matches!(game.play(mv), Err(PlayError::GameOver)))
    {
        return Err(fail(&game, "a finished game still takes moves".to_owned()));
    }

    let record = game.to_record();
    let text = record.to_string();
    let parsed = Record::<G>::parse(&text)
        .map_err(|e| fail(&game, format!("the record does not parse: {e}")))?;
    if parsed != record {
        return Err(fail(
            &game,
            "the record parses back as another record".to_owned(),
        ));
    }
    let again = Game::<G>::replay(&parsed, None)
        .map_err(|e| fail(&game, format!("the record does not replay: {e}")))?;
    if again != game {
        return Err(fail(&game, "the replayed game differs".to_owned()));
    }
    if again.to_record().to_string() != text {
        return Err(fail(
            &game,
            "the replayed game writes other text".to_owned(),
        ));
    }
    totals.replays += 1;

    let log = game.log();
    totals.games += 1;
    totals.plies += u64::from(game.ply());
    totals.lost_turns += log.iter().filter(|e| e.mv.is_none()).count() as u64;
    totals.captures += log
        .iter()
        .filter(|e| e.mv.is_some() && G::is_capture(&e.flags))
        .count() as u64;
    Ok(())
}

/// What a caller sees of a game at a glance: compared around every undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Glance<G: RaceGame> {
    position: G::Position,
    ply: u32,
    throws: u64,
    roll: Option<u8>,
    faces: Option<dice_core::Faces>,
    legal: MoveList<G::Move>,
    log_len: usize,
    last: Option<LogEntry<G>>,
}

impl<G: RaceGame> Glance<G> {
    fn of(game: &Game<G>) -> Glance<G> {
        let mut legal = MoveList::new();
        for &mv in game.legal() {
            legal.push(mv);
        }
        Glance {
            position: *game.position(),
            ply: game.ply(),
            throws: game.throws(),
            roll: game.roll(),
            faces: game.faces(),
            legal,
            log_len: game.log().len(),
            last: game.log().last().copied(),
        }
    }
}

/// The checks made after every step.
fn check_step<G: RaceGame>(game: &Game<G>, before: &G::Position) -> Result<(), String> {
    if game.log().len() != game.ply() as usize {
        return Err(format!(
            "the log has {} entries for {} plies",
            game.log().len(),
            game.ply()
        ));
    }
    check_position::<G>(game.variant(), game.position(), before)
}

/// Checks a position reached in play, `before` being the one before the
/// step: the game's whole-position checker, homes that never shrink, and
/// the position's text reading back to it.
///
/// # Errors
///
/// What is wrong, in words.
pub fn check_position<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    before: &G::Position,
) -> Result<(), String> {
    if let Err(why) = G::check(variant, position) {
        return Err(format!("the position cannot occur ({}): {why}", why.code));
    }
    for side in Side::ALL {
        if G::home(variant, position, side) < G::home(variant, before, side) {
            return Err(format!("{side}'s home shrank"));
        }
    }
    let text = position.to_string();
    match crate::engine::parse_position::<G>(&text, variant, "soak") {
        Ok(back) if back == *position => Ok(()),
        Ok(_) => Err(format!("{text:?} reads back as another position")),
        Err(e) => Err(format!("{text:?} does not read back: {e}")),
    }
}

/// Runs `games` soak games under one rule set, from game index `from`.
pub fn run<G: RaceGame>(
    variant: &G::Variant,
    base: &Seed,
    from: u64,
    games: u64,
    mut report: impl FnMut(&Failure),
) -> Totals {
    let bar = if std::io::stderr().is_terminal() && games > 1 {
        let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{variant} {{bar:40}} {{pos}}/{{len}} games  {{per_sec}}  eta {{eta}}"
        )) {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut totals = Totals::default();
    // The command refuses a run past the last index; nothing wraps here.
    for index in (0..games).map_while(|i| from.checked_add(i)) {
        let seed = game_seed(base, index);
        if let Err((ply, what)) = soak_game::<G>(variant, &seed, &mut totals) {
            totals.failures += 1;
            report(&Failure {
                index,
                seed: crate::input::shown(&seed),
                ply,
                what,
            });
        }
        if index % 256 == 0 {
            bar.set_position(index - from);
        }
    }
    bar.finish_and_clear();
    totals
}

/// One line of totals.
pub fn line(label: &str, t: &Totals, seconds: f64) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "{label}: {} games, {} plies, {} lost turns, {} captures/swaps, {} undo checks, \
         {} replays, {} failures, {seconds:.1} s; ",
        t.games + t.failures,
        t.plies,
        t.lost_turns,
        t.captures,
        t.undo_checks,
        t.replays,
        t.failures
    );
    // Only a correct refusal is counted; a wrong one is a failure.
    if t.failures == 0 {
        let _ = write!(
            s,
            "refused illegal moves tried: {} (all correctly refused)",
            t.refusals
        );
    } else {
        let _ = write!(
            s,
            "illegal moves tried and correctly refused: {}",
            t.refusals
        );
    }
    s
}

/// Runs the soak for every rule set and writes the totals; failures go to
/// stderr as they happen (the first [`SHOWN_FAILURES`] of each rule set).
pub fn soak<G: RaceGame>(
    variants: &[G::Variant],
    base: &Seed,
    from: u64,
    games: u64,
) -> (String, u64) {
    let mut out = String::new();
    let mut all = Totals::default();
    let started = Instant::now();
    for variant in variants {
        let clock = Instant::now();
        let mut shown = 0;
        let t = run::<G>(variant, base, from, games, |f| {
            if shown < SHOWN_FAILURES {
                eprintln!(
                    "race: soak {} {variant}: game {} (seed {}), ply {}: {}",
                    G::KIND,
                    f.index,
                    f.seed,
                    f.ply,
                    f.what
                );
            }
            shown += 1;
        });
        let label = format!("{} {variant}", G::KIND);
        out.push_str(&line(&label, &t, clock.elapsed().as_secs_f64()));
        out.push('\n');
        all.games += t.games;
        all.plies += t.plies;
        all.lost_turns += t.lost_turns;
        all.captures += t.captures;
        all.undo_checks += t.undo_checks;
        all.refusals += t.refusals;
        all.replays += t.replays;
        all.failures += t.failures;
    }
    if variants.len() > 1 {
        out.push_str(&line("total", &all, started.elapsed().as_secs_f64()));
        out.push('\n');
    }
    (out, all.failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_games_of_each_named_rule_set_pass() {
        let base = Seed::new("unit").unwrap();
        for v in [royal_ur::Variant::FINKEL, royal_ur::Variant::MASTERS] {
            let t = run::<royal_ur::Ur>(&v, &base, 0, 5, |f| panic!("{f:?}"));
            assert_eq!((t.games, t.replays, t.failures), (5, 5, 0));
            assert_eq!(t.undo_checks + t.lost_turns, t.plies);
        }
        for v in [::senet::Variant::KENDALL, ::senet::Variant::SKYRUK] {
            let t = run::<::senet::Senet>(&v, &base, 0, 5, |f| panic!("{f:?}"));
            assert_eq!((t.games, t.replays, t.failures), (5, 5, 0));
            assert_eq!(t.undo_checks + t.lost_turns, t.plies);
        }
    }

    #[test]
    fn a_broken_invariant_is_caught() {
        let finkel = royal_ur::Variant::FINKEL;
        let start = royal_ur::Position::start(&finkel, Side::Light);
        let short = start.with_hand(Side::Light, 6).unwrap();
        let err = check_position::<royal_ur::Ur>(&finkel, &short, &start).unwrap_err();
        assert!(err.contains("(pieces)"), "{err}");
        let home = royal_ur::Position::parse("4xx2/8/4xx2 l 6 1 7 0").unwrap();
        let err = check_position::<royal_ur::Ur>(&finkel, &start, &home).unwrap_err();
        assert_eq!(err, "light's home shrank");
    }
}
