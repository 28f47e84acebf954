//! Move generation by stage, for the staged move picker (`ordering.rs`): the
//! captures and promotions of a position, or its quiet moves, without generating
//! the rest. shakmaty's `legal_moves` generates everything at once and its
//! `capture_moves` filters that full list, so a node cut off by its first capture
//! would pay for every quiet move.
//!
//! The moves here are *pseudo-legal* (a pinned piece may leave its line, the king
//! may step into check): the picker asks `legality.rs` whether each is legal before
//! it hands it out. Castling comes from shakmaty itself (`castling_moves`, legal and
//! Chess960-aware).
//!
//! Both generators produce their moves in the order shakmaty's `legal_moves` would
//! (en passant, then pawns, knights, bishops, rooks, queens, king, castling; each
//! piece's moves by origin, then destination square), so that moves the picker
//! scores alike keep the order they had when the picker filtered the full list,
//! and the search tree is the same. Neither generates anything when the side to
//! move is in check: the search then takes shakmaty's evasions.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position, Role, Square};

/// Files a and h, which a pawn capturing towards the a-file (h-file) cannot start on.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Promotions in shakmaty's order.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Every pseudo-legal capture and promotion of `pos` (en passant included; each
/// promotion four times, queen first), passed to `emit` in shakmaty's order.
pub fn noisy(pos: &Chess, mut emit: impl FnMut(Move)) {
    let board = pos.board();
    let us = pos.turn();
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let pawns = board.by_piece(Role::Pawn.of(us));

    if let Some(to) = pos.maybe_ep_square() {
        for from in shakmaty::attacks::pawn_attacks(!us, to) & pawns {
            emit(Move::EnPassant { from, to });
        }
    }

    // Pawn captures towards the a-file, then towards the h-file; within each, the
    // ordinary ones before the promotions (as shakmaty generates them).
    let (west, east) = match us {
        Color::White => (
            Bitboard((pawns.0 & !FILE_A) << 7),
            Bitboard((pawns.0 & !FILE_H) << 9),
        ),
        Color::Black => (
            Bitboard((pawns.0 & !FILE_A) >> 9),
            Bitboard((pawns.0 & !FILE_H) >> 7),
        ),
    };
    let forward = us.fold_wb(8, -8);
    for (targets, offset) in [(west, forward - 1), (east, forward + 1)] {
        let captures = targets & them;
        for to in captures & !Bitboard::BACKRANKS {
            emit(pawn_move(to, offset, board.role_at(to), None));
        }
        for to in captures & Bitboard::BACKRANKS {
            for promotion in PROMOTIONS {
                emit(pawn_move(to, offset, board.role_at(to), Some(promotion)));
            }
        }
    }
    let pushes = pawns.shift(forward) & !occupied;
    for to in pushes & Bitboard::BACKRANKS {
        for promotion in PROMOTIONS {
            emit(pawn_move(to, forward, None, Some(promotion)));
        }
    }

    pieces(pos, them, true, &mut emit);
}

/// Every pseudo-legal quiet move of `pos` (no capture, no promotion), passed to
/// `emit` in shakmaty's order; castling is shakmaty's legal castling.
pub fn quiet(pos: &Chess, mut emit: impl FnMut(Move)) {
    let board = pos.board();
    let us = pos.turn();
    let empty = !board.occupied();
    let pawns = board.by_piece(Role::Pawn.of(us));

    let forward = us.fold_wb(8, -8);
    let single = pawns.shift(forward) & empty;
    for to in single & !Bitboard::BACKRANKS {
        emit(pawn_move(to, forward, None, None));
    }
    // Double steps land on the fourth rank (White) or the fifth (Black).
    let fourth = us.fold_wb(
        Bitboard(0x0000_0000_ff00_0000),
        Bitboard(0x0000_00ff_0000_0000),
    );
    for to in single.shift(forward) & empty & fourth {
        emit(pawn_move(to, 2 * forward, None, None));
    }

    pieces(pos, empty, false, &mut emit);

    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if pos.castles().has(us, side) {
            for m in pos.castling_moves(side) {
                emit(m);
            }
        }
    }
}

/// The moves of the knights, bishops, rooks, queens and king of the side to move
/// to the squares of `target`: enemy pieces (`captures`), or empty squares (whose
/// capture field needs no look at the board).
fn pieces(pos: &Chess, target: Bitboard, captures: bool, emit: &mut impl FnMut(Move)) {
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    for role in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        for from in board.by_piece(role.of(us)) {
            let reach = match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, occupied),
                Role::Rook => rook_attacks(from, occupied),
                Role::Queen => queen_attacks(from, occupied),
                _ => king_attacks(from),
            };
            for to in reach & target {
                emit(Move::Normal {
                    role,
                    from,
                    capture: if captures { board.role_at(to) } else { None },
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// A pawn move to `to` from `offset` squares behind it.
#[inline]
fn pawn_move(to: Square, offset: i32, capture: Option<Role>, promotion: Option<Role>) -> Move {
    Move::Normal {
        role: Role::Pawn,
        from: Square::new((to as i32 - offset) as u32),
        capture,
        to,
        promotion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// Every position up to `depth` plies from `pos`, not in check.
    fn walk(pos: &Chess, depth: u32, visit: &mut impl FnMut(&Chess)) {
        if !pos.is_check() {
            visit(pos);
        }
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            walk(&child, depth - 1, visit);
        }
    }

    /// The two generators, filtered by legality, give exactly shakmaty's legal
    /// moves, in shakmaty's order (captures and promotions, and quiet moves, each
    /// kept in the order of the full list).
    #[test]
    fn stages_are_the_legal_moves_in_shakmatys_order() {
        let mut positions = 0;
        for pos in crate::position::perft_suite_positions(20) {
            let line = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
            walk(&pos, 2, &mut |pos| {
                positions += 1;
                let legal = pos.legal_moves();
                let mut noisy_moves = Vec::new();
                noisy(pos, |m| noisy_moves.push(m));
                let mut quiet_moves = Vec::new();
                quiet(pos, |m| quiet_moves.push(m));
                let want_noisy: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_capture() || m.is_promotion())
                    .collect();
                let want_quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !m.is_capture() && !m.is_promotion())
                    .collect();
                noisy_moves.retain(|&m| pos.is_legal(m));
                quiet_moves.retain(|&m| pos.is_legal(m));
                assert_eq!(noisy_moves, want_noisy, "{line}");
                assert_eq!(quiet_moves, want_quiet, "{line}");
            });
        }
        assert!(positions > 10_000, "only {positions} positions");
    }
}
