//! PeSTO's evaluation function: tapered piece-square tables only.
//!
//! Ronald Friederich's Texel-tuned material values and piece-square tables
//! (as published on the Chess Programming Wiki page "PeSTO's Evaluation
//! Function"), one set for the midgame and one for the endgame, blended by a
//! game phase computed from the remaining non-pawn material, plus a small
//! bonus for the side to move.
//!
//! Material and piece-square values are folded into one table per colour,
//! role and square at compile time, with Black's entries negated, so the
//! evaluation is a single pass over twelve bitboards summing table entries.

use crate::score::Score;
use shakmaty::{Chess, Color, Position, Role};

/// Bonus for the side to move (centipawns): having the move is worth
/// something, and it keeps odd and even search depths from disagreeing as much.
pub const TEMPO: Score = 10;

/// Game phase of the full starting material; the phase is clamped here, so
/// early promotions cannot push the blend past pure midgame.
const MAX_PHASE: i32 = 24;

/// Phase weight per role, in `Role::ALL` order (P, N, B, R, Q, K).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Midgame material, in `Role::ALL` order.
const MG_VALUE: [Score; 6] = [82, 337, 365, 477, 1025, 0];
/// Endgame material, in `Role::ALL` order.
const EG_VALUE: [Score; 6] = [94, 281, 297, 512, 936, 0];

// The published tables, laid out as seen from White: the first row is rank 8
// (a8..h8), the last row rank 1 (a1..h1). Index `i` is therefore the square
// with shakmaty index `i ^ 56` for White, and square `i` itself for Black
// (the vertical mirror).

#[rustfmt::skip]
const MG_PAWN: [Score; 64] = [
      0,   0,   0,   0,   0,   0,  0,   0,
     98, 134,  61,  95,  68, 126, 34, -11,
     -6,   7,  26,  31,  65,  56, 25, -20,
    -14,  13,   6,  21,  23,  12, 17, -23,
    -27,  -2,  -5,  12,  17,   6, 10, -25,
    -26,  -4,  -4, -10,   3,   3, 33, -12,
    -35,  -1, -20, -23, -15,  24, 38, -22,
      0,   0,   0,   0,   0,   0,  0,   0,
];

#[rustfmt::skip]
const EG_PAWN: [Score; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const MG_KNIGHT: [Score; 64] = [
    -167, -89, -34, -49,  61, -97, -15, -107,
     -73, -41,  72,  36,  23,  62,   7,  -17,
     -47,  60,  37,  65,  84, 129,  73,   44,
      -9,  17,  19,  53,  37,  69,  18,   22,
     -13,   4,  16,  13,  28,  19,  21,   -8,
     -23,  -9,  12,  10,  19,  17,  25,  -16,
     -29, -53, -12,  -3,  -1,  18, -14,  -19,
    -105, -21, -58, -33, -17, -28, -19,  -23,
];

#[rustfmt::skip]
const EG_KNIGHT: [Score; 64] = [
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
];

#[rustfmt::skip]
const MG_BISHOP: [Score; 64] = [
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
];

#[rustfmt::skip]
const EG_BISHOP: [Score; 64] = [
    -14, -21, -11,  -8, -7,  -9, -17, -24,
     -8,  -4,   7, -12, -3, -13,  -4, -14,
      2,  -8,   0,  -1, -2,   6,   0,   4,
     -3,   9,  12,   9, 14,  10,   3,   2,
     -6,   3,  13,  19,  7,  10,  -3,  -9,
    -12,  -3,   8,  10, 13,   3,  -7, -15,
    -14, -18,  -7,  -1,  4,  -9, -15, -27,
    -23,  -9, -23,  -5, -9, -16,  -5, -17,
];

#[rustfmt::skip]
const MG_ROOK: [Score; 64] = [
     32,  42,  32,  51, 63,  9,  31,  43,
     27,  32,  58,  62, 80, 67,  26,  44,
     -5,  19,  26,  36, 17, 45,  61,  16,
    -24, -11,   7,  26, 24, 35,  -8, -20,
    -36, -26, -12,  -1,  9, -7,   6, -23,
    -45, -25, -16, -17,  3,  0,  -5, -33,
    -44, -16, -20,  -9, -1, 11,  -6, -71,
    -19, -13,   1,  17, 16,  7, -37, -26,
];

#[rustfmt::skip]
const EG_ROOK: [Score; 64] = [
    13, 10, 18, 15, 12,  12,   8,   5,
    11, 13, 13, 11, -3,   3,   8,   3,
     7,  7,  7,  5,  4,  -3,  -5,  -3,
     4,  3, 13,  1,  2,   1,  -1,   2,
     3,  5,  8,  4, -5,  -6,  -8, -11,
    -4,  0, -5, -1, -7, -12,  -8, -16,
    -6, -6,  0,  2, -9,  -9, -11,  -3,
    -9,  2,  3, -1, -5, -13,   4, -20,
];

#[rustfmt::skip]
const MG_QUEEN: [Score; 64] = [
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
];

#[rustfmt::skip]
const EG_QUEEN: [Score; 64] = [
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
];

#[rustfmt::skip]
const MG_KING: [Score; 64] = [
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
];

#[rustfmt::skip]
const EG_KING: [Score; 64] = [
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
];

const MG_PST: [[Score; 64]; 6] = [MG_PAWN, MG_KNIGHT, MG_BISHOP, MG_ROOK, MG_QUEEN, MG_KING];
const EG_PST: [[Score; 64]; 6] = [EG_PAWN, EG_KNIGHT, EG_BISHOP, EG_ROOK, EG_QUEEN, EG_KING];

/// A midgame and an endgame value in one `i32`: the endgame value in the high
/// half, the midgame value (two's complement) in the low half. Adding packed
/// values adds both halves at once, as long as each sum stays within `i16`.
/// A side has at most 16 pieces in a position shakmaty accepts (unless told
/// to ignore too much material) and no table entry exceeds 1025 + 59 = 1084 in
/// magnitude, so neither half of any partial sum can leave that range.
pub(super) type Packed = i32;

pub(super) const fn pack(mg: Score, eg: Score) -> Packed {
    (eg << 16) + mg
}

const fn mg_of(p: Packed) -> Score {
    p as i16 as Score
}

const fn eg_of(p: Packed) -> Score {
    // The low half is signed: round the high half to undo its borrow.
    ((p + 0x8000) >> 16) as i16 as Score
}

/// Colour index into [`TABLE`]: White first, then Black.
const COLORS: [Color; 2] = [Color::White, Color::Black];

/// `[colour][role][square]` → packed material plus piece-square value, signed
/// from White's point of view (Black's entries are negated), by shakmaty
/// square index (a1 = 0, h8 = 63).
type Table = [[[Packed; 64]; 6]; 2];

const fn build_table() -> Table {
    let mut out = [[[0; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // White reads the published table flipped vertically; Black reads
            // it as laid out, which is the same table mirrored for Black.
            let white = sq ^ 56;
            out[0][role][sq] = pack(
                MG_VALUE[role] + MG_PST[role][white],
                EG_VALUE[role] + EG_PST[role][white],
            );
            out[1][role][sq] = -pack(
                MG_VALUE[role] + MG_PST[role][sq],
                EG_VALUE[role] + EG_PST[role][sq],
            );
            sq += 1;
        }
        role += 1;
    }
    out
}

static TABLE: Table = build_table();

/// The tables alone (see `evaluate_with`).
#[cfg(test)]
pub fn evaluate(pos: &Chess) -> Score {
    evaluate_with(pos, 0)
}

/// Static evaluation of `pos` in centipawns, from the side to move's point of
/// view, tempo bonus included: the tables plus `extra` (packed, White's view),
/// blended by the game phase.
pub fn evaluate_with(pos: &Chess, extra: Packed) -> Score {
    let board = pos.board();

    let mut sum: Packed = 0;
    for (ci, color) in COLORS.into_iter().enumerate() {
        let ours = board.by_color(color);
        for (ri, role) in Role::ALL.into_iter().enumerate() {
            let row = &TABLE[ci][ri];
            for sq in board.by_role(role) & ours {
                sum += row[sq.to_usize()];
            }
        }
    }

    sum += extra;

    let phase = (PHASE_WEIGHT[1] * board.knights().count() as i32
        + PHASE_WEIGHT[2] * board.bishops().count() as i32
        + PHASE_WEIGHT[3] * board.rooks().count() as i32
        + PHASE_WEIGHT[4] * board.queens().count() as i32)
        .min(MAX_PHASE);

    // Division truncates towards zero, so the blend is exactly antisymmetric
    // in the colours.
    let white = (mg_of(sum) * phase + eg_of(sum) * (MAX_PHASE - phase)) / MAX_PHASE;
    match pos.turn() {
        Color::White => white + TEMPO,
        Color::Black => TEMPO - white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, Square};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"))
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("illegal position {fen}: {e}"))
    }

    /// Colours swapped, board flipped vertically, side to move swapped,
    /// castling rights and en passant square mirrored with it.
    fn mirrored(p: &Chess) -> Chess {
        p.to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position(CastlingMode::Standard)
            .expect("mirror of a legal position is legal")
    }

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
            mg += sign * (MG_VALUE[r] + MG_PST[r][idx]);
            eg += sign * (EG_VALUE[r] + EG_PST[r][idx]);
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
            let m = mirrored(&p);
            assert_eq!(evaluate(&m), reference(&m), "mirror of {fen}");
        }
    }

    #[test]
    fn colour_symmetry() {
        for fen in FENS {
            let p = pos(fen);
            let m = mirrored(&p);
            assert_ne!(p.turn(), m.turn());
            assert_eq!(evaluate(&p), evaluate(&m), "{fen} vs its mirror");
        }
    }

    #[test]
    fn full_evaluation_is_colour_symmetric() {
        for fen in FENS {
            let p = pos(fen);
            let m = mirrored(&p);
            assert_eq!(
                crate::eval::evaluate(&p),
                crate::eval::evaluate(&m),
                "{fen}"
            );
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

    /// (midgame, endgame) entry of [`TABLE`].
    fn entry(color: Color, role: Role, sq: Square) -> (Score, Score) {
        let ci = COLORS.iter().position(|&c| c == color).unwrap();
        let ri = Role::ALL.iter().position(|&r| r == role).unwrap();
        let p = TABLE[ci][ri][sq.to_usize()];
        (mg_of(p), eg_of(p))
    }

    fn mg(color: Color, role: Role, sq: Square) -> Score {
        entry(color, role, sq).0
    }

    fn eg(color: Color, role: Role, sq: Square) -> Score {
        entry(color, role, sq).1
    }

    #[test]
    fn table_orientation() {
        // White knight, midgame: e4 reads row "rank 4" of the published
        // table (-13, 4, 16, 13, 28, ...), a1 the bottom-left corner (-105).
        assert_eq!(mg(Color::White, Role::Knight, Square::E4), 337 + 28);
        assert_eq!(mg(Color::White, Role::Knight, Square::A1), 337 - 105);
        // Black mirrors White: a knight on e5 is worth what White's is on e4.
        assert_eq!(mg(Color::Black, Role::Knight, Square::E5), -(337 + 28));
        // White pawn, endgame: e7 (178, 173, 158, 134, 147, ...) beats e2 (13).
        assert_eq!(eg(Color::White, Role::Pawn, Square::E7), 94 + 147);
        assert_eq!(eg(Color::White, Role::Pawn, Square::E2), 94 + 13);
        assert_eq!(eg(Color::Black, Role::Pawn, Square::E2), -(94 + 147));
        // Castled king on g1 is the midgame king's best home square on rank 1.
        assert_eq!(mg(Color::White, Role::King, Square::G1), 24);
        assert_eq!(mg(Color::Black, Role::King, Square::G8), -24);

        // The same through `evaluate`, on whole positions.
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
        // White king e1 (eg -28 from White's view) vs black king d8 (eg -11
        // from Black's): pure endgame, White is 17 worse.
        assert_eq!(evaluate(&pos("3k4/8/8/8/8/8/8/4K3 w - - 0 1")), TEMPO - 17);
    }
}
