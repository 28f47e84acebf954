//! `Threads` (Lazy SMP) and `MultiPV` against the real binary: every search still
//! gives one legal best move; MultiPV lines are distinct moves, best first, each with
//! its own legal line; a single thread stays deterministic.

mod common;

use common::*;
use shakmaty::{CastlingMode, Chess, Position};
use std::collections::HashSet;
use std::time::Duration;

const STD: CastlingMode = CastlingMode::Standard;
const WAIT: Duration = Duration::from_secs(60);
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn ready_engine() -> Engine {
    let mut e = Engine::spawn();
    e.handshake();
    e.sync();
    e
}

fn set(e: &mut Engine, option: &str, value: &str) {
    e.send(&format!("setoption name {option} value {value}"));
    let lines = e.sync();
    if !lines.is_empty() {
        e.fail(&format!("setoption {option} {value}: {lines:?}"));
    }
}

/// The info lines of the last completed depth, by multipv number.
fn last_depth_lines(infos: &[String]) -> Vec<Info> {
    let parsed: Vec<Info> = infos
        .iter()
        .filter_map(|l| parse_info(l).ok())
        .filter(|i| i.depth.is_some() && i.pv.is_some())
        .collect();
    let Some(last) = parsed.iter().filter_map(|i| i.depth).max() else {
        return Vec::new();
    };
    parsed
        .into_iter()
        .filter(|i| i.depth == Some(last))
        .collect()
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let mut e = ready_engine();
    set(&mut e, "MultiPV", "3");
    let pos = parse_fen(KIWIPETE);
    e.send(&format!("position fen {KIWIPETE}"));
    let r = e.go_checked("go depth 6", &pos, STD, WAIT);
    let lines = last_depth_lines(&r.infos);
    let numbers: Vec<i64> = lines.iter().filter_map(|i| i.multipv).collect();
    assert_eq!(numbers, vec![1, 2, 3], "{:?}", r.infos);
    let firsts: HashSet<&String> = lines.iter().map(|i| &i.pv.as_ref().unwrap()[0]).collect();
    assert_eq!(
        firsts.len(),
        3,
        "the lines start with the same move: {:?}",
        r.infos
    );
    let scores: Vec<i64> = lines
        .iter()
        .map(|i| {
            let (kind, v, bound) = i.score.clone().expect("a score");
            assert_eq!(kind, "cp");
            assert!(bound.is_none(), "MultiPV lines are exact");
            v
        })
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "not best first: {scores:?}"
    );
    // The best move is line 1's first move.
    let best = r.best.expect("a move").to_uci(STD).to_string();
    assert_eq!(&best, &lines[0].pv.as_ref().unwrap()[0]);
    e.quit();
}

#[test]
fn multipv_is_limited_by_the_moves_there_are_and_by_searchmoves() {
    let mut e = ready_engine();
    set(&mut e, "MultiPV", "10");
    // Black king on h8: only two legal moves.
    let fen = "7k/8/6K1/8/8/8/8/1Q6 b - - 0 1";
    let pos = parse_fen(fen);
    let legal = pos.legal_moves().len() as i64;
    assert!(legal < 10);
    e.send(&format!("position fen {fen}"));
    let r = e.go_checked("go depth 4", &pos, STD, WAIT);
    let numbers: Vec<i64> = last_depth_lines(&r.infos)
        .iter()
        .filter_map(|i| i.multipv)
        .collect();
    assert_eq!(numbers, (1..=legal).collect::<Vec<_>>(), "{:?}", r.infos);

    let pos = Chess::default();
    e.send("position startpos");
    let r = e.go_checked("go depth 4 searchmoves e2e4 d2d4", &pos, STD, WAIT);
    let lines = last_depth_lines(&r.infos);
    let firsts: HashSet<String> = lines
        .iter()
        .map(|i| i.pv.as_ref().unwrap()[0].clone())
        .collect();
    assert_eq!(
        firsts,
        HashSet::from(["e2e4".to_string(), "d2d4".to_string()]),
        "{:?}",
        r.infos
    );
    e.quit();
}

#[test]
fn several_threads_search_and_stop_together() {
    let mut e = ready_engine();
    set(&mut e, "Threads", "4");
    let pos = parse_fen(KIWIPETE);
    e.send(&format!("position fen {KIWIPETE}"));
    e.go_checked("go depth 7", &pos, STD, WAIT);
    // A node limit counts every thread's nodes.
    let r = e.go_checked("go nodes 20000", &pos, STD, WAIT);
    let nodes = r
        .infos
        .iter()
        .filter_map(|l| parse_info(l).ok()?.nodes)
        .max()
        .unwrap_or(0);
    assert!(
        nodes <= 20000 + 4 * 2048,
        "{nodes} nodes for go nodes 20000"
    );
    // Stop ends all threads; the next search starts cleanly.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    e.finish_checked(&pos, STD, WAIT);
    // Fewer threads during a search: applied after it, and nothing breaks. (Sent
    // without `set`: the search's info lines may come before `readyok`.)
    e.send("go infinite");
    e.send("setoption name Threads value 2");
    e.send("stop");
    let r = e.finish_checked(&pos, STD, WAIT);
    if let Some(error) = r.infos.iter().find(|l| l.contains("error")) {
        e.fail(&format!("setoption Threads during a search: {error}"));
    }
    e.go_checked("go depth 6", &pos, STD, WAIT);
    e.quit();
}

#[test]
fn one_thread_is_deterministic() {
    let nodes = |e: &mut Engine| -> u64 {
        e.send("ucinewgame");
        e.send(&format!("position fen {KIWIPETE}"));
        let r = e.go_checked("go depth 8", &parse_fen(KIWIPETE), STD, WAIT);
        r.infos
            .iter()
            .filter_map(|l| parse_info(l).ok()?.nodes)
            .max()
            .expect("info with nodes")
    };
    let mut e = ready_engine();
    let first = nodes(&mut e);
    // Threads up and back down: the single thread searches as before.
    set(&mut e, "Threads", "3");
    nodes(&mut e);
    set(&mut e, "Threads", "1");
    assert_eq!(nodes(&mut e), first);
    e.quit();
}
