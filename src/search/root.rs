//! The root's moves as records: each with the score and line of its last search, and
//! the nodes spent below it. The list is kept ranked, best first: after each search of
//! the root the moves that scored are sorted up (a stable sort, so the moves that only
//! failed low keep the order of the last ranking). Line `k` of MultiPV is entry `k`.

use super::repetition::repeated_since_zeroing;
use super::{CURRENT_MOVE_AFTER, CurrentMove, Searcher};
use crate::position::Board;
use crate::score::{self, INFINITY, Score};
use shakmaty::Move;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// Its score in the current search of the root; `-INFINITY` until it raised alpha
    /// there (a move that failed low has only an upper bound).
    pub score: Score,
    /// The score of its line in the last completed iteration (0 before the first).
    pub previous_score: Score,
    /// Its principal variation, starting with `mv` (empty until it has one).
    pub pv: Vec<Move>,
    /// Nodes spent below it in the current iteration.
    pub nodes: u64,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITY,
            previous_score: 0,
            pv: Vec::new(),
            nodes: 0,
        }
    }
}

/// The ranked root moves.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RootMoves {
    moves: Vec<RootMove>,
}

impl RootMoves {
    /// The reference for `reset` (searchers reset the list they keep instead).
    #[cfg(test)]
    pub fn new(moves: impl IntoIterator<Item = Move>) -> RootMoves {
        RootMoves {
            moves: moves.into_iter().map(RootMove::new).collect(),
        }
    }

    /// The moves of a new search, unranked, without scores or lines (what
    /// `RootMoves::new(moves)` makes), in this list's memory and that of its lines: a
    /// search thread keeps one list from one search to the next.
    pub fn reset(&mut self, moves: impl IntoIterator<Item = Move>) {
        let mut len = 0;
        for (n, mv) in moves.into_iter().enumerate() {
            match self.moves.get_mut(n) {
                Some(r) => {
                    r.mv = mv;
                    r.score = -INFINITY;
                    r.previous_score = 0;
                    r.pv.clear();
                    r.nodes = 0;
                }
                None => self.moves.push(RootMove::new(mv)),
            }
            len = n + 1;
        }
        self.moves.truncate(len);
    }

    /// No moves (what a fresh list holds), keeping the memory.
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn get(&self, rank: usize) -> Option<&RootMove> {
        self.moves.get(rank)
    }

    #[cfg(test)]
    fn iter(&self) -> impl Iterator<Item = &RootMove> {
        self.moves.iter()
    }

    pub fn find_mut(&mut self, m: Move) -> Option<&mut RootMove> {
        self.moves.iter_mut().find(|r| r.mv == m)
    }

    /// Whether `m` is ranked before `rank` (a line already chosen this iteration).
    pub fn is_ranked_before(&self, m: Move, rank: usize) -> bool {
        self.moves[..rank.min(self.moves.len())]
            .iter()
            .any(|r| r.mv == m)
    }

    /// A new iteration: each line's score becomes its previous score, effort restarts.
    pub fn start_iteration(&mut self) {
        for r in &mut self.moves {
            r.previous_score = if r.score == -INFINITY {
                r.previous_score
            } else {
                r.score
            };
            r.nodes = 0;
        }
    }

    /// A new search of the root for the line at `rank`: the moves from there on have
    /// no score yet.
    pub fn start_search(&mut self, rank: usize) {
        for r in &mut self.moves[rank..] {
            r.score = -INFINITY;
        }
    }

    /// After a search of the root for the line at `rank`: the moves from there on,
    /// best first. Among moves without a score the last ranking stays.
    pub fn rank_from(&mut self, rank: usize) {
        self.moves[rank..].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// The first `n` lines, best first (a stable sort: equal scores keep their rank).
    pub fn rank_lines(&mut self, n: usize) {
        let n = n.min(self.moves.len());
        self.moves[..n].sort_by_key(|r| std::cmp::Reverse(r.score));
    }
}

/// The root's side of the search: its move list, its records, and the tablebases'
/// ranking before the first iteration.
impl Searcher<'_> {
    /// At the root, before `m` is searched as the `number`-th move of this line.
    pub(super) fn starting_root_move(&self, m: Move, number: usize, depth: i32) {
        if let Some(announce) = self.announce
            && self.id == 0
            && self.shared.control.elapsed() >= CURRENT_MOVE_AFTER
        {
            announce(CurrentMove {
                depth,
                mv: m,
                number,
            });
        }
    }

    /// Before the first iteration: where the root is in the tables, only the moves
    /// that keep its best result stay (see `tablebase.rs` for the rules).
    pub(super) fn probe_tablebases_at_root(&mut self, root: &Board, game_keys: &[u64]) {
        self.root_tb_score = None;
        self.probe_in_tree = false;
        let Some(tablebases) = self.shared.tablebases else {
            return;
        };
        self.probe_in_tree = tablebases.cardinality() > 0;
        let repeated = repeated_since_zeroing(root, game_keys);
        let Some(probe) = tablebases.probe_root(root.chess(), &self.thread.root_order, repeated)
        else {
            return;
        };
        let kept = probe.kept();
        self.thread
            .root_order
            .retain(|m| kept.iter().any(|k| k.mv == *m));
        self.root_tb_score = Some(kept[0].score);
        let won = matches!(kept[0].wdl, crate::tablebase::Wdl::Win);
        self.probe_in_tree = !probe.by_dtz && won;
    }

    /// The score to report instead of the search's `score`: the tables' result for the
    /// root, which they know better than the search, unless the search proved a mate.
    pub(super) fn tablebase_score(&self, score: Score) -> Option<Score> {
        self.root_tb_score.filter(|_| !score::is_mate(score))
    }

    /// At the root: `nodes` were spent below `m`.
    pub(super) fn book_root_nodes(&mut self, m: Move, nodes: u64) {
        if let Some(record) = self.thread.root_moves.find_mut(m) {
            record.nodes += nodes;
        }
    }

    /// At the root, `m` raised alpha to `score`: it is the line's move for now, with
    /// the line just found (`update_pv` has put it in row 0).
    pub(super) fn root_line_found(&mut self, m: Move, score: Score) {
        if let Some(record) = self.thread.root_moves.find_mut(m) {
            record.score = score;
            record.pv.clear();
            record.pv.extend(
                self.thread.pv[0][..self.thread.pv_len[0]]
                    .iter()
                    .map_while(|m| *m),
            );
        }
    }

    /// The root's moves for the current line: all but those of the lines before it.
    pub(super) fn root_move_list(&self) -> shakmaty::MoveList {
        self.thread
            .root_order
            .iter()
            .copied()
            .filter(|&m| !self.thread.root_moves.is_ranked_before(m, self.pv_index))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    fn moves(n: usize) -> Vec<Move> {
        Chess::default().legal_moves().into_iter().take(n).collect()
    }

    #[test]
    fn a_reset_list_equals_a_new_one() {
        let ms = moves(5);
        let mut root = RootMoves::new(ms.clone());
        root.start_search(0);
        root.find_mut(ms[1]).unwrap().score = 20;
        root.find_mut(ms[1]).unwrap().pv = vec![ms[1], ms[0]];
        root.rank_from(0);
        root.start_iteration();
        for n in [3, 5, 5, 0, 4] {
            root.reset(ms[..n].iter().rev().copied());
            assert_eq!(root, RootMoves::new(ms[..n].iter().rev().copied()), "{n}");
        }
        root.clear();
        assert_eq!(root, RootMoves::default());
    }

    #[test]
    fn moves_without_a_score_keep_their_rank() {
        let ms = moves(4);
        let mut root = RootMoves::new(ms.clone());
        root.start_search(0);
        root.find_mut(ms[2]).unwrap().score = 30;
        root.rank_from(0);
        let order: Vec<Move> = root.iter().map(|r| r.mv).collect();
        assert_eq!(order, vec![ms[2], ms[0], ms[1], ms[3]]);
        // A search in which nothing scored leaves the ranking as it was.
        root.start_search(0);
        root.rank_from(0);
        let again: Vec<Move> = root.iter().map(|r| r.mv).collect();
        assert_eq!(again, order);
    }

    #[test]
    fn later_lines_do_not_disturb_earlier_ones() {
        let ms = moves(4);
        let mut root = RootMoves::new(ms.clone());
        root.start_search(0);
        root.find_mut(ms[3]).unwrap().score = 50;
        root.rank_from(0);
        root.start_search(1);
        root.find_mut(ms[1]).unwrap().score = 10;
        root.rank_from(1);
        assert_eq!(root.get(0).unwrap().mv, ms[3]);
        assert_eq!(root.get(0).unwrap().score, 50);
        assert_eq!(root.get(1).unwrap().mv, ms[1]);
        assert!(root.is_ranked_before(ms[3], 1));
        assert!(!root.is_ranked_before(ms[1], 1));
        root.start_iteration();
        assert_eq!(root.get(0).unwrap().previous_score, 50);
        assert_eq!(root.get(1).unwrap().previous_score, 10);
    }
}
