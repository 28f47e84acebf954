//! Syzygy endgame tablebases: loading them (`SyzygyPath`) and probing them.
//!
//! The tables are read by `shakmaty-syzygy` through ordinary file reads (no memory
//! maps: an I/O error stays an error). Loading only lists the directories; a table
//! is opened at its first probe. A table that turns out corrupt makes its probes
//! fail (`None`, and one warning in the log), never the engine.
//!
//! # How the search uses it
//!
//! The engine holds one `Arc<Tablebases>`, replaced whole when `SyzygyPath` or a
//! `Syzygy*` option changes; a search keeps the one it started with.
//!
//! * **At the root**, before the first iteration: `probe_root(position, root moves,
//!   repeated)`. When it answers, search only its `kept()` moves: each keeps the best
//!   result the tables promise, with the 50-move rule counted (ranked by DTZ, or by
//!   WDL where DTZ tables are missing). Report the kept moves' tablebase `score`
//!   unless the search proves a mate. When the ranks came from DTZ (`by_dtz`), or the
//!   root is not won, make no probes in the tree: the root moves already keep the
//!   result, and probes would only flatten every line to the same tablebase score.
//! * **In the tree**, never at the root, after the transposition-table probe and
//!   before the static evaluation: `probe_wdl(position, depth)`. It answers only
//!   where the tables are exact and a probe is worth its cost: no castling rights;
//!   the halfmove clock at 0, just after a capture or a pawn move (WDL tables assume
//!   a fresh 50-move count); at most `cardinality()` pieces (the smaller of
//!   `SyzygyProbeLimit` and the largest table), and with exactly that many only from
//!   depth `SyzygyProbeDepth` on. It counts its hits.
//! * `wdl_score(wdl, ply, rule50)` turns the answer into a score and a bound: exact
//!   for a draw, a lower bound for a win (a mate would be better still), an upper
//!   bound for a loss. When the bound decides the window (`Bound::decides`), store
//!   it in the table (`score::to_tt`, no move, `TB_DEPTH_BONUS` plies deeper than the
//!   node, since the result does not depend on depth and should outlive the searches
//!   that would replace it) and return it. Otherwise, at PV nodes, a win
//!   raises alpha and the node's best score, and a loss caps what the node returns.
//! * Tablebase scores are `score::is_decisive` but not `score::is_mate`: guard
//!   null-move returns and pruning margins with `is_decisive`, `go mate` with `is_mate`.
//! * `tbhits` in `info`: `hits()`, after `reset_hits()` at each `go`.

use crate::score::{self, DRAW, Score};
use crate::text::excerpt;
use crate::tt::Bound;
use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use shakmaty_syzygy::Wdl;

/// The `SyzygyPath` value that means "no tables" (the UCI convention).
pub const EMPTY_PATH: &str = "<empty>";
/// Between the directories of `SyzygyPath`, as in the system's `PATH` (Windows
/// paths hold `:` after the drive letter).
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };
/// The largest Syzygy tables there are: 7 pieces, kings included.
pub const MAX_PIECES: usize = 7;
/// `SyzygyProbeDepth`'s range.
pub const MAX_PROBE_DEPTH: i32 = 100;
/// A cursed win under the 50-move rule: a draw, one centipawn better than a plain
/// one for the side that may still win it if the other errs (blessed loss: minus).
pub const CURSED_WIN: Score = 1;

/// Plies of the 50-move rule: a zeroing move must come within them.
const FIFTY_MOVES: u32 = 100;
/// Root ranks: wins from `RANK_WIN` down, losses from `RANK_LOSS` up, draws at 0.
/// Far beyond any count of plies to a zeroing move, so the three never meet.
const RANK_WIN: i32 = 1 << 16;
const RANK_LOSS: i32 = -RANK_WIN;

/// How the tables are used: the `Syzygy*` options other than the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbConfig {
    /// `SyzygyProbeDepth`: probes with the most pieces probed are made only from
    /// this remaining depth on (each can cost a disk read).
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws (true), or
    /// wins and losses (false: games without the rule, or analysis).
    pub rule50: bool,
    /// `SyzygyProbeLimit`: no probe of a position with more pieces (0: none at all).
    pub probe_limit: usize,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            probe_depth: 1,
            rule50: true,
            probe_limit: MAX_PIECES,
        }
    }
}

/// The directories named by a `SyzygyPath` value, split at `separator`, blanks
/// trimmed, empty ones and repeats dropped. Empty or `<empty>`: none.
pub fn split_path(value: &str, separator: char) -> Vec<&str> {
    let value = value.trim();
    if value.eq_ignore_ascii_case(EMPTY_PATH) {
        return Vec::new();
    }
    let mut dirs: Vec<&str> = Vec::new();
    for dir in value.split(separator).map(str::trim) {
        if !dir.is_empty() && !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// Tables as loaded from a path, shared by every `Tablebases` made from them.
struct Loaded {
    tables: Tablebase<Chess>,
    directories: Vec<String>,
    files: usize,
    /// The prober panicked once (a corruption it did not catch): no more probes.
    broken: AtomicBool,
    /// A failed probe has been reported (once is enough: the log is not a counter).
    warned: AtomicBool,
}

impl Loaded {
    fn new(tables: Tablebase<Chess>, directories: Vec<String>, files: usize) -> Loaded {
        Loaded {
            tables,
            directories,
            files,
            broken: AtomicBool::new(false),
            warned: AtomicBool::new(false),
        }
    }
}

/// Loaded Syzygy tables, the options that say how to probe them, and the hit count.
pub struct Tablebases {
    loaded: Arc<Loaded>,
    config: TbConfig,
    hits: AtomicU64,
}

impl Default for Tablebases {
    /// No tables: every probe answers `None` at once.
    fn default() -> Self {
        let none = Loaded::new(Tablebase::new(), Vec::new(), 0);
        Tablebases::from_loaded(none, TbConfig::default())
    }
}

/// The value of one root move by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbRootMove {
    pub mv: Move,
    /// The result it keeps under the 50-move rule (whatever `Syzygy50MoveRule`
    /// says): counted from the root's halfmove clock when ranked by DTZ, as if
    /// the clock were 0 when ranked by WDL.
    pub wdl: Wdl,
    /// Higher is better; moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// The score to report for it (`wdl_score` at ply 1, with `Syzygy50MoveRule`).
    pub score: Score,
}

/// The root moves ranked by the tables, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    pub moves: Vec<TbRootMove>,
    /// Ranked by DTZ (exact with the 50-move count), not by WDL alone.
    pub by_dtz: bool,
}

impl RootProbe {
    /// The moves to search: those of the best rank (never empty).
    pub fn kept(&self) -> &[TbRootMove] {
        let best = self.moves[0].rank;
        let n = self.moves.iter().take_while(|m| m.rank == best).count();
        &self.moves[..n]
    }
}

/// A WDL turned into a search score, and what that score proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbScore {
    pub score: Score,
    pub bound: Bound,
}

/// The search score of a position `ply` half-moves from the root that the tables
/// call `wdl` (for the side to move). A win is a lower bound (a mate is better), a
/// loss an upper bound, a draw exact. With `rule50`, cursed wins and blessed losses
/// are draws (`±CURSED_WIN`); without, wins and losses.
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> TbScore {
    let score = match wdl {
        Wdl::Win => score::tb_win_in(ply),
        Wdl::CursedWin if rule50 => CURSED_WIN,
        Wdl::CursedWin => score::tb_win_in(ply),
        Wdl::Draw => DRAW,
        Wdl::BlessedLoss if rule50 => -CURSED_WIN,
        Wdl::BlessedLoss => score::tb_loss_in(ply),
        Wdl::Loss => score::tb_loss_in(ply),
    };
    let bound = if score >= score::TB_WIN_BOUND {
        Bound::Lower
    } else if score <= -score::TB_WIN_BOUND {
        Bound::Upper
    } else {
        Bound::Exact
    };
    TbScore { score, bound }
}

impl Tablebases {
    fn from_loaded(loaded: Loaded, config: TbConfig) -> Tablebases {
        Tablebases {
            loaded: Arc::new(loaded),
            config,
            hits: AtomicU64::new(0),
        }
    }

    /// Loads the tables of every directory in `path` (see `split_path`). An error,
    /// meant for a person, when a directory cannot be read or holds no table, or
    /// a table file has a size no table has; nothing is loaded then.
    pub fn load(path: &str, config: TbConfig) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        let dirs = split_path(path, PATH_SEPARATOR);
        for dir in &dirs {
            let shown = excerpt(dir, 80);
            let found = tables.add_directory(dir).map_err(|e| match e.kind() {
                io::ErrorKind::InvalidData => {
                    format!("SyzygyPath: a table in '{shown}' is corrupt or truncated ({e})")
                }
                _ => format!("SyzygyPath: cannot read the directory '{shown}': {e}"),
            })?;
            if found == 0 {
                return Err(format!(
                    "SyzygyPath: no Syzygy table (.rtbw, .rtbz) in '{shown}'"
                ));
            }
            files += found;
        }
        let directories = dirs.iter().map(|d| d.to_string()).collect();
        let loaded = Loaded::new(tables, directories, files);
        Ok(Tablebases::from_loaded(loaded, config))
    }

    /// The same tables, probed with other options (the tables are shared, not reloaded).
    pub fn with_config(&self, config: TbConfig) -> Tablebases {
        Tablebases {
            loaded: Arc::clone(&self.loaded),
            config,
            hits: AtomicU64::new(0),
        }
    }

    pub fn config(&self) -> TbConfig {
        self.config
    }

    /// The directories loaded (none: no tables).
    pub fn directories(&self) -> &[String] {
        &self.loaded.directories
    }

    /// Table files found (WDL and DTZ together).
    pub fn table_files(&self) -> usize {
        self.loaded.files
    }

    /// Pieces (kings included) of the largest table loaded; 0 without tables.
    pub fn max_pieces(&self) -> usize {
        self.loaded.tables.max_pieces()
    }

    /// Positions with at most this many pieces are probed: the smaller of
    /// `SyzygyProbeLimit` and the largest table (0: no probes).
    pub fn cardinality(&self) -> usize {
        if self.loaded.broken.load(Ordering::Relaxed) {
            return 0;
        }
        self.config.probe_limit.min(self.max_pieces())
    }

    /// Successful probes since the last `reset_hits` (UCI's `tbhits`).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn reset_hits(&self) {
        self.hits.store(0, Ordering::Relaxed);
    }

    fn count_hits(&self, n: usize) {
        self.hits.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// The WDL of `pos` for the side to move, for a node of the search with
    /// `depth` plies left. `None` where the module's rules say not to probe (see
    /// the top of this file) or the probe failed.
    pub fn probe_wdl(&self, pos: &Chess, depth: i32) -> Option<Wdl> {
        // Cheapest and most selective first: this runs at every node of the search.
        if pos.halfmoves() != 0 || pos.castles().any() {
            return None;
        }
        let pieces = pos.board().occupied().count();
        let cardinality = self.cardinality();
        if pieces > cardinality || (pieces == cardinality && depth < self.config.probe_depth) {
            return None;
        }
        let wdl = self.guarded(|t| t.probe_wdl_after_zeroing(pos))?;
        self.count_hits(1);
        Some(wdl)
    }

    /// Ranks `moves` (legal in `pos`; the root moves) by the tables: by DTZ, or
    /// by WDL alone where a DTZ table is missing or fails. `repeated`: a position
    /// has already repeated since the last capture or pawn move, so a win must
    /// make progress now (only the moves fastest to a zeroing move are kept). `None`
    /// when `pos` is not in the tables (castling rights, more pieces than
    /// `cardinality()`) or a probe failed.
    pub fn probe_root(&self, pos: &Chess, moves: &[Move], repeated: bool) -> Option<RootProbe> {
        if moves.is_empty()
            || pos.castles().any()
            || pos.board().occupied().count() > self.cardinality()
        {
            return None;
        }
        let (mut ranked, by_dtz) = match self.rank_by_dtz(pos, moves, repeated) {
            Some(ranked) => (ranked, true),
            None => (self.rank_by_wdl(pos, moves)?, false),
        };
        self.count_hits(moves.len());
        ranked.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Some(RootProbe {
            moves: ranked,
            by_dtz,
        })
    }

    fn rank_by_dtz(&self, pos: &Chess, moves: &[Move], repeated: bool) -> Option<Vec<TbRootMove>> {
        let halfmoves = pos.halfmoves();
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            // `dtz`: plies from `pos` to the next zeroing move (or mate) with `mv`
            // played, signed for the side to move; `plies`: what the 50-move count
            // will be then, taking a rounded DTZ at its worst for the side to move.
            let (dtz, plies) = if after.is_checkmate() {
                (1, 1)
            } else if mv.is_zeroing() {
                let wdl = -self.guarded(|t| t.probe_wdl_after_zeroing(&after))?;
                let dtz = Dtz::before_zeroing(wdl).0;
                (dtz, dtz.unsigned_abs())
            } else {
                let reply = self.guarded(|t| t.probe_dtz(&after))?;
                let rounded = u32::from(matches!(reply, MaybeRounded::Rounded(_)));
                let dtz = (-reply).add_plies(1).ignore_rounding().0;
                let plies = halfmoves + dtz.unsigned_abs();
                (dtz, if dtz > 0 { plies + rounded } else { plies })
            };
            let (wdl, rank) = dtz_rank(dtz, plies, repeated);
            let score = wdl_score(wdl, 1, self.config.rule50).score;
            ranked.push(TbRootMove {
                mv,
                wdl,
                rank,
                score,
            });
        }
        Some(ranked)
    }

    fn rank_by_wdl(&self, pos: &Chess, moves: &[Move]) -> Option<Vec<TbRootMove>> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let wdl = if after.is_checkmate() {
                Wdl::Win
            } else {
                -self.guarded(|t| t.probe_wdl_after_zeroing(&after))?
            };
            // As if the next zeroing move came at once, or (cursed, blessed) just
            // past the 50-move limit: the halfmove clock is not counted here.
            let rank = match wdl {
                Wdl::Win => RANK_WIN,
                Wdl::CursedWin => RANK_WIN - (FIFTY_MOVES as i32 + 1),
                Wdl::Draw => 0,
                Wdl::BlessedLoss => RANK_LOSS + (FIFTY_MOVES as i32 + 1),
                Wdl::Loss => RANK_LOSS,
            };
            let score = wdl_score(wdl, 1, self.config.rule50).score;
            ranked.push(TbRootMove {
                mv,
                wdl,
                rank,
                score,
            });
        }
        Some(ranked)
    }

    /// Runs one probe: `None` if it fails. A panic of the prober (a corrupt table
    /// it did not catch) ends all probing with these tables instead of the search.
    fn guarded<T>(
        &self,
        probe: impl FnOnce(&Tablebase<Chess>) -> Result<T, SyzygyError>,
    ) -> Option<T> {
        let loaded = &*self.loaded;
        if loaded.broken.load(Ordering::Relaxed) {
            return None;
        }
        match catch_unwind(AssertUnwindSafe(|| probe(&loaded.tables))) {
            Ok(Ok(value)) => Some(value),
            Ok(Err(SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            })) => {
                if !loaded.warned.swap(true, Ordering::Relaxed) {
                    // The crate's message may carry a backtrace: its first line is enough.
                    let error = error.to_string();
                    let first = error.lines().next().unwrap_or_default();
                    log::warn!("Syzygy {metric} table {material} failed: {first}");
                }
                None
            }
            Ok(Err(e)) => {
                // A missing table (an incomplete set) or a position out of the tables.
                log::debug!("Syzygy probe: {e}");
                None
            }
            Err(_) => {
                loaded.broken.store(true, Ordering::Relaxed);
                log::error!("the Syzygy prober failed (a corrupt table?): no more probes");
                None
            }
        }
    }
}

/// The WDL and rank of a root move from its DTZ and the 50-move count it reaches.
fn dtz_rank(dtz: i32, plies: u32, repeated: bool) -> (Wdl, i32) {
    let in_time = plies <= FIFTY_MOVES;
    let plies = plies as i32;
    if dtz > 0 {
        let wdl = if in_time { Wdl::Win } else { Wdl::CursedWin };
        // Every win in time is as good as another: the search picks (the fastest
        // mate, say). Once a position has repeated, or when time runs short,
        // only the moves nearest a zeroing move are good enough.
        let rank = if in_time && !repeated {
            RANK_WIN
        } else {
            RANK_WIN - plies
        };
        (wdl, rank)
    } else if dtz < 0 {
        let wdl = if in_time { Wdl::Loss } else { Wdl::BlessedLoss };
        // Resisting longest matters only when a 50-move draw is in sight: if
        // the winner took twice the plies the tables need (an idea of Stockfish's).
        // Otherwise every losing move is as good: the search picks the toughest.
        let in_sight = plies + dtz.abs() >= FIFTY_MOVES as i32;
        let rank = if in_sight {
            RANK_LOSS + plies
        } else {
            RANK_LOSS
        };
        (wdl, rank)
    } else {
        (Wdl::Draw, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use std::path::PathBuf;

    /// The 3-4-piece tables: `TABAS_SYZYGY`, else `../shared/data/syzygy` beside
    /// the repository. `None`, with a message, where they are absent.
    fn tables_dir() -> Option<PathBuf> {
        let dir = std::env::var_os("TABAS_SYZYGY")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/syzygy")
            });
        if dir.join("KQvK.rtbw").is_file() {
            Some(dir)
        } else {
            eprintln!(
                "skipped: no Syzygy tables in {} (set TABAS_SYZYGY to the 3-4-piece tables)",
                dir.display()
            );
            None
        }
    }

    fn tables() -> Option<Tablebases> {
        let dir = tables_dir()?;
        Some(Tablebases::load(dir.to_str().unwrap(), TbConfig::default()).unwrap())
    }

    /// A fresh directory under the system's temporary one, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!("tabas-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn uci(moves: &[TbRootMove]) -> Vec<String> {
        let mut v: Vec<String> = moves
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_path_splits_into_directories() {
        assert!(split_path("", ':').is_empty());
        assert!(split_path("  ", ':').is_empty());
        assert!(split_path("<empty>", ':').is_empty());
        assert!(split_path(" <EMPTY> ", ':').is_empty());
        assert_eq!(split_path("/tb", ':'), ["/tb"]);
        assert_eq!(split_path("/tb/345:/tb/6", ':'), ["/tb/345", "/tb/6"]);
        assert_eq!(split_path(" /a : :/b: /a :", ':'), ["/a", "/b"]);
        assert_eq!(split_path("/my tables/x", ':'), ["/my tables/x"]);
        assert_eq!(
            split_path(r"C:\tb\345;D:\tb 6", ';'),
            [r"C:\tb\345", r"D:\tb 6"]
        );
        assert_eq!(split_path(r"C:\tb", ';'), [r"C:\tb"]);
    }

    #[test]
    fn the_separator_is_the_systems() {
        if cfg!(windows) {
            assert_eq!(PATH_SEPARATOR, ';');
        } else {
            assert_eq!(PATH_SEPARATOR, ':');
        }
    }

    #[test]
    fn a_bad_path_is_an_error() {
        let config = TbConfig::default();
        let missing = Tablebases::load("/nonexistent/tabas-syzygy", config);
        let e = missing.err().expect("a missing directory is an error");
        assert!(e.contains("/nonexistent/tabas-syzygy"), "{e}");
        // A directory without tables: this crate's sources.
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let e = Tablebases::load(src, config).err().expect("no tables");
        assert!(e.contains("no Syzygy table"), "{e}");
        // A file, not a directory.
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert!(Tablebases::load(file, config).is_err());
        // A table file of a size no table has.
        let truncated = TempDir::new("truncated");
        std::fs::write(truncated.0.join("KQvK.rtbw"), [0x71, 0xe8, 0x23, 0x5d]).unwrap();
        let e = Tablebases::load(truncated.path(), config)
            .err()
            .expect("corrupt");
        assert!(e.contains("corrupt or truncated"), "{e}");
        // One bad directory spoils the whole path.
        if let Some(dir) = tables_dir() {
            let path = format!("{}{PATH_SEPARATOR}/nonexistent", dir.display());
            assert!(Tablebases::load(&path, config).is_err());
        }
    }

    #[test]
    fn tables_can_be_shared_between_search_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Tablebases>();
    }

    #[test]
    fn no_tables_answer_nothing() {
        for tb in [
            Tablebases::default(),
            Tablebases::load("<empty>", TbConfig::default()).unwrap(),
            Tablebases::load("", TbConfig::default()).unwrap(),
        ] {
            assert_eq!(
                (tb.max_pieces(), tb.cardinality(), tb.table_files()),
                (0, 0, 0)
            );
            let p = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
            assert_eq!(tb.probe_wdl(&p, 10), None);
            let moves: Vec<Move> = p.legal_moves().into_iter().collect();
            assert_eq!(tb.probe_root(&p, &moves, false), None);
            assert_eq!(tb.hits(), 0);
        }
    }

    #[test]
    fn loads_the_test_tables() {
        let Some(dir) = tables_dir() else { return };
        let tb = tables().unwrap();
        assert_eq!(tb.max_pieces(), 4);
        assert_eq!(tb.table_files(), 70, "35 materials, WDL and DTZ");
        assert_eq!(tb.directories(), [dir.to_str().unwrap()]);
        assert_eq!(tb.cardinality(), 4);
        // The same directory twice is loaded once.
        let twice = format!("{0}{PATH_SEPARATOR}{0}", dir.display());
        let tb = Tablebases::load(&twice, TbConfig::default()).unwrap();
        assert_eq!(tb.table_files(), 70);
        let limited = tb.with_config(TbConfig {
            probe_limit: 3,
            ..TbConfig::default()
        });
        assert_eq!((limited.max_pieces(), limited.cardinality()), (4, 3));
    }

    #[test]
    fn known_results() {
        let Some(tb) = tables() else { return };
        for (fen, wdl) in [
            // KQvK: the queen wins, whoever moves.
            ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", Wdl::Win),
            ("8/8/8/8/8/2k5/8/KQ6 b - - 0 1", Wdl::Loss),
            // KQvK, black to move and stalemated.
            ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", Wdl::Draw),
            // KBvKB, KNvK: no mate possible.
            ("8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1", Wdl::Draw),
            ("8/8/8/4k3/8/8/8/KN6 b - - 0 1", Wdl::Draw),
            // KPvK: king in front of its pawn on the sixth wins...
            ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::Win),
            // ...the defender's king in front of the pawn with the opposition draws...
            ("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1", Wdl::Draw),
            // ...and the pawn about to promote wins.
            ("8/3KP3/8/8/8/8/8/k7 w - - 0 1", Wdl::Win),
            ("8/3KP3/8/8/8/8/8/k7 b - - 0 1", Wdl::Loss),
            // KRvK: mate in one (Ra8#).
            ("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", Wdl::Win),
        ] {
            assert_eq!(tb.probe_wdl(&pos(fen), 1), Some(wdl), "{fen}");
        }
        assert_eq!(tb.hits(), 10);
        tb.reset_hits();
        assert_eq!(tb.hits(), 0);
    }

    #[test]
    fn probes_only_where_the_rules_allow() {
        let Some(tb) = tables() else { return };
        // Halfmove clock not at 0: WDL tables would not be exact.
        assert_eq!(
            tb.probe_wdl(&pos("8/8/8/8/8/2k5/8/KQ6 w - - 7 40"), 5),
            None
        );
        // Five pieces: more than the tables hold.
        assert_eq!(
            tb.probe_wdl(&pos("8/8/8/8/8/2k5/8/KQ3RR1 w - - 0 1"), 5),
            None
        );
        // Castling rights: not in any table.
        assert_eq!(
            tb.probe_wdl(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), 5),
            None
        );
        // With as many pieces as the cardinality, only from SyzygyProbeDepth on;
        // with fewer, at any depth.
        let deep = tb.with_config(TbConfig {
            probe_depth: 6,
            ..TbConfig::default()
        });
        let four = pos("8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1");
        let three = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
        assert_eq!(deep.probe_wdl(&four, 5), None);
        assert_eq!(deep.probe_wdl(&four, 6), Some(Wdl::Draw));
        assert_eq!(deep.probe_wdl(&three, 1), Some(Wdl::Win));
        // SyzygyProbeLimit.
        let off = tb.with_config(TbConfig {
            probe_limit: 0,
            ..TbConfig::default()
        });
        assert_eq!(off.probe_wdl(&three, 50), None);
        let three_only = tb.with_config(TbConfig {
            probe_limit: 3,
            ..TbConfig::default()
        });
        assert_eq!(three_only.probe_wdl(&four, 50), None);
        assert_eq!(three_only.probe_wdl(&three, 1), Some(Wdl::Win));
    }

    #[test]
    fn wdl_scores_and_bounds() {
        use score::{TB_WIN_BOUND, is_mate, is_tb_score, tb_loss_in, tb_win_in};
        let s = |wdl, rule50| wdl_score(wdl, 7, rule50);
        for rule50 in [true, false] {
            assert_eq!(s(Wdl::Win, rule50).score, tb_win_in(7));
            assert_eq!(s(Wdl::Win, rule50).bound, Bound::Lower);
            assert_eq!(s(Wdl::Loss, rule50).score, tb_loss_in(7));
            assert_eq!(s(Wdl::Loss, rule50).bound, Bound::Upper);
            assert_eq!(s(Wdl::Draw, rule50).score, DRAW);
            assert_eq!(s(Wdl::Draw, rule50).bound, Bound::Exact);
        }
        // Under the 50-move rule, cursed wins and blessed losses are draws...
        assert_eq!(s(Wdl::CursedWin, true).score, CURSED_WIN);
        assert_eq!(s(Wdl::CursedWin, true).bound, Bound::Exact);
        assert_eq!(s(Wdl::BlessedLoss, true).score, -CURSED_WIN);
        assert_eq!(s(Wdl::BlessedLoss, true).bound, Bound::Exact);
        // ...without it, wins and losses.
        assert_eq!(s(Wdl::CursedWin, false), s(Wdl::Win, false));
        assert_eq!(s(Wdl::BlessedLoss, false), s(Wdl::Loss, false));
        // Centipawns for UCI, not mates; stored in the table relative to the node.
        let win = s(Wdl::Win, true).score;
        assert!(!is_mate(win) && is_tb_score(win) && win >= TB_WIN_BOUND);
        assert_eq!(score::from_tt(score::to_tt(win, 7), 7), win);
        assert_eq!(score::to_tt(win, 7), tb_win_in(0));
    }

    #[test]
    fn root_keeps_only_the_moves_that_keep_the_rook() {
        let Some(tb) = tables() else { return };
        // The black king attacks the rook: a king move or a rook move next to the
        // black king gives it away (a draw); every other rook move still wins.
        let p = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).expect("in the tables");
        assert!(probe.by_dtz);
        assert_eq!(probe.moves.len(), moves.len());
        assert_eq!(
            uci(probe.kept()),
            [
                "d4a4", "d4b4", "d4c4", "d4d1", "d4d5", "d4d6", "d4d7", "d4d8", "d4g4", "d4h4"
            ]
        );
        for m in probe.kept() {
            assert_eq!((m.wdl, m.score), (Wdl::Win, score::tb_win_in(1)));
        }
        for m in &probe.moves[probe.kept().len()..] {
            assert_eq!((m.wdl, m.score), (Wdl::Draw, DRAW), "{:?}", m.mv);
        }
        assert_eq!(tb.hits(), moves.len() as u64);
    }

    #[test]
    fn root_keeps_the_winning_pawn_endgame_moves() {
        let Some(tb) = tables() else { return };
        // Ke6 and Pe5 against Ke8: Kd6 and Kf6 keep the opposition and win;
        // stepping back to the fifth rank lets Black draw.
        let p = pos("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).unwrap();
        assert_eq!(uci(probe.kept()), ["e6d6", "e6f6"]);
        // Whatever is kept, each kept move's child is a loss for Black by WDL, and
        // no dropped move keeps a win.
        let check = |p: &Chess| {
            let moves: Vec<Move> = p.legal_moves().into_iter().collect();
            let probe = tb.probe_root(p, &moves, false).unwrap();
            for m in &probe.moves {
                let mut after = p.clone();
                after.play_unchecked(m.mv);
                let child = -tb.guarded(|t| t.probe_wdl_after_zeroing(&after)).unwrap();
                assert_eq!(child, m.wdl, "{:?} in {:?}", m.mv, p);
            }
            let best = probe.kept()[0].wdl;
            assert!(probe.moves.iter().all(|m| m.wdl <= best));
        };
        // Only positions straight after a zeroing move probe by WDL in the tree:
        // these all have their clock at 0.
        for fen in [
            "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
            "8/8/8/8/4k3/8/4P3/4K3 w - - 0 1",
            "8/8/8/8/4k3/8/4P3/4K3 b - - 0 1",
            "8/8/3b4/8/2k5/8/3B4/K7 w - - 0 1",
            "8/2k5/8/8/8/8/3P4/K7 b - - 0 1",
        ] {
            check(&pos(fen));
        }
    }

    #[test]
    fn late_in_the_fifty_moves_only_the_fastest_wins_are_kept() {
        let Some(tb) = tables() else { return };
        let fresh = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let late = pos("8/8/8/8/3R4/4k3/8/7K w - - 80 100");
        let moves: Vec<Move> = fresh.legal_moves().into_iter().collect();
        let fresh = tb.probe_root(&fresh, &moves, false).unwrap();
        let late = tb.probe_root(&late, &moves, false).unwrap();
        assert!(late.kept().len() < fresh.kept().len(), "{late:?}");
        let fresh_kept: Vec<Move> = fresh.kept().iter().map(|m| m.mv).collect();
        assert!(late.kept().iter().all(|m| fresh_kept.contains(&m.mv)));
        // After a repetition, too, progress is required.
        let repeated = tb
            .probe_root(&pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1"), &moves, true)
            .unwrap();
        assert!(repeated.kept().len() < fresh.kept().len());
        // Too late: every win is cursed. Under the rule, a draw that might be won...
        let too_late = pos("8/8/8/8/3R4/4k3/8/7K w - - 99 120");
        let cursed = tb.probe_root(&too_late, &moves, false).unwrap();
        assert!(cursed.kept().iter().all(|m| m.wdl == Wdl::CursedWin));
        assert!(cursed.kept().iter().all(|m| m.score == CURSED_WIN));
        // ...and without it, a win.
        let no_rule = tb.with_config(TbConfig {
            rule50: false,
            ..TbConfig::default()
        });
        let won = no_rule.probe_root(&too_late, &moves, false).unwrap();
        assert_eq!(uci(won.kept()), uci(cursed.kept()));
        assert!(won.kept().iter().all(|m| m.score == score::tb_win_in(1)));
    }

    #[test]
    fn root_ranks_by_wdl_without_dtz_tables() {
        let Some(dir) = tables_dir() else { return };
        let wdl_only = TempDir::new("wdl-only");
        for name in ["KRvK.rtbw", "KPvK.rtbw", "KRvKP.rtbw"] {
            std::fs::copy(dir.join(name), wdl_only.0.join(name)).unwrap();
        }
        let tb = Tablebases::load(wdl_only.path(), TbConfig::default()).unwrap();
        let p = pos("8/8/8/8/3R4/4k3/8/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        let probe = tb.probe_root(&p, &moves, false).unwrap();
        assert!(!probe.by_dtz);
        assert_eq!(
            uci(probe.kept()),
            [
                "d4a4", "d4b4", "d4c4", "d4d1", "d4d5", "d4d6", "d4d7", "d4d8", "d4g4", "d4h4"
            ]
        );
        // A position whose own table is missing: no answer.
        let p = pos("8/8/8/8/3r4/4k3/3R4/7K w - - 0 1");
        let moves: Vec<Move> = p.legal_moves().into_iter().collect();
        assert_eq!(tb.probe_root(&p, &moves, false), None);
        assert_eq!(tb.probe_wdl(&p, 1), None);
    }

    #[test]
    fn a_panic_of_the_prober_ends_probing_not_the_search() {
        let Some(tb) = tables() else { return };
        let p = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
        assert_eq!(tb.probe_wdl(&p, 1), Some(Wdl::Win));
        let answer: Option<()> = tb.guarded(|_| panic!("a prober bug (expected by this test)"));
        assert_eq!(answer, None);
        assert_eq!(tb.cardinality(), 0);
        assert_eq!(tb.probe_wdl(&p, 1), None);
        // Other options over the same tables: the same verdict.
        assert_eq!(tb.with_config(TbConfig::default()).probe_wdl(&p, 1), None);
    }

    /// Tiny seeded generator (splitmix64) for the corruption test.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    /// Legal positions with the given white and black pieces (besides the kings),
    /// placed at random.
    fn random_positions(rng: &mut Rng, white: &str, black: &str, n: usize) -> Vec<Chess> {
        let mut out = Vec::new();
        while out.len() < n {
            let mut board = [' '; 64];
            let pieces = format!("K{white}k{}", black.to_lowercase());
            for c in pieces.chars() {
                loop {
                    let sq = (rng.next() % 64) as usize;
                    let pawn_rank = c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
                    if board[sq] == ' ' && !pawn_rank {
                        board[sq] = c;
                        break;
                    }
                }
            }
            let mut fen = String::new();
            for rank in (0..8).rev() {
                let mut empty = 0;
                for file in 0..8 {
                    match board[rank * 8 + file] {
                        ' ' => empty += 1,
                        c => {
                            if empty > 0 {
                                fen.push_str(&empty.to_string());
                                empty = 0;
                            }
                            fen.push(c);
                        }
                    }
                }
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                }
                if rank > 0 {
                    fen.push('/');
                }
            }
            let turn = if rng.next() & 1 == 0 { "w" } else { "b" };
            fen.push_str(&format!(" {turn} - - 0 1"));
            let setup = Fen::from_ascii(fen.as_bytes()).unwrap();
            if let Ok(p) = setup.into_position(CastlingMode::Standard) {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn corrupt_tables_give_no_answer_and_no_panic() {
        let Some(dir) = tables_dir() else { return };
        let mut rng = Rng(0x5EED_7AB1E);
        let materials = [("Q", ""), ("R", ""), ("P", ""), ("R", "P"), ("B", "B")];
        let mut positions = Vec::new();
        for (white, black) in materials {
            positions.extend(random_positions(&mut rng, white, black, 40));
        }
        let mut answered = 0;
        for round in 0..12 {
            let bad = TempDir::new(&format!("corrupt-{round}"));
            for name in [
                "KQvK.rtbw",
                "KQvK.rtbz",
                "KRvK.rtbw",
                "KRvK.rtbz",
                "KPvK.rtbw",
                "KPvK.rtbz",
                "KRvKP.rtbw",
                "KRvKP.rtbz",
                "KBvKB.rtbw",
                "KBvKB.rtbz",
            ] {
                let mut bytes = std::fs::read(dir.join(name)).unwrap();
                if round == 0 {
                    // All random, even the magic number (the size stays valid).
                    bytes.iter_mut().for_each(|b| *b = rng.next() as u8);
                } else {
                    // A few bytes changed; from round 6 on, the header too.
                    let skip = if round < 6 { 16.min(bytes.len()) } else { 0 };
                    for _ in 0..round * 4 {
                        let i = skip + (rng.next() as usize) % (bytes.len() - skip);
                        bytes[i] = rng.next() as u8;
                    }
                }
                std::fs::write(bad.0.join(name), bytes).unwrap();
            }
            let tb = Tablebases::load(bad.path(), TbConfig::default()).unwrap();
            for p in &positions {
                let moves: Vec<Move> = p.legal_moves().into_iter().collect();
                answered += usize::from(tb.probe_wdl(p, 1).is_some());
                let _ = tb.probe_root(p, &moves, false);
            }
        }
        eprintln!("corrupt tables: {answered} probes answered");
    }
}
