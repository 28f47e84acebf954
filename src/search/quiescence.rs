//! Quiescence search: at the horizon, play captures (and queen promotions) until
//! the position is quiet, so that the static evaluation is never taken in the
//! middle of an exchange. In check, every evasion is searched.

use super::Searcher;
use super::node::Mode;
use super::ordering::{MovePicker, QuietHints};
use crate::position::Board;
use crate::score::{self, MAX_PLY, Score};
use crate::tt::Bound;
use shakmaty::Position;

/// The depth quiescence results are stored at: below every main-search entry.
const QUIESCENCE_DEPTH: i32 = 0;

impl Searcher<'_> {
    pub(super) fn quiescence<M: Mode>(
        &mut self,
        board: &Board,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.visit_node(ply);
        self.thread.pv_len[ply] = 0;
        if self.stopped {
            return 0;
        }
        let in_check = board.in_check();
        if ply >= MAX_PLY - 1 || (!M::on(self.config.quiescence) && !in_check) {
            return self.evaluate(board, ply);
        }

        // The table: any stored bound that decides this window ends the node (every
        // entry is at least as deep as quiescence), and a stored static evaluation
        // saves computing one.
        let entry = if M::on(self.config.quiescence_tt) {
            self.shared.tt.probe(board.key())
        } else {
            None
        };
        if let Some(e) = entry {
            let tt_score = score::from_tt(e.score, ply);
            if e.bound.decides(tt_score, alpha, beta) {
                return tt_score;
            }
        }
        let original_alpha = alpha;

        // Stand pat: the side to move may decline every capture.
        // The network's evaluation (what the table keeps), and the corrected one.
        // (The correction's entries are asked of the cache before the network evaluates.)
        let (features, static_eval) = if in_check {
            (None, 0)
        } else {
            let features = self.correction_features::<M>(board, ply);
            let raw = match entry {
                Some(e) => e.static_eval,
                None => self.evaluate(board, ply),
            };
            (features, raw)
        };
        let mut best = if in_check {
            -score::INFINITY
        } else {
            let stand_pat = score::clamp_eval(static_eval + self.correction(features.as_ref()));
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            stand_pat
        };

        // In check every evasion (none: mate); else the captures, generated only now.
        let mut picker = MovePicker::<M>::new(board.chess(), self.ordering_switches());
        if in_check {
            let evasions = board.chess().legal_moves();
            if evasions.is_empty() {
                return score::mated_in(ply);
            }
            picker.listed(&evasions, 0);
        } else {
            picker.noisy();
        }

        let mut best_move = None;
        // (The picker leaves out captures that lose material: see `MovePicker::noisy`.)
        while let Some(m) = picker.next(|| QuietHints::history_only(&self.thread.history)) {
            let key_soon_after = self.prefetch_child(board, m);
            let child = board.play_from_key(m, key_soon_after);
            self.entered(&child, ply + 1, board.turn(), m);
            let score = -self.quiescence::<M>(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }

        if M::on(self.config.quiescence_tt) {
            let bound = Bound::of(best, original_alpha, beta);
            self.store(
                board,
                ply,
                QUIESCENCE_DEPTH,
                best,
                bound,
                best_move,
                static_eval,
            );
        }
        best
    }
}
