//! `tabas wdl-fit` as a process: bad input gives a message on stderr and exit code 2
//! (arguments) or 1 (data), never a panic; a real run on a tiny data folder prints
//! the constants of `src/wdl.rs` as Rust code, the same whatever the number of threads.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::{path, stderr};
use std::path::PathBuf;
use std::process::Output;

fn wdl_fit(args: &[&str]) -> Output {
    common::tools::tool("wdl-fit", args)
}

fn temp_dir(name: &str) -> PathBuf {
    common::tools::temp_dir("wdl-fit", name)
}

/// `games` short self-play games in a new folder.
fn games(name: &str, games: u64) -> PathBuf {
    let data = temp_dir(name);
    common::tools::self_play(&data, games, 2, 4);
    data
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&[][..], "--data DIR is required"),
        (&["--data"][..], "--data needs a value"),
        (
            &["--data", "d", "--threads", "0"][..],
            "--threads must be a whole number in 1..=256",
        ),
        (&["--data", "d", "--fast"][..], "unknown argument '--fast'"),
    ];
    common::tools::assert_usage_errors("wdl-fit", cases, "--threads T");
}

#[test]
fn missing_or_too_little_data_is_an_error() {
    let missing = temp_dir("missing");
    let o = wdl_fit(&["--data", path(&missing)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(path(&missing)), "{}", stderr(&o));

    // Fewer than ten games: none is held out.
    let few = games("few", 2);
    let o = wdl_fit(&["--data", path(&few)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("too few positions"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let _ = std::fs::remove_dir_all(&few);
}

#[test]
fn a_run_prints_the_model_as_rust_the_same_with_any_threads() {
    let data = games("data", 12);
    let run = |threads: &str| wdl_fit(&["--data", path(&data), "--threads", threads]);
    let one = run("1");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let text = String::from_utf8_lossy(&one.stdout).into_owned();
    assert!(
        text.starts_with(&format!(
            "// Fitted by `tabas wdl-fit --data {} --threads 1`",
            path(&data)
        )),
        "{text}"
    );
    assert!(text.contains("pub const VARIABLE: Variable = Variable::"));
    for name in ["MIDPOINT", "SPREAD"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("pub const {name}: [f64; 4] = [")))
            .unwrap_or_else(|| panic!("no {name} in {text}"));
        let numbers: Vec<f64> = line
            .rsplit_once('[')
            .and_then(|(_, list)| list.strip_suffix("];"))
            .unwrap_or_else(|| panic!("{line}"))
            .split(", ")
            .map(|n| n.parse().unwrap())
            .collect();
        assert!(
            numbers.len() == 4 && numbers.iter().all(|n| n.is_finite()),
            "{line}"
        );
    }
    // Both variables' fit quality, training and validation.
    for variable in ["by material ", "by move number "] {
        assert!(text.contains(&format!("//   {variable}")), "{text}");
        assert!(stderr(&one).contains(variable), "{}", stderr(&one));
    }
    assert!(stderr(&one).contains("(validation)"), "{}", stderr(&one));
    // The model it would replace, on the same games: the fit maximises the training
    // games' likelihood, so the built-in model cannot do better on them.
    let losses = |prefix: &str| -> (f64, f64) {
        let line = text
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' in {text}"));
        let numbers: Vec<f64> = line[prefix.len()..]
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 2, "{line}");
        (numbers[0], numbers[1])
    };
    let fitted = losses("//   by material ");
    let replaced = losses("//   the model this replaces ");
    assert!(
        fitted.0 <= replaced.0 + 1e-4,
        "{fitted:?} against {replaced:?}"
    );
    assert!(
        stderr(&one).contains("the model in the binary"),
        "{}",
        stderr(&one)
    );
    // The same model with two threads: only the recorded command differs.
    let two = run("2");
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    let model = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(model(&one), model(&two));
    let _ = std::fs::remove_dir_all(&data);
}
