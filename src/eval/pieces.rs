//! Material and piece-square tables, and the game phase.
//!
//! The tables started as PeSTO's (Ronald Friederich's Texel-tuned material values
//! and tables, as published on the Chess Programming Wiki page "PeSTO's
//! Evaluation Function"): one set for the midgame and one for the endgame,
//! blended by a game phase computed from the remaining non-pawn material. Their
//! values live in `weights.rs`; the packed path folds material and table into
//! one lookup a piece (`sink.rs`).

use super::sink::WeightSink;
use shakmaty::{Board, Color, Role};

/// Game phase of the full starting material; the phase is clamped here, so
/// early promotions cannot push the blend past pure midgame.
pub const MAX_PHASE: i32 = 24;

/// Phase weight per role, in `Role::ALL` order (P, N, B, R, Q, K).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Reports every piece on the board (material and square) to `acc`.
#[inline(always)]
pub fn add<A: WeightSink>(board: &Board, acc: &mut A) {
    for color in [Color::White, Color::Black] {
        let ours = board.by_color(color);
        for role in Role::ALL {
            acc.pieces(color, role, board.by_role(role) & ours);
        }
    }
}

/// The game phase: `MAX_PHASE` with all the pieces on the board, 0 with none.
pub fn phase(board: &Board) -> i32 {
    (PHASE_WEIGHT[1] * board.knights().count() as i32
        + PHASE_WEIGHT[2] * board.bishops().count() as i32
        + PHASE_WEIGHT[3] * board.rooks().count() as i32
        + PHASE_WEIGHT[4] * board.queens().count() as i32)
        .min(MAX_PHASE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pair::SquareTable;
    use crate::eval::sink::{PackedSum, eg_of, mg_of, role_index};
    use crate::eval::{TEMPO, score_for_side_to_move, weights as w};
    use crate::position::pos;
    use crate::score::Score;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Square};

    /// The tables alone, through the packed path.
    fn evaluate(pos: &Chess) -> Score {
        let mut sum = PackedSum::default();
        add(pos.board(), &mut sum);
        score_for_side_to_move(pos, sum.0)
    }

    const TABLES: [SquareTable; 6] = [w::PAWN, w::KNIGHT, w::BISHOP, w::ROOK, w::QUEEN, w::KING];

    /// Colours swapped, board flipped vertically, side to move swapped,
    /// castling rights and en passant square mirrored with it.
    const FENS: [&str; 12] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/4k3/8/2K5/3P4/8/8 b - - 0 1",
        "6k1/5ppp/8/8/8/8/r4PPP/1R4K1 b - - 3 31",
        // Promoted material: phase 7 * 4 = 28, clamped to 24.
        "7k/8/8/8/8/8/QQQ5/QQQQK3 b - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    ];

    /// Straightforward, unpacked PeSTO over the published tables, square by
    /// square, as a reference for the packed, bitboard-driven `evaluate`.
    fn reference(p: &Chess) -> Score {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for sq in Square::ALL {
            let Some(piece) = p.board().piece_at(sq) else {
                continue;
            };
            let r = Role::ALL.iter().position(|&r| r == piece.role).unwrap();
            // Published row 0 is rank 8; shakmaty's rank 0 is rank 1.
            let (rank, file) = (sq.rank() as usize, sq.file() as usize);
            let (idx, sign) = match piece.color {
                Color::White => ((7 - rank) * 8 + file, 1),
                Color::Black => (rank * 8 + file, -1),
            };
            mg += sign * (w::MATERIAL[r].0 + TABLES[r].mg[idx]);
            eg += sign * (w::MATERIAL[r].1 + TABLES[r].eg[idx]);
            phase += PHASE_WEIGHT[r];
        }
        let phase = phase.min(24);
        let white = (mg * phase + eg * (24 - phase)) / 24;
        if p.turn() == Color::White {
            white + TEMPO
        } else {
            TEMPO - white
        }
    }

    #[test]
    fn matches_unpacked_reference() {
        for fen in FENS {
            let p = pos(fen);
            assert_eq!(evaluate(&p), reference(&p), "{fen}");
            let m = crate::position::mirrored(&p);
            assert_eq!(evaluate(&m), reference(&m), "mirror of {fen}");
        }
    }

    #[test]
    fn colour_symmetry() {
        for fen in FENS {
            let p = pos(fen);
            let m = crate::position::mirrored(&p);
            assert_ne!(p.turn(), m.turn());
            assert_eq!(evaluate(&p), evaluate(&m), "{fen} vs its mirror");
        }
    }

    #[test]
    fn passing_the_move_only_moves_the_tempo() {
        for fen in FENS {
            let p = pos(fen);
            let Ok(swapped) = p
                .to_setup(EnPassantMode::Legal)
                .into_swapped_turn()
                .position::<Chess>(CastlingMode::Standard)
            else {
                continue; // side not to move would be in check
            };
            assert_eq!(evaluate(&p) + evaluate(&swapped), 2 * TEMPO, "{fen}");
        }
    }

    #[test]
    fn start_position_is_just_the_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn queen_up_is_clearly_winning() {
        let w = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let b = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(evaluate(&w) > 800, "white to move: {}", evaluate(&w));
        assert!(evaluate(&b) < -800, "black to move: {}", evaluate(&b));
    }

    /// (midgame, endgame) value of one piece, through the packed path.
    fn entry(color: Color, role: Role, sq: Square) -> (Score, Score) {
        let mut sum = PackedSum::default();
        sum.pieces(color, role, shakmaty::Bitboard::from_square(sq));
        assert_eq!(
            role_index(role),
            Role::ALL.iter().position(|&r| r == role).unwrap()
        );
        (mg_of(sum.0), eg_of(sum.0))
    }

    fn mg(color: Color, role: Role, sq: Square) -> Score {
        entry(color, role, sq).0
    }

    fn eg(color: Color, role: Role, sq: Square) -> Score {
        entry(color, role, sq).1
    }

    /// The printed entry of `table` at `square` (its row 0 is rank 8).
    fn printed(table: &[i32; 64], square: Square) -> Score {
        table[(7 - square.rank() as usize) * 8 + square.file() as usize]
    }

    #[test]
    fn table_orientation() {
        let knight = w::MATERIAL[1].0;
        // White's knight on e4 reads row "rank 4" of the printed table.
        assert_eq!(
            mg(Color::White, Role::Knight, Square::E4),
            knight + w::KNIGHT.mg[4 * 8 + 4]
        );
        assert_eq!(
            mg(Color::White, Role::Knight, Square::A1),
            knight + w::KNIGHT.mg[7 * 8]
        );
        // Black mirrors White: a knight on e5 is worth what White's is on e4.
        assert_eq!(
            mg(Color::Black, Role::Knight, Square::E5),
            -mg(Color::White, Role::Knight, Square::E4)
        );
        let pawn = w::MATERIAL[0].1;
        assert_eq!(
            eg(Color::White, Role::Pawn, Square::E7),
            pawn + w::PAWN.eg[8 + 4]
        );
        assert_eq!(
            eg(Color::Black, Role::Pawn, Square::E2),
            -eg(Color::White, Role::Pawn, Square::E7)
        );
        assert_eq!(
            mg(Color::White, Role::King, Square::G1),
            printed(&w::KING.mg, Square::G1)
        );

        // What any sensible tables say, through whole positions.
        let centre = pos("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
        let corner = pos("4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
        assert!(evaluate(&centre) > evaluate(&corner));
        let advanced = pos("7k/4P3/8/8/8/8/8/K7 w - - 0 1");
        let home = pos("7k/8/8/8/8/8/4P3/K7 w - - 0 1");
        assert!(evaluate(&advanced) > evaluate(&home) + 100);
    }

    #[test]
    fn phase_blends_between_tables() {
        // Kings only: phase 0, pure endgame tables; e1/e8 are symmetric.
        assert_eq!(evaluate(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), TEMPO);
        // White king e1 against Black's on d8 (which reads the table as White's
        // on d1): pure endgame, the difference of two endgame entries.
        let expected = printed(&w::KING.eg, Square::E1) - printed(&w::KING.eg, Square::D1);
        assert_eq!(
            evaluate(&pos("3k4/8/8/8/8/8/8/4K3 w - - 0 1")),
            TEMPO + expected
        );
        // Queens on: phase 8 of 24, a third midgame.
        let queens = pos("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(phase(queens.board()), 8);
    }
}
