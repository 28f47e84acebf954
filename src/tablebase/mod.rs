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
//!
//! # Files
//!
//! * `mod.rs` (here): the loaded tables, their options and hit count, and the guard
//!   that turns a failing probe into no answer;
//! * `paths.rs`: `SyzygyPath`: its directories and loading them;
//! * `tree.rs`: probes inside the search tree, and their scores and bounds;
//! * `root.rs`: the root moves ranked by DTZ or WDL.

mod paths;
mod root;
mod tree;

use crate::score::Score;
use shakmaty::Chess;
use shakmaty_syzygy::{SyzygyError, Tablebase};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use shakmaty_syzygy::Wdl;
pub use tree::wdl_score;

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

impl Tablebases {
    fn from_loaded(loaded: Loaded, config: TbConfig) -> Tablebases {
        Tablebases {
            loaded: Arc::new(loaded),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::{Move, Position};
    use std::path::PathBuf;

    /// The 3-4-piece tables: `TABAS_SYZYGY`, else `../shared/data/syzygy` beside
    /// the repository. `None`, with a message, where they are absent.
    pub(super) fn tables_dir() -> Option<PathBuf> {
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

    pub(super) fn tables() -> Option<Tablebases> {
        let dir = tables_dir()?;
        Some(Tablebases::load(dir.to_str().unwrap(), TbConfig::default()).unwrap())
    }

    /// A fresh directory under the system's temporary one, removed on drop.
    pub(super) struct TempDir(pub(super) PathBuf);

    impl TempDir {
        pub(super) fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!("tabas-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        pub(super) fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
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
