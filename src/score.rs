//! Scores in centipawns from the side to move's point of view, and mate scores.
//!
//! A mate found `ply` half-moves from the root is `MATE - ply` (for the winner);
//! the transposition table stores mate scores relative to the node instead, so
//! that an entry is valid at any distance from the root: `to_tt`/`from_tt`.

pub type Score = i32;

/// Larger than any reachable score; the initial alpha-beta window.
pub const INFINITY: Score = 32_000;
/// Score of delivering mate at the root (mate in zero plies).
pub const MATE: Score = 31_000;
/// Highest ply a search may reach; mate scores lie within `MATE - MAX_PLY..=MATE`.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
pub const DRAW: Score = 0;

/// Score for the side that delivers mate `ply` half-moves from the root.
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// Score for the side that is mated `ply` half-moves from the root.
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Full moves to mate for UCI's `score mate N` (negative when being mated).
pub const fn mate_moves(score: Score) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// Converts a root-relative mate score into a node-relative one for storage.
pub const fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored node-relative mate score back to root-relative at `ply`.
pub const fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_moves_counts_full_moves() {
        assert_eq!(mate_moves(mate_in(1)), 1);
        assert_eq!(mate_moves(mate_in(3)), 2);
        assert_eq!(mate_moves(mated_in(0)), 0);
        assert_eq!(mate_moves(mated_in(2)), -1);
    }

    #[test]
    fn tt_round_trip_keeps_distance_to_mate() {
        let at_root = mate_in(7);
        let stored = to_tt(at_root, 3);
        assert_eq!(stored, mate_in(4), "stored relative to the node at ply 3");
        assert_eq!(from_tt(stored, 5), mate_in(9));
        assert_eq!(from_tt(to_tt(-123, 9), 2), -123);
        assert_eq!(from_tt(to_tt(mated_in(10), 4), 4), mated_in(10));
    }
}
