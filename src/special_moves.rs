//! The rules of the special moves, written once: where the pawn taken en passant
//! stands, and where castling puts the king and the rook. Three parts of the engine
//! read what a move changes on the board, each for its own question, and ask these:
//! the check test (`position::gives_check`), the network's update (`nnue::Delta`)
//! and the static exchange (`search::see`).
//!
//! (A promotion needs no rule: the piece on the destination is `promotion`, else the
//! piece that moved.) Functions, not a decoded move: a struct of everything a move
//! changes, built for every move and then read, cost 1.4 % more instructions in
//! `tabas bench`, most of it in the static exchange.

use shakmaty::{CastlingSide, Color, Square};

/// The square of the pawn that an en-passant capture from `from` to `to` takes:
/// beside `to`, on `from`'s rank.
#[inline(always)]
pub fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::from_coords(to.file(), from.rank())
}

/// Where castling puts `us`'s king and rook, as (king, rook): castling as shakmaty
/// writes it, the king on `king` taking its own rook on `rook` (standard chess and
/// Chess960 alike).
#[inline(always)]
pub fn castling_destinations(us: Color, king: Square, rook: Square) -> (Square, Square) {
    let side = CastlingSide::from_king_side(rook > king);
    (side.king_to(us), side.rook_to(us))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Move, Position, Role};

    /// Every en-passant capture and castling of the perft suites (both castling
    /// modes) changes the board as these rules say.
    #[test]
    fn the_rules_are_what_playing_the_moves_does() {
        let (mut en_passant, mut castlings) = (0, 0);
        for pos in crate::position::perft_suite_positions(200) {
            let us = pos.turn();
            for m in pos.legal_moves() {
                let mut after: Chess = pos.clone();
                after.play_unchecked(m);
                let board = after.board();
                match m {
                    Move::EnPassant { from, to } => {
                        let victim = en_passant_victim(from, to);
                        assert_eq!(pos.board().piece_at(victim), Some(Role::Pawn.of(!us)));
                        assert_eq!(board.piece_at(victim), None, "{m:?}");
                        en_passant += 1;
                    }
                    Move::Castle { king, rook } => {
                        let (king_to, rook_to) = castling_destinations(us, king, rook);
                        assert_eq!(board.piece_at(king_to), Some(Role::King.of(us)), "{m:?}");
                        assert_eq!(board.piece_at(rook_to), Some(Role::Rook.of(us)), "{m:?}");
                        castlings += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(en_passant > 0 && castlings > 50, "{en_passant} {castlings}");
    }
}
