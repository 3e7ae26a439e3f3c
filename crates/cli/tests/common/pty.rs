//! The built `race` binary in a pseudo-terminal, its screen read as a grid
//! by a terminal emulator (`vt100`), for the tests of the fixed screen.
//!
//! Nothing here times anything: a test waits for what it expects to be on
//! the screen (or for the process to end), with a generous time-out, and
//! fails showing the screen it saw.

use std::cell::RefCell;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::BorrowedFd;
use std::path::Path;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// How long a test waits for anything: long, for a shared, slow machine.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// How long a screen that shows what is waited for must go on showing it.
const SETTLE: Duration = Duration::from_millis(100);

/// `race` running in a terminal of its own. What it writes is read (and
/// fed to the emulator) whenever the screen is looked at; meanwhile the
/// terminal holds it, and a program with much to say waits.
pub struct Term {
    parser: RefCell<vt100::Parser>,
    /// The terminal's side (a copy of the master, not blocking), read and
    /// written; `None` once the terminal is closed.
    tty: Option<File>,
    master: Option<Box<dyn MasterPty + Send>>,
    child: Box<dyn Child + Send + Sync>,
}

impl Term {
    /// Starts `race ARGS` in `dir` in a terminal `cols` wide and `rows` high.
    pub fn start(args: &[&str], dir: &Path, cols: u16, rows: u16) -> Term {
        Term::start_program(env!("CARGO_BIN_EXE_race"), args, dir, cols, rows)
    }

    /// Starts `program ARGS` in `dir` in a terminal `cols` wide and `rows`
    /// high (a shell, to run `race` as a job of its own).
    pub fn start_program(program: &str, args: &[&str], dir: &Path, cols: u16, rows: u16) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        let child = pair.slave.spawn_command(cmd).expect("race starts");
        drop(pair.slave);
        let raw = pair.master.as_raw_fd().expect("the master's descriptor");
        #[allow(
            unsafe_code,
            reason = "a descriptor from portable-pty is borrowed as rustix takes it"
        )]
        // SAFETY: the master is open (it is dropped only after this copy is
        // made), and the borrow ends here.
        let master = unsafe { BorrowedFd::borrow_raw(raw) };
        let tty = File::from(rustix::io::dup(master).expect("a copy of the master"));
        rustix::io::ioctl_fionbio(&tty, true).expect("a terminal read without waiting");
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
        Term {
            parser: RefCell::new(vt100::Parser::new(size(rows), size(cols), 0)),
            tty: Some(tty),
            master: Some(pair.master),
            child,
        }
    }

    /// Feeds the emulator what the program has written so far.
    fn pump(&self) {
        let Some(mut tty) = self.tty.as_ref() else {
            return;
        };
        let mut buf = [0u8; 65536];
        // Until nothing more waits (or the program has closed its side).
        while let Ok(n @ 1..) = tty.read(&mut buf) {
            self.parser.borrow_mut().process(&buf[..n]);
        }
    }

    /// The screen's text, row by row.
    pub fn screen(&self) -> String {
        self.pump();
        self.parser.borrow().screen().contents()
    }

    /// Whether the program has the alternate screen up.
    pub fn alternate(&self) -> bool {
        self.pump();
        self.parser.borrow().screen().alternate_screen()
    }

    /// Waits until the terminal's own screen is back (the program has left
    /// the alternate screen).
    pub fn wait_own_screen(&self) {
        let start = Instant::now();
        while self.alternate() {
            assert!(
                start.elapsed() < PATIENCE,
                "the alternate screen was never left:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen satisfies `ok`, and returns it. It must do
    /// so twice, a moment apart: a screen read while a frame is still
    /// arriving (its top drawn, its bottom not yet) is not taken for the
    /// frame.
    pub fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            if ok(&self.screen()) {
                std::thread::sleep(SETTLE);
                let screen = self.screen();
                if ok(&screen) {
                    return screen;
                }
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                std::thread::sleep(Duration::from_millis(200));
                let screen = self.screen();
                if ok(&screen) {
                    return screen;
                }
                panic!("race ended ({status:?}) before the screen showed {what}:\n{screen}");
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the screen never showed {what}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_text(&mut self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Types `keys` (raw bytes: "\r" is Enter, "\x03" Ctrl-C).
    pub fn send(&mut self, keys: &str) {
        let mut tty = self.tty.as_ref().expect("an open terminal");
        tty.write_all(keys.as_bytes()).expect("keys sent");
    }

    /// Closes the terminal, as closing its window does: the program is
    /// sent SIGHUP and its output goes nowhere.
    pub fn close(&mut self) {
        self.pump();
        self.tty = None;
        self.master = None;
    }

    /// Whether the terminal is open (not closed by [`Term::close`]).
    pub fn is_open(&self) -> bool {
        self.tty.is_some()
    }

    /// Sends a signal to the program.
    pub fn signal(&self, signal: rustix::process::Signal) {
        let pid = self.child.process_id().expect("a process id");
        let pid =
            rustix::process::Pid::from_raw(i32::try_from(pid).expect("a pid")).expect("a pid");
        rustix::process::kill_process(pid, signal).expect("the signal sent");
    }

    /// Waits for the program to end and returns its exit code.
    pub fn exit_code(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            // What it writes on its way out is read, so that it can end.
            self.pump();
            if let Some(status) = self.child.try_wait().expect("the status") {
                return status.exit_code();
            }
            assert!(
                start.elapsed() < PATIENCE,
                "race did not end:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The number after `ply ` in a screen's first line.
pub fn ply_of(screen: &str) -> Option<u32> {
    let head = screen.lines().next()?;
    let at = head.find("ply ")? + 4;
    let digits: String = head[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}
