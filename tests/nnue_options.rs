//! `EvalFile` and `Use NNUE` through the real binary: a network file loads and
//! changes the evaluation, a bad one is refused with the previous network kept,
//! and a search with a network gives a legal move.

mod common;

use common::tools;
use common::*;
use shakmaty::{CastlingMode, Chess};
use std::path::PathBuf;
use std::time::Duration;
use tabas::nnue::{HIDDEN, Header, INPUTS, InputLayout, MAX_OUTPUT_BUCKETS};

const WAIT: Duration = Duration::from_secs(30);

/// A network file whose weights follow a simple seeded pattern (inside the
/// loader's bounds), written to a fresh temporary path.
fn network_file(name: &str, seed: u64) -> PathBuf {
    network_file_in(name, seed, InputLayout::Plain)
}

/// [`network_file`] for a net of input layout `layout`.
fn network_file_in(name: &str, seed: u64, layout: InputLayout) -> PathBuf {
    let mut rng = Rng::new(seed);
    let buckets = MAX_OUTPUT_BUCKETS;
    let mut bytes = Header::new(HIDDEN, layout, buckets).to_bytes();
    let mut push = |bytes: &mut Vec<u8>, n: usize, max: u64| {
        for _ in 0..n {
            let v = rng.below(2 * max + 1) as i16 - max as i16;
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    };
    push(&mut bytes, INPUTS * HIDDEN + HIDDEN, 50);
    // Output weights of about the same total size at any width: the loader refuses a
    // bucket whose weights add up to more than `MAX_OUTPUT_WEIGHT_SUM` (33,025) in
    // magnitude, and 2 · HIDDEN weights of mean magnitude 10,000 / HIDDEN make about 20,000.
    push(&mut bytes, buckets * 2 * HIDDEN, 20_000 / HIDDEN as u64);
    for _ in 0..buckets {
        bytes.extend_from_slice(&1000i32.to_le_bytes());
    }
    let path = tools::temp_dir("nnue", name);
    std::fs::write(&path, bytes).expect("write the network file");
    path
}

/// Loads the network file `path` (`EvalFile`, `Use NNUE`) and checks that it loaded.
fn load_network(e: &mut Engine, path: &std::path::Path) {
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.send("setoption name Use NNUE value true");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile: loaded")),
        "{lines:?}"
    );
}

fn eval_of(e: &mut Engine) -> i64 {
    e.send("eval");
    let line = e.expect_prefix("info string eval ", WAIT);
    line.split_whitespace()
        .nth(3)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| e.fail(&format!("no number in '{line}'")))
}

#[test]
fn eval_file_loads_and_bad_files_keep_the_previous_network() {
    let good = network_file("good", 7);
    let bad = tools::temp_dir("nnue", "bad");
    std::fs::write(&bad, b"TABASNN3\x00\x01").unwrap();

    let mut e = Engine::spawn();
    e.handshake();
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    e.send("setoption name Use NNUE value false");
    let by_hand = eval_of(&mut e);
    if tabas::nnue::embedded().is_none() {
        // No network at all: asking for one says so, and the evaluation stays.
        e.send("setoption name Use NNUE value true");
        let lines = e.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string Use NNUE: no network")),
            "{lines:?}"
        );
        assert_eq!(eval_of(&mut e), by_hand);
    }

    load_network(&mut e, &good);
    let by_net = eval_of(&mut e);
    assert_ne!(
        by_net, by_hand,
        "the network is not the hand-written evaluation"
    );

    // A file of an input layout or a width this build does not take: refused
    // with its reason, like a damaged or missing one.
    let good_bytes = std::fs::read(&good).unwrap();
    let with_header = |name: &str, at: usize, value: u32| {
        let mut bytes = good_bytes.clone();
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let path = tools::temp_dir("nnue", name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    };
    let unknown_layout = with_header("layout", 28, 9);
    let other_width = HIDDEN as u32 + 128;
    let wider = with_header("wider", 8, other_width);
    for (path, why) in [
        (bad.display().to_string(), "ends early"),
        ("/no/such/file.nnue".to_string(), "cannot read"),
        (unknown_layout, "input layout 9 is unknown"),
        (wider, &format!("{other_width} hidden neurons")),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(
            errors[0].starts_with("info string error: EvalFile")
                && errors[0].contains("keeping")
                && errors[0].contains(why),
            "{lines:?}"
        );
        assert_eq!(eval_of(&mut e), by_net, "the previous network stays");
    }

    // A search with the network plays a legal move, here and after a capture-rich line.
    let pos: Chess = position_after(
        None,
        &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"],
    );
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6");
    e.go_checked("go depth 8", &pos, CastlingMode::Standard, WAIT);

    e.send("setoption name Use NNUE value false");
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_eq!(
        eval_of(&mut e),
        by_hand,
        "Use NNUE false: the hand-written evaluation"
    );
    e.quit();
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn the_built_in_network_is_the_default_when_there_is_one() {
    let built_in = tabas::nnue::embedded().is_some();
    let mut e = Engine::spawn();
    let options = e.handshake();
    let declared = format!("option name Use NNUE type check default {built_in}");
    assert!(options.contains(&declared), "{options:?}");
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let default = eval_of(&mut e);
    e.send("setoption name Use NNUE value false");
    let by_hand = eval_of(&mut e);
    assert_eq!(
        default != by_hand,
        built_in,
        "the default evaluation is the network exactly when the build has one"
    );
    // Another network, then back to the built-in one (or to none).
    let other = network_file("other", 13);
    e.send(&format!(
        "setoption name EvalFile value {}",
        other.display()
    ));
    e.send("setoption name Use NNUE value true");
    let by_other = eval_of(&mut e);
    assert_ne!(by_other, default);
    e.send("setoption name EvalFile value <built-in>");
    e.send(&format!("setoption name Use NNUE value {built_in}"));
    assert_eq!(eval_of(&mut e), default);
    // The default a GUI shows (and sends back) names the built-in network, no file.
    let shown = options
        .iter()
        .find_map(|l| l.strip_prefix("option name EvalFile type string default "))
        .expect("EvalFile is declared");
    assert_eq!(
        shown,
        tabas::nnue::embedded_name().unwrap_or("<empty>"),
        "{options:?}"
    );
    e.send(&format!(
        "setoption name EvalFile value {}",
        other.display()
    ));
    e.send(&format!("setoption name EvalFile value {shown}"));
    let answer = e.sync();
    assert!(
        answer.iter().all(|l| !l.contains("error")),
        "the default is no file to load: {answer:?}"
    );
    assert_eq!(eval_of(&mut e), default);
    e.quit();
    let _ = std::fs::remove_file(other);
}

#[test]
fn a_network_search_is_deterministic() {
    let net = network_file("det", 11);
    let run = || {
        let mut e = Engine::spawn();
        e.handshake();
        e.send(&format!("setoption name EvalFile value {}", net.display()));
        e.send("setoption name Use NNUE value true");
        e.sync();
        e.send("position startpos moves d2d4 g8f6 c2c4 e7e6");
        let pos = position_after(None, &["d2d4", "g8f6", "c2c4", "e7e6"]);
        let s = e.go_checked("go depth 7", &pos, CastlingMode::Standard, WAIT);
        e.quit();
        s.infos.last().cloned().unwrap_or_default()
    };
    let strip_time = |l: String| -> String {
        // `time` and `nps` vary; nodes, score and pv must not.
        let mut words = l.split_whitespace().peekable();
        let mut kept = Vec::new();
        while let Some(w) = words.next() {
            if w == "time" || w == "nps" || w == "hashfull" {
                words.next();
            } else {
                kept.push(w.to_string());
            }
        }
        kept.join(" ")
    };
    assert_eq!(strip_time(run()), strip_time(run()));
    let _ = std::fs::remove_file(net);
}

#[test]
fn a_king_mirrored_network_loads_sees_mirror_images_alike_and_searches() {
    let net = network_file_in("king-mirrored", 12, InputLayout::KingMirrored);
    let mut e = Engine::spawn();
    e.handshake();
    load_network(&mut e, &net);
    // A position and its mirror image (files a↔h): one evaluation.
    let mut evals = Vec::new();
    for fen in [
        "8/5k2/8/3p4/8/2K5/8/8 b - - 0 1",
        "8/2k5/8/4p3/8/5K2/8/8 b - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        evals.push(eval_of(&mut e));
    }
    assert_eq!(evals[0], evals[1]);
    // Searches whose kings cross between the wings, castling on either side
    // included: legal moves, as with any net.
    for (fen, moves) in [
        ("8/5k2/8/3p4/8/2K5/8/8 b - - 0 1", vec![]),
        (
            "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            vec!["e1c1", "e8g8"],
        ),
    ] {
        match moves.is_empty() {
            true => e.send(&format!("position fen {fen}")),
            false => e.send(&format!("position fen {fen} moves {}", moves.join(" "))),
        }
        let pos = position_after(Some(fen), &moves);
        e.go_checked("go depth 8", &pos, CastlingMode::Standard, WAIT);
    }
    e.quit();
    let _ = std::fs::remove_file(net);
}

/// The node count of a UCI `bench` at `depth` (its last line, `<N> nodes <M> nps`).
fn uci_bench_nodes(e: &mut Engine, depth: i32) -> u64 {
    e.send(&format!("bench {depth}"));
    let last = e.expect("the bench total", LONG, |l| l.ends_with(" nps"));
    last.split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| e.fail(&format!("no node count in '{last}'")))
}

#[test]
fn uci_bench_uses_the_evaluation_that_plays() {
    // Once, `bench` over UCI searched with the built-in network whatever
    // `Use NNUE` and `EvalFile` said.
    let depth = 4;
    let in_process = |network| {
        let control = tabas::search::Control::new(false);
        tabas::bench::run_until(depth, Default::default(), network, &control, &mut |_| {})
            .expect("not stopped")
    };
    let mut e = Engine::spawn();
    e.check = OutputCheck::ProtocolDisplayOrTool;
    e.handshake();
    assert_eq!(
        uci_bench_nodes(&mut e, depth),
        in_process(tabas::nnue::embedded()),
        "the default evaluation"
    );
    e.send("setoption name Use NNUE value false");
    assert_eq!(
        uci_bench_nodes(&mut e, depth),
        in_process(None),
        "Use NNUE false: the hand-written evaluation"
    );
    let net = network_file("bench", 17);
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e.send("setoption name Use NNUE value true");
    let by_file = uci_bench_nodes(&mut e, depth);
    assert_ne!(by_file, in_process(None), "EvalFile's network");
    assert_ne!(
        Some(by_file),
        tabas::nnue::embedded().map(|n| in_process(Some(n)))
    );
    e.quit();
    let _ = std::fs::remove_file(net);
}

/// `eval`'s answer: `info string` lines only.
fn eval_lines(e: &mut Engine) -> Vec<String> {
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    lines
}

/// The number after the last space of the `eval` line that starts with `prefix`.
fn eval_figure(e: &Engine, lines: &[String], prefix: &str) -> i64 {
    lines
        .iter()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| {
            l.split_whitespace()
                .rev()
                .find_map(|w| w.trim_start_matches('+').parse().ok())
        })
        .unwrap_or_else(|| e.fail(&format!("no line '{prefix}…' in {lines:?}")))
}

#[test]
fn eval_shows_the_terms_and_what_each_piece_is_worth_to_the_network() {
    let mut e = Engine::spawn();
    e.handshake();
    // Black to move, White a bishop down.
    e.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 8");
    e.send("setoption name Use NNUE value false");
    let lines = eval_lines(&mut e);
    let total = eval_figure(&e, &lines, "info string total (side to move)");
    let eval = eval_figure(&e, &lines, "info string eval ");
    assert_eq!(total, eval, "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string material ")));
    assert!(!lines.iter().any(|l| l.contains("network")), "{lines:?}");

    if tabas::nnue::embedded().is_none() {
        return;
    }
    e.send("setoption name Use NNUE value true");
    let lines = eval_lines(&mut e);
    // The board of the pieces' worth: eight ranks, 8 down to 1; the bishop White lacks
    // is no cell, White's queen is worth much to White.
    let ranks: Vec<&String> = lines
        .iter()
        .filter(|l| l.len() > 14 && l.as_bytes()[12].is_ascii_digit() && l.as_bytes()[13] == b' ')
        .collect();
    assert_eq!(ranks.len(), 8, "{lines:?}");
    assert!(ranks[0].starts_with("info string 8 ") && ranks[7].starts_with("info string 1 "));
    let queen: i64 = ranks[7]
        .split_whitespace()
        .find_map(|c| c.strip_prefix('Q'))
        .and_then(|v| v.trim_start_matches('+').parse().ok())
        .unwrap_or_else(|| e.fail(&format!("no white queen on rank 1: {}", ranks[7])));
    assert!(queen > 300, "{}", ranks[7]);
    let white = eval_figure(&e, &lines, "info string the network's score:");
    let eval = eval_figure(&e, &lines, "info string eval ");
    assert_eq!(white, -eval, "Black to move: {lines:?}");
    e.quit();
}

/// The `info string` lines that name the evaluation, among the lines of one `go`.
fn evaluation_lines(e: &mut Engine, go: &str) -> Vec<String> {
    e.send(go);
    let (lines, _) = e.wait_bestmove(WAIT);
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string NNUE evaluation") || l.contains("hand-written"))
        .collect()
}

#[test]
fn the_evaluation_is_named_at_the_first_search_and_when_it_changes() {
    let file = network_file("named", 11);
    let mut e = Engine::spawn();
    e.handshake();
    e.send("position startpos");
    let first = evaluation_lines(&mut e, "go depth 2");
    match tabas::nnue::embedded_name() {
        Some(name) => assert_eq!(
            first,
            [format!(
                "info string NNUE evaluation using {name} ({HIDDEN} hidden units, 8 output buckets)"
            )]
        ),
        None => assert!(first[0].contains("hand-written"), "{first:?}"),
    }
    // Once: the next search says nothing.
    assert_eq!(evaluation_lines(&mut e, "go depth 2"), Vec::<String>::new());
    e.send("setoption name Use NNUE value false");
    let by_hand = evaluation_lines(&mut e, "go depth 2");
    assert_eq!(by_hand.len(), 1, "{by_hand:?}");
    assert!(by_hand[0].contains("hand-written"), "{by_hand:?}");
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    e.send("setoption name Use NNUE value true");
    let from_file = evaluation_lines(&mut e, "go depth 2");
    assert_eq!(
        from_file,
        [format!(
            "info string NNUE evaluation using {} ({HIDDEN} hidden units, {MAX_OUTPUT_BUCKETS} output buckets)",
            file.display()
        )]
    );
    e.quit();
    let _ = std::fs::remove_file(file);
}
