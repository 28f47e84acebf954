//! `tests/scripts/spsa.py --apply`: a tuning run's values written into a copy of
//! `src/params.rs` as the new defaults, rounded, and nothing else in it changed;
//! a state naming a number the file does not declare is refused, the file untouched.
//! Skipped, with a line saying so, where python3 is missing.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/spsa.py");
const PARAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/params.rs");

fn python_available() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabas-spsa-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// `spsa.py --apply` on a copy of params.rs with a state whose theta is `theta` (JSON).
fn apply(name: &str, theta: &str) -> (Output, String) {
    let dir = scratch(name);
    let state = dir.join("state.json");
    let params = dir.join("params.rs");
    std::fs::write(
        &state,
        format!(r#"{{"theta": {theta}, "iteration": 1, "games": 8, "faults": 0, "history": []}}"#),
    )
    .expect("state");
    std::fs::copy(PARAMS, &params).expect("copy params.rs");
    let output = Command::new("python3")
        .arg(SCRIPT)
        .args(["--engine", env!("CARGO_BIN_EXE_tabas"), "--state"])
        .arg(&state)
        .arg("--apply")
        .arg(&params)
        .output()
        .expect("run spsa.py");
    let text = std::fs::read_to_string(&params).expect("read params.rs back");
    std::fs::remove_dir_all(&dir).ok();
    (output, text)
}

/// The line declaring `name` in `text`.
fn declaration<'a>(text: &'a str, name: &str) -> &'a str {
    let prefix = format!("{name} = ");
    let mut lines = text.lines().filter(|l| l.trim_start().starts_with(&prefix));
    let line = lines
        .next()
        .unwrap_or_else(|| panic!("{name} is not declared"));
    assert!(lines.next().is_none(), "{name} is declared twice");
    line
}

/// The default a declaration line gives (`name = default, min..=max, step s;`).
fn default_of(line: &str) -> i32 {
    let value = line.split(" = ").nth(1).and_then(|r| r.split(',').next());
    value
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no default in {line:?}"))
}

/// `line` with its default replaced by `value`.
fn with_default(line: &str, value: i32) -> String {
    line.replacen(
        &format!("= {},", default_of(line)),
        &format!("= {value},"),
        1,
    )
}

#[test]
fn apply_writes_the_rounded_values_as_defaults_and_nothing_else() {
    if !python_available() {
        eprintln!(
            "SKIPPED apply_writes_the_rounded_values_as_defaults_and_nothing_else: no python3"
        );
        return;
    }
    // Values around today's defaults, whatever they are.
    let original = std::fs::read_to_string(PARAMS).expect("params.rs");
    let delta = declaration(&original, "aspiration_delta");
    let lmr = declaration(&original, "lmr_base");
    let rfp = declaration(&original, "rfp_max_depth");
    assert_ne!(default_of(lmr), 0, "lmr_base must move for this test");
    let theta = format!(
        r#"{{"aspiration_delta": {}, "lmr_base": -0.4, "rfp_max_depth": {}}}"#,
        f64::from(default_of(delta)) - 6.56,
        f64::from(default_of(rfp)) + 0.2,
    );
    let (output, text) = apply("ok", &theta);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        declaration(&text, "aspiration_delta"),
        with_default(delta, default_of(delta) - 7)
    );
    // Rounded to the nearest, negative values too (the range is not the script's to check).
    assert_eq!(declaration(&text, "lmr_base"), with_default(lmr, 0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    // rfp_max_depth rounds to its default: written, not counted as changed.
    assert_eq!(declaration(&text, "rfp_max_depth"), rfp);
    assert!(
        stdout.contains("2 defaults changed: aspiration_delta, lmr_base"),
        "{stdout}"
    );
    let changed: Vec<(&str, &str)> = original
        .lines()
        .zip(text.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert_eq!(original.lines().count(), text.lines().count());
}

#[test]
fn apply_refuses_a_number_the_file_does_not_declare() {
    if !python_available() {
        eprintln!("SKIPPED apply_refuses_a_number_the_file_does_not_declare: no python3");
        return;
    }
    let original = std::fs::read_to_string(PARAMS).expect("params.rs");
    let (output, text) = apply(
        "unknown",
        r#"{"aspiration_delta": 18.0, "no_such_number": 3.0}"#,
    );
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("'no_such_number' is declared 0 times"),
        "{stderr}"
    );
    assert_eq!(text, original, "a refused state changed the file");
}
