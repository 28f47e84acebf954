//! The move played is the move shown: every `bestmove` is the first move of the last
//! `info … pv …` line of line 1 before it (the line a GUI shows), and that line has an
//! exact score, whatever ends the search (depth, nodes, movetime, the clock, `stop`),
//! with MultiPV 1 and 3; and a `stop` right after `go` still answers a searched move,
//! with its line.

mod common;

use common::{Engine, PROMPT};
use std::time::Duration;

/// Seeded numbers for the searches' limits (a test must repeat itself).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The last `info` line of line 1 that has a PV, among `lines`.
fn last_line_shown(lines: &[String]) -> Option<&String> {
    lines.iter().rev().find(|l| {
        l.starts_with("info ")
            && l.contains(" pv ")
            && !l
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w[0] == "multipv" && w[1] != "1")
    })
}

/// The word after `key` in an `info` line.
fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find(|w| w[0] == key).map(|w| w[1])
}

/// Sends `go …` (and `stop` after `stop_after`, if any) and checks the answer
/// against the last line shown; returns the move played.
fn search_and_check(engine: &mut Engine, go: &str, stop_after: Option<Duration>) -> String {
    engine.send(go);
    if let Some(wait) = stop_after {
        std::thread::sleep(wait);
        engine.send("stop");
    }
    let lines = engine.collect_until("bestmove", PROMPT, |l| l.starts_with("bestmove"));
    let answer = lines.last().unwrap().clone();
    let played = answer.split_whitespace().nth(1).unwrap().to_string();
    if played == "(none)" {
        // No legal move (the fast games here can end in mate): nothing to show but the
        // result, `info depth 0 score mate 0` (checked by the protocol tests).
        return played;
    }
    let Some(shown) = last_line_shown(&lines[..lines.len() - 1]) else {
        panic!(
            "`{go}`: no line shown before `{answer}`:\n{}",
            lines.join("\n")
        );
    };
    assert_eq!(
        word_after(shown, "pv"),
        Some(played.as_str()),
        "`{go}`: `{answer}` is not the move of the last line shown, `{shown}`"
    );
    assert!(
        !shown.contains("lowerbound") && !shown.contains("upperbound"),
        "`{go}`: the last line shown before `{answer}` has a bound: `{shown}`"
    );
    played
}

#[test]
fn every_bestmove_is_the_move_of_the_last_line_shown() {
    let mut engine = Engine::spawn();
    engine.handshake();
    let mut rng = Lcg(2027);
    for multipv in [1, 3] {
        engine.send(&format!("setoption name MultiPV value {multipv}"));
        engine.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for search in 0..60 {
            if moves.len() >= 60 {
                moves.clear();
                engine.send("ucinewgame");
            }
            engine.send(&format!("position startpos moves {}", moves.join(" ")));
            let (go, stop_after) = match search % 5 {
                0 => (format!("go movetime {}", 1 + rng.below(30)), None),
                1 => {
                    let clock = 100 + rng.below(1500);
                    (
                        format!("go wtime {clock} btime {clock} winc 10 binc 10"),
                        None,
                    )
                }
                2 => (
                    "go infinite".to_string(),
                    Some(Duration::from_millis(rng.below(40))),
                ),
                3 => (format!("go nodes {}", 1 + rng.below(30_000)), None),
                _ => (format!("go depth {}", 1 + rng.below(8)), None),
            };
            let played = search_and_check(&mut engine, &go, stop_after);
            if played == "(none)" {
                moves.clear();
                engine.send("ucinewgame");
            } else {
                moves.push(played);
            }
        }
    }
    engine.send("quit");
}

#[test]
fn a_stop_right_after_go_answers_a_searched_move_with_its_line() {
    let mut engine = Engine::spawn();
    engine.handshake();
    for fen in [
        "startpos",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        for go in [
            "go movetime 3000",
            "go infinite",
            "go wtime 60000 btime 60000",
        ] {
            engine.send(&format!("position {fen}"));
            search_and_check(&mut engine, go, Some(Duration::ZERO));
        }
    }
    engine.send("quit");
}
