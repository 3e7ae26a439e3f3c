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
//!
//! This module holds the screen's state and the terminal; [`update`] changes
//! the state (keys, the bot's moves, signals, the pace) and [`view`] draws it.

mod update;
mod view;

use std::cell::Cell;
use std::io::{BufWriter, Stdout};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dice_core::Game;
use race_games::{Bot, RaceGame};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::error::Failure;
use crate::play::{Said, Session};
use crate::style::Style;

/// How long the screen has to leave by itself after a signal.
const SIGNAL_GRACE: Duration = Duration::from_secs(2);

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
