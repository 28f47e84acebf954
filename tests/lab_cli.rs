//! `tabas lab` and its studies as a process: bad arguments give a message on stderr
//! and exit code 2, never a panic; tiny real runs of `lab switches` and `lab oracle`
//! print their table and write their CSV and chart.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::{assert_usage_errors, path, stderr, temp_dir, tool};

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["--depth", "7"][..], "--depth must be 1..6"),
        (&["switches", "--depth", "0"][..], "--depth must be 1..30"),
        (
            &["switches", "--only", "Nope"][..],
            "--only: no switch 'Nope'",
        ),
        (&["switches", "--only", "TimeManager"][..], "is not studied"),
        (&["oracle", "--depth", "9"][..], "--depth must be 1..8"),
        (&["oracle", "--epd"][..], "--epd needs a value"),
        (&["all"][..], "needs --out DIR"),
        (
            &["oracle", "--csv", "/nonexistent-dir/o.csv"][..],
            "cannot write /nonexistent-dir/o.csv",
        ),
    ];
    assert_usage_errors("lab", cases, "tabas lab switches");
    for (study, mentions) in [("switches", "--match-commands"), ("oracle", "knuth")] {
        let help = tool("lab", &[study, "--help"]);
        assert_eq!(help.status.code(), Some(0));
        assert!(
            String::from_utf8_lossy(&help.stdout)
                .to_lowercase()
                .contains(mentions)
        );
    }
}

#[test]
fn switches_runs_the_engine_with_a_switch_off() {
    let dir = temp_dir("lab", "switches");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("s.csv"), dir.join("s.svg"));
    let args = [
        "switches",
        "--depth",
        "4",
        "--positions",
        "2",
        "--only",
        "LMR",
        "--csv",
        path(&csv),
        "--svg",
        path(&svg),
    ];
    let o = tool("lab", &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table.contains("full engine") && table.contains("LMR off"),
        "{table}"
    );
    let csv = std::fs::read_to_string(&csv).unwrap();
    // A header, then four depths of the full engine and of LMR off.
    assert_eq!(csv.lines().count(), 1 + 2 * 4, "{csv}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("LMR off"));
    let _ = std::fs::remove_dir_all(&dir);

    let o = tool(
        "lab",
        &["switches", "--match-commands", "--only", "LMR,IIR"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = String::from_utf8_lossy(&o.stdout);
    assert!(script.contains("opt.Debug_LMR=false") && script.contains("opt.Debug_IIR=false"));
}

#[test]
fn oracle_writes_its_table_csv_and_chart() {
    let dir = temp_dir("lab", "oracle");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("o.csv"), dir.join("o.svg"));
    let o = tool(
        "lab",
        &[
            "oracle",
            "--depth",
            "3",
            "--csv",
            path(&csv),
            "--svg",
            path(&svg),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout);
    assert_eq!(table.matches("  exact\n").count(), 4 * 3, "{table}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4 * 3);
    assert!(!csv.contains(",false,"));
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("oracle (minimal tree)")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
