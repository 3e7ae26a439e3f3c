//! `race play`: a game in the terminal, against the bot, two people at one
//! keyboard, or bot against bot. It reads commands line by line, so that it
//! can be driven from a pipe; on a real terminal a move can also be picked
//! with the arrow keys.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use dice_core::{Dice, Game, PlayError, Seed, Setup, Side, throw_bits};

use crate::engine::Engine;
use crate::error::{Failure, Refused};
use crate::input::{GivenSeed, io_words};
use crate::query::{move_list, result_line};
use crate::render;
use crate::style::{Paint, Style};

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

/// Everything a session is made from.
pub struct Options<E: Engine> {
    /// The rule set.
    pub variant: E::Variant,
    /// Who plays.
    pub mode: Mode,
    /// The person's side against the bot.
    pub human: Side,
    /// The bot.
    pub bot: E::Bot,
    /// The solved table a `level perfect` command plays from, when given.
    pub table: Option<PathBuf>,
    /// Who moves first (thrown for, or the rules', when `None`).
    pub first: Option<Side>,
    /// The seed of the first game, as given.
    pub seed: GivenSeed,
    /// Where to write the record at the end.
    pub record: Option<PathBuf>,
    /// How to draw.
    pub style: Style,
    /// The pause after a bot's move.
    pub pace: Duration,
    /// Whether to draw the board after every bot move too.
    pub live: bool,
}

/// A source of commands: lines from a pipe, or the arrow-key picker.
pub trait Commands {
    /// The next command, `None` at the end of the input. `choices` are the
    /// numbered moves on offer.
    ///
    /// # Errors
    ///
    /// An I/O error from the terminal.
    fn next(
        &mut self,
        prompt: &str,
        choices: &[String],
        out: &mut dyn Write,
    ) -> std::io::Result<Option<String>>;
}

/// Commands read line by line.
pub struct Lines<R: BufRead>(pub R);

impl<R: BufRead> Commands for Lines<R> {
    fn next(
        &mut self,
        prompt: &str,
        _choices: &[String],
        out: &mut dyn Write,
    ) -> std::io::Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut buf = Vec::new();
        // A line is at most 4 KiB of command; the rest of a longer one is skipped.
        let n = <&mut R as std::io::Read>::take(&mut self.0, 4096).read_until(b'\n', &mut buf)?;
        if n == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        if buf.last() != Some(&b'\n') && n == 4096 {
            let mut rest = Vec::new();
            self.0.read_until(b'\n', &mut rest)?;
        }
        Ok(Some(String::from_utf8_lossy(&buf).trim().to_owned()))
    }
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

const HELP: &str = "commands:
  N or a move       play move N of the list, or a move written out (e.g. a2-d2, 12-15)
  moves (m)         list the moves again
  board (b)         draw the board
  list (l)          the numbered list of every ply so far
  route (r)         show the route
  undo (u)          take back your last move
  new (n)           a new game, with the next seed
  level N           change the bot's level (1 to 99, above the top plays the top; top; for ur `perfect` with --table)
  save FILE         write the record now
  resign            give the game up
  help (h, ?)       this
  quit (q)          leave (the record is written if --record was given)
";

struct Session<'a, E: Engine> {
    opts: Options<E>,
    game: Game<E>,
    seen: usize,
    out: &'a mut dyn Write,
    input_done: bool,
}

impl<E: Engine> Session<'_, E> {
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")
    }

    fn start(&mut self) -> std::io::Result<()> {
        let style = self.opts.style;
        let mode = match self.opts.mode {
            Mode::Bot => format!(
                "you play {} against the bot (level {})",
                self.opts.human,
                E::bot_name(&self.opts.bot)
            ),
            Mode::Hotseat => "two players at one keyboard".to_owned(),
            Mode::Watch => format!(
                "the bot (level {}) plays both sides",
                E::bot_name(&self.opts.bot)
            ),
        };
        let head = format!(
            "{} under {}, seed {}: {mode}.",
            E::GAME,
            self.game.variant(),
            self.opts.seed.shown
        );
        self.say(&style.paint(&head, Paint::Bold))?;
        let opening = self.game.opening().to_vec();
        if !opening.is_empty() {
            for (i, pair) in opening.chunks(2).enumerate() {
                let throw = |f| {
                    render::throw::<E>(
                        self.game.variant(),
                        Some(f),
                        E::roll(self.game.variant(), f),
                        &style,
                    )
                };
                let text = match pair {
                    [l, d] => format!(
                        "opening throw {}: light {}, dark {}",
                        i + 1,
                        throw(*l),
                        throw(*d)
                    ),
                    _ => String::new(),
                };
                self.say(&text)?;
            }
        }
        let first = self.game.first();
        self.say(&format!("{first} moves first."))?;
        self.narrate_new()
    }

    fn narrate_new(&mut self) -> std::io::Result<()> {
        let style = self.opts.style;
        let entries: Vec<_> = self.game.log().iter().skip(self.seen).copied().collect();
        for e in &entries {
            let n = self.seen + 1;
            let text = format!("{n:>4}. {}", E::narrate(self.game.variant(), e, &style));
            self.say(&text)?;
            self.seen += 1;
        }
        self.seen = self.game.log().len();
        Ok(())
    }

    fn board(&mut self) -> std::io::Result<()> {
        let text = render::board_text(
            self.game.variant(),
            self.game.position(),
            self.game.log(),
            &self.opts.style,
        );
        write!(self.out, "{text}")
    }

    fn choices(&self) -> Vec<String> {
        let Some(roll) = self.game.roll() else {
            return Vec::new();
        };
        E::move_infos(self.game.variant(), self.game.position(), roll)
            .iter()
            .map(E::move_label)
            .collect()
    }

    fn is_human(&self, side: Side) -> bool {
        !self.input_done
            && match self.opts.mode {
                Mode::Hotseat => true,
                Mode::Bot => side == self.opts.human,
                Mode::Watch => false,
            }
    }

    fn new_game(&mut self) -> Result<(), Refused> {
        self.opts.seed = GivenSeed::made(next_seed(&self.opts.seed.seed));
        self.game = make_game::<E>(&self.opts)?;
        self.seen = 0;
        Ok(())
    }

    fn save(&mut self, path: &str) -> Result<(), Refused> {
        std::fs::write(path, self.game.to_record().to_string())
            .map_err(|e| Refused::new(path, "file", format!("cannot be written: {}", io_words(&e))))
    }

    fn undo(&mut self) -> std::io::Result<()> {
        let before = self.game.ply();
        let mut undone = false;
        while self.game.undo().is_ok() {
            undone = true;
            match (self.opts.mode, self.game.side()) {
                (Mode::Bot, Some(side)) if side != self.opts.human => continue,
                _ => break,
            }
        }
        // A resignation taken back or nothing at all.
        self.seen = self.seen.min(self.game.log().len());
        if undone {
            let text = format!("taken back to ply {} (from {before}).", self.game.ply());
            self.say(&text)
        } else {
            self.say("there is nothing to take back.")
        }
    }

    /// One command from a person. Returns false to quit.
    fn command(&mut self, line: &str) -> Result<bool, Failure> {
        let style = self.opts.style;
        let (word, rest) = line
            .split_once(' ')
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_lowercase().as_str() {
            "" | "moves" | "m" => {}
            "help" | "h" | "?" => write!(self.out, "{HELP}")?,
            "quit" | "q" | "exit" => return Ok(false),
            "board" | "b" => self.board()?,
            "list" | "l" | "log" => {
                let text = move_list::<E>(self.game.log());
                write!(self.out, "{text}")?;
            }
            "route" | "r" => {
                let side = self.game.side().unwrap_or(self.opts.human);
                let text = E::draw_route(self.game.variant(), side, &style);
                write!(self.out, "{text}")?;
            }
            "undo" | "u" => self.undo()?,
            "new" | "n" => {
                self.new_game()?;
                self.start()?;
            }
            "resign" => {
                if self.game.resign(None).is_ok() {
                    self.say("resigned.")?;
                }
            }
            "save" => {
                if rest.is_empty() {
                    self.say("save what file? (save FILE)")?;
                } else {
                    match self.save(rest) {
                        Ok(()) => self.say(&format!("the record is in {rest}."))?,
                        Err(r) => self.say(&style.paint(&format!("refused: {r}"), Paint::Warn))?,
                    }
                }
            }
            "level" => {
                let table = self.opts.table.as_deref();
                match crate::engine::bot::<E>(rest, self.game.variant(), "level", table) {
                    Ok(bot) => {
                        self.opts.bot = bot;
                        self.say(&format!(
                            "the bot now plays at level {}.",
                            E::bot_name(&self.opts.bot)
                        ))?;
                    }
                    Err(e @ Failure::Io(_)) => return Err(e),
                    Err(refused) => {
                        self.say(&style.paint(&format!("refused: {refused}"), Paint::Warn))?;
                    }
                }
            }
            _ => self.play_text(line)?,
        }
        Ok(true)
    }

    fn play_text(&mut self, line: &str) -> std::io::Result<()> {
        let style = self.opts.style;
        let played = match line.parse::<usize>() {
            Ok(n) => match self.game.legal().get(n.wrapping_sub(1)).copied() {
                Some(mv) => self.game.play(mv).map(|_| ()),
                None => {
                    let text = format!(
                        "there is no move {n}: choose 1 to {}, or type help.",
                        self.game.legal().len()
                    );
                    return self.say(&style.paint(&text, Paint::Warn));
                }
            },
            Err(_) => self.game.play_text(line).map(|_| ()),
        };
        match played {
            Ok(()) => self.narrate_new(),
            Err(e) => {
                let text = match &e {
                    PlayError::BadMove { .. } => {
                        format!("{line:?} is neither a move nor a command (type help).")
                    }
                    other => format!("{} ({}).", other.message(), other.code()),
                };
                self.say(&style.paint(&text, Paint::Warn))
            }
        }
    }

    fn bot_move(&mut self) -> Result<bool, Failure> {
        let Some(mv) = E::choose(&self.opts.bot, &self.game) else {
            return Ok(false);
        };
        if self.game.play(mv).is_err() {
            return Ok(false);
        }
        self.narrate_new()?;
        if self.opts.live {
            self.board()?;
        }
        if !self.opts.pace.is_zero() {
            std::thread::sleep(self.opts.pace);
        }
        Ok(true)
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.board()?;
        if let Some(line) = result_line(&self.game) {
            let text = self.opts.style.paint(&line, Paint::Bold);
            self.say(&text)?;
        }
        let list = move_list::<E>(self.game.log());
        write!(self.out, "{list}")
    }
}

/// The game for these options and their seed.
///
/// # Errors
///
/// A refusal when the game cannot be set up.
pub fn make_game<E: Engine>(opts: &Options<E>) -> Result<Game<E>, Refused> {
    let mut setup = Setup::new(Dice::Seeded(opts.seed.seed.clone()), opts.variant.clone());
    if let Some(first) = opts.first {
        setup = setup.with_first(first);
    }
    Game::new(setup).map_err(|e| Refused::new("--seed", e.code(), e.to_string()))
}

/// Plays until the person quits, or, once the input has ended, until the
/// game does; then writes the record if asked.
///
/// # Errors
///
/// A refusal when the record cannot be written; I/O errors on output.
pub fn run<E: Engine>(
    opts: Options<E>,
    input: &mut dyn Commands,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let game = make_game::<E>(&opts)?;
    let record = opts.record.clone();
    let mut s = Session {
        opts,
        game,
        seen: 0,
        out,
        input_done: false,
    };
    s.start()?;
    let mut shown_end = false;
    loop {
        let Some(side) = s.game.side() else {
            if !shown_end {
                s.finish()?;
            }
            if s.opts.mode == Mode::Watch || s.input_done {
                break;
            }
            let line = input.next(
                "the game is over: new, undo, save FILE or quit> ",
                &[],
                s.out,
            )?;
            match line {
                None => break,
                Some(line) => {
                    if !s.command(&line)? {
                        break;
                    }
                    shown_end = s.game.is_over();
                    continue;
                }
            }
        };
        if !s.is_human(side) {
            if !s.bot_move()? {
                break;
            }
            continue;
        }
        s.board()?;
        let style = s.opts.style;
        let throw = render::throw::<E>(
            s.game.variant(),
            s.game.faces(),
            s.game.roll().unwrap_or(0),
            &style,
        );
        let choices = s.choices();
        let mut menu = format!("{side} to move, {throw}\n");
        for (i, c) in choices.iter().enumerate() {
            menu.push_str(&format!("  {:>2}. {c}\n", i + 1));
        }
        write!(s.out, "{menu}")?;
        let prompt = format!("{side}> ");
        match input.next(&prompt, &choices, s.out)? {
            None => {
                s.input_done = true;
                s.say("end of input: the bot plays on for both sides.")?;
            }
            Some(line) => {
                if !s.command(&line)? {
                    s.say("quit.")?;
                    break;
                }
            }
        }
    }
    if let Some(path) = record {
        let path = path.display().to_string();
        s.save(&path)?;
        s.say(&format!("the record is in {path}."))?;
    }
    Ok(())
}

/// Commands from a real terminal: the arrow keys walk the numbered moves and
/// Enter plays the one shown; typing a command or move text works as in
/// line mode.
pub struct Keys;

/// Leaves raw mode however the picker is left.
struct RawGuard;

impl Drop for RawGuard {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

impl Commands for Keys {
    fn next(
        &mut self,
        prompt: &str,
        choices: &[String],
        out: &mut dyn Write,
    ) -> std::io::Result<Option<String>> {
        use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers, read};
        if choices.is_empty() {
            return Lines(std::io::stdin().lock()).next(prompt, choices, out);
        }
        crossterm::terminal::enable_raw_mode()?;
        let _guard = RawGuard;
        let mut pick = 0usize;
        let mut typed = String::new();
        loop {
            let shown = if typed.is_empty() {
                format!(
                    "{}. {}   (up/down and enter, or type)",
                    pick + 1,
                    choices.get(pick).map_or("", String::as_str)
                )
            } else {
                typed.clone()
            };
            write!(out, "\r\x1b[K{prompt}{shown}")?;
            out.flush()?;
            let Event::Key(key) = read()? else { continue };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                KeyCode::Up | KeyCode::Left => pick = (pick + choices.len() - 1) % choices.len(),
                KeyCode::Down | KeyCode::Right | KeyCode::Tab => pick = (pick + 1) % choices.len(),
                KeyCode::Enter => {
                    write!(out, "\r\x1b[K{prompt}")?;
                    let line = if typed.is_empty() {
                        (pick + 1).to_string()
                    } else {
                        typed
                    };
                    write!(out, "{line}\r\n")?;
                    return Ok(Some(line));
                }
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Esc => typed.clear(),
                KeyCode::Char('c') if ctrl => {
                    write!(out, "\r\n")?;
                    return Ok(Some("quit".to_owned()));
                }
                KeyCode::Char('d') if ctrl => {
                    write!(out, "\r\n")?;
                    return Ok(None);
                }
                KeyCode::Char(c) if !ctrl => typed.push(c),
                _ => {}
            }
        }
    }
}
