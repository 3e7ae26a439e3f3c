//! Running the built `race` binary, shared by the command-line tests.

#![allow(dead_code, reason = "each test file uses a part of this")]

pub mod browser;
pub mod postgres;
pub mod pty;
pub mod server;

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of `race` gave: its exit code and its two outputs.
pub struct Run {
    pub code: i32,
    pub out: String,
    pub err: String,
}

/// Runs `race` with `stdin` as its input and `env` set, and checks that it
/// did not panic.
pub fn race_in(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_race"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("race runs");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (quit); a closed pipe is fine.
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().expect("race finishes");
    let _ = writer.join();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(
        !run.err.contains("panicked") && !run.err.contains("internal error"),
        "race {args:?} panicked: {}",
        run.err
    );
    run
}

/// Runs `race` with nothing on its input.
pub fn race(args: &[&str]) -> Run {
    race_in(args, b"", &[])
}
