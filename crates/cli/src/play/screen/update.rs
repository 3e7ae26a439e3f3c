//! The screen's state changed: the loop that waits for keys, the bot and
//! signals, what each key does, and the bot's turn on a thread of its own.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use dice_core::Game;
use race_games::{Bot, RaceGame};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::{Ask, Leave, Out, Overlay, Pop, Review, Ui, Wake, is_ctrl, suspend};
use crate::error::Failure;
use crate::play::{Command, Mode, Mover, Said, cut};

/// The fastest and slowest pace `+` and `-` reach.
const PACE_MIN: Duration = Duration::from_millis(25);
const PACE_MAX: Duration = Duration::from_millis(6400);

/// The longest the screen waits for a key before looking at the bot again.
const TICK: Duration = Duration::from_millis(40);

impl<G> Ui<G>
where
    G: RaceGame,
    Bot<G>: Send,
    G::Move: Send,
    Game<G>: Send,
{
    /// Answers keys, the bot and signals until the person leaves.
    pub(super) fn run(
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
}
