//! The game a `position` command describes, read from its text: the start (the
//! standard position or a FEN) and the moves in UCI notation, into the board to
//! search and the keys of the positions before it (for repetitions). Pure: the
//! session hands the result to the engine, or the reason it was rejected.

use super::command::PositionStart;
use crate::position::{Board, parse_fen_tolerant};
use crate::text::shorten;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

/// A position read whole: nothing of it reaches the engine unless all of it is valid.
#[derive(Debug)]
pub struct Game {
    pub board: Board,
    /// Keys of the positions before `board`, oldest first.
    pub keys: Vec<u64>,
    /// A tolerated oddity of the FEN (`parse_fen_tolerant`), for a warning.
    pub warning: Option<String>,
}

/// Reads `start` and `moves` (castling in Chess960 notation when `chess960`); the
/// error names the part that was wrong.
pub fn read_game(start: &PositionStart, moves: &[String], chess960: bool) -> Result<Game, String> {
    let mode = CastlingMode::from_chess960(chess960);
    let (start, warning) = match start {
        PositionStart::StartPos => (Chess::default(), None),
        PositionStart::Fen(text) => parse_fen_tolerant(text, mode)?,
    };
    let mut board = Board::new(start);
    let mut keys = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(board.chess(), text)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, shorten(text)))?;
        keys.push(board.key());
        board = board.play(m);
    }
    Ok(Game {
        board,
        keys,
        warning,
    })
}

/// The legal move of `pos` that `text` (UCI notation) names.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let uci = UciMove::from_ascii(text.as_bytes())
        .map_err(|_| "not a move in UCI notation".to_string())?;
    uci.to_move(pos)
        .map_err(|_| "illegal in this position".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(text: &str) -> PositionStart {
        PositionStart::Fen(text.to_string())
    }

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn each_error_names_what_was_wrong() {
        for (start, list, says) in [
            (
                PositionStart::StartPos,
                vec!["e2e4", "e2e4"],
                "move 2 'e2e4': illegal",
            ),
            (fen("not a fen"), vec![], "fen"),
            (
                PositionStart::StartPos,
                vec!["e2e9"],
                "move 1 'e2e9': not a move",
            ),
            // The side not to move is in check: no position, not a tolerated oddity.
            (fen("8/8/8/4k3/8/8/8/B3K3 w - - 0 1"), vec![], "check"),
        ] {
            let e = read_game(&start, &moves(&list), false).unwrap_err();
            assert!(e.to_lowercase().contains(says), "{list:?}: {e}");
        }
    }

    #[test]
    fn the_keys_are_those_of_the_positions_before() {
        let game = read_game(&PositionStart::StartPos, &moves(&["e2e4", "e7e5"]), false).unwrap();
        let after_e4 = Board::startpos().play(parse_move(&Chess::default(), "e2e4").unwrap());
        assert_eq!(game.keys, [Board::startpos().key(), after_e4.key()]);
        assert_eq!(game.warning, None);
    }

    #[test]
    fn tolerated_oddities_are_accepted_with_a_warning() {
        for (text, says) in [
            // Castling rights without the rook: dropped.
            ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "castling"),
            // An en-passant square no pawn can take on: dropped.
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en-passant"),
            // Twelve white queens.
            ("QQQQQQQQ/QQQQ4/8/8/8/8/6pp/4K1nk w - - 0 1", "material"),
            // Three checkers.
            ("4k3/8/3N1N2/8/8/8/4R3/4K3 b - - 0 1", "check"),
        ] {
            let game = read_game(&fen(text), &[], false).unwrap();
            let warning = game.warning.unwrap_or_else(|| panic!("{text}: no warning"));
            assert!(warning.contains(says), "{text}: {warning}");
        }
        let clean = read_game(&fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &[], false).unwrap();
        assert_eq!(clean.warning, None);
    }

    #[test]
    fn castling_is_read_in_both_notations() {
        let start = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let standard = read_game(&start, &moves(&["e1g1"]), false).unwrap();
        let chess960 = read_game(&start, &moves(&["e1h1"]), true).unwrap();
        assert_eq!(standard.board.key(), chess960.board.key());
    }

    #[test]
    fn shredder_and_xfen_castling_fields_are_accepted() {
        for text in [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ] {
            read_game(&fen(text), &[], true).unwrap();
        }
    }
}
