//! `tabas train` as a process: bad input gives a message on stderr and exit code 2
//! (arguments) or 1 (data, files), never a panic; a real run on a tiny data folder
//! leaves a net file the integer reader accepts, and no temporary file.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::{path, stderr};
use std::path::PathBuf;
use std::process::Output;
use tabas::tools::train::QuantNet;

fn train(args: &[&str]) -> Output {
    common::tools::tool("train", args)
}

fn temp_dir(name: &str) -> PathBuf {
    common::tools::temp_dir("train", name)
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&[][..], "--data DIR is required"),
        (&["--data", "d"][..], "--out FILE is required"),
        (&["--data", "d", "--out"][..], "--out needs a value"),
        (
            &["--data", "d", "--out", "n", "--hidden", "100"][..],
            "--hidden must be a multiple of 8",
        ),
        (
            &["--data", "d", "--out", "n", "--lr", "fast"][..],
            "--lr must be a number",
        ),
        (
            &["--data", "d", "--out", "n", "--threads", "0"][..],
            "--threads must be a whole number",
        ),
        (
            &["--data", "d", "--out", "n", "--gpu"][..],
            "unknown argument '--gpu'",
        ),
        (
            &["--data", "d", "--out", "n", "--inputs", "mirrored"][..],
            "--inputs must be plain or king-mirrored, not 'mirrored'",
        ),
        (
            &[
                "--data", "d", "--out", "n", "--init", "m", "--inputs", "plain",
            ][..],
            "--init takes the inputs from the net file",
        ),
    ];
    common::tools::assert_usage_errors("train", cases, "--max-positions N");
}

/// A run of `tabas train ARGS --out NET` that succeeds: its log and the net file.
fn trained(net: &std::path::Path, args: &[&str]) -> (String, QuantNet) {
    let o = train(&[args, &["--out", path(net)]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let q = QuantNet::from_bytes(&std::fs::read(net).unwrap()).unwrap();
    (String::from_utf8_lossy(&o.stdout).into_owned(), q)
}

#[test]
fn a_run_writes_a_net_file_and_bad_data_or_paths_are_errors() {
    let data = temp_dir("data");
    common::tools::self_play(&data, 3, 1, 9);
    let net = data.join("net.nnue");
    let (log, q) = trained(
        &net,
        &[
            "--data",
            path(&data),
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--batch",
            "64",
            "--output-buckets",
            "4",
        ],
    );
    assert!(log.starts_with("train: 3 games"), "{log}");
    assert!(log.contains("epoch   2  lr 0.001000  train "), "{log}");
    assert_eq!((q.hidden, q.buckets()), (16, 4));
    assert!(!data.join("net.nnue.tmp").exists());

    // A run from that net (`--init`) keeps its shape; a file that is no net is an error.
    let tuned = data.join("tuned.nnue");
    let args = ["--data", path(&data), "--init", path(&net), "--epochs", "1"];
    let (log, q) = trained(&tuned, &args);
    assert!(
        log.contains("16 hidden units, plain inputs, from the given net;"),
        "{log}"
    );
    assert_eq!((q.hidden, q.buckets()), (16, 4));
    // With --hidden it is widened (its buckets kept); narrowed, an error.
    let wide = data.join("wide.nnue");
    let (_, q) = trained(&wide, &[&args[..], &["--hidden", "24"]].concat());
    assert_eq!((q.hidden, q.buckets()), (24, 4));
    // King-mirrored inputs: the file says so, and a run from it keeps them.
    let mirrored = data.join("mirrored.nnue");
    let (log, q) = trained(
        &mirrored,
        &[
            "--data",
            path(&data),
            "--epochs",
            "1",
            "--inputs",
            "king-mirrored",
        ],
    );
    assert!(log.contains("king-mirrored inputs"), "{log}");
    assert!(!log.contains("mirror images"), "implies --no-mirror: {log}");
    assert_eq!(q.layout, tabas::nnue::InputLayout::KingMirrored);
    let again = data.join("mirrored-again.nnue");
    let (log, q) = trained(
        &again,
        &[
            "--data",
            path(&data),
            "--init",
            path(&mirrored),
            "--epochs",
            "1",
        ],
    );
    assert!(
        log.contains("king-mirrored inputs, from the given net"),
        "{log}"
    );
    assert_eq!(q.layout, tabas::nnue::InputLayout::KingMirrored);
    let o = train(&[&args[..], &["--out", path(&wide), "--hidden", "8"]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("16 units"), "{}", stderr(&o));
    let o = train(&[
        "--data",
        path(&data),
        "--out",
        path(&tuned),
        "--init",
        path(&data),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));

    // No data, not data, nowhere to write: errors, not panics.
    let missing = data.join("missing");
    let o = train(&["--data", path(&missing), "--out", path(&net)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(path(&missing)), "{}", stderr(&o));
    let empty = data.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = train(&["--data", path(&empty), "--out", path(&net)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no .tdg files"), "{}", stderr(&o));
    std::fs::write(empty.join("games-00.tdg"), b"garbage!").unwrap();
    let o = train(&["--data", path(&empty), "--out", path(&net)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad magic"), "{}", stderr(&o));
    let nowhere = data.join("no/such/dir/net.nnue");
    let o = train(&["--data", path(&data), "--out", path(&nowhere)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let _ = std::fs::remove_dir_all(&data);
}
