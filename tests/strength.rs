//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`, `UCI_AnalyseMode`, `UCI_Opponent`)
//! against the real binary: the options; legal moves, one `bestmove` each, and the move
//! played is the move shown, at the weakest and the strongest level; `stop`, `isready`
//! and `ponderhit` answered as at full strength; analysis at full strength; every level
//! mates a bare king with a queen or a rook; and the centipawns lost on fixed positions
//! rise as `UCI_Elo` falls.
//!
//! The choices are seeded (`Strength Seed`), so that every run plays the same moves.

mod common;

use common::*;
use shakmaty::{CastlingMode, Chess, Color, Position, Square};
use std::time::{Duration, Instant};

const STD: CastlingMode = CastlingMode::Standard;
/// The clock of a game at 10+0.1, where the levels' budgets hold as their table says.
const CLOCK: &str = "wtime 10000 btime 10000 winc 100 binc 100";

/// `UCI_Elo`'s range, read from the `uci` reply.
fn elo_range(e: &mut Engine) -> (u32, u32) {
    let lines = e.handshake();
    let Some(line) = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo type spin "))
    else {
        e.fail("no UCI_Elo option");
    };
    let number = |key: &str| -> u32 {
        line.split(&format!(" {key} "))
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {line:?}"))
    };
    let (default, min, max) = (number("default"), number("min"), number("max"));
    assert!(min < max && (min..=max).contains(&default), "{line}");
    (min, max)
}

/// An engine at `elo` (limit on) with a fixed seed; returns it and the range.
fn limited_engine(elo: Option<u32>) -> (Engine, u32, u32) {
    let mut e = Engine::spawn();
    let (min, max) = elo_range(&mut e);
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!(
        "setoption name UCI_Elo value {}",
        elo.unwrap_or(min)
    ));
    e.send("setoption name Strength Seed value 2027");
    let lines = e.sync();
    if !lines.is_empty() {
        e.fail(&format!("setting the options printed {lines:?}"));
    }
    (e, min, max)
}

/// The last `info` line of line 1 with a pv.
fn last_line_shown(infos: &[String]) -> Option<&String> {
    infos.iter().rev().find(|l| {
        let info = parse_info(l).unwrap();
        info.pv.is_some() && info.multipv.unwrap_or(1) == 1
    })
}

/// A checked search (legal lines and move, one `bestmove`) whose move is the first of
/// the last line 1 shown, with an exact score.
#[track_caller]
fn search(e: &mut Engine, go: &str, pos: &Chess) -> Searched {
    let searched = e.go_checked(go, pos, STD, LONG);
    let Some(best) = searched.best else {
        return searched;
    };
    let Some(shown) = last_line_shown(&searched.infos) else {
        e.fail(&format!("no line shown before {}", searched.best_line));
    };
    let info = parse_info(shown).unwrap();
    if info.pv.as_ref().unwrap()[0] != best.to_uci(STD).to_string() {
        e.fail(&format!(
            "{} is not the move of the last line shown, {shown}",
            searched.best_line
        ));
    }
    if info.score.as_ref().unwrap().2.is_some() {
        e.fail(&format!("the last line shown has a bound: {shown}"));
    }
    searched
}

#[test]
fn the_options_are_listed_and_bad_values_refused() {
    let mut e = Engine::spawn();
    let lines = e.handshake();
    for wanted in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_AnalyseMode type check default false",
        "option name UCI_Opponent type string default <empty>",
    ] {
        if !lines.iter().any(|l| l == wanted) {
            e.fail(&format!("no line {wanted:?}"));
        }
    }
    let (min, max) = elo_range(&mut e);
    for bad in [
        format!("setoption name UCI_Elo value {}", min - 1),
        format!("setoption name UCI_Elo value {}", max + 1),
        "setoption name UCI_Elo value strong".to_string(),
        "setoption name UCI_Elo".to_string(),
        "setoption name UCI_LimitStrength value yes".to_string(),
        "setoption name UCI_AnalyseMode value 1".to_string(),
        "setoption name UCI_Opponent value GM 2800".to_string(),
        "setoption name UCI_Opponent value none lots human Magnus".to_string(),
    ] {
        e.send(&bad);
        let lines = e.sync();
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        if errors != 1 || lines.len() != 1 {
            e.fail(&format!("{bad:?}: expected one error line, got {lines:?}"));
        }
    }
    for good in [
        format!("setoption name UCI_Elo value {min}"),
        format!("setoption name uci_elo value {max}"),
        "setoption name UCI_LimitStrength value true".to_string(),
        "setoption name UCI_AnalyseMode value false".to_string(),
        "setoption name UCI_Opponent value GM 2800 human Magnus Carlsen".to_string(),
        "setoption name UCI_Opponent value none none computer Stockfish 15.1".to_string(),
        "setoption name UCI_Opponent value <empty>".to_string(),
        "setoption name UCI_Opponent".to_string(),
    ] {
        e.send(&good);
        let lines = e.sync();
        if !lines.is_empty() {
            e.fail(&format!("{good:?}: expected silence, got {lines:?}"));
        }
    }
    e.quit();
}

/// Self-play at the weakest and the strongest level: every move legal and shown, one
/// line per iteration with MultiPV 1, MultiPV 3 still three lines, two threads still
/// one `bestmove`.
#[test]
fn limited_levels_play_legal_moves_and_show_the_move_played() {
    for strongest in [false, true] {
        let (mut e, _, max) = limited_engine(None);
        if strongest {
            e.send(&format!("setoption name UCI_Elo value {max}"));
        }
        e.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..14 {
            let multipv = if ply % 7 == 6 { 3 } else { 1 };
            let threads = if ply % 5 == 4 { 2 } else { 1 };
            e.send(&format!("setoption name MultiPV value {multipv}"));
            e.send(&format!("setoption name Threads value {threads}"));
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            let pos = position_after(None, &refs);
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let searched = search(&mut e, &format!("go {CLOCK}"), &pos);
            let numbers: Vec<i64> = searched
                .infos
                .iter()
                .filter_map(|l| parse_info(l).unwrap().multipv)
                .collect();
            if numbers.iter().any(|&k| k > multipv) {
                e.fail(&format!("lines beyond MultiPV {multipv}: {numbers:?}"));
            }
            if multipv == 3 && !numbers.contains(&3) {
                e.fail(&format!("MultiPV 3 showed only {numbers:?}"));
            }
            let Some(best) = searched.best else { break };
            moves.push(best.to_uci(STD).to_string());
        }
        e.quit();
    }
}

#[test]
fn stop_isready_and_ponderhit_are_answered_as_at_full_strength() {
    let (mut e, _, max) = limited_engine(None);
    for elo in [None, Some(max)] {
        if let Some(elo) = elo {
            e.send(&format!("setoption name UCI_Elo value {elo}"));
        }
        let pos = Chess::default();
        e.send("position startpos");
        // `go infinite` spends its budget, then waits for `stop` alone.
        e.send("go infinite");
        e.expect_prefix("info depth", PROMPT);
        let asked = Instant::now();
        for l in e.sync() {
            if l.starts_with("bestmove") {
                e.fail("bestmove during go infinite before stop");
            }
        }
        if asked.elapsed() > Duration::from_secs(5) {
            e.fail(&format!("readyok took {:?}", asked.elapsed()));
        }
        for l in e.lines_for(Duration::from_millis(300)) {
            if l.starts_with("bestmove") {
                e.fail("go infinite ended by itself");
            }
        }
        e.send("stop");
        e.finish_checked(&pos, STD, PROMPT);
        // A stop right after go, whether or not the session has read the go yet.
        for i in 0..10 {
            let go = if i % 2 == 0 {
                "go infinite".to_string()
            } else {
                format!("go {CLOCK}")
            };
            e.send_bytes(format!("{go}\nstop\n").as_bytes());
            let (lines, best) = e.wait_bestmove(PROMPT);
            for l in &lines {
                check_info(&e, &pos, l, STD);
            }
            check_bestmove(&e, &pos, &best, STD);
        }
        e.assert_no_extra_bestmove();
        // Pondering: the budget is spent, then `ponderhit` answers at once.
        let pondered = position_after(None, &["e2e4", "e7e5"]);
        e.send("position startpos moves e2e4 e7e5");
        e.send(&format!("go ponder {CLOCK}"));
        e.expect_prefix("info depth", PROMPT);
        std::thread::sleep(Duration::from_millis(100));
        e.send("ponderhit");
        e.finish_checked(&pondered, STD, PROMPT);
        e.send(&format!("go ponder {CLOCK}"));
        e.send("stop");
        e.finish_checked(&pondered, STD, PROMPT);
    }
    e.quit();
}

/// The depth of the last line before `bestmove` of `go depth 8` from the start position,
/// searched from a cleared table (`ucinewgame`), so that a search before it does not
/// carry it deeper within a level's node budget.
fn depth_reached(e: &mut Engine) -> i64 {
    e.send("ucinewgame");
    e.send("position startpos");
    let searched = search(e, "go depth 8", &Chess::default());
    let shown = last_line_shown(&searched.infos).expect("a line");
    parse_info(shown).unwrap().depth.unwrap()
}

#[test]
fn analysis_is_at_full_strength_whatever_the_limit() {
    let (mut e, _, _) = limited_engine(None);
    let limited = depth_reached(&mut e);
    assert!(limited < 8, "the weakest level searched to depth {limited}");
    e.send("setoption name UCI_AnalyseMode value true");
    assert_eq!(depth_reached(&mut e), 8);
    e.send("setoption name UCI_AnalyseMode value false");
    assert_eq!(depth_reached(&mut e), limited);
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(depth_reached(&mut e), 8);
    e.quit();
}

/// The defence of a bare king: take a piece left hanging, else go where the king is
/// farthest from the edges, then from the other king (deterministic).
fn defend(pos: &Chess) -> shakmaty::Move {
    let moves = pos.legal_moves();
    if let Some(capture) = moves.iter().find(|m| m.is_capture()) {
        return *capture;
    }
    let centrality = |sq: Square| {
        let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
        f.min(7 - f) + r.min(7 - r)
    };
    let their_king = pos.board().king_of(!pos.turn()).expect("a king");
    *moves
        .iter()
        .max_by_key(|m| (centrality(m.to()), m.to().distance(their_king)))
        .expect("a legal move")
}

/// Plays `fen` out at `elo` against `defend`: the engine must mate within 50 moves.
fn mates(e: &mut Engine, fen: &str, elo: u32) {
    let start = parse_fen(fen);
    let attacker = if start.board().by_color(Color::White).count() > 1 {
        Color::White
    } else {
        Color::Black
    };
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    e.send("ucinewgame");
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut seen = vec![fen_of(&pos)];
    loop {
        if pos.is_checkmate() {
            return;
        }
        let label = format!("{fen} at {elo}, after {}", moves.join(" "));
        if pos.is_stalemate() || pos.is_insufficient_material() {
            e.fail(&format!("{label}: not a mate"));
        }
        if moves.len() >= 100 {
            e.fail(&format!("{label}: no mate within 50 moves"));
        }
        let m = if pos.turn() == attacker {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            search(e, &format!("go {CLOCK}"), &pos)
                .best
                .expect("a move")
        } else {
            defend(&pos)
        };
        moves.push(m.to_uci(STD).to_string());
        pos.play_unchecked(m);
        let key = fen_of(&pos);
        let key = key.rsplitn(3, ' ').nth(2).unwrap().to_string();
        if seen.iter().filter(|k| **k == key).count() >= 2 {
            e.fail(&format!("{label}: threefold repetition"));
        }
        seen.push(key);
    }
}

#[test]
fn every_level_mates_a_bare_king_with_a_queen_or_a_rook() {
    let (mut e, min, max) = limited_engine(None);
    for elo in [min, (2 * min + max) / 3, (min + 2 * max) / 3, max] {
        for fen in [
            "8/8/3k4/8/8/8/8/Q3K3 w - - 0 1",
            "8/8/8/8/4k3/8/8/KQ6 b - - 0 1",
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "r3k3/8/8/8/4K3/8/8/8 b - - 0 1",
        ] {
            mates(&mut e, fen, elo);
        }
    }
    e.quit();
}

/// A tablebase win is kept at the weakest and the strongest level: 8 moves of K+Q v K+R
/// against the tables' best defence, each move still a win by the tables. Needs the
/// 3-4-piece tables (`TABAS_SYZYGY`, else `../shared/data/syzygy`); without them the
/// test says so on stderr and passes.
#[test]
fn a_tablebase_win_is_kept_at_every_level() {
    use shakmaty_syzygy::{Tablebase, Wdl};
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let mut tables = Tablebase::<Chess>::new();
    tables.add_directory(&dir).expect("the tables");
    let (mut e, min, max) = limited_engine(None);
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.sync();
    for (elo, fen) in [
        (min, "8/8/3k4/8/8/8/2r5/Q3K3 w - - 0 1"),
        (min, "4k3/8/8/3q4/8/8/8/1R2K3 b - - 0 1"),
        (max, "8/8/3k4/8/8/8/2r5/Q3K3 w - - 0 1"),
    ] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("ucinewgame");
        let mut pos = parse_fen(fen);
        assert_eq!(
            tables.probe_wdl_after_zeroing(&pos).unwrap(),
            Wdl::Win,
            "{fen}"
        );
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..8 {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            let best = search(&mut e, &format!("go {CLOCK}"), &pos)
                .best
                .expect("a move");
            moves.push(best.to_uci(STD).to_string());
            pos.play_unchecked(best);
            if pos.is_checkmate() {
                break;
            }
            let wdl = tables.probe_wdl_after_zeroing(&pos).unwrap();
            if wdl != Wdl::Loss {
                e.fail(&format!(
                    "{fen} at {elo}: after {moves:?} the defence has {wdl:?}"
                ));
            }
            let (defence, _) = tables.best_move(&pos).unwrap().expect("a defence");
            moves.push(defence.to_uci(STD).to_string());
            pos.play_unchecked(defence);
        }
    }
    e.quit();
}

/// The score of the side to move in the last line before `bestmove`, in centipawns
/// (mates as ±10,000).
fn score_of(searched: &Searched) -> i64 {
    let shown = last_line_shown(&searched.infos).expect("a line");
    match parse_info(shown).unwrap().score.unwrap() {
        (kind, n, _) if kind == "mate" => 10_000 * n.signum(),
        (_, n, _) => n,
    }
}

/// Middlegames and endgames of `tabas bench`, quiet and tactical.
const POSITIONS: [&str; 20] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - 0 1",
    "1r4k1/1pnq2pp/1p3p2/rP1ppP2/1R2P3/PQ1P1R1P/6PK/2B5 w - - 0 1",
    "2k2b1r/p4p2/4pP2/2pbP3/1pp1NB1P/6P1/qP3PB1/3RR1K1 w - - 0 1",
    "r1b1k2r/2q2pp1/p1p1pn2/2b4p/Pp2P3/3B3P/1PP1QPP1/RNB2RK1 b kq - 0 1",
    "4rb1k/6pp/NR3p2/P2Pp2q/6bP/4BnP1/5PK1/2R2Q2 b - - 0 1",
    "r2qnrk1/pb5p/1p1bpp1P/3p2p1/6P1/2PBB3/PP1NQP2/1K1R3R w - - 0 1",
    "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1",
    "2r3k1/1b1n1npp/1pq2p2/8/1P1QP3/6P1/1B1NBP1P/3R2K1 w - - 0 1",
    "r3r1k1/1b3p1p/3b2p1/p2Pp1P1/1pq1B3/4B3/PPP3QP/1K1R1R2 w - - 0 1",
    "2r2n2/6k1/1pNBbb2/3p1p2/3P1P2/P4KP1/2R5/4N3 w - - 0 1",
    "r3kr2/pp1b1pp1/2p1p2p/4q3/7Q/2PBPR2/PP4PP/2KR4 b q - 0 1",
    "4r1k1/1p1r1ppb/1qpp1n1p/p7/P1PRPN2/2Q2P2/1P4PP/1B1R2K1 b - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r3r1k1/pppq1ppp/8/8/1Q4n1/7P/PPP2PP1/RNB1R1K1 b - - 0 1",
    "r1bqk2r/pp3ppp/5n2/8/1b1npB2/2N5/PP1Q2PP/1K2RBNR w kq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "3r1k2/1q1r1pp1/3p2bp/p2N4/8/2P1RQ1P/P4PP1/4R1K1 w - - 0 1",
];

/// The reference: a full-strength search of this many nodes.
const REFERENCE: &str = "go nodes 60000";
/// A loss counts at most this much (a blunder into mate is one blunder).
const LOSS_CAP: i64 = 1_000;

/// Average centipawns lost per move at each of `levels`, on `POSITIONS`, by the
/// reference search's scores.
fn average_losses(levels: &[u32]) -> Vec<f64> {
    let (mut player, _, _) = limited_engine(None);
    let mut judge = Engine::spawn();
    judge.handshake();
    let mut losses = vec![0i64; levels.len()];
    for fen in POSITIONS {
        let pos = parse_fen(fen);
        judge.send(&format!("position fen {fen}"));
        let root = score_of(&search(&mut judge, REFERENCE, &pos));
        let mut judged: Vec<(String, i64)> = Vec::new();
        for (i, elo) in levels.iter().enumerate() {
            player.send(&format!("setoption name UCI_Elo value {elo}"));
            player.send(&format!("position fen {fen}"));
            let best = search(&mut player, &format!("go {CLOCK}"), &pos)
                .best
                .expect("a move");
            let text = best.to_uci(STD).to_string();
            let after = match judged.iter().find(|(m, _)| *m == text) {
                Some((_, score)) => *score,
                None => {
                    let mut next = pos.clone();
                    next.play_unchecked(best);
                    let score = if next.is_checkmate() {
                        10_000
                    } else if next.legal_moves().is_empty() {
                        0
                    } else {
                        judge.send(&format!("position fen {fen} moves {text}"));
                        -score_of(&search(&mut judge, REFERENCE, &next))
                    };
                    judged.push((text, score));
                    score
                }
            };
            losses[i] += (root - after).clamp(0, LOSS_CAP);
        }
    }
    player.quit();
    judge.quit();
    losses
        .iter()
        .map(|&l| l as f64 / POSITIONS.len() as f64)
        .collect()
}

#[test]
fn centipawns_lost_rise_as_the_level_falls() {
    let mut e = Engine::spawn();
    let (min, max) = elo_range(&mut e);
    e.quit();
    // The strongest level is left out: at this clock its node budget is cut by the
    // clock (the machine's speed, and here the tests running beside it, decide how
    // far it gets: #65), while 100 below it a level spends its whole budget well
    // within the move's time.
    let levels = [min, (min + max) / 2, max - 100];
    let losses = average_losses(&levels);
    eprintln!("average centipawn loss at {levels:?}: {losses:?}");
    assert!(
        losses[0] > losses[1] && losses[1] > losses[2],
        "{levels:?}: {losses:?}"
    );
}
