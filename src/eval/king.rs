//! King safety: attacks on the squares around the king, and the pawns in front of
//! it (its own, which shelter it, and the enemy's, which storm it).
//!
//! Every term is linear in its weights, so that the tuner can fit them with the
//! rest: the number of attackers, where a hand-written evaluation would use a
//! curve, is a one-hot table (`KING_ATTACKERS`) the tuner shapes.

use super::geometry::{FILE_A, ranks_ahead};
use super::layout;
use super::sink::{WeightSink, role_index};
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

/// Attacker counts from this many on share the last entry of `KING_ATTACKERS`.
const MAX_ATTACKERS: usize = 7;
/// Pawn distances beyond this share the last entry of the shelter and storm tables
/// (a pawn in front of a king is at most six ranks away anyway).
const MAX_PAWN_DISTANCE: usize = 6;

/// The zone of a king on `king` (of `color`): its square, the squares around it and
/// the three squares two ranks in front of it, where the attack will come from.
pub fn zone(color: Color, king: Square) -> Bitboard {
    let around = attacks::king_attacks(king) | Bitboard::from_square(king);
    let row = around & Bitboard(0xff << (8 * (king.to_usize() / 8)));
    // Shifting past the edge of the board drops the squares, as it should.
    let ahead = match color {
        Color::White => Bitboard(row.0 << 16),
        Color::Black => Bitboard(row.0 >> 16),
    };
    around | ahead
}

/// Counts one side's attacks on the enemy king's zone, piece by piece, as the
/// mobility loop computes each piece's attacks.
pub struct ZoneAttacks {
    /// The enemy king's zone (empty without a king, in positions built by hand).
    zone: Bitboard,
    attackers: usize,
}

impl ZoneAttacks {
    /// Attacks by `attacker` on the king of the other side.
    #[inline(always)]
    pub fn new(board: &Board, attacker: Color) -> ZoneAttacks {
        let zone = board
            .king_of(!attacker)
            .map_or(Bitboard::EMPTY, |k| zone(!attacker, k));
        ZoneAttacks { zone, attackers: 0 }
    }

    /// A knight, bishop, rook or queen (`role`) attacking `squares`.
    #[inline(always)]
    pub fn piece<A: WeightSink>(
        &mut self,
        acc: &mut A,
        attacker: Color,
        role: Role,
        squares: Bitboard,
    ) {
        let hits = squares & self.zone;
        if hits.any() {
            // The table starts at the knight.
            let index = layout::KING_ZONE_ATTACKS + role_index(role) - role_index(Role::Knight);
            acc.add(attacker, index, hits.count() as i32);
            self.attackers += 1;
        }
    }

    /// Reports how many pieces attacked the zone.
    #[inline(always)]
    pub fn finish<A: WeightSink>(self, acc: &mut A, attacker: Color) {
        let n = self.attackers.min(MAX_ATTACKERS);
        acc.add(attacker, layout::KING_ATTACKERS + n, 1);
    }
}

/// `color`'s king shelter and the enemy's pawn storm on it: on each file at and
/// beside the king, the nearest own and the nearest enemy pawn in front of the king.
#[inline(always)]
pub fn pawns<A: WeightSink>(board: &Board, color: Color, acc: &mut A) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let (file, rank) = (king.to_usize() % 8, king.to_usize() / 8);
    let ahead = ranks_ahead(color, rank);
    let ours = board.pawns() & board.by_color(color) & ahead;
    let theirs = board.pawns() & board.by_color(!color) & ahead;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let on_file = Bitboard(FILE_A << f);
        let shelter = nearest_distance(color, rank, ours & on_file);
        acc.add(color, layout::PAWN_SHELTER + shelter, 1);
        let storm = nearest_distance(color, rank, theirs & on_file);
        acc.add(color, layout::PAWN_STORM + storm, 1);
    }
}

/// Ranks from `rank` to the pawn of `pawns` nearest to it, looking from `color`'s
/// side (all of `pawns` are in front of `rank`); 0 if there is none.
#[inline(always)]
fn nearest_distance(color: Color, rank: usize, pawns: Bitboard) -> usize {
    let nearest = match color {
        Color::White => pawns.first(),
        Color::Black => pawns.last(),
    };
    nearest.map_or(0, |sq| {
        (sq.to_usize() / 8).abs_diff(rank).min(MAX_PAWN_DISTANCE)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace;
    use crate::position::pos;

    #[test]
    fn the_zone_is_around_and_in_front_of_the_king() {
        let z = zone(Color::White, Square::G1);
        // f1 g1 h1, f2 g2 h2, f3 g3 h3.
        assert_eq!(z.count(), 9);
        assert!(z.contains(Square::H3) && !z.contains(Square::H4));
        let z = zone(Color::Black, Square::A8);
        // a8 b8, a7 b7, a6 b6.
        assert_eq!(z.count(), 6);
        assert!(z.contains(Square::B6));
        let z = zone(Color::White, Square::E8);
        assert_eq!(z.count(), 6, "nothing beyond the edge");
    }

    #[test]
    fn shelter_and_storm_count_the_nearest_pawns() {
        // White king g1: own pawns f2, g2 (1 rank away), h3 (2); enemy pawns
        // h4 (3) and g6 (5), none on the f-file.
        // Black king g8: own pawns g6 (2) and h4 (4), none on f; enemy pawns
        // f2, g2 (6) and h3 (5).
        let t = trace(&pos("6k1/8/6p1/8/7p/7P/5PP1/6K1 w - - 0 1"));
        let shelter = &t.counts[layout::PAWN_SHELTER..layout::PAWN_SHELTER + 7];
        assert_eq!(shelter, [-1, 2, 1 - 1, 0, -1, 0, 0]);
        let storm = &t.counts[layout::PAWN_STORM..layout::PAWN_STORM + 7];
        assert_eq!(storm, [1, 0, 0, 1, 0, 1 - 1, -2]);
    }

    #[test]
    fn attacks_on_the_king_zone_count_squares_and_attackers() {
        // Black king g8: its zone is f8..h8, f7..h7, f6..h6. The queen on d4
        // hits f6, g7 and h8 on the long diagonal, the rook on h1 h6, h7 and h8.
        let t = trace(&pos("6k1/8/8/8/3Q4/8/8/4K2R w - - 0 1"));
        let c = &t.counts;
        assert_eq!(c[layout::KING_ZONE_ATTACKS + 3], 3, "queen");
        assert_eq!(c[layout::KING_ZONE_ATTACKS + 2], 3, "rook");
        assert_eq!(c[layout::KING_ATTACKERS + 2], 1);
        // Black attacks nothing: its entry 0 (no attacker) counts against White.
        assert_eq!(c[layout::KING_ATTACKERS], -1);
    }
}
