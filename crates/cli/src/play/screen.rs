//! The fixed screen: on a real terminal the game is one screen redrawn in
//! place on the alternate screen (left as it was on leaving, also on
//! Ctrl-C, a signal or a panic): the board with both hands and homes, the
//! throw, whose turn it is, the legal moves, and the last plies in a panel
//! of their own.
//!
//! The bot thinks on a thread of its own while this one answers keys and
//! signals. Keys typed before a new roll is shown (during the bot's turn,
//! or after a move that throws again) are dropped and the player told once,
//! so that no move is made blind.

use std::cell::Cell;
use std::io::{BufWriter, Stdout};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use dice_core::Game;
use race_games::{Bot, RaceGame};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style as Look};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};
use ratatui::{Frame, Terminal};

use crate::error::Failure;
use crate::play::{COMMANDS, Command, Mode, Mover, Said, Session, cut};
use crate::render::{self, look};
use crate::style::{Paint, Style};

/// The fastest and slowest pace `+` and `-` reach.
const PACE_MIN: Duration = Duration::from_millis(25);
const PACE_MAX: Duration = Duration::from_millis(6400);

/// The columns a panel's frame and padding take.
const FRAME: u16 = 4;

/// The columns the turn's panel needs beside the board.
const TURN_W: u16 = 40;

/// The longest the screen waits for a key before looking at the bot again.
const TICK: Duration = Duration::from_millis(40);

/// How long the screen has to leave by itself after a signal.
const SIGNAL_GRACE: Duration = Duration::from_secs(2);

/// The keys, for `?`: every key the screen answers.
const KEYS: &str = "\
playing
  up/down, tab      pick a move from the list (shift-tab: back)
  enter             play the move picked, or what was typed
  type              a move (a2-d2, 12-15), its number, or a command:
COMMANDS
  backspace         delete the last letter typed
  ctrl-w            delete the last word typed
  ctrl-u, esc       clear what was typed
  q                 when the game is over: leave
watching, and stepping through a finished game
  space             pause and go on
  right or n        one ply (while paused)
  + and -           faster and slower (= and _ too)
  q                 leave (asks first while the game is on)
  q, esc            stepping through: back to the end of the game
anywhere
  ?                 these keys
  page up/down      earlier and later plies in the plies panel (end: the last)
  ctrl-d            leave (asks first while the game is on, saying where its record is)
  ctrl-z            suspend, as a terminal program does (fg goes on)
  ctrl-c            leave at once (with --record the record is already written)
  y, n              answer a question (a new game? leave?)
in a box (these keys, the plies, the route)
  up/down, page up/down, home/end   scroll it
  any other key     close it

Keys typed before a new roll is shown are ignored.";

/// Borders in plain ASCII, for `--ascii`.
const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// A box over the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pop {
    /// The keys.
    Keys,
    /// The numbered list of every ply.
    Plies,
    /// The route.
    Route,
}

/// A box shown over the screen, scrolled when it is longer than the
/// screen is high.
struct Overlay {
    pop: Pop,
    /// The first line shown (`usize::MAX`: the last page).
    top: usize,
    /// What the last drawing found: the furthest first line, and how many
    /// lines a page shows (for the scrolling keys).
    fit: Cell<(usize, usize)>,
}

impl Overlay {
    fn new(pop: Pop) -> Overlay {
        Overlay {
            pop,
            // The plies open on the newest, everything else at its start.
            top: if pop == Pop::Plies { usize::MAX } else { 0 },
            fit: Cell::new((0, 1)),
        }
    }
}

/// A question the screen waits a y or n for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// A new game, while this one is on.
    New,
    /// Leaving, while the game is on.
    Leave,
}

/// What wakes the screen besides a key.
enum Wake<M> {
    /// The bot's move for the game of this generation (a panic's payload
    /// if it failed).
    Bot {
        generation: u64,
        mv: std::thread::Result<Option<M>>,
    },
    /// A signal: the process should end.
    Signal(i32),
}

/// How the screen was left.
enum Leave {
    /// The person quit.
    Quit,
    /// A signal, or Ctrl-C.
    Signal(i32),
}

/// Where frames go: buffered, so that each frame leaves in one write.
type Out = BufWriter<Stdout>;

/// The terminal in raw mode on the alternate screen, restored when dropped.
struct Screen {
    terminal: Terminal<CrosstermBackend<Out>>,
}

impl Screen {
    fn enter() -> std::io::Result<Screen> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        crossterm::terminal::enable_raw_mode()?;
        crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::EnterAlternateScreen,
            crossterm::cursor::Hide
        )?;
        let out = BufWriter::with_capacity(1 << 16, std::io::stdout());
        let terminal = Terminal::new(CrosstermBackend::new(out))?;
        Ok(Screen { terminal })
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the screen away and stops the program (its process group), as
/// Ctrl-Z does to a program on a terminal (in raw mode the terminal hands
/// Ctrl-Z over as a key); once the shell lets it go on (`fg`), takes the
/// screen back, to be drawn whole again.
fn suspend(terminal: &mut Terminal<CrosstermBackend<Out>>) -> std::io::Result<()> {
    restore();
    // A group no shell can hand back (an orphaned one) is not stopped: the
    // screen then comes straight back.
    let _ = rustix::process::kill_current_process_group(rustix::process::Signal::TSTP);
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(
        std::io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
        crossterm::cursor::Hide
    )?;
    // Both buffers blank (the last frame forgotten): the next frame is
    // drawn whole. (`Terminal::clear` would ask the terminal where its
    // cursor is, which not every terminal answers.)
    terminal.swap_buffers();
    Ok(())
}

/// Leaves the alternate screen and raw mode (twice does no harm).
fn restore() {
    let _ = crossterm::execute!(
        std::io::stdout(),
        crossterm::terminal::LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = crossterm::terminal::disable_raw_mode();
}

/// Stepping through a finished game: the whole game, kept while the
/// session shows it cut at `at` plies.
struct Review<G: RaceGame> {
    full: Game<G>,
    at: usize,
}

/// The screen's state.
struct Ui<G: RaceGame> {
    s: Session<G>,
    /// Colour, for the screen's own styles (the session draws plain text).
    colour: Style,
    wake: Sender<Wake<G::Move>>,
    /// Bumped whenever the game changes under the bot: a move thought of
    /// for an older generation is dropped.
    generation: u64,
    thinking: bool,
    /// When the last ply was played: the next automatic one waits the pace.
    last_ply: Instant,
    pace: Duration,
    paused: bool,
    /// Plies to play while paused.
    steps: u32,
    pick: usize,
    typed: String,
    /// The position a person was last asked about: (ply, throws, over).
    shown: Option<(u32, u64, bool)>,
    /// A new roll has just been drawn: drop what was typed before it.
    fresh: bool,
    /// Keys dropped since the last prompt.
    dropped: usize,
    notice: Option<String>,
    said: Option<Said>,
    overlay: Option<Overlay>,
    asking: Option<Ask>,
    /// How many plies back from the newest the plies panel ends.
    back: usize,
    /// How many lines the plies panel showed at the last drawing.
    panel_rows: Cell<usize>,
    /// Ctrl-Z was typed: the screen is to be put away and the program stopped.
    suspend: bool,
    review: Option<Review<G>>,
    leave: Option<Leave>,
    dirty: bool,
}

/// Plays on the fixed screen until the person leaves or a signal comes.
///
/// # Errors
///
/// I/O errors on the terminal; a refusal when a new game cannot be set up;
/// [`Failure::Interrupted`] after a signal or Ctrl-C (the record, written
/// after every ply, is whole).
pub fn run<G>(mut session: Session<G>) -> Result<(), Failure>
where
    G: RaceGame,
    Bot<G>: Send,
    G::Move: Send,
    Game<G>: Send,
{
    let (wake, woken) = std::sync::mpsc::channel();
    let signals = wake.clone();
    super::on_signals(move |sig| {
        let _ = signals.send(Wake::Signal(sig));
        // The screen leaves on its own at once. When the terminal is gone,
        // reading keys can keep it from ever getting here (crossterm spins
        // on a terminal that has hung up), so after a grace this thread
        // ends the process: the record, written after every ply, is whole
        // once no write is in progress.
        std::thread::sleep(SIGNAL_GRACE);
        let _held = crate::output::hold_writes();
        restore();
        std::process::exit(128 + sig);
    })?;
    let colour = session.opts.style;
    session.opts.style.color = false;
    let pace = session.opts.pace;
    let said = session.resumed_note().map(Said::Note);
    let mut ui = Ui {
        s: session,
        colour,
        wake,
        generation: 0,
        thinking: false,
        last_ply: Instant::now(),
        pace,
        paused: false,
        steps: 0,
        pick: 0,
        typed: String::new(),
        shown: None,
        fresh: false,
        dropped: 0,
        notice: None,
        said,
        overlay: None,
        asking: None,
        back: 0,
        panel_rows: Cell::new(1),
        suspend: false,
        review: None,
        leave: None,
        dirty: true,
    };
    let left = {
        let mut screen = Screen::enter()?;
        ui.run(&mut screen.terminal, &woken)
    };
    let left = left?;
    if let Some(review) = ui.review.take() {
        ui.s.game = review.full;
    }
    for line in ui.s.farewell() {
        println!("{line}");
    }
    match left {
        Leave::Quit => Ok(()),
        Leave::Signal(sig) => Err(Failure::Interrupted(sig)),
    }
}

fn is_ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

impl<G> Ui<G>
where
    G: RaceGame,
    Bot<G>: Send,
    G::Move: Send,
    Game<G>: Send,
{
    fn run(
        &mut self,
        terminal: &mut Terminal<CrosstermBackend<Out>>,
        woken: &Receiver<Wake<G::Move>>,
    ) -> Result<Leave, Failure> {
        loop {
            self.advance()?;
            // What waits unread when a new roll is about to be drawn was
            // typed before it was shown: dropped before the drawing, so
            // that a key typed once the roll is on the screen is kept.
            if self.fresh {
                self.fresh = false;
                self.drop_typed_ahead()?;
            }
            if self.dirty {
                self.dirty = false;
                terminal.draw(|f| self.draw(f))?;
            }
            if let Some(leave) = self.leave.take() {
                return Ok(leave);
            }
            if std::mem::take(&mut self.suspend) {
                suspend(terminal)?;
                self.dirty = true;
                continue;
            }
            let wait = if self.thinking {
                Duration::from_millis(5)
            } else {
                TICK
            };
            if event::poll(wait)? {
                match event::read()? {
                    Event::Key(key) if key.kind == KeyEventKind::Press => self.key(key)?,
                    Event::Resize(..) => self.dirty = true,
                    _ => {}
                }
            }
            while let Ok(w) = woken.try_recv() {
                self.woken(w)?;
            }
        }
    }

    /// Plays what plays by itself (the bot, a step of a review) when its
    /// time has come, and notices a new roll for a person.
    fn advance(&mut self) -> Result<(), Failure> {
        let due = self.last_ply + self.pace <= Instant::now();
        let may = !self.paused || self.steps > 0;
        if let Some(review) = &mut self.review {
            let end = review.full.log().len();
            if review.at < end && due && may {
                review.at += 1;
                if let Some(game) = cut(&review.full, review.at) {
                    self.s.game = game;
                }
                self.played();
            }
            return Ok(());
        }
        match self.s.to_move() {
            Some((_, Mover::Bot)) => {
                let watching = self.s.opts.mode == Mode::Watch;
                if !self.thinking && due && (may || !watching) {
                    self.think()?;
                }
            }
            _ => {
                let at = (
                    self.s.game.ply(),
                    self.s.game.throws(),
                    self.s.game.is_over(),
                );
                if self.shown != Some(at) {
                    self.shown = Some(at);
                    self.fresh = true;
                    self.pick = 0;
                    self.typed.clear();
                    self.dirty = true;
                }
            }
        }
        Ok(())
    }

    /// A ply was played: the pace runs from now, and the plies panel
    /// shows the newest.
    fn played(&mut self) {
        self.last_ply = Instant::now();
        self.back = 0;
        self.steps = self.steps.saturating_sub(1);
        self.notice = None;
        self.dirty = true;
    }

    /// Asks the bot for its move, on a thread of its own.
    fn think(&mut self) -> Result<(), Failure> {
        self.generation += 1;
        let generation = self.generation;
        let game = self.s.game.clone();
        let bot = self.s.opts.bot.clone();
        let wake = self.wake.clone();
        std::thread::Builder::new()
            .name("bot".to_owned())
            .spawn(move || {
                let mv = std::panic::catch_unwind(AssertUnwindSafe(|| bot.choose(&game)));
                let _ = wake.send(Wake::Bot { generation, mv });
            })?;
        self.thinking = true;
        self.dirty = true;
        Ok(())
    }

    fn woken(&mut self, wake: Wake<G::Move>) -> Result<(), Failure> {
        match wake {
            Wake::Signal(sig) => self.leave = Some(Leave::Signal(sig)),
            Wake::Bot { generation, mv } if generation == self.generation => {
                self.thinking = false;
                match mv {
                    Ok(Some(mv)) => {
                        self.said = self.s.bot_plays(mv);
                        self.played();
                    }
                    Ok(None) => {
                        self.said = Some(Said::Warn("the bot found no move.".to_owned()));
                        self.dirty = true;
                    }
                    Err(payload) => std::panic::resume_unwind(payload),
                }
            }
            Wake::Bot { .. } => {}
        }
        Ok(())
    }

    /// Drops the keys typed before the roll now on the screen was drawn
    /// (Ctrl-C still leaves), and says so.
    fn drop_typed_ahead(&mut self) -> Result<(), Failure> {
        while event::poll(Duration::ZERO)? {
            match event::read()? {
                Event::Key(key) if is_ctrl(&key, 'c') => {
                    self.leave = Some(Leave::Signal(signal_hook::consts::SIGINT));
                }
                Event::Key(key) if key.kind == KeyEventKind::Press => self.dropped += 1,
                Event::Resize(..) => self.dirty = true,
                _ => {}
            }
        }
        if self.dropped > 0 {
            let keys = if self.dropped == 1 { "a key" } else { "keys" };
            self.notice = Some(format!("{keys} typed before this roll was shown: ignored"));
            self.dropped = 0;
            self.dirty = true;
        }
        Ok(())
    }

    fn key(&mut self, key: KeyEvent) -> Result<(), Failure> {
        self.dirty = true;
        if is_ctrl(&key, 'c') {
            self.leave = Some(Leave::Signal(signal_hook::consts::SIGINT));
            return Ok(());
        }
        if is_ctrl(&key, 'z') {
            self.suspend = true;
            return Ok(());
        }
        if let Some(ask) = self.asking.take() {
            let yes = matches!(key.code, KeyCode::Char('y' | 'Y'))
                || (ask == Ask::Leave && is_ctrl(&key, 'd'));
            match (ask, yes) {
                (Ask::New, true) => self.new_game()?,
                (Ask::Leave, true) => self.leave = Some(Leave::Quit),
                (_, false) => self.said = Some(Said::Note("the game goes on.".to_owned())),
            }
            return Ok(());
        }
        if is_ctrl(&key, 'd') {
            self.overlay = None;
            self.quit();
            return Ok(());
        }
        if let Some(overlay) = &mut self.overlay {
            let (last, page) = overlay.fit.get();
            let top = overlay.top.min(last);
            overlay.top = match key.code {
                KeyCode::Up => top.saturating_sub(1),
                KeyCode::Down => (top + 1).min(last),
                KeyCode::PageUp => top.saturating_sub(page),
                KeyCode::PageDown => (top + page).min(last),
                KeyCode::Home => 0,
                KeyCode::End => last,
                _ => {
                    self.overlay = None;
                    return Ok(());
                }
            };
            return Ok(());
        }
        if self.panel_key(&key) {
            return Ok(());
        }
        if self.review.is_some() {
            if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                if let Some(review) = self.review.take() {
                    self.s.game = review.full;
                }
                self.paused = false;
                return Ok(());
            }
            self.watch_key(&key);
            return Ok(());
        }
        match self.s.to_move() {
            Some((_, Mover::Bot)) if self.s.opts.mode == Mode::Watch => {
                if key.code == KeyCode::Char('q') {
                    self.quit();
                } else {
                    self.watch_key(&key);
                }
            }
            Some((_, Mover::Bot)) => self.dropped += 1,
            _ => self.input_key(&key)?,
        }
        Ok(())
    }

    /// Page up and down (and end) scroll the plies panel; says whether the
    /// key was one of those.
    fn panel_key(&mut self, key: &KeyEvent) -> bool {
        let page = self.panel_rows.get().saturating_sub(1).max(1);
        let oldest = self.s.game.log().len();
        match key.code {
            KeyCode::PageUp => self.back = (self.back + page).min(oldest),
            KeyCode::PageDown => self.back = self.back.saturating_sub(page),
            KeyCode::End if self.typed.is_empty() => self.back = 0,
            _ => return false,
        }
        true
    }

    /// Leaves, after asking while the game is on (saying where its record
    /// is, or that there is none).
    fn quit(&mut self) {
        if self.review.is_some() || !self.s.in_progress() {
            self.leave = Some(Leave::Quit);
            return;
        }
        let record = match &self.s.record {
            Some(file) => format!(
                "its record is in {} (ply {}): race play {} --resume {} goes on with it",
                file.path().display(),
                self.s.game.ply(),
                G::KIND,
                file.path().display()
            ),
            None => "there is no record of it (save FILE writes one)".to_owned(),
        };
        self.said = Some(Said::Note(format!("the game is not over; {record}.")));
        self.asking = Some(Ask::Leave);
    }

    /// Space, right or n, + and -, ?.
    fn watch_key(&mut self, key: &KeyEvent) {
        match key.code {
            KeyCode::Char(' ') => {
                self.paused = !self.paused;
                self.steps = 0;
                if self.paused {
                    // The board stops as it is: a move being thought of
                    // is dropped, and thought of again on going on.
                    self.generation += 1;
                    self.thinking = false;
                }
            }
            KeyCode::Right | KeyCode::Char('n') => {
                if self.paused {
                    self.steps = self.steps.saturating_add(1);
                }
                self.last_ply = Instant::now() - self.pace;
            }
            KeyCode::Char('+' | '=') => {
                self.pace = (self.pace / 2).max(PACE_MIN);
            }
            KeyCode::Char('-' | '_') => {
                self.pace = (self.pace * 2).clamp(PACE_MIN, PACE_MAX);
            }
            KeyCode::Char('?') => self.overlay = Some(Overlay::new(Pop::Keys)),
            _ => {}
        }
    }

    /// A key at a person's prompt, or at the end of the game.
    fn input_key(&mut self, key: &KeyEvent) -> Result<(), Failure> {
        self.notice = None;
        // A chord is never typed as its letter.
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            match key.code {
                KeyCode::Char('u') => self.typed.clear(),
                KeyCode::Char('w') => {
                    let kept = self.typed.trim_end().rfind(' ').map_or(0, |at| at + 1);
                    self.typed.truncate(kept);
                }
                _ => {}
            }
            return Ok(());
        }
        let count = self.s.game.legal().len();
        match key.code {
            KeyCode::Up | KeyCode::BackTab if count > 0 => {
                self.pick = (self.pick + count - 1) % count
            }
            KeyCode::Down | KeyCode::Tab if count > 0 => self.pick = (self.pick + 1) % count,
            KeyCode::Enter => {
                let line = if !self.typed.is_empty() {
                    std::mem::take(&mut self.typed)
                } else if count > 0 {
                    (self.pick + 1).to_string()
                } else {
                    return Ok(());
                };
                self.command(&line)?;
            }
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Esc => self.typed.clear(),
            KeyCode::Char('?') if self.typed.is_empty() => {
                self.overlay = Some(Overlay::new(Pop::Keys));
            }
            KeyCode::Char('q') if self.typed.is_empty() && self.s.game.is_over() => {
                self.leave = Some(Leave::Quit);
            }
            KeyCode::Char(c) if self.typed.len() < 200 => self.typed.push(c),
            _ => {}
        }
        Ok(())
    }

    fn command(&mut self, line: &str) -> Result<(), Failure> {
        self.said = None;
        match Command::parse(line) {
            Command::Play(text) => {
                self.said = self.s.play(text);
                if self.said.is_none() {
                    self.played();
                }
            }
            Command::Moves | Command::Board => {}
            Command::List => self.overlay = Some(Overlay::new(Pop::Plies)),
            Command::Route => self.overlay = Some(Overlay::new(Pop::Route)),
            Command::Undo => {
                self.said = Some(self.s.undo());
                self.generation += 1;
                self.thinking = false;
            }
            Command::New => {
                if self.s.in_progress() {
                    self.asking = Some(Ask::New);
                } else {
                    self.new_game()?;
                }
            }
            Command::Level(text) => self.said = Some(self.s.level(text)?),
            Command::Save(path) => self.said = Some(self.s.save(path)),
            Command::Resign => self.said = Some(self.s.resign()),
            Command::Replay => {
                if self.s.game.is_over() {
                    let full = self.s.game.clone();
                    if let Some(start) = cut(&full, 0) {
                        self.s.game = start;
                        self.review = Some(Review { full, at: 0 });
                        self.paused = false;
                        self.last_ply = Instant::now();
                    }
                } else {
                    self.said = Some(Said::Warn(
                        "replay is for a finished game; list shows the plies so far.".to_owned(),
                    ));
                }
            }
            Command::Help => self.overlay = Some(Overlay::new(Pop::Keys)),
            Command::Quit => self.quit(),
        }
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        self.said = self.s.new_game()?;
        self.generation += 1;
        self.thinking = false;
        self.last_ply = Instant::now();
        if self.said.is_none()
            && let Some(file) = &self.s.record
        {
            self.said = Some(Said::Note(format!(
                "a new game, recorded in {}.",
                file.path().display()
            )));
        }
        Ok(())
    }

    // ---- drawing ----

    fn paint(&self, paint: Paint) -> Look {
        look(paint, &self.colour)
    }

    /// The Unicode text, or the ASCII one under `--ascii`.
    fn pick<'a>(&self, unicode: &'a str, ascii: &'a str) -> &'a str {
        self.colour.pick(unicode, ascii)
    }

    /// What stands between the parts of the first line and the keys line.
    fn sep(&self) -> &'static str {
        self.pick(" · ", " | ")
    }

    /// A panel: a frame with a title and a column of room inside each side.
    fn panel(&self, title: &str) -> Block<'static> {
        let block = Block::bordered()
            .title(title.to_owned())
            .padding(Padding::horizontal(1));
        if self.colour.unicode {
            block
        } else {
            block.border_set(ASCII_BORDER)
        }
    }

    fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let message_lines = self.message_lines(usize::from(area.width));
        let [head, body, message, input, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(len(message_lines.len())),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let game = &self.s.game;
        let board = |width: u16| {
            render::board_lines(
                game.variant(),
                game.position(),
                game.log(),
                &self.colour,
                width.saturating_sub(FRAME),
            )
        };
        // Beside the board, the turn needs TURN_W columns; else it goes below.
        let beside = board(area.width.saturating_sub(TURN_W));
        let stacked = beside.is_none();
        let Some(board) = beside.or_else(|| board(area.width)) else {
            return self.too_small(f, area);
        };
        let board_w = len(board.iter().map(Line::width).max().unwrap_or(0)) + FRAME;
        let board_h = len(board.len()) + 2;
        let turn_w = if stacked {
            area.width
        } else {
            area.width.saturating_sub(board_w)
        };
        let turn_lines = self.turn_lines(usize::from(turn_w.saturating_sub(FRAME)));
        let turn_h = len(turn_lines.len()).max(4) + 2;
        let needed = if stacked {
            board_h + turn_h + 3
        } else {
            board_h.max(turn_h) + 3
        };
        if body.height < needed {
            return self.too_small(f, area);
        }
        let (board_area, turn_area, plies_area) = if stacked {
            let [b, t, p] = Layout::vertical([
                Constraint::Length(board_h),
                Constraint::Length(turn_h),
                Constraint::Min(3),
            ])
            .areas(body);
            (b, t, p)
        } else {
            let [top, p] =
                Layout::vertical([Constraint::Length(board_h.max(turn_h)), Constraint::Min(3)])
                    .areas(body);
            let [b, t] =
                Layout::horizontal([Constraint::Length(board_w), Constraint::Min(0)]).areas(top);
            (b, t, p)
        };
        f.render_widget(Paragraph::new(self.head_line(area.width)), head);
        f.render_widget(
            Paragraph::new(board).block(self.panel(" board ")),
            board_area,
        );
        f.render_widget(
            Paragraph::new(turn_lines).block(self.panel(&self.turn_title())),
            turn_area,
        );
        self.draw_plies(f, plies_area);
        f.render_widget(Paragraph::new(message_lines), message);
        self.draw_input(f, input);
        let [long, short] = self.keys_line();
        let fits = Span::raw(long.as_str()).width() <= usize::from(area.width);
        f.render_widget(
            Paragraph::new(Line::styled(
                if fits { long } else { short },
                self.paint(Paint::Dim),
            )),
            keys,
        );
        if let Some(overlay) = &self.overlay {
            self.draw_overlay(f, area, overlay);
        }
    }

    /// A box of text over the middle of the screen, as many lines as fit
    /// from the overlay's first, its lines wrapped at spaces (not cut) on
    /// a screen narrower than they are.
    fn draw_overlay(&self, f: &mut Frame, area: Rect, overlay: &Overlay) {
        // The frame and a blank column take two columns on each side.
        let room = usize::from(area.width.saturating_sub(4)).max(1);
        let (title, text) = match overlay.pop {
            Pop::Keys => ("keys", keys_text()),
            Pop::Plies => ("plies", self.s.list_within(room)),
            Pop::Route => ("route", self.s.route()),
        };
        let lines: Vec<String> = text
            .lines()
            .flat_map(|l| wrap(l, room, hanging_indent(l)))
            .collect();
        let rows = usize::from(area.height.saturating_sub(2)).max(1);
        let last = lines.len().saturating_sub(rows);
        let top = overlay.top.min(last);
        overlay.fit.set((last, rows));
        let bottom = if last == 0 {
            " any key closes ".to_owned()
        } else {
            format!(
                " {}-{} of {}: {} scroll, any other key closes ",
                top + 1,
                (top + rows).min(lines.len()),
                lines.len(),
                self.pick("↑↓ pgup pgdn", "up down pgup pgdn"),
            )
        };
        let shown: Vec<Line> = lines
            .iter()
            .skip(top)
            .take(rows)
            .map(|l| Line::raw(l.clone()))
            .collect();
        // As wide as the widest line, wherever it is scrolled to.
        let widest = lines.iter().map(|l| Span::raw(l.as_str()).width()).max();
        let width = (widest.unwrap_or(0) + 4).max(Span::raw(bottom.as_str()).width() + 2);
        let rect = area.centered(
            Constraint::Length(len(width).min(area.width)),
            Constraint::Length((len(shown.len()) + 2).min(area.height)),
        );
        let mut block = Block::bordered()
            .title(format!(" {title} "))
            .title_bottom(bottom);
        if !self.colour.unicode {
            block = block.border_set(ASCII_BORDER);
        }
        f.render_widget(Clear, rect);
        f.render_widget(Paragraph::new(shown).block(block), rect);
    }

    /// What a terminal too small for the board gets instead: what it
    /// needs, in a few words.
    fn too_small(&self, f: &mut Frame, area: Rect) {
        let (width, lines) = render::narrow_size::<G>(self.s.game.variant());
        let (width, lines) = (len(width) + FRAME, len(lines) + 2);
        let text = format!(
            "too small for the board: it needs {}x{} (this is {}x{}); ctrl-c leaves",
            width,
            lines + 6 + 3 + 4,
            area.width,
            area.height
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
    }

    /// The game, who plays, the ply and the record; shorter when narrow.
    fn head_line(&self, width: u16) -> Line<'static> {
        let sep = self.sep();
        let mut text = format!("{}{sep}ply {}", self.s.title(), self.s.game.ply());
        if let Some(file) = &self.s.record {
            text.push_str(&format!("{sep}record {}", file.path().display()));
        }
        if self.review.is_some() {
            text.push_str(&format!("{sep}replaying the record"));
        }
        if Span::raw(text.as_str()).width() > usize::from(width) {
            text = format!(
                "{} {}{sep}ply {}",
                G::KIND,
                self.s.game.variant(),
                self.s.game.ply()
            );
        }
        Line::styled(text, self.paint(Paint::Bold))
    }

    fn turn_title(&self) -> String {
        match self.s.to_move() {
            None => " the game is over ".to_owned(),
            Some((side, Mover::Bot)) if self.review.is_none() => {
                format!(" {side} to move (the bot) ")
            }
            Some((side, _)) => format!(" {side} to move "),
        }
    }

    /// The throw, and what comes of it: the moves to pick from, the bot at
    /// work, or the result; in lines of at most `width` columns.
    fn turn_lines(&self, width: usize) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        let add = |lines: &mut Vec<Line<'static>>, text: &str, indent: usize, look: Look| {
            lines.extend(
                wrap(text, width, indent)
                    .into_iter()
                    .map(|part| Line::styled(part, look)),
            );
        };
        let Some((_, mover)) = self.s.to_move() else {
            let result = self.s.result().unwrap_or_default();
            add(&mut lines, &result, 0, self.paint(Paint::Bold));
            if self.review.is_some() {
                add(
                    &mut lines,
                    "the end of the record: q goes back",
                    0,
                    Look::default(),
                );
            } else if self.s.resumed == Some(self.s.game.ply()) {
                add(
                    &mut lines,
                    "this record is of a finished game, kept as it is: type replay to step \
                     through it; undo goes on from an earlier ply in a new file",
                    0,
                    Look::default(),
                );
            }
            return lines;
        };
        if let Some(throw) = self.s.throw() {
            lines.push(Line::from(vec![
                Span::raw(throw),
                Span::styled(
                    format!("   {}", render::dice_key::<G>(&self.s.opts.style)),
                    self.paint(Paint::Dim),
                ),
            ]));
        }
        if mover == Mover::Person && self.review.is_none() {
            for (i, choice) in self.s.choices().iter().enumerate() {
                let picked = i == self.pick;
                let mark = if picked { self.pick("›", ">") } else { " " };
                let text = format!("{mark} {:>2}. {choice}", i + 1);
                let look = if picked {
                    self.paint(Paint::Mark).add_modifier(Modifier::BOLD)
                } else {
                    Look::default()
                };
                add(&mut lines, &text, 6, look);
            }
            return lines;
        }
        let doing = if self.paused {
            "paused: space goes on, n plays one ply"
        } else if self.review.is_some() {
            "replaying the record"
        } else if self.thinking {
            self.pick("the bot is thinking…", "the bot is thinking...")
        } else {
            "the bot plays next"
        };
        add(&mut lines, doing, 0, self.paint(Paint::Dim));
        lines
    }

    /// The opening and the plies, newest last, as many as fit, ending
    /// [`Ui::back`] plies before the newest; each side's last turn (every
    /// ply of it) in bold.
    fn draw_plies(&self, f: &mut Frame, area: Rect) {
        let width = usize::from(area.width.saturating_sub(FRAME)).max(10);
        let rows = usize::from(area.height.saturating_sub(2));
        self.panel_rows.set(rows);
        let log = self.s.game.log();
        let last = render::last_turns(log);
        let end = log.len().saturating_sub(self.back);
        let mut lines: Vec<Line> = Vec::new();
        for i in (0..end).rev() {
            if lines.len() >= rows {
                break;
            }
            let Some(text) = self.s.narrate(i) else {
                continue;
            };
            let bold = last.iter().any(|e| e.ply == log[i].ply);
            let style = if bold {
                self.paint(Paint::Bold)
            } else {
                Look::default()
            };
            for part in wrap(&text, width, 6).into_iter().rev() {
                lines.push(Line::styled(part, style));
            }
        }
        if lines.len() < rows {
            for text in self.s.opening().into_iter().rev() {
                for part in wrap(&text, width, 2).into_iter().rev() {
                    lines.push(Line::styled(part, self.paint(Paint::Dim)));
                }
            }
        }
        let skip = lines.len().saturating_sub(rows);
        lines.reverse();
        let lines: Vec<Line> = lines.into_iter().skip(skip).collect();
        let title = if end < log.len() {
            format!(" plies to {end} of {} (page down: later) ", log.len())
        } else {
            " last plies ".to_owned()
        };
        f.render_widget(Paragraph::new(lines).block(self.panel(&title)), area);
    }

    /// The notice, or what the last command said, in lines of at most
    /// `width` columns (one, empty, when there is nothing to say).
    fn message_lines(&self, width: usize) -> Vec<Line<'static>> {
        let (text, look) = match (&self.notice, &self.said) {
            (Some(notice), _) => (notice.as_str(), self.paint(Paint::Warn)),
            (None, Some(Said::Note(text))) => (text.as_str(), Look::default()),
            (None, Some(Said::Warn(text))) => (text.as_str(), self.paint(Paint::Warn)),
            (None, None) => ("", Look::default()),
        };
        wrap(text, width, 2)
            .into_iter()
            .map(|part| Line::styled(part, look))
            .collect()
    }

    fn draw_input(&self, f: &mut Frame, area: Rect) {
        if let Some(ask) = self.asking {
            let text = match ask {
                Ask::New => "the game is not over: start a new one? (y/n)",
                Ask::Leave => "leave the game? (y/n)",
            };
            f.render_widget(
                Paragraph::new(Line::styled(text, self.paint(Paint::Bold))),
                area,
            );
            return;
        }
        if self.review.is_some() {
            return;
        }
        let prompt = match self.s.to_move() {
            Some((side, Mover::Person)) => format!("{side}> "),
            None => "> ".to_owned(),
            Some((_, Mover::Bot)) => return,
        };
        let hint = if !self.typed.is_empty() {
            Span::raw(self.typed.clone())
        } else if self.s.game.is_over() {
            Span::styled("new, undo, save FILE, replay, or q", self.paint(Paint::Dim))
        } else {
            Span::styled(
                "enter plays the move picked, or type",
                self.paint(Paint::Dim),
            )
        };
        let at = area.x + len(prompt.chars().count() + self.typed.chars().count());
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prompt, self.paint(Paint::Bold)),
                hint,
            ])),
            area,
        );
        f.set_cursor_position((at.min(area.right().saturating_sub(1)), area.y));
    }

    /// The keys that work now, in full and short.
    fn keys_line(&self) -> [String; 2] {
        let sep = self.sep();
        let join = |parts: &[&str]| parts.join(sep);
        let pace = format!("pace {} ms", self.pace.as_millis());
        let paused = if self.paused {
            format!("{sep}paused")
        } else {
            String::new()
        };
        let step = self.pick("→ or n step", "right or n step");
        let watch = |leave: &str| {
            [
                format!(
                    "{}{paused}",
                    join(&[
                        "space pause",
                        step,
                        "+ faster",
                        "- slower",
                        leave,
                        "? keys",
                        &pace
                    ])
                ),
                format!("{}{paused}", join(&["space", "n", "+ -", leave, "?"])),
            ]
        };
        if self.review.is_some() {
            return watch("q back");
        }
        let pick = self.pick("↑↓ pick", "up/down pick");
        let pick_short = self.pick("↑↓ enter", "up/down enter");
        match self.s.to_move() {
            Some((_, Mover::Bot)) if self.s.opts.mode == Mode::Watch => watch("q leave"),
            Some((_, Mover::Bot)) => [
                join(&[
                    "the bot is playing; keys typed now are ignored",
                    "ctrl-c leaves",
                ]),
                join(&["the bot plays", "ctrl-c leaves"]),
            ],
            Some((_, Mover::Person)) => [
                join(&[
                    pick,
                    "enter play",
                    "type a move or a command",
                    "? keys",
                    "ctrl-d leave",
                ]),
                join(&[pick_short, "? keys", "ctrl-d leave"]),
            ],
            None => [
                join(&["q leave", "? keys", "ctrl-c leave"]),
                join(&["q leave", "? keys"]),
            ],
        }
    }
}

fn keys_text() -> String {
    KEYS.replace("COMMANDS\n", COMMANDS)
}

/// A count as a terminal length.
fn len(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// The indent of a wrapped line's continuation: under the description of
/// a `  key    what it does` line (two spaces or more between them), else 4.
fn hanging_indent(line: &str) -> usize {
    let Some(key) = line.strip_prefix("  ") else {
        return 4;
    };
    match key.trim_start().find("  ") {
        Some(gap) => {
            let from = line.len() - key.trim_start().len() + gap;
            let rest = &line[from..];
            from + (rest.len() - rest.trim_start().len())
        }
        None => 4,
    }
}

/// Text cut into lines of at most `width` columns at spaces (a longer word
/// stands alone), its spacing kept, the lines after the first indented by
/// `indent`; text that fits is left as it is.
fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let columns = |t: &str| Span::raw(t).width();
    if columns(text) <= width {
        return vec![text.to_owned()];
    }
    let lead = " ".repeat(indent);
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let first = lines.is_empty();
        let room = if first {
            width
        } else {
            width.saturating_sub(indent).max(1)
        };
        let cut = if columns(rest) <= room {
            rest.len()
        } else {
            // The last space within the room that follows a word, else the
            // first space after it (a longer word stands alone).
            let spaces = rest
                .char_indices()
                .filter(|&(at, c)| c == ' ' && !rest[..at].trim().is_empty());
            let mut within = None;
            let mut beyond = None;
            for (at, _) in spaces {
                if columns(&rest[..at]) <= room {
                    within = Some(at);
                } else {
                    beyond = Some(at);
                    break;
                }
            }
            within.or(beyond).unwrap_or(rest.len())
        };
        let part = rest[..cut].trim_end();
        lines.push(if first {
            part.to_owned()
        } else {
            format!("{lead}{part}")
        });
        rest = rest[cut..].trim_start();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_the_spacing_and_hangs_under_the_description() {
        let line = "  level N           change the bot's level (1 to 99, top)";
        assert_eq!(hanging_indent(line), 20);
        assert_eq!(
            wrap(line, 44, hanging_indent(line)),
            [
                "  level N           change the bot's level",
                "                    (1 to 99, top)"
            ]
        );
        assert_eq!(hanging_indent("playing"), 4);
        assert_eq!(hanging_indent("  ctrl-u, esc       clear"), 20);
    }

    #[test]
    fn wrapping_cuts_at_spaces_and_indents() {
        assert_eq!(wrap("a bb cc", 4, 1), ["a bb", " cc"]);
        assert_eq!(wrap("short", 40, 2), ["short"]);
        assert_eq!(wrap(" 1. a2  rosette", 15, 2), [" 1. a2  rosette"]);
        assert_eq!(wrap(" 1. a2  rosette", 12, 2), [" 1. a2", "  rosette"]);
        assert_eq!(
            wrap("  12. light rolls", 10, 6),
            ["  12.", "      light", "      rolls"]
        );
    }
}
