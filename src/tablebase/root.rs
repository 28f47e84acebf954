//! The root moves ranked by the tables: by DTZ with the 50-move count (exact), or by
//! WDL alone where DTZ tables are missing; the search then keeps only the best rank.

use super::{Tablebases, Wdl, wdl_score};
use crate::score::Score;
use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded};

/// Plies of the 50-move rule: a zeroing move must come within them.
const FIFTY_MOVES: u32 = 100;
/// Root ranks: wins from `RANK_WIN` down, losses from `RANK_LOSS` up, draws at 0.
/// Far beyond any count of plies to a zeroing move, so the three never meet.
const RANK_WIN: i32 = 1 << 16;
const RANK_LOSS: i32 = -RANK_WIN;

/// The value of one root move by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbRootMove {
    pub mv: Move,
    /// The result it keeps under the 50-move rule (whatever `Syzygy50MoveRule`
    /// says): counted from the root's halfmove clock when ranked by DTZ, as if
    /// the clock were 0 when ranked by WDL.
    pub wdl: Wdl,
    /// Higher is better; moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// The score to report for it (`wdl_score` at ply 1, with `Syzygy50MoveRule`).
    pub score: Score,
}

/// The root moves ranked by the tables, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    pub moves: Vec<TbRootMove>,
    /// Ranked by DTZ (exact with the 50-move count), not by WDL alone.
    pub by_dtz: bool,
}

impl RootProbe {
    /// The moves to search: those of the best rank (never empty).
    pub fn kept(&self) -> &[TbRootMove] {
        let best = self.moves[0].rank;
        let n = self.moves.iter().take_while(|m| m.rank == best).count();
        &self.moves[..n]
    }
}

impl Tablebases {
    /// Ranks `moves` (legal in `pos`; the root moves) by the tables: by DTZ, or
    /// by WDL alone where a DTZ table is missing or fails. `repeated`: a position
    /// has already repeated since the last capture or pawn move, so a win must
    /// make progress now (only the moves fastest to a zeroing move are kept). `None`
    /// when `pos` is not in the tables (castling rights, more pieces than
    /// `cardinality()`) or a probe failed.
    pub fn probe_root(&self, pos: &Chess, moves: &[Move], repeated: bool) -> Option<RootProbe> {
        if moves.is_empty()
            || pos.castles().any()
            || pos.board().occupied().count() > self.cardinality()
        {
            return None;
        }
        let (mut ranked, by_dtz) = match self.rank_by_dtz(pos, moves, repeated) {
            Some(ranked) => (ranked, true),
            None => (self.rank_by_wdl(pos, moves)?, false),
        };
        self.count_hits(moves.len());
        ranked.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Some(RootProbe {
            moves: ranked,
            by_dtz,
        })
    }

    fn rank_by_dtz(&self, pos: &Chess, moves: &[Move], repeated: bool) -> Option<Vec<TbRootMove>> {
        let halfmoves = pos.halfmoves();
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            // `dtz`: plies from `pos` to the next zeroing move (or mate) with `mv`
            // played, signed for the side to move; `plies`: what the 50-move count
            // will be then, taking a rounded DTZ at its worst for the side to move.
            let (dtz, plies) = if after.is_checkmate() {
                (1, 1)
            } else if mv.is_zeroing() {
                let wdl = -self.guarded(|t| t.probe_wdl_after_zeroing(&after))?;
                let dtz = Dtz::before_zeroing(wdl).0;
                (dtz, dtz.unsigned_abs())
            } else {
                let reply = self.guarded(|t| t.probe_dtz(&after))?;
                let rounded = u32::from(matches!(reply, MaybeRounded::Rounded(_)));
                let dtz = (-reply).add_plies(1).ignore_rounding().0;
                let plies = halfmoves + dtz.unsigned_abs();
                (dtz, if dtz > 0 { plies + rounded } else { plies })
            };
            let (wdl, rank) = dtz_rank(dtz, plies, repeated);
            let score = wdl_score(wdl, 1, self.config.rule50).score;
            ranked.push(TbRootMove {
                mv,
                wdl,
                rank,
                score,
            });
        }
        Some(ranked)
    }

    fn rank_by_wdl(&self, pos: &Chess, moves: &[Move]) -> Option<Vec<TbRootMove>> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let wdl = if after.is_checkmate() {
                Wdl::Win
            } else {
                -self.guarded(|t| t.probe_wdl_after_zeroing(&after))?
            };
            // As if the next zeroing move came at once, or (cursed, blessed) just
            // past the 50-move limit: the halfmove clock is not counted here.
            let rank = match wdl {
                Wdl::Win => RANK_WIN,
                Wdl::CursedWin => RANK_WIN - (FIFTY_MOVES as i32 + 1),
                Wdl::Draw => 0,
                Wdl::BlessedLoss => RANK_LOSS + (FIFTY_MOVES as i32 + 1),
                Wdl::Loss => RANK_LOSS,
            };
            let score = wdl_score(wdl, 1, self.config.rule50).score;
            ranked.push(TbRootMove {
                mv,
                wdl,
                rank,
                score,
            });
        }
        Some(ranked)
    }
}

/// The WDL and rank of a root move from its DTZ and the 50-move count it reaches.
fn dtz_rank(dtz: i32, plies: u32, repeated: bool) -> (Wdl, i32) {
    let in_time = plies <= FIFTY_MOVES;
    let plies = plies as i32;
    if dtz > 0 {
        let wdl = if in_time { Wdl::Win } else { Wdl::CursedWin };
        // Every win in time is as good as another: the search picks (the fastest
        // mate, say). Once a position has repeated, or when time runs short,
        // only the moves nearest a zeroing move are good enough.
        let rank = if in_time && !repeated {
            RANK_WIN
        } else {
            RANK_WIN - plies
        };
        (wdl, rank)
    } else if dtz < 0 {
        let wdl = if in_time { Wdl::Loss } else { Wdl::BlessedLoss };
        // Resisting longest matters only when a 50-move draw is in sight: if
        // the winner took twice the plies the tables need (an idea of Stockfish's).
        // Otherwise every losing move is as good: the search picks the toughest.
        let in_sight = plies + dtz.abs() >= FIFTY_MOVES as i32;
        let rank = if in_sight {
            RANK_LOSS + plies
        } else {
            RANK_LOSS
        };
        (wdl, rank)
    } else {
        (Wdl::Draw, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{TempDir, tables, tables_dir};
    use super::super::{CURSED_WIN, TbConfig};
    use super::*;
    use crate::position::pos;
    use crate::score::{self, DRAW};
    use shakmaty::CastlingMode;

    fn uci(moves: &[TbRootMove]) -> Vec<String> {
        let mut v: Vec<String> = moves
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn root_keeps_only_the_moves_that_keep_the_rook() {
        let Some(tb) = tables() else { return };
        // The black king attacks the rook: a king move or a rook move next to the
        // black king gives it away (a draw); every other rook move still wins.
        let p = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).expect("in the tables");
        assert!(probe.by_dtz);
        assert_eq!(probe.moves.len(), moves.len());
        assert_eq!(
            uci(probe.kept()),
            [
                "d4a4", "d4b4", "d4c4", "d4d1", "d4d5", "d4d6", "d4d7", "d4d8", "d4g4", "d4h4"
            ]
        );
        for m in probe.kept() {
            assert_eq!((m.wdl, m.score), (Wdl::Win, score::tb_win_in(1)));
        }
        for m in &probe.moves[probe.kept().len()..] {
            assert_eq!((m.wdl, m.score), (Wdl::Draw, DRAW), "{:?}", m.mv);
        }
        assert_eq!(tb.hits(), moves.len() as u64);
    }

    #[test]
    fn root_keeps_the_winning_pawn_endgame_moves() {
        let Some(tb) = tables() else { return };
        // Ke6 and Pe5 against Ke8: Kd6 and Kf6 keep the opposition and win;
        // stepping back to the fifth rank lets Black draw.
        let p = pos("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).unwrap();
        assert_eq!(uci(probe.kept()), ["e6d6", "e6f6"]);
        // Whatever is kept, each kept move's child is a loss for Black by WDL, and
        // no dropped move keeps a win.
        let check = |p: &Chess| {
            let moves: Vec<Move> = p.legal_moves().into_iter().collect();
            let probe = tb.probe_root(p, &moves, false).unwrap();
            for m in &probe.moves {
                let mut after = p.clone();
                after.play_unchecked(m.mv);
                let child = -tb.guarded(|t| t.probe_wdl_after_zeroing(&after)).unwrap();
                assert_eq!(child, m.wdl, "{:?} in {:?}", m.mv, p);
            }
            let best = probe.kept()[0].wdl;
            assert!(probe.moves.iter().all(|m| m.wdl <= best));
        };
        // Only positions straight after a zeroing move probe by WDL in the tree:
        // these all have their clock at 0.
        for fen in [
            "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
            "8/8/8/8/4k3/8/4P3/4K3 w - - 0 1",
            "8/8/8/8/4k3/8/4P3/4K3 b - - 0 1",
            "8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1",
            "8/2k5/8/8/8/8/3P4/K7 b - - 0 1",
        ] {
            check(&pos(fen));
        }
    }

    #[test]
    fn late_in_the_fifty_moves_only_the_fastest_wins_are_kept() {
        let Some(tb) = tables() else { return };
        let fresh = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let late = pos("8/8/8/8/3R4/4k3/8/7K w - - 80 100");
        let moves: Vec<Move> = fresh.legal_moves().into_iter().collect();
        let fresh = tb.probe_root(&fresh, &moves, false).unwrap();
        let late = tb.probe_root(&late, &moves, false).unwrap();
        assert!(late.kept().len() < fresh.kept().len(), "{late:?}");
        let fresh_kept: Vec<Move> = fresh.kept().iter().map(|m| m.mv).collect();
        assert!(late.kept().iter().all(|m| fresh_kept.contains(&m.mv)));
        // After a repetition, too, progress is required.
        let repeated = tb
            .probe_root(&pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1"), &moves, true)
            .unwrap();
        assert!(repeated.kept().len() < fresh.kept().len());
        // Too late: every win is cursed. Under the rule, a draw that might be won...
        let too_late = pos("8/8/8/8/3R4/4k3/8/7K w - - 99 120");
        let cursed = tb.probe_root(&too_late, &moves, false).unwrap();
        assert!(cursed.kept().iter().all(|m| m.wdl == Wdl::CursedWin));
        assert!(cursed.kept().iter().all(|m| m.score == CURSED_WIN));
        // ...and without it, a win.
        let no_rule = tb.with_config(TbConfig {
            rule50: false,
            ..TbConfig::default()
        });
        let won = no_rule.probe_root(&too_late, &moves, false).unwrap();
        assert_eq!(uci(won.kept()), uci(cursed.kept()));
        assert!(won.kept().iter().all(|m| m.score == score::tb_win_in(1)));
    }

    #[test]
    fn root_ranks_by_wdl_without_dtz_tables() {
        let Some(dir) = tables_dir() else { return };
        let wdl_only = TempDir::new("wdl-only");
        for name in ["KRvK.rtbw", "KPvK.rtbw", "KRvKP.rtbw"] {
            std::fs::copy(dir.join(name), wdl_only.0.join(name)).unwrap();
        }
        let tb = Tablebases::load(wdl_only.path(), TbConfig::default()).unwrap();
        let p = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).unwrap();
        assert!(!probe.by_dtz);
        assert_eq!(
            uci(probe.kept()),
            [
                "d4a4", "d4b4", "d4c4", "d4d1", "d4d5", "d4d6", "d4d7", "d4d8", "d4g4", "d4h4"
            ]
        );
        // A position whose own table is missing: no answer.
        let p = pos("8/8/8/8/3r4/4k3/3R4/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        assert_eq!(tb.probe_root(&p, &moves, false), None);
        assert_eq!(tb.probe_wdl(&p, 1), None);
    }
}
