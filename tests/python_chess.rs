//! Tabas as a python-chess user meets it: `tests/python/ponder_games.py` plays Tabas
//! against itself through python-chess with `ponder=True` (ponderhit on a hit, stop on a
//! miss) and checks every move, every ponder move and the clocks. Skipped, with a line
//! saying so, where python3 or python-chess is missing (`pip install chess`).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/ponder_games.py");
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
    if !python_chess_available() {
        eprintln!("SKIPPED python_chess_plays_a_game_with_ponder: no python3 with python-chess");
        return;
    }
    let mut child = Command::new("python3")
        .args([SCRIPT, env!("CARGO_BIN_EXE_tabas"), "1"])
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
                "{SCRIPT} did not finish within {TIMEOUT:?}\n{}{}",
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
    assert!(out.status.success(), "{SCRIPT} failed:\n{text}");
    eprintln!("{text}");
}
