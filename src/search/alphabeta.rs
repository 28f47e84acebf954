//! The negamax node: fail-soft alpha-beta with principal variation search.
//!
//! `negamax` is the node's recipe, read top to bottom: one numbered step after the
//! other. The longer steps are methods below it, in the same order, each with its
//! reasons beside its code; they are inlined into the node (`#[inline(always)]`), so
//! that each kind of node is still one function, as it was before they were split.
//!
//! A rule's developer switch reads `NT::Mode::on(self.config.…)`: in play mode that
//! is the constant `true`, and the rule is compiled as if it had no switch (see
//! `node::Mode`).

use super::Searcher;
use super::correction::Features;
use super::history::PieceTo;
use super::node::{Mode, NodeKind};
use super::ordering::{MovePicker, QuietHints, is_quiet};
use super::params::ParamValues;
use super::see::see_ge;
use super::stack::Reached;
use crate::position::Board;
use crate::score::{self, DRAW, INFINITY, MAX_PLY, Score};
use crate::tablebase::wdl_score;
use crate::tt::{Bound, Entry};
use arrayvec::ArrayVec;
use shakmaty::{Move, Position};
use std::ops::ControlFlow;

/// A tablebase result holds at any depth: it is stored this many plies deeper than
/// the node, so that searches do not replace it.
const TB_DEPTH_BONUS: i32 = 6;

/// What a node knows once it has its static evaluation: what the steps before the
/// moves, and those of the move loop, decide on.
struct Node {
    ply: usize,
    /// The remaining depth (with the check extension; internal iterative reduction
    /// lowers it).
    depth: i32,
    in_check: bool,
    /// A move this node must not search (the singular-extension test searches the
    /// node without its table move); `None`: an ordinary node.
    excluded: Option<Move>,
    /// What the table holds for this position.
    entry: Option<Entry>,
    /// The network's evaluation, as the table keeps it (`-INFINITY` in check)...
    raw_eval: Score,
    /// ...and the static evaluation: that plus `correction`, what the correction
    /// histories learned of positions like this one (`-INFINITY` in check).
    static_eval: Score,
    correction: Score,
    /// "Improving": the static evaluation rose since our last move.
    improving: bool,
}

/// The move loop of a node: what it has searched so far, and the limits of its
/// pruning, fixed before the first move.
struct MoveLoop {
    /// Alpha before the first move: the stored bound is judged against it.
    original_alpha: Score,
    /// Late move pruning: quiet moves tried before the rest are skipped.
    late_move_limit: usize,
    /// Futility pruning: the static evaluation is so far below alpha that quiet
    /// moves are skipped.
    futile: bool,
    /// Moves searched (pruned ones not counted).
    searched: usize,
    best_score: Score,
    /// The move that raised alpha last (`None`: none did).
    best_move: Option<Move>,
    /// Whether the picker handed out any (legal) move: none is mate or stalemate.
    any_move: bool,
}

impl MoveLoop {
    #[inline(always)]
    fn new(params: &ParamValues, node: &Node, alpha: Score, tb_floor: Score) -> MoveLoop {
        MoveLoop {
            original_alpha: alpha,
            late_move_limit: params.late_move_limit(node.depth, node.improving),
            futile: node.static_eval + params.futility_margin(node.depth) <= alpha,
            searched: 0,
            best_score: tb_floor,
            best_move: None,
            any_move: false,
        }
    }
}

impl Searcher<'_> {
    /// The value of `board` searched `depth` plies deep, within (`alpha`, `beta`);
    /// `NT` says what kind of node it is (root, PV, non-PV). How the node was reached
    /// is in `self.thread.stack[ply]`, set by the parent.
    pub(super) fn negamax<NT: NodeKind>(
        &mut self,
        board: &Board,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        let root = NT::ROOT;
        let pv_node = NT::PV;
        let params = self.config.params;
        debug_assert!(
            pv_node || beta == alpha + 1,
            "a non-PV node has a null window"
        );
        if !root {
            // The root keeps its line from the last iteration until a move replaces it.
            self.thread.pv_len[ply] = 0;
        }
        let in_check = board.in_check();

        // Step 1. Check extension: a check is searched one ply deeper, so that
        // forcing lines are not cut off at the horizon.
        if in_check {
            depth += 1;
        }

        // Step 2. Horizon: resolve captures in quiescence.
        if depth <= 0 {
            return self.quiescence::<NT::Mode>(board, alpha, beta, ply);
        }

        self.visit_node(ply);
        if self.stopped {
            return 0;
        }

        // Steps 3 and 4. Draws, and mate-distance pruning (not at the root).
        if !root
            && let Some(score) =
                self.draw_or_mate_distance(board, in_check, &mut alpha, &mut beta, ply)
        {
            return score;
        }

        // A node searched without one of its moves (the singular-extension test): its
        // table entry belongs to the whole node, so it neither cuts on it nor stores.
        let excluded = self.thread.stack[ply].excluded;

        // Step 5. The transposition table: the table move, and perhaps a cutoff.
        let entry = self.shared.tt.probe(board.key());
        // The table move, packed as the table keeps it (0: none); the picker decodes
        // it into a move of this position (step 7), if the node gets that far.
        let packed_table_move = entry.map_or(0, |e| e.packed_move);
        if let Some(score) = self.table_cutoff::<NT>(entry, excluded, depth, alpha, beta, ply) {
            return score;
        }

        // Step 5b. Tablebases: a result, or bounds on it.
        let (tb_floor, tb_cap) =
            match self.tablebase_bounds::<NT>(board, depth, &mut alpha, beta, ply, excluded) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(bounds) => bounds,
            };

        // The static evaluation, and what the node knows with it.
        // (The correction histories' keys, `None` in check or with them off, stay apart
        // from `node`: a node that held them cost 0.35 % more instructions.)
        let (mut node, features) =
            self.evaluated_node::<NT>(board, depth, ply, in_check, excluded, entry);

        // Steps 6a to 6c. Razoring, reverse futility pruning, null-move pruning.
        if let Some(score) = self.prune_before_moves::<NT>(board, &node, alpha, beta) {
            return score;
        }

        // Step 6d. Internal iterative reduction: without a move from the table, this
        // node was never searched (or not usefully): search it one ply shallower now;
        // the next iteration finds a table move and the full depth.
        if NT::Mode::on(self.config.iir)
            && !root
            && packed_table_move == 0
            && node.depth >= params.iir_min_depth
        {
            node.depth -= 1;
        }

        // Step 6e. ProbCut.
        if let Some(score) = self.probcut::<NT>(board, &node, beta) {
            return score;
        }

        // Step 7. The moves, best first: the root's list, the evasions of a node in
        // check, or else generated stage by stage as the node needs them.
        let mut picker = MovePicker::<NT::Mode>::new(board.chess(), self.ordering_switches());
        if root {
            picker.listed(&self.root_move_list(), packed_table_move);
        } else if in_check {
            picker.listed(&board.chess().legal_moves(), packed_table_move);
        } else {
            picker.staged(packed_table_move);
        }

        // Step 7a. Singular extension of the table move.
        let table_move = picker.table_move();
        let table_move_extension =
            match self.singular_extension::<NT>(board, &node, beta, table_move) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(extension) => extension,
            };

        // Steps 8 to 10. Each move pruned, or reduced and searched, until one cuts off.
        let mut moves = MoveLoop::new(&params, &node, alpha, tb_floor);
        if let ControlFlow::Break(score) = self.search_moves::<NT>(
            board,
            &mut picker,
            &node,
            &mut moves,
            beta,
            table_move_extension,
        ) {
            return score;
        }
        if !moves.any_move {
            return if in_check { score::mated_in(ply) } else { DRAW };
        }

        // Steps 11 and 12. What was learned: into the table and the correction histories.
        self.remember(board, &node, features.as_ref(), &moves, beta, tb_cap)
    }

    /// Steps 3 and 4 (not at the root): the score of a drawn node, or of one too deep,
    /// or of one whose window mate-distance pruning closed (`alpha` and `beta` are
    /// narrowed to the mates still possible); `None`: the node goes on.
    #[inline(always)]
    fn draw_or_mate_distance(
        &mut self,
        board: &Board,
        in_check: bool,
        alpha: &mut Score,
        beta: &mut Score,
        ply: usize,
    ) -> Option<Score> {
        // Step 3. Draws: repetition, fifty moves, dead positions.
        if self.is_repetition(board.key(), board.halfmoves())
            || board.chess().is_insufficient_material()
        {
            return Some(DRAW);
        }
        if board.halfmoves() >= 100 {
            // Mate on the hundredth half-move still counts as mate.
            let mated = in_check && board.chess().legal_moves().is_empty();
            return Some(if mated { score::mated_in(ply) } else { DRAW });
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(board, ply));
        }

        // Step 4. Mate-distance pruning: no line from here can beat a mate
        // already found closer to the root.
        *alpha = (*alpha).max(score::mated_in(ply));
        *beta = (*beta).min(score::mate_in(ply + 1));
        if *alpha >= *beta {
            return Some(*alpha);
        }
        None
    }

    /// Step 5's cutoff: the stored score, where the table's entry decides the window.
    #[inline(always)]
    fn table_cutoff<NT: NodeKind>(
        &self,
        entry: Option<Entry>,
        excluded: Option<Move>,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        // Step 5. Transposition table: the move to try first, and at non-PV nodes
        // a cutoff when the stored bound already decides this window.
        if let Some(e) = entry
            && excluded.is_none()
            && NT::Mode::on(self.config.tt_cutoffs)
            && !NT::PV
            && e.depth >= depth
        {
            let tt_score = score::from_tt(e.score, ply);
            if e.bound.decides(tt_score, alpha, beta) {
                return Some(tt_score);
            }
        }
        None
    }

    /// Step 5b: `Break` with the tables' result where it decides the node; else
    /// `Continue` with the bounds it sets on the node's result (floor, cap), which at a
    /// PV node may raise `alpha`.
    #[inline(always)]
    fn tablebase_bounds<NT: NodeKind>(
        &mut self,
        board: &Board,
        depth: i32,
        alpha: &mut Score,
        beta: Score,
        ply: usize,
        excluded: Option<Move>,
    ) -> ControlFlow<Score, (Score, Score)> {
        // Step 5b. Tablebases: where the tables are exact (just after a capture or a pawn
        // move, few enough pieces), their result replaces the search. A win is a lower
        // bound, a loss an upper bound: when it decides this window the node is done;
        // at a PV node it otherwise bounds the node's result.
        let mut tb_floor = -INFINITY;
        let mut tb_cap = INFINITY;
        if !NT::ROOT
            && self.probe_in_tree
            && excluded.is_none()
            && let Some(tablebases) = self.shared.tablebases
            && let Some(wdl) = tablebases.probe_wdl(board.chess(), depth)
        {
            let tb = wdl_score(wdl, ply, tablebases.config().rule50);
            if tb.bound.decides(tb.score, *alpha, beta) {
                let static_eval = if board.in_check() {
                    0
                } else {
                    self.evaluate(board, ply)
                };
                let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
                self.store(board, ply, depth, tb.score, tb.bound, None, static_eval);
                return ControlFlow::Break(tb.score);
            }
            if NT::PV {
                match tb.bound {
                    Bound::Lower => {
                        tb_floor = tb.score;
                        *alpha = (*alpha).max(tb.score);
                    }
                    _ => tb_cap = tb.score,
                }
            }
        }
        ControlFlow::Continue((tb_floor, tb_cap))
    }

    /// The static evaluation of the node (`depth` to go, at `ply`), kept in its stack
    /// frame, and everything the steps after it decide on; with the keys of the
    /// correction histories, for step 12.
    #[inline(always)]
    fn evaluated_node<NT: NodeKind>(
        &mut self,
        board: &Board,
        depth: i32,
        ply: usize,
        in_check: bool,
        excluded: Option<Move>,
        entry: Option<Entry>,
    ) -> (Node, Option<Features>) {
        // The static evaluation: the network's (stored in the table, so computed once),
        // plus what the correction histories learned of positions like this one.
        let (raw_eval, features, correction) = if in_check {
            (-INFINITY, None, 0)
        } else {
            let features = self.correction_features::<NT::Mode>(board, ply);
            let raw = match entry {
                Some(e) => e.static_eval,
                None => self.evaluate(board, ply),
            };
            let correction = self.correction(features.as_ref());
            (raw, features, correction)
        };
        let static_eval = if in_check {
            -INFINITY
        } else {
            score::clamp_eval(raw_eval + correction)
        };
        self.thread.stack[ply].static_eval = (!in_check).then_some(static_eval);
        // "Improving": the static evaluation rose since our last move (two plies back).
        // Where it did, pruning on it is riskier; where it fell, it is safer.
        // Without an evaluation two plies back (before the root, where a sentinel frame
        // stands, or after a check) there is no evidence either way: assume improving,
        // the cautious side.
        let improving = !in_check
            && self
                .thread
                .stack
                .earlier(ply, 2)
                .static_eval
                .is_none_or(|before| static_eval > before);
        let node = Node {
            ply,
            depth,
            in_check,
            excluded,
            entry,
            raw_eval,
            static_eval,
            correction,
            improving,
        };
        (node, features)
    }

    /// Steps 6a to 6c, the pruning of the whole node before its moves: its score where
    /// one of them decides it (`None`: the node goes on).
    #[inline(always)]
    fn prune_before_moves<NT: NodeKind>(
        &mut self,
        board: &Board,
        node: &Node,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let params = self.config.params;
        let (depth, ply, static_eval) = (node.depth, node.ply, node.static_eval);

        // Step 6a. Razoring: so far below alpha at shallow depth that only a capture
        // could save the node: ask quiescence, and fail low when it agrees (safe: the
        // captures were searched; only quiet resources this deep are given up).
        if NT::Mode::on(self.config.razoring)
            && !NT::PV
            && !node.in_check
            && depth <= params.razor_max_depth
            && !score::is_decisive(alpha)
            && static_eval + params.razor_base + params.razor_per_ply_sq * depth * depth < alpha
        {
            let score = self.quiescence::<NT::Mode>(board, alpha, alpha + 1, ply);
            if self.stopped {
                return Some(0);
            }
            if score <= alpha {
                return Some(score);
            }
        }

        // Step 6b. Reverse futility pruning: far enough above beta that, at shallow
        // depth, no reply of the opponent is likely to bring the score back below it.
        if NT::Mode::on(self.config.reverse_futility)
            && !NT::PV
            && !node.in_check
            && depth <= params.rfp_max_depth
            && !score::is_decisive(beta)
            && static_eval - params.rfp_margin * (depth - node.improving as i32) >= beta
        {
            return Some(static_eval);
        }

        // Step 6c. Null-move pruning: if passing still fails high, a real move will
        // too (safe except in zugzwang, hence no null move with only pawns and king,
        // nor against a mate score: a beta of "mated in N" asks whether every move
        // is mated, the question a zugzwang answers yes and a pass always no).
        if NT::Mode::on(self.config.null_move)
            && !NT::PV
            && !node.in_check
            && self.thread.stack[ply].reached_by != Reached::Null
            && node.excluded.is_none()
            && depth >= params.null_move_min_depth
            && !score::is_decisive(beta)
            && static_eval >= beta
            && board.has_non_pawn_material()
            && let Some(child) = board.play_null()
        {
            let reduced = depth - 1 - params.null_move_reduction(depth);
            if child.network().is_some() {
                self.thread.accumulators.push_null(ply + 1);
            }
            self.thread.keys.push(board.key());
            self.thread.stack[ply + 1].reached_by = Reached::Null;
            let score = -self.negamax::<NT::NonPv>(&child, reduced, -beta, -beta + 1, ply + 1);
            self.thread.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                // A mate found after passing is not proven: claim only beta.
                return Some(if score::is_decisive(score) {
                    beta
                } else {
                    score
                });
            }
        }
        None
    }

    /// Step 6e: ProbCut's score where a capture fails the node high (`None`: the node
    /// goes on).
    #[inline(always)]
    fn probcut<NT: NodeKind>(&mut self, board: &Board, node: &Node, beta: Score) -> Option<Score> {
        let params = self.config.params;
        let (depth, ply) = (node.depth, node.ply);
        // Step 6e. ProbCut: a capture that beats beta by a margin in a search several
        // plies shallower will almost surely beat beta at full depth: fail high on it.
        // (Safe but for that "almost": the margin covers what the missing plies find.)
        let probcut_beta = beta + params.probcut_margin;
        if NT::Mode::on(self.config.probcut)
            && !NT::PV
            && !node.in_check
            && node.excluded.is_none()
            && depth >= params.probcut_min_depth
            && !score::is_decisive(beta)
            // The table already says the shallow search would fail: do not ask.
            && !node.entry.is_some_and(|e| {
                e.depth >= depth - params.probcut_reduction
                    && score::from_tt(e.score, ply) < probcut_beta
            })
            && let Some(score) = self.probcut_captures::<NT>(
                board,
                depth,
                probcut_beta,
                node.static_eval,
                node.raw_eval,
                ply,
            )
        {
            return Some(score);
        }
        None
    }

    /// Step 7a: `Continue` with the table move's extension (0: none), or `Break` with
    /// the node's score (multi-cut, or the search stopped).
    #[inline(always)]
    fn singular_extension<NT: NodeKind>(
        &mut self,
        board: &Board,
        node: &Node,
        beta: Score,
        table_move: Option<Move>,
    ) -> ControlFlow<Score, i32> {
        let params = self.config.params;
        let (depth, ply) = (node.depth, node.ply);
        // Step 7a. Singular extension: when the table move is much better than every
        // other move (all of them fail below its stored score minus a margin in a
        // reduced search without it), it is searched one ply deeper: the line depends
        // on it. If instead even the other moves beat beta, this node fails high
        // (multi-cut); if only the stored score does, the table move gets one ply less.
        let mut table_move_extension = 0;
        if let Some(e) = node.entry
            && NT::Mode::on(self.config.singular)
            && !NT::ROOT
            && node.excluded.is_none()
            && depth >= params.se_min_depth
            && e.depth >= depth - params.se_tt_depth_margin
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && let tt_score = score::from_tt(e.score, ply)
            && !score::is_decisive(tt_score)
            && let Some(m) = table_move
        {
            let singular_beta = tt_score - params.se_margin_per_ply * depth;
            self.thread.stack[ply].excluded = Some(m);
            let score = self.negamax::<NT::NonPv>(
                board,
                params.singular_depth(depth),
                singular_beta - 1,
                singular_beta,
                ply,
            );
            self.thread.stack[ply].excluded = None;
            if self.stopped {
                return ControlFlow::Break(0);
            }
            if score < singular_beta {
                table_move_extension = 1;
            } else if singular_beta >= beta {
                return ControlFlow::Break(singular_beta);
            } else if tt_score >= beta {
                table_move_extension = -1;
            }
        }
        ControlFlow::Continue(table_move_extension)
    }

    /// Steps 8 to 10, the move loop: each move the picker hands out is pruned, or
    /// searched (reduced, extended) until one cuts off; `moves` keeps the result.
    /// `Break(0)`: the search stopped.
    #[inline(always)]
    fn search_moves<NT: NodeKind>(
        &mut self,
        board: &Board,
        picker: &mut MovePicker<NT::Mode>,
        node: &Node,
        moves: &mut MoveLoop,
        beta: Score,
        table_move_extension: i32,
    ) -> ControlFlow<Score> {
        let (root, pv_node, ply) = (NT::ROOT, NT::PV, node.ply);
        let table_move = picker.table_move();
        let mut alpha = moves.original_alpha;
        // The quiet moves searched, in order (they lose history at a cutoff). Not in
        // `moves`: there they cost 0.16 % more instructions.
        let mut quiets_tried: ArrayVec<Move, 256> = ArrayVec::new();
        self.thread.keys.push(board.key());
        while let Some(m) = picker.next(|| self.quiet_hints(ply)) {
            moves.any_move = true;
            if Some(m) == node.excluded {
                continue;
            }
            // The child's table entry, asked of the memory while the move is judged.
            let key_soon_after = self.prefetch_child(board, m);
            // Steps 8a to 8c. Pruning of this move.
            let Some(reducible) =
                self.prune_move::<NT>(board, picker, node, moves, quiets_tried.len(), m)
            else {
                continue;
            };

            if root {
                // (The lines ranked before this one are not searched again: count them.)
                self.starting_root_move(m, self.pv_index + moves.searched + 1, node.depth);
            }
            let child = board.play_from_key(m, key_soon_after);
            self.entered(&child, ply + 1, board.turn(), m);
            let nodes_before = self.nodes;
            self.thread.stack[ply + 1].reached_by = Reached::Move(PieceTo::new(board.turn(), m));

            // Step 8d. Late move reductions.
            let reduction = if reducible {
                self.late_move_reduction::<NT>(board, node, moves.searched, m)
            } else {
                0
            };

            // Step 9. Principal variation search: the first move with the full window,
            // the rest with a null window that only asks "better than alpha?", and a
            // full re-search when the answer is yes.
            let extension = if Some(m) == table_move {
                table_move_extension
            } else {
                0
            };
            let new_depth = node.depth - 1 + extension;
            let score = if moves.searched == 0 {
                if pv_node {
                    -self.negamax::<NT::Pv>(&child, new_depth, -beta, -alpha, ply + 1)
                } else {
                    -self.negamax::<NT::NonPv>(&child, new_depth, -beta, -alpha, ply + 1)
                }
            } else {
                self.search_later_move::<NT>(&child, new_depth, reduction, alpha, beta, ply)
            };
            moves.searched += 1;
            if root {
                self.book_root_nodes(m, self.nodes - nodes_before);
            }
            if self.stopped {
                self.thread.keys.pop();
                return ControlFlow::Break(0);
            }

            if score > moves.best_score {
                moves.best_score = score;
                if score > alpha {
                    moves.best_move = Some(m);
                    alpha = score;
                    if pv_node || root {
                        self.update_pv(ply, m);
                    }
                    if root {
                        self.root_line_found(m, score);
                    }
                    // Step 10. Beta cutoff: the opponent will not allow this line.
                    if score >= beta {
                        self.cutoffs.all += 1;
                        self.cutoffs.first_move += u64::from(moves.searched == 1);
                        if is_quiet(m) {
                            self.reward_quiet::<NT::Mode>(board, m, &quiets_tried, node.depth, ply);
                        }
                        break;
                    }
                }
            }
            if is_quiet(m) {
                quiets_tried.push(m);
            }
        }
        self.thread.keys.pop();
        ControlFlow::Continue(())
    }

    /// Steps 8a to 8c: whether the move `m` is pruned (`None`), or searched; then
    /// `Some(true)` where late move reductions may reduce it (step 8d).
    #[inline(always)]
    fn prune_move<NT: NodeKind>(
        &self,
        board: &Board,
        picker: &mut MovePicker<NT::Mode>,
        node: &Node,
        moves: &MoveLoop,
        quiets_tried: usize,
        m: Move,
    ) -> Option<bool> {
        let params = self.config.params;
        let depth = node.depth;
        // Whether the move gives check is asked only where a rule below can use the
        // answer: pruning (once a move has a score) and late move reductions.
        let may_prune = !NT::ROOT && !node.in_check && moves.best_score > -score::TB_WIN_BOUND;
        let may_reduce = NT::Mode::on(self.config.lmr)
            && !NT::ROOT
            && !node.in_check
            && depth >= params.lmr_min_depth
            && moves.searched >= params.lmr_min_moves as usize
            && is_quiet(m);
        let gives_check = (may_prune || may_reduce) && picker.gives_check(m);
        // A move that gives check is never pruned: that is where tactics hide.
        let prunable = may_prune && !gives_check;

        // Step 8a. SEE pruning: at low depth, a move that loses more material by
        // static exchange than the depth could win back is not searched.
        if NT::Mode::on(self.config.see) && prunable && depth <= params.see_prune_max_depth {
            let margin = if is_quiet(m) {
                params.see_quiet_margin * depth
            } else {
                params.see_capture_margin * depth
            };
            if !see_ge(board.chess(), m, -margin) {
                return None;
            }
        }

        // Quiet moves of a node that is neither the root nor in check, that give no
        // check, once a move has shown that we are not simply mated, may be pruned:
        // (The picker then hands out only the quiet moves that give check.)
        if prunable && is_quiet(m) {
            // Step 8b. Late move pruning: at low depth, after enough quiet moves, the
            // rest (ordered last by history) almost never beat alpha.
            if NT::Mode::on(self.config.late_move_pruning)
                && depth <= params.lmp_max_depth
                && quiets_tried >= moves.late_move_limit
            {
                picker.skip_quiets();
                return None;
            }
            // Step 8c. Futility pruning: so far below alpha that no quiet move, which
            // changes the material by nothing, is likely to lift us above it.
            if NT::Mode::on(self.config.futility)
                && depth <= params.futility_max_depth
                && moves.futile
            {
                picker.skip_quiets();
                return None;
            }
        }
        Some(may_reduce && !gives_check)
    }

    /// Step 8d: by how many plies the late quiet move `m`, the move after `searched`
    /// others, is searched shallower first.
    #[inline(always)]
    fn late_move_reduction<NT: NodeKind>(
        &self,
        board: &Board,
        node: &Node,
        searched: usize,
        m: Move,
    ) -> i32 {
        let params = self.config.params;
        // Step 8d. Late move reductions: with good ordering, quiet moves late in the
        // list rarely beat alpha, so they are searched shallower first; any that
        // does beat alpha is searched again at full depth (so nothing is lost but time).
        // Not at the root: a root move reduced at every iteration is never seen deeply
        // (a quiet sacrifice with bad history would stay hidden for good).
        let hints = self.quiet_hints(node.ply);
        let reduction = self.thread.reductions.get(node.depth, searched)
            // Exact scores matter more on the principal variation.
            - NT::PV as i32
            // A worsening position is less likely to be saved by a late move.
            + !node.improving as i32
            // Killers and counter moves have refuted something like this before.
            - hints.is_refuter(m) as i32
            // History: moves that often cut elsewhere deserve a closer look.
            - (hints.score(board.turn(), m) / params.lmr_history_divisor)
                .clamp(-params.lmr_history_max, params.lmr_history_max)
            // A large correction: the static evaluation, and the pruning and
            // ordering built on it, are unsure here.
            - (node.correction.abs() >= params.lmr_correction_threshold) as i32;
        // (Not `clamp`: with tuned numbers the cap may fall below 0.)
        reduction.min(params.lmr_max_reduction(node.depth)).max(0)
    }

    /// Step 9 for every move after the first: the score of `child` searched
    /// `new_depth` plies deep, first `reduction` plies shallower (and again at full
    /// depth if that beats alpha), with a null window (and again with the full one if
    /// that lands inside it, at a PV node).
    #[inline(always)]
    fn search_later_move<NT: NodeKind>(
        &mut self,
        child: &Board,
        new_depth: i32,
        reduction: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if NT::PV && !NT::Mode::on(self.config.pvs) {
            // Without PVS (a measurement switch) every move of a PV node is searched
            // as a PV node, with the full window: no scouts, and no pruning meant for
            // null-window nodes.
            let mut score =
                -self.negamax::<NT::Pv>(child, new_depth - reduction, -beta, -alpha, ply + 1);
            if score > alpha && reduction > 0 && !self.stopped {
                score = -self.negamax::<NT::Pv>(child, new_depth, -beta, -alpha, ply + 1);
            }
            score
        } else {
            // At a non-PV node the window is already null (beta = alpha + 1).
            let mut score = -self.negamax::<NT::NonPv>(
                child,
                new_depth - reduction,
                -alpha - 1,
                -alpha,
                ply + 1,
            );
            if score > alpha && reduction > 0 && !self.stopped {
                score = -self.negamax::<NT::NonPv>(child, new_depth, -alpha - 1, -alpha, ply + 1);
            }
            if score > alpha && score < beta && NT::PV && !self.stopped {
                score = -self.negamax::<NT::Pv>(child, new_depth, -beta, -alpha, ply + 1);
            }
            score
        }
    }

    /// Steps 11 and 12, after the move loop: the node's result into the table, and the
    /// static evaluation's error into the correction histories. Returns the node's score.
    #[inline(always)]
    fn remember(
        &mut self,
        board: &Board,
        node: &Node,
        features: Option<&Features>,
        moves: &MoveLoop,
        beta: Score,
        tb_cap: Score,
    ) -> Score {
        let params = self.config.params;
        // Step 11. Remember what was learned (not from a search without the table
        // move: it says nothing about the whole node). With every move excluded or
        // pruned there is no score to give: fail low.
        if node.excluded.is_some() {
            return if moves.searched == 0 {
                moves.original_alpha
            } else {
                moves.best_score
            };
        }
        let best_score = moves.best_score.min(tb_cap);
        let bound = Bound::of(best_score, moves.original_alpha, beta);
        let stored_eval = if node.in_check { 0 } else { node.raw_eval };
        let (depth, ply) = (node.depth, node.ply);
        self.store(
            board,
            ply,
            depth,
            best_score,
            bound,
            moves.best_move,
            stored_eval,
        );

        // Step 12. Correction histories learn the static evaluation's error: where the
        // result is quiet (no capture or promotion decided it) and its bound says on
        // which side of the static evaluation the truth lies.
        let static_eval = node.static_eval;
        if let Some(features) = features
            && moves.best_move.is_none_or(is_quiet)
            && !score::is_decisive(best_score)
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.thread
                .correction
                .update(features, best_score - static_eval, depth, &params);
        }
        best_score
    }

    /// ProbCut's searches (step 6e): the captures whose static exchange alone could
    /// reach `probcut_beta`, each asked first by quiescence, then by a search
    /// `probcut_reduction` plies shallower; the first that holds is stored and
    /// returned (`None`: none did, or the search stopped: the node goes on).
    fn probcut_captures<NT: NodeKind>(
        &mut self,
        board: &Board,
        depth: i32,
        probcut_beta: Score,
        static_eval: Score,
        raw_eval: Score,
        ply: usize,
    ) -> Option<Score> {
        let params = self.config.params;
        let mut picker = MovePicker::<NT::Mode>::new(board.chess(), self.ordering_switches());
        picker.noisy();
        self.thread.keys.push(board.key());
        let mut found = None;
        while let Some(m) = picker.next(|| QuietHints::history_only(&self.thread.history)) {
            if !see_ge(board.chess(), m, probcut_beta - static_eval) {
                continue;
            }
            let key_soon_after = self.prefetch_child(board, m);
            let child = board.play_from_key(m, key_soon_after);
            self.entered(&child, ply + 1, board.turn(), m);
            self.thread.stack[ply + 1].reached_by = Reached::Move(PieceTo::new(board.turn(), m));
            let mut score =
                -self.quiescence::<NT::Mode>(&child, -probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && !self.stopped {
                let reduced = depth - 1 - params.probcut_reduction;
                score = -self.negamax::<NT::NonPv>(
                    &child,
                    reduced,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                );
            }
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                let depth = depth - params.probcut_reduction;
                self.store(board, ply, depth, score, Bound::Lower, Some(m), raw_eval);
                found = Some(score);
                break;
            }
        }
        self.thread.keys.pop();
        found
    }

    /// What the node at `ply` knows about its quiet moves: killers, the counter move
    /// to the previous move, and the histories (continuations of the moves one and two
    /// plies back).
    fn quiet_hints(&self, ply: usize) -> QuietHints<'_> {
        let earlier = self.thread.stack.earlier_moves(ply);
        QuietHints {
            killers: *self.thread.killers.get(ply),
            counter: earlier[0].and_then(|p| self.thread.counters.get(p)),
            history: &self.thread.history,
            continuations: earlier.map(|e| e.map(|p| self.thread.continuation.row(p))),
        }
    }

    /// A quiet move refuted the opponent: make it a killer, raise its history,
    /// and lower the history of the quiet moves tried before it.
    fn reward_quiet<M: Mode>(
        &mut self,
        board: &Board,
        m: shakmaty::Move,
        tried: &[shakmaty::Move],
        depth: i32,
        ply: usize,
    ) {
        if M::on(self.config.killers) {
            self.thread.killers.add(ply, m);
        }
        if M::on(self.config.history) {
            let bonus = self.config.params.history_bonus(depth);
            let side = board.turn();
            self.thread.history.update(side, m, bonus);
            for &q in tried {
                self.thread.history.update(side, q, -bonus);
            }
            // The same bonus and malus as answers to the moves one and two plies back.
            let earlier = self.thread.stack.earlier_moves(ply);
            for e in earlier.into_iter().flatten() {
                self.thread
                    .continuation
                    .update(e, PieceTo::new(side, m), bonus);
                for &q in tried {
                    self.thread
                        .continuation
                        .update(e, PieceTo::new(side, q), -bonus);
                }
            }
            if let Some(previous) = earlier[0] {
                self.thread.counters.set(previous, m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::{NonPv, Play};
    use super::super::{Control, Limits, SearchConfig, SharedContext, ThreadData};
    use super::*;
    use crate::position::parse_fen;
    use crate::tt::TranspositionTable;
    use shakmaty::CastlingMode;

    /// After 1. Ra6 in kbK5/pp6/1P6/8/8/8/8/R7, Black is in zugzwang: bxa6 allows b7#
    /// and every bishop move Rxa7#; passing would allow neither. Asked whether it
    /// escapes a mate in 21 plies (beta a mated score), the node must not pass to
    /// answer yes: it is mated in 2 plies whatever it plays.
    #[test]
    fn no_null_move_against_a_mate_score_in_zugzwang() {
        let pos = parse_fen("kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1", CastlingMode::Standard);
        let board = Board::new(pos.unwrap());
        assert!(board.has_non_pawn_material(), "a bishop: null move allowed");
        let tt = TranspositionTable::new(1).unwrap();
        let control = Control::new(false);
        let mut thread = ThreadData::default();
        let shared = SharedContext::alone(&tt, &control);
        let config = SearchConfig::default();
        let mut searcher = Searcher::new(shared, &mut thread, config, Limits::default(), 0);
        searcher.set_up_root(&board, &[]);
        let beta = score::mated_in(21);
        let score = searcher.negamax::<NonPv<Play>>(&board, 6, beta - 1, beta, 0);
        assert!(score < beta, "claimed to escape the mate: {score}");
        assert_eq!(score, score::mated_in(2));
    }
}
