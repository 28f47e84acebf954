//! Perft: counts the leaf nodes of the legal move tree, to prove move generation.
//!
//! Bulk counting: at depth 1 the number of legal moves is the count, no move is played.

use shakmaty::{CastlingMode, Chess, Position};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    count(pos, depth, &|| false).expect("nothing stops it")
}

/// `perft`, or `None` once `stop()` is true. It is asked at every node two or more
/// plies above the leaves (each such node generates the moves of all its children,
/// so the question costs nothing), so even one root move of a deep perft stops at once.
fn count<S: Fn() -> bool + ?Sized>(pos: &Chess, depth: u32, stop: &S) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop() {
        return None;
    }
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// Perft with its "divide", in Stockfish's format, for `tabas perft` and `go perft`:
/// one `move: count` line per root move (move generation order, each line as soon
/// as its move is counted), a blank line, then `Nodes searched: N`. Returns N.
/// Depth 0 counts the root alone: no move lines and `Nodes searched: 1`.
///
/// Once `stop()` is true it returns `None` soon, having printed nothing more: the
/// lines of the root moves counted before stay, the move being counted and the
/// total are not printed (a partial total would read as a wrong count).
pub fn print_divide(
    pos: &Chess,
    depth: u32,
    mode: CastlingMode,
    stop: &dyn Fn() -> bool,
    out: &mut dyn FnMut(&str),
) -> Option<u64> {
    let total = if depth == 0 {
        1
    } else {
        let mut total = 0;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = count(&child, depth - 1, stop)?;
            if stop() {
                return None;
            }
            out(&format!("{}: {n}", m.to_uci(mode)));
            total += n;
        }
        total
    };
    out("");
    out(&format!("Nodes searched: {total}"));
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divide_lines(pos: &Chess, depth: u32) -> (Vec<String>, u64) {
        let mut lines = Vec::new();
        let total = print_divide(pos, depth, CastlingMode::Standard, &|| false, &mut |l| {
            lines.push(l.to_string())
        });
        (lines, total.expect("not stopped"))
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

    #[test]
    fn a_stop_ends_even_one_deep_root_move_at_once() {
        // Depth 20 from the start position would take centuries: only the stop ends it.
        let asked = std::cell::Cell::new(0u32);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 1000
        };
        let mut lines = Vec::new();
        let started = std::time::Instant::now();
        let total = print_divide(
            &Chess::default(),
            20,
            CastlingMode::Standard,
            &stop,
            &mut |l| lines.push(l.to_string()),
        );
        assert_eq!(total, None);
        assert!(lines.is_empty(), "{lines:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn a_stop_keeps_the_lines_of_the_moves_already_counted() {
        // Stop once three root moves are printed: their lines stay, nothing else comes.
        let lines = std::cell::RefCell::new(Vec::<String>::new());
        let stop = || lines.borrow().len() >= 3;
        let total = print_divide(
            &Chess::default(),
            3,
            CastlingMode::Standard,
            &stop,
            &mut |l| lines.borrow_mut().push(l.to_string()),
        );
        assert_eq!(total, None);
        let (full, _) = divide_lines(&Chess::default(), 3);
        assert_eq!(lines.into_inner(), full[..3]);
    }
}
