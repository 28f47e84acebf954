//! `tabas datagen` and `tabas dataset` as a user runs them: the real binary, a real
//! folder, the text it prints, and clear refusals of bad arguments.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::tabas;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    common::tools::temp_dir("cli", name)
}

#[test]
fn datagen_writes_games_that_dataset_reads_back() {
    let dir = temp_dir("games");
    let out = dir.to_str().unwrap();
    let run = tabas(&[
        "datagen", "--out", out, "--games", "3", "--nodes", "300", "--seed", "9",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.stdout.is_empty(), "datagen prints to stderr only");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("done, 3 games"), "{stderr}");

    let manifest = std::fs::read_to_string(dir.join("manifest.txt")).unwrap();
    for line in [
        "seed: 9",
        "nodes: 300",
        "soft_limit: managed",
        "games: 3",
        "complete: true",
    ] {
        assert!(manifest.lines().any(|l| l == line), "{line} in {manifest}");
    }
    assert!(manifest.contains("command: tabas datagen --out"));

    let info = tabas(&["dataset", out, "--dump", "40"]);
    assert!(info.status.success());
    let text = String::from_utf8(info.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.last().unwrap().starts_with("3 games, "), "{text}");
    // Each dumped line: FEN | score (White's view) | result | the move played there.
    let dumped = &lines[..lines.len() - 1];
    assert_eq!(dumped.len(), 40);
    for line in dumped {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        let pos: Chess = fields[0]
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        fields[1].parse::<i16>().unwrap();
        assert!(["0", "0.5", "1"].contains(&fields[2]), "{line}");
        let m = fields[3].parse::<UciMove>().unwrap().to_move(&pos);
        assert!(m.is_ok(), "the move played is legal: {line}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    for (args, says) in [
        (vec!["datagen"], "--out DIR is required"),
        (vec!["datagen", "--out", "x", "--games", "lots"], "--games"),
        (vec!["datagen", "--out", "x", "--threads", "0"], "--threads"),
        (vec!["datagen", "--out", "x", "--bogus"], "unknown argument"),
        (vec!["dataset"], "expected DIR"),
    ] {
        let run = tabas(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let missing = tabas(&["dataset", "/nonexistent/tabas/data"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/tabas/data"));
}
