//! `tabas import-pgn` as a user runs it, on a PGN that a real fastchess run of Tabas
//! wrote (`tests/data/fastchess-tabas.pgn`: four games against Stockfish 15.1 with
//! `nodes=true seldepth=true`, SAN, book moves, mates, and two Tabas-against-Tabas
//! games in UCI notation, one adjudicated a draw): the folder it writes is read by
//! `tabas dataset`, bad or cut PGNs are refused with the game and the line, and
//! nothing is written then.
//!
//! A tool's test (`src/tools/`): built with the cargo feature `tools` only.

#![cfg(feature = "tools")]

mod common;

use common::tools::{path, tabas, temp_dir};
use std::path::PathBuf;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fastchess-tabas.pgn")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_fastchess_pgn_becomes_a_data_folder_with_tabas_scores_only() {
    let text = std::fs::read_to_string(fixture()).unwrap();
    // Counted here from the text, independently of the importer.
    let games = text.matches("[Result \"").count();
    let book = text.matches("{book}").count();
    assert_eq!(games, 6);
    let out = temp_dir("import-pgn", "all");
    // The fixture's Tabas (a 0.2.0 build) showed a pawn as 130.2 internal units.
    let run = tabas(&[
        "import-pgn",
        "--out",
        path(&out),
        "--pawn",
        "130.2",
        path(&fixture()),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let said = stdout(&run);
    assert!(
        said.contains(&format!("games: {games} (positions ")),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "unscored moves kept for the replay: {book} book, "
        )),
        "{said}"
    );
    assert!(said.contains("0 without a Tabas player"), "{said}");
    // Stockfish's moves are kept, never its scores: in its four games, its half of the
    // scored moves is unscored.
    assert!(!said.contains(" 0 by the other engine"), "{said}");
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).unwrap();
    assert!(
        manifest.contains("command: tabas import-pgn --out"),
        "{manifest}"
    );
    assert!(
        manifest.contains("pawn: 130.200 internal units a shown pawn"),
        "{manifest}"
    );

    let dataset = tabas(&["dataset", path(&out)]);
    assert!(dataset.status.success(), "{}", stderr(&dataset));
    assert!(
        stdout(&dataset).starts_with(&format!("{games} games, ")),
        "{}",
        stdout(&dataset)
    );
    // Every position replays; the first game's opening is book (unscored), then
    // Stockfish (White) is unscored and Tabas (Black) scored, White's point of view.
    let dump = tabas(&["dataset", path(&out), "--dump", "40"]);
    let lines: Vec<String> = stdout(&dump).lines().map(String::from).collect();
    let score = |i: usize| -> i32 { lines[i].split(" | ").nth(1).unwrap().parse().unwrap() };
    for (i, line) in lines.iter().enumerate().take(16) {
        assert_eq!(score(i), i32::from(i16::MIN), "book move {i}: {line}");
    }
    assert_eq!(
        score(16),
        i32::from(i16::MIN),
        "Stockfish's 9. c3 +0.52 is not kept"
    );
    // Tabas's 9... Bb7 {-0.32/13}: Black's −32 shown cp, +42 internal for White (× 1.302).
    assert_eq!(score(17), 42, "{}", lines[17]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn engine_names_the_player_whose_scores_are_kept() {
    let out = temp_dir("import-pgn", "engine");
    let run = tabas(&[
        "import-pgn",
        "--out",
        path(&out),
        "--engine",
        "tabas-new",
        path(&fixture()),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let said = stdout(&run);
    // The four games of the player called `tabas` have no `tabas-new`.
    assert!(said.contains("games: 2 "), "{said}");
    assert!(said.contains("4 without a Tabas player"), "{said}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_pgns_are_refused_with_the_game_and_line_and_nothing_is_written() {
    let text = std::fs::read_to_string(fixture()).unwrap();
    let dir = temp_dir("import-pgn", "bad");
    std::fs::create_dir_all(&dir).unwrap();
    // Cut inside the third game's moves (a comment left open), and a move that is
    // not legal in the first game.
    let third = text.match_indices("[Event").nth(2).unwrap().0;
    let cut = third + text[third..].find("{+").unwrap() + 3;
    let illegal = text.replacen("2. d4 {book}", "2. Nf6 {book}", 1);
    for (name, content, says) in [
        ("cut.pgn", &text[..cut], "game 3, line "),
        (
            "illegal.pgn",
            illegal.as_str(),
            "game 1, line 21: move 3 'Nf6' is not legal",
        ),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, content).unwrap();
        let out = dir.join(format!("{name}.out"));
        let run = tabas(&["import-pgn", "--out", path(&out), path(&file)]);
        assert_eq!(run.status.code(), Some(1), "{name}");
        let e = stderr(&run);
        assert!(
            e.contains(name) && e.contains(says) && e.contains("nothing written"),
            "{e}"
        );
        assert!(!out.exists(), "{name}: a folder was written");
        let leftovers = std::fs::read_dir(&dir).unwrap().filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".partial-")
        });
        assert_eq!(leftovers.count(), 0, "{name}: a half-written folder stayed");
    }
    let e = stderr(&tabas(&[
        "import-pgn",
        "--out",
        path(&dir.join("x")),
        path(&dir.join("illegal.pgn")),
    ]));
    assert!(e.contains("move 3 'Nf6' is not legal"), "{e}");
    // A folder that holds something is not overwritten.
    let run = tabas(&["import-pgn", "--out", path(&dir), path(&fixture())]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("exists and is not empty"),
        "{}",
        stderr(&run)
    );
    // Bad command lines: usage, status 2.
    for args in [
        vec!["import-pgn"],
        vec!["import-pgn", "--out", "x"],
        vec!["import-pgn", "--bogus", "f"],
    ] {
        assert_eq!(tabas(&args).status.code(), Some(2), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
