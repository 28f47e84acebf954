//! Whether a move the search generated, or found in the table or among its killers,
//! is legal here: decided by Tabas, from what a node computes once (its king, the
//! pieces pinned to it, the pieces giving check), instead of asking shakmaty's
//! `Position::is_legal` move by move (which regenerates every move to the target
//! square and scans the list: 11 % of the search's time when it decided alone).
//!
//! shakmaty stays the reference: en passant and castling, rare, are still its
//! answer, and the tests below prove that every other answer here is the one
//! `Position::is_legal` gives, on every move the move picker can hand out.
//!
//! Two questions, for two kinds of move:
//! - [`Legality::is_legal`]: a *pseudo-legal* move (the piece on `from` can move so,
//!   as `movegen.rs` generates it) that may leave its king in check;
//! - [`Legality::is_legal_anywhere`]: any move at all (a table move decoded from
//!   16 bits, a killer from a sibling node): first whether it is pseudo-legal here.

use crate::position::lone_blockers;
use shakmaty::attacks::{aligned, attacks, between, pawn_attacks};
use shakmaty::{Bitboard, Chess, Move, Position, Role, Square};

/// What one node knows to decide the legality of its moves.
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    /// The side to move's king.
    king: Square,
    /// The side to move's pieces that alone stand between their king and an enemy
    /// slider on its line: they may only move along that line.
    pinned: Bitboard,
    /// The enemy pieces giving check.
    checkers: Bitboard,
}

impl Legality {
    /// What `pos` needs, in check or not (the search lists shakmaty's evasions in
    /// check; the tests ask in check too).
    #[cfg(test)]
    pub fn new(pos: &Chess) -> Legality {
        Legality::with_checkers(pos, pos.checkers())
    }

    /// What `pos` needs, when the caller knows that its side to move is not in check
    /// (the staged move picker's nodes): the checkers are not computed again.
    #[inline]
    pub fn out_of_check(pos: &Chess) -> Legality {
        debug_assert!(!pos.is_check());
        Legality::with_checkers(pos, Bitboard::EMPTY)
    }

    fn with_checkers(pos: &Chess, checkers: Bitboard) -> Legality {
        let board = pos.board();
        let us = pos.turn();
        // A legal position of standard chess or Chess960 has one king a side.
        let king = board
            .king_of(us)
            .expect("a legal position has a king on each side");
        Legality {
            king,
            pinned: lone_blockers(board, king, board.by_color(!us), board.by_color(us)),
            checkers,
        }
    }

    /// Whether the pseudo-legal move `m` of `pos` (generated for this position, as
    /// `movegen.rs` does) is legal: it leaves its king out of check.
    ///
    /// A king's step: its square must be attacked by no enemy piece once the king
    /// has left its own square (which could hide the square behind it from a slider).
    /// Another piece: in double check, never; in check, it must capture the checker or
    /// stand between it and the king; pinned, it must stay on its king's line.
    #[inline]
    pub fn is_legal(&self, pos: &Chess, m: Move) -> bool {
        match m {
            Move::Normal {
                role: Role::King,
                to,
                ..
            } => {
                let board = pos.board();
                let occupied = board.occupied().without(self.king);
                board.attacks_to(to, !pos.turn(), occupied).is_empty()
            }
            Move::Normal { from, to, .. } => {
                if self.checkers.any() {
                    let Some(checker) = self.checkers.single_square() else {
                        return false;
                    };
                    if to != checker && !between(self.king, checker).contains(to) {
                        return false;
                    }
                }
                !self.pinned.contains(from) || aligned(self.king, from, to)
            }
            // Rare: shakmaty's own answer (en passant may uncover the king along the
            // rank; castling crosses squares that must not be attacked).
            Move::EnPassant { .. } | Move::Castle { .. } => pos.is_legal(m),
            Move::Put { .. } => false,
        }
    }

    /// Whether `m`, a move that may belong to another position altogether (a table
    /// move, a killer), is a legal move of `pos`: pseudo-legal here, then `is_legal`.
    #[inline]
    pub fn is_legal_anywhere(&self, pos: &Chess, m: Move) -> bool {
        match m {
            Move::Normal { .. } => is_pseudo_legal(pos, m) && self.is_legal(pos, m),
            Move::EnPassant { .. } | Move::Castle { .. } => pos.is_legal(m),
            Move::Put { .. } => false,
        }
    }
}

/// Whether the ordinary move `m` (not en passant, not castling) is one the side to
/// move could make in `pos` if its king's safety did not matter: its piece stands on
/// `from`, `to` holds what `m` says it captures (an enemy piece, or nothing), and the
/// piece reaches `to` (a slider's path clear, a pawn's step, push or capture by its
/// rules, promoting exactly when it reaches the last rank).
fn is_pseudo_legal(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return false;
    };
    let board = pos.board();
    let us = pos.turn();
    if board.piece_at(from) != Some(role.of(us)) || board.role_at(to) != capture {
        return false;
    }
    if capture.is_some() && !board.by_color(!us).contains(to) {
        return false;
    }
    if role != Role::Pawn {
        return promotion.is_none() && attacks(from, role.of(us), board.occupied()).contains(to);
    }
    let last_rank = to.rank() == us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First);
    let promotes_well = match promotion {
        None => !last_rank,
        Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) => last_rank,
        Some(_) => false,
    };
    if !promotes_well {
        return false;
    }
    if capture.is_some() {
        return pawn_attacks(us, from).contains(to);
    }
    let forward = us.fold_wb(8, -8);
    let step = to as i32 - from as i32;
    if step == forward {
        return true;
    }
    let start_rank = us.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
    step == 2 * forward
        && from.rank() == start_rank
        && !board
            .occupied()
            .contains(Square::new((from as i32 + forward) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed_move::{unpack_move, unpack_move_if};
    use crate::search::movegen;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn fen_of(pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    fn parse(fen: &str) -> Chess {
        crate::position::parse_fen(fen, CastlingMode::Chess960).expect("a legal FEN")
    }

    /// Positions of every kind: the perft suites (standard and Chess960) and two
    /// plies below them, the bench's positions, and the positions of random games
    /// from the standard start and from Chess960 starts, in check or not.
    fn positions() -> Vec<Chess> {
        let mut all = Vec::new();
        for pos in crate::position::perft_suite_positions(usize::MAX) {
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                for m in child.legal_moves().iter().step_by(8) {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(*m);
                    all.push(grandchild);
                }
                all.push(child);
            }
            all.push(pos);
        }
        for fen in crate::bench::POSITIONS {
            all.push(parse(fen));
        }
        // Random games from the standard start and from the suites' positions (most
        // of them Chess960 positions that can still castle).
        let starts = crate::position::perft_suite_positions(usize::MAX);
        let mut rng = crate::rng::Rng::new(62, 0);
        for game in 0..400 {
            let mut pos = if game % 2 == 0 {
                Chess::default()
            } else {
                starts[rng.below(starts.len() as u64) as usize].clone()
            };
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures, so that the games reach open, tactical positions.
                let captures: Vec<Move> =
                    moves.iter().copied().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len() as u64) as usize]
                } else {
                    moves[rng.below(moves.len() as u64) as usize]
                };
                pos.play_unchecked(m);
                all.push(pos.clone());
            }
        }
        for fen in [
            // En passant that would uncover the king along the rank.
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
            "8/8/8/8/k1Pp3Q/8/8/4K3 b - c3 0 1",
            // Pins along files, ranks and diagonals, pinned pieces that can capture
            // the pinner, and a king next to a slider's line.
            "4k3/4r3/8/8/4R3/8/4B3/4K3 w - - 0 1",
            "3qk3/8/8/b7/8/2N5/3B4/r2QK2r w - - 0 1",
            "8/8/3k4/8/1b6/8/3P4/4K2r w - - 0 1",
            // In check: double check, check by a knight, by a pawn, by a slider.
            "4k3/8/8/8/8/5n2/8/4K2r w - - 0 1",
            "4k3/8/8/8/8/3n4/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1",
        ] {
            all.push(parse(fen));
        }
        all
    }

    /// For every generated move of every position (captures, promotions, quiet moves,
    /// castling, en passant; in check too, where the search itself lists shakmaty's
    /// evasions), Tabas's answer is shakmaty's.
    #[test]
    fn generated_moves_legal_exactly_when_shakmaty_says() {
        let (mut walked, mut moves, mut in_check, mut illegal) = (0u64, 0u64, 0u64, 0u64);
        for pos in positions() {
            let legality = Legality::new(&pos);
            walked += 1;
            in_check += pos.is_check() as u64;
            let mut generated = Vec::new();
            movegen::noisy(&pos, |m| generated.push(m));
            movegen::quiet(&pos, |m| generated.push(m));
            if pos.is_check() {
                // The generators' pseudo-legal moves and the king's, which they skip.
                let king = pos.board().king_of(pos.turn()).unwrap();
                for to in shakmaty::attacks::king_attacks(king) & !pos.us() {
                    generated.push(Move::Normal {
                        role: Role::King,
                        from: king,
                        capture: pos.board().role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
            for m in generated {
                moves += 1;
                let want = pos.is_legal(m);
                illegal += !want as u64;
                assert_eq!(
                    legality.is_legal(&pos, m),
                    want,
                    "{m:?} in {}",
                    fen_of(&pos)
                );
                assert_eq!(
                    legality.is_legal_anywhere(&pos, m),
                    want,
                    "{m:?} in {}",
                    fen_of(&pos)
                );
            }
        }
        eprintln!(
            "legality agrees with shakmaty on {moves} generated moves ({illegal} illegal) \
             of {walked} positions ({in_check} in check)"
        );
        assert!(walked > 100_000, "only {walked} positions");
        assert!(in_check > 5_000, "only {in_check} positions in check");
        assert!(illegal > 10_000, "only {illegal} illegal moves");
    }

    /// Moves of other positions (what a killer or a table entry may hold), and every
    /// 16-bit code decoded as a table move: legal here exactly when shakmaty says.
    #[test]
    fn foreign_moves_legal_exactly_when_shakmaty_says() {
        let all = positions();
        let mut checked = 0u64;
        let mut rng = crate::rng::Rng::new(63, 0);
        for (i, pos) in all.iter().enumerate().step_by(4) {
            let legality = Legality::new(pos);
            // Moves of a few other positions, near (siblings in a game) and far.
            for other in [
                &all[(i + 1) % all.len()],
                &all[(i + 7) % all.len()],
                &all[rng.below(all.len() as u64) as usize],
            ] {
                for m in other.legal_moves() {
                    checked += 1;
                    assert_eq!(
                        legality.is_legal_anywhere(pos, m),
                        pos.is_legal(m),
                        "{m:?} in {}",
                        fen_of(pos)
                    );
                }
            }
            // Every table code, on one position in a thousand.
            if i % 1000 == 0 {
                for packed in 1..=u16::MAX {
                    let got = unpack_move_if(pos, packed, |m| {
                        checked += 1;
                        legality.is_legal_anywhere(pos, m)
                    });
                    let want = unpack_move(pos, packed);
                    assert_eq!(got, want, "code {packed} in {}", fen_of(pos));
                }
            }
        }
        eprintln!("legality agrees with shakmaty on {checked} foreign moves");
        assert!(checked > 1_000_000, "only {checked} moves");
    }
}
