//! Scores in centipawns from the side to move's point of view, mate scores and
//! tablebase scores.
//!
//! A mate found `ply` half-moves from the root is `MATE - ply` (for the winner).
//! A tablebase win entered `ply` half-moves from the root is `TB_WIN - ply`: below
//! every mate (a mate is proven to the end, a tablebase win only to its value) and
//! above every evaluation. UCI shows tablebase scores as centipawns, not mates.
//! The transposition table stores mate and tablebase scores relative to the node
//! instead, so that an entry is valid at any distance from the root: `to_tt`/`from_tt`.

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
/// Score of a tablebase win at the root: the best score that is not a mate.
pub const TB_WIN: Score = MATE_BOUND - 1;
/// Scores at or beyond this, short of `MATE_BOUND`, are tablebase wins.
pub const TB_WIN_BOUND: Score = TB_WIN - MAX_PLY as Score;

/// An evaluation (never a proof) kept short of the tablebase and mate scores.
pub fn clamp_eval(score: Score) -> Score {
    score.clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
}

/// Score for the side that delivers mate `ply` half-moves from the root.
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// Score for the side that is mated `ply` half-moves from the root.
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Score for the side that enters a tablebase win `ply` half-moves from the root
/// (the sooner, the better: the search makes progress towards it).
pub const fn tb_win_in(ply: usize) -> Score {
    TB_WIN - ply as Score
}

/// Score for the side that enters a tablebase loss `ply` half-moves from the root.
pub const fn tb_loss_in(ply: usize) -> Score {
    -TB_WIN + ply as Score
}

/// A forced mate (either way); tablebase wins and losses are not.
pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// A tablebase win or loss (not a mate).
pub const fn is_tb_score(score: Score) -> bool {
    score.abs() >= TB_WIN_BOUND && !is_mate(score)
}

/// A proven result, by mate or by tablebase: no estimate that pruning may trust
/// or that a null-move search may return.
pub const fn is_decisive(score: Score) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// Full moves to mate for UCI's `score mate N` (negative when being mated).
pub const fn mate_moves(score: Score) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// Converts a root-relative mate or tablebase score into a node-relative one for storage.
pub const fn to_tt(score: Score, ply: usize) -> Score {
    if score >= TB_WIN_BOUND {
        score + ply as Score
    } else if score <= -TB_WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored node-relative mate or tablebase score back to root-relative at `ply`.
pub const fn from_tt(score: Score, ply: usize) -> Score {
    if score >= TB_WIN_BOUND {
        score - ply as Score
    } else if score <= -TB_WIN_BOUND {
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

    #[test]
    fn tablebase_scores_lie_between_evaluations_and_mates() {
        for ply in 0..=MAX_PLY {
            let (win, loss) = (tb_win_in(ply), tb_loss_in(ply));
            assert_eq!(loss, -win);
            assert!(!is_mate(win) && !is_mate(loss), "ply {ply}: not a mate");
            assert!(is_tb_score(win) && is_tb_score(loss), "ply {ply}");
            assert!(is_decisive(win) && is_decisive(loss), "ply {ply}");
            assert!(
                win < mate_in(MAX_PLY),
                "every mate beats every tablebase win"
            );
            assert!(win >= TB_WIN_BOUND);
        }
        assert!(!is_tb_score(mate_in(5)) && is_decisive(mate_in(5)));
        assert!(!is_decisive(TB_WIN_BOUND - 1) && !is_tb_score(3000));
        assert!(
            tb_win_in(3) > tb_win_in(4),
            "a sooner tablebase win is better"
        );
        // The table packs scores in 16 bits.
        assert!(i16::try_from(to_tt(TB_WIN, MAX_PLY)).is_ok());
    }

    #[test]
    fn tt_round_trip_keeps_distance_to_a_tablebase_result() {
        // Entered 9 plies from the root, seen from a node at ply 3: 6 plies away.
        let stored = to_tt(tb_win_in(9), 3);
        assert_eq!(stored, tb_win_in(6));
        assert!(is_tb_score(stored));
        assert_eq!(from_tt(stored, 3), tb_win_in(9));
        assert_eq!(from_tt(stored, 1), tb_win_in(7), "reached sooner elsewhere");
        assert_eq!(from_tt(to_tt(tb_loss_in(12), 5), 5), tb_loss_in(12));
        assert_eq!(to_tt(tb_loss_in(12), 5), tb_loss_in(7));
        // Never pushed into the mate range, either way.
        for ply in 0..=MAX_PLY {
            for node in 0..=ply {
                let stored = to_tt(tb_win_in(ply), node);
                assert!(is_tb_score(stored), "win at {ply} stored at {node}");
                assert!(is_tb_score(to_tt(tb_loss_in(ply), node)));
            }
        }
    }
}
