//! Shared helpers for the integration tests that drive the real `tabas` binary.
//!
//! * [`Engine`]: the binary as a child process. A reader thread turns its stdout
//!   into lines on a channel, so every wait has a timeout; a failing wait panics
//!   with the transcript so far (both directions) and the tail of stderr. The
//!   child is killed on drop, so a failing test never leaves it behind.
//! * Chess checks with shakmaty: legality of `bestmove` and `info … pv` moves,
//!   notation (standard `e1g1` or Chess960 king-takes-rook), `info` fields.
//! * [`Rng`]: a tiny seeded PRNG (splitmix64) for reproducible fuzzing.

#![allow(dead_code)]

pub mod tools;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous default for anything that should happen "promptly".
pub const PROMPT: Duration = Duration::from_secs(10);
/// For searches that have real work to do (a few plies, a mate search).
pub const LONG: Duration = Duration::from_secs(20);

/// The first words a line of engine output may start with (UCI protocol only).
pub const PROTOCOL_WORDS: [&str; 6] = ["id", "option", "uciok", "readyok", "info", "bestmove"];

/// True when `line` is a UCI protocol line by its first word.
pub fn is_protocol_line(line: &str) -> bool {
    line.split(' ')
        .next()
        .is_some_and(|w| PROTOCOL_WORDS.contains(&w))
}

/// Lines printed by the non-standard `d` command.
pub fn is_display_line(line: &str) -> bool {
    line.is_empty()
        || line.starts_with(" +---")
        || line.starts_with(" | ")
        || line.starts_with("   a   b")
        || line.starts_with("Fen: ")
        || line.starts_with("Key: ")
        || line.starts_with("Checkers:")
}

/// Lines printed by the non-standard `go perft` (`e2e4: 20`, a blank line,
/// `Nodes searched: 400`) and `bench` (`info string bench …` lines, then
/// `<N> nodes <M> nps`).
pub fn is_tool_line(line: &str) -> bool {
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let words: Vec<&str> = line.split(' ').collect();
    let divide = |mv: &str, n: &str| {
        let mv = mv.as_bytes();
        (mv.len() == 4 || mv.len() == 5)
            && mv
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && number(n)
    };
    line.is_empty()
        || line.strip_prefix("Nodes searched: ").is_some_and(number)
        || matches!(words[..], [mv, n] if mv.ends_with(':') && divide(&mv[..mv.len() - 1], n))
        || matches!(words[..], [n, "nodes", m, "nps"] if number(n) && number(m))
}

/// How stdout lines are checked as they arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputCheck {
    /// Every line must be a protocol line (`PROTOCOL_WORDS`).
    Protocol,
    /// Protocol lines and the lines of `d`.
    ProtocolOrDisplay,
    /// Protocol lines, the lines of `d`, `go perft` and `bench`.
    ProtocolDisplayOrTool,
    /// Anything goes (`go perft`, `bench`, command-line tools).
    Any,
}

enum Event {
    Line(String),
    Eof,
}

/// The engine binary as a child process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    eof: bool,
    transcript: Vec<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Printed in every failure message (e.g. the fuzz seed).
    pub label: String,
    pub check: OutputCheck,
    exit: Option<ExitStatus>,
}

const TRANSCRIPT_SHOWN: usize = 400;
const STDERR_KEPT: usize = 40;

fn escape_for_transcript(bytes: &[u8]) -> String {
    const MAX: usize = 300;
    let mut s = String::new();
    for &b in bytes.iter().take(MAX) {
        match b {
            b' '..=b'~' => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > MAX {
        s.push_str(&format!("… ({} bytes)", bytes.len()));
    }
    s
}

impl Engine {
    /// The UCI engine (no arguments).
    pub fn spawn() -> Engine {
        Engine::spawn_args(&[])
    }

    /// The binary with command-line arguments (`perft`, `bench`).
    pub fn spawn_args(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabas"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the tabas binary");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("child stdout");
        let stderr = child.stderr.take().expect("child stderr");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });
        // Drain stderr (the engine logs a warning per bad command: an undrained
        // pipe would block it), keeping the tail for failure messages.
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let mut t = tail.lock().unwrap();
                        if t.len() == STDERR_KEPT {
                            t.pop_front();
                        }
                        t.push_back(escape_for_transcript(buf.trim_ascii_end()));
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            rx,
            eof: false,
            transcript: Vec::new(),
            stderr_tail,
            label: String::new(),
            check: OutputCheck::Protocol,
            exit: None,
        }
    }

    /// Panics with `msg`, the transcript so far and the tail of stderr.
    #[track_caller]
    pub fn fail(&self, msg: &str) -> ! {
        let skip = self.transcript.len().saturating_sub(TRANSCRIPT_SHOWN);
        let mut text = String::new();
        if skip > 0 {
            text.push_str(&format!("    … {skip} earlier lines\n"));
        }
        for line in &self.transcript[skip..] {
            text.push_str("    ");
            text.push_str(line);
            text.push('\n');
        }
        let stderr: Vec<String> = self.stderr_tail.lock().unwrap().iter().cloned().collect();
        panic!(
            "{msg}\n{}transcript (>> sent, << received):\n{text}stderr tail:\n    {}",
            if self.label.is_empty() {
                String::new()
            } else {
                format!("[{}]\n", self.label)
            },
            stderr.join("\n    ")
        );
    }

    /// Sends one line (a newline is added).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
    }

    /// Sends raw bytes as they are (the caller adds newlines).
    #[track_caller]
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        self.transcript
            .push(format!(">> {}", escape_for_transcript(shown)));
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => self.fail("send after stdin was closed"),
        };
        if let Err(e) = result {
            self.fail(&format!("writing to the engine failed: {e}"));
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push(">> <EOF>".to_string());
        self.stdin = None;
    }

    fn record(&mut self, line: &str) {
        self.transcript
            .push(format!("<< {}", escape_for_transcript(line.as_bytes())));
        let ok = match self.check {
            OutputCheck::Protocol => is_protocol_line(line),
            OutputCheck::ProtocolOrDisplay => is_protocol_line(line) || is_display_line(line),
            OutputCheck::ProtocolDisplayOrTool => {
                is_protocol_line(line) || is_display_line(line) || is_tool_line(line)
            }
            OutputCheck::Any => true,
        };
        if !ok {
            self.fail(&format!("stdout line is not a UCI protocol line: {line:?}"));
        }
    }

    /// The next line before `deadline`; `None` on timeout. Panics at end of output.
    #[track_caller]
    pub fn next_line_until(&mut self, deadline: Instant) -> Option<String> {
        if self.eof {
            self.fail("waiting for output after the engine closed stdout");
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(Event::Line(line)) => {
                self.record(&line);
                Some(line)
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.transcript.push("<< <EOF>".to_string());
                self.fail("the engine closed stdout (exited or crashed?)");
            }
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all of them, the match last.
    /// Panics after `timeout` (naming `what`).
    #[track_caller]
    pub fn collect_until(
        &mut self,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.next_line_until(deadline) {
                Some(line) => {
                    let done = pred(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    /// The first line satisfying `pred` (earlier lines are read and checked, then dropped).
    #[track_caller]
    pub fn expect(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&str) -> bool,
    ) -> String {
        self.collect_until(what, timeout, pred).pop().unwrap()
    }

    /// The first line starting with `prefix`.
    #[track_caller]
    pub fn expect_prefix(&mut self, prefix: &str, timeout: Duration) -> String {
        self.expect(&format!("a line starting {prefix:?}"), timeout, |l| {
            l.starts_with(prefix)
        })
    }

    /// All lines arriving within `dur` (waits the whole time).
    #[track_caller]
    pub fn lines_for(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line_until(deadline) {
            lines.push(line);
        }
        lines
    }

    /// `isready` → `readyok`; returns the lines that came before `readyok`.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.collect_until("readyok", PROMPT, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// `uci` … `uciok`; returns all lines up to and including `uciok`.
    #[track_caller]
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.collect_until("uciok", PROMPT, |l| l == "uciok")
    }

    /// Reads up to the next `bestmove`; returns (all lines before it, the bestmove line).
    #[track_caller]
    pub fn wait_bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.collect_until("bestmove", timeout, |l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        (lines, best)
    }

    /// After a search ended: syncs with `isready` and fails if another `bestmove`
    /// (or anything but `info` lines) arrives before `readyok`.
    #[track_caller]
    pub fn assert_no_extra_bestmove(&mut self) {
        for line in self.sync() {
            if line.starts_with("bestmove") {
                self.fail(&format!("a second bestmove for one go: {line:?}"));
            }
        }
    }

    /// Sends `go …`, waits for its bestmove, checks every `info` line and the
    /// bestmove against `pos` (notation per `mode`), and that exactly one bestmove
    /// came. Returns (info lines, best move, ponder move text).
    #[track_caller]
    pub fn go_checked(
        &mut self,
        go: &str,
        pos: &Chess,
        mode: CastlingMode,
        timeout: Duration,
    ) -> Searched {
        self.send(go);
        self.finish_checked(pos, mode, timeout)
    }

    /// Like `go_checked` for a search already started.
    #[track_caller]
    pub fn finish_checked(
        &mut self,
        pos: &Chess,
        mode: CastlingMode,
        timeout: Duration,
    ) -> Searched {
        let (lines, best_line) = self.wait_bestmove(timeout);
        let infos: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("info"))
            .collect();
        for info in &infos {
            check_info(self, pos, info, mode);
        }
        let (best, ponder) = check_bestmove(self, pos, &best_line, mode);
        self.assert_no_extra_bestmove();
        Searched {
            infos,
            best_line,
            best,
            ponder,
        }
    }

    /// Waits for the process to exit; panics after `timeout`.
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(s) = self.exit {
            return s;
        }
        let deadline = Instant::now() + timeout;
        loop {
            // Keep the transcript complete (and the pipe drained) while waiting.
            while let Ok(ev) = self.rx.try_recv() {
                match ev {
                    Event::Line(l) => self.record(&l),
                    Event::Eof => {
                        self.eof = true;
                        self.transcript.push("<< <EOF>".to_string());
                    }
                }
            }
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // Collect what was still in flight.
                    let until = Instant::now() + Duration::from_millis(500);
                    while !self.eof && Instant::now() < until {
                        match self.rx.recv_timeout(Duration::from_millis(50)) {
                            Ok(Event::Line(l)) => self.record(&l),
                            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                                self.eof = true;
                                self.transcript.push("<< <EOF>".to_string());
                            }
                            Err(RecvTimeoutError::Timeout) => {}
                        }
                    }
                    self.exit = Some(status);
                    return status;
                }
                Ok(None) => {}
                Err(e) => self.fail(&format!("try_wait failed: {e}")),
            }
            if Instant::now() >= deadline {
                self.fail(&format!("the engine did not exit within {timeout:?}"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Every line received so far, in order (without the `<< ` mark).
    pub fn received(&self) -> Vec<String> {
        self.transcript
            .iter()
            .filter_map(|l| l.strip_prefix("<< "))
            .map(str::to_string)
            .collect()
    }

    /// `quit`, then expects exit status 0 within `PROMPT`.
    #[track_caller]
    pub fn quit(&mut self) {
        self.send("quit");
        let status = self.wait_exit(PROMPT);
        if !status.success() {
            self.fail(&format!("exit status after quit: {status:?}"));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.exit.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The outcome of one checked `go`.
pub struct Searched {
    pub infos: Vec<String>,
    pub best_line: String,
    /// `None` for `bestmove (none)`.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

impl Searched {
    /// Whether any info line reports this score text (e.g. `"mate 2"`).
    pub fn has_score(&self, score: &str) -> bool {
        let pat = format!(" score {score}");
        self.infos
            .iter()
            .any(|l| l.contains(&(pat.clone() + " ")) || l.ends_with(&pat))
    }
}

// ---------------------------------------------------------------------------
// Syzygy tables.

/// The 3-4-piece Syzygy tables: `TABAS_SYZYGY`, else `../shared/data/syzygy`
/// beside the repository. `None`, with a message on stderr, where they are absent:
/// tests that need them skip that part.
pub fn syzygy_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("TABAS_SYZYGY")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/syzygy")
        });
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: no Syzygy tables in {} (set TABAS_SYZYGY to the 3-4-piece tables)",
            dir.display()
        );
        None
    }
}

// ---------------------------------------------------------------------------
// Chess helpers.

/// A FEN in any castling notation (Chess960 mode reads KQkq, Shredder and X-FEN).
pub fn parse_fen(fen: &str) -> Chess {
    let setup = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    setup
        .into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("bad position {fen}: {e}"))
}

/// The FEN of a position (as `d` prints it: en passant only when legal).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// `start` (None: the start position) after `moves` (either castling notation).
pub fn position_after(start: Option<&str>, moves: &[&str]) -> Chess {
    let mut pos = match start {
        None => Chess::default(),
        Some(fen) => parse_fen(fen),
    };
    for text in moves {
        let m = UciMove::from_ascii(text.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("test bug: move {text} illegal"));
        pos.play_unchecked(m);
    }
    pos
}

/// A move as the engine printed it: legal in `pos` and written in `mode`'s
/// notation (standard `e1g1` or Chess960 king-takes-rook for castling).
pub fn parse_engine_move(pos: &Chess, text: &str, mode: CastlingMode) -> Result<Move, String> {
    parse_engine_move_opt(pos, text, Some(mode))
}

/// Like `parse_engine_move`; `None` accepts either castling notation.
pub fn parse_engine_move_opt(
    pos: &Chess,
    text: &str,
    mode: Option<CastlingMode>,
) -> Result<Move, String> {
    let uci = UciMove::from_ascii(text.as_bytes())
        .map_err(|_| format!("'{text}' is not UCI move syntax"))?;
    let m = uci
        .to_move(pos)
        .map_err(|_| format!("'{text}' is illegal in {}", fen_of(pos)))?;
    let modes = match mode {
        Some(mode) => vec![mode],
        None => vec![CastlingMode::Standard, CastlingMode::Chess960],
    };
    if !modes.iter().any(|&m2| m.to_uci(m2).to_string() == text) {
        return Err(format!(
            "'{text}' is legal but written in the wrong castling notation for {mode:?} (expected '{}') in {}",
            m.to_uci(modes[0]),
            fen_of(pos)
        ));
    }
    Ok(m)
}

/// Checks `bestmove X [ponder Y]`: X legal in `pos` (or `(none)` exactly when there
/// is no legal move), Y legal after X. Returns the moves.
#[track_caller]
pub fn check_bestmove(
    eng: &Engine,
    pos: &Chess,
    line: &str,
    mode: CastlingMode,
) -> (Option<Move>, Option<Move>) {
    check_bestmove_opt(eng, pos, line, Some(mode))
}

/// Like `check_bestmove`; `None` accepts either castling notation.
#[track_caller]
pub fn check_bestmove_opt(
    eng: &Engine,
    pos: &Chess,
    line: &str,
    mode: Option<CastlingMode>,
) -> (Option<Move>, Option<Move>) {
    let words: Vec<&str> = line.split(' ').collect();
    let ok_shape = words.first() == Some(&"bestmove")
        && (words.len() == 2 || (words.len() == 4 && words[2] == "ponder"));
    if !ok_shape {
        eng.fail(&format!("malformed bestmove line {line:?}"));
    }
    let legal = pos.legal_moves();
    if words[1] == "(none)" {
        if !legal.is_empty() {
            eng.fail(&format!(
                "bestmove (none) but {} has {} legal moves",
                fen_of(pos),
                legal.len()
            ));
        }
        if words.len() > 2 {
            eng.fail(&format!("ponder move after bestmove (none): {line:?}"));
        }
        return (None, None);
    }
    let best = parse_engine_move_opt(pos, words[1], mode)
        .unwrap_or_else(|e| eng.fail(&format!("bad bestmove in {line:?}: {e}")));
    let ponder = if words.len() == 4 {
        let mut after = pos.clone();
        after.play_unchecked(best);
        Some(
            parse_engine_move_opt(&after, words[3], mode)
                .unwrap_or_else(|e| eng.fail(&format!("bad ponder move in {line:?}: {e}"))),
        )
    } else {
        None
    };
    (Some(best), ponder)
}

/// The fields of one `info` line.
#[derive(Debug, Default)]
pub struct Info {
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    pub multipv: Option<i64>,
    /// ("cp" | "mate", value, bound word if any)
    pub score: Option<(String, i64, Option<String>)>,
    /// `wdl W D L` (`UCI_ShowWDL`): per mille chances of the side to move.
    pub wdl: Option<[i64; 3]>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<i64>,
    pub time: Option<u64>,
    pub pv: Option<Vec<String>>,
    pub string: Option<String>,
    pub other: Vec<String>,
}

/// Parses an `info` line into its fields; `Err` for a malformed line.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.first() != Some(&"info") {
        return Err("not an info line".into());
    }
    let mut info = Info::default();
    let mut i = 1;
    let num = |i: usize, key: &str| -> Result<i64, String> {
        words
            .get(i)
            .and_then(|w| w.parse::<i64>().ok())
            .ok_or_else(|| format!("'{key}' without a number"))
    };
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "depth" => info.depth = Some(num(i, key)?),
            "seldepth" => info.seldepth = Some(num(i, key)?),
            "multipv" => info.multipv = Some(num(i, key)?),
            "hashfull" => info.hashfull = Some(num(i, key)?),
            "nodes" | "nps" | "time" => {
                let v = num(i, key)?;
                if v < 0 {
                    return Err(format!("negative {key}"));
                }
                match key {
                    "nodes" => info.nodes = Some(v as u64),
                    "nps" => info.nps = Some(v as u64),
                    _ => info.time = Some(v as u64),
                }
            }
            "currmovenumber" | "tbhits" | "cpuload" | "sbhits" => {
                num(i, key)?;
                info.other.push(key.to_string());
            }
            "currmove" => {
                words.get(i).ok_or("currmove without a move")?;
                info.other.push(key.to_string());
            }
            "score" => {
                let kind = words.get(i).copied().unwrap_or("");
                if kind != "cp" && kind != "mate" {
                    return Err(format!("score kind '{kind}'"));
                }
                let v = num(i + 1, "score")?;
                i += 2;
                let bound = match words.get(i).copied() {
                    Some(b @ ("lowerbound" | "upperbound")) => {
                        i += 1;
                        Some(b.to_string())
                    }
                    _ => None,
                };
                info.score = Some((kind.to_string(), v, bound));
                continue;
            }
            "wdl" => {
                let chances = [num(i, key)?, num(i + 1, key)?, num(i + 2, key)?];
                if chances.iter().any(|c| !(0..=1000).contains(c)) {
                    return Err(format!("wdl chances outside 0..1000: {chances:?}"));
                }
                info.wdl = Some(chances);
                i += 3;
                continue;
            }
            "pv" => {
                let moves: Vec<String> = words[i..].iter().map(|s| s.to_string()).collect();
                if moves.is_empty() || moves.iter().any(|m| m.is_empty()) {
                    return Err("empty pv".into());
                }
                info.pv = Some(moves);
                break;
            }
            "string" => {
                info.string = Some(words[i..].join(" "));
                break;
            }
            other => return Err(format!("unknown info field '{other}'")),
        }
        i += 1;
    }
    Ok(info)
}

/// Checks one `info` line: well formed; an iteration report (one with a score)
/// has depth, seldepth, score, nodes, nps, hashfull, time and a pv; pv moves are
/// legal in sequence from `pos` and in `mode`'s notation.
#[track_caller]
pub fn check_info(eng: &Engine, pos: &Chess, line: &str, mode: CastlingMode) -> Info {
    check_info_opt(eng, pos, line, Some(mode))
}

/// Like `check_info`; `None` accepts either castling notation.
#[track_caller]
pub fn check_info_opt(eng: &Engine, pos: &Chess, line: &str, mode: Option<CastlingMode>) -> Info {
    let info = parse_info(line)
        .unwrap_or_else(|e| eng.fail(&format!("malformed info line {line:?}: {e}")));
    if info.string.is_some() && info.score.is_none() {
        return info;
    }
    // A position without a legal move: one line, depth 0, the result, no pv.
    if pos.legal_moves().is_empty() {
        let result = if pos.is_check() { "mate" } else { "cp" };
        let ok = info.depth == Some(0)
            && info.pv.is_none()
            && info
                .score
                .as_ref()
                .is_some_and(|(kind, n, _)| kind == result && *n == 0);
        if !ok {
            eng.fail(&format!(
                "a position without a legal move needs 'info depth 0 … score {result} 0', not {line:?}"
            ));
        }
        return info;
    }
    if info.score.is_some() {
        let fields = [
            ("depth", info.depth.is_some()),
            ("seldepth", info.seldepth.is_some()),
            ("nodes", info.nodes.is_some()),
            ("nps", info.nps.is_some()),
            ("hashfull", info.hashfull.is_some()),
            ("time", info.time.is_some()),
            ("pv", info.pv.is_some()),
        ];
        let missing: Vec<&str> = fields
            .iter()
            .filter(|(_, present)| !present)
            .map(|(name, _)| *name)
            .collect();
        if !missing.is_empty() {
            eng.fail(&format!("info line {line:?} lacks {}", missing.join(", ")));
        }
        if info.depth.unwrap() < 1 {
            eng.fail(&format!("info depth below 1: {line:?}"));
        }
        let h = info.hashfull.unwrap();
        if !(0..=1000).contains(&h) {
            eng.fail(&format!("hashfull outside 0..1000: {line:?}"));
        }
    }
    if let Some(pv) = &info.pv {
        let mut p = pos.clone();
        for (i, text) in pv.iter().enumerate() {
            match parse_engine_move_opt(&p, text, mode) {
                Ok(m) => p.play_unchecked(m),
                Err(e) => eng.fail(&format!("pv move {} of {line:?}: {e}", i + 1)),
            }
        }
    }
    info
}

/// True when the side to move can force mate within `n` of its moves.
pub fn forces_mate_within(pos: &Chess, n: u32) -> bool {
    pos.legal_moves()
        .iter()
        .any(|&m| mates_within_after(pos, m, n))
}

/// True when playing `m` in `pos` forces mate within `n` moves (counting `m`).
pub fn mates_within_after(pos: &Chess, m: Move, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        return true;
    }
    let replies = after.legal_moves();
    if replies.is_empty() || n == 1 {
        return false;
    }
    replies.iter().all(|&r| {
        let mut p = after.clone();
        p.play_unchecked(r);
        forces_mate_within(&p, n - 1)
    })
}

/// Perft with shakmaty's own counter, as the reference count.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

// ---------------------------------------------------------------------------
// Randomness.

/// splitmix64: tiny, seeded, reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// True with probability `num/den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
}
