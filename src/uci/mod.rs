//! The UCI front end: reads stdin on its own thread, answers on stdout.
//!
//! | command | reply |
//! | --- | --- |
//! | `uci` | `id name`, `id author`, the options, `uciok` |
//! | `isready` | `readyok` (at once while searching; when idle, after freeing an old table) |
//! | `setoption name N [value V]` | nothing, or `info string error: …` (`SyzygyPath`: what was loaded) |
//! | `ucinewgame` | nothing (clears the table) |
//! | `position startpos\|fen F [moves …]` | nothing, or an error (and no position until a valid one) |
//! | `go …` | `info …` lines, then exactly one `bestmove` |
//! | `go perft N` | Stockfish-style divide and `Nodes searched: N` |
//! | `stop`, `ponderhit`, `quit`, `debug on\|off`, `register` | |
//! | `d`, `eval`, `bench [depth]` | non-standard: board, evaluation, benchmark |
//! | `help` | non-standard: the commands understood, as `info string` lines |
//!
//! `go perft` and `bench` run on a thread of their own like a search: `isready` is
//! answered meanwhile, and `stop`, another `go` (perft or not), `bench`, `quit` or the
//! end of input end them, as they end a search. One that is stopped prints nothing
//! more: the divide lines or bench positions finished before stay, the total never
//! comes (a partial total would read as a wrong count).
//!
//! stdout carries protocol only, one flushed line at a time (`send`); diagnostics
//! go to stderr through `log`. The `Debug Log File` option copies both directions of
//! the conversation to a file (`debug_log`).

mod command;
mod debug_log;
mod game;
mod opponent;
pub(crate) mod options;
mod words;

use crate::engine::{Engine, SearchEvent, Stopper};
use crate::score::{self, MAX_PLY};
use crate::search::strength::Strength;
use crate::search::{Limits, Report, ScoreBound, params::MAX_DEPTH};
use crate::time::Clock;
use crate::wdl;
use command::{Command, GoParams, OnArrival};
use debug_log::Direction;
use options::{OptionEffect, Options};
use shakmaty::{CastlingMode, Color, EnPassantMode, Move, Position};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

pub const ENGINE_NAME: &str = "Tabas";
pub const ENGINE_AUTHOR: &str = "the Tabas developers";

pub use crate::version;

/// `help`'s answer, each line sent as `info string …` (stdout carries protocol only):
/// every command `command::parse` understands.
pub const HELP: &[&str] = &[
    "Tabas understands the UCI protocol and a few extensions:",
    "uci: identify (id name, id author), list the options, uciok",
    "debug on|off: more info strings (nodes and depth of each search)",
    "isready: readyok when ready (answered during a search too)",
    "setoption name <id> [value <x>]: set an option (uci lists them)",
    "register: accepted, nothing to register",
    "ucinewgame: a new game (clears the hash table)",
    "position startpos|fen <FEN> [moves <m1> ...]: set the position",
    "go [searchmoves <m1> ...] [ponder] [wtime <ms>] [btime <ms>] [winc <ms>] [binc <ms>] [movestogo <n>] [depth <n>] [nodes <n>] [mate <n>] [movetime <ms>] [infinite]: search, then bestmove",
    "stop: end the search now (bestmove follows)",
    "ponderhit: the move pondered on was played; the search goes on by the clock",
    "quit: end the engine",
    "Extensions:",
    "go perft <depth>: count leaf nodes, move by move (divide), then Nodes searched",
    "bench [depth]: search the fixed benchmark positions, then <N> nodes <M> nps",
    "d: show the board, its FEN and its key",
    "eval: the static evaluation of the position, side to move's view",
    "genfens <N> seed <S> book <None|FILE>: N random openings as info string genfens <FEN> (OpenBench)",
    "help: this list",
];

/// Writes one protocol line to stdout and flushes it. A closed stdout is ignored
/// (the GUI is gone; nothing useful is left to do but exit at end of input).
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Logged first, under stdout's lock: the debug log keeps stdout's order, and the
    // GUI's answer to a line never comes before the line in it.
    debug_log::record(Direction::Out, line);
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn send_error(e: impl std::fmt::Display) {
    log::warn!("{e}");
    send(&format!("info string error: {e}"));
}

/// Input that works but is not what the client probably meant.
fn send_warning(e: impl std::fmt::Display) {
    log::warn!("{e}");
    send(&format!("info string warning: {e}"));
}

/// Runs the UCI loop until `quit` or end of input. `dev_options`: list the
/// `Debug_*` switches in the `uci` reply (for match runners that only set listed options).
pub fn run(dev_options: bool) {
    let mut session = Session {
        dev_options,
        ..Session::default()
    };
    let (tx, rx) = mpsc::channel::<Option<String>>();
    let reader = Reader {
        stopper: session.engine.stopper(),
        handled: Arc::new(AtomicU64::new(0)),
    };
    let handled = Arc::clone(&reader.handled);
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || reader.read_lines(tx))
        .expect("spawn stdin reader");
    while let Ok(Some(line)) = rx.recv() {
        let go_on = session.handle(&line);
        handled.fetch_add(1, Ordering::Release);
        if !go_on {
            break;
        }
    }
    session.engine.stop();
    debug_log::close();
}

/// `tabas "LINE" …`: each command-line argument is one line of input, handled in order
/// by one session as if typed by someone who waits for each answer (a search, `go
/// perft` or `bench` ends before the next line is read; `go infinite` and `go ponder`
/// wait for a `stop` line), then the engine exits: at `quit` or after the last line.
/// Stockfish's convention: `tabas "genfens 10 seed 1 book None" quit` (OpenBench),
/// `tabas "go perft 5" quit`.
pub fn run_lines(lines: &[String], dev_options: bool) {
    let mut session = Session {
        dev_options,
        ..Session::default()
    };
    for line in lines {
        if !session.handle(line) {
            break;
        }
        session.engine.wait_until_idle();
    }
    session.engine.stop();
    debug_log::close();
}

/// The stdin reader's view of the session.
struct Reader {
    /// Stops what the session runs.
    stopper: Stopper,
    /// Lines the session has handled.
    handled: Arc<AtomicU64>,
}

impl Reader {
    /// Reads stdin line by line (bytes that are not UTF-8 are replaced, not fatal), hands
    /// the lines to the session thread in order, and `None` at end of input.
    ///
    /// Some lines are acted on here as they arrive (see `command::on_arrival`):
    /// * `stop` and `quit` (and the end of input) raise the stop flag of what runs, so
    ///   that between the GUI and the search there is one wake-up, this thread's.
    /// * A `stop` that finds the session idle (every line before it handled, so the flag
    ///   raised is that of the search it means) is handed on only with the next line (or
    ///   at end of input), where the session waits for the search to end: until then the
    ///   session sleeps. Woken at once, it took the core of the search, or of the GUI
    ///   reading the `bestmove`, and on a busy machine that often cost a scheduler tick:
    ///   on two busy cores, p50 1.77 ms from `stop` to `bestmove`, against 0.06 ms with
    ///   the session left asleep (200 stops each, taken in turn). Stockfish reads stdin
    ///   on the thread that raises the flag, and nothing else of it wakes.
    /// * `setoption name Debug Log File` opens or closes the log, so that the lines read
    ///   after it are logged even when the session is still busy with earlier ones.
    fn read_lines(self, tx: mpsc::Sender<Option<String>>) {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::new();
        let mut sent: u64 = 0;
        let mut held_stop: Option<String> = None;
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    let action = command::on_arrival(&line);
                    let idle = self.handled.load(Ordering::Acquire) == sent;
                    act_on_arrival(&action, &line, &self.stopper);
                    // A stop held back goes first: the session sees the lines in order.
                    if let Some(stop) = held_stop.take() {
                        if tx.send(Some(stop)).is_err() {
                            return;
                        }
                        sent += 1;
                    }
                    if action == OnArrival::Stop && idle {
                        held_stop = Some(line);
                    } else {
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                        sent += 1;
                    }
                }
            }
        }
        self.stopper.stop();
        debug_log::record(Direction::Note, "end of input");
        if let Some(stop) = held_stop {
            let _ = tx.send(Some(stop));
        }
        let _ = tx.send(None);
    }
}

/// What the stdin reader does with a line before handing it on (see `read_lines`), and
/// the line's entry in the debug log. The line is logged before it is acted on, so that
/// what it causes comes after it in the log (a line that opens a log starts it).
fn act_on_arrival(action: &OnArrival, line: &str, stopper: &Stopper) {
    match action {
        OnArrival::Nothing => debug_log::record(Direction::In, line),
        OnArrival::Stop | OnArrival::Quit => {
            debug_log::record(Direction::In, line);
            stopper.stop();
        }
        OnArrival::DebugLog(None) => {
            debug_log::record(Direction::In, line);
            debug_log::close();
        }
        OnArrival::DebugLog(Some(path)) => {
            let opened = debug_log::open(path);
            debug_log::record(Direction::In, line);
            if let Err(e) = opened {
                send_error(e);
            }
        }
    }
}

#[derive(Default)]
struct Session {
    engine: Engine,
    options: Options,
    debug: bool,
    dev_options: bool,
    /// Searches started at a limited strength (each draws its move with its own seed).
    weakened_searches: u64,
    /// The `EvalFile` path whose network the engine holds (`None`: the built-in one).
    network_path: Option<String>,
    /// The evaluation the last search announced (`evaluation_line`): announced again
    /// only when it changes.
    announced_evaluation: Option<String>,
}

impl Session {
    /// Handles one line; false when the session should end.
    fn handle(&mut self, line: &str) -> bool {
        log::debug!("<< {}", line.trim_end());
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                if line.split_whitespace().next() == Some("position") {
                    // A `position` the client sent but that says nothing usable.
                    self.engine.reject_position(e.to_string());
                    send_error(format!("{e}; no position is set until a valid one arrives"));
                } else {
                    send_error(e);
                }
                return true;
            }
        };
        match command {
            Command::Uci => {
                send(&format!("id name {ENGINE_NAME} {}", version()));
                send(&format!("id author {ENGINE_AUTHOR}"));
                for line in options::declarations(self.dev_options) {
                    send(&line);
                }
                send("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.engine.settle();
                send("readyok");
            }
            Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                match game::read_game(&start, &moves, self.options.chess960) {
                    Ok(game) => {
                        self.engine.set_position(game.board, game.keys);
                        if let Some(warning) = game.warning {
                            send_warning(format!("position accepted, but {warning}"));
                        }
                    }
                    Err(e) => {
                        self.engine.reject_position(e.clone());
                        send_error(format!(
                            "position rejected: {e}; no position is set until a valid one arrives"
                        ));
                    }
                }
            }
            Command::Go(params) => self.go(params),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return false,
            Command::Display if self.refuse_without_position("d") => {}
            Command::Display => self.display(),
            Command::Eval if self.refuse_without_position("eval") => {}
            Command::Eval => self.explain_eval(),
            Command::Bench { depth } => self.bench(depth),
            Command::Help => {
                for line in HELP {
                    send(&format!("info string {line}"));
                }
            }
            Command::Genfens(line) => crate::genfens::run(&line, &mut |l| send(l)),
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(OptionEffect::None) => {}
            Ok(OptionEffect::ClearHash) => self.engine.clear_hash(),
            Ok(OptionEffect::SetThreads) => self.engine.set_threads(self.options.threads),
            Ok(OptionEffect::LoadTablebases(path)) => match self.engine.set_syzygy_path(&path) {
                Ok(tb) if tb.table_files() > 0 => send(&format!(
                    "info string Syzygy: {} table files, up to {} pieces",
                    tb.table_files(),
                    tb.max_pieces()
                )),
                Ok(_) => {}
                Err(e) => send_error(format!("{e}; keeping the previous tables")),
            },
            Ok(OptionEffect::TablebaseConfig) => self.engine.set_syzygy_config(self.options.syzygy),
            Ok(OptionEffect::Evaluation) => {
                self.engine.use_network(self.options.use_nnue);
                if self.options.use_nnue && self.engine.network().is_none() {
                    send(
                        "info string Use NNUE: no network (this build has none built in; set EvalFile), so the hand-written evaluation plays",
                    );
                }
            }
            Ok(OptionEffect::Opponent) => match &self.options.opponent {
                Some(o) => log::info!(
                    "UCI_Opponent: {} {} {}, rating {} (noted; play does not depend on it)",
                    o.title.as_deref().unwrap_or("untitled"),
                    if o.computer { "computer" } else { "human" },
                    o.name,
                    o.elo.map_or("unknown".to_string(), |e| e.to_string())
                ),
                None => log::info!("UCI_Opponent: none"),
            },
            Ok(OptionEffect::LoadNetwork(None)) => {
                self.engine.set_network_file(None);
                self.network_path = None;
            }
            Ok(OptionEffect::LoadNetwork(Some(path))) => match crate::nnue::load_file(&path) {
                Ok(net) => {
                    self.engine.set_network_file(Some(net));
                    self.network_path = Some(path.clone());
                    send(&format!("info string EvalFile: loaded '{path}'"));
                }
                Err(e) => send_error(format!("EvalFile {e}; keeping the previous network")),
            },
            Ok(OptionEffect::ResizeHash) => {
                if !self.engine.set_hash(self.options.hash_mb) {
                    send_error(format!(
                        "could not allocate {} MB for Hash; keeping {} MB",
                        self.options.hash_mb,
                        self.engine.hash_mb()
                    ));
                    self.options.hash_mb = self.engine.hash_mb().max(1);
                }
            }
            Err(e) => send_error(e),
        }
    }

    /// After a rejected `position` there is no position: `command` answers with an
    /// error (true) instead of working on the previous one.
    fn refuse_without_position(&self, command: &str) -> bool {
        match self.engine.position_error() {
            Some(e) => {
                send_error(format!(
                    "{command}: no position, the last 'position' was rejected ({e})"
                ));
                true
            }
            None => false,
        }
    }

    fn go(&mut self, params: GoParams) {
        if self.refuse_without_position("go") {
            if params.perft.is_none() {
                // A search that runs would answer first: stop it, then answer this `go`.
                self.engine.stop();
                send("bestmove (none)");
            }
            return;
        }
        // One line for all the problems of one `go`, however long the input was.
        const MAX_WARNINGS: usize = 5;
        if !params.warnings.is_empty() {
            let mut text = params.warnings[..params.warnings.len().min(MAX_WARNINGS)].join("; ");
            if params.warnings.len() > MAX_WARNINGS {
                text.push_str(&format!(
                    "; and {} more",
                    params.warnings.len() - MAX_WARNINGS
                ));
            }
            send_error(text);
        }
        if let Some(depth) = params.perft {
            self.perft(depth.clamp(0, 20) as u32);
            return;
        }
        let evaluation = evaluation_line(self.engine.network(), self.network_path.as_deref());
        if self.announced_evaluation.as_ref() != Some(&evaluation) {
            send(&evaluation);
            self.announced_evaluation = Some(evaluation);
        }
        let limits = self.limits(&params);
        let mode = CastlingMode::from_chess960(self.options.chess960);
        let debug = self.debug;
        // The score is the root's, so the WDL model reads the root position.
        let wdl = self
            .options
            .show_wdl
            .then(|| wdl::Input::of(self.engine.board().chess()));
        let sink = Box::new(move |event: SearchEvent| match event {
            SearchEvent::Info(report) => send(&format_info(&report, mode, wdl)),
            SearchEvent::CurrentMove(c) => send(&format!(
                "info depth {} currmove {} currmovenumber {}",
                c.depth,
                c.mv.to_uci(mode),
                c.number
            )),
            SearchEvent::BestMove(result) => {
                if debug {
                    send(&format!(
                        "info string searched {} nodes to depth {}",
                        result.nodes, result.depth
                    ));
                }
                send(&format_bestmove(result.best, result.ponder, mode));
            }
        });
        self.engine.go(
            limits,
            self.options.search,
            self.options.move_overhead_ms,
            sink,
        );
    }

    /// The seed of a limited strength's choice for the next search: `Strength Seed`
    /// (0: a number of this process's own, from the clock) mixed with the position
    /// and the count of such searches, so that games do not repeat themselves, while
    /// a test with a fixed seed replays the same moves.
    fn next_strength_seed(&mut self) -> u64 {
        self.weakened_searches += 1;
        let base = match self.options.strength_seed {
            0 => process_seed(),
            seed => seed,
        };
        base ^ self.engine.board().key().rotate_left(23)
            ^ self.weakened_searches.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Search limits from `go` parameters: absurd numbers are clamped, never trusted.
    fn limits(&mut self, p: &GoParams) -> Limits {
        let strength = self.options.strength_elo().map(|elo| Strength {
            elo,
            seed: self.next_strength_seed(),
        });
        let pos = self.engine.board().chess();
        let nonneg = |v: Option<i64>| v.map(|x| x.max(0) as u64);
        let (time_left, increment) = match pos.turn() {
            Color::White => (nonneg(p.wtime), nonneg(p.winc)),
            Color::Black => (nonneg(p.btime), nonneg(p.binc)),
        };
        let mut searchmoves = Vec::new();
        for text in &p.searchmoves {
            match game::parse_move(pos, text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => send_error(format!("searchmoves '{text}': {e}; ignored")),
            }
        }
        let mut limits = Limits {
            depth: p.depth.map(|d| d.clamp(1, MAX_DEPTH as i64) as i32),
            nodes: None,
            soft_nodes: None,
            managed_soft_nodes: false,
            mate: p.mate.map(|m| m.clamp(1, MAX_PLY as i64 / 2) as u32),
            clock: Clock {
                time_left,
                increment: increment.unwrap_or(0),
                moves_to_go: p.movestogo.filter(|&m| m > 0).map(|m| m.min(1000) as u32),
                movetime: nonneg(p.movetime),
            },
            infinite: p.infinite,
            ponder: p.ponder,
            searchmoves,
            multipv: self.options.multipv,
            strength,
        };
        if let Some(n) = p.nodes {
            self.options.nodes_mode.apply(&mut limits, n.max(1) as u64);
        }
        limits
    }

    /// Like a `go`, a `go perft` or `bench` ends whatever runs before it starts.
    fn perft(&mut self, depth: u32) {
        let pos = self.engine.board().chess().clone();
        let mode = CastlingMode::from_chess960(self.options.chess960);
        self.engine.run_job("perft", move |control| {
            let start = std::time::Instant::now();
            let stop = || control.is_stopped();
            match crate::perft::print_divide(&pos, depth, mode, &stop, &mut |l| send(l)) {
                Some(_) => log::debug!("perft {depth}: {:?}", start.elapsed()),
                None => log::info!("perft {depth} stopped after {:?}", start.elapsed()),
            }
        });
    }

    /// `bench` with the options set: the evaluation (`Use NNUE`, `EvalFile`) and the
    /// `Debug_` switches. `tabas bench` on the command line always uses the defaults.
    fn bench(&mut self, depth: Option<i64>) {
        let depth = depth.map_or(crate::bench::DEFAULT_DEPTH, |d| {
            d.clamp(1, MAX_DEPTH as i64) as i32
        });
        let config = self.options.search;
        let network = self.engine.network();
        self.engine.run_job("bench", move |control| {
            let done = crate::bench::run_until(depth, config, network, control, &mut |l| send(l));
            if done.is_none() {
                log::info!("bench {depth} stopped");
            }
        });
    }

    /// `eval`: the hand-written evaluation term by term, the network's view of each
    /// piece (when a network evaluates), and last the score the search starts from.
    fn explain_eval(&self) {
        use crate::eval::explain;
        let pos = self.engine.board().chess();
        let (terms, phase) = explain::terms(pos);
        send(&format!(
            "info string the hand-written evaluation, White's view in centipawns \
             (phase {phase} of {}: midgame and endgame blended by it):",
            crate::eval::MAX_PHASE
        ));
        send(&format!(
            "info string {:<20} {:>8} {:>8} {:>8}",
            "term", "midgame", "endgame", "blended"
        ));
        for t in terms.iter().filter(|t| t.midgame != 0 || t.endgame != 0) {
            send(&format!(
                "info string {:<20} {:>8} {:>8} {:>8}",
                t.name, t.midgame, t.endgame, t.blended
            ));
        }
        send(&format!(
            "info string {:<20} {:>26}",
            "tempo (side to move)",
            crate::eval::TEMPO
        ));
        send(&format!(
            "info string {:<20} {:>26}",
            "total (side to move)",
            explain::total(&terms, phase, pos.turn())
        ));
        if let Some(net) = self.engine.network() {
            send(
                "info string the network: what each piece is worth to it, White's view in \
                 centipawns (its score with the piece minus its score without it):",
            );
            let values = explain::piece_values(net, pos);
            for rank in shakmaty::Rank::ALL.iter().rev() {
                let mut row = format!("info string {} ", rank.char());
                for file in shakmaty::File::ALL {
                    let square = shakmaty::Square::from_coords(file, *rank);
                    let cell = match (
                        values.iter().find(|v| v.0 == square),
                        pos.board().piece_at(square),
                    ) {
                        (Some((_, piece, value)), _) => format!("{}{value:+}", piece.char()),
                        (None, Some(king)) => king.char().to_string(),
                        (None, None) => ".".to_string(),
                    };
                    row.push_str(&format!(" {cell:>6}"));
                }
                send(&row);
            }
            send(&format!(
                "info string the network's score: {:+} for White",
                explain::network_white_score(net, pos.board(), pos.turn())
            ));
        }
        let eval = self.engine.evaluate();
        send(&format!(
            "info string eval {eval} cp (side to move; the internal scale of the lines \
             above, shown by `go` as cp {})",
            wdl::normalised_cp(eval)
        ));
    }

    fn display(&self) {
        let board = self.engine.board();
        let pos = board.chess();
        send(" +---+---+---+---+---+---+---+---+");
        for rank in shakmaty::Rank::ALL.iter().rev() {
            let mut line = String::from(" |");
            for file in shakmaty::File::ALL {
                let c = pos
                    .board()
                    .piece_at(shakmaty::Square::from_coords(file, *rank))
                    .map_or(' ', |p| p.char());
                line.push_str(&format!(" {c} |"));
            }
            line.push_str(&format!(" {}", rank.char()));
            send(&line);
            send(" +---+---+---+---+---+---+---+---+");
        }
        send("   a   b   c   d   e   f   g   h");
        send("");
        send(&format!(
            "Fen: {}",
            shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal)
        ));
        send(&format!("Key: {:016X}", board.key()));
        let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
        send(&format!("Checkers: {}", checkers.join(" ")));
    }
}

/// A number of this process's own, the same for all its searches: the clock at its
/// first use and the process id.
fn process_seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        nanos ^ u64::from(std::process::id()).rotate_left(32)
    })
}

/// `info depth … score … pv …` for one report; with `wdl` (`UCI_ShowWDL`), the
/// score's bound is followed by ` wdl W D L`, the model's chances for the side to
/// move at the root (`crate::wdl`). Stockfish writes `wdl` before the bound;
/// after it, python-chess still reads the bound (it looks for it right after the
/// score) and reads `wdl` too.
pub fn format_info(r: &Report, mode: CastlingMode, wdl: Option<wdl::Input>) -> String {
    let ms = r.time.as_millis() as u64;
    // From microseconds: a line sent in its first millisecond (`time 0`) still gets a
    // real rate, not nodes × 1000.
    let micros = r.time.as_micros().max(1);
    let nps = (u128::from(r.nodes) * 1_000_000 / micros) as u64;
    let score = format_score(r.score);
    let bound = match r.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let wdl = wdl.map_or(String::new(), |input| {
        let c = wdl::wdl(r.score, input);
        format!(" wdl {} {} {}", c.win, c.draw, c.loss)
    });
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {} tbhits {} time {ms}",
        r.depth,
        r.seldepth.max(r.depth as usize),
        r.multipv.max(1),
        r.nodes,
        r.hashfull,
        r.tbhits
    );
    if !r.pv.is_empty() {
        line.push_str(" pv");
        for m in &r.pv {
            line.push(' ');
            line.push_str(&m.to_uci(mode).to_string());
        }
    }
    line
}

/// `mate N` for a mate in N moves, else `cp N`, normalised (`wdl::normalised_cp`:
/// 100 is a 50 % chance to win at the model's stated material); tablebase wins and
/// losses as `cp` too, as Stockfish shows them (a tablebase knows the result, not
/// the distance to mate).
fn format_score(score: score::Score) -> String {
    if score::is_mate(score) {
        format!("mate {}", score::mate_moves(score))
    } else {
        format!("cp {}", wdl::normalised_cp(score))
    }
}

/// The `info string` that names the evaluation a search uses, sent at the first
/// search and again whenever it changes (as Stockfish names its network): the
/// built-in network by its name (`nnue::embedded_name`), an `EvalFile` by its path.
fn evaluation_line(network: Option<&crate::nnue::Network>, path: Option<&str>) -> String {
    match (network, path) {
        (Some(net), path) => format!(
            "info string NNUE evaluation using {} ({} hidden units, {} output buckets)",
            path.map_or_else(
                || crate::nnue::embedded_name()
                    .unwrap_or("the built-in network")
                    .to_string(),
                crate::text::shorten
            ),
            crate::nnue::HIDDEN,
            net.output_buckets()
        ),
        (None, _) => "info string the hand-written evaluation (Use NNUE is false, or this \
                      build has no network)"
            .to_string(),
    }
}

/// `bestmove m [ponder p]`; `bestmove (none)` when there is no legal move (as
/// Stockfish: python-chess reads it as "no move", while `0000` is a null move to it).
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", b.to_uci(mode), p.to_uci(mode)),
        (Some(b), None) => format!("bestmove {}", b.to_uci(mode)),
        (None, _) => "bestmove (none)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn report(score: i32, bound: ScoreBound) -> Report {
        Report {
            multipv: 1,
            depth: 3,
            seldepth: 5,
            score,
            bound,
            nodes: 1000,
            time: Duration::from_millis(10),
            hashfull: 0,
            tbhits: 0,
            pv: Vec::new(),
            cutoffs: Default::default(),
        }
    }

    #[test]
    fn wdl_follows_the_score_and_its_bound_only_when_asked() {
        let mode = CastlingMode::Standard;
        let input = wdl::Input::of(&shakmaty::Chess::default());
        // Internal 35 is shown normalised.
        let cp = wdl::normalised_cp(35);
        let plain = format_info(&report(35, ScoreBound::Lower), mode, None);
        assert!(
            plain.contains(&format!(" score cp {cp} lowerbound nodes 1000 ")),
            "{plain}"
        );
        assert!(!plain.contains("wdl"));

        let c = wdl::wdl(35, input);
        let with = format_info(&report(35, ScoreBound::Lower), mode, Some(input));
        let expected = format!(
            " score cp {cp} lowerbound wdl {} {} {} nodes 1000 ",
            c.win, c.draw, c.loss
        );
        assert!(with.contains(&expected), "{with}");
        let exact = format_info(&report(35, ScoreBound::Exact), mode, Some(input));
        assert!(exact.contains(&format!(" score cp {cp} wdl ")), "{exact}");
        let mated = format_info(
            &report(score::mated_in(2), ScoreBound::Exact),
            mode,
            Some(input),
        );
        assert!(
            mated.contains(" score mate -1 wdl 0 0 1000 nodes "),
            "{mated}"
        );
    }

    #[test]
    fn nps_is_a_real_rate_even_within_the_first_millisecond() {
        let mode = CastlingMode::Standard;
        let mut r = report(0, ScoreBound::Exact);
        r.nodes = 300;
        r.time = Duration::from_micros(400);
        let line = format_info(&r, mode, None);
        assert!(line.contains(" nps 750000 "), "{line}");
        assert!(line.contains(" time 0"), "{line}");
        r.time = Duration::from_millis(10);
        r.nodes = 1000;
        assert!(format_info(&r, mode, None).contains(" nps 100000 "));
    }

    #[test]
    fn tablebase_scores_are_centipawns_and_mates_are_mates() {
        assert_eq!(format_score(37), format!("cp {}", wdl::normalised_cp(37)));
        let pawn = wdl::INTERNAL_PAWN.round() as score::Score;
        assert_eq!(format_score(pawn), "cp 100");
        assert_eq!(format_score(score::mate_in(3)), "mate 2");
        assert_eq!(format_score(score::mated_in(2)), "mate -1");
        let win = score::tb_win_in(5);
        assert_eq!(format_score(win), format!("cp {win}"));
        assert_eq!(format_score(-win), format!("cp -{win}"));
        assert_eq!(format_score(score::TB_WIN), format!("cp {}", score::TB_WIN));
    }
}
