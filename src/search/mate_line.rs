//! Mate lines shown to the mate. A reported mate's line can stop many moves before
//! the mate it announces: the search's line ends where a node below it took its score
//! from the transposition table (a mate found once is found again there, without its
//! moves). A line that ends early is completed before it is shown:
//!
//! 1. from the table: at each position, the move to the child the table scores best
//!    for the side to move among those it scores as mates (a checkmate first, then the
//!    fastest mate or the longest resistance), else the table's move;
//! 2. where the table knows nothing, by a short search of that position, as deep as
//!    the plies left to the mate, with a table and thread data of its own (the main
//!    search's table and tree are untouched: `Bench` does not move), whose own line
//!    is completed the same way, up to `MAX_NESTING` searches deep; its node budget
//!    is small under a clock or a node limit, larger in an analysis.
//!
//! The completed line replaces the search's only if it ends in checkmate within the
//! announced number of plies; otherwise the search's line is shown as it was. Where
//! the line mates sooner than the score says, the mate shown is the line's
//! (`shown_mate`). Only
//! exact scores are completed (a bound's line is not the mate it bounds), and the
//! main thread of a timed search completes none within `COMPLETION_MARGIN` of its
//! hard limit.

use super::{Control, Limits, ScoreBound, Searcher, SharedContext, ThreadData};
use crate::position::Board;
use crate::score::{self, Score};
use crate::tt::TranspositionTable;
use shakmaty::{Move, Position};

/// Searches inside searches (each for a shorter rest of the line) at most.
const MAX_NESTING: u8 = 3;
/// The table of a completing search, in MB.
const COMPLETION_HASH_MB: usize = 4;
/// Nodes a completing search may spend under a clock or a node budget (a tenth of a
/// second or less; it gives up after them).
const COMPLETION_NODES: u64 = 200_000;
/// Nodes a completing search may spend in an analysis (no clock, no node budget: `go
/// infinite`, `go depth`, `go mate`), where a second or two buys the long mates, such
/// as a rook's from a bad corner, whose lines the shorter budget leaves unfinished.
const ANALYSIS_COMPLETION_NODES: u64 = 4_000_000;
/// No completing search this close to the main search's hard time limit.
const COMPLETION_MARGIN: std::time::Duration = std::time::Duration::from_millis(100);

/// The mate `score` (from the root) as `line` shows it: a line that ends in checkmate
/// sooner than `score` says (the search's distances are those of the lines it
/// compared, not always the shortest) announces its own.
pub(super) fn shown_mate(root: &Board, line: &[Move], score: Score) -> Score {
    let plies = (score::MATE - score.abs()) as usize;
    if line.is_empty() || line.len() >= plies {
        return score;
    }
    let mut pos = root.chess().clone();
    for &m in line {
        pos.play_unchecked(m);
    }
    match (pos.is_checkmate(), line.len() % 2 == 1) {
        (true, true) if score > 0 => score::mate_in(line.len()),
        (true, false) if score < 0 => score::mated_in(line.len()),
        _ => score,
    }
}

impl Searcher<'_> {
    /// `line`, the line from `root` of a mate `score`, completed to the mate if it
    /// stops short and a completion ends in checkmate (see the module's comment).
    pub(super) fn complete_mate_line(&self, root: &Board, line: &mut Vec<Move>, score: Score) {
        let plies = (score::MATE - score.abs()) as usize;
        if !score::is_mate(score) || line.len() >= plies || self.short_of_time() {
            return;
        }
        let mut board = Board::new(root.chess().clone());
        for &m in line.iter() {
            board = board.play(m);
        }
        let rest = self
            .rest_from_table(&board, plies - line.len())
            .or_else(|| self.search_rest(&board, plies - line.len()));
        if let Some(rest) = rest {
            line.extend(rest);
        }
    }

    /// Whether the clock leaves no room for a completing search (the main thread in a
    /// timed search, closer than `COMPLETION_MARGIN` to its hard limit).
    fn short_of_time(&self) -> bool {
        self.time
            .is_some_and(|t| self.shared.control.elapsed() + COMPLETION_MARGIN >= t.hard())
    }

    /// The rest of a mate line from `board`, from the table alone (step 1): `Some` if
    /// it ends in checkmate within `plies`.
    fn rest_from_table(&self, board: &Board, plies: usize) -> Option<Vec<Move>> {
        let mut board = board.clone();
        let mut rest = Vec::new();
        while rest.len() < plies && !board.chess().is_checkmate() {
            let m = self.table_move(&board)?;
            rest.push(m);
            board = board.play(m);
        }
        board.chess().is_checkmate().then_some(rest)
    }

    /// The next move of a mate line at `board`, by the table (step 1).
    fn table_move(&self, board: &Board) -> Option<Move> {
        let tt = self.shared.tt;
        let pos = board.chess();
        let by_score = pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| {
                let child = board.play(m);
                if child.chess().is_checkmate() {
                    return Some((score::MATE, m));
                }
                // Stored relative to the child; negated for the side to move here.
                let ours = -score::from_tt(tt.probe(child.key())?.score, 0);
                score::is_mate(ours).then_some((ours, m))
            })
            .max_by_key(|&(ours, _)| ours)
            .map(|(_, m)| m);
        by_score.or_else(|| {
            let entry = tt.probe(board.key())?;
            crate::packed_move::unpack_move(pos, entry.packed_move)
        })
    }

    /// The node budget of a completing search: the larger one only in an analysis (the
    /// main search has neither a clock nor a node limit; a completing search has one).
    fn completion_nodes(&self) -> u64 {
        let analysis =
            self.time.is_none() && self.limits.nodes.is_none() && self.limits.soft_nodes.is_none();
        if analysis {
            ANALYSIS_COMPLETION_NODES
        } else {
            COMPLETION_NODES
        }
    }

    /// The rest of a mate line from `board`, by a search of its own `plies` deep
    /// (step 2), its own line completed the same way: `Some` if it ends in checkmate
    /// within `plies`; `None` past `MAX_NESTING`.
    fn search_rest(&self, board: &Board, plies: usize) -> Option<Vec<Move>> {
        if self.mate_line_nesting >= MAX_NESTING {
            return None;
        }
        let tt = TranspositionTable::new(COMPLETION_HASH_MB)?;
        let control = Control::new(false);
        let mut thread = Box::<ThreadData>::default();
        let limits = Limits {
            depth: Some(plies as i32),
            nodes: Some(self.completion_nodes()),
            ..Limits::default()
        };
        let shared = SharedContext::alone(&tt, &control);
        let mut searcher = Searcher::new(shared, &mut thread, self.config, limits, 0);
        searcher.mate_line_nesting = self.mate_line_nesting + 1;
        let mut found = None;
        searcher.search(board, &[], &mut |r| {
            if r.multipv == 1 && r.bound == ScoreBound::Exact {
                found = Some(r.pv.clone());
            }
        });
        let rest = found?;
        let mut end = board.clone();
        for &m in &rest {
            end = end.play(m);
        }
        (end.chess().is_checkmate() && rest.len() <= plies).then_some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use crate::search::SearchConfig;

    /// Every reported mate line ends in checkmate after as many plies as it says, in
    /// searches deep enough that the table's mates reach past the search's lines.
    #[test]
    fn reported_mate_lines_end_in_the_mate_they_announce() {
        for (fen, depth) in [
            // Rook and king against king: mate in 23, found long before its line.
            ("8/8/8/8/8/2k5/8/KR6 w - - 0 1", 28),
            ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", 18),
            ("8/8/8/8/8/3k4/8/1K2Q3 w - - 0 1", 18),
            // Mated: the losing side's line too.
            ("8/8/8/8/8/1k6/8/K1q5 w - - 0 1", 18),
            (
                "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
                10,
            ),
        ] {
            let root = Board::with_network(pos(fen), crate::nnue::embedded());
            let tt = TranspositionTable::new(16).unwrap();
            let control = Control::new(false);
            let mut thread = Box::<ThreadData>::default();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let shared = SharedContext::alone(&tt, &control);
            let config = SearchConfig::default();
            let mut searcher = Searcher::new(shared, &mut thread, config, limits, 0);
            let mut mates = 0;
            searcher.search(&root, &[], &mut |r| {
                if !score::is_mate(r.score) || r.bound != ScoreBound::Exact {
                    return;
                }
                mates += 1;
                let mut board = root.chess().clone();
                for &m in &r.pv {
                    assert!(board.is_legal(m), "{fen}: {:?}", r.pv);
                    board.play_unchecked(m);
                }
                let plies = (score::MATE - r.score.abs()) as usize;
                assert!(
                    board.is_checkmate() && r.pv.len() == plies,
                    "{fen}: mate in {plies} plies shown with {} moves: {:?}",
                    r.pv.len(),
                    r.pv
                );
            });
            assert!(mates > 0, "{fen}: no mate found");
        }
    }
}
