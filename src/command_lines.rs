//! `tabas "LINE" "LINE" …`: each argument is one UCI command line, run in order as if
//! typed, then the engine exits (at `quit` or at the end of the arguments), as
//! Stockfish does: `tabas "genfens 10 seed 1 book None" quit` (OpenBench),
//! `tabas "go perft 5" quit`, `tabas uci quit`.
//!
//! * `genfens` lines are run here (`tabas::genfens`).
//! * The other lines go to a UCI session, started at the first of them: this same
//!   binary without arguments, in a child process, whose stdin is fed the lines and
//!   whose stdout is passed on line by line. (`uci::run` reads the process's own stdin;
//!   a child keeps it untouched rather than giving `uci` a second way in.)
//! * As typed by someone who waits for the answer: a line that arrives while a search,
//!   `go perft` or `bench` runs (`quit`, or the end of the arguments) stops it, so the
//!   next line is sent only once what was asked has ended: after a `go` its `bestmove`
//!   (not for `go infinite` or `go ponder`, which wait for a `stop`), after `go perft`
//!   its `Nodes searched:` line, after `bench` its `<N> nodes <M> nps` line (or the
//!   `info string error:` line of a `bench` refused).
//! * Before a `genfens` line the session is synced with `isready` (its `readyok` is not
//!   passed on), so that the output keeps the order of the lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{Receiver, channel};
use tabas::uci::send;

/// Runs `lines` (the command-line arguments) in order.
pub fn run(lines: &[String]) -> ExitCode {
    let mut session: Option<Session> = None;
    for line in lines {
        let line = line.trim();
        match line.split_whitespace().next().unwrap_or("") {
            "quit" => break,
            "genfens" => {
                if let Some(s) = session.as_mut() {
                    s.sync();
                }
                tabas::genfens::run(line, &mut |l| send(l));
            }
            _ => {
                if session.is_none() {
                    match Session::start() {
                        Ok(s) => session = Some(s),
                        Err(e) => {
                            send(&format!("info string error: {e}"));
                            return ExitCode::FAILURE;
                        }
                    }
                }
                let s = session.as_mut().expect("started above");
                if !s.send(line) {
                    break;
                }
                if let Some(end) = end_of(line)
                    && !s.pass_until(end, true)
                {
                    break;
                }
            }
        }
    }
    session.map_or(ExitCode::SUCCESS, Session::finish)
}

/// The last line of what `line` starts, when the next line must wait for it. A `go`
/// always runs (a bad word is an `info string error` warning, then ignored) and ends with
/// `bestmove`, or `Nodes searched:` for `go perft`; a `bench` ends with its total, or
/// is refused with an error.
fn end_of(line: &str) -> Option<fn(&str) -> bool> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first() {
        Some(&"go") if words.contains(&"infinite") || words.contains(&"ponder") => None,
        Some(&"go") => Some(|l| l.starts_with("bestmove") || l.starts_with("Nodes searched:")),
        Some(&"bench") => Some(|l| {
            matches!(l.split(' ').collect::<Vec<_>>()[..], [_, "nodes", _, "nps"])
                || l.starts_with("info string error")
        }),
        _ => None,
    }
}

/// A UCI session in a child process.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Result<Session, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the tabas binary to run the lines: {e}"))?;
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the UCI session: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Session {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one line; false when the session has gone.
    fn send(&mut self, line: &str) -> bool {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_ok()
    }

    /// Passes the session's output on up to the first line for which `end` holds
    /// (passed on too when `show_end`); false when the session ended first.
    fn pass_until(&mut self, end: fn(&str) -> bool, show_end: bool) -> bool {
        while let Ok(line) = self.lines.recv() {
            let is_end = end(&line);
            if !is_end || show_end {
                send(&line);
            }
            if is_end {
                return true;
            }
        }
        false
    }

    /// Passes on what the session has answered to the lines sent so far.
    fn sync(&mut self) {
        if self.send("isready") {
            self.pass_until(|l| l == "readyok", false);
        }
    }

    /// Ends the session (`quit`), passes on the rest of its output and waits for it.
    fn finish(self) -> ExitCode {
        let Session {
            mut child,
            mut stdin,
            lines,
        } = self;
        let _ = writeln!(stdin, "quit");
        drop(stdin);
        for line in lines {
            send(&line);
        }
        match child.wait() {
            Ok(status) if status.success() => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        }
    }
}
