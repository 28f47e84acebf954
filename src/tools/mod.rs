//! The offline tools: programs that make and study what the engine is built from,
//! not part of the engine that plays. They are compiled with the cargo feature
//! `tools` (on by default); `make`, OpenBench's build, leaves them out. Each is one
//! subcommand of `tabas`:
//!
//! * `datagen/`: `tabas datagen`, self-play games from the engine's own search, and
//!   `tabas dataset`, what a data folder holds (its file format is in `format.rs`);
//! * `tune/`: `tabas tune`, fits the hand-written evaluation's weights to those games
//!   and writes a new `src/eval/weights.rs`;
//! * `train/`: `tabas train`, trains the network (NNUE) on those games and writes the
//!   net file `src/nnue/` loads;
//! * `import_pgn/`: `tabas import-pgn`, games played anywhere (OpenBench, fastchess,
//!   cutechess-cli PGNs) into a data folder, with Tabas's scores only;
//! * `wdl_fit.rs`: `tabas wdl-fit`, fits the win/draw/loss model of `src/wdl.rs`
//!   (`UCI_ShowWDL`) to those games and prints its constants;
//! * `lab/`: `tabas lab`, the alpha-beta laboratory: what each part of the search
//!   prunes, on small searches of its own; `tabas lab switches`, the engine's own
//!   search with each `Debug_` switch off; `tabas lab oracle`, the minimal tree of
//!   real positions;
//! * `filter.rs`: which recorded positions the tuner and the trainer learn from;
//! * `parallel.rs`: the tools' work spread over threads, with results that do not
//!   depend on how many.
//!
//! The tools use the engine (its search, evaluation, network, positions); nothing
//! in the engine uses them.

pub mod datagen;
pub mod filter;
pub mod import_pgn;
pub mod lab;
mod parallel;
pub mod train;
pub mod tune;
pub mod wdl_fit;
