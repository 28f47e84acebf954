//! UCI protocol tests against the real `tabas` binary, run as a child process.
//!
//! Every wait has a timeout and a failing wait panics with the transcript, so a
//! hung engine fails the test instead of hanging the suite. Unless a test says
//! otherwise, every stdout line is checked to be a protocol line (`id`, `option`,
//! `uciok`, `readyok`, `info`, `bestmove`) as it arrives, and every `go` is
//! checked to give exactly one `bestmove`, legal in the searched position, with
//! well-formed `info` lines whose pv moves are legal in sequence.
//!
//! Timing assertions are loose (seconds): the tests run in parallel on small machines.

mod common;

use common::*;
use shakmaty::{CastlingMode, Chess, Move, Position};
use std::time::{Duration, Instant};

const STD: CastlingMode = CastlingMode::Standard;
const C960: CastlingMode = CastlingMode::Chess960;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Both sides can castle both ways, nothing in between.
const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
/// The white king is checkmated (fool's mate).
const CHECKMATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// Black to move, not in check, no legal move.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// White mates in 2 (1.Ra6), not in 1.
const MATE_IN_2: &str = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
/// A Chess960 start-ish position (Shredder castling field).
const FRC: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
/// Chess960: king b1, rooks a1 and h1; both castlings are legal (b1h1, b1a1).
const FRC_OPEN: &str = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";

fn start() -> Chess {
    Chess::default()
}

fn ready_engine() -> Engine {
    let mut e = Engine::spawn();
    e.handshake();
    e.sync();
    e
}

/// A ready engine told that the GUI will send `go ponder` (the `Ponder` option on).
fn pondering_engine() -> Engine {
    let mut e = ready_engine();
    expect_silent(&mut e, "setoption name Ponder value true");
    e
}

/// The binary run with command-line `args` and no input; any output is accepted
/// as it arrives (the test checks it).
fn run_cli(args: &[&str]) -> Engine {
    let mut e = Engine::spawn_args(args);
    e.check = OutputCheck::Any;
    e.close_stdin();
    e
}

/// A move in standard notation.
fn uci(m: Move) -> String {
    m.to_uci(STD).to_string()
}

/// The move of a `bestmove` line (`None` for a malformed one).
fn played(r: &Searched) -> Option<&str> {
    r.best_line.split(' ').nth(1)
}

/// The moves of the last `pv` in `infos`.
fn last_pv(infos: &[String]) -> Option<Vec<&str>> {
    infos
        .iter()
        .rev()
        .find_map(|l| l.split(" pv ").nth(1))
        .map(|pv| pv.split(' ').collect())
}

/// The `position` command for `start` (None: the start position) after `moves`.
fn position_command(start: Option<&str>, moves: &[&str]) -> String {
    let mut cmd = match start {
        None => "position startpos".to_string(),
        Some(fen) => format!("position fen {fen}"),
    };
    if !moves.is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&moves.join(" "));
    }
    cmd
}

/// Sends the `position` command for `start` after `moves`; returns that position.
fn set_position(e: &mut Engine, start: Option<&str>, moves: &[&str]) -> Chess {
    e.send(&position_command(start, moves));
    position_after(start, moves)
}

/// Sends `cmd`; returns the lines that came before the `readyok` of an `isready`
/// sent after it.
#[track_caller]
fn answer(e: &mut Engine, cmd: &str) -> Vec<String> {
    e.send(cmd);
    e.sync()
}

/// Like `answer`, where the lines of `d` may come too.
#[track_caller]
fn answer_showing_board(e: &mut Engine, cmd: &str) -> Vec<String> {
    let old = e.check;
    e.check = OutputCheck::ProtocolOrDisplay;
    let lines = answer(e, cmd);
    e.check = old;
    lines
}

/// Lines in `lines` that are `info string error: …`.
fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Sends `cmd`, syncs, and fails unless an `info string error` line came.
#[track_caller]
fn expect_error(e: &mut Engine, cmd: &str) -> String {
    let lines = answer(e, cmd);
    match errors(&lines).first() {
        Some(l) => l.to_string(),
        None => e.fail(&format!("no 'info string error' line for {cmd:?}")),
    }
}

/// Sends `cmd`, syncs, and fails if anything at all was printed.
#[track_caller]
fn expect_silent(e: &mut Engine, cmd: &str) {
    let lines = answer(e, cmd);
    if !lines.is_empty() {
        e.fail(&format!("unexpected output for {cmd:?}: {lines:?}"));
    }
}

/// The `Fen: ` line of `d`, normalised through shakmaty.
#[track_caller]
fn displayed_fen(e: &mut Engine) -> String {
    let lines = answer_showing_board(e, "d");
    let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    if fens.len() != 1 {
        e.fail(&format!("d printed {} Fen lines", fens.len()));
    }
    fen_of(&parse_fen(&fens[0]["Fen: ".len()..]))
}

/// Fails unless `d` shows `want`; `what` names it in the failure message.
#[track_caller]
fn expect_shown(e: &mut Engine, want: &Chess, what: &str) {
    let want = fen_of(want);
    let got = displayed_fen(e);
    if got != want {
        e.fail(&format!("{what}: d says {got}, expected {want}"));
    }
}

/// Sends the `position` command for `start` after `moves`, which must be taken
/// silently and be what `d` shows; returns that position.
#[track_caller]
fn expect_position_taken(e: &mut Engine, start: Option<&str>, moves: &[&str]) -> Chess {
    let cmd = position_command(start, moves);
    expect_silent(e, &cmd);
    let pos = position_after(start, moves);
    expect_shown(e, &pos, &cmd);
    pos
}

/// Runs `f` and fails, naming `what`, if it took longer than `limit`; returns what
/// `f` returned.
#[track_caller]
fn timed<T>(e: &mut Engine, what: &str, limit: Duration, f: impl FnOnce(&mut Engine) -> T) -> T {
    let t = Instant::now();
    let result = f(e);
    let took = t.elapsed();
    if took > limit {
        e.fail(&format!("{what} took {took:?}, more than {limit:?}"));
    }
    result
}

/// Waits up to `PROMPT` for the engine to exit, and fails unless its status is 0;
/// `when` says when in the failure message.
#[track_caller]
fn expect_exit_0(e: &mut Engine, when: &str) {
    let status = e.wait_exit(PROMPT);
    if !status.success() {
        e.fail(&format!("status {status:?} {when}"));
    }
}

/// Sends `go`, a search that runs until told to end, and waits for its first
/// iteration; returns that `info depth` line.
#[track_caller]
fn start_search(e: &mut Engine, go: &str) -> String {
    e.send(go);
    e.expect_prefix("info depth", PROMPT)
}

/// Checks lines of a search of `pos` that must still be running: each is a valid
/// `info` line, and a `bestmove` fails the test, saying `ended`.
#[track_caller]
fn check_still_searching(e: &Engine, pos: &Chess, lines: &[String], ended: &str) {
    for l in lines {
        if l.starts_with("bestmove") {
            e.fail(ended);
        }
        check_info(e, pos, l, STD);
    }
}

/// Reads lines for `dur`, failing, saying `ended`, if a `bestmove` comes (the lines
/// are not checked otherwise).
#[track_caller]
fn no_bestmove_for(e: &mut Engine, dur: Duration, ended: &str) {
    for l in e.lines_for(dur) {
        if l.starts_with("bestmove") {
            e.fail(ended);
        }
    }
}

/// Sends `go` (a `go ponder …`) and checks, for `dur`, that it ponders on `pos`
/// without ending by itself.
#[track_caller]
fn ponder(e: &mut Engine, pos: &Chess, go: &str, dur: Duration) {
    e.send(go);
    let lines = e.lines_for(dur);
    let ended = "go ponder ended by itself (before stop or ponderhit)";
    check_still_searching(e, pos, &lines, ended);
}

/// Sends `ponderhit` and checks the search of `pos` that it ends.
#[track_caller]
fn ponderhit(e: &mut Engine, pos: &Chess) -> Searched {
    e.send("ponderhit");
    e.finish_checked(pos, STD, PROMPT)
}

/// Sends `stop` and checks the search of `pos` that it ends.
#[track_caller]
fn stop(e: &mut Engine, pos: &Chess) -> Searched {
    e.send("stop");
    e.finish_checked(pos, STD, PROMPT)
}

/// `go searchmoves {asked} depth 3` in `pos` (already sent) must play the move
/// asked, printed as `printed` in `mode`'s notation.
#[track_caller]
fn expect_searchmove_printed(
    e: &mut Engine,
    pos: &Chess,
    mode: CastlingMode,
    asked: &str,
    printed: &str,
) {
    let r = e.go_checked(
        &format!("go searchmoves {asked} depth 3"),
        pos,
        mode,
        PROMPT,
    );
    if played(&r) != Some(printed) {
        e.fail(&format!(
            "{mode:?} mode, searchmoves {asked}: expected bestmove {printed}, got {:?}",
            r.best_line
        ));
    }
}

/// Sends `cmd` (a `go perft`), accepting any output, and returns its lines up to
/// and including `Nodes searched: …`.
#[track_caller]
fn perft_output(e: &mut Engine, cmd: &str, timeout: Duration) -> Vec<String> {
    let old = e.check;
    e.check = OutputCheck::Any;
    e.send(cmd);
    let lines = e.collect_until("Nodes searched", timeout, |l| {
        l.starts_with("Nodes searched")
    });
    e.check = old;
    lines
}

#[test]
fn uci_handshake_lists_id_and_options() {
    let mut e = Engine::spawn();
    let lines = e.handshake();
    if lines.len() < 3 {
        e.fail("uci reply too short");
    }
    // `Tabas <version>`, and in a git checkout `-dev-<commit>` (see build.rs): the
    // commit is not known here, only its shape.
    let release = format!("id name Tabas {}", env!("CARGO_PKG_VERSION"));
    let dev_commit = lines[0]
        .strip_prefix(&release)
        .map(|rest| rest.strip_prefix("-dev-").unwrap_or(rest));
    let well_formed = match dev_commit {
        Some("") => lines[0] == release,
        Some(hex) => (4..=40).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => false,
    };
    if !well_formed {
        e.fail(&format!(
            "first line {:?}, expected {release:?} optionally followed by -dev-<commit>",
            lines[0]
        ));
    }
    if !lines[1].starts_with("id author ") || lines[1].trim().len() <= "id author".len() {
        e.fail(&format!(
            "second line {:?}, expected 'id author …'",
            lines[1]
        ));
    }
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    if options.len() + 3 != lines.len() {
        e.fail("the uci reply holds lines other than id, option and uciok");
    }
    let has = |pred: &dyn Fn(&str) -> bool| options.iter().any(|l| pred(l));
    type OptionCheck<'a> = (&'a str, &'a dyn Fn(&str) -> bool);
    let wanted: [OptionCheck; 11] = [
        ("Hash spin default 16 min 1 max 65536", &|l| {
            l == "option name Hash type spin default 16 min 1 max 65536"
        }),
        ("Threads spin", &|l| {
            l.starts_with("option name Threads type spin default 1 min 1 max ")
        }),
        ("Move Overhead spin", &|l| {
            l.starts_with("option name Move Overhead type spin default ")
        }),
        ("Clear Hash button", &|l| {
            l == "option name Clear Hash type button"
        }),
        ("Ponder check", &|l| {
            l.starts_with("option name Ponder type check default ")
        }),
        ("UCI_Chess960 check default false", &|l| {
            l == "option name UCI_Chess960 type check default false"
        }),
        ("SyzygyPath string default <empty>", &|l| {
            l == "option name SyzygyPath type string default <empty>"
        }),
        ("SyzygyProbeDepth spin 1..100", &|l| {
            l == "option name SyzygyProbeDepth type spin default 1 min 1 max 100"
        }),
        ("Syzygy50MoveRule check default true", &|l| {
            l == "option name Syzygy50MoveRule type check default true"
        }),
        ("SyzygyProbeLimit spin 0..7", &|l| {
            l == "option name SyzygyProbeLimit type spin default 7 min 0 max 7"
        }),
        ("Debug Log File string", &|l| {
            l.starts_with("option name Debug Log File type string default")
        }),
    ];
    for (what, pred) in wanted {
        if !has(pred) {
            e.fail(&format!("no option line for {what}"));
        }
    }
    e.sync();
    e.quit();
}

#[test]
fn isready_is_answered_during_go_infinite() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &[]);
    let first = start_search(&mut e, "go infinite");
    check_info(&e, &pos, &first, STD);
    let before = timed(
        &mut e,
        "readyok during go infinite",
        Duration::from_secs(5),
        Engine::sync,
    );
    check_still_searching(&e, &pos, &before, "bestmove during go infinite before stop");
    let lines = e.lines_for(Duration::from_secs(1));
    check_still_searching(&e, &pos, &lines, "go infinite ended by itself");
    stop(&mut e, &pos);
    // A stop with no search running prints nothing.
    expect_silent(&mut e, "stop");
    e.quit();
}

/// `stop` is acted on by the input thread as it arrives; whether the session has got
/// to the `go` before it or not, every `go` gets its one bestmove, with no other line
/// needed to bring it out.
#[test]
fn stop_right_after_go_always_gets_its_bestmove() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &["d2d4"]);
    for i in 0..60 {
        let go = match i % 3 {
            0 => "go infinite",
            1 => "go ponder wtime 1000 btime 1000",
            _ => "go depth 40",
        };
        // Both lines in one write: the stop may arrive before the session reads the go.
        if i % 2 == 0 {
            e.send_bytes(format!("{go}\nstop\n").as_bytes());
        } else {
            e.send(go);
            std::thread::sleep(Duration::from_millis(i % 5));
            e.send("stop");
        }
        let (lines, best) = e.wait_bestmove(PROMPT);
        for l in &lines {
            check_info(&e, &pos, l, STD);
        }
        check_bestmove(&e, &pos, &best, STD);
    }
    e.assert_no_extra_bestmove();
    e.quit();
}

#[test]
fn go_ponder_waits_for_stop() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &["e2e4"]);
    // A tiny clock: without pondering this search would end within milliseconds.
    ponder(
        &mut e,
        &pos,
        "go ponder wtime 1000 btime 1000",
        Duration::from_millis(1200),
    );
    stop(&mut e, &pos);
    e.quit();
}

#[test]
fn ponderhit_ends_the_search_within_the_clock() {
    let mut e = pondering_engine();
    let pos = set_position(&mut e, None, &["e2e4", "e7e5"]);
    ponder(
        &mut e,
        &pos,
        "go ponder wtime 3000 btime 3000 winc 0 binc 0",
        Duration::from_secs(1),
    );
    // 3 s on the clock: the move must come before it runs out.
    timed(
        &mut e,
        "the bestmove after ponderhit with 3 s on the clock",
        Duration::from_secs(3) + Duration::from_millis(500),
        |e| ponderhit(e, &pos),
    );
    expect_silent(&mut e, "ponderhit");
    e.quit();
}

#[test]
fn ponderhit_after_a_ponder_longer_than_the_move_time_moves_at_once() {
    let mut e = pondering_engine();
    let pos = set_position(&mut e, None, &["e2e4", "c7c5"]);
    // The time spent pondering counts: after 2.5 s on this very position, a search
    // allowed 2 s has had its time, and must not think 2 s more.
    ponder(
        &mut e,
        &pos,
        "go ponder movetime 2000",
        Duration::from_millis(2500),
    );
    timed(
        &mut e,
        "the bestmove after ponderhit, though the ponder search had its 2 s,",
        Duration::from_secs(1),
        |e| ponderhit(e, &pos),
    );
    e.quit();
}

/// GUIs such as Arena show the root move being searched: after the first 3 s, each
/// root move is announced as `info depth D currmove M currmovenumber N`; short
/// searches announce none.
#[test]
fn long_searches_announce_the_current_root_move() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &[]);
    e.send("go movetime 600");
    let (lines, _) = e.wait_bestmove(PROMPT);
    if let Some(l) = lines.iter().find(|l| l.contains("currmove")) {
        e.fail(&format!("a 0.6 s search announced a current move: {l:?}"));
    }
    // A root move is announced when its search starts after the 3 s. A timed search
    // may end before them (it starts no iteration it does not expect to finish: an
    // 8 s search once ended at 2.95 s), so this one is infinite and stopped once a
    // move was announced (or the 20 s are up, and the test fails).
    let started = Instant::now();
    e.send("go infinite");
    let mut lines = e.collect_until("a currmove line", LONG, |l| l.contains("currmove"));
    if started.elapsed() < Duration::from_secs(3) {
        e.fail("a current move was announced within the first 3 s");
    }
    e.send("stop");
    lines.extend(e.wait_bestmove(PROMPT).0);
    let announced: Vec<&String> = lines.iter().filter(|l| l.contains("currmove")).collect();
    let legal = pos.legal_moves();
    for l in announced {
        let words: Vec<&str> = l.split_whitespace().collect();
        let well_formed = words.len() == 7
            && words[..2] == ["info", "depth"]
            && words[2].parse::<i32>().is_ok_and(|d| d >= 1)
            && words[3] == "currmove"
            && legal.iter().any(|&m| uci(m) == words[4])
            && words[5] == "currmovenumber"
            && words[6]
                .parse::<usize>()
                .is_ok_and(|n| (1..=legal.len()).contains(&n));
        if !well_formed {
            e.fail(&format!("malformed current move line {l:?}"));
        }
    }
    e.quit();
}

/// python-chess (and lichess-bot through it) takes a move's score from the lines
/// that follow its last command: after `ponderhit`, the line of the move played comes
/// again before `bestmove` when the search showed none since.
#[test]
fn after_ponderhit_the_line_of_the_move_played_is_shown_again() {
    let mut e = pondering_engine();
    let pos = set_position(&mut e, None, &["e2e4", "c7c5"]);
    // The search is over (depth 4) long before the ponderhit, and waits for it.
    e.send("go ponder depth 4 wtime 60000 btime 60000");
    no_bestmove_for(
        &mut e,
        Duration::from_millis(1000),
        "go ponder ended by itself before ponderhit",
    );
    e.send("ponderhit");
    let (lines, best) = e.wait_bestmove(PROMPT);
    let played = best.split_whitespace().nth(1).unwrap_or("");
    let Some(line) = lines.iter().rev().find(|l| l.contains(" score ")) else {
        e.fail(&format!(
            "no line with a score between ponderhit and {best:?}"
        ));
    };
    check_info(&e, &pos, line, STD);
    if line
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split(' ').next())
        != Some(played)
    {
        e.fail(&format!(
            "the line after ponderhit {line:?} is not that of {best:?}"
        ));
    }
    e.quit();
}

/// A GUI's ponder cycle: our move comes with a ponder move; we ponder on it; the
/// opponent plays something else, so the GUI stops the ponder search (its move is
/// thrown away, but it must come, legal in the pondered position) and starts anew.
#[test]
fn a_missed_ponder_is_stopped_with_a_legal_move_and_play_goes_on() {
    let mut e = pondering_engine();
    let pos = set_position(&mut e, None, &[]);
    let r = e.go_checked("go depth 6", &pos, STD, PROMPT);
    let (Some(best), Some(ponder_move)) = (r.best.map(uci), r.ponder.map(uci)) else {
        e.fail("no ponder move after a depth-6 search of the start position");
    };
    let pondered = set_position(&mut e, None, &[&best, &ponder_move]);
    ponder(
        &mut e,
        &pondered,
        "go ponder wtime 1000 btime 1000 winc 10 binc 10",
        Duration::from_millis(300),
    );
    stop(&mut e, &pondered);
    // The opponent's actual reply: any other legal move.
    let other = position_after(None, &[&best])
        .legal_moves()
        .into_iter()
        .map(uci)
        .find(|m| *m != ponder_move)
        .unwrap();
    let actual = set_position(&mut e, None, &[&best, &other]);
    let go = "go wtime 1000 btime 1000 winc 10 binc 10";
    timed(
        &mut e,
        "a move on a 1 s clock",
        Duration::from_secs(2),
        |e| e.go_checked(go, &actual, STD, PROMPT),
    );
    e.quit();
}

#[test]
fn bestmove_carries_the_second_move_of_the_pv_as_ponder() {
    let mut e = ready_engine();
    let mut with_ponder = 0;
    for fen in [
        KIWIPETE,
        CASTLES,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/1p6/p1p2k2/P1P5/1P3K2/8/8 b - - 0 1",
    ] {
        let pos = set_position(&mut e, Some(fen), &[]);
        // A depth limit: the last iteration completes, so its pv is the answer.
        let r = e.go_checked("go depth 5", &pos, STD, LONG);
        let Some(pv) = last_pv(&r.infos) else {
            e.fail("no pv in the info lines");
        };
        if r.best.map(uci).as_deref() != pv.first().copied() {
            e.fail(&format!("bestmove is not the pv's first move: {pv:?}"));
        }
        if r.ponder.map(uci).as_deref() != pv.get(1).copied() {
            e.fail(&format!(
                "the ponder move is not the pv's second move: {pv:?}, {}",
                r.best_line
            ));
        }
        with_ponder += usize::from(r.ponder.is_some());
    }
    if with_ponder == 0 {
        e.fail("no search gave a ponder move");
    }
    e.quit();
}

#[test]
fn node_depth_and_movetime_limits_return_promptly() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &[]);
    for go in ["go nodes 1000", "go depth 1", "go movetime 100"] {
        let r = timed(&mut e, &format!("'{go}'"), Duration::from_secs(5), |e| {
            e.go_checked(go, &pos, STD, PROMPT)
        });
        if r.best.is_none() {
            e.fail("bestmove (none) from the start position");
        }
    }
    let r = e.go_checked("go depth 1", &pos, STD, PROMPT);
    if !r.infos.iter().any(|l| l.starts_with("info depth 1 ")) {
        e.fail("go depth 1 printed no depth-1 iteration");
    }
    e.quit();
}

/// `Debug_DatagenNodes` (a `--dev` option) reads `go nodes N` as `tabas datagen --nodes N`
/// does, so that a match can play datagen's searches: by default at most N nodes; `soft`
/// finishes the iteration that passes N (at most 4 N); `managed` scales that soft limit
/// as a clock's (at most 4 N). The last iteration's line shows the nodes spent.
#[test]
fn datagen_nodes_reads_go_nodes_as_datagen_does() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &["e2e4", "e7e5", "g1f3"]);
    for (mode, fewest, most) in [
        ("hard", 1, 3000),
        ("soft", 3001, 12000),
        ("managed", 1, 12000),
    ] {
        e.send(&format!("setoption name Debug_DatagenNodes value {mode}"));
        let r = e.go_checked("go nodes 3000", &pos, STD, PROMPT);
        let nodes = r
            .infos
            .iter()
            .rev()
            .filter(|l| l.starts_with("info depth"))
            .find_map(|l| check_info(&e, &pos, l, STD).nodes);
        match nodes {
            Some(n) if (fewest..=most).contains(&n) => {}
            other => e.fail(&format!(
                "{mode}: go nodes 3000 spent {other:?} nodes, not {fewest}..={most}"
            )),
        }
    }
    let error = expect_error(&mut e, "setoption name Debug_DatagenNodes value fixed");
    if !error.contains("hard, soft, managed") {
        e.fail(&format!("an unknown mode answered {error:?}"));
    }
    e.quit();
}

#[test]
fn clock_of_the_side_to_move_is_used() {
    let mut e = ready_engine();
    // White to move with 300 ms: must move fast even though black has ages.
    let pos = set_position(&mut e, None, &[]);
    timed(&mut e, "white with 300 ms", Duration::from_secs(4), |e| {
        e.go_checked(
            "go wtime 300 btime 100000000 winc 0 binc 0",
            &pos,
            STD,
            PROMPT,
        )
    });
    // Black to move with 300 ms.
    let pos = set_position(&mut e, None, &["e2e4"]);
    timed(&mut e, "black with 300 ms", Duration::from_secs(4), |e| {
        e.go_checked(
            "go wtime 100000000 btime 300 winc 0 binc 0",
            &pos,
            STD,
            PROMPT,
        )
    });
    // The usual shapes of a timed game.
    for go in [
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 2000 btime 2000 movestogo 10",
        "go btime 1500 wtime 1500 binc 100 winc 100 movestogo 1",
    ] {
        e.go_checked(go, &pos, STD, PROMPT);
    }
    e.quit();
}

#[test]
fn one_legal_move_is_played_after_one_iteration() {
    let mut e = ready_engine();
    // White: Kh1, only Kg1 is legal (the rook holds the second rank).
    let pos = set_position(&mut e, Some("k7/8/8/8/8/8/r7/7K w - - 0 1"), &[]);
    let r = e.go_checked("go wtime 60000 btime 60000", &pos, STD, PROMPT);
    if r.best.map(|m| m.to().to_string()) != Some("g1".to_string()) {
        e.fail("expected bestmove h1g1");
    }
    if r.infos.iter().any(|l| l.starts_with("info depth 2 ")) {
        e.fail("searched past depth 1 with one legal move and a clock");
    }
    e.quit();
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &[]);
    let r = e.go_checked("go searchmoves a2a3 b2b3 depth 5", &pos, STD, LONG);
    let best = played(&r).unwrap().to_string();
    if best != "a2a3" && best != "b2b3" {
        e.fail(&format!("searchmoves a2a3 b2b3 gave {best}"));
    }
    for l in &r.infos {
        if let Some(pv) = parse_info(l).unwrap().pv
            && pv[0] != "a2a3"
            && pv[0] != "b2b3"
        {
            e.fail(&format!("pv outside searchmoves: {l:?}"));
        }
    }
    // With a single move listed, that move is played.
    let r = e.go_checked("go depth 4 searchmoves h2h3", &pos, STD, LONG);
    if played(&r) != Some("h2h3") {
        e.fail(&format!("searchmoves h2h3 gave {:?}", r.best_line));
    }
    e.quit();
}

#[test]
fn go_mate_finds_a_mate_in_two() {
    let pos = parse_fen(MATE_IN_2);
    assert!(
        !forces_mate_within(&pos, 1),
        "test position has a mate in 1"
    );
    assert!(
        forces_mate_within(&pos, 2),
        "test position has no mate in 2"
    );
    let mut e = ready_engine();
    set_position(&mut e, Some(MATE_IN_2), &[]);
    let r = e.go_checked("go mate 2", &pos, STD, LONG);
    if !r.has_score("mate 2") {
        e.fail("go mate 2: no info line with 'score mate 2'");
    }
    let best = r.best.unwrap();
    if !mates_within_after(&pos, best, 2) {
        e.fail(&format!("{} does not force mate in 2", r.best_line));
    }
    e.quit();
}

#[test]
fn being_mated_is_a_negative_mate_score() {
    // Black must play Kg8, then Ra8 mates: black is mated in 1 (UCI: "mate -1").
    let mut e = ready_engine();
    let pos = set_position(&mut e, Some("7k/8/6K1/8/8/8/8/R7 b - - 0 1"), &[]);
    let r = e.go_checked("go depth 4", &pos, STD, LONG);
    if !r.has_score("mate -1") {
        e.fail("no info line with 'score mate -1' when mated in 1");
    }
    if played(&r) != Some("h8g8") {
        e.fail("the only legal move is h8g8");
    }
    e.quit();
}

/// Without a legal move: `info depth 0 score mate 0` (or `cp 0` when stalemated), then
/// `bestmove (none)`, whatever the limits.
#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = ready_engine();
    for (fen, what) in [(CHECKMATED, "checkmated"), (STALEMATE, "stalemated")] {
        let pos = parse_fen(fen);
        assert!(
            pos.legal_moves().is_empty(),
            "{what} test position has moves"
        );
        e.label = what.to_string();
        set_position(&mut e, Some(fen), &[]);
        for go in [
            "go depth 3",
            "go movetime 100",
            "go wtime 1000 btime 1000",
            "go nodes 100",
        ] {
            let r = e.go_checked(go, &pos, STD, PROMPT);
            if r.best_line != "bestmove (none)" {
                e.fail(&format!("{what}: {go} gave {:?}", r.best_line));
            }
            // The result comes first, as Stockfish gives it (GUIs show it); the only
            // other info line is the name of the evaluation, at the first search.
            let result = if pos.is_check() { "mate 0" } else { "cp 0" };
            let results = r.infos.iter().filter(|l| !l.starts_with("info string"));
            if results.count() != 1 || !r.has_score(result) {
                e.fail(&format!(
                    "{what}: {go} showed {:?}, not one 'score {result}' line",
                    r.infos
                ));
            }
        }
        // go infinite still waits for stop.
        e.send("go infinite");
        no_bestmove_for(
            &mut e,
            Duration::from_millis(500),
            &format!("{what}: go infinite ended by itself"),
        );
        let r = stop(&mut e, &pos);
        if r.best_line != "bestmove (none)" {
            e.fail(&format!(
                "{what}: go infinite + stop gave {:?}",
                r.best_line
            ));
        }
    }
    e.quit();
}

#[test]
fn go_during_a_search_stops_it_and_starts_a_new_one() {
    let mut e = ready_engine();
    let old = set_position(&mut e, None, &[]);
    start_search(&mut e, "go infinite");
    // New position and a new go while searching: the old search gets one bestmove
    // (for the start position), the new one another (for the new position).
    let pos = set_position(&mut e, None, &["e2e4", "c7c5"]);
    e.send("go depth 4");
    let (lines, first) = e.wait_bestmove(PROMPT);
    // Info lines before the first bestmove belong to the old search.
    for l in lines.iter().filter(|l| l.starts_with("info")) {
        check_info(&e, &old, l, STD);
    }
    check_bestmove(&e, &old, &first, STD);
    e.finish_checked(&pos, STD, LONG);
    // Same again with a finite search as the old one.
    start_search(&mut e, "go depth 60");
    e.send("go nodes 2000");
    let (_, first) = e.wait_bestmove(PROMPT);
    check_bestmove(&e, &pos, &first, STD);
    e.finish_checked(&pos, STD, PROMPT);
    e.quit();
}

#[test]
fn quit_during_go_infinite_exits_with_status_0() {
    let mut e = ready_engine();
    e.send("position startpos");
    start_search(&mut e, "go infinite");
    e.send("quit");
    timed(&mut e, "quit", Duration::from_secs(3), |e| {
        expect_exit_0(e, "after quit")
    });
}

#[test]
fn end_of_input_exits_with_status_0() {
    // Idle.
    let mut e = ready_engine();
    e.close_stdin();
    expect_exit_0(&mut e, "at end of input");
    // Without even a handshake.
    let mut e = Engine::spawn();
    e.close_stdin();
    expect_exit_0(&mut e, "at end of input");
    // During go infinite.
    let mut e = ready_engine();
    start_search(&mut e, "go infinite");
    e.close_stdin();
    expect_exit_0(&mut e, "at end of input during a search");
}

#[test]
fn info_lines_are_complete_and_their_pvs_legal() {
    let mut e = ready_engine();
    for (fen, depth) in [(None, 7), (Some(KIWIPETE), 6), (Some(MATE_IN_2), 5)] {
        let pos = set_position(&mut e, fen, &[]);
        let r = e.go_checked(&format!("go depth {depth}"), &pos, STD, LONG);
        // Every iteration 1..=depth is reported.
        for d in 1..=depth {
            let done = r.infos.iter().any(|l| {
                let i = parse_info(l).unwrap();
                i.depth == Some(d) && i.score.is_some()
            });
            if !done {
                e.fail(&format!(
                    "{fen:?}: no info line with a score for depth {d} of go depth {depth}"
                ));
            }
        }
    }
    e.quit();
}

#[test]
fn stdout_carries_protocol_lines_only() {
    // Every line is checked as it arrives (OutputCheck::Protocol).
    let mut e = ready_engine();
    for cmd in [
        "debug on",
        "ucinewgame",
        "setoption name Hash value 8",
        "setoption name Clear Hash",
        "register later",
        "position startpos moves d2d4 d7d5 c2c4",
        "eval",
        "go depth 4",
        "debug off",
        "nonsense here",
        "go movetime 50",
        "ponderhit",
        "stop",
    ] {
        e.send(cmd);
    }
    e.wait_bestmove(PROMPT);
    e.wait_bestmove(PROMPT);
    e.sync();
    e.quit();
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = ready_engine();
    expect_silent(&mut e, "setoption name UCI_Chess960 value true");

    // Constructed: king b1, rooks a1/h1: b1h1 is O-O, b1a1 is O-O-O.
    let pos = set_position(&mut e, Some(FRC_OPEN), &[]);
    for mv in ["b1h1", "b1a1"] {
        expect_searchmove_printed(&mut e, &pos, C960, mv, mv);
    }
    // Unrestricted search: any castling in bestmove or pv is in 960 notation
    // (checked by go_checked with C960).
    e.go_checked("go depth 5", &pos, C960, LONG);

    // The position from the brief, after the f-rook steps aside: O-O is g1h1.
    let pos = set_position(&mut e, Some(FRC), &["f1f2", "a7a6"]);
    expect_searchmove_printed(&mut e, &pos, C960, "g1h1", "g1h1");
    e.go_checked("go depth 5", &pos, C960, LONG);
    // The castling move is accepted in a move list in 960 notation.
    let pos = set_position(&mut e, Some(FRC), &["f1f2", "a7a6", "g1h1"]);
    expect_shown(&mut e, &pos, "after g1h1");

    // A standard position in 960 mode: O-O prints as e1h1, whatever was asked.
    let pos = set_position(&mut e, Some(CASTLES), &[]);
    for (asked, printed) in [("e1g1", "e1h1"), ("e1h1", "e1h1"), ("e1a1", "e1a1")] {
        expect_searchmove_printed(&mut e, &pos, C960, asked, printed);
    }
    e.quit();
}

#[test]
fn standard_castling_prints_as_king_two_squares() {
    let mut e = ready_engine();
    expect_silent(&mut e, "setoption name UCI_Chess960 value false");
    let pos = set_position(&mut e, Some(CASTLES), &[]);
    for (asked, printed) in [
        ("e1g1", "e1g1"),
        ("e1h1", "e1g1"),
        ("e1c1", "e1c1"),
        ("e1a1", "e1c1"),
    ] {
        expect_searchmove_printed(&mut e, &pos, STD, asked, printed);
    }
    // Unrestricted: castling in bestmove/pv, if any, is in standard notation.
    e.go_checked("go depth 5", &pos, STD, LONG);
    let pos = set_position(&mut e, Some(KIWIPETE), &[]);
    e.go_checked("go depth 5", &pos, STD, LONG);
    e.quit();
}

#[test]
fn castling_moves_are_read_in_both_notations() {
    let mut e = ready_engine();
    let game = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    for chess960 in [false, true] {
        e.label = format!("UCI_Chess960 {chess960}");
        expect_silent(
            &mut e,
            &format!("setoption name UCI_Chess960 value {chess960}"),
        );
        for castle in ["e1g1", "e1h1"] {
            // From a FEN.
            expect_position_taken(&mut e, Some(CASTLES), &[castle]);
            // From the start position.
            let mut moves = game.to_vec();
            moves.push(castle);
            expect_position_taken(&mut e, None, &moves);
        }
        // Queen side too.
        for castle in ["e1c1", "e1a1"] {
            expect_position_taken(&mut e, Some(CASTLES), &[castle]);
        }
    }
    e.quit();
}

#[test]
fn unknown_command_is_reported_by_name() {
    let mut e = ready_engine();
    for (cmd, word) in [
        ("foo", "foo"),
        ("xyzzy 1 2", "xyzzy"),
        ("  blah   isready", "blah"),
    ] {
        let lines = answer(&mut e, cmd);
        let want = format!("info string error: unknown command '{word}'");
        if !lines.contains(&want) {
            e.fail(&format!("for {cmd:?} expected the line {want:?}"));
        }
    }
    e.quit();
}

/// Sends `cmd`, which must be rejected, then checks that there is no position: `d`
/// and `eval` answer an error, `go` an error and `bestmove (none)`.
#[track_caller]
fn expect_rejected_leaving_no_position(e: &mut Engine, cmd: &str) {
    expect_error(e, cmd);
    for query in ["d", "eval", "go perft 1"] {
        let lines = answer(e, query);
        if lines.len() != 1 || errors(&lines).len() != 1 {
            e.fail(&format!(
                "after the rejected {cmd:?}, {query:?} gave {lines:?}"
            ));
        }
    }
    for go in [
        "go depth 2",
        "go wtime 1000 btime 1000",
        "go infinite",
        "go ponder movetime 50",
    ] {
        e.send(go);
        let (lines, best) = e.wait_bestmove(PROMPT);
        if best != "bestmove (none)" || errors(&lines).len() != 1 {
            e.fail(&format!(
                "after the rejected {cmd:?}, {go:?} gave {lines:?} {best:?}"
            ));
        }
        e.assert_no_extra_bestmove();
    }
}

#[test]
fn a_rejected_position_leaves_no_position_until_a_valid_one() {
    let mut e = ready_engine();
    for cmd in [
        "position fen not/a/fen w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - zero 1",
        "position fen",
        "position",
        "position somewhere",
        "position startpos moves e2e5",
        "position startpos moves zz",
        "position startpos moves e7e5",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 e7e5 g1f3 zz",
        "position startpos moves e2e4 e7e5 e1g1",
        "position startpos moves e2e4 e7e5 a7a8q",
        "position startpos moves e2e4 e7e5 e2e4",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e8",
        "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        // The side not to move in check (the python-chess user's position).
        "position fen 8/8/8/4k3/8/8/8/B3K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        "position fen 4kk2/8/8/8/8/8/8/4K3 w - - 0 1",
        "position startpos moves e2e4 f7f6 d1h5 e8f7",
        "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8",
    ] {
        // Each from a valid position: the rejection is what takes it away.
        expect_silent(&mut e, "position startpos moves e2e4");
        expect_rejected_leaving_no_position(&mut e, cmd);
    }
    // A valid position brings searching back.
    let pos = expect_position_taken(&mut e, None, &["e2e4"]);
    let r = e.go_checked("go depth 2", &pos, STD, PROMPT);
    if r.best.is_none() {
        e.fail("bestmove (none) after e2e4");
    }
    // So does `ucinewgame` (the start position).
    expect_error(&mut e, "position fen 8/8/8/4k3/8/8/8/B3K3 w - - 0 1");
    expect_silent(&mut e, "ucinewgame");
    let r = e.go_checked("go depth 2", &start(), STD, PROMPT);
    if r.best.is_none() {
        e.fail("bestmove (none) after ucinewgame");
    }
    e.quit();
}

#[test]
fn a_go_running_when_a_position_is_rejected_answers_once_and_the_next_go_none() {
    let mut e = ready_engine();
    e.send("position startpos");
    e.send("go infinite");
    expect_error(&mut e, "position fen 8/8/8/4k3/8/8/8/B3K3 w - - 0 1");
    // The running search answers for its own position, then the new go for none.
    e.send("go depth 3");
    let (_, first) = e.wait_bestmove(PROMPT);
    if first == "bestmove (none)" {
        e.fail("the running search answered (none)");
    }
    let (_, second) = e.wait_bestmove(PROMPT);
    if second != "bestmove (none)" {
        e.fail(&format!("the go after a rejected position gave {second:?}"));
    }
    e.assert_no_extra_bestmove();
    e.quit();
}

#[test]
#[allow(clippy::result_large_err)] // shakmaty's own error, consumed where it is made
fn odd_but_playable_positions_are_searched_with_a_warning() {
    let mut e = ready_engine();
    for fen in [
        // Castling rights without their rook, an en-passant square no pawn takes on.
        "4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1",
        // Twelve white queens (more than a game can have).
        "QQQQQQQQ/QQQQ4/8/8/8/8/6pp/4K1nk w - - 0 1",
        // Three pieces give check.
        "4k3/8/3N1N2/8/8/8/4R3/4K3 b - - 0 1",
    ] {
        let lines = answer(&mut e, &format!("position fen {fen}"));
        if lines.len() != 1 || !lines[0].starts_with("info string warning: ") {
            e.fail(&format!("{fen}: expected one warning line, got {lines:?}"));
        }
        let pos = shakmaty::fen::Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position::<Chess>(STD)
            .or_else(|e| e.ignore_invalid_castling_rights())
            .or_else(|e| e.ignore_invalid_ep_square())
            .or_else(|e| e.ignore_too_much_material())
            .or_else(|e| e.ignore_impossible_check())
            .unwrap();
        let r = e.go_checked("go depth 6", &pos, STD, LONG);
        if r.best.is_none() {
            e.fail(&format!("{fen}: bestmove (none)"));
        }
    }
    e.quit();
}

#[test]
fn position_startpos_with_words_before_moves_is_an_error() {
    let mut e = ready_engine();
    expect_silent(&mut e, "position startpos moves d2d4");
    expect_rejected_leaving_no_position(&mut e, "position startpos e2e4");
    e.quit();
}

#[test]
fn setoption_errors_and_valid_options() {
    let mut e = ready_engine();
    for cmd in [
        "setoption name Hash value 0",
        "setoption name Hash value abc",
        "setoption name Hash value 65537",
        "setoption name Hash value -16",
        "setoption name Hash",
        "setoption name NoSuchOption value 1",
        "setoption name Threads value 0",
        "setoption name Move Overhead value lots",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Ponder value 1",
        "setoption Hash 32",
        "setoption name",
        "setoption",
    ] {
        expect_error(&mut e, cmd);
    }
    // Valid options: accepted silently.
    for cmd in [
        "setoption name Hash value 1",
        "setoption name Hash value 32",
        "setoption name hash value 16",
        "setoption name Threads value 1",
        "setoption name Move Overhead value 30",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name Ponder value false",
        "setoption name UCI_Chess960 value false",
    ] {
        expect_silent(&mut e, cmd);
    }
    // Options given during a search do not disturb it.
    let pos = set_position(&mut e, None, &[]);
    start_search(&mut e, "go infinite");
    e.send("setoption name Hash value 4");
    e.send("setoption name Clear Hash");
    let lines = answer(&mut e, "setoption name Hash value 0");
    if errors(&lines).len() != 1 {
        e.fail("expected exactly one error (Hash 0) for options during a search");
    }
    stop(&mut e, &pos);
    e.go_checked("go depth 3", &pos, STD, PROMPT);
    e.quit();
}

/// A file name under the temporary folder that no other test or run uses.
fn unique_temp_path(what: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir().join(format!("tabas-{what}-{}-{nanos}.log", std::process::id()))
}

/// `YYYY-MM-DD hh:mm:ss.mmm ` at the start of a debug log line.
fn has_timestamp(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() > 24
        && b[..24].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 | 23 => *c == b' ',
            13 | 16 => *c == b':',
            19 => *c == b'.',
            _ => c.is_ascii_digit(),
        })
}

#[test]
fn debug_log_file_records_both_directions_with_timestamps() {
    let path = unique_temp_path("debug-log");
    let file = path.to_str().expect("a UTF-8 temporary path").to_string();
    let mut e = ready_engine();
    expect_silent(
        &mut e,
        &format!("setoption name Debug Log File value {file}"),
    );
    let pos = set_position(&mut e, None, &["e2e4"]);
    let searched = e.go_checked("go depth 3", &pos, STD, PROMPT);
    // A file that cannot be opened: an error, and the log goes on where it was.
    let bad = std::env::temp_dir().join("tabas-no-such-folder/x/y.log");
    let error = expect_error(
        &mut e,
        &format!("setoption name Debug Log File value {}", bad.display()),
    );
    if !error.contains(&file) {
        e.fail(&format!(
            "the error does not say which log is kept: {error}"
        ));
    }
    expect_silent(&mut e, "setoption name Debug Log File value <empty>");
    // Not logged: the log is closed.
    answer(&mut e, "position startpos moves d2d4");
    // Opened again: appended to, and closed by an empty value.
    expect_silent(
        &mut e,
        &format!("setoption name Debug Log File value {file}"),
    );
    answer(&mut e, "eval");
    expect_silent(&mut e, "setoption name Debug Log File value");
    e.quit();

    let text = std::fs::read_to_string(&path).expect("the debug log was written");
    let _ = std::fs::remove_file(&path);
    let lines: Vec<&str> = text.lines().collect();
    let fail = |msg: &str| -> ! { panic!("{msg}\ndebug log:\n{text}") };
    if let Some(l) = lines.iter().find(|l| !has_timestamp(l)) {
        fail(&format!("a line without a timestamp: {l:?}"));
    }
    let logged = |mark: &str, line: &str| lines.iter().any(|l| l[24..] == format!("{mark} {line}"));
    for (mark, line) in [
        (">>", "position startpos moves e2e4"),
        (">>", "go depth 3"),
        ("<<", searched.best_line.as_str()),
        ("<<", searched.infos[0].as_str()),
        (">>", "isready"),
        ("<<", "readyok"),
        ("<<", error.as_str()),
        (">>", "eval"),
    ] {
        if !logged(mark, line) {
            fail(&format!("'{mark} {line}' is not in the debug log"));
        }
    }
    // In the order of cause and effect: what we sent after the bestmove comes after it.
    let at = |text: &str| lines.iter().position(|l| l.ends_with(text));
    let (best_at, next_at) = (at(&searched.best_line), at(&bad.display().to_string()));
    if !matches!((best_at, next_at), (Some(b), Some(n)) if b < n) {
        fail("the bestmove is logged after a command sent once it had come");
    }
    if lines.iter().any(|l| l.contains("d2d4")) {
        fail("a line sent while the log was closed is in it");
    }
    let opened = lines
        .iter()
        .filter(|l| l.ends_with("debug log opened"))
        .count();
    let closed = lines
        .iter()
        .filter(|l| l.ends_with("debug log closed"))
        .count();
    if (opened, closed) != (2, 2) {
        fail(&format!(
            "opened {opened} and closed {closed} times, expected 2 and 2"
        ));
    }
    // Times never go back (they are read under the log's lock).
    if lines.windows(2).any(|w| w[0][..23] > w[1][..23]) {
        fail("times go back");
    }
}

#[test]
fn syzygy_options_load_tables_or_say_why_not() {
    let mut e = ready_engine();
    let line = expect_error(&mut e, "setoption name SyzygyPath value /nonexistent");
    if !line.contains("/nonexistent") {
        e.fail(&format!("the error does not name the directory: {line:?}"));
    }
    // A directory without tables: this repository's sources.
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    expect_error(&mut e, &format!("setoption name SyzygyPath value {src}"));
    for cmd in [
        "setoption name SyzygyProbeDepth value 0",
        "setoption name SyzygyProbeDepth value 101",
        "setoption name SyzygyProbeLimit value 8",
        "setoption name SyzygyProbeLimit value -1",
        "setoption name Syzygy50MoveRule value maybe",
    ] {
        expect_error(&mut e, cmd);
    }
    for cmd in [
        "setoption name SyzygyPath value <empty>",
        "setoption name SyzygyPath value",
        "setoption name SyzygyProbeDepth value 1",
        "setoption name SyzygyProbeDepth value 100",
        "setoption name SyzygyProbeLimit value 0",
        "setoption name SyzygyProbeLimit value 7",
        "setoption name Syzygy50MoveRule value false",
        "setoption name Syzygy50MoveRule value true",
    ] {
        expect_silent(&mut e, cmd);
    }
    let Some(dir) = syzygy_dir() else {
        e.quit();
        return;
    };
    let lines = answer(
        &mut e,
        &format!("setoption name SyzygyPath value {}", dir.display()),
    );
    if !errors(&lines).is_empty() || lines.len() != 1 {
        e.fail(&format!(
            "valid SyzygyPath: expected one line, got {lines:?}"
        ));
    }
    if lines[0] != "info string Syzygy: 70 table files, up to 4 pieces" {
        e.fail(&format!("unexpected summary {:?}", lines[0]));
    }
    // A bad path afterwards is an error; the engine still searches tablebase
    // positions (KQvK) and moves legally.
    expect_error(&mut e, "setoption name SyzygyPath value /nonexistent");
    let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    expect_silent(&mut e, &format!("position fen {fen}"));
    e.go_checked("go depth 6", &parse_fen(fen), STD, PROMPT);
    expect_silent(&mut e, "setoption name SyzygyPath value <empty>");
    e.quit();
}

#[test]
fn absurd_go_numbers_still_give_a_legal_move() {
    let mut e = ready_engine();
    let black = position_after(None, &["e2e4"]);
    for (setup, pos) in [
        ("position startpos", start()),
        ("position startpos moves e2e4", black),
    ] {
        e.send(setup);
        e.label = setup.to_string();
        // These end by themselves.
        for go in [
            "go wtime -5 btime -5",
            "go wtime 0 btime 0",
            "go wtime 1 btime 1 movestogo 1",
            "go nodes 0",
            "go nodes -5",
            "go movetime 0",
            "go movetime -1",
            "go movestogo 0 wtime 100 btime 100",
            "go movestogo -3 wtime 500 btime 500",
            "go winc -100 binc -100 wtime 100 btime 100",
            "go wtime 100 btime 100 winc 99999999999999999999 binc 99999999999999999999 movetime 50",
            "go depth 0",
            "go depth -1",
            "go depth 2 nodes 99999999999999999999",
            "go nodes banana depth 2",
            "go depth 3 frobnicate 7",
        ] {
            e.go_checked(go, &pos, STD, PROMPT);
        }
        // These may run (nearly) forever: stop them after a moment.
        for go in [
            "go depth 10000",
            "go depth 99999999999999999999",
            "go wtime 99999999999999999999 btime 99999999999999999999",
            "go movetime 99999999999999999",
            "go movetime 9223372036854775807",
            "go wtime 100000000 btime 100000000 movestogo 99999999",
            "go mate 0",
            "go mate -1",
            "go mate 99999999999999",
            "go depth",
            "go",
        ] {
            e.send(go);
            let mut ended = false;
            for l in e.lines_for(Duration::from_millis(300)) {
                if l.starts_with("bestmove") {
                    // Ending early is allowed; the move must still be legal.
                    check_bestmove(&e, &pos, &l, STD);
                    ended = true;
                } else {
                    check_info(&e, &pos, &l, STD);
                }
            }
            if ended {
                e.assert_no_extra_bestmove();
                continue;
            }
            stop(&mut e, &pos);
        }
    }
    e.quit();
}

#[test]
fn go_perft_3_divides_the_start_position() {
    let mut e = ready_engine();
    e.send("position startpos");
    let lines = perft_output(&mut e, "go perft 3", LONG);
    e.sync();
    let n = lines.len();
    if n != 22 || !lines[20].is_empty() || lines[21] != "Nodes searched: 8902" {
        e.fail("expected 20 divide lines, a blank line and 'Nodes searched: 8902'");
    }
    let pos = start();
    let mut seen = Vec::new();
    for l in &lines[..20] {
        let (mv, count) = l
            .split_once(": ")
            .unwrap_or_else(|| e.fail(&format!("bad divide line {l:?}")));
        let m = parse_engine_move(&pos, mv, STD).unwrap_or_else(|err| e.fail(&err));
        let mut after = pos.clone();
        after.play_unchecked(m);
        if count.parse::<u64>().ok() != Some(perft(&after, 2)) {
            e.fail(&format!("divide line {l:?}: expected {}", perft(&after, 2)));
        }
        seen.push(mv.to_string());
    }
    seen.sort();
    seen.dedup();
    if seen.len() != 20 {
        e.fail("divide lines repeat a move");
    }
    e.quit();
}

#[test]
fn d_prints_board_fen_and_key() {
    let mut e = ready_engine();
    e.send("position startpos moves e2e4 c7c5 g1f3");
    let lines = answer_showing_board(&mut e, "d");
    let ranks = lines.iter().filter(|l| l.starts_with(" | ")).count();
    if ranks != 8 {
        e.fail(&format!("d printed {ranks} board ranks"));
    }
    let want = fen_of(&position_after(None, &["e2e4", "c7c5", "g1f3"]));
    let fen = lines.iter().find(|l| l.starts_with("Fen: "));
    if fen.map(|l| &l["Fen: ".len()..]) != Some(want.as_str()) {
        e.fail(&format!("expected 'Fen: {want}'"));
    }
    let key = lines.iter().find(|l| l.starts_with("Key: "));
    if key.is_none_or(|k| k.len() <= "Key: ".len()) {
        e.fail("no 'Key: …' line");
    }
    // The key identifies the position: the same position by transposition has the
    // same key, another position another key.
    let key = key.unwrap().clone();
    e.send("position startpos moves g1f3 c7c5 e2e4");
    let lines = answer_showing_board(&mut e, "d");
    if !lines.contains(&key) {
        e.fail("transposed position printed another key");
    }
    e.send("position startpos");
    let lines = answer_showing_board(&mut e, "d");
    if lines.contains(&key) {
        e.fail("the start position printed the same key");
    }
    e.quit();
}

#[test]
fn cli_perft_4_counts_197281() {
    let mut e = run_cli(&["perft", "4"]);
    let line = e.expect_prefix("Nodes searched", LONG);
    if line != "Nodes searched: 197281" {
        e.fail(&format!("got {line:?}"));
    }
    expect_exit_0(&mut e, "after tabas perft 4");
    // With a FEN (Kiwipete, depth 3).
    let mut args = vec!["perft", "3"];
    args.extend(KIWIPETE.split(' '));
    let mut e = run_cli(&args);
    let line = e.expect_prefix("Nodes searched", LONG);
    if line != "Nodes searched: 97862" {
        e.fail(&format!("kiwipete perft 3: got {line:?}"));
    }
    e.wait_exit(PROMPT);
}

fn bench_nodes(depth: &str) -> u64 {
    let mut e = run_cli(&["bench", depth]);
    let status = e.wait_exit(Duration::from_secs(60));
    if !status.success() {
        e.fail(&format!("bench exit status {status:?}"));
    }
    let received = e.received();
    let last = received
        .iter()
        .rev()
        .find(|l| *l != "<EOF>")
        .cloned()
        .unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    let numeric = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    if words.len() != 4
        || !numeric(words[0])
        || words[1] != "nodes"
        || !numeric(words[2])
        || words[3] != "nps"
    {
        e.fail(&format!(
            "bench's last line {last:?} is not '<N> nodes <M> nps'"
        ));
    }
    words[0].parse().unwrap()
}

#[test]
fn cli_bench_is_deterministic() {
    let a = bench_nodes("3");
    let b = bench_nodes("3");
    assert!(a > 0);
    assert_eq!(a, b, "bench 3 node counts differ between runs");
}

#[test]
fn perft_0_is_the_root_alone_in_both_front_ends() {
    let mut e = run_cli(&["perft", "0"]);
    e.wait_exit(PROMPT);
    let cli: Vec<String> = e.received().into_iter().filter(|l| l != "<EOF>").collect();
    if cli != ["", "Nodes searched: 1"] {
        e.fail("tabas perft 0: expected only a blank line and 'Nodes searched: 1'");
    }
    let mut e = ready_engine();
    let lines = perft_output(&mut e, "go perft 0", PROMPT);
    if lines != ["", "Nodes searched: 1"] {
        e.fail("go perft 0: expected only a blank line and 'Nodes searched: 1'");
    }
    e.quit();
}

/// `go perft` and `bench` with absurd depths (clamped to 20 plies and to the
/// search's deepest iteration: they would run for ages) run beside the input, as a
/// search does: `isready` is answered at once, `stop` ends them without a total
/// (nothing but protocol lines may come), `quit` and the end of input exit at once.
#[test]
fn huge_go_perft_and_bench_leave_the_engine_responsive() {
    const AT_ONCE: Duration = Duration::from_secs(1);
    for cmd in [
        "go perft 99999999999999999999",
        "bench 99999999999999999999",
    ] {
        // isready, stop, isready, quit.
        let mut e = ready_engine();
        e.label = cmd.to_string();
        let pos = set_position(&mut e, None, &[]);
        e.send(cmd);
        timed(&mut e, "readyok while it runs", AT_ONCE, Engine::sync);
        e.send("stop");
        timed(&mut e, "stop and readyok", AT_ONCE, Engine::sync);
        // Nothing comes after the stop; a search still works.
        e.lines_for(Duration::from_millis(200));
        let r = e.go_checked("go depth 1", &pos, STD, PROMPT);
        if r.best.is_none() {
            e.fail("no move after the stopped job");
        }
        e.send("quit");
        timed(&mut e, "quit", AT_ONCE, |e| e.wait_exit(PROMPT));

        // quit while it runs.
        let mut e = ready_engine();
        e.label = format!("{cmd}, then quit");
        e.send(cmd);
        e.sync();
        e.send("quit");
        timed(&mut e, "quit while it runs", AT_ONCE, |e| {
            expect_exit_0(e, "after quit")
        });

        // End of input while it runs.
        let mut e = ready_engine();
        e.label = format!("{cmd}, then end of input");
        e.send(cmd);
        e.sync();
        e.close_stdin();
        timed(&mut e, "exit at end of input", AT_ONCE, |e| {
            expect_exit_0(e, "at end of input")
        });
    }
}

#[test]
fn go_perft_bench_and_go_replace_whatever_runs() {
    let mut e = ready_engine();
    let pos = set_position(&mut e, None, &[]);
    // A bench replaces a perft, a perft replaces a bench.
    e.send("go perft 20");
    e.send("bench 100");
    let lines = perft_output(&mut e, "go perft 1", PROMPT);
    let counted = lines.iter().filter(|l| l.ends_with(": 1")).count();
    if counted != 20 || lines.last().map(String::as_str) != Some("Nodes searched: 20") {
        e.fail("go perft 1 after a perft and a bench");
    }
    // A search replaces a perft.
    e.send("go perft 20");
    e.go_checked("go depth 1", &pos, STD, PROMPT);
    // A perft replaces a search, which still gives its one bestmove first.
    start_search(&mut e, "go infinite");
    let lines = perft_output(&mut e, "go perft 1", PROMPT);
    let best = lines.iter().position(|l| l.starts_with("bestmove"));
    let first_count = lines.iter().position(|l| l.ends_with(": 1"));
    if best.is_none() || first_count.is_none() || best > first_count {
        e.fail("go perft during go infinite: expected the bestmove, then the divide");
    }
    e.assert_no_extra_bestmove();
    e.quit();
}

#[test]
fn uci_show_wdl_puts_win_draw_loss_after_every_score() {
    let mut e = Engine::spawn();
    let declared = e.handshake();
    if !declared.contains(&"option name UCI_ShowWDL type check default false".to_string()) {
        e.fail("UCI_ShowWDL is not declared as a check, default false");
    }
    e.sync();
    // The chances in every info line with a score; `None` where a line has none.
    let search = |e: &mut Engine, fen: &str, go: &str| -> Vec<Option<[i64; 3]>> {
        let pos = set_position(e, Some(fen), &[]);
        let r = e.go_checked(go, &pos, STD, LONG);
        let infos: Vec<Info> = r.infos.iter().map(|l| parse_info(l).unwrap()).collect();
        infos
            .into_iter()
            .filter(|i| i.score.is_some())
            .map(|i| i.wdl)
            .collect()
    };
    let scored_lines_without_wdl = |e: &mut Engine| {
        let lines = search(e, KIWIPETE, "go depth 5");
        if lines.is_empty() || lines.iter().any(Option::is_some) {
            e.fail("with UCI_ShowWDL off, info lines should carry no wdl");
        }
    };
    scored_lines_without_wdl(&mut e);

    expect_silent(&mut e, "setoption name UCI_ShowWDL value true");
    let lines = search(&mut e, KIWIPETE, "go depth 5");
    if lines.is_empty() {
        e.fail("no info line with a score");
    }
    for chances in &lines {
        match chances {
            Some(c) if c.iter().sum::<i64>() == 1000 => {}
            _ => e.fail(&format!("a scored info line with wdl {chances:?}")),
        }
    }
    // A forced mate is a certain win.
    let mate = search(&mut e, MATE_IN_2, "go mate 2");
    if mate.last() != Some(&Some([1000, 0, 0])) {
        e.fail(&format!(
            "mate in 2: last wdl {:?}, not 1000 0 0",
            mate.last()
        ));
    }

    expect_silent(&mut e, "setoption name UCI_ShowWDL value false");
    scored_lines_without_wdl(&mut e);
    e.quit();
}

#[test]
fn help_lists_every_command_as_info_strings() {
    let mut e = ready_engine();
    let lines = answer(&mut e, "help");
    if lines.is_empty() || !lines.iter().all(|l| l.starts_with("info string ")) {
        e.fail(&format!(
            "help: expected info string lines only, got {lines:?}"
        ));
    }
    let text: Vec<&str> = lines.iter().map(|l| &l["info string ".len()..]).collect();
    for command in [
        "uci",
        "debug",
        "isready",
        "setoption",
        "register",
        "ucinewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "quit",
        "go perft",
        "bench",
        "d",
        "eval",
        "help",
    ] {
        let named = |l: &&str| {
            l.strip_prefix(command)
                .is_some_and(|rest| rest.starts_with([' ', ':']))
        };
        if !text.iter().any(named) {
            e.fail(&format!("help does not list '{command}': {text:?}"));
        }
    }
    // Each first word listed is a command the engine takes (`quit` aside, which ends
    // it, and `go`, which searches): none is an unknown command.
    for l in &text {
        let word = l.split([' ', ':']).next().unwrap_or("");
        if matches!(
            word,
            "uci" | "isready" | "register" | "ucinewgame" | "d" | "eval" | "help"
        ) {
            let lines = answer_showing_board(&mut e, word);
            if !errors(&lines).is_empty() {
                e.fail(&format!("help lists '{word}', which is refused"));
            }
        }
    }
    e.quit();
}

#[test]
fn a_syzygy_path_keeps_two_spaces_in_a_row() {
    let mut e = ready_engine();
    // A directory that exists only with both spaces: reading it says it has no table
    // (not that it cannot be read), and names it as written.
    let root = common::tools::temp_dir("protocol", "spaces");
    let dir = root.join("my  tables");
    std::fs::create_dir_all(&dir).expect("create the test directory");
    let dir = dir.to_str().expect("a UTF-8 temporary path").to_string();
    let line = expect_error(&mut e, &format!("setoption name SyzygyPath value {dir}"));
    if !line.contains(&format!("no Syzygy table (.rtbw, .rtbz) in '{dir}'")) {
        e.fail(&format!("the path was not kept as written: {line:?}"));
    }
    // Leading and trailing blanks are not part of it.
    let line = expect_error(
        &mut e,
        &format!("setoption name SyzygyPath value \t {dir}  "),
    );
    if !line.contains(&format!("in '{dir}'")) {
        e.fail(&format!("the path was not trimmed at its ends: {line:?}"));
    }
    // Other options still parse.
    expect_silent(&mut e, "setoption  name  Hash  value  8 ");
    expect_silent(&mut e, "setoption name Move Overhead value 30");
    let _ = std::fs::remove_dir_all(&root);
    e.quit();
}

#[test]
fn a_one_move_line_takes_its_ponder_move_from_the_table() {
    let mut e = ready_engine();
    // Searched deeper first, the position's table holds the replies: `go depth 1`,
    // whose line is one move long, still gets a ponder move, legal after the best move
    // (`go_checked` checks that).
    expect_silent(&mut e, "position startpos");
    e.go_checked("go depth 8", &start(), STD, PROMPT);
    let searched = e.go_checked("go depth 1", &start(), STD, PROMPT);
    let last_pv = last_pv(&searched.infos).unwrap_or_else(|| e.fail("no pv at depth 1"));
    if last_pv.len() != 1 {
        e.fail(&format!("expected a one-move line at depth 1: {last_pv:?}"));
    }
    if searched.ponder.is_none() {
        e.fail(&format!("no ponder move: {:?}", searched.best_line));
    }
    // After a mate in one there is nothing to ponder on: no ponder move.
    let mate_in_1 = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    expect_silent(&mut e, &format!("position fen {mate_in_1}"));
    let searched = e.go_checked("go depth 3", &parse_fen(mate_in_1), STD, PROMPT);
    if searched.best_line != "bestmove a1a8" {
        e.fail(&format!(
            "expected 'bestmove a1a8': {:?}",
            searched.best_line
        ));
    }
    // Any ponder move sent is legal (checked by `go_checked`), however short the line.
    for fen in [KIWIPETE, MATE_IN_2, CASTLES] {
        expect_silent(&mut e, &format!("position fen {fen}"));
        for depth in 1..=3 {
            e.go_checked(&format!("go depth {depth}"), &parse_fen(fen), STD, PROMPT);
        }
    }
    e.quit();
}
