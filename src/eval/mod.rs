//! Static evaluation: the one entry point the search calls.
//!
//! Material and piece-square tables (`pieces.rs`), the terms of `terms.rs`
//! (mobility, passed pawns, pawn structure, bishop pair, rooks on open files),
//! king safety (`king.rs`: attacks on the king's zone, pawn shelter and storm)
//! and threats (`threats.rs`), each a midgame and an endgame value blended by the
//! game phase, and a tempo bonus, from the side to move's point of view.
//!
//! * `weights.rs`: every weight's value, written by `tabas tune` (`src/tools/tune/`),
//!   which fits them all at once to self-play games (Texel's method);
//! * `layout.rs`: the weights as one flat list, the index of each group;
//! * `pair.rs`: the shapes a weight comes in (a pair, a piece-square table);
//! * `sink.rs`: the evaluation is written once, generic over where the
//!   weights it uses go: summed (the search's [`evaluate`]) or counted (the
//!   tuner's [`trace`]). The evaluation is therefore linear in its weights, and
//!   every term added must stay so (a count times a weight) to be tunable.

pub mod explain;
mod geometry;
mod king;
pub(crate) mod layout;
pub(crate) mod pair;
mod pieces;
mod sink;
mod terms;
mod threats;
#[rustfmt::skip]
mod weights;

pub(crate) use pieces::MAX_PHASE;
pub(crate) use sink::Trace;

use crate::score::Score;
use shakmaty::{Board, Chess, Color, Position};
use sink::{Packed, PackedSum, WeightSink, eg_of, mg_of};

/// Bonus for the side to move (centipawns): having the move is worth
/// something, and it keeps odd and even search depths from disagreeing as much.
/// Fixed: the tuner leaves it as it is.
pub const TEMPO: Score = 10;

/// Every term of the evaluation, White's uses minus Black's.
#[inline(always)]
fn accumulate<A: WeightSink>(board: &Board, acc: &mut A) {
    pieces::add(board, acc);
    terms::add(board, acc);
}

/// White's score: the midgame and endgame sums blended by `phase`.
pub(crate) fn taper(mg: i32, eg: i32, phase: i32) -> Score {
    // Division truncates towards zero, so the blend is exactly antisymmetric
    // in the colours.
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The score for the side to move, tempo included, of White's packed `sum`.
fn score_for_side_to_move(pos: &Chess, sum: Packed) -> Score {
    let white = taper(mg_of(sum), eg_of(sum), pieces::phase(pos.board()));
    match pos.turn() {
        Color::White => white + TEMPO,
        Color::Black => TEMPO - white,
    }
}

/// Evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> Score {
    // The evaluation counts squares in bitboards all over (mobility, king zone,
    // threats). The default x86-64 target has no POPCNT instruction, so counts are
    // software loops there; where the CPU has it, the same code is run compiled for it.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU was just found to support POPCNT.
        return unsafe { evaluate_with_popcnt(pos) };
    }
    evaluate_portable(pos)
}

/// [`evaluate`] compiled with the POPCNT instruction (everything below is inlined).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_with_popcnt(pos: &Chess) -> Score {
    evaluate_portable(pos)
}

#[inline(always)]
fn evaluate_portable(pos: &Chess) -> Score {
    let mut sum = PackedSum::default();
    accumulate(pos.board(), &mut sum);
    score_for_side_to_move(pos, sum.0)
}

/// How often `pos` uses each weight (White's uses minus Black's) and its phase:
/// White's score without the tempo is `taper` of the trace's sums.
pub(crate) fn trace(pos: &Chess) -> Trace {
    let mut trace = Trace::default();
    accumulate(pos.board(), &mut trace);
    trace.phase = pieces::phase(pos.board());
    trace
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        crate::position::parse_fen(fen, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("bad position {fen}: {e}"))
    }

    /// Positions of every kind: the bench set, and random playouts from the start
    /// (promotions, odd material, bare kings) with a fixed seed.
    pub(crate) fn sample_positions() -> Vec<Chess> {
        const PLAYOUTS: u64 = 40;
        const PLAYOUT_PLIES: usize = 200;
        // Keep one position in this many, so that a playout gives several unlike ones.
        const KEEP_EVERY: usize = 20;
        let mut out: Vec<Chess> = crate::bench::POSITIONS.iter().map(|f| pos(f)).collect();
        for game in 0..PLAYOUTS {
            let mut rng = Rng::new(17, game);
            let mut p = Chess::default();
            for ply in 0..PLAYOUT_PLIES {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = crate::rng::playout_move(&mut rng, &moves, 2);
                p.play_unchecked(m);
                if ply % KEEP_EVERY == KEEP_EVERY - 1 {
                    out.push(p.clone());
                }
            }
        }
        out
    }

    #[test]
    fn the_trace_is_the_evaluation() {
        let positions = sample_positions();
        assert!(positions.len() > 300, "{}", positions.len());
        for p in &positions {
            let fen = Fen::from_position(p, EnPassantMode::Legal);
            let mut sum = PackedSum::default();
            accumulate(p.board(), &mut sum);
            let t = trace(p);
            let (mg, eg) = t.sums(&layout::DEFAULTS);
            assert_eq!(
                (mg, eg),
                (mg_of(sum.0) as i64, eg_of(sum.0) as i64),
                "{fen}"
            );
            assert_eq!(t.phase, pieces::phase(p.board()));
            let white = taper(mg as i32, eg as i32, t.phase);
            let expected = p.turn().fold_wb(white + TEMPO, TEMPO - white);
            assert_eq!(evaluate(p), expected, "{fen}");
        }
    }

    #[test]
    fn the_popcnt_build_evaluates_as_the_portable_one() {
        for p in sample_positions() {
            let fen = Fen::from_position(&p, EnPassantMode::Legal);
            // `evaluate` takes the POPCNT path where the CPU has it.
            assert_eq!(evaluate(&p), evaluate_portable(&p), "{fen}");
        }
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        for p in sample_positions() {
            let m = crate::position::mirrored(&p);
            let fen = Fen::from_position(&p, EnPassantMode::Legal);
            assert_eq!(evaluate(&p), evaluate(&m), "{fen}");
            let (t, tm) = (trace(&p), trace(&m));
            let negated: Vec<i32> = tm.counts.iter().map(|c| -c).collect();
            assert_eq!(t.counts.as_slice(), negated.as_slice(), "{fen}");
        }
    }

    #[test]
    fn a_trace_counts_what_it_sees() {
        // One white knight on a1 (2 safe squares) against a bare king.
        let t = trace(&pos("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"));
        assert_eq!(t.counts[layout::MATERIAL + 1], 1);
        assert_eq!(
            t.counts[layout::KNIGHT + 56],
            1,
            "a1 is the printed table's row 8"
        );
        assert_eq!(t.counts[layout::KNIGHT_MOBILITY + 2], 1);
        // Kings: e1 for White (+1), e8 for Black read mirrored, also e1 (-1).
        assert_eq!(t.counts[layout::pst(5, 4)], 0);
        assert_eq!(t.counts.iter().filter(|&&c| c != 0).count(), 3);
        assert_eq!(t.phase, 1);
    }
}
