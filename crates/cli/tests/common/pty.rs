//! The built `race` binary in a pseudo-terminal, its screen read as a grid
//! by a terminal emulator (`vt100`), for the tests of the fixed screen.
//!
//! Nothing here times anything: a test waits for what it expects to be on
//! the screen (or for the process to end), with a generous time-out, and
//! fails showing the screen it saw.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// How long a test waits for anything: long, for a shared, slow machine.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// How long a screen that shows what is waited for must go on showing it.
const SETTLE: Duration = Duration::from_millis(100);

/// `race` running in a terminal of its own.
pub struct Term {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
}

impl Term {
    /// Starts `race ARGS` in `dir` in a terminal `cols` wide and `rows` high.
    pub fn start(args: &[&str], dir: &Path, cols: u16, rows: u16) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_race"));
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        let child = pair.slave.spawn_command(cmd).expect("race starts");
        drop(pair.slave);
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(rows), size(cols), 0)));
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let fed = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                fed.lock().expect("the screen").process(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().expect("a writer");
        Term {
            parser,
            writer,
            child,
            _master: pair.master,
        }
    }

    /// The screen's text, row by row.
    pub fn screen(&self) -> String {
        self.parser.lock().expect("the screen").screen().contents()
    }

    /// Whether the program has the alternate screen up.
    pub fn alternate(&self) -> bool {
        self.parser
            .lock()
            .expect("the screen")
            .screen()
            .alternate_screen()
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
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("keys sent");
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

    /// The number after `ply ` in the first line.
    pub fn ply(&self) -> Option<u32> {
        ply_of(&self.screen())
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
