//! Where a score comes from, for the UCI `eval` command: the hand-written
//! evaluation's terms, and, for a network, what each piece is worth to it.

use super::layout::{DEFAULTS, GROUPS, Shape};
use super::{TEMPO, taper, trace};
use crate::nnue::Network;
use crate::score::Score;
use shakmaty::{Board, Chess, Color, Piece, Position, Role, Square};

/// One group of weights of the hand-written evaluation, White's uses minus Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The group's name in lower case (`material`, `pawn squares`, `passed`…).
    pub name: String,
    pub midgame: i32,
    pub endgame: i32,
    /// The two blended by the position's phase (centipawns, White's view).
    pub blended: Score,
}

/// The hand-written evaluation of `pos` term by term (White's view), and its
/// phase (24: all pieces on, 0: pawns and kings only). Their sums, blended, plus
/// the tempo for the side to move, are `evaluate(pos)`.
pub fn terms(pos: &Chess) -> (Vec<Term>, i32) {
    let t = trace(pos);
    let terms = GROUPS
        .iter()
        .map(|g| {
            let group = g.offset..g.offset + g.shape.len();
            let (mut midgame, mut endgame) = (0, 0);
            for (count, weight) in t.counts[group.clone()].iter().zip(&DEFAULTS[group]) {
                midgame += count * weight.0;
                endgame += count * weight.1;
            }
            let name = g.name.to_lowercase();
            Term {
                name: match g.shape {
                    Shape::Table => format!("{name} squares"),
                    _ => name,
                },
                midgame,
                endgame,
                blended: taper(midgame, endgame, t.phase),
            }
        })
        .collect();
    (terms, t.phase)
}

/// The hand-written score for the side to move from `terms`: White's blended sums
/// with the tempo, as `evaluate` computes it.
pub fn total(terms: &[Term], phase: i32, turn: Color) -> Score {
    let midgame = terms.iter().map(|t| t.midgame).sum();
    let endgame = terms.iter().map(|t| t.endgame).sum();
    let white = taper(midgame, endgame, phase);
    match turn {
        Color::White => white + TEMPO,
        Color::Black => TEMPO - white,
    }
}

/// The network's score of `board` from White's point of view.
pub fn network_white_score(net: &Network, board: &Board, turn: Color) -> Score {
    let score = net.evaluate(&net.refresh(board), turn, board.occupied().count());
    match turn {
        Color::White => score,
        Color::Black => -score,
    }
}

/// What each piece but the kings is worth to `net` in `pos`: White's score with
/// it minus White's score without it (the side to move unchanged), as Stockfish's
/// `eval` shows its network's view of each piece.
pub fn piece_values(net: &Network, pos: &Chess) -> Vec<(Square, Piece, Score)> {
    let board = pos.board();
    let whole = network_white_score(net, board, pos.turn());
    board
        .iter()
        .filter(|(_, piece)| piece.role != Role::King)
        .map(|(square, piece)| {
            let mut without = board.clone();
            without.discard_piece_at(square);
            (
                square,
                piece,
                whole - network_white_score(net, &without, pos.turn()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 8",
            "8/5k2/8/3p4/8/2K5/8/8 b - - 0 1",
        ] {
            let p = pos(fen);
            let (terms, phase) = terms(&p);
            assert_eq!(
                total(&terms, phase, p.turn()),
                super::super::evaluate(&p),
                "{fen}"
            );
            // Material is White's minus Black's: zero when they are equal.
            let material = terms.iter().find(|t| t.name == "material").unwrap();
            if fen.starts_with("rnbqkbnr") {
                assert_eq!((material.midgame, material.endgame), (0, 0));
            }
        }
    }

    #[test]
    fn a_piece_is_worth_what_the_network_loses_without_it() {
        let Some(net) = crate::nnue::embedded() else {
            return;
        };
        // White has an extra queen: the network must value it highly, for White.
        let p = pos("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1");
        let values = piece_values(net, &p);
        assert_eq!(values.len(), 9);
        let queen = values
            .iter()
            .find(|(_, piece, _)| piece.role == Role::Queen)
            .unwrap();
        assert!(queen.2 > 300, "{values:?}");
        // Black's pieces, removed, help White: their worth to White is negative.
        let black_pawn = values
            .iter()
            .find(|(_, piece, _)| piece.color == Color::Black)
            .unwrap();
        assert!(black_pawn.2 < 0, "{values:?}");
    }
}
