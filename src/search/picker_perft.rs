//! Perft through the search's own move picker: every node not in check takes its
//! moves from a staged `MovePicker` (the generators of `movegen.rs`, the legality of
//! `legality.rs`), with a table move and killers as a search would give it (moves of
//! the node before at the same ply, legal here or not); a node in check takes
//! shakmaty's evasions, as the search does. Equal to the published counts exactly
//! when the picker hands out every legal move once and nothing else.
//! (`crate::perft` counts shakmaty's own move lists: the reference.)

use super::history::History;
use super::node::Play;
use super::ordering::{MovePicker, OrderingSwitches, QuietHints};
use super::params::KILLER_SLOTS;
use crate::packed_move::pack_move;
use shakmaty::{Chess, Move, Position};

/// Number of leaf nodes `depth` plies below `pos`, counted through the move picker.
pub fn picker_perft(pos: &Chess, depth: u32) -> u64 {
    let mut walk = Walk {
        history: History::default(),
        first: vec![None; depth as usize + 1],
        quiets: vec![[None; KILLER_SLOTS]; depth as usize + 1],
    };
    walk.count(pos, depth, 0)
}

struct Walk {
    /// Ordering only: every move equal (ties keep generation order).
    history: History,
    /// At each ply, the first move the node before handed out: the next node's table
    /// move...
    first: Vec<Option<Move>>,
    /// ...and its last two quiet moves: the next node's killers.
    quiets: Vec<[Option<Move>; KILLER_SLOTS]>,
}

impl Walk {
    fn count(&mut self, pos: &Chess, depth: u32, ply: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves: Vec<Move> = if pos.is_check() {
            pos.legal_moves().to_vec()
        } else {
            let killers = self.quiets[ply];
            let mut picker = MovePicker::<Play>::new(pos, OrderingSwitches::ALL_ON);
            picker.staged(self.first[ply].map_or(0, pack_move));
            let history = &self.history;
            let hints = || QuietHints {
                killers,
                counter: None,
                history,
                continuations: [None, None],
            };
            std::iter::from_fn(|| picker.next(hints)).collect()
        };
        if let Some(&first) = moves.first() {
            self.first[ply] = Some(first);
        }
        let quiets = moves
            .iter()
            .rev()
            .filter(|&&m| super::ordering::is_quiet(m));
        for (slot, &m) in quiets.take(KILLER_SLOTS).enumerate() {
            self.quiets[ply][slot] = Some(m);
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total += self.count(&child, depth - 1, ply + 1);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_the_start_position_and_kiwipete() {
        assert_eq!(picker_perft(&Chess::default(), 4), 197_281);
        let kiwipete = crate::position::parse_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            shakmaty::CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(picker_perft(&kiwipete, 3), 97_862);
    }
}
