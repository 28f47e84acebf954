//! Static evaluation: the one entry point the search calls.
//!
//! Tapered PeSTO piece-square tables (midgame and endgame, blended by game phase)
//! plus a tempo bonus, from the side to move's point of view.

mod pesto;

use crate::score::Score;
use shakmaty::Chess;

/// Evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> Score {
    pesto::evaluate(pos)
}
