//! A move in 16 bits: from (6) | to (6) | promotion (3). The transposition table
//! stores its best move so (`tt::Entry::packed_move`), and so do the self-play data
//! files; `unpack_move` gives the move back only where it is legal.

use shakmaty::{Chess, Move, Position, Role, Square};

/// `m` in 16 bits (0 is never a move: from and to would both be a1).
pub fn pack_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promotion = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promotion << 12)
}

/// The move that [`pack_move`] packed as `packed`, if it is a legal move of `pos`
/// (a table entry may come from another position that shares the key's slot).
pub fn unpack_move(pos: &Chess, packed: u16) -> Option<Move> {
    unpack_move_if(pos, packed, |m| pos.is_legal(m))
}

/// [`unpack_move`], with `legal` deciding whether a move of `pos` that packs to
/// `packed` is legal there (the search's picker asks its own legality test).
pub fn unpack_move_if(pos: &Chess, packed: u16, legal: impl FnOnce(Move) -> bool) -> Option<Move> {
    decode_move(pos, packed).filter(|&m| pack_move(m) == packed && legal(m))
}

/// The move of `pos` that `packed` would be if it were legal here: the piece of the
/// side to move on its `from` square, moving to `to` (castling when a king lands on
/// its own rook, en passant when a pawn moves diagonally to an empty square), with
/// what stands on `to` as its capture; `None` without such a piece. The move may
/// still be illegal, or not even reachable (a rook's path blocked), and may pack to
/// another code (a promotion code for a knight's move).
fn decode_move(pos: &Chess, packed: u16) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let from = Square::new(u32::from(packed & 63));
    let to = Square::new(u32::from((packed >> 6) & 63));
    let promotion = match packed >> 12 {
        0 => None,
        r => Some(Role::try_from(r).ok()?),
    };
    let board = pos.board();
    let us = pos.turn();
    let role = board
        .role_at(from)
        .filter(|_| board.by_color(us).contains(from))?;
    Some(
        if role == Role::King && board.by_piece(Role::Rook.of(us)).contains(to) {
            Move::Castle {
                king: from,
                rook: to,
            }
        } else if role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to) {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    #[test]
    fn pack_move_is_unique_per_position() {
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let mut packed: Vec<u16> = moves.iter().map(|&m| pack_move(m)).collect();
        packed.sort();
        packed.dedup();
        assert_eq!(packed.len(), moves.len());
    }

    #[test]
    fn unpack_move_inverts_pack_move_and_refuses_the_rest() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k3/1P3bp1/7p/3q4/8/8/8/R2QK2R w K - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let legal = pos.legal_moves();
            for &m in &legal {
                assert_eq!(unpack_move(&pos, pack_move(m)), Some(m), "{fen}");
            }
            let found = (0..=u16::MAX)
                .filter_map(|packed| unpack_move(&pos, packed))
                .count();
            assert_eq!(found, legal.len(), "only legal moves, once each: {fen}");
        }
    }
}
