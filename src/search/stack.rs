//! The search stack: one frame per ply, holding what later plies read.
//!
//! A node at ply `p` reads its own frame and those of `p - 1` and `p - 2`: how it was
//! reached (null move, or the piece and square of the move: the continuation-history
//! keys), the static evaluation two plies back ("improving"), and the move a
//! singular-extension test excludes. Later rules add their own fields here.
//!
//! Two sentinel frames come before the root's, for plies −2 and −1: default frames
//! (reached from the root, no static evaluation), which nothing writes. So reading
//! one or two plies back (`earlier`, `earlier_moves`) needs no test for the plies near
//! the root: the sentinels answer "no move", "no evaluation". Indexing by ply
//! (`stack[ply]`) hides the offset.

use super::history::PieceTo;
use crate::score::{MAX_PLY, Score};
use shakmaty::Move;

/// How the position at a ply was reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reached {
    /// The root: nothing before it in the search.
    #[default]
    Root,
    /// A null move (the side to move passed).
    Null,
    /// A move: its piece and destination square.
    Move(PieceTo),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub reached_by: Reached,
    /// The static evaluation at this ply; `None` in check (no static evaluation there).
    pub static_eval: Option<Score>,
    /// A move this node must not search (the singular-extension test searches the
    /// node without its table move).
    pub excluded: Option<Move>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            reached_by: Reached::Root,
            static_eval: None,
            excluded: None,
        }
    }
}

impl Frame {
    /// The piece and square of the move that reached this ply (`None`: root or null move).
    #[inline]
    pub fn piece_to(&self) -> Option<PieceTo> {
        match self.reached_by {
            Reached::Move(p) => Some(p),
            Reached::Root | Reached::Null => None,
        }
    }
}

/// Sentinel frames before the root's (plies −2 and −1): the frame of ply `p` is
/// `frames[p + SENTINELS]`.
const SENTINELS: usize = 2;

/// One frame for every ply a search can reach (and one beyond, for the deepest
/// child), after the sentinels.
#[derive(Debug, PartialEq, Eq)]
pub struct Stack {
    frames: Box<[Frame]>,
}

impl Default for Stack {
    fn default() -> Self {
        Stack {
            frames: vec![Frame::default(); SENTINELS + MAX_PLY + 2].into_boxed_slice(),
        }
    }
}

/// The frame of `ply` (0: the root).
impl std::ops::Index<usize> for Stack {
    type Output = Frame;
    #[inline]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply + SENTINELS]
    }
}

/// The frame of `ply` (0: the root); the sentinels before it cannot be reached.
impl std::ops::IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + SENTINELS]
    }
}

impl Stack {
    /// Every frame back to its default, in place.
    pub fn clear(&mut self) {
        self.frames.fill(Frame::default());
    }

    /// The frame `back` plies before `ply` (at most 2), at any ply: before the root, a
    /// sentinel (reached from the root, no static evaluation; where "improving" compares
    /// with two plies back, no evaluation there means assume improving, as at ply < 2).
    #[inline]
    pub fn earlier(&self, ply: usize, back: usize) -> &Frame {
        debug_assert!(back <= SENTINELS, "only {SENTINELS} sentinel frames");
        &self.frames[ply + SENTINELS - back]
    }

    /// The moves one and two plies before the node at `ply` (the keys of continuation
    /// history): `None` where there is none (the root, a null move, before the root).
    #[inline]
    pub fn earlier_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            self.earlier(ply, 0).piece_to(),
            self.earlier(ply, 1).piece_to(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Color, Position};

    fn piece_to(i: usize) -> Option<PieceTo> {
        Some(PieceTo::new(
            Color::White,
            Chess::default().legal_moves()[i],
        ))
    }

    #[test]
    fn plies_before_the_root_read_as_sentinels() {
        let mut stack = Stack::default();
        for ply in 0..=MAX_PLY + 1 {
            stack[ply].reached_by = Reached::Move(piece_to(ply % 20).unwrap());
            stack[ply].static_eval = Some(ply as Score);
        }
        // Near the root the frames before it are sentinels: no move, no evaluation.
        assert_eq!(stack.earlier_moves(0), [piece_to(0), None]);
        assert_eq!(stack.earlier_moves(1), [piece_to(1), piece_to(0)]);
        assert_eq!(*stack.earlier(0, 1), Frame::default());
        assert_eq!(*stack.earlier(1, 2), Frame::default());
        assert_eq!(*stack.earlier(0, 2), Frame::default());
        // Further on, `earlier` is indexing by ply.
        for ply in 2..=MAX_PLY + 1 {
            for back in 0..=2 {
                assert_eq!(*stack.earlier(ply, back), stack[ply - back], "{ply} {back}");
            }
        }
        stack.clear();
        assert_eq!(stack, Stack::default());
    }
}
