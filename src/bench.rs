//! `bench`: a fixed set of positions searched to a fixed depth. The node count is
//! deterministic (one thread, a fresh table per position) and identifies the
//! search's behaviour: it goes in commit messages as `Bench: N` (OpenBench).

use crate::nnue::Network;
use crate::position::Board;
use crate::search::{Control, Limits, SearchConfig, Searcher, SharedContext, ThreadData};
use crate::tt::TranspositionTable;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::time::Instant;

/// Depth of `tabas bench` without an argument: deep enough that every rule of the
/// search runs (singular extensions start at depth 8), so that a change to any of
/// them changes the node count.
pub const DEFAULT_DEPTH: i32 = 9;
/// Table size for each bench position (MB).
pub const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames (tactical and quiet, from WAC, STS, Arasan, BK, ECM) and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
    "8/8/1p6/p1p2k2/P1P5/1P3K2/8/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - 0 1",
    "1r4k1/1pnq2pp/1p3p2/rP1ppP2/1R2P3/PQ1P1R1P/6PK/2B5 w - - 0 1",
    "2b1rk2/5p2/p1P5/2p2P2/2p5/7B/P7/2KR4 w - - 0 1",
    "2k2b1r/p4p2/4pP2/2pbP3/1pp1NB1P/6P1/qP3PB1/3RR1K1 w - - 0 1",
    "r1b1k2r/2q2pp1/p1p1pn2/2b4p/Pp2P3/3B3P/1PP1QPP1/RNB2RK1 b kq - 0 1",
    "8/2k2Bp1/2n5/p1P4p/4pPn1/P3PqPb/1r1BQ2P/2R1K1R1 b - - 0 1",
    "4rb1k/6pp/NR3p2/P2Pp2q/6bP/4BnP1/5PK1/2R2Q2 b - - 0 1",
    "r2qnrk1/pb5p/1p1bpp1P/3p2p1/6P1/2PBB3/PP1NQP2/1K1R3R w - - 0 1",
    "br3bk1/3r1p2/3q2p1/3P2Np/2B4P/3QR1P1/3R1P1K/8 w - - 0 1",
    "1r2rbk1/1p1n1p2/p3b1p1/q2NpNPp/4P2Q/1P5R/6BP/5R1K w - h6 0 1",
    "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1",
    "2r3k1/1b1n1npp/1pq2p2/8/1P1QP3/6P1/1B1NBP1P/3R2K1 w - - 0 1",
    "5r1k/2p3q1/1p1npr2/pPn1N1pp/P1PN4/R4PPP/4Q1K1/3R4 w - - 0 1",
    "r3r1k1/1b3p1p/3b2p1/p2Pp1P1/1pq1B3/4B3/PPP3QP/1K1R1R2 w - - 0 1",
    "1k1r1r2/p1p5/Bpnbb3/3p2pp/3P4/P1N1NPP1/1PP4P/2KR1R2 w - - 0 1",
    "2r2n2/6k1/1pNBbb2/3p1p2/3P1P2/P4KP1/2R5/4N3 w - - 0 1",
    "4rr1k/2q5/1pnn1b1p/p1p2b2/N1PppPp1/PP1P4/2QBPPBP/3R1RNK b - - 0 1",
    "r3kr2/pp1b1pp1/2p1p2p/4q3/7Q/2PBPR2/PP4PP/2KR4 b q - 0 1",
    "1k2r3/1p1bP3/2p2p1Q/Ppb5/4Rp1P/2q2N1P/5PB1/6K1 b - - 0 1",
    "2r3k1/p2npp2/p2p1bp1/3P4/1qN1PQ1P/1P2B3/r5P1/1R3R1K b - - 0 1",
    "4r1k1/1p1r1ppb/1qpp1n1p/p7/P1PRPN2/2Q2P2/1P4PP/1B1R2K1 b - - 0 1",
    "r1b1k2r/ppp2p1p/2q2p2/8/8/6Q1/PPP2PPP/R3K1NR w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "4k3/p4prp/1p6/2b5/8/2Q3P1/P2R1PKP/4q3 w - - 0 1",
    "r3r1k1/pppq1ppp/8/8/1Q4n1/7P/PPP2PP1/RNB1R1K1 b - - 0 1",
    "r4kr1/ppp5/4bq1b/7B/2PR1Q1p/2N3P1/PP3P1P/2K1R3 w - - 0 1",
    "6k1/6p1/2p4p/4Pp2/4b1qP/2Br4/1P2RQPK/8 b - - 0 1",
    "r5r1/p1q2p1k/1p1R2pB/3pP3/6bQ/2p5/P1P1NPPP/6K1 w - - 0 1",
    "r1bqk2r/pp3ppp/5n2/8/1b1npB2/2N5/PP1Q2PP/1K2RBNR w kq - 0 1",
    "2r2b1r/p1Nk2pp/3p1p2/N2Qn3/4P3/q6P/P4PP1/1R3K1R w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "2q1r1k1/1ppb4/r2p1Pp1/p4n1p/2P1n3/5NPP/PP3Q1K/2BRRB2 w - - 0 1",
    "1q6/2rk1p2/p1n1b1rN/3p2p1/8/3Q4/PP1B1PPP/2R1R1K1 w - - 0 1",
    "r2qn1k1/1p1b3p/2pp1b2/6pQ/p1P1P3/P1N3PB/1P6/3R1R1K w - - 0 1",
    "3r1k2/1q1r1pp1/3p2bp/p2N4/8/2P1RQ1P/P4PP1/4R1K1 w - - 0 1",
    "r1b4r/3p1kp1/pp3q1p/4RP2/8/B7/P5PP/4QRK1 w - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "1q1k4/2Rr4/8/2Q3K1/8/8/8/8 w - - 0 1",
    "7k/5K2/5P1p/3p4/6P1/3p4/8/8 w - - 0 1",
    "8/6B1/p5p1/Pp4kp/1P5r/5P1Q/4q1PK/8 w - - 0 1",
];

/// Searches every bench position to `depth` with the default evaluation (the
/// built-in network, if any), reporting one line per position through `out`, then
/// `<nodes> nodes <nps> nps`. Returns the total node count. `config` switches parts
/// of the search off for measurement (default: all on).
pub fn run(depth: i32, config: SearchConfig, out: &mut dyn FnMut(&str)) -> u64 {
    let control = Control::new(false);
    run_until(depth, config, crate::nnue::embedded(), &control, out).expect("nothing stops it")
}

/// `run` evaluated by `network` (`None`: the hand-written evaluation), or `None`
/// soon after `control` is stopped (UCI `bench` runs beside the input): the lines of
/// the positions searched before stay, the interrupted position and the total are
/// not printed.
pub fn run_until(
    depth: i32,
    config: SearchConfig,
    network: Option<&'static Network>,
    control: &Control,
    out: &mut dyn FnMut(&str),
) -> Option<u64> {
    let started = Instant::now();
    let mut total = 0;
    let tt = TranspositionTable::new(BENCH_HASH_MB).expect("bench table");
    // Each position starts from a cleared table and cleared thread data, as a `go`.
    let mut thread = Box::<ThreadData>::default();
    for (i, fen) in POSITIONS.iter().enumerate() {
        tt.clear();
        thread.clear();
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("bench FEN")
            .into_position(CastlingMode::Standard)
            .expect("bench position");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let shared = SharedContext::alone(&tt, control);
        let mut searcher = Searcher::new(shared, &mut thread, config, limits, 0);
        let result = searcher.search(&Board::with_network(pos, network), &[], &mut |_| {});
        if control.is_stopped() {
            return None;
        }
        total += result.nodes;
        out(&format!(
            "info string bench {:>2}/{} nodes {:>9} score {:>6} best {}",
            i + 1,
            POSITIONS.len(),
            result.nodes,
            result.score,
            result.best.map_or("0000".to_string(), |m| m
                .to_uci(CastlingMode::Standard)
                .to_string())
        ));
    }
    let ms = started.elapsed().as_millis().max(1) as u64;
    out(&format!("{total} nodes {} nps", total * 1000 / ms));
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_varied() {
        assert!(POSITIONS.len() >= 40);
        for fen in POSITIONS {
            let pos: Result<Chess, _> =
                fen.parse::<Fen>().map_err(|e| e.to_string()).and_then(|f| {
                    f.into_position(CastlingMode::Standard)
                        .map_err(|e| e.to_string())
                });
            assert!(pos.is_ok(), "{fen}");
        }
    }

    #[test]
    fn bench_reaches_the_singular_extension_depth() {
        // Below the root, nodes are at least one ply shallower than the iteration.
        let params = SearchConfig::default().params;
        assert!(DEFAULT_DEPTH > params.se_min_depth);
        assert!(DEFAULT_DEPTH > params.iir_min_depth);
    }

    #[test]
    fn bench_is_deterministic() {
        let a = run(4, SearchConfig::default(), &mut |_| {});
        let b = run(4, SearchConfig::default(), &mut |_| {});
        assert_eq!(a, b);
        assert!(a > 0);
    }

    #[test]
    fn every_switch_off_still_searches() {
        // In test builds `negamax` asserts that non-PV nodes get a null window; with
        // `Debug_PVS` off that once failed (late moves of PV nodes went to non-PV
        // children with the full window).
        for option in crate::search::SWITCH_OPTIONS {
            let mut config = SearchConfig::default();
            *config.switch_mut(option).unwrap() = false;
            assert!(run(4, config, &mut |_| {}) > 0, "{option}");
        }
    }

    #[test]
    fn a_stopped_bench_prints_nothing_more() {
        let control = Control::new(false);
        control.stop();
        let mut lines = Vec::new();
        let total = run_until(64, SearchConfig::default(), None, &control, &mut |l| {
            lines.push(l.to_string())
        });
        assert_eq!(total, None);
        assert!(lines.is_empty(), "{lines:?}");
    }
}
