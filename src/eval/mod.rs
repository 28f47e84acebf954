//! Static evaluation: the one entry point the search calls.
//!
//! Tapered PeSTO piece-square tables (midgame and endgame, blended by game phase),
//! the terms of `terms.rs` (mobility, passed pawns, pawn structure, bishop pair,
//! rooks on open files) and a tempo bonus, from the side to move's point of view.

mod pesto;
mod terms;

use crate::score::Score;
use shakmaty::{Chess, Position};

/// Evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> Score {
    pesto::evaluate_with(pos, terms::packed(pos.board()))
}
