//! The line-by-line front end: for pipes (a script of moves, read in order)
//! and `--plain`. It narrates every ply, draws the board once for each roll
//! a person is asked to play (and, watching on a terminal, once a turn),
//! and reads one command a line.
//!
//! On a terminal, whatever was typed before a new roll was shown is
//! flushed from the terminal's input unread (and the player told), so that
//! no move is made blind; from a pipe every line is read in order.

use std::io::{BufRead, Write};
use std::os::fd::AsFd;

use crate::error::Failure;
use crate::play::{COMMANDS, Command, Mode, Mover, Said, Session};
use crate::style::Paint;

/// Where commands come from.
pub struct Input<R: BufRead> {
    reader: R,
    /// Whether the input is a terminal, whose typed-ahead lines are flushed
    /// before each new roll.
    terminal: bool,
    /// The input has ended.
    ended: bool,
}

impl<R: BufRead> Input<R> {
    /// Commands read from `reader`; `terminal` when it is the terminal.
    pub fn new(reader: R, terminal: bool) -> Input<R> {
        Input {
            reader,
            terminal,
            ended: false,
        }
    }

    /// The next line, `None` at the end of the input. A line is at most
    /// 4 KiB; the rest of a longer one is skipped.
    fn line(&mut self) -> std::io::Result<Option<String>> {
        if self.ended {
            return Ok(None);
        }
        let mut buf = Vec::new();
        let n =
            <&mut R as std::io::Read>::take(&mut self.reader, 4096).read_until(b'\n', &mut buf)?;
        if n == 0 {
            self.ended = true;
            return Ok(None);
        }
        if buf.last() != Some(&b'\n') && n == 4096 {
            let mut rest = Vec::new();
            self.reader.read_until(b'\n', &mut rest)?;
        }
        Ok(Some(String::from_utf8_lossy(&buf).trim().to_owned()))
    }

    /// Drops what was typed ahead on a terminal; says whether there was
    /// anything. (A terminal in line mode hands over one line a read, so
    /// nothing typed ahead waits in the reader's buffer.)
    fn flush_typed_ahead(&mut self) -> bool {
        if !self.terminal {
            return false;
        }
        let stdin = std::io::stdin();
        let fd = stdin.as_fd();
        let waiting = rustix::io::ioctl_fionread(fd).unwrap_or(0) > 0;
        let _ = rustix::termios::tcflush(fd, rustix::termios::QueueSelector::IFlush);
        waiting
    }
}

/// The state of the printed transcript.
struct Transcript<'a, G: race_games::RaceGame> {
    s: Session<G>,
    out: &'a mut dyn Write,
    /// Plies narrated so far.
    seen: usize,
    /// The roll last offered to a person: (ply, throws).
    offered: Option<(u32, u64)>,
    /// Whether to draw the board after each bot turn (a terminal watching).
    live: bool,
}

impl<G: race_games::RaceGame> Transcript<'_, G> {
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")
    }

    fn said(&mut self, said: Option<Said>) -> std::io::Result<()> {
        match said {
            Some(Said::Note(text)) => self.say(&text),
            Some(Said::Warn(text)) => {
                let text = self.s.opts.style.paint(&text, Paint::Warn);
                self.say(&text)
            }
            None => Ok(()),
        }
    }

    fn start(&mut self) -> std::io::Result<()> {
        let title = self.s.title();
        let title = self.s.opts.style.paint(&format!("{title}."), Paint::Bold);
        self.say(&title)?;
        for line in self.s.opening() {
            self.say(&line)?;
        }
        if let Some(text) = self.s.resumed_note() {
            self.say(&text)?;
        }
        // A resumed game's earlier plies are in its record, not narrated again.
        self.seen = self.s.game.log().len();
        Ok(())
    }

    fn narrate_new(&mut self) -> std::io::Result<()> {
        while let Some(text) = self.s.narrate(self.seen) {
            self.say(&text)?;
            self.seen += 1;
        }
        self.seen = self.s.game.log().len();
        Ok(())
    }

    fn board(&mut self) -> std::io::Result<()> {
        let text = self.s.board_text();
        write!(self.out, "{text}")
    }

    /// The roll in hand and the numbered moves.
    fn menu(&mut self, side: dice_core::Side) -> std::io::Result<()> {
        let mut menu = format!(
            "{side} to move, {}   {}\n",
            self.s.throw().unwrap_or_default(),
            crate::render::dice_key::<G>(&self.s.opts.style)
        );
        for (i, c) in self.s.choices().iter().enumerate() {
            menu.push_str(&format!("  {:>2}. {c}\n", i + 1));
        }
        write!(self.out, "{menu}")
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.board()?;
        if let Some(line) = self.s.result() {
            let text = self.s.opts.style.paint(&line, Paint::Bold);
            self.say(&text)?;
        }
        let list = self.s.list();
        write!(self.out, "{list}")
    }

    /// Every ply of the finished game, one by one, then its board.
    fn replay(&mut self) -> std::io::Result<()> {
        for line in self.s.opening() {
            self.say(&line)?;
        }
        for i in 0..self.s.game.log().len() {
            if let Some(text) = self.s.narrate(i) {
                self.say(&text)?;
            }
        }
        self.finish()
    }

    fn prompt(&mut self, text: &str) -> std::io::Result<()> {
        write!(self.out, "{text}")?;
        self.out.flush()
    }

    /// One command from a person. Returns false to leave.
    fn command<R: BufRead>(&mut self, line: &str, input: &mut Input<R>) -> Result<bool, Failure> {
        match Command::parse(line) {
            Command::Play(text) => {
                let said = self.s.play(text);
                self.narrate_new()?;
                self.said(said)?;
            }
            Command::Moves => {
                if let Some((side, Mover::Person)) = self.s.to_move() {
                    self.menu(side)?;
                }
            }
            Command::Board => self.board()?,
            Command::List => {
                let text = self.s.list();
                write!(self.out, "{text}")?;
            }
            Command::Route => {
                let text = self.s.route();
                write!(self.out, "{text}")?;
            }
            Command::Undo => {
                let said = self.s.undo();
                self.seen = self.seen.min(self.s.game.log().len());
                self.said(Some(said))?;
            }
            Command::New => {
                if self.s.in_progress() {
                    self.prompt("the game is not over: start a new one? (yes/no)> ")?;
                    let answer = input.line()?.unwrap_or_default().to_ascii_lowercase();
                    if !matches!(answer.as_str(), "y" | "yes") {
                        self.say("the game goes on.")?;
                        return Ok(true);
                    }
                }
                let said = self.s.new_game()?;
                self.said(said)?;
                self.offered = None;
                self.start()?;
            }
            Command::Level(text) => {
                let said = self.s.level(text)?;
                self.said(Some(said))?;
            }
            Command::Save(path) => {
                let said = self.s.save(path);
                self.said(Some(said))?;
            }
            Command::Resign => {
                let said = self.s.resign();
                self.said(Some(said))?;
            }
            Command::Replay => {
                if self.s.game.is_over() {
                    self.replay()?;
                } else {
                    self.say("replay is for a finished game; list shows the plies so far.")?;
                }
            }
            Command::Help => write!(self.out, "commands:\n{COMMANDS}")?,
            Command::Quit => return Ok(false),
        }
        Ok(true)
    }
}

/// Plays until the person quits, or, once the input has ended, until the
/// game does (the bot playing on for both sides).
///
/// # Errors
///
/// A refusal when a new game cannot be set up; I/O errors on output.
pub fn run<G: race_games::RaceGame, R: BufRead>(
    session: Session<G>,
    mut input: Input<R>,
    out: &mut dyn Write,
    live: bool,
) -> Result<(), Failure> {
    let mut t = Transcript {
        s: session,
        out,
        seen: 0,
        offered: None,
        live,
    };
    t.start()?;
    let mut shown_end = false;
    loop {
        let Some((side, mover)) = t.s.to_move() else {
            // What was typed before the end is shown is dropped before it
            // is shown, so that nothing typed after is lost.
            let end = Some((t.s.game.ply(), u64::MAX));
            let typed_ahead = t.offered != end && input.flush_typed_ahead();
            if !shown_end {
                if t.s.resumed == Some(t.s.game.ply()) {
                    t.say(
                        "this record is of a finished game, kept as it is; type replay to see \
                         its plies (undo goes on from an earlier ply in a new file).",
                    )?;
                }
                t.finish()?;
            }
            if t.s.opts.mode == Mode::Watch {
                break;
            }
            if t.offered != end {
                t.offered = end;
                if typed_ahead {
                    t.say("(what was typed before the end was shown is ignored)")?;
                }
            }
            t.prompt("the game is over: new, undo, save FILE, replay or quit> ")?;
            match input.line()? {
                None => {
                    t.say("")?;
                    break;
                }
                Some(line) => {
                    if !t.command(&line, &mut input)? {
                        break;
                    }
                    shown_end = t.s.game.is_over();
                }
            }
            continue;
        };
        if mover == Mover::Bot {
            if !t.s.opts.pace.is_zero() {
                std::thread::sleep(t.s.opts.pace);
            }
            let Some(mv) = t.s.opts.bot.choose(&t.s.game) else {
                break;
            };
            let said = t.s.bot_plays(mv);
            t.narrate_new()?;
            t.said(said)?;
            let turn_over = t.s.game.side() != Some(side);
            if t.live && turn_over && t.s.to_move().is_some_and(|(_, m)| m == Mover::Bot) {
                t.board()?;
            }
            continue;
        }
        let roll = (t.s.game.ply(), t.s.game.throws());
        if t.offered != Some(roll) {
            t.offered = Some(roll);
            let typed_ahead = input.flush_typed_ahead();
            t.board()?;
            t.menu(side)?;
            if typed_ahead {
                t.say("(what was typed before this roll was shown is ignored)")?;
            }
        }
        t.prompt(&format!("{side}> "))?;
        match input.line()? {
            None => {
                t.say("")?;
                t.say("end of input: the bot plays on for both sides.")?;
                t.s.opts.mode = Mode::Watch;
            }
            Some(line) => {
                if !t.command(&line, &mut input)? {
                    t.say("quit.")?;
                    break;
                }
            }
        }
    }
    for line in t.s.farewell() {
        if line.starts_with("the record") {
            t.say(&line)?;
        }
    }
    Ok(())
}
