//! Threats: enemy pieces attacked by something cheaper, and enemy pieces attacked
//! and not defended. Static exchange is the search's business (`search/see.rs`);
//! these terms only tell the evaluation that a position holds a threat.

use super::layout;
use super::sink::WeightSink;
use shakmaty::{Bitboard, Board, Color, Role};

/// The squares one side attacks, by kind of attacker (filled by `terms.rs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Attacks {
    pub pawns: Bitboard,
    /// Knights and bishops.
    pub minors: Bitboard,
    pub rooks: Bitboard,
    /// Every piece, the king and the pawns included.
    pub all: Bitboard,
}

/// Victims of a pawn, in the order of `PAWN_THREAT`.
const PAWN_VICTIMS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
/// Victims of a knight or bishop, in the order of `MINOR_THREAT`.
const MINOR_VICTIMS: [Role; 2] = [Role::Rook, Role::Queen];
/// Pieces that can hang, in the order of `HANGING`.
const HANGING_VICTIMS: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// `color`'s threats, given what each side attacks.
#[inline(always)]
pub fn add<A: WeightSink>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    acc: &mut A,
) {
    // Each group is first tested as a whole: threats are rare, and counting bits
    // is not free on a CPU without a popcount instruction (the default target).
    let them = board.by_color(!color) & !board.kings();
    let victims = |role: Role| board.by_role(role) & them;
    if (ours.pawns & them).any() {
        for (i, role) in PAWN_VICTIMS.into_iter().enumerate() {
            count(
                acc,
                color,
                layout::PAWN_THREAT + i,
                ours.pawns & victims(role),
            );
        }
    }
    if (ours.minors & them).any() {
        for (i, role) in MINOR_VICTIMS.into_iter().enumerate() {
            count(
                acc,
                color,
                layout::MINOR_THREAT + i,
                ours.minors & victims(role),
            );
        }
    }
    count(
        acc,
        color,
        layout::ROOK_THREAT,
        ours.rooks & victims(Role::Queen),
    );
    let undefended = ours.all & !theirs.all & them;
    if undefended.any() {
        for (i, role) in HANGING_VICTIMS.into_iter().enumerate() {
            count(acc, color, layout::HANGING + i, undefended & victims(role));
        }
    }
}

/// One use of the weight at `index` for each square of `squares`.
#[inline(always)]
fn count<A: WeightSink>(acc: &mut A, color: Color, index: usize, squares: Bitboard) {
    if squares.any() {
        acc.add(color, index, squares.count() as i32);
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::{layout, trace};
    use shakmaty::CastlingMode;

    fn counts(fen: &str) -> Vec<i32> {
        let p = crate::position::parse_fen(fen, CastlingMode::Standard).unwrap();
        trace(&p).counts.to_vec()
    }

    #[test]
    fn cheaper_attackers_threaten() {
        // White's pawn e4 forks the knight d5 and the rook f5; the bishop c4
        // attacks the knight too, which is no minor's threat. Black threatens nothing.
        let c = counts("4k3/8/8/3n1r2/2B1P3/8/8/4K3 w - - 0 1");
        assert_eq!(c[layout::PAWN_THREAT], 1, "knight");
        assert_eq!(c[layout::PAWN_THREAT + 2], 1, "rook");
        assert_eq!(c[layout::MINOR_THREAT], 0);
        // The rook c1 attacks the queen c5 up the file; the bishop e2 does not.
        let c = counts("4k3/8/8/2q5/8/8/4B3/2R1K3 w - - 0 1");
        assert_eq!(c[layout::ROOK_THREAT], 1);
        assert_eq!(c[layout::MINOR_THREAT + 1], 0);
        // A bishop on f2 does, through e3 and d4.
        let c = counts("4k3/8/8/2q5/8/8/5B2/2R1K3 w - - 0 1");
        assert_eq!(c[layout::MINOR_THREAT + 1], 1);
    }

    #[test]
    fn hanging_means_attacked_and_undefended() {
        // The rooks a1 and a5 attack each other, and neither is defended; the
        // knight on h5 is attacked by nothing.
        let c = counts("4k3/8/8/r6n/8/8/8/R3K3 w - - 0 1");
        assert_eq!(c[layout::HANGING + 3], 1 - 1);
        // Defend White's rook with the king: only Black's hangs.
        let c = counts("4k3/8/8/r6n/8/8/1K6/R7 w - - 0 1");
        assert_eq!(c[layout::HANGING + 3], 1);
        assert_eq!(c[layout::HANGING + 1], 0);
    }
}
