//! `genfens N seed S book <None|FILE>`: OpenBench's opening generator for datagen
//! workloads. The client runs `tabas "genfens N seed S book X" "quit"` and reads
//! exactly `N` lines `info string genfens <FEN>` (full six-field FENs).
//!
//! * `book None`: from the start position, 8 or 9 random legal moves; a position with
//!   no legal move or whose side to move is in check is thrown away and drawn again.
//! * `book FILE`: a random line of the file (one position per line: its first six
//!   fields, or its first four for EPD lines with operations; blank lines and lines
//!   starting with `#` are skipped), again without over or in-check positions. Only
//!   the lines picked are parsed (a book may hold millions); one that is not a
//!   position is an error.
//!
//! The `i`-th FEN comes from `Rng::new(S, i)`: the same seed gives the same FENs.

use crate::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The largest `N` accepted (OpenBench asks for a few thousand per thread).
pub const MAX_FENS: u64 = 10_000_000;

/// Draws of one FEN before giving up (a book of positions that are all over).
const MAX_TRIES: u32 = 1000;

/// What `genfens …` asks for.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    /// `None` for random openings from the start position.
    pub book: Option<String>,
}

/// Reads `genfens N [seed S] [book <None|FILE>]`.
pub fn parse(line: &str) -> Result<Request, String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("genfens") {
        return Err("not a genfens line".into());
    }
    let count = match words.next() {
        None => {
            return Err("genfens needs a number of FENs: genfens N seed S book <None|file>".into());
        }
        Some(n) => crate::args::whole("genfens N", n, 1..=MAX_FENS)?,
    };
    let mut request = Request {
        count,
        seed: 0,
        book: None,
    };
    while let Some(key) = words.next() {
        let value = words
            .next()
            .ok_or_else(|| format!("genfens: '{key}' needs a value"))?;
        match key {
            "seed" => request.seed = crate::args::whole("genfens seed", value, 0..=u64::MAX)?,
            "book" => {
                request.book = match value {
                    "None" | "none" => None,
                    path => Some(path.to_string()),
                }
            }
            _ => return Err(format!("genfens: unknown word '{key}'")),
        }
    }
    Ok(request)
}

/// The FENs `request` asks for, or why there are none (nothing is printed then).
pub fn generate(request: &Request) -> Result<Vec<String>, String> {
    let text = match &request.book {
        None => None,
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("genfens: cannot read book '{path}': {e}"))?,
        ),
    };
    // Only the lines picked are read as positions: a book may hold millions.
    let book: Option<Vec<&str>> = text.as_deref().map(|t| {
        t.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    });
    if book.as_ref().is_some_and(Vec::is_empty) {
        return Err(format!(
            "genfens: book '{}' holds no position",
            request.book.as_deref().unwrap_or_default()
        ));
    }
    (0..request.count)
        .map(|i| {
            let mut rng = Rng::new(request.seed, i);
            let pos = match &book {
                None => random_opening(&mut rng),
                Some(book) => from_book(book, &mut rng),
            }?;
            Ok(Fen::from_position(&pos, EnPassantMode::Legal).to_string())
        })
        .collect()
}

/// Runs one `genfens …` line: its `info string genfens <FEN>` lines, or one
/// `info string error: …` line.
pub fn run(line: &str, out: &mut dyn FnMut(&str)) {
    match parse(line).and_then(|r| generate(&r)) {
        Ok(fens) => {
            for fen in fens {
                out(&format!("info string genfens {fen}"));
            }
        }
        Err(e) => out(&format!("info string error: {e}")),
    }
}

/// A usable opening: the game goes on and the side to move is not in check.
fn usable(pos: &Chess) -> bool {
    !pos.is_check() && !pos.legal_moves().is_empty()
}

fn random_opening(rng: &mut Rng) -> Result<Chess, String> {
    'draw: for _ in 0..MAX_TRIES {
        let mut pos = Chess::default();
        let plies = 8 + rng.below(2);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'draw;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if usable(&pos) {
            return Ok(pos);
        }
    }
    Err("genfens: no usable random opening found".into())
}

/// A random usable position of `book` (its non-blank, non-comment lines); a line picked
/// that is not a position is an error.
fn from_book(book: &[&str], rng: &mut Rng) -> Result<Chess, String> {
    for _ in 0..MAX_TRIES {
        let line = book[rng.below(book.len() as u64) as usize];
        let pos = book_position(line)?;
        if usable(&pos) {
            return Ok(pos);
        }
    }
    Err("genfens: the book has no position whose game goes on (and not in check)".into())
}

/// The position of a book line: its first six fields (a FEN), else its first four
/// (an EPD line with operations).
fn book_position(line: &str) -> Result<Chess, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let six = fields[..fields.len().min(6)].join(" ");
    let four = fields[..fields.len().min(4)].join(" ");
    parse_book_fen(&six)
        .or_else(|_| parse_book_fen(&four))
        .map_err(|e| format!("genfens: book line: {e}"))
}

fn parse_book_fen(text: &str) -> Result<Chess, String> {
    crate::position::parse_fen(text, CastlingMode::Standard)
        .or_else(|_| crate::position::parse_fen(text, CastlingMode::Chess960))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(line: &str) -> Request {
        parse(line).unwrap()
    }

    #[test]
    fn reads_openbench_lines_and_rejects_bad_ones() {
        assert_eq!(
            request("genfens 12 seed 99 book None"),
            Request {
                count: 12,
                seed: 99,
                book: None
            }
        );
        assert_eq!(
            request("genfens 3 seed 1 book /tmp/b.epd").book.as_deref(),
            Some("/tmp/b.epd")
        );
        assert_eq!(request("genfens 2").seed, 0);
        for bad in [
            "genfens",
            "genfens x",
            "genfens 0",
            "genfens 5 seed",
            "genfens 5 seed -1",
            "genfens 5 colour red",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn book_lines_are_fens_or_epd() {
        let fen = |line: &str| {
            Fen::from_position(&book_position(line).unwrap(), EnPassantMode::Legal).to_string()
        };
        assert_eq!(
            fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; c0 \"x y\";"),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
        );
        assert!(book_position("not a fen").is_err());
        let mut rng = Rng::new(1, 2);
        assert!(from_book(&["8/8/8/8/8/8/8/8 w - - 0 1"], &mut rng).is_err());
    }

    #[test]
    fn random_openings_are_usable_and_repeatable() {
        let a = generate(&request("genfens 50 seed 7 book None")).unwrap();
        let b = generate(&request("genfens 50 seed 7 book None")).unwrap();
        let c = generate(&request("genfens 50 seed 8 book None")).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        for fen in &a {
            assert_eq!(fen.split(' ').count(), 6, "{fen}");
            let pos = crate::position::parse_fen(fen, CastlingMode::Standard).unwrap();
            assert!(usable(&pos), "{fen}");
            let plies = pos.fullmoves().get() * 2 - 2 + u32::from(pos.turn().is_black());
            assert!((8..=9).contains(&plies), "{fen}: {plies} plies");
        }
    }
}
