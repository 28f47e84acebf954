//! Tabas: a UCI chess engine built on alpha-beta pruning.
//!
//! Layers, top to bottom (no arrow runs back up):
//! `main` → `uci` → `engine` / `bench` / `lab` / `datagen` / `tune` / `train` → `search` → `perft` / `tablebase` → `position` (a board with its key and its evaluation) → `eval` / `nnue` → `tt` / `time` / `score`.
//! `wdl` (score → win/draw/loss chances, for `uci`) is fitted to `datagen`'s games by its `wdl::fit`.
//! `tune` fits the evaluation's weights to `datagen`'s games, through `eval`'s traces.
//! `train` fits a network (NNUE) to `datagen`'s games and writes the net file the engine loads.
//! `genfens` (OpenBench's opening generator, a UCI command of `uci`) draws with the seeded generator `rng` that `datagen` and the tools share.
//! `parallel` spreads the tools' work over threads with results independent of their number.
//! `cpu` says whether the CPU has the instructions a level build (`make levels`) was compiled for.
//! `lab` (the alpha-beta laboratory) has its own small searches, side by side.
//! Chess rules (move generation, FEN, UCI notation, Chess960) come from `shakmaty`,
//! Syzygy tablebase probing from `shakmaty-syzygy`.

// Public: what `main.rs` and `tests/` use (and `search`, `lab`). The rest is
// private, so that the compiler reports what nothing uses.
mod args;
pub mod bench;
pub mod cpu;
pub mod datagen;
mod engine;
mod eval;
pub mod genfens;
pub mod lab;
pub mod nnue;
mod parallel;
pub mod perft;
pub mod position;
pub(crate) mod rng;
pub mod score;
pub mod search;
mod tablebase;
mod text;
mod time;
pub mod train;
mod tt;
pub mod tune;
pub mod uci;
pub mod wdl;

/// The version `id name`, `tabas --version` and datagen manifests show: the crate's
/// version, and for a development build (a git checkout not at the release's tag, see
/// `build.rs`) the commit: `0.1.0-dev-1a2b3c4`. A build without git is plain `0.1.0`.
pub fn version() -> String {
    let release = env!("CARGO_PKG_VERSION");
    match option_env!("TABAS_COMMIT") {
        Some(commit) if !commit.is_empty() => format!("{release}-dev-{commit}"),
        _ => release.to_string(),
    }
}
