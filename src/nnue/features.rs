//! The network's inputs: which of the 768 features a piece on a square is, from
//! either side's view, and which pieces a move takes off and puts on the board.

use super::INPUTS;
use crate::special_moves::{castling_destinations, en_passant_victim};
use shakmaty::{Color, File, Move, Piece, Role, Square};

/// How a network reads the board: the same 768 inputs a perspective, either as the
/// board stands or mirrored by the perspective's own king. A net file says which
/// (`file.rs`); the engine evaluates both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputLayout {
    /// The board as it stands (turned for Black's view).
    Plain,
    /// Mirrored left to right (files a↔h) for a perspective whose own king stands on
    /// files e–h, so that its king is always on a–d: the net never has to learn the
    /// same pattern on both wings.
    KingMirrored,
}

impl InputLayout {
    /// The layouts, by their code in a net file.
    pub const ALL: [InputLayout; 2] = [InputLayout::Plain, InputLayout::KingMirrored];

    /// The layout's code in a net file.
    pub fn code(self) -> u32 {
        match self {
            InputLayout::Plain => 0,
            InputLayout::KingMirrored => 1,
        }
    }

    /// The layout of code `code`, if this build knows it.
    pub fn from_code(code: u32) -> Option<InputLayout> {
        InputLayout::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Its name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            InputLayout::Plain => "plain",
            InputLayout::KingMirrored => "king-mirrored",
        }
    }

    /// The layout named `name` ([`InputLayout::name`]).
    pub fn from_name(name: &str) -> Option<InputLayout> {
        InputLayout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Whether a perspective whose own king stands on `king` sees the board
    /// mirrored (a king-less test board is never mirrored).
    #[inline]
    pub fn mirrors(self, king: Option<Square>) -> bool {
        self == InputLayout::KingMirrored && king.is_some_and(|k| k.file() >= File::E)
    }
}

/// The input feature of `piece` on `square`, seen from `perspective`'s side:
/// own pieces first, and the board turned so that each side plays "up"; files
/// a↔h swapped when the perspective's view is `mirrored` ([`InputLayout`]).
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square, mirrored: bool) -> usize {
    mirror_feature(
        feature_from_codes(
            perspective == Color::Black,
            piece.color == Color::Black,
            piece.role as usize,
            square as usize,
        ),
        mirrored,
    )
}

/// Feature `f` with its square's file mirrored (a↔h) when `mirrored`: a feature's
/// square is its low 6 bits, the file their low 3.
#[inline]
pub fn mirror_feature(f: usize, mirrored: bool) -> usize {
    f ^ (7 * mirrored as usize)
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

    /// Where `us`'s king goes from and to, if the move moves it (castling included):
    /// the one kind of move that can change how a king-mirrored net sees the board.
    #[inline]
    pub fn king_move(&self) -> Option<(Square, Square)> {
        let (moved, from) = self.removed[0];
        let (landed, to) = self.added[0];
        (self.removed_len > 0 && moved.role == Role::King && landed.role == Role::King)
            .then_some((from, to))
    }

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
        let f = |view, color, role, square| feature(view, Piece { color, role }, square, false);
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

    #[test]
    fn a_mirrored_view_swaps_files_only() {
        use Color::{Black, White};
        let knight = |color| Piece {
            color,
            role: Role::Knight,
        };
        for view in [White, Black] {
            for color in [White, Black] {
                for square in Square::ALL {
                    assert_eq!(
                        feature(view, knight(color), square, true),
                        feature(view, knight(color), square.flip_horizontal(), false)
                    );
                }
            }
        }
        // A king on a–d is never mirrored, on e–h only by the king-mirrored layout.
        let layout = InputLayout::KingMirrored;
        assert!(!layout.mirrors(Some(Square::D1)) && layout.mirrors(Some(Square::E8)));
        assert!(!InputLayout::Plain.mirrors(Some(Square::H1)));
        assert!(!layout.mirrors(None));
        for l in InputLayout::ALL {
            assert_eq!(InputLayout::from_code(l.code()), Some(l));
            assert_eq!(InputLayout::from_name(l.name()), Some(l));
        }
        assert_eq!(InputLayout::from_code(2), None);
    }

    #[test]
    fn a_king_move_is_found_in_its_delta() {
        let start = shakmaty::Chess::default();
        use shakmaty::Position as _;
        for m in start.legal_moves() {
            assert_eq!(Delta::of(Color::White, m).king_move(), None, "{m:?}");
        }
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(
            Delta::of(Color::White, castle).king_move(),
            Some((Square::E1, Square::G1))
        );
        let step = Move::Normal {
            role: Role::King,
            from: Square::D8,
            capture: Some(Role::Pawn),
            to: Square::E7,
            promotion: None,
        };
        assert_eq!(
            Delta::of(Color::Black, step).king_move(),
            Some((Square::D8, Square::E7))
        );
        assert_eq!(Delta::NONE.king_move(), None);
    }
}
