//! What OpenBench (and other testers) run through the real binary: `genfens` as an
//! argument line (`tabas "genfens N seed S book <None|FILE>" quit`) and typed on
//! stdin, the arguments as UCI command lines run in order (`tabas "go perft 3"
//! quit`), `--help` and `--version`.

mod common;

use common::{Engine, LONG, OutputCheck, parse_fen};
use shakmaty::Position;
use std::collections::HashSet;

/// `tabas ARGS…` to its end (exit status 0), its stdout lines checked by `check`.
fn run(args: &[&str], check: OutputCheck) -> Vec<String> {
    let mut engine = Engine::spawn_args(args);
    engine.check = check;
    let status = engine.wait_exit(LONG);
    if !status.success() {
        engine.fail(&format!("exit status {status:?}"));
    }
    engine
        .received()
        .into_iter()
        .filter(|l| l != "<EOF>")
        .collect()
}

/// The FENs of `genfens` with `args`; every line must be a `genfens` line.
fn genfens(line: &str) -> Vec<String> {
    run(&[line, "quit"], OutputCheck::Protocol)
        .into_iter()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .unwrap_or_else(|| panic!("not a genfens line: {l:?}"))
                .to_string()
        })
        .collect()
}

/// A legal position whose game goes on and whose side to move is not in check.
fn check_usable(fen: &str) {
    assert_eq!(fen.split(' ').count(), 6, "not a full FEN: {fen}");
    let pos = parse_fen(fen);
    assert!(!pos.legal_moves().is_empty(), "no legal move: {fen}");
    assert!(!pos.is_check(), "side to move in check: {fen}");
}

#[test]
fn random_openings_are_legal_and_seeded() {
    let a = genfens("genfens 5 seed 3 book None");
    assert_eq!(a.len(), 5, "{a:?}");
    for fen in &a {
        check_usable(fen);
        let pos = parse_fen(fen);
        assert_ne!(pos, shakmaty::Chess::default(), "{fen}");
    }
    assert_eq!(
        genfens("genfens 5 seed 3 book None"),
        a,
        "same seed, same FENs"
    );
    let b = genfens("genfens 5 seed 4 book None");
    assert_eq!(b.len(), 5);
    assert_ne!(b, a, "another seed, other FENs");
    let many = genfens("genfens 200 seed 11 book None");
    assert_eq!(many.len(), 200);
    many.iter().for_each(|f| check_usable(f));
    let distinct: HashSet<&String> = many.iter().collect();
    assert!(distinct.len() > 190, "{} distinct of 200", distinct.len());
}

#[test]
fn book_positions_are_picked_by_seed() {
    let dir = common::tools::temp_dir("openbench", "book");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    let usable = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        // EPD: four fields and operations.
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - bm c4; id \"x\";",
    ];
    // Checkmated (fool's mate) and in check: never picked.
    let unusable = [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    ];
    let text = format!(
        "# a comment\n\n{}\n{}\n{}\n{}\n{}\n",
        usable[0], unusable[0], usable[1], unusable[1], usable[2]
    );
    std::fs::write(&book, text).unwrap();
    let book = common::tools::path(&book);
    let expected: HashSet<String> = usable
        .iter()
        .map(|f| {
            let four: Vec<&str> = f.split(' ').take(4).collect();
            four.join(" ")
        })
        .collect();

    let line = format!("genfens 30 seed 5 book {book}");
    let fens = genfens(&line);
    assert_eq!(fens.len(), 30);
    let mut seen = HashSet::new();
    for fen in &fens {
        check_usable(fen);
        let four: Vec<&str> = fen.split(' ').take(4).collect();
        let four = four.join(" ");
        assert!(
            expected.contains(&four),
            "not a usable book position: {fen}"
        );
        seen.insert(four);
    }
    assert_eq!(seen, expected, "30 picks of 3 positions reach all 3");
    assert!(fens.contains(&"rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1".into()));
    assert_eq!(genfens(&line), fens, "same seed, same picks");
    assert_ne!(genfens(&format!("genfens 30 seed 6 book {book}")), fens);

    // A book line that is not a position, an empty book: one error line each.
    for (name, text) in [("bad.epd", "hello world\n"), ("empty.epd", "# nothing\n\n")] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let line = format!("genfens 3 seed 1 book {}", common::tools::path(&file));
        let out = run(&[&line, "quit"], OutputCheck::Protocol);
        assert_eq!(out.len(), 1, "{name}: {out:?}");
        assert!(
            out[0].starts_with("info string error: genfens"),
            "{name}: {out:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_typed_on_stdin_answers_as_the_argument_line_does() {
    let mut engine = Engine::spawn();
    engine.send("genfens 4 seed 21 book None");
    let typed: Vec<String> = engine
        .sync()
        .into_iter()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .unwrap_or(&l)
                .to_string()
        })
        .collect();
    engine.quit();
    assert_eq!(typed, genfens("genfens 4 seed 21 book None"));
}

#[test]
fn bad_genfens_lines_give_one_error_line() {
    for line in [
        "genfens",
        "genfens x seed 1 book None",
        "genfens 0 seed 1 book None",
        "genfens 3 seed -2 book None",
        "genfens 3 seed 1 book",
        "genfens 3 seed 1 book /nonexistent/tabas-book.epd",
    ] {
        let out = run(&[line, "quit"], OutputCheck::Protocol);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{line}: {out:?}");
    }
}

#[test]
fn arguments_are_uci_lines_run_in_order() {
    let out = run(&["go perft 3", "quit"], OutputCheck::ProtocolDisplayOrTool);
    assert_eq!(
        out.last().map(String::as_str),
        Some("Nodes searched: 8902"),
        "{out:?}"
    );
    assert_eq!(out.len(), 22, "20 moves, a blank line, the total: {out:?}");

    // In order: the handshake, then the FENs, then `readyok`; nothing after `quit`.
    let out = run(
        &[
            "uci",
            "genfens 2 seed 1 book None",
            "isready",
            "quit",
            "go perft 2",
        ],
        OutputCheck::Protocol,
    );
    let uciok = out.iter().position(|l| l == "uciok").expect("uciok");
    let fens: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].starts_with("info string genfens "))
        .collect();
    assert_eq!(fens.len(), 2, "{out:?}");
    assert!(uciok < fens[0], "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");

    // A search runs to its end before the next line (`quit`) is sent.
    let out = run(
        &["position startpos moves e2e4", "go depth 5", "quit"],
        OutputCheck::Protocol,
    );
    let best = out.last().expect("output");
    assert!(best.starts_with("bestmove "), "{out:?}");
    let pos = common::position_after(None, &["e2e4"]);
    let mv = best.split(' ').nth(1).unwrap_or("");
    let legal = common::parse_engine_move(&pos, mv, shakmaty::CastlingMode::Standard);
    assert!(legal.is_ok(), "{best}: {legal:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 5 ")),
        "the search reached depth 5: {out:?}"
    );

    // A `go` with a bad word warns, searches all the same, and is waited for.
    let out = run(&["go perft x depth 4", "quit"], OutputCheck::Protocol);
    assert!(out[0].starts_with("info string error: "), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 4 ")),
        "{out:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    let out = run(&["bench x", "isready"], OutputCheck::Protocol);
    assert!(out[0].starts_with("info string error: "), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");

    // Without `quit`: the end of the arguments ends the engine.
    let out = run(&["isready"], OutputCheck::Protocol);
    assert_eq!(out, ["readyok"]);
}

#[test]
fn help_and_version() {
    let out = run(&["--version"], OutputCheck::Any);
    // The version, then the CPU level the binary is built for (`make levels`).
    assert_eq!(out.len(), 1, "{out:?}");
    // (A development build: `tabas 0.1.0-dev-1a2b3c4 (x86-64)`.)
    let version = format!("tabas {}", env!("CARGO_PKG_VERSION"));
    assert!(out[0].starts_with(&version), "{out:?}");
    assert!(
        out[0].contains(" (x86-64") && out[0].ends_with(')'),
        "{out:?}"
    );
    for flag in ["--help", "-h"] {
        let text = run(&[flag], OutputCheck::Any).join("\n");
        assert!(text.starts_with("usage: tabas"), "{text}");
        for mention in ["genfens", "bench", "perft", "UCI command line", "--version"] {
            assert!(
                text.contains(mention),
                "{flag} does not mention {mention}: {text}"
            );
        }
    }
    // The tools' own usage (a build without them refuses them: the next test).
    #[cfg(feature = "tools")]
    for tool in ["datagen", "tune", "train", "wdl-fit"] {
        let text = run(&[tool, "--help"], OutputCheck::Any).join("\n");
        assert!(
            text.contains(&format!("tabas {tool}")),
            "{tool} --help: {text}"
        );
    }
    let o = common::tools::tabas(&["--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::tools::stderr(&o).contains("unknown argument '--no-such-flag'"));
}

/// The engine OpenBench builds (`make`: no cargo feature `tools`) knows the tools'
/// words only to say that they are not built in: one line on stderr, nothing on
/// stdout, status 2, with or without arguments. (A default build runs them: the tools'
/// own tests.)
#[cfg(not(feature = "tools"))]
#[test]
fn an_engine_without_the_tools_says_so_for_each_tool() {
    for tool in ["datagen", "dataset", "tune", "train", "wdl-fit", "lab"] {
        for args in [
            &[tool][..],
            &[tool, "--help"],
            &[tool, "--out", "/nonexistent/x"],
        ] {
            let o = common::tools::tabas(args);
            let stderr = common::tools::stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(
                stderr,
                format!(
                    "tabas: '{tool}' is a tool, not built into this engine \
                     (build with the default features: cargo build --release)\n"
                ),
                "{args:?}"
            );
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
}
