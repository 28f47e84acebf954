//! PGN text into games: tag pairs, moves (SAN, or UCI as fastchess's `notation=uci`
//! writes them, kept as text) and the comment after each move. Pure: no file, no
//! chess rules (the moves are read against the board by `mod.rs`). A malformed game
//! is an error that names the game (its number in the text) and the line.
//!
//! What engine-match programs write after a move, read by [`MoveComment::parse`]:
//! `{+0.35/12 0.123s}` (cutechess-cli, fastchess), with extras after commas
//! (`{+0.35/12 0.123s, n=51234, sd=20, tl=9.1s}`: fastchess's `nodes=true` … and
//! OpenBench's), `{book}` (fastchess's opening moves), `{+M9/30 0.02s}` (a mate, in
//! plies as fastchess counts them), the reason a game ended after the last move's
//! score, and a move without a comment.

/// One game as the text gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// The tag pairs, in order (`[White "tabas"]` → ("White", "tabas")).
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// The game-termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The line of the text where the game starts (1-based), for messages.
    pub line: usize,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN's tags are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One move and what was written after it.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnMove {
    /// As written: `Nf3`, `exd8=Q+`, `O-O`, or `g1f3`.
    pub text: String,
    /// The comment right after it, without its braces (`None`: none).
    pub comment: Option<String>,
    /// The line it is on (1-based).
    pub line: usize,
}

/// An engine's score of the position a move was played in, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PgnScore {
    /// Pawns (`+0.35`): the engine's `score cp` / 100.
    Pawns(f64),
    /// A mate in this many plies (negative: the mover is mated).
    MatePlies(i32),
}

/// What a move's comment says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveComment {
    /// An opening-book move: no engine chose it.
    Book,
    /// The engine's score (and depth) when it chose the move.
    Scored { score: PgnScore, depth: u32 },
    /// No score: no comment, or one this reader does not know.
    Unscored,
}

impl MoveComment {
    /// Reads a move's comment (`None`: the move had none).
    pub fn parse(comment: Option<&str>) -> MoveComment {
        let Some(text) = comment else {
            return MoveComment::Unscored;
        };
        let first = text.split(',').next().unwrap_or("").trim();
        if first == "book" {
            return MoveComment::Book;
        }
        let Some((score, rest)) = first.split_once('/') else {
            return MoveComment::Unscored;
        };
        let depth = rest.split_whitespace().next().and_then(|d| d.parse().ok());
        match (parse_score(score), depth) {
            (Some(score), Some(depth)) => MoveComment::Scored { score, depth },
            _ => MoveComment::Unscored,
        }
    }
}

/// `+0.35`, `-1.20`, `0.00`, `+M9`, `-M4`.
fn parse_score(text: &str) -> Option<PgnScore> {
    let (sign, body) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => (1, text),
    };
    if let Some(plies) = body.strip_prefix('M') {
        let plies: i32 = plies.parse().ok()?;
        return (plies > 0).then_some(PgnScore::MatePlies(sign * plies));
    }
    let pawns: f64 = body.parse().ok()?;
    pawns
        .is_finite()
        .then_some(PgnScore::Pawns(f64::from(sign) * pawns))
}

/// Every game of `text`; the error names the game (1-based) and the line.
pub fn parse_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        if reader.peek().is_none() {
            return Ok(games);
        }
        let number = games.len() + 1;
        let game = reader
            .game()
            .map_err(|(line, e)| format!("game {number}, line {line}: {e}"))?;
        games.push(game);
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

type Failure = (usize, String);

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn fail<T>(&self, what: impl Into<String>) -> Result<T, Failure> {
        Err((self.line, what.into()))
    }

    /// Blanks, and `%` escape lines and `;` comments, which say nothing to us.
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.next();
            } else if c == ';' || (c == '%' && (self.at == 0 || self.chars[self.at - 1] == '\n')) {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.next();
                }
            } else {
                break;
            }
        }
    }

    fn game(&mut self) -> Result<PgnGame, Failure> {
        let line = self.line;
        let mut tags = Vec::new();
        while self.peek() == Some('[') {
            tags.push(self.tag()?);
            self.skip_space();
        }
        let mut moves: Vec<PgnMove> = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => {
                    return self.fail("the game ends without a result (1-0, 0-1, 1/2-1/2 or *)");
                }
                Some('{') => {
                    let comment = self.comment()?;
                    // The comment of the move before it; one before the first move
                    // (or a second one) is about the game, not a move.
                    if let Some(last) = moves.last_mut()
                        && last.comment.is_none()
                    {
                        last.comment = Some(comment);
                    }
                }
                Some('(') => self.variation()?,
                Some('[') => {
                    return self.fail("a tag inside the moves (a game without its result?)");
                }
                Some('$') => {
                    self.word();
                }
                Some(_) => {
                    let move_line = self.line;
                    let word = self.word();
                    if RESULTS.contains(&word.as_str()) {
                        return Ok(PgnGame {
                            tags,
                            moves,
                            result: word,
                            line,
                        });
                    }
                    // Move numbers (`12.`, `12...`, or glued to the move: `12.Nf3`).
                    let text = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    let text = text.trim_end_matches(['!', '?']);
                    if !text.is_empty() {
                        moves.push(PgnMove {
                            text: text.to_string(),
                            comment: None,
                            line: move_line,
                        });
                    }
                }
            }
        }
    }

    /// `[Name "value"]`, with `\"` and `\\` inside the value.
    fn tag(&mut self) -> Result<(String, String), Failure> {
        let start = self.line;
        self.next(); // [
        self.skip_space();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.next();
        }
        self.skip_space();
        if name.is_empty() || self.next() != Some('"') {
            return self.fail("a malformed tag (expected [Name \"value\"])");
        }
        let mut value = String::new();
        loop {
            match self.next() {
                None | Some('\n') => {
                    return Err((start, format!("the tag {name}'s value is not closed")));
                }
                Some('\\') => value.extend(self.next()),
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        if self.next() != Some(']') {
            return self.fail(format!("the tag {name} is not closed by ]"));
        }
        Ok((name, value))
    }

    fn comment(&mut self) -> Result<String, Failure> {
        let start = self.line;
        self.next(); // {
        let mut text = String::new();
        loop {
            match self.next() {
                None => return Err((start, "a comment { is not closed".to_string())),
                Some('}') => return Ok(text.trim().to_string()),
                Some(c) => text.push(c),
            }
        }
    }

    /// A variation `( … )`, nested or not: skipped (engine matches write none).
    fn variation(&mut self) -> Result<(), Failure> {
        let start = self.line;
        let mut depth = 0;
        loop {
            match self.next() {
                None => return Err((start, "a variation ( is not closed".to_string())),
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some('{') => {
                    self.at -= 1;
                    self.comment()?;
                }
                Some(_) => {}
            }
        }
    }

    /// Up to the next blank or bracket.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| !c.is_whitespace() && !"{}()[];".contains(*c))
        {
            word.push(c);
            self.next();
        }
        if word.is_empty() {
            // A stray closing bracket: consume it so that the error moves on.
            word.extend(self.next());
        }
        word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FASTCHESS: &str = r#"[Event "Fastchess Tournament"]
[White "tabas-new"]
[Black "tabas-old"]
[Result "1-0"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.35/12 0.123s, n=51234, sd=20} Nc6 {-0.20/11 0.101s}
3. Bb5 {+M9/30 0.020s, tl=9.1s} a6 $2 {-M8/28 0.01s} 4. Qxf7# {+M1/1 0.001s, White mates} 1-0

[White "x"]
[Black "y"]

1. d4 d5 (1... Nf6 {a variation} 2. c4) 2. c4 *
"#;

    #[test]
    fn games_tags_moves_and_comments() {
        let games = parse_games(FASTCHESS).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("tabas-new"));
        assert_eq!(g.result, "1-0");
        assert_eq!(g.line, 1);
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Qxf7#"]);
        assert_eq!(g.moves[2].line, 7);
        assert_eq!(g.moves[4].line, 8);
        let comments: Vec<MoveComment> = g
            .moves
            .iter()
            .map(|m| MoveComment::parse(m.comment.as_deref()))
            .collect();
        assert_eq!(
            comments,
            [
                MoveComment::Book,
                MoveComment::Book,
                MoveComment::Scored {
                    score: PgnScore::Pawns(0.35),
                    depth: 12
                },
                MoveComment::Scored {
                    score: PgnScore::Pawns(-0.2),
                    depth: 11
                },
                MoveComment::Scored {
                    score: PgnScore::MatePlies(9),
                    depth: 30
                },
                MoveComment::Scored {
                    score: PgnScore::MatePlies(-8),
                    depth: 28
                },
                MoveComment::Scored {
                    score: PgnScore::MatePlies(1),
                    depth: 1
                },
            ]
        );
        let texts: Vec<&str> = games[1].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["d4", "d5", "c4"], "the variation is skipped");
        assert_eq!(games[1].result, "*");
    }

    #[test]
    fn comments_without_a_score_are_unscored() {
        for text in [
            None,
            Some(""),
            Some("White mates"),
            Some("ERR/0 0.1s"),
            Some("+x/3 1s"),
        ] {
            assert_eq!(MoveComment::parse(text), MoveComment::Unscored, "{text:?}");
        }
        assert_eq!(
            MoveComment::parse(Some("0.00/1 0.000s")),
            MoveComment::Scored {
                score: PgnScore::Pawns(0.0),
                depth: 1
            }
        );
    }

    #[test]
    fn bad_and_cut_games_name_the_game_and_the_line() {
        for (text, says) in [
            (
                "[White \"a\"]\n\n1. e4 {+0.1/1 0.1s} e5\n",
                "game 1, line 4: the game ends without a result",
            ),
            (
                "1. e4 1-0\n\n[White \"a\"]\n1. e4 {+0.1/1 0.1s",
                "game 2, line 4: a comment { is not closed",
            ),
            (
                "[White \"a]\n1. e4 1-0",
                "game 1, line 1: the tag White's value is not closed",
            ),
            (
                "1. e4 (1. d4 1-0",
                "game 1, line 1: a variation ( is not closed",
            ),
            (
                "1. e4 e5\n[White \"b\"]\n1. d4 1-0",
                "game 1, line 2: a tag inside the moves",
            ),
        ] {
            let e = parse_games(text).unwrap_err();
            assert!(e.starts_with(says), "{e}");
        }
        assert_eq!(parse_games("  \n").unwrap(), vec![]);
    }
}
