//! Static exchange evaluation (SEE): what a move wins or loses on its destination
//! square if both sides then keep recapturing there, each with its least valuable
//! attacker, and each free to stop whenever going on would cost it.
//!
//! It answers "does this capture lose material?" without a search, so the search can
//! order losing captures after the quiet moves, prune losing captures in quiescence,
//! and prune them (or quiet moves to attacked squares) at low depth. `see_ge` answers
//! the threshold question with early exits; `see` gives the value itself.
//!
//! Everything is bitboards from the board as it stands: no allocation, no copy of the
//! position, no move generation. Sliders behind a piece that has captured (x-rays)
//! join the exchange as the occupancy empties.
//!
//! Special moves: en passant removes the pawn beside the destination; a promotion
//! gains the new piece less a pawn, and the new piece is what stands on the square;
//! a pawn recapturing on the last rank promotes to a queen; castling (standard and
//! Chess960) is worth 0. A king recaptures only when the opponent has no attacker
//! left (a king never gets captured).
//!
//! Approximate: pinned pieces count as attackers, and so do pieces that are needed
//! to stop a check or that leave their own king in check; checks given during the
//! exchange are ignored; the least valuable attacker always recaptures next (which
//! is not always the best order); only material on the one square counts.

use crate::special_moves::en_passant_victim;
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

/// The piece values of the exchange, in centipawns, indexed by `Role as usize - 1`:
/// pawn 100, knight 300, bishop 300, rook 500, queen 900, king 20 000 (more than
/// everything else together, so that losing the king never pays).
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// The exchange value of a piece (see [`SEE_VALUES`]).
#[inline]
pub const fn see_value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

/// True when the static exchange of `m` on its destination square wins at least
/// `threshold` centipawns for the side making `m` (both sides may stop capturing
/// whenever they like; `m` itself is played).
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let Some((mut exchange, gain)) = Exchange::start(pos, m) else {
        return 0 >= threshold;
    };
    // Decided before the attackers are looked for: `m` alone does not reach the
    // threshold, or even the worst recapture (the piece that moved, promoted if a pawn
    // takes it on the last rank) leaves the threshold reached, and the side of `m` may
    // stop there.
    if gain < threshold {
        return false;
    }
    if gain - exchange.most_lost() >= threshold {
        return true;
    }
    exchange.find_attackers();
    // The balance for the side making `m`. At each turn the side to capture stops
    // if stopping already decides the question its way; otherwise it must capture,
    // and the question is decided against it if it cannot.
    let mut balance = gain;
    loop {
        // The opponent to capture.
        if balance < threshold {
            return false;
        }
        match exchange.capture() {
            Some(gain) => balance -= gain,
            None => return true,
        }
        // The side of `m` to capture.
        if balance >= threshold {
            return true;
        }
        match exchange.capture() {
            Some(gain) => balance += gain,
            None => return false,
        }
    }
}

/// The value of the static exchange of `m` for the side making it, in centipawns
/// (0 for castling). A swap list, resolved backwards.
#[cfg(test)]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Some((mut exchange, gain)) = Exchange::start(pos, m) else {
        return 0;
    };
    exchange.find_attackers();
    // `gains[d]`: the balance for the side making capture `d` if the exchange ends
    // there. Each capture empties a square, so there are fewer than 64.
    let mut gains = [0i32; 64];
    gains[0] = gain;
    let mut depth = 0;
    while let Some(gain) = exchange.capture() {
        depth += 1;
        gains[depth] = gain - gains[depth - 1];
    }
    // Each side either stops (keeps the balance as it is) or goes on. `m` itself
    // (depth 0) is played in any case.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The state of an exchange on one square: who is left to capture, and what stands there.
struct Exchange<'a> {
    board: &'a Board,
    to: Square,
    /// The occupancy with every piece that has captured (and the pawn taken en passant) removed.
    occupied: Bitboard,
    /// Pieces of both sides attacking `to` through `occupied` (may hold removed
    /// pieces until masked with `occupied`).
    attackers: Bitboard,
    /// The side to capture next.
    turn: Color,
    /// The value of the piece standing on `to`.
    on_square: i32,
}

impl<'a> Exchange<'a> {
    /// The exchange after `m`, with what `m` gains, or `None` for castling. Its
    /// attackers are found by `find_attackers`, when they are needed.
    #[inline]
    fn start(pos: &'a Chess, m: Move) -> Option<(Exchange<'a>, i32)> {
        let board = pos.board();
        let (to, occupied, gain, on_square) = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let promotion_gain = promotion.map_or(0, |p| see_value(p) - see_value(Role::Pawn));
                (
                    to,
                    board.occupied().without(from),
                    capture.map_or(0, see_value) + promotion_gain,
                    see_value(promotion.unwrap_or(role)),
                )
            }
            Move::EnPassant { from, to } => {
                let taken = en_passant_victim(from, to);
                (
                    to,
                    board.occupied().without(from).without(taken),
                    see_value(Role::Pawn),
                    see_value(Role::Pawn),
                )
            }
            Move::Castle { .. } => return None,
            Move::Put { role, to } => (to, board.occupied(), 0, see_value(role)),
        };
        let exchange = Exchange {
            board,
            to,
            occupied,
            attackers: Bitboard::EMPTY,
            turn: pos.turn().other(),
            on_square,
        };
        Some((exchange, gain))
    }

    /// The pieces of both sides that attack the square once the move is made.
    #[inline]
    fn find_attackers(&mut self) {
        let (board, to, occupied) = (self.board, self.to, self.occupied);
        self.attackers = occupied
            & ((rook_attacks(to, occupied) & board.rooks_and_queens())
                | (bishop_attacks(to, occupied) & board.bishops_and_queens())
                | (knight_attacks(to) & board.knights())
                | (king_attacks(to) & board.kings())
                | (pawn_attacks(Color::Black, to) & board.by_piece(Color::White.pawn()))
                | (pawn_attacks(Color::White, to) & board.by_piece(Color::Black.pawn())));
    }

    /// The most the first recapture can take back: the piece on the square, and a
    /// queen's worth less a pawn more if a pawn takes it on the last rank.
    #[inline]
    fn most_lost(&self) -> i32 {
        let promotion = if matches!(self.to.rank(), Rank::First | Rank::Eighth) {
            see_value(Role::Queen) - see_value(Role::Pawn)
        } else {
            0
        };
        self.on_square + promotion
    }

    /// The side to move recaptures with its least valuable attacker: what it gains,
    /// or `None` when it cannot (the exchange is over then). Then it is the other
    /// side's turn.
    #[inline]
    fn capture(&mut self) -> Option<i32> {
        let ours = self.attackers & self.board.by_color(self.turn);
        if ours.is_empty() {
            return None;
        }
        let (role, from) = Role::ALL.into_iter().find_map(|role| {
            (ours & self.board.by_role(role))
                .first()
                .map(|sq| (role, sq))
        })?;
        self.occupied.discard(from);
        // Sliders behind the piece that left join in (x-rays).
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen | Role::King) {
            self.attackers |=
                bishop_attacks(self.to, self.occupied) & self.board.bishops_and_queens();
        }
        if matches!(role, Role::Rook | Role::Queen | Role::King) {
            self.attackers |= rook_attacks(self.to, self.occupied) & self.board.rooks_and_queens();
        }
        self.attackers &= self.occupied;
        self.turn = self.turn.other();
        if role == Role::King && (self.attackers & self.board.by_color(self.turn)).any() {
            // The king may not capture onto a defended square.
            return None;
        }
        let gain = self.on_square;
        self.on_square = see_value(role);
        if role == Role::Pawn && matches!(self.to.rank(), Rank::First | Rank::Eighth) {
            self.on_square = see_value(Role::Queen);
            return Some(gain + see_value(Role::Queen) - see_value(Role::Pawn));
        }
        Some(gain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(mode)
            .unwrap()
    }

    /// `see` is `value`, and `see_ge` says yes at `value` and no just above it.
    fn check_mode(fen: &str, uci: &str, value: i32, mode: CastlingMode) {
        let pos = position(fen, mode);
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        assert_eq!(see(&pos, m), value, "see of {uci} in {fen}");
        assert!(see_ge(&pos, m, value), "see_ge {value} of {uci} in {fen}");
        assert!(
            !see_ge(&pos, m, value + 1),
            "see_ge {} of {uci} in {fen}",
            value + 1
        );
    }

    fn check(fen: &str, uci: &str, value: i32) {
        check_mode(fen, uci, value, CastlingMode::Standard);
    }

    #[test]
    fn values() {
        assert_eq!(see_value(Role::Pawn), 100);
        assert_eq!(see_value(Role::Knight), 300);
        assert_eq!(see_value(Role::Bishop), 300);
        assert_eq!(see_value(Role::Rook), 500);
        assert_eq!(see_value(Role::Queen), 900);
        assert_eq!(see_value(Role::King), 20_000);
    }

    #[test]
    fn pawn_takes_defended_knight() {
        // exd5 exd5: +300 -100.
        check("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 200);
        // The same with black: exd4 exd4.
        check("4k3/8/8/4p3/3N4/4P3/8/4K3 b - - 0 1", "e5d4", 200);
    }

    #[test]
    fn queen_takes_pawn_defended_by_pawn() {
        // Qxd5 cxd5: +100 -900.
        check("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800);
    }

    #[test]
    fn rook_takes_undefended_rook() {
        check("4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 500);
    }

    #[test]
    fn doubled_rooks_x_ray() {
        // Rxd5 Rxd5 Rxd5: the rook on d1 recaptures through d2 (+300 -500 +500),
        // so black does better not to recapture: +300 (without the x-ray: -200).
        check("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 300);
    }

    #[test]
    fn bishop_behind_queen_x_ray() {
        // Qxe5 Rxe5 Bxe5: +300 -900 +500 = -100 (without the bishop: -600).
        check("4r1k1/8/8/4b3/3Q4/2B5/8/6K1 w - - 0 1", "d4e5", -100);
        check("4r1k1/8/8/4b3/3Q4/8/8/6K1 w - - 0 1", "d4e5", -600);
    }

    #[test]
    fn en_passant() {
        // exd6 e.p. cxd6: +100 -100.
        check("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0);
        // exd6 e.p. (+100), Rxd6 would lose the rook to Rxd6, for the captured pawn
        // leaves the d-file open to the rook on d1: black does not recapture.
        check("3rk3/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6", 100);
    }

    #[test]
    fn promotion_with_capture() {
        // bxa8=Q Nxa8: +500 +800 -900.
        check("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8q", 400);
        // bxa8=N Nxa8: +500 +200 -300.
        check("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8n", 400);
        // Undefended: +500 +800.
        check("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", 1300);
    }

    #[test]
    fn promotion_onto_defended_square() {
        // e8=Q Rxe8: +800 -900.
        check("r7/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", -100);
        // The rook behind the pawn recaptures through e7: e8=Q Rxe8 Rxe8 (+800 -900 +500).
        check("r7/4P2k/8/8/8/8/8/4R1K1 w - - 0 1", "e7e8q", 400);
    }

    #[test]
    fn pawn_recapture_on_the_last_rank_promotes() {
        // Rxd8 cxd8=Q: +300 -(500 + 800) (as a plain pawn recapture: +300 -500).
        check("3N3k/2P5/8/8/8/8/7K/3r4 b - - 0 1", "d1d8", -1000);
        // Rxd8 cxd8=Q Rxd8: +300 -1300 +900.
        check("r2N3k/2P5/8/8/8/8/7K/3r4 b - - 0 1", "d1d8", -100);
    }

    #[test]
    fn quiet_moves() {
        // Ng1-f3, attacked by the pawn on e4: the knight is lost.
        check("4k3/8/8/8/4p3/8/8/4K1N1 w - - 0 1", "g1f3", -300);
        // A safe square.
        check("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3", 0);
        // Defended and attacked by a pawn: Nf3 exf3 gxf3 (-300 +100).
        check("4k3/8/8/8/4p3/8/6P1/4K1N1 w - - 0 1", "g1f3", -200);
    }

    #[test]
    fn king_recaptures_only_undefended() {
        // Rxd5 Bxd5, and the king may not take on d5 while the rook on d8 guards it:
        // +300 -500 = -200.
        check("b2r3k/8/8/3n4/4K3/8/8/3R4 w - - 0 1", "d1d5", -200);
        // Without the rook on d8 the king recaptures: +300 -500 +300 = +100.
        check("b6k/8/8/3n4/4K3/8/8/3R4 w - - 0 1", "d1d5", 100);
        // A king capturing an undefended piece.
        check("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", "e1d2", 300);
    }

    #[test]
    fn castling_is_zero() {
        check("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", 0);
        check("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", 0);
        // Chess960: the king takes its own rook in UCI notation.
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        check_mode(fen, "e1g1", 0, CastlingMode::Chess960);
        check_mode(fen, "e1b1", 0, CastlingMode::Chess960);
    }

    /// A small seeded xorshift, for reproducible random walks.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn see_ge_agrees_with_see_on_random_positions() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let thresholds = [-500, -100, 0, 1, 100, 500];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for fen in starts {
            let start = position(fen, CastlingMode::Standard);
            let mut pos = start.clone();
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if pos.is_game_over() {
                    pos = start.clone();
                    continue;
                }
                for &m in &moves {
                    let value = see(&pos, m);
                    if !m.is_capture() && !m.is_promotion() {
                        assert!(value <= 0, "a quiet move wins nothing: {m:?}");
                    }
                    for t in thresholds {
                        assert_eq!(see_ge(&pos, m, t), value >= t, "{m:?} at {t}: see {value}");
                        checked += 1;
                    }
                }
                let m = moves[(xorshift(&mut state) % moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(checked > 10_000, "only {checked} checks");
    }
}
