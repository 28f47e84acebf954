//! `shakmaty::Chess` plus its Zobrist key, kept up to date move by move.
//!
//! Make is copy-make (shakmaty has no unmake): `Board::play` returns the child.
//! The key comes from shakmaty's own Zobrist tables, updated incrementally where
//! shakmaty can and recomputed where it cannot (castling, double pushes, …).

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

#[derive(Clone, Debug)]
pub struct Board {
    pos: Chess,
    key: u64,
}

impl Board {
    pub fn new(pos: Chess) -> Board {
        let key = full_key(&pos);
        Board { pos, key }
    }

    pub fn startpos() -> Board {
        Board::new(Chess::default())
    }

    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.pos
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The position after the legal move `m`.
    #[inline]
    pub fn play(&self, m: Move) -> Board {
        let mut pos = self.pos.clone();
        let key = match self.pos.update_zobrist_hash::<Zobrist64>(
            Zobrist64(self.key),
            m,
            EnPassantMode::Legal,
        ) {
            Some(k) => {
                pos.play_unchecked(m);
                k.0
            }
            None => {
                pos.play_unchecked(m);
                full_key(&pos)
            }
        };
        Board { pos, key }
    }

    /// The position with the side to move passing (for null-move pruning).
    /// `None` when in check, where passing is not a legal position.
    pub fn play_null(&self) -> Option<Board> {
        let pos = self.pos.clone().swap_turn().ok()?;
        Some(Board::new(pos))
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// True when the side to move has a piece other than pawns and king:
    /// without one, zugzwang makes null-move pruning unsound.
    pub fn has_non_pawn_material(&self) -> bool {
        let board = self.pos.board();
        let ours = board.by_color(self.pos.turn());
        let pawns_and_kings = board.by_role(Role::Pawn) | board.by_role(Role::King);
        (ours & !pawns_and_kings).any()
    }
}

fn full_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// A FEN in any castling notation (KQkq, Shredder HAha, X-FEN).
pub fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    let fen = Fen::from_ascii(text.trim().as_bytes())
        .map_err(|e| format!("bad FEN '{}': {e}", crate::text::excerpt(text.trim(), 100)))?;
    fen.into_position::<Chess>(mode)
        .map_err(|e| format!("bad FEN '{}': {e}", crate::text::excerpt(text.trim(), 100)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn walk(board: &Board, depth: u32) {
        assert_eq!(
            board.key(),
            full_key(board.chess()),
            "incremental key drifted"
        );
        if depth == 0 {
            return;
        }
        for m in board.chess().legal_moves() {
            walk(&board.play(m), depth - 1);
        }
    }

    #[test]
    fn incremental_key_matches_full_key() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            walk(&Board::new(pos), 3);
        }
    }

    #[test]
    fn null_move_flips_side_and_key() {
        let b = Board::startpos();
        let n = b.play_null().unwrap();
        assert_ne!(n.turn(), b.turn());
        assert_ne!(n.key(), b.key());
        assert_eq!(n.key(), full_key(n.chess()));
    }
}
