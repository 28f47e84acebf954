//! Probes inside the search tree (`probe_wdl`: where the tables are exact and a probe
//! is worth its cost), and the score and bound a WDL answer gives (`wdl_score`).

use super::{CURSED_WIN, Tablebases, Wdl};
use crate::score::{self, DRAW, Score};
use crate::tt::Bound;
use shakmaty::{Chess, Position};

/// A WDL turned into a search score, and what that score proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbScore {
    pub score: Score,
    pub bound: Bound,
}

/// The search score of a position `ply` half-moves from the root that the tables
/// call `wdl` (for the side to move). A win is a lower bound (a mate is better), a
/// loss an upper bound, a draw exact. With `rule50`, cursed wins and blessed losses
/// are draws (`±CURSED_WIN`); without, wins and losses.
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> TbScore {
    let score = match wdl {
        Wdl::Win => score::tb_win_in(ply),
        Wdl::CursedWin if rule50 => CURSED_WIN,
        Wdl::CursedWin => score::tb_win_in(ply),
        Wdl::Draw => DRAW,
        Wdl::BlessedLoss if rule50 => -CURSED_WIN,
        Wdl::BlessedLoss => score::tb_loss_in(ply),
        Wdl::Loss => score::tb_loss_in(ply),
    };
    let bound = if score >= score::TB_WIN_BOUND {
        Bound::Lower
    } else if score <= -score::TB_WIN_BOUND {
        Bound::Upper
    } else {
        Bound::Exact
    };
    TbScore { score, bound }
}

impl Tablebases {
    /// The WDL of `pos` for the side to move, for a node of the search with
    /// `depth` plies left. `None` where the module's rules say not to probe (see
    /// the top of this file) or the probe failed.
    pub fn probe_wdl(&self, pos: &Chess, depth: i32) -> Option<Wdl> {
        // Cheapest and most selective first: this runs at every node of the search.
        if pos.halfmoves() != 0 || pos.castles().any() {
            return None;
        }
        let pieces = pos.board().occupied().count();
        let cardinality = self.cardinality();
        if pieces > cardinality || (pieces == cardinality && depth < self.config.probe_depth) {
            return None;
        }
        let wdl = self.guarded(|t| t.probe_wdl_after_zeroing(pos))?;
        self.count_hits(1);
        Some(wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::super::TbConfig;
    use super::super::tests::tables;
    use super::*;
    use crate::position::pos;

    #[test]
    fn known_results() {
        let Some(tb) = tables() else { return };
        for (fen, wdl) in [
            // KQvK: the queen wins, whoever moves.
            ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", Wdl::Win),
            ("8/8/8/8/8/2k5/8/KQ6 b - - 0 1", Wdl::Loss),
            // KQvK, black to move and stalemated.
            ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", Wdl::Draw),
            // KBvKB, KNvK: no mate possible.
            ("8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1", Wdl::Draw),
            ("8/8/8/4k3/8/8/8/KN6 b - - 0 1", Wdl::Draw),
            // KPvK: king in front of its pawn on the sixth wins...
            ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::Win),
            // ...the defender's king in front of the pawn with the opposition draws...
            ("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1", Wdl::Draw),
            // ...and the pawn about to promote wins.
            ("8/3KP3/8/8/8/8/8/k7 w - - 0 1", Wdl::Win),
            ("8/3KP3/8/8/8/8/8/k7 b - - 0 1", Wdl::Loss),
            // KRvK: mate in one (Ra8#).
            ("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", Wdl::Win),
        ] {
            assert_eq!(tb.probe_wdl(&pos(fen), 1), Some(wdl), "{fen}");
        }
        assert_eq!(tb.hits(), 10);
        tb.reset_hits();
        assert_eq!(tb.hits(), 0);
    }

    #[test]
    fn probes_only_where_the_rules_allow() {
        let Some(tb) = tables() else { return };
        // Halfmove clock not at 0: WDL tables would not be exact.
        assert_eq!(
            tb.probe_wdl(&pos("8/8/8/8/8/2k5/8/KQ6 w - - 7 40"), 5),
            None
        );
        // Five pieces: more than the tables hold.
        assert_eq!(
            tb.probe_wdl(&pos("8/8/8/8/8/2k5/8/KQ3RR1 w - - 0 1"), 5),
            None
        );
        // Castling rights: not in any table.
        assert_eq!(
            tb.probe_wdl(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), 5),
            None
        );
        // With as many pieces as the cardinality, only from SyzygyProbeDepth on;
        // with fewer, at any depth.
        let deep = tb.with_config(TbConfig {
            probe_depth: 6,
            ..TbConfig::default()
        });
        let four = pos("8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1");
        let three = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
        assert_eq!(deep.probe_wdl(&four, 5), None);
        assert_eq!(deep.probe_wdl(&four, 6), Some(Wdl::Draw));
        assert_eq!(deep.probe_wdl(&three, 1), Some(Wdl::Win));
        // SyzygyProbeLimit.
        let off = tb.with_config(TbConfig {
            probe_limit: 0,
            ..TbConfig::default()
        });
        assert_eq!(off.probe_wdl(&three, 50), None);
        let three_only = tb.with_config(TbConfig {
            probe_limit: 3,
            ..TbConfig::default()
        });
        assert_eq!(three_only.probe_wdl(&four, 50), None);
        assert_eq!(three_only.probe_wdl(&three, 1), Some(Wdl::Win));
    }

    #[test]
    fn wdl_scores_and_bounds() {
        use score::{TB_WIN_BOUND, is_mate, is_tb_score, tb_loss_in, tb_win_in};
        let s = |wdl, rule50| wdl_score(wdl, 7, rule50);
        for rule50 in [true, false] {
            assert_eq!(s(Wdl::Win, rule50).score, tb_win_in(7));
            assert_eq!(s(Wdl::Win, rule50).bound, Bound::Lower);
            assert_eq!(s(Wdl::Loss, rule50).score, tb_loss_in(7));
            assert_eq!(s(Wdl::Loss, rule50).bound, Bound::Upper);
            assert_eq!(s(Wdl::Draw, rule50).score, DRAW);
            assert_eq!(s(Wdl::Draw, rule50).bound, Bound::Exact);
        }
        // Under the 50-move rule, cursed wins and blessed losses are draws...
        assert_eq!(s(Wdl::CursedWin, true).score, CURSED_WIN);
        assert_eq!(s(Wdl::CursedWin, true).bound, Bound::Exact);
        assert_eq!(s(Wdl::BlessedLoss, true).score, -CURSED_WIN);
        assert_eq!(s(Wdl::BlessedLoss, true).bound, Bound::Exact);
        // ...without it, wins and losses.
        assert_eq!(s(Wdl::CursedWin, false), s(Wdl::Win, false));
        assert_eq!(s(Wdl::BlessedLoss, false), s(Wdl::Loss, false));
        // Centipawns for UCI, not mates; stored in the table relative to the node.
        let win = s(Wdl::Win, true).score;
        assert!(!is_mate(win) && is_tb_score(win) && win >= TB_WIN_BOUND);
        assert_eq!(score::from_tt(score::to_tt(win, 7), 7), win);
        assert_eq!(score::to_tt(win, 7), tb_win_in(0));
    }
}
