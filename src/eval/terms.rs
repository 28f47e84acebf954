//! Terms beyond the piece-square tables: mobility, passed pawns, pawn structure,
//! the bishop pair and rooks on open files, then king safety (`king.rs`) and
//! threats (`threats.rs`), which use the attacks the mobility loop computes. Each
//! side's terms are reported to the sink as uses of weights (`layout.rs`),
//! whose values live in `weights.rs`.

use super::geometry::{adjacent_files, file_mask, files_of, front_span, pawn_attacks};
use super::king::{self, ZoneAttacks};
use super::layout;
use super::sink::WeightSink;
use super::threats::{self, Attacks};
use shakmaty::{Bitboard, Board, Color, Role, attacks};

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
    use shakmaty::{CastlingMode, Chess, Position, Square, fen::Fen};

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
