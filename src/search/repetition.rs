//! Repetitions: in the tree, a position met before within the reversible moves is a
//! draw (twofold, against the game's positions and the search path alike); at the root,
//! whether the game has already repeated a position (the tablebases' DTZ ranking needs
//! to know).

use super::Searcher;
use crate::position::Board;

impl Searcher<'_> {
    /// True when the current node's position occurred before, within the reversible
    /// moves (twofold repetition counts as a draw, in the tree and against the game).
    pub(super) fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.thread.keys.len();
        let reach = (halfmoves as usize).min(n);
        let mut back = 2;
        while back <= reach {
            if self.thread.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// Whether a position has occurred twice since the last capture or pawn move, in the
/// game that led to `root` (`game_keys`: the keys before it).
pub(super) fn repeated_since_zeroing(root: &Board, game_keys: &[u64]) -> bool {
    let reach = (root.halfmoves() as usize).min(game_keys.len());
    let mut seen: Vec<u64> = game_keys[game_keys.len() - reach..].to_vec();
    seen.push(root.key());
    seen.sort_unstable();
    seen.windows(2).any(|w| w[0] == w[1])
}
