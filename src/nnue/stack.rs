//! The network's sums along the search path, one frame per ply, computed lazily.
//!
//! Making a move records only what the move changes (its [`Delta`]); the sums of a
//! position are computed when the position is evaluated, from its nearest ancestor
//! whose sums are known, one delta after another. Children that are never evaluated
//! (cut off by the table, drawn by repetition, given their static evaluation by the
//! table) cost nothing, and the boards the search copies at every move carry no sums.
//!
//! The frames are the search's: a frame is valid for the position at its ply on the
//! current path, and `push` at a ply makes every deeper frame stale until pushed again.
//!
//! For a king-mirrored net ([`super::InputLayout::KingMirrored`]), a king move between
//! the d- and e-files turns its side's view around: every feature of that view
//! changes, and the frame keeps the child's board to sum the position from scratch.

use super::{Accumulator, Delta, InputLayout, Network};
use crate::score::MAX_PLY;
use shakmaty::{Color, Move};

#[derive(Clone)]
struct Frame {
    accumulator: Accumulator,
    /// What changed from the parent (the frame at the ply before).
    delta: Delta,
    /// The position's board, when its sums must be computed from scratch (a king
    /// crossed between the wings under a king-mirrored net).
    refresh: Option<shakmaty::Board>,
    /// Whether `accumulator` holds this position's sums.
    computed: bool,
}

/// The sums of the positions of one search path, by ply.
pub struct AccumulatorStack {
    frames: Box<[Frame]>,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        let frame = Frame {
            accumulator: Accumulator::default(),
            delta: Delta::NONE,
            refresh: None,
            computed: false,
        };
        AccumulatorStack {
            // A frame for every ply a search reaches, and one for the deepest child.
            frames: vec![frame; MAX_PLY + 2].into_boxed_slice(),
        }
    }
}

impl AccumulatorStack {
    /// The root (ply 0): `board`'s sums, from scratch.
    pub fn set_root(&mut self, network: &Network, board: &shakmaty::Board) {
        let root = &mut self.frames[0];
        root.accumulator = network.refresh(board);
        root.computed = true;
    }

    /// The position at `ply` (whose board is `child`) is its parent's after `m`,
    /// played by `us`, for `network`.
    #[inline]
    pub fn push_move(
        &mut self,
        ply: usize,
        us: Color,
        m: Move,
        network: &Network,
        child: &shakmaty::Board,
    ) {
        let delta = Delta::of(us, m);
        let layout = network.layout();
        // (A plain net's views never turn: its moves skip the king test.)
        let turned = layout == InputLayout::KingMirrored
            && delta
                .king_move()
                .is_some_and(|(from, to)| layout.mirrors(Some(from)) != layout.mirrors(Some(to)));
        self.push(ply, delta, turned.then(|| child.clone()));
    }

    /// The position at `ply` has its parent's pieces (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.push(ply, Delta::NONE, None);
    }

    #[inline]
    fn push(&mut self, ply: usize, delta: Delta, refresh: Option<shakmaty::Board>) {
        let frame = &mut self.frames[ply];
        frame.delta = delta;
        frame.refresh = refresh;
        frame.computed = false;
    }

    /// The sums of the position at `ply` (`ply` > 0 needs its parents pushed since
    /// the root was set).
    #[inline]
    pub fn get(&mut self, network: &Network, ply: usize) -> &Accumulator {
        if !self.frames[ply].computed {
            self.compute(network, ply);
        }
        &self.frames[ply].accumulator
    }

    /// Brings the frames from the nearest computed ancestor up to `ply`.
    fn compute(&mut self, network: &Network, ply: usize) {
        let mut start = ply;
        while !self.frames[start - 1].computed {
            start -= 1;
        }
        for p in start..=ply {
            let (before, after) = self.frames.split_at_mut(p);
            let parent = &before[p - 1].accumulator;
            let frame = &mut after[0];
            if let Some(board) = &frame.refresh {
                frame.accumulator = network.refresh(board);
            } else if frame.delta == Delta::NONE {
                frame.accumulator = *parent;
            } else {
                network.update_into(parent, &frame.delta, &mut frame.accumulator);
            }
            frame.computed = true;
        }
    }
}
