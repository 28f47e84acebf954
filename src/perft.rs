//! Perft: counts the leaf nodes of the legal move tree, to prove move generation.
//!
//! Bulk counting: at depth 1 the number of legal moves is the count, no move is played.

use shakmaty::{CastlingMode, Chess, Position};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// Perft with its "divide", in Stockfish's format, for `tabas perft` and `go perft`:
/// one `move: count` line per root move (move generation order, each line as soon
/// as its move is counted), a blank line, then `Nodes searched: N`. Returns N.
/// Depth 0 counts the root alone: no move lines and `Nodes searched: 1`.
pub fn print_divide(pos: &Chess, depth: u32, mode: CastlingMode, out: &mut dyn FnMut(&str)) -> u64 {
    let total = if depth == 0 {
        1
    } else {
        let mut total = 0;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let count = perft(&child, depth - 1);
            out(&format!("{}: {count}", m.to_uci(mode)));
            total += count;
        }
        total
    };
    out("");
    out(&format!("Nodes searched: {total}"));
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divide_lines(pos: &Chess, depth: u32) -> (Vec<String>, u64) {
        let mut lines = Vec::new();
        let total = print_divide(pos, depth, CastlingMode::Standard, &mut |l| {
            lines.push(l.to_string())
        });
        (lines, total)
    }

    #[test]
    fn start_position_counts() {
        let pos = Chess::default();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8_902);
        assert_eq!(perft(&pos, 4), 197_281);
    }

    #[test]
    fn divide_at_depth_0_is_the_root_alone() {
        let (lines, total) = divide_lines(&Chess::default(), 0);
        assert_eq!(total, 1);
        assert_eq!(lines, ["", "Nodes searched: 1"]);
    }

    #[test]
    fn divide_at_depth_2_has_a_line_per_root_move() {
        let (lines, total) = divide_lines(&Chess::default(), 2);
        assert_eq!(total, 400);
        assert_eq!(lines.len(), 22);
        assert!(lines[..20].iter().all(|l| l.ends_with(": 20")), "{lines:?}");
        assert!(lines.contains(&"e2e4: 20".to_string()));
        assert!(lines.contains(&"g1f3: 20".to_string()));
        assert_eq!(lines[20], "");
        assert_eq!(lines[21], "Nodes searched: 400");
    }

    #[test]
    fn divide_of_a_position_without_moves() {
        let pos: Chess = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let (lines, total) = divide_lines(&pos, 3);
        assert_eq!(total, 0);
        assert_eq!(lines, ["", "Nodes searched: 0"]);
    }
}
