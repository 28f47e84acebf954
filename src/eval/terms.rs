//! Terms beyond the piece-square tables: mobility, passed pawns, pawn structure,
//! the bishop pair and rooks on open files. Each is a packed (midgame, endgame)
//! pair from White's point of view, blended with the tables by the caller.

use super::pesto::{Packed, pack};
use shakmaty::{Bitboard, Board, Color, Square, attacks};

// Every weight of these terms, (midgame, endgame) in centipawns.

/// Per safe square a piece attacks (not ours, not attacked by an enemy pawn), counted
/// from a typical number of squares so that the terms shift no material balance.
const KNIGHT_MOBILITY: (i32, i32, i32) = (4, 4, 4);
const BISHOP_MOBILITY: (i32, i32, i32) = (5, 5, 6);
const ROOK_MOBILITY: (i32, i32, i32) = (2, 4, 7);
const QUEEN_MOBILITY: (i32, i32, i32) = (1, 2, 13);
/// A pawn no enemy pawn can stop or take, by rank from its own side (index 1 = second rank).
/// Small: the endgame pawn table already rewards advanced pawns.
const PASSED_MG: [i32; 8] = [0, 0, 2, 5, 12, 25, 40, 0];
const PASSED_EG: [i32; 8] = [0, 4, 8, 16, 30, 50, 70, 0];
/// Each pawn beyond the first on a file.
const DOUBLED: (i32, i32) = (-5, -15);
/// A pawn with no friendly pawn on a neighbouring file.
const ISOLATED: (i32, i32) = (-8, -8);
/// Two bishops or more.
const BISHOP_PAIR: (i32, i32) = (25, 45);
/// A rook on a file without pawns, or without pawns of its own side.
const ROOK_OPEN_FILE: (i32, i32) = (20, 5);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (10, 3);

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn file_mask(sq: Square) -> Bitboard {
    Bitboard(FILE_A << (sq.to_usize() & 7))
}

fn adjacent_files(sq: Square) -> Bitboard {
    let file = sq.to_usize() & 7;
    let mut m = 0;
    if file > 0 {
        m |= FILE_A << (file - 1);
    }
    if file < 7 {
        m |= FILE_A << (file + 1);
    }
    Bitboard(m)
}

/// Squares strictly in front of `sq` (from `color`'s side) on its file and the
/// neighbouring ones: where an enemy pawn would stop or take a pawn on `sq`.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = file_mask(sq) | adjacent_files(sq);
    let rank = sq.to_usize() / 8;
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    };
    files & Bitboard(ahead)
}

/// Squares attacked by `color`'s pawns.
fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

fn term((mg, eg): (i32, i32)) -> Packed {
    pack(mg, eg)
}

fn mobility((mg, eg, typical): (i32, i32, i32), squares: usize) -> Packed {
    let n = squares as i32 - typical;
    pack(mg * n, eg * n)
}

/// The terms for one side, as a positive contribution of that side.
fn side(board: &Board, color: Color) -> Packed {
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let occupied = board.occupied();
    let our_pawns = board.pawns() & ours;
    let their_pawns = board.pawns() & theirs;
    let safe = !ours & !pawn_attacks(!color, their_pawns);
    let mut sum: Packed = 0;

    for sq in board.knights() & ours {
        sum += mobility(
            KNIGHT_MOBILITY,
            (attacks::knight_attacks(sq) & safe).count(),
        );
    }
    for sq in board.bishops() & ours {
        let a = attacks::bishop_attacks(sq, occupied);
        sum += mobility(BISHOP_MOBILITY, (a & safe).count());
    }
    for sq in board.rooks() & ours {
        let a = attacks::rook_attacks(sq, occupied);
        sum += mobility(ROOK_MOBILITY, (a & safe).count());
        let file = file_mask(sq);
        if (file & board.pawns()).is_empty() {
            sum += term(ROOK_OPEN_FILE);
        } else if (file & our_pawns).is_empty() {
            sum += term(ROOK_HALF_OPEN_FILE);
        }
    }
    for sq in board.queens() & ours {
        let a = attacks::queen_attacks(sq, occupied);
        sum += mobility(QUEEN_MOBILITY, (a & safe).count());
    }
    if (board.bishops() & ours).count() >= 2 {
        sum += term(BISHOP_PAIR);
    }

    for sq in our_pawns {
        let span = front_span(color, sq);
        if (span & their_pawns).is_empty() && (span & file_mask(sq) & our_pawns).is_empty() {
            let rank = sq.to_usize() / 8;
            let relative = if color == Color::White {
                rank
            } else {
                7 - rank
            };
            sum += pack(PASSED_MG[relative], PASSED_EG[relative]);
        }
        if (adjacent_files(sq) & our_pawns).is_empty() {
            sum += term(ISOLATED);
        }
    }
    for file in 0..8 {
        let n = (Bitboard(FILE_A << file) & our_pawns).count() as i32;
        if n > 1 {
            sum += pack(DOUBLED.0 * (n - 1), DOUBLED.1 * (n - 1));
        }
    }
    sum
}

/// All the terms, White's minus Black's.
pub(super) fn packed(board: &Board) -> Packed {
    side(board, Color::White) - side(board, Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        pos.board().clone()
    }

    #[test]
    fn front_spans() {
        // White pawn e4: d5..f8; black pawn e5: d4..f1.
        assert_eq!(front_span(Color::White, Square::E4).count(), 12);
        assert!(front_span(Color::White, Square::E4).contains(Square::D5));
        assert!(!front_span(Color::White, Square::E4).contains(Square::E4));
        assert_eq!(front_span(Color::Black, Square::E5).count(), 12);
        assert!(front_span(Color::Black, Square::E5).contains(Square::F1));
        assert!(front_span(Color::White, Square::A7).count() == 2);
        assert!(front_span(Color::White, Square::H8).is_empty());
    }

    #[test]
    fn pawn_attack_shifts_do_not_wrap() {
        let w = pawn_attacks(Color::White, Bitboard::from_square(Square::A2));
        assert_eq!(w, Bitboard::from_square(Square::B3));
        let b = pawn_attacks(Color::Black, Bitboard::from_square(Square::H7));
        assert_eq!(b, Bitboard::from_square(Square::G6));
    }

    #[test]
    fn a_passed_pawn_counts_and_a_blocked_one_does_not() {
        let passed = board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        let blocked = board("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1");
        let guarded = board("4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1");
        let white = |b: &Board| side(b, Color::White);
        assert!(white(&passed) > white(&blocked));
        assert_eq!(white(&blocked), white(&guarded));
    }

    #[test]
    fn the_start_position_is_balanced() {
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(packed(&b), 0);
    }
}
