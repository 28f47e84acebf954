//! The network's inputs: which of the 768 features a piece on a square is, from
//! either side's view, and which pieces a move takes off and puts on the board.

use super::INPUTS;
use crate::special_moves::{castling_destinations, en_passant_victim};
use shakmaty::{Color, Move, Piece, Role, Square};

/// The input feature of `piece` on `square`, seen from `perspective`'s side:
/// own pieces first, and the board turned so that each side plays "up".
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    feature_from_codes(
        perspective == Color::Black,
        piece.color == Color::Black,
        piece.role as usize,
        square as usize,
    )
}

/// [`feature`] on plain numbers (`role` 1..=6 as `Role`, `square` 0..64 as
/// `Square`), for the trainer's packed positions. The one definition of the
/// inputs, shared by the engine and `src/tools/train/`.
#[inline]
pub fn feature_from_codes(
    black_view: bool,
    black_piece: bool,
    role: usize,
    square: usize,
) -> usize {
    let relative = if black_view == black_piece {
        0
    } else {
        INPUTS / 2
    };
    let square = if black_view { square ^ 56 } else { square };
    relative + (role - 1) * 64 + square
}

/// The pieces a move takes off and puts on the board, found before it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    pub(super) removed: [(Piece, Square); 2],
    pub(super) added: [(Piece, Square); 2],
    /// How many of `removed` (1 or 2) and `added` (1 or 2) are used.
    pub(super) removed_len: u8,
    pub(super) added_len: u8,
}

impl Delta {
    /// Nothing changes (a null move).
    pub const NONE: Delta = Delta {
        removed: [(
            Piece {
                color: Color::White,
                role: Role::King,
            },
            Square::A1,
        ); 2],
        added: [(
            Piece {
                color: Color::White,
                role: Role::King,
            },
            Square::A1,
        ); 2],
        removed_len: 0,
        added_len: 0,
    };

    /// What the legal move `m` changes, where `us` is to move.
    pub fn of(us: Color, m: Move) -> Delta {
        let piece = |role| Piece { color: us, role };
        let none = (piece(Role::King), Square::A1);
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let moved = (piece(role), from);
                let landed = (piece(promotion.unwrap_or(role)), to);
                match capture {
                    Some(taken) => Delta {
                        removed: [
                            moved,
                            (
                                Piece {
                                    color: !us,
                                    role: taken,
                                },
                                to,
                            ),
                        ],
                        added: [landed, none],
                        removed_len: 2,
                        added_len: 1,
                    },
                    None => Delta {
                        removed: [moved, none],
                        added: [landed, none],
                        removed_len: 1,
                        added_len: 1,
                    },
                }
            }
            Move::EnPassant { from, to } => {
                let pawn = piece(Role::Pawn);
                let taken = en_passant_victim(from, to);
                Delta {
                    removed: [
                        (pawn, from),
                        (
                            Piece {
                                color: !us,
                                role: Role::Pawn,
                            },
                            taken,
                        ),
                    ],
                    added: [(pawn, to), none],
                    removed_len: 2,
                    added_len: 1,
                }
            }
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castling_destinations(us, king, rook);
                Delta {
                    removed: [(piece(Role::King), king), (piece(Role::Rook), rook)],
                    added: [(piece(Role::King), king_to), (piece(Role::Rook), rook_to)],
                    removed_len: 2,
                    added_len: 2,
                }
            }
            Move::Put { role, to } => {
                debug_assert!(false, "no drops in chess");
                Delta {
                    removed: [none, none],
                    added: [(piece(role), to), none],
                    removed_len: 0,
                    added_len: 1,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_indices_by_hand() {
        use Color::{Black, White};
        let f = |view, color, role, square| feature(view, Piece { color, role }, square);
        // White's view: own pieces first, squares as they are.
        assert_eq!(f(White, White, Role::Pawn, Square::E2), 12);
        assert_eq!(f(White, White, Role::Knight, Square::G1), 64 + 6);
        assert_eq!(f(White, Black, Role::King, Square::E8), 384 + 5 * 64 + 60);
        // Black's view: Black's pieces are its own, the board is flipped (e8 → e1).
        assert_eq!(f(Black, Black, Role::King, Square::E8), 5 * 64 + 4);
        assert_eq!(f(Black, White, Role::Knight, Square::G1), 384 + 64 + 62);
        assert_eq!(f(Black, Black, Role::Queen, Square::A1), 4 * 64 + 56);
        // Every feature is used once: 2 colours × 6 roles × 64 squares, either view.
        for view in [White, Black] {
            let mut seen = vec![false; INPUTS];
            for color in [White, Black] {
                for role in Role::ALL {
                    for square in Square::ALL {
                        let i = f(view, color, role, square);
                        assert!(!seen[i], "{i}");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
