//! `tabas import-pgn --out DIR FILE…`: games played anywhere (an OpenBench instance's
//! DATAGEN workloads, a fastchess or cutechess-cli match) into a data folder of
//! Tabas's own format (`datagen/format.rs`), which `tabas dataset` counts and `tabas
//! train --data` reads.
//!
//! * Only Tabas's scores are kept: the player whose name contains `tabas` (any case),
//!   or the one `--engine NAME` names; both sides when both are Tabas (self-play). The
//!   other engine's moves, book moves and moves without a score are kept as moves (the
//!   game must be replayed) with no score (`format::UNSCORED`), which every filter of
//!   the tools leaves out.
//! * Scores go back to the search's internal scale: Tabas shows normalised
//!   centipawns from 0.2.0 on (`wdl::normalised_cp`), so a PGN's `+1.00` is 100 shown
//!   cp, `wdl::INTERNAL_PAWN` internal ones (the importing build's: each refit of
//!   the model moves it); `--pawn UNITS` gives the playing build's, and
//!   `--internal-scores` (`--pawn 100`) reads the PGNs of builds before 0.2.0, which
//!   showed internal units. Mates (`+M9`: plies, as fastchess writes them) become
//!   mate scores, tablebase scores stay as they are.
//! * Games without a result (`*`), without a Tabas player, or with no position
//!   scored by Tabas are skipped and counted; the summary says what was skipped.
//! * A malformed or truncated PGN, or a move that is not legal, is an error naming
//!   the file, the game and the line, and nothing is written: the folder is written
//!   beside `DIR` and renamed to it only when every file has been read.
//!
//! `pgn.rs` reads the text (pure); this file turns games into records and does the I/O.

mod pgn;

use crate::args::real;
use crate::packed_move::pack_move;
use crate::position::parse_fen;
use crate::score::{self, Score};
use crate::tools::datagen::format::{self, GameRecord, GameResult, Ply};
use pgn::{MoveComment, PgnGame, PgnScore};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const USAGE: &str = "usage: tabas import-pgn --out DIR [--engine NAME] [--pawn UNITS | --internal-scores] FILE [FILE ...]
  DIR                a new data folder (it must not exist, or be empty)
  --engine NAME      the player whose scores are kept (default: any player whose name contains 'tabas')
  --pawn UNITS       internal units a shown pawn (+1.00) stands for in the build that played
                     (default: this build's; 130.2 for 0.2.0 up to the refit to the net 2488b488)
  --internal-scores  the PGNs' scores are in Tabas's internal units (builds before 0.2.0; --pawn 100)";

/// The largest and smallest `--pawn`: a build's pawn is 100-odd internal units.
const PAWN_RANGE: std::ops::RangeInclusive<f64> = 10.0..=1000.0;

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub out: PathBuf,
    pub engine: Option<String>,
    /// Internal units of a shown pawn in the build that played (100: internal scores).
    pub pawn: f64,
    pub files: Vec<PathBuf>,
}

pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut out = None;
    let mut engine = None;
    let mut pawn = None;
    let mut files = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out needs a folder")?)),
            "--engine" => engine = Some(args.next().ok_or("--engine needs a name")?.clone()),
            "--internal-scores" | "--pawn" if pawn.is_some() => {
                return Err("give the scale once: --pawn UNITS or --internal-scores".to_string());
            }
            "--internal-scores" => pawn = Some(100.0),
            "--pawn" => {
                let text = args
                    .next()
                    .ok_or("--pawn needs a number of internal units")?;
                pawn = Some(real("--pawn", text, PAWN_RANGE)?);
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file => files.push(PathBuf::from(file)),
        }
    }
    let out = out.ok_or("--out DIR is required")?;
    if files.is_empty() {
        return Err("no PGN file given".to_string());
    }
    Ok(Options {
        out,
        engine,
        pawn: pawn.unwrap_or(crate::wdl::INTERNAL_PAWN),
        files,
    })
}

/// What an import kept and what it skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    /// Positions with Tabas's score (the rest are kept unscored).
    pub scored: u64,
    pub skipped_unfinished: u64,
    pub skipped_no_player: u64,
    pub skipped_no_score: u64,
    pub book_moves: u64,
    pub other_engine_moves: u64,
    pub moves_without_score: u64,
}

impl Summary {
    fn lines(&self) -> Vec<String> {
        vec![
            format!(
                "games: {} (positions {}, scored by Tabas {})",
                self.games, self.positions, self.scored
            ),
            format!(
                "skipped games: {} without a result (*), {} without a Tabas player, {} with no position scored by Tabas",
                self.skipped_unfinished, self.skipped_no_player, self.skipped_no_score
            ),
            format!(
                "unscored moves kept for the replay: {} book, {} by the other engine, {} without a score",
                self.book_moves, self.other_engine_moves, self.moves_without_score
            ),
        ]
    }
}

/// Whether `player` is the engine whose scores are kept.
fn is_tabas(player: &str, engine: Option<&str>) -> bool {
    match engine {
        Some(name) => player.eq_ignore_ascii_case(name),
        None => player.to_ascii_lowercase().contains("tabas"),
    }
}

/// The internal score (side to move's view) of a PGN score, a shown pawn being `pawn`
/// internal units.
fn internal_score(score: PgnScore, pawn: f64) -> Score {
    match score {
        PgnScore::MatePlies(n) if n > 0 => score::mate_in(n.min(score::MAX_PLY as i32) as usize),
        PgnScore::MatePlies(n) => score::mated_in((-n).min(score::MAX_PLY as i32) as usize),
        PgnScore::Pawns(p) => {
            let shown = (p * 100.0).round();
            if shown.abs() >= f64::from(score::TB_WIN_BOUND) {
                // A tablebase score: shown as it is (never converted).
                return shown.clamp(-f64::from(score::TB_WIN), f64::from(score::TB_WIN)) as Score;
            }
            let internal = (shown * pawn / 100.0).round();
            let limit = f64::from(score::TB_WIN_BOUND - 1);
            internal.clamp(-limit, limit) as Score
        }
    }
}

/// The legal move of `pos` that `text` names, in SAN (`Nf3`, `O-O`, `exd8=Q+`) or
/// UCI notation (`g1f3`; castling as the king's step or king-takes-rook).
fn read_move(pos: &Chess, text: &str) -> Option<Move> {
    if let Ok(san) = SanPlus::from_ascii(text.as_bytes())
        && let Ok(m) = san.san.to_move(pos)
    {
        return Some(m);
    }
    UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()
}

/// One game as a record (`Ok(None)`: skipped, counted in `summary`); an error for a
/// game that cannot be replayed.
pub fn convert(
    game: &PgnGame,
    engine: Option<&str>,
    pawn: f64,
    summary: &mut Summary,
) -> Result<Option<GameRecord>, String> {
    let result = match game.result.as_str() {
        "1-0" => GameResult::WhiteWon,
        "0-1" => GameResult::BlackWon,
        "1/2-1/2" => GameResult::Draw,
        _ => {
            summary.skipped_unfinished += 1;
            return Ok(None);
        }
    };
    let player = |tag: &str| is_tabas(game.tag(tag).unwrap_or(""), engine);
    let (white_is_tabas, black_is_tabas) = (player("White"), player("Black"));
    if !white_is_tabas && !black_is_tabas {
        summary.skipped_no_player += 1;
        return Ok(None);
    }
    let is_tabas_move = |mover: Color| match mover {
        Color::White => white_is_tabas,
        Color::Black => black_is_tabas,
    };
    let chess960 = game.tag("Variant").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    });
    let mode = CastlingMode::from_chess960(chess960);
    let start = match game.tag("FEN") {
        Some(fen) => parse_fen(fen, mode).map_err(|e| format!("line {}: FEN: {e}", game.line))?,
        None => Chess::default(),
    };
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(game.moves.len());
    let (mut book, mut other, mut unscored, mut scored) = (0, 0, 0, 0);
    for (i, m) in game.moves.iter().enumerate() {
        let played = read_move(&pos, &m.text).ok_or_else(|| {
            format!(
                "line {}: move {} '{}' is not legal there",
                m.line,
                i + 1,
                m.text
            )
        })?;
        let mover = pos.turn();
        let score = match MoveComment::parse(m.comment.as_deref()) {
            MoveComment::Book => {
                book += 1;
                None
            }
            _ if !is_tabas_move(mover) => {
                other += 1;
                None
            }
            MoveComment::Unscored => {
                unscored += 1;
                None
            }
            MoveComment::Scored { score, .. } => {
                scored += 1;
                Some(internal_score(score, pawn))
            }
        };
        let white_score = match score {
            Some(s) if mover.is_white() => s as i16,
            Some(s) => (-s) as i16,
            None => format::UNSCORED,
        };
        plies.push(Ply {
            packed_move: pack_move(played),
            white_score,
        });
        pos.play_unchecked(played);
    }
    summary.book_moves += book;
    summary.other_engine_moves += other;
    summary.moves_without_score += unscored;
    if scored == 0 {
        summary.skipped_no_score += 1;
        return Ok(None);
    }
    summary.games += 1;
    summary.positions += plies.len() as u64;
    summary.scored += scored;
    Ok(Some(GameRecord {
        start,
        chess960,
        result,
        plies,
    }))
}

/// Reads every game of `files` into records, with what was skipped; the error names
/// the file, the game and the line.
pub fn read_files(options: &Options) -> Result<(Vec<GameRecord>, Summary), String> {
    let mut summary = Summary::default();
    let mut records = Vec::new();
    for file in &options.files {
        let name = file.display();
        let bytes = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let games = pgn::parse_games(&text).map_err(|e| format!("{name}: {e}"))?;
        for (i, game) in games.iter().enumerate() {
            let record = convert(game, options.engine.as_deref(), options.pawn, &mut summary)
                .map_err(|e| format!("{name}: game {}, {e}", i + 1))?;
            records.extend(record);
        }
    }
    Ok((records, summary))
}

/// Writes `records` as the data folder `out` (one file and a manifest), whole or not
/// at all: into a folder beside it, renamed to `out` at the end.
fn write_folder(out: &Path, records: &[GameRecord], manifest: &str) -> Result<(), String> {
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_none();
        if !empty {
            return Err(format!("{}: exists and is not empty", out.display()));
        }
        std::fs::remove_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let mut partial = out.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&partial)?;
        let mut bytes = format::MAGIC.to_vec();
        for r in records {
            r.encode(&mut bytes);
        }
        std::fs::write(partial.join("games-00.tdg"), bytes)?;
        std::fs::write(partial.join("manifest.txt"), manifest)?;
        std::fs::rename(&partial, out)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_dir_all(&partial);
        format!("{}: {e}", out.display())
    })
}

/// `tabas import-pgn …`
pub fn run_cli(args: &[String], out: &mut dyn FnMut(&str)) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tabas import-pgn: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (records, summary) = match read_files(&options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tabas import-pgn: {e}; nothing written");
            return ExitCode::FAILURE;
        }
    };
    let mut manifest = format!(
        "# Tabas data imported from PGN by `tabas import-pgn`: remake it with the command below.\n\
         command: tabas import-pgn {}\n\
         engine: tabas {} (the importer)\n\
         format: TABASDG1 (src/tools/datagen/format.rs; scores from White's point of view, \
         internal units; unscored positions marked)\n\
         pawn: {:.3} internal units a shown pawn\n",
        args.join(" "),
        crate::version(),
        options.pawn
    );
    for line in summary.lines() {
        manifest.push_str(&line);
        manifest.push('\n');
    }
    if let Err(e) = write_folder(&options.out, &records, &manifest) {
        eprintln!("tabas import-pgn: {e}; nothing written");
        return ExitCode::FAILURE;
    }
    out(&format!(
        "tabas import-pgn: wrote {}",
        options.out.display()
    ));
    for line in summary.lines() {
        out(&line);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert_text(text: &str, engine: Option<&str>) -> (Vec<GameRecord>, Summary) {
        let mut summary = Summary::default();
        let games = pgn::parse_games(text).unwrap();
        let records = games
            .iter()
            .filter_map(|g| convert(g, engine, crate::wdl::INTERNAL_PAWN, &mut summary).unwrap())
            .collect();
        (records, summary)
    }

    #[test]
    fn shown_scores_go_back_to_the_internal_scale() {
        let pawn = crate::wdl::INTERNAL_PAWN;
        assert_eq!(
            internal_score(PgnScore::Pawns(1.0), pawn),
            pawn.round() as Score
        );
        // The scale of the build that played: 0.2.0's pawn, or internal units.
        assert_eq!(internal_score(PgnScore::Pawns(-0.32), 130.2), -42);
        assert_eq!(internal_score(PgnScore::Pawns(1.0), 100.0), 100);
        // The round trip through the display: what Tabas showed comes back within a unit.
        for internal in [-2000, -131, -1, 0, 7, 130, 999] {
            let shown = crate::wdl::normalised_cp(internal);
            let back = internal_score(PgnScore::Pawns(f64::from(shown) / 100.0), pawn);
            assert!(
                (back - internal).abs() <= 1,
                "{internal} → {shown} → {back}"
            );
        }
        assert_eq!(
            internal_score(PgnScore::MatePlies(9), pawn),
            score::mate_in(9)
        );
        assert_eq!(
            internal_score(PgnScore::MatePlies(-4), pawn),
            score::mated_in(4)
        );
        let tb = score::tb_win_in(3);
        assert_eq!(
            internal_score(PgnScore::Pawns(f64::from(tb) / 100.0), 130.2),
            tb
        );
    }

    #[test]
    fn the_scale_is_given_once_and_within_reason() {
        let args = |extra: &[&str]| -> Vec<String> {
            let mut v = vec!["--out".to_string(), "d".to_string()];
            v.extend(extra.iter().map(|a| a.to_string()));
            v.push("g.pgn".to_string());
            v
        };
        let pawn = |extra: &[&str]| parse_options(&args(extra)).map(|o| o.pawn);
        assert_eq!(pawn(&[]), Ok(crate::wdl::INTERNAL_PAWN));
        assert_eq!(pawn(&["--pawn", "130.2"]), Ok(130.2));
        assert_eq!(pawn(&["--internal-scores"]), Ok(100.0));
        for bad in [
            &["--pawn", "0"][..],
            &["--pawn", "NaN"],
            &["--pawn", "1e9"],
            &["--pawn", "x"],
            &["--pawn"],
            &["--pawn", "130", "--internal-scores"],
            &["--internal-scores", "--internal-scores"],
        ] {
            let err = pawn(bad).expect_err(&format!("{bad:?}"));
            assert!(
                err.contains("--pawn") || err.contains("scale"),
                "{bad:?}: {err}"
            );
        }
    }

    #[test]
    fn only_tabas_moves_keep_their_scores_from_whites_point_of_view() {
        let text = "[White \"Stockfish\"]\n[Black \"Tabas 0.2\"]\n\n\
                    1. e4 {book} e5 {+0.50/10 0.1s} 2. Nf3 {+0.20/12 0.1s} Nc6 {-M3/9 0.1s} \
                    3. Bb5 {+0.1/1 0.1s} a6 1-0\n\n\
                    [White \"a\"]\n[Black \"b\"]\n\n1. e4 {+0.1/1 0.1s} 1-0\n\n\
                    [White \"tabas\"]\n[Black \"tabas\"]\n\n1. e4 {+0.1/1 0.1s} *\n";
        let (records, summary) = convert_text(text, None);
        assert_eq!(records.len(), 1);
        let scores: Vec<i16> = records[0].plies.iter().map(|p| p.white_score).collect();
        let (u, pawn) = (format::UNSCORED, crate::wdl::INTERNAL_PAWN);
        // Black's +0.50 is White's −65; Black being mated in 3 plies is White's mate.
        let e5 = -(50.0 * pawn / 100.0).round() as i16;
        assert_eq!(scores, [u, e5, u, -score::mated_in(3) as i16, u, u]);
        assert_eq!(records[0].result, GameResult::WhiteWon);
        assert_eq!(
            summary,
            Summary {
                games: 1,
                positions: 6,
                scored: 2,
                skipped_unfinished: 1,
                skipped_no_player: 1,
                skipped_no_score: 0,
                book_moves: 1,
                other_engine_moves: 2,
                moves_without_score: 1,
            }
        );
        // `--engine` names the player: here nobody is called `tabas`.
        let (records, summary) = convert_text(text, Some("b"));
        assert_eq!((records.len(), summary.skipped_no_player), (0, 1));
        assert_eq!(summary.skipped_no_score, 1, "b's only move is White's");
    }

    #[test]
    fn chess960_games_and_uci_notation_replay() {
        // Castling as king-takes-rook (fastchess's UCI notation in Chess960), then SAN.
        let text = "[White \"tabas\"]\n[Black \"tabas\"]\n[Variant \"fischerandom\"]\n\
                    [FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n\
                    1. b1h1 {+0.10/5 0.1s} b8h8 {-0.10/5 0.1s} 2. Ra1b1 {+0.1/4 0.1s} 1/2-1/2\n";
        let (records, _) = convert_text(text, None);
        assert_eq!(records.len(), 1);
        assert!(records[0].chess960);
        assert_eq!(records[0].samples().unwrap().len(), 3);
    }
}
