//! Iterative deepening: `Searcher::search` searches the root one depth after another,
//! each iteration through aspiration windows around the last score (one search of the
//! root per MultiPV line), reports each line, and decides after each iteration whether
//! the clock, the node budget or a found mate allows the next one. The answer's move is
//! always the move last shown (`show_the_move_played`).

use super::node::{Dev, Play, Root};
use super::params::MAX_DEPTH;
use super::{Report, ScoreBound, SearchResult, Searcher, threads};
use crate::packed_move::unpack_move;
use crate::position::Board;
use crate::score::{self, INFINITY, MAX_PLY, Score};
use crate::time::Progress;
use shakmaty::{Move, Position};
use std::time::Duration;

impl Searcher<'_> {
    /// Searches `root` (reached after the positions whose keys are `game_keys`) and
    /// reports each iteration through `report` (only the main thread reports).
    pub fn search(
        &mut self,
        root: &Board,
        game_keys: &[u64],
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.set_up_root(root, game_keys);
        self.root = Some(root.clone());
        let mut result = SearchResult {
            best: self.thread.root_order.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if self.thread.root_order.is_empty() {
            result.score = if root.in_check() {
                score::mated_in(0)
            } else {
                score::DRAW
            };
            // No move to show, but the result: `info depth 0 score mate 0` (checkmate)
            // or `score cp 0` (stalemate) before `bestmove (none)`, as Stockfish.
            self.report(0, 0, result.score, ScoreBound::Exact, report);
            return result;
        }
        // The lines reported; a search below full strength may search more, to choose
        // its move among them (`strength.rs`).
        let shown = self.limits.multipv.clamp(1, self.thread.root_moves.len());
        let lines = if self.weakening.is_some() {
            self.plan_weakened_search(root, shown)
        } else {
            shown
        };
        self.several_lines = lines > 1;
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH.min(MAX_PLY as i32 - 1));
        // Completed iterations' scores, and how long the best move has stayed the same.
        let mut scores: Vec<Score> = Vec::new();
        let mut stable_iterations = 0;
        // The iteration that the best move's line comes from.
        let mut line_depth = 0;
        // How the last completed iteration went (for the clock), and its first line's move.
        let mut last_progress: Option<Progress> = None;
        let mut previous_first_move = None;
        for depth in 1..=max_depth {
            if threads::helper_skips(self.id, depth, game_keys.len() as u32) {
                continue;
            }
            self.seldepth = 0;
            self.thread.root_moves.start_iteration();
            // What the clock judges the iteration by: the first line's nodes (the best
            // move's share of them says how settled the search is, however many lines
            // follow) and its best move, score and nodes (with MultiPV, the exact scores
            // of close lines reorder them often, which is no reason to think longer).
            let (first_line_nodes, first_line) =
                self.search_lines(root, depth, lines, last_progress.as_ref(), report);
            if lines > 1 && !self.stopped {
                self.thread.root_moves.rank_lines(lines);
                self.report_lines(depth, shown, report);
            }
            // The root takes only moves whose search completed, so even an interrupted
            // iteration's line is a fully searched one, at least as good as the last.
            let best = self.thread.root_moves.get(0).expect("a root move");
            if !best.pv.is_empty() {
                result.best = Some(best.mv);
                result.ponder = best.pv.get(1).copied();
                // (A move not searched again in an interrupted iteration keeps the
                // line and score of the last one.)
                if best.score > -INFINITY {
                    line_depth = depth;
                }
            }
            if self.stopped {
                break;
            }
            let score = best.score;
            result.score = self.tablebase_score(score).unwrap_or(score);
            result.depth = depth;
            self.first_iteration_done = true;
            let (first_move, first_score, best_nodes) =
                first_line.unwrap_or((best.mv, score, best.nodes));
            scores.push(first_score);
            if self.weakening.is_some() {
                self.keep_weakened_lines(depth, lines, &scores);
            }
            if depth > 1 && Some(first_move) == previous_first_move {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            previous_first_move = Some(first_move);
            if self.thread.root_moves.len() == 1
                && let Some(time) = &mut self.time
            {
                // One legal move: answer now (also right after a `ponderhit`).
                time.answer_now();
            }
            let progress = Progress {
                stable_iterations,
                score_drop: score_drop(&scores),
                best_move_effort: if first_line_nodes > 0 {
                    best_nodes as f64 / first_line_nodes as f64
                } else {
                    0.0
                },
            };
            if self.iteration_limit_reached(score, &progress) {
                break;
            }
            last_progress = Some(progress);
        }
        if self.weakening.is_some() {
            self.play_weakened(&mut result, report);
        }
        self.show_the_move_played(result.best, line_depth, report);
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            result.ponder = self.ponder_from_table(root, best);
        }
        result.nodes = self.total_nodes();
        result
    }

    /// The root before its first iteration: the game's keys for repetitions, the
    /// table's new search, the moves to search (`searchmoves`, or all if none of them
    /// is legal), the network's sums, the tablebases' ranking.
    pub(super) fn set_up_root(&mut self, root: &Board, game_keys: &[u64]) {
        self.thread.keys.clear();
        self.thread.keys.extend_from_slice(game_keys);
        if self.shared.group.is_none() {
            // A group's table starts its new search once, before the threads start.
            self.shared.tt.new_search();
        }
        let legal = root.chess().legal_moves();
        let searchmoves = &self.limits.searchmoves;
        self.thread.root_order.clear();
        self.thread.root_order.extend(
            legal
                .iter()
                .filter(|m| searchmoves.is_empty() || searchmoves.contains(m)),
        );
        if self.thread.root_order.is_empty() {
            // `searchmoves` with no legal move in it: search everything rather than nothing.
            self.thread.root_order.extend_from_slice(&legal);
        }
        if let Some(network) = root.network() {
            self.thread
                .accumulators
                .set_root(network, root.chess().board());
        }
        self.probe_tablebases_at_root(root, game_keys);
        self.thread
            .root_moves
            .reset(self.thread.root_order.iter().copied());
    }

    /// One iteration's `lines` (MultiPV) at `depth`, each in its aspiration window:
    /// the nodes of the first line's search, and its best move, score and nodes.
    /// `last_progress`: how the last completed iteration went (for the clock).
    fn search_lines(
        &mut self,
        root: &Board,
        depth: i32,
        lines: usize,
        last_progress: Option<&Progress>,
        report: &mut dyn FnMut(&Report),
    ) -> (u64, Option<(Move, Score, u64)>) {
        let nodes_before = self.nodes;
        let mut first_line_nodes = 0;
        let mut first_line = None;
        for pv_index in 0..lines {
            self.pv_index = pv_index;
            self.aspiration(root, depth, lines, report);
            if pv_index == 0 {
                first_line_nodes = self.nodes - nodes_before;
                first_line = self
                    .thread
                    .root_moves
                    .get(0)
                    .map(|r| (r.mv, r.score, r.nodes));
            }
            if self.stopped {
                break;
            }
            // MultiPV does not stretch a timed move: past the time the last completed
            // iteration allowed, the iteration ends with the lines it has (the first,
            // the move played, is complete), even in the middle of a line.
            if pv_index + 1 < lines
                && let Some(progress) = last_progress
                && let Some(soft) = self.soft_time(progress)
            {
                if self.shared.control.elapsed() >= soft {
                    self.stopped = true;
                    break;
                }
                self.extra_lines_until = Some(soft);
            }
        }
        self.extra_lines_until = None;
        self.pv_index = 0;
        (first_line_nodes, first_line)
    }

    /// A line one move long has no move to ponder on: the table move of the
    /// position after `best`, if it holds one and it is legal there (the slot may
    /// hold another position's entry). Reads the table only: the search is unchanged.
    pub(super) fn ponder_from_table(&self, root: &Board, best: Move) -> Option<Move> {
        let child = root.play(best);
        let entry = self.shared.tt.probe(child.key())?;
        unpack_move(child.chess(), entry.packed_move)
    }

    /// The move played is the move shown: if the last line 1 reported was not the
    /// exact line of `best` (an interrupted iteration found a better move, or its last
    /// report was an aspiration bound), reports `best`'s line now, before the answer.
    pub(super) fn show_the_move_played(
        &mut self,
        best: Option<Move>,
        depth: i32,
        report: &mut dyn FnMut(&Report),
    ) {
        let Some(best) = best else { return };
        if self.id != 0 || self.shown == Some((best, ScoreBound::Exact)) {
            return;
        }
        let Some(line) = self
            .thread
            .root_moves
            .get(0)
            .filter(|r| r.mv == best && !r.pv.is_empty())
        else {
            return;
        };
        let score = if line.score > -INFINITY {
            line.score
        } else {
            line.previous_score
        };
        self.report(depth.max(1), 0, score, ScoreBound::Exact, report);
    }

    /// The root searched `depth` plies deep within (`alpha`, `beta`), in play mode
    /// (no developer switch read) or, where some switch is off, in dev mode (see
    /// `node::Mode`).
    fn search_root(&mut self, root: &Board, depth: i32, alpha: Score, beta: Score) -> Score {
        if self.reads_switches {
            self.negamax::<Root<Dev>>(root, depth, alpha, beta, 0)
        } else {
            self.negamax::<Root<Play>>(root, depth, alpha, beta, 0)
        }
    }

    /// One search of the root for the line `pv_index`, with a window around the line's
    /// last score that widens until the score falls inside it. With one line, each
    /// result is reported (bounds too); with several, the caller reports them all.
    pub(super) fn aspiration(
        &mut self,
        root: &Board,
        depth: i32,
        lines: usize,
        report: &mut dyn FnMut(&Report),
    ) {
        let params = self.config.params;
        let previous = self
            .thread
            .root_moves
            .get(self.pv_index)
            .map_or(0, |r| r.previous_score);
        // (Read once per search of the root, outside the tree: this switch is not
        // worth a mode of its own.)
        let use_window = self.config.aspiration
            && depth >= params.aspiration_min_depth
            && !score::is_decisive(previous);
        let mut delta = params.aspiration_delta;
        let (mut alpha, mut beta) = if use_window {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            self.thread.root_moves.start_search(self.pv_index);
            let score = self.search_root(root, depth, alpha, beta);
            // Also after a stop: the moves whose search completed count.
            self.thread.root_moves.rank_from(self.pv_index);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                ScoreBound::Upper
            } else if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            if lines == 1 {
                self.report(depth, 0, score, bound, report);
            }
            match bound {
                ScoreBound::Exact => return,
                ScoreBound::Upper => {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                }
                ScoreBound::Lower => {
                    beta = (score + delta).min(INFINITY);
                }
            }
            delta += delta * params.aspiration_widening / 100;
            if score::is_decisive(score) || delta > params.aspiration_give_up {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Reports the line ranked `rank` (0 = best) with `score`.
    pub(super) fn report(
        &mut self,
        depth: i32,
        rank: usize,
        score: Score,
        bound: ScoreBound,
        report: &mut dyn FnMut(&Report),
    ) {
        if self.id != 0 {
            return;
        }
        let mut pv = self
            .thread
            .root_moves
            .get(rank)
            .map_or_else(Vec::new, |r| r.pv.clone());
        // A mate's line to the mate (`mate_line.rs`), kept for the next report; the
        // mate announced is the one the line shows, where it mates sooner.
        let mut score = score;
        if score::is_mate(score)
            && bound == ScoreBound::Exact
            && let Some(root) = &self.root
        {
            let before = pv.len();
            self.complete_mate_line(root, &mut pv, score);
            if pv.len() != before
                && let Some(record) = self.thread.root_moves.find_mut(pv[0])
            {
                record.pv.clone_from(&pv);
            }
            score = super::mate_line::shown_mate(root, &pv, score);
        }
        self.report_line(rank + 1, depth, score, bound, pv, report);
    }

    /// Reports `pv` as line `multipv` (1 = the best) with `score`.
    pub(super) fn report_line(
        &mut self,
        multipv: usize,
        depth: i32,
        score: Score,
        bound: ScoreBound,
        pv: Vec<Move>,
        report: &mut dyn FnMut(&Report),
    ) {
        if self.id != 0 {
            return;
        }
        let (score, bound) = match self.tablebase_score(score) {
            Some(tb) => (tb, ScoreBound::Exact),
            None => (score, bound),
        };
        if multipv == 1 {
            self.shown = pv.first().map(|&m| (m, bound));
        }
        report(&Report {
            multipv,
            depth,
            seldepth: self.seldepth,
            score,
            bound,
            tbhits: self.shared.tablebases.map_or(0, |t| t.hits()),
            nodes: self.total_nodes(),
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv,
            cutoffs: self.cutoffs,
        });
    }

    /// After a MultiPV iteration: every line, best first.
    pub(super) fn report_lines(
        &mut self,
        depth: i32,
        lines: usize,
        report: &mut dyn FnMut(&Report),
    ) {
        for rank in 0..lines {
            let score = self.thread.root_moves.get(rank).map_or(0, |r| r.score);
            self.report(depth, rank, score, ScoreBound::Exact, report);
        }
    }

    /// After a completed iteration: is there a reason not to start the next one?
    pub(super) fn iteration_limit_reached(&self, score: Score, progress: &Progress) -> bool {
        if self.id != 0 {
            return false; // a helper searches until the main thread ends the search
        }
        if let Some(mate) = self.limits.mate
            && score > 0
            && score::is_mate(score)
            && score::mate_moves(score) <= mate as i32
        {
            return true;
        }
        if let Some(soft) = self.limits.soft_nodes {
            let limit = if self.limits.managed_soft_nodes {
                let hard = self.limits.nodes.unwrap_or(u64::MAX);
                crate::time::managed_soft_nodes(soft, hard, progress, &self.config.params)
            } else {
                soft
            };
            if self.nodes >= limit {
                return true;
            }
        }
        self.soft_time(progress)
            .is_some_and(|soft| self.shared.control.elapsed() >= soft)
    }

    /// When the main thread's clock says to start nothing more, after an iteration
    /// that went as `progress` says (none in an infinite search or while pondering).
    pub(super) fn soft_time(&self, progress: &Progress) -> Option<Duration> {
        if self.id != 0 || self.limits.infinite || self.shared.control.is_pondering() {
            return None;
        }
        self.time.map(|t| {
            if self.several_lines {
                t.soft_for_several_lines(progress.score_drop)
            } else {
                t.soft(progress)
            }
        })
    }
}

/// How much the score fell over the last iterations (compared with two iterations
/// back, so that odd and even depths are compared with their own kind).
fn score_drop(scores: &[Score]) -> i32 {
    match scores {
        [.., before, _, now] if !score::is_decisive(*before) && !score::is_decisive(*now) => {
            before - now
        }
        _ => 0,
    }
}
