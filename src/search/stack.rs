//! The search stack: one frame per ply, holding what later plies read.
//!
//! A node at ply `p` reads its own frame and those of `p - 1` and `p - 2`: how it was
//! reached (null move, or the piece and square of the move: the continuation-history
//! keys), the static evaluation two plies back ("improving"), and the move a
//! singular-extension test excludes. Later rules add their own fields here.

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

/// One frame for every ply a search can reach (and one beyond, for the deepest child).
#[derive(Debug, PartialEq, Eq)]
pub struct Stack {
    frames: Box<[Frame]>,
}

impl Default for Stack {
    fn default() -> Self {
        Stack {
            frames: vec![Frame::default(); MAX_PLY + 2].into_boxed_slice(),
        }
    }
}

impl std::ops::Index<usize> for Stack {
    type Output = Frame;
    #[inline]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl std::ops::IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}

impl Stack {
    /// Every frame back to its default, in place.
    pub fn clear(&mut self) {
        self.frames.fill(Frame::default());
    }

    /// The moves one and two plies before the node at `ply` (the keys of continuation
    /// history): `None` where there is none (the root, a null move).
    #[inline]
    pub fn earlier_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let before_previous = if ply >= 1 {
            self[ply - 1].piece_to()
        } else {
            None
        };
        [self[ply].piece_to(), before_previous]
    }
}
