//! What the network does not know: how to mate a bare king.
//!
//! Self-play games are adjudicated long before a king stands alone against a queen or
//! a rook, so the network has seen almost none of these positions and may score them
//! flat: net `dace15cc` (built in at 98e6420) gives K+R v K about 660 cp wherever the kings stand, and
//! the search, with no gradient to climb, shuffled the rook for fifty moves (the
//! strength test `every_level_mates_a_bare_king_with_a_queen_or_a_rook`). Where one side
//! has only its king and the other the material to mate it, the network's score gets a
//! hand-written gradient on top that says how these mates are made: the other king
//! toward the bare one, and the bare king
//! - toward the edge, against a queen, a rook or two bishops of both colours;
//! - toward a corner of the bishop's colour, against exactly a bishop and a knight, the
//!   only corners where they mate (up to 33 moves away against the best defence). The
//!   net's 700–800 cp there barely tell the corners apart. Without tables, against the
//!   tables' best defence, 100,000 nodes a move mated none of four starts within 50
//!   moves; with this gradient 200,000 or 300,000 nodes a move mate all of nine (in 15 to
//!   43 moves), and fewer nodes most (`tests/tablebases.rs`).
//!
//! Nothing else changes.

use super::MAX_EVAL;
use crate::score::Score;
use shakmaty::{Bitboard, Board, Color, Square};

/// Per step of the bare king from the centre (0 to 6 steps: 0 to 120 cp).
const EDGE_CP: Score = 20;
/// Per step the kings stand closer than 14 apart (Manhattan distance: 0 to 130 cp).
const KINGS_CP: Score = 10;
/// Against a bishop and a knight, per step of the bare king toward the nearer corner of
/// the bishop's colour (0 to 7 steps: 0 to 700 cp). In place of the edge's gradient,
/// which would make the wrong corner as good as the right one, and ten times the kings'
/// term: at 100,000 nodes a move against one of the tables' best defences, 60 cp mated
/// five of seven starts within 50 moves (not from in or near the wrong corner), 100 cp
/// all seven.
const CORNER_CP: Score = 100;

/// Where the bare king is driven.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Drive {
    /// To any edge (a queen, a rook, two bishops of both colours).
    Edge,
    /// To a corner of the bishop's colour (`dark`: a1 and h8).
    Corner { dark: bool },
}

/// Steps from the centre's four squares, by file and rank (0 in the centre, 6 in a
/// corner).
fn from_centre(sq: Square) -> Score {
    let (file, rank) = (u32::from(sq.file()) as Score, u32::from(sq.rank()) as Score);
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}

/// Steps (Manhattan) from `sq` to the nearer corner of the dark squares' colour (a1,
/// h8) or of the light ones' (a8, h1): 0 in such a corner, 7 on the long diagonal of
/// the other colour.
fn from_corner(sq: Square, dark: bool) -> Score {
    let (file, rank) = (u32::from(sq.file()) as Score, u32::from(sq.rank()) as Score);
    let diagonal = if dark { file + rank } else { file + 7 - rank };
    diagonal.min(14 - diagonal)
}

/// The side whose opponent has only its king, if one has.
#[inline]
fn bare_opponent(board: &Board) -> Option<Color> {
    if board.white().count() == 1 {
        Some(Color::Black)
    } else if board.black().count() == 1 {
        Some(Color::White)
    } else {
        None
    }
}

/// Whether `strong` has a queen or a rook.
#[inline]
fn has_heavy(board: &Board, strong: Color) -> bool {
    ((board.queens() | board.rooks()) & board.by_color(strong)).any()
}

/// The side with a queen or a rook against a bare king, if one is (the endings every
/// strength level must convert, too: `search::strength::converting`).
#[inline]
pub fn attacker(board: &Board) -> Option<Color> {
    let strong = bare_opponent(board)?;
    has_heavy(board, strong).then_some(strong)
}

/// The side against a bare king with the material to mate it, and where it drives it.
#[inline]
fn drive(board: &Board) -> Option<(Color, Drive)> {
    let strong = bare_opponent(board)?;
    if has_heavy(board, strong) {
        return Some((strong, Drive::Edge));
    }
    // Else exactly the king and two minor pieces: the rest (a pawn, a third piece) is
    // the network's to judge.
    let ours = board.by_color(strong);
    if ours.count() != 3 {
        return None;
    }
    let bishops = board.bishops() & ours;
    let dark = (bishops & Bitboard::DARK_SQUARES).count();
    match (bishops.count(), (board.knights() & ours).count()) {
        (1, 1) => Some((strong, Drive::Corner { dark: dark == 1 })),
        (2, 0) if dark == 1 => Some((strong, Drive::Edge)),
        _ => None,
    }
}

/// `score` (centipawns, for `turn`) with the gradient added where one side has a bare
/// king and the other a queen, a rook, two bishops of both colours, or exactly a bishop
/// and a knight; `score` itself everywhere else.
#[inline]
pub fn adjust(board: &Board, turn: Color, score: Score) -> Score {
    let Some((strong, drive)) = drive(board) else {
        return score;
    };
    let (Some(bare), Some(attacker)) = (board.king_of(!strong), board.king_of(strong)) else {
        return score;
    };
    let file_gap = (u32::from(bare.file()) as Score - u32::from(attacker.file()) as Score).abs();
    let rank_gap = (u32::from(bare.rank()) as Score - u32::from(attacker.rank()) as Score).abs();
    let toward = match drive {
        Drive::Edge => EDGE_CP * from_centre(bare),
        Drive::Corner { dark } => CORNER_CP * (7 - from_corner(bare, dark)),
    };
    let bonus = toward + KINGS_CP * (14 - file_gap - rank_gap);
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
    fn a_bishop_and_a_knight_drive_the_bare_king_to_their_corner() {
        // A dark-squared bishop (h2): a1 and h8 are the mating corners, a8 and h1 not.
        // The bare king on the a-file, rank by rank from a8 to a1, the other king on h4
        // (so the kings' term alone would not pull toward a1): each step gains.
        let a_file: Vec<Score> = [
            "k7/8/8/8/7K/8/7B/6N1",
            "8/k7/8/8/7K/8/7B/6N1",
            "8/8/k7/8/7K/8/7B/6N1",
            "8/8/8/k7/7K/8/7B/6N1",
            "8/8/8/8/k6K/8/7B/6N1",
            "8/8/8/8/7K/k7/7B/6N1",
            "8/8/8/8/7K/8/k6B/6N1",
            "8/8/8/8/7K/8/7B/k5N1",
        ]
        .map(|board| adjusted(&format!("{board} w - - 0 1")))
        .to_vec();
        assert!(a_file.windows(2).all(|w| w[0] < w[1]), "{a_file:?}");
        let at = |king: &str| adjusted(&format!("{king}/8/8/8/7K/8/7B/6N1 w - - 0 1"));
        assert!(at("7k") > at("k7"), "h8 {} a8 {}", at("7k"), at("k7"));
        // A light-squared bishop (b1) turns the corners round.
        let light_a8 = adjusted("k7/8/8/8/8/8/8/1B2K1N1 w - - 0 1");
        let light_h8 = adjusted("7k/8/8/8/8/8/8/1B2K1N1 w - - 0 1");
        assert!(light_a8 > light_h8, "{light_a8} {light_h8}");
        // Black with the pieces, White to move: the negation of Black's gain.
        assert!(adjusted("bn2k3/8/8/8/8/8/8/7K w - - 0 1") < 0);
        // Two knights, two bishops of one colour, or a bishop and a knight with a pawn:
        // no gradient.
        assert_eq!(adjusted("k7/8/8/8/8/8/8/NN2K3 w - - 0 1"), 0);
        assert_eq!(adjusted("k7/8/8/8/8/8/8/B1B1K3 w - - 0 1"), 0);
        assert_eq!(adjusted("k7/8/8/8/8/8/P7/BN2K3 w - - 0 1"), 0);
        // Two bishops of both colours: to the edge, as a rook.
        assert!(
            adjusted("k7/8/8/8/8/8/8/BB2K3 w - - 0 1")
                > adjusted("8/8/3k4/8/8/8/8/BB2K3 w - - 0 1")
        );
    }

    #[test]
    fn nothing_changes_without_a_bare_king_or_the_material_to_mate_it() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/3k4/8/8/8/P7/4K3 w - - 0 1",
            "8/8/3k4/8/8/8/8/B3K3 w - - 0 1",
            "8/8/3k4/3p4/8/8/8/R3K3 w - - 0 1",
        ] {
            assert_eq!(adjusted(fen), 0, "{fen}");
        }
    }
}
