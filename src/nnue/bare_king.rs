//! What the network does not know: how to mate a bare king.
//!
//! Self-play games are adjudicated long before a king stands alone against a queen or
//! a rook, so the network has seen almost none of these positions and may score them
//! flat: the session-31 net gives K+R v K about 660 cp wherever the kings stand, and
//! the search, with no gradient to climb, shuffled the rook for fifty moves (the
//! strength test `every_level_mates_a_bare_king_with_a_queen_or_a_rook`). Where one side
//! has only its king and the other a queen or a rook, the network's score gets a
//! hand-written gradient on top: the bare king toward the edge, the other king toward
//! it, which is how these mates are made. Nothing else changes.

use super::MAX_EVAL;
use crate::score::Score;
use shakmaty::{Board, Color, Square};

/// Per step of the bare king from the centre (0 to 6 steps: 0 to 120 cp).
const EDGE_CP: Score = 20;
/// Per step the kings stand closer than 14 apart (Manhattan distance: 0 to 130 cp).
const KINGS_CP: Score = 10;

/// Steps from the centre's four squares, by file and rank (0 in the centre, 6 in a
/// corner).
fn from_centre(sq: Square) -> Score {
    let (file, rank) = (u32::from(sq.file()) as Score, u32::from(sq.rank()) as Score);
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}

/// The side with a queen or a rook against a bare king, if one is (the endings every
/// strength level must convert, too: `search::strength::converting`).
#[inline]
pub fn attacker(board: &Board) -> Option<Color> {
    let strong = if board.white().count() == 1 {
        Color::Black
    } else if board.black().count() == 1 {
        Color::White
    } else {
        return None;
    };
    let heavy = (board.queens() | board.rooks()) & board.by_color(strong);
    heavy.any().then_some(strong)
}

/// `score` (centipawns, for `turn`) with the gradient added where one side has a bare
/// king and the other a queen or a rook; `score` itself everywhere else.
#[inline]
pub fn adjust(board: &Board, turn: Color, score: Score) -> Score {
    let Some(strong) = attacker(board) else {
        return score;
    };
    let (Some(bare), Some(attacker)) = (board.king_of(!strong), board.king_of(strong)) else {
        return score;
    };
    let file_gap = (u32::from(bare.file()) as Score - u32::from(attacker.file()) as Score).abs();
    let rank_gap = (u32::from(bare.rank()) as Score - u32::from(attacker.rank()) as Score).abs();
    let bonus = EDGE_CP * from_centre(bare) + KINGS_CP * (14 - file_gap - rank_gap);
    let score = if turn == strong {
        score + bonus
    } else {
        score - bonus
    };
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;
    use shakmaty::{CastlingMode, Position};

    fn adjusted(fen: &str) -> Score {
        let pos = parse_fen(fen, CastlingMode::Standard).unwrap();
        adjust(pos.board(), pos.turn(), 0)
    }

    #[test]
    fn the_bare_king_is_driven_to_the_edge_and_the_kings_together() {
        // White to move with a rook: the bare king in a corner beats the centre.
        let corner = adjusted("k7/8/8/8/8/8/8/1R2K3 w - - 0 1");
        let centre = adjusted("8/8/8/3k4/8/8/8/1R2K3 w - - 0 1");
        assert!(corner > centre && centre > 0, "{corner} {centre}");
        // Kings closer, the rest the same: better for the stronger side.
        let near = adjusted("k7/8/2K5/8/8/8/8/1R6 w - - 0 1");
        let far = adjusted("k7/8/8/8/8/8/8/1R4K1 w - - 0 1");
        assert!(near > far, "{near} {far}");
        // The same position with the bare king to move: the negation.
        assert_eq!(adjusted("k7/8/2K5/8/8/8/8/1R6 b - - 0 1"), -near);
        // Black with the queen.
        assert!(adjusted("q3k3/8/8/8/8/8/8/6K1 b - - 0 1") > 0);
    }

    #[test]
    fn nothing_changes_without_a_bare_king_or_a_heavy_piece() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/3k4/8/8/8/8/B2NK3 w - - 0 1",
            "8/8/3k4/8/8/8/P7/4K3 w - - 0 1",
            "8/8/3k4/3p4/8/8/8/R3K3 w - - 0 1",
        ] {
            assert_eq!(adjusted(fen), 0, "{fen}");
        }
    }
}
