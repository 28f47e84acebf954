//! Parsing UCI input lines into commands: pure, no I/O, tested on strings.

pub use super::words::UciError;
use super::words::err;
use super::words::parse_number;
use crate::text::shorten;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    Fen(String),
}

/// `go` parameters as given (moves still text: they are checked against the position later).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<i64>,
    pub depth: Option<i64>,
    pub nodes: Option<i64>,
    pub mate: Option<i64>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    pub perft: Option<i64>,
    /// Problems that did not stop the search (unknown words, bad numbers).
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// Non-standard: print the board, FEN and key.
    Display,
    /// Non-standard: the fixed benchmark, optionally at another depth.
    Bench {
        depth: Option<i64>,
    },
    /// Non-standard: the static evaluation of the current position.
    Eval,
    /// Non-standard: the commands understood, as `info string` lines.
    Help,
    /// Non-standard (OpenBench): `genfens N seed S book <None|FILE>`, random openings as
    /// `info string genfens <FEN>` lines; the whole line, for `genfens::run`.
    Genfens(String),
}

/// Parses one input line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, UciError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let command = match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "help" => Command::Help,
        "genfens" => Command::Genfens(line.trim().to_string()),
        "debug" => match rest.first().copied() {
            Some("on") => Command::Debug(true),
            Some("off") => Command::Debug(false),
            _ => return err("debug needs 'on' or 'off'"),
        },
        "setoption" => parse_setoption(&rest, line)?,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)),
        "bench" => Command::Bench {
            depth: match rest.first() {
                Some(d) => Some(parse_number(d, "bench depth")?),
                None => None,
            },
        },
        other => return err(format!("unknown command '{}'", shorten(other))),
    };
    Ok(Some(command))
}

/// What the stdin reader does itself as a line arrives, before the session thread
/// handles it (which it still does, in order): what must not wait behind the lines
/// before it and needs no session state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnArrival {
    /// Nothing: the session handles the line.
    Nothing,
    /// `stop`: raise the stop flag of what runs, without waiting for the session.
    Stop,
    /// `quit`: the same, and the session must see it at once.
    Quit,
    /// `setoption name Debug Log File …`: open that log (or, `None`, close it) before the
    /// next line is read, so that every line after this one is in it.
    DebugLog(Option<String>),
}

/// What `line` asks of the stdin reader; agrees with `parse` (and must stay cheap: a
/// line is parsed twice only when it is a `setoption`).
pub fn on_arrival(line: &str) -> OnArrival {
    match line.split_whitespace().next() {
        Some("stop") => OnArrival::Stop,
        Some("quit") => OnArrival::Quit,
        Some("setoption") => match parse(line) {
            Ok(Some(Command::SetOption { name, value }))
                if name.eq_ignore_ascii_case(super::options::DEBUG_LOG_FILE) =>
            {
                OnArrival::DebugLog(super::options::debug_log_path(value.as_deref()))
            }
            _ => OnArrival::Nothing,
        },
        _ => OnArrival::Nothing,
    }
}

/// `setoption name <id> [value <x>]`: the name's words are joined by single spaces
/// (names are matched without regard to spacing), while the value is kept as written
/// between its first and last non-blank characters: a path such as a `SyzygyPath`
/// may hold two spaces in a row.
fn parse_setoption(words: &[&str], line: &str) -> Result<Command, UciError> {
    if words.first() != Some(&"name") {
        return err("setoption needs 'name <id> [value <x>]'");
    }
    let words = &words[1..];
    let value_at = words.iter().position(|w| *w == "value");
    let (name_words, value) = match value_at {
        Some(i) => (&words[..i], Some(raw_rest(line, words[i]).to_string())),
        None => (words, None),
    };
    if name_words.is_empty() {
        return err("setoption: missing option name");
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// The text of `line` after `word` (a slice of `line`, as `split_whitespace` gives),
/// trimmed at both ends only: the spacing inside stays as written.
fn raw_rest<'a>(line: &'a str, word: &str) -> &'a str {
    let start = word.as_ptr() as usize - line.as_ptr() as usize;
    debug_assert_eq!(line.get(start..start + word.len()), Some(word));
    let end = start + word.len();
    line[end..].trim_matches(char::is_whitespace)
}

fn parse_position(words: &[&str]) -> Result<Command, UciError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (
            &words[..i],
            words[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (words, Vec::new()),
    };
    let start = match head.first().copied() {
        Some("startpos") if head.len() == 1 => PositionStart::StartPos,
        Some("startpos") => {
            return err(format!(
                "position startpos: unexpected '{}'",
                shorten(head[1])
            ));
        }
        Some("fen") if head.len() >= 2 => PositionStart::Fen(head[1..].join(" ")),
        Some("fen") => return err("position fen: missing FEN"),
        Some(other) => {
            return err(format!(
                "position: expected 'startpos' or 'fen', got '{}'",
                shorten(other)
            ));
        }
        None => return err("position: expected 'startpos' or 'fen'"),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(words: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        let slot = match word {
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < words.len() && !is_go_keyword(words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
                continue;
            }
            "wtime" => &mut go.wtime,
            "btime" => &mut go.btime,
            "winc" => &mut go.winc,
            "binc" => &mut go.binc,
            "movestogo" => &mut go.movestogo,
            "depth" => &mut go.depth,
            "nodes" => &mut go.nodes,
            "mate" => &mut go.mate,
            "movetime" => &mut go.movetime,
            "perft" => &mut go.perft,
            other => {
                go.warnings.push(format!(
                    "go: unknown parameter '{}' ignored",
                    shorten(other)
                ));
                continue;
            }
        };
        match words.get(i) {
            Some(v) if !is_go_keyword(v) => {
                i += 1;
                match parse_number(v, word) {
                    Ok(n) => *slot = Some(n),
                    Err(e) => go.warnings.push(format!("go: {e}, ignored")),
                }
            }
            _ => go
                .warnings
                .push(format!("go: '{word}' needs a number, ignored")),
        }
    }
    go
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "perft"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn stop_and_quit_are_acted_on_as_they_arrive_as_parse_reads_them() {
        for line in [
            "stop",
            "quit",
            " stop\r\n",
            "\tquit now",
            "stop stop",
            "stopp",
            "sto",
            "Stop",
            "",
            "\n",
            "go infinite",
            "ponderhit",
            "isready",
            "x stop",
            "quit\u{0}",
            "\u{0}quit",
            "setoption name stop",
        ] {
            let expected = match parse(line) {
                Ok(Some(Command::Stop)) => OnArrival::Stop,
                Ok(Some(Command::Quit)) => OnArrival::Quit,
                _ => OnArrival::Nothing,
            };
            assert_eq!(on_arrival(line), expected, "{line:?}");
        }
    }

    #[test]
    fn the_debug_log_is_opened_and_closed_as_the_line_arrives() {
        let open = |p: &str| OnArrival::DebugLog(Some(p.to_string()));
        assert_eq!(
            on_arrival("setoption name Debug Log File value /tmp/x y.log\n"),
            open("/tmp/x y.log")
        );
        assert_eq!(
            on_arrival("setoption  name debug  log FILE value a.log"),
            open("a.log")
        );
        for off in [
            "setoption name Debug Log File value <empty>",
            "setoption name Debug Log File value",
            "setoption name Debug Log File",
        ] {
            assert_eq!(on_arrival(off), OnArrival::DebugLog(None), "{off}");
        }
        for other in [
            "setoption name Debug Log Files value a.log",
            "setoption name Hash value 16",
            "setoption Debug Log File value a.log",
            "position startpos",
        ] {
            assert_eq!(on_arrival(other), OnArrival::Nothing, "{other}");
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready  "), Command::IsReady);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("help"), Command::Help);
        assert_eq!(parse("   "), Ok(None));
        assert!(parse("debug maybe").is_err());
    }

    #[test]
    fn unknown_command_is_an_error_naming_it() {
        let e = parse("xyzzy 1 2").unwrap_err();
        assert_eq!(e.0, "unknown command 'xyzzy'");
    }

    #[test]
    fn setoption_with_spaces_in_name_and_value() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name SyzygyPath value C:\\my tables\\x"),
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("C:\\my tables\\x".into())
            }
        );
        assert!(parse("setoption Hash 3").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn setoption_values_keep_their_inner_spacing() {
        let value = |line: &str| match ok(line) {
            Command::SetOption { value, .. } => value,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            value("setoption name SyzygyPath value /tb/a  b:/tb/c\td\n"),
            Some("/tb/a  b:/tb/c\td".into())
        );
        assert_eq!(
            value("setoption  name   SyzygyPath   value \t /my  tables/x  \r\n"),
            Some("/my  tables/x".into())
        );
        assert_eq!(
            value("setoption name SyzygyPath value a\tb   c"),
            Some("a\tb   c".into())
        );
        assert_eq!(value("setoption name Hash value 64"), Some("64".into()));
        assert_eq!(value("setoption name Hash value"), Some(String::new()));
        assert_eq!(value("setoption name Hash value   "), Some(String::new()));
        assert_eq!(value("setoption name Clear Hash"), None);
        // The first `value` word splits; a later one is part of the value.
        assert_eq!(
            value("setoption name SyzygyPath value /x/value  y"),
            Some("/x/value  y".into())
        );
        assert_eq!(
            value("setoption name SyzygyPath value a value  b"),
            Some("a value  b".into())
        );
        // A word that merely contains "value" is not the keyword.
        assert_eq!(
            ok("setoption name Xvalue  Y value  1"),
            Command::SetOption {
                name: "Xvalue Y".into(),
                value: Some("1".into())
            }
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn go_with_every_parameter() {
        let Command::Go(g) = ok(
            "go searchmoves e2e4 d2d4 ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 999 mate 3 movetime 50 infinite",
        ) else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.ponder && g.infinite);
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert_eq!(
            (g.movestogo, g.depth, g.nodes, g.mate, g.movetime),
            (Some(5), Some(7), Some(999), Some(3), Some(50))
        );
        assert!(g.warnings.is_empty());
    }

    #[test]
    fn echoed_garbage_is_one_printable_line() {
        let e = parse("go\u{0}depth\r\u{1b}[2J 1").unwrap_err();
        assert!(!e.0.chars().any(char::is_control), "{:?}", e.0);
        let long = "x".repeat(100_000);
        assert!(parse(&long).unwrap_err().0.len() < 100);
    }

    #[test]
    fn go_survives_garbage() {
        let Command::Go(g) = ok("go wtime -500 depth banana nodes 99999999999999999999999 foo")
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(-500));
        assert_eq!(g.depth, None);
        assert_eq!(g.nodes, Some(i64::MAX));
        assert_eq!(g.warnings.len(), 2);
        let Command::Go(g) = ok("go depth") else {
            panic!()
        };
        assert_eq!(g.depth, None);
        assert_eq!(g.warnings.len(), 1);
    }
}
