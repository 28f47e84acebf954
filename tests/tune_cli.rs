//! `tabas tune` as a process: bad input gives a message on stderr and exit code 2
//! (arguments) or 1 (data, files), never a panic; a real run on a tiny data folder
//! prints a whole `weights.rs`, the same whatever the number of threads.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::{path, stderr};
use std::path::PathBuf;
use std::process::Output;

fn tune(args: &[&str]) -> Output {
    common::tools::tool("tune", args)
}

fn temp_dir(name: &str) -> PathBuf {
    common::tools::temp_dir("tune", name)
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&[][..], "--data DIR is required"),
        (&["--data"][..], "--data needs a value"),
        (
            &["--data", "d", "--lambda", "2"][..],
            "--lambda must be a number in 0..=1",
        ),
        (
            &["--data", "d", "--epochs", "many"][..],
            "--epochs must be a whole number",
        ),
        (&["--data", "d", "--fast"][..], "unknown argument '--fast'"),
    ];
    common::tools::assert_usage_errors("tune", cases, "--positions N");
}

#[test]
fn missing_or_empty_data_is_an_error() {
    let missing = temp_dir("missing");
    let o = tune(&["--data", path(&missing)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(path(&missing)), "{}", stderr(&o));

    let empty = temp_dir("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = tune(&["--data", path(&empty)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no .tdg files"), "{}", stderr(&o));

    // Not a data file: a clear error, not a panic.
    std::fs::write(empty.join("games-00.tdg"), b"garbage!").unwrap();
    let o = tune(&["--data", path(&empty)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad magic"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn a_run_prints_a_weights_file_the_same_with_any_threads() {
    let data = temp_dir("data");
    common::tools::self_play(&data, 3, 1, 9);

    let run = |threads: &str| tune(&["--data", path(&data), "--epochs", "3", "--threads", threads]);
    let one = run("1");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(text.starts_with("//! The evaluation's weights"), "{text}");
    assert!(text.contains("pub const HANGING: [Pair; 5] = ["));
    assert!(
        text.contains("--epochs 3 --threads 1`"),
        "the command is recorded"
    );
    assert!(stderr(&one).contains("epoch     3"), "{}", stderr(&one));
    // The same weights with two threads: only the recorded command differs.
    let weights = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("//! Source:"))
            .collect();
        lines.join("\n")
    };
    let two = run("2");
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    assert_eq!(weights(&one), weights(&two));

    // --out writes the file instead; a directory that does not exist is refused
    // before any work.
    let out = data.join("weights.rs");
    let o = tune(&["--data", path(&data), "--epochs", "2", "--out", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("pub const MATERIAL")
    );
    let nowhere = data.join("no/such/dir/weights.rs");
    let o = tune(&["--data", path(&data), "--out", path(&nowhere)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&data);
}
