//! The board's geometry that the evaluation's terms share: files, ranks ahead,
//! the span in front of a pawn, pawn attacks. Pure bitboard functions, below
//! `terms.rs` and `king.rs`, which both read them.

use shakmaty::{Bitboard, Color, Square};

/// The a-file; shifted left by n, the file n.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;

pub fn file_mask(sq: Square) -> Bitboard {
    Bitboard(FILE_A << (sq.to_usize() & 7))
}

pub fn adjacent_files(sq: Square) -> Bitboard {
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
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = file_mask(sq) | adjacent_files(sq);
    files & ranks_ahead(color, sq.to_usize() / 8)
}

/// The files holding a square of `squares`, as the bits of a byte (bit 0 = file a).
pub fn files_of(squares: Bitboard) -> u32 {
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
