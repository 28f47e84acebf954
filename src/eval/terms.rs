//! Terms beyond the piece-square tables: mobility, passed pawns, pawn structure,
//! the bishop pair and rooks on open files, then king safety (`king.rs`) and
//! threats (`threats.rs`), which use the attacks the mobility loop computes. Each
//! side's terms are reported to the sink as uses of weights (`layout.rs`),
//! whose values live in `weights.rs`.

use super::king::{self, ZoneAttacks};
use super::layout;
use super::sink::WeightSink;
use super::threats::{self, Attacks};
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;

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

/// The ranks strictly in front of `rank` (0 = rank 1), seen from `color`'s side.
pub fn ranks_ahead(color: Color, rank: usize) -> Bitboard {
    Bitboard(match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    })
}

/// Squares strictly in front of `sq` (from `color`'s side) on its file and the
/// neighbouring ones: where an enemy pawn would stop or take a pawn on `sq`.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = file_mask(sq) | adjacent_files(sq);
    files & ranks_ahead(color, sq.to_usize() / 8)
}

/// The files holding a square of `squares`, as the bits of a byte (bit 0 = file a).
fn files_of(squares: Bitboard) -> u32 {
    let mut f = squares.0;
    f |= f >> 32;
    f |= f >> 16;
    f |= f >> 8;
    (f & 0xff) as u32
}

/// Squares attacked by `color`'s pawns.
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

/// One side's terms, reported as that side's; returns what the side attacks.
#[inline(always)]
fn side<A: WeightSink>(board: &Board, color: Color, acc: &mut A) -> Attacks {
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let occupied = board.occupied();
    let our_pawns = board.pawns() & ours;
    let their_pawns = board.pawns() & theirs;
    let safe = !ours & !pawn_attacks(!color, their_pawns);
    let mut attacked = Attacks {
        pawns: pawn_attacks(color, our_pawns),
        ..Attacks::default()
    };
    let mut king_attack = ZoneAttacks::new(board, color);

    for sq in board.knights() & ours {
        let a = attacks::knight_attacks(sq);
        acc.add(color, layout::KNIGHT_MOBILITY + (a & safe).count(), 1);
        attacked.minors |= a;
        king_attack.piece(acc, color, Role::Knight, a);
    }
    for sq in board.bishops() & ours {
        let a = attacks::bishop_attacks(sq, occupied);
        acc.add(color, layout::BISHOP_MOBILITY + (a & safe).count(), 1);
        attacked.minors |= a;
        king_attack.piece(acc, color, Role::Bishop, a);
    }
    for sq in board.rooks() & ours {
        let a = attacks::rook_attacks(sq, occupied);
        acc.add(color, layout::ROOK_MOBILITY + (a & safe).count(), 1);
        attacked.rooks |= a;
        king_attack.piece(acc, color, Role::Rook, a);
        let file = file_mask(sq);
        if (file & board.pawns()).is_empty() {
            acc.add(color, layout::ROOK_OPEN_FILE, 1);
        } else if (file & our_pawns).is_empty() {
            acc.add(color, layout::ROOK_HALF_OPEN_FILE, 1);
        }
    }
    let mut queen_attacks = Bitboard::EMPTY;
    for sq in board.queens() & ours {
        let a = attacks::queen_attacks(sq, occupied);
        acc.add(color, layout::QUEEN_MOBILITY + (a & safe).count(), 1);
        queen_attacks |= a;
        king_attack.piece(acc, color, Role::Queen, a);
    }
    king_attack.finish(acc, color);
    let king = board
        .king_of(color)
        .map_or(Bitboard::EMPTY, attacks::king_attacks);
    attacked.all = attacked.pawns | attacked.minors | attacked.rooks | queen_attacks | king;
    if (board.bishops() & ours).more_than_one() {
        acc.add(color, layout::BISHOP_PAIR, 1);
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
            acc.add(color, layout::PASSED + relative, 1);
        }
        if (adjacent_files(sq) & our_pawns).is_empty() {
            acc.add(color, layout::ISOLATED, 1);
        }
    }
    // Every pawn beyond the first on its file: the pawns less the files they
    // stand on (two bit counts, where a count per file takes eight).
    let doubled = our_pawns.count() - files_of(our_pawns).count_ones() as usize;
    if doubled > 0 {
        acc.add(color, layout::DOUBLED, doubled as i32);
    }
    attacked
}

/// Reports both sides' terms to `acc`.
#[inline(always)]
pub fn add<A: WeightSink>(board: &Board, acc: &mut A) {
    let white = side(board, Color::White, acc);
    let black = side(board, Color::Black, acc);
    threats::add(board, Color::White, &white, &black, acc);
    threats::add(board, Color::Black, &black, &white, acc);
    king::pawns(board, Color::White, acc);
    king::pawns(board, Color::Black, acc);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::sink::PackedSum;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    /// One side's terms, packed.
    fn packed_side(board: &Board, color: Color) -> i32 {
        let mut sum = PackedSum::default();
        side(board, color, &mut sum);
        color.fold_wb(sum.0, -sum.0)
    }

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
    fn doubled_pawns_count_each_pawn_beyond_the_first() {
        assert_eq!(files_of(Bitboard(0)), 0);
        assert_eq!(files_of(Bitboard::from_square(Square::H8)), 0x80);
        // Tripled on c, doubled on h, alone on a: three beyond the first.
        let b = board("4k3/8/2P4P/2P5/8/2P4P/P7/4K3 w - - 0 1");
        let mut t = crate::eval::Trace::default();
        side(&b, Color::White, &mut t);
        assert_eq!(t.counts[layout::DOUBLED], 3);
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
        let white = |b: &Board| packed_side(b, Color::White);
        assert!(white(&passed) > white(&blocked));
        assert_eq!(white(&blocked), white(&guarded));
    }

    #[test]
    fn the_start_position_is_balanced() {
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut sum = PackedSum::default();
        add(&b, &mut sum);
        assert_eq!(sum.0, 0);
    }
}
