//! `race play`: a game in the terminal, against the bot, two people at one
//! keyboard, or bot against bot.
//!
//! One [`Session`] holds the game, its record file and the commands; two
//! front ends drive it: [`screen`], a fixed screen redrawn in place on a
//! real terminal, and [`lines`], line by line for pipes and `--plain`.

pub mod lines;
pub mod record;
pub mod screen;

use std::path::PathBuf;
use std::time::Duration;

use dice_core::{Dice, Game, PlayError, Rules, Seed, Setup, Side, Undone, throw_bits};
use race_games::{Bot, RaceGame};

use crate::error::{Failure, Refused, io_words};
use crate::input::GivenSeed;
use crate::query::{MOVE_LIST_COLUMN, move_list, move_list_by, result_line};
use crate::render;
use crate::style::Style;

use record::RecordFile;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the bot.
    Bot,
    /// Two people at one keyboard.
    Hotseat,
    /// Bot against bot.
    Watch,
}

/// Who makes the next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// A person, at the keyboard.
    Person,
    /// The bot.
    Bot,
}

/// How a session is played.
pub struct Options<G: RaceGame> {
    /// Who plays.
    pub mode: Mode,
    /// The person's side against the bot.
    pub human: Side,
    /// The bot.
    pub bot: Bot<G>,
    /// The solved table a `level perfect` command plays from, when given.
    pub table: Option<PathBuf>,
    /// Who moves first in a new game (thrown for, or the rules', when `None`).
    pub first: Option<Side>,
    /// How to draw.
    pub style: Style,
    /// The pause before each bot move.
    pub pace: Duration,
}

/// Something a command answers with: a plain note, or a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// What happened.
    Note(String),
    /// What was refused, and why.
    Warn(String),
}

/// The milliseconds between bot moves on a terminal, unless `--pace` says.
pub const PACE_MS: u64 = 400;

/// The in-game commands, as `race play --help` and `help` list them.
pub const COMMANDS: &str =
    "  N or a move       play move N of the list, or a move written out (a2-d2, 12-15)
  moves (m)         list the moves again
  board (b)         draw the board
  list (l)          the numbered list of every ply so far
  route (r)         show the route
  undo (u)          take back your last move
  new (n)           a new game with the next seed (asks first while a game is on)
  level N           change the bot's level (1 to 99, top; for ur perfect with --table)
  save FILE         write the record to FILE now
  resign            give the game up
  replay            the moves of a finished game, one by one
  help (h, ?)       this list
  quit (q)          leave (on the screen, asks first while the game is on)
";

/// A command typed in game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// A move: its number in the list, or its text.
    Play(&'a str),
    /// List the moves again (also an empty line).
    Moves,
    /// Draw the board.
    Board,
    /// The numbered list of every ply.
    List,
    /// The route.
    Route,
    /// Take back the person's last move.
    Undo,
    /// A new game.
    New,
    /// Change the bot's level.
    Level(&'a str),
    /// Write the record to a file.
    Save(&'a str),
    /// Give the game up.
    Resign,
    /// Step through a finished game.
    Replay,
    /// The commands.
    Help,
    /// Leave.
    Quit,
}

impl<'a> Command<'a> {
    /// Reads a typed line: a command word (any case) and its argument, or
    /// else a move.
    pub fn parse(line: &'a str) -> Command<'a> {
        let line = line.trim();
        let (word, rest) = line
            .split_once(' ')
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_lowercase().as_str() {
            "" | "moves" | "m" => Command::Moves,
            "board" | "b" => Command::Board,
            "list" | "l" | "log" => Command::List,
            "route" | "r" => Command::Route,
            "undo" | "u" => Command::Undo,
            "new" | "n" => Command::New,
            "level" => Command::Level(rest),
            "save" => Command::Save(rest),
            "resign" => Command::Resign,
            "replay" => Command::Replay,
            "help" | "h" | "?" => Command::Help,
            "quit" | "q" | "exit" => Command::Quit,
            _ => Command::Play(line),
        }
    }
}

/// Calls `handle` on a thread of its own for each SIGINT, SIGTERM or
/// SIGHUP (which then no longer end the process by themselves).
///
/// # Errors
///
/// When the handlers or the thread cannot be set up.
pub fn on_signals(mut handle: impl FnMut(i32) + Send + 'static) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || {
            for sig in signals.forever() {
                handle(sig);
            }
        })?;
    Ok(())
}

/// A fresh seed from the clock and the process id: the one place the
/// program makes something up.
pub fn fresh_seed() -> Seed {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut bytes = Vec::with_capacity(12);
    bytes.extend_from_slice(&(nanos as u64).to_le_bytes());
    bytes.extend_from_slice(&std::process::id().to_le_bytes());
    // Twelve bytes are never refused (only an empty seed is).
    match Seed::new(bytes) {
        Ok(seed) => seed,
        Err(_) => std::process::abort(),
    }
}

/// The seed of the next game, derived from the last one through the dice.
pub fn next_seed(seed: &Seed) -> Seed {
    let bytes: Vec<u8> = (0..8u64).map(|i| throw_bits(seed, u64::MAX - i)).collect();
    Seed::new(bytes).unwrap_or_else(|_| seed.clone())
}

/// A game being played: the game, how it is played, and where its record
/// goes (written after every change).
pub struct Session<G: RaceGame> {
    /// How it is played.
    pub opts: Options<G>,
    /// The game.
    pub game: Game<G>,
    /// Its seed, as shown.
    pub seed: GivenSeed,
    /// Where its record goes.
    pub record: Option<RecordFile>,
    /// The ply the game was resumed at, if it was.
    pub resumed: Option<u32>,
    /// The files `save` wrote (which it may write again).
    saved: Vec<std::path::PathBuf>,
}

impl<G: RaceGame> Session<G> {
    /// A new game under `variant` from `seed`, its record written at once.
    ///
    /// # Errors
    ///
    /// A refusal when the game cannot be set up or its record not written.
    pub fn start(
        opts: Options<G>,
        variant: G::Variant,
        seed: GivenSeed,
        record: Option<RecordFile>,
    ) -> Result<Session<G>, Refused> {
        let game = new_game::<G>(variant, &seed.seed, opts.first)?;
        let session = Session {
            opts,
            game,
            seed,
            record,
            resumed: None,
            saved: Vec::new(),
        };
        session.write_record()?;
        Ok(session)
    }

    /// A game replayed from its record, to go on with.
    ///
    /// # Errors
    ///
    /// `no_seed` for a record without a seed: its throws cannot go on.
    pub fn resume(
        opts: Options<G>,
        game: Game<G>,
        input: &str,
        record: Option<RecordFile>,
    ) -> Result<Session<G>, Refused> {
        let Some(seed) = game.seed().cloned() else {
            return Err(Refused::new(
                input,
                "no_seed",
                "the record has no [seed] line: its throws were not made from a seed, so the \
                 game cannot go on with the same dice",
            ));
        };
        let ply = game.ply();
        Ok(Session {
            opts,
            game,
            seed: GivenSeed::made(seed),
            record,
            resumed: Some(ply),
            saved: Vec::new(),
        })
    }

    /// Who moves for `side`.
    pub fn mover(&self, side: Side) -> Mover {
        match self.opts.mode {
            Mode::Hotseat => Mover::Person,
            Mode::Bot if side == self.opts.human => Mover::Person,
            _ => Mover::Bot,
        }
    }

    /// Who moves now, `None` when the game is over.
    pub fn to_move(&self) -> Option<(Side, Mover)> {
        self.game.side().map(|side| (side, self.mover(side)))
    }

    /// For a game resumed from its record: the ply it goes on from, and
    /// the person's side (a record does not say which side a person
    /// played, so it is the one `--side` gives) and how to take the other.
    pub fn resumed_note(&self) -> Option<String> {
        let ply = self.resumed.filter(|_| !self.game.is_over())?;
        let from = match &self.record {
            Some(file) => format!("going on from ply {ply} of {}", file.path().display()),
            None => format!("going on from ply {ply}"),
        };
        Some(match self.opts.mode {
            Mode::Bot => {
                let side = self.opts.human;
                format!(
                    "{from}: you play {side} (--side {} plays the other side).",
                    side.other()
                )
            }
            Mode::Hotseat | Mode::Watch => format!("{from}."),
        })
    }

    /// The first line: the game, its rules and seed, and who plays.
    pub fn title(&self) -> String {
        let level = self.opts.bot.level();
        let who = match self.opts.mode {
            Mode::Bot => format!(
                "you play {} against the bot (level {level})",
                self.opts.human
            ),
            Mode::Hotseat => "two players at one keyboard".to_owned(),
            Mode::Watch => format!("the bot (level {level}) plays both sides"),
        };
        format!(
            "{} under {}, seed {}: {who}",
            G::GAME,
            self.game.variant(),
            self.seed.shown
        )
    }

    /// How the first side was decided: each opening throw and what came
    /// of it, or who moves first by the rules or the command line.
    pub fn opening(&self) -> Vec<String> {
        let style = &self.opts.style;
        let variant = self.game.variant();
        let look = render::dice_look::<G>();
        let lines: Vec<String> = self
            .game
            .opening()
            .chunks(2)
            .enumerate()
            .filter_map(|(i, pair)| {
                let &[light, dark] = pair else { return None };
                let (l, d) = (light.marked(), dark.marked());
                let verdict = match <G as Rules>::throw_off(variant, light, dark) {
                    Some(w) => {
                        let (won, lost) = if w == Side::Light { (l, d) } else { (d, l) };
                        format!("{w} threw more marked dice ({won} to {lost}) and moves first")
                    }
                    None => format!("both threw {l} marked, so they throw again"),
                };
                Some(format!(
                    "opening throw {}: light {}, dark {}: {verdict}.",
                    i + 1,
                    render::faces(light, &look, style),
                    render::faces(dark, &look, style),
                ))
            })
            .collect();
        if lines.is_empty() {
            vec![format!("{} moves first.", self.game.first())]
        } else {
            lines
        }
    }

    /// Ply `index` of the log in words: `  12. light rolls 2 ...`.
    pub fn narrate(&self, index: usize) -> Option<String> {
        let entry = self.game.log().get(index)?;
        Some(format!(
            "{:>4}. {}",
            index + 1,
            render::narrate(self.game.variant(), entry, &self.opts.style)
        ))
    }

    /// The throw in hand: `dice ▲△▲△  roll 2`.
    pub fn throw(&self) -> Option<String> {
        let roll = self.game.roll()?;
        Some(render::throw::<G>(
            self.game.variant(),
            self.game.faces(),
            roll,
            &self.opts.style,
        ))
    }

    /// The legal moves, labelled for the numbered list.
    pub fn choices(&self) -> Vec<String> {
        let Some(roll) = self.game.roll() else {
            return Vec::new();
        };
        G::legal_moves(self.game.variant(), self.game.position(), roll)
            .iter()
            .map(race_games::LegalMove::label)
            .collect()
    }

    /// How the game ended, in a sentence.
    pub fn result(&self) -> Option<String> {
        result_line(&self.game)
    }

    /// The board as text, the last turns marked.
    pub fn board_text(&self) -> String {
        render::board_text(
            self.game.variant(),
            self.game.position(),
            self.game.log(),
            &self.opts.style,
        )
    }

    /// Writes the record to its file, if the game has one.
    ///
    /// # Errors
    ///
    /// A refusal when the file cannot be written.
    pub fn write_record(&self) -> Result<(), Refused> {
        match &self.record {
            Some(file) => file.write(&self.game.to_record().to_string()),
            None => Ok(()),
        }
    }

    /// After a change: the record written, or a warning that it was not.
    fn kept(&self) -> Option<Said> {
        self.write_record().err().map(|r| {
            Said::Warn(format!(
                "{r}; the game goes on (save FILE writes it elsewhere)"
            ))
        })
    }

    /// Plays the bot's move (chosen for this very game).
    pub fn bot_plays(&mut self, mv: G::Move) -> Option<Said> {
        match self.game.play(mv) {
            Ok(_) => self.kept(),
            Err(e) => Some(Said::Warn(format!(
                "the bot's move was refused: {}",
                e.message()
            ))),
        }
    }

    /// Plays a person's move: its number in the list, or its text.
    pub fn play(&mut self, text: &str) -> Option<Said> {
        let played = match text.parse::<usize>() {
            Ok(n) => match self.game.legal().get(n.wrapping_sub(1)).copied() {
                Some(mv) => self.game.play(mv),
                None => {
                    let choose = match self.game.legal().len() {
                        0 => "there is no move to make".to_owned(),
                        1 => "there is one move: 1".to_owned(),
                        all => format!("choose 1 to {all}"),
                    };
                    return Some(Said::Warn(format!(
                        "there is no move {n}: {choose}, or type help."
                    )));
                }
            },
            Err(_) => self.game.play_text(text),
        };
        match played {
            Ok(_) => self.kept(),
            Err(PlayError::BadMove { .. }) => Some(Said::Warn(format!(
                "{text:?} is neither a move nor a command (type help)."
            ))),
            Err(e) => Some(Said::Warn(format!("{} ({}).", e.message(), e.code()))),
        }
    }

    /// Takes back moves until it is a person's turn again.
    pub fn undo(&mut self) -> Said {
        let before = self.game.ply();
        let mut undone = false;
        while let Ok(what) = self.game.undo() {
            undone = true;
            if matches!(what, Undone::Resignation(_)) {
                break;
            }
            match self.to_move() {
                Some((_, Mover::Bot)) if self.opts.mode == Mode::Bot => {}
                _ => break,
            }
        }
        if !undone {
            return Said::Warn("there is nothing to take back.".to_owned());
        }
        let moved = self.leave_kept_record();
        self.kept().unwrap_or_else(|| {
            let moved = moved.map(|m| format!("; {m}")).unwrap_or_default();
            Said::Note(format!(
                "taken back to ply {} (from {before}){moved}.",
                self.game.ply()
            ))
        })
    }

    /// When the game no longer holds all that a resumed record held (an
    /// undo went back past it), its record goes on in the next numbered
    /// file and the resumed one stays as it was; says so.
    fn leave_kept_record(&mut self) -> Option<String> {
        let file = self.record.as_ref()?;
        if file.holds(self.game.log().len(), self.game.is_over()) {
            return None;
        }
        let next = file.next();
        let note = format!(
            "the game goes on in {}, and {} keeps its record as it was",
            next.path().display(),
            file.path().display()
        );
        self.record = Some(next);
        Some(note)
    }

    /// The side to move gives the game up.
    pub fn resign(&mut self) -> Said {
        match self.game.resign(None) {
            Ok(_) => self
                .kept()
                .unwrap_or_else(|| Said::Note("resigned.".to_owned())),
            Err(_) => Said::Warn("the game is already over.".to_owned()),
        }
    }

    /// A new game with the next seed; with a record, in the next numbered
    /// file, the last game staying in its own.
    ///
    /// # Errors
    ///
    /// A refusal when the game cannot be set up.
    pub fn new_game(&mut self) -> Result<Option<Said>, Refused> {
        let seed = GivenSeed::made(next_seed(&self.seed.seed));
        self.game = new_game::<G>(self.game.variant().clone(), &seed.seed, self.opts.first)?;
        self.seed = seed;
        self.resumed = None;
        self.record = self.record.as_ref().map(RecordFile::next);
        Ok(self.kept())
    }

    /// Whether starting a new game would leave this one unfinished.
    pub fn in_progress(&self) -> bool {
        !self.game.is_over() && self.game.ply() > 0
    }

    /// Writes the record to `path` now. A file that exists is replaced
    /// only when it is this game's own record, was saved by this run, or
    /// holds a record of this game that the game goes on from (so that no
    /// record is shortened).
    pub fn save(&mut self, path: &str) -> Said {
        if path.is_empty() {
            return Said::Warn("save what file? (save FILE)".to_owned());
        }
        let target = std::path::Path::new(path);
        let own = self.record.as_ref().is_some_and(|r| r.path() == target)
            || self.saved.iter().any(|p| p == target);
        if !own
            && target.exists()
            && let Some(why) = self.not_replaceable(target)
        {
            return Said::Warn(format!("refused: {path} {why}; save under another name."));
        }
        match crate::output::write_whole(target, &self.game.to_record().to_string()) {
            Ok(()) => {
                if !own {
                    self.saved.push(target.to_owned());
                }
                Said::Note(format!("the record is in {path}."))
            }
            Err(e) => Said::Warn(format!(
                "refused: {path} cannot be written: {}",
                io_words(&e)
            )),
        }
    }

    /// Why the file at `path` may not be replaced by this game's record,
    /// or `None` when it holds a record of this game (the same rules, seed
    /// and first side) that the game goes on from.
    fn not_replaceable(&self, path: &std::path::Path) -> Option<&'static str> {
        let other = "already holds something other than this game";
        let Ok((_, text)) = crate::input::read_text(&path.display().to_string()) else {
            return Some(other);
        };
        let Ok(theirs) = dice_core::Record::<G>::parse(&text) else {
            return Some(other);
        };
        let mine = self.game.to_record();
        if (&theirs.variant, &theirs.seed, theirs.first) != (&mine.variant, &mine.seed, mine.first)
        {
            return Some(other);
        }
        let goes_on = mine.turns.starts_with(&theirs.turns)
            && (theirs.result.is_none() || theirs.result == mine.result);
        (!goes_on).then_some("holds this game with plies this one has taken back")
    }

    /// Changes the bot's level.
    ///
    /// # Errors
    ///
    /// An I/O error reading a table.
    pub fn level(&mut self, text: &str) -> Result<Said, Failure> {
        let table = self.opts.table.as_deref();
        match crate::engine::bot::<G>(text, self.game.variant(), "level", table) {
            Ok(bot) => {
                self.opts.bot = bot;
                Ok(Said::Note(format!(
                    "the bot now plays at level {}.",
                    self.opts.bot.level()
                )))
            }
            Err(e @ Failure::Io(_)) => Err(e),
            Err(refused) => Ok(Said::Warn(format!("refused: {refused}"))),
        }
    }

    /// The numbered list of every ply.
    pub fn list(&self) -> String {
        move_list::<G>(self.game.log())
    }

    /// The numbered list of every ply in lines of at most `width` columns
    /// (as many plies to a line as fit).
    pub fn list_within(&self, width: usize) -> String {
        move_list_by::<G>(self.game.log(), (width / MOVE_LIST_COLUMN).max(1))
    }

    /// The route of the side to move (or the person's).
    pub fn route(&self) -> String {
        let side = self.game.side().unwrap_or(self.opts.human);
        render::route::<G>(self.game.variant(), side, &self.opts.style)
    }

    /// What to say on leaving: where the record is and how to go on.
    pub fn farewell(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(result) = self.result() {
            lines.push(result);
        }
        if let Some(file) = &self.record {
            let path = file.path().display();
            if self.game.is_over() {
                lines.push(format!("the record is in {path}."));
            } else {
                lines.push(format!(
                    "the record is in {path} (ply {}); go on with: race play {} --resume {path}",
                    self.game.ply(),
                    G::KIND
                ));
            }
        }
        lines
    }
}

/// A new game from a seed.
fn new_game<G: RaceGame>(
    variant: G::Variant,
    seed: &Seed,
    first: Option<Side>,
) -> Result<Game<G>, Refused> {
    let mut setup = Setup::new(Dice::Seeded(seed.clone()), variant);
    if let Some(first) = first {
        setup = setup.with_first(first);
    }
    Game::new(setup).map_err(|e| Refused::new("--seed", e.code(), e.to_string()))
}

/// The game at `turns` plies into a finished one: its record cut there and
/// replayed, for stepping through it.
pub fn cut<G: RaceGame>(game: &Game<G>, turns: usize) -> Option<Game<G>> {
    let mut record = game.to_record();
    if turns < record.turns.len() {
        record.turns.truncate(turns);
        record.result = None;
    }
    Game::replay(&record, None).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_words_in_any_case_and_anything_else_is_a_move() {
        assert_eq!(Command::parse(""), Command::Moves);
        assert_eq!(Command::parse("  Q "), Command::Quit);
        assert_eq!(
            Command::parse("save  my game.txt"),
            Command::Save("my game.txt")
        );
        assert_eq!(Command::parse("LEVEL 3"), Command::Level("3"));
        assert_eq!(Command::parse("?"), Command::Help);
        assert_eq!(Command::parse("a2-d2"), Command::Play("a2-d2"));
        assert_eq!(Command::parse("3"), Command::Play("3"));
    }
}
