//! Tabas as a python-chess user meets it: `tests/python/ponder_games.py` plays Tabas
//! against itself through python-chess with `ponder=True` (ponderhit on a hit, stop on a
//! miss) and checks every move, every ponder move and the clocks;
//! `tests/python/analysis.py` analyses with MultiPV, `UCI_ShowWDL` and two threads;
//! `tests/python/lichess_bot.py` plays as lichess-bot's engine wrapper does (movetime
//! for the first moves, then both clocks and increments, ponder, the README's options).
//! Skipped, with a line saying so, where python3 or python-chess is missing
//! (`pip install chess`).

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PONDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/ponder_games.py");
const ANALYSIS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/analysis.py");
const LICHESS_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/lichess_bot.py");
const TIMEOUT: Duration = Duration::from_secs(120);

fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn python_chess_plays_a_game_with_ponder() {
    run_script("python_chess_plays_a_game_with_ponder", PONDER, &["1"]);
}

#[test]
fn python_chess_analyses_with_multipv_wdl_and_threads() {
    run_script(
        "python_chess_analyses_with_multipv_wdl_and_threads",
        ANALYSIS,
        &[],
    );
}

#[test]
fn lichess_bot_wrapper_plays_a_game_with_the_readme_options() {
    // With the Syzygy tables where they are (as the README's block sets SyzygyPath).
    let syzygy = common::syzygy_dir().map(|d| d.display().to_string());
    let mut args = vec!["1"];
    args.extend(syzygy.as_deref());
    run_script(
        "lichess_bot_wrapper_plays_a_game_with_the_readme_options",
        LICHESS_BOT,
        &args,
    );
}

/// Runs a python-chess script against the binary; it must exit 0 within `TIMEOUT`.
fn run_script(test: &str, script: &str, args: &[&str]) {
    if !python_chess_available() {
        eprintln!("SKIPPED {test}: no python3 with python-chess");
        return;
    }
    let mut child = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tabas"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python3");
    let deadline = Instant::now() + TIMEOUT;
    while child.try_wait().expect("wait for python3").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("python3 output");
            panic!(
                "{script} did not finish within {TIMEOUT:?}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("python3 output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script} failed:\n{text}");
    eprintln!("{text}");
}
