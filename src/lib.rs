//! Tabas: a UCI chess engine built on alpha-beta pruning.
//!
//! The engine's layers, top to bottom (an import only runs down a layer or more: no
//! arrow back up, no circle, as the structure of the imports shows):
//! `main` → `uci` (and the offline `tools`) → `engine` / `bench` → `search` / `genfens`
//! → `position` (a board with its key and its evaluation) / `time` → `eval` /
//! `tablebase` / `params` (every tunable number, the search's and the time manager's)
//! → `nnue` / `tt` / `wdl` → `score`, `perft`, `packed_move`, `special_moves`, `rng`,
//! `args`, `cpu`, `text`. (Tests may reach any layer.)
//! `wdl` (score → win/draw/loss chances, for `uci`) holds the model that `tabas wdl-fit` fits.
//! `genfens` (OpenBench's opening generator, a UCI command of `uci`) draws with the seeded generator `rng`, which the tools share.
//! `packed_move` is a move in 16 bits, as the table and the self-play data files store it.
//! `special_moves` holds the rules of en passant and castling that `position`'s check test, `nnue`'s update and `search`'s static exchange share.
//! `args` reads the numbers of command lines (`genfens`, the tools).
//! `cpu` says whether the CPU has the instructions a level build (`make levels`) was compiled for.
//! Chess rules (FEN, UCI notation, the root's moves, Chess960 castling) come from
//! `shakmaty`; the search decides the legality of the moves it generates itself
//! (`search::legality`, proved against shakmaty's). Syzygy tablebase probing comes from
//! `shakmaty-syzygy`.
//!
//! The offline tools sit apart in `tools` (cargo feature `tools`, on by default), above
//! the engine: they use it, it never uses them. `datagen` plays the self-play games
//! that `tune` (the evaluation's weights, through `eval`'s traces), `train` (the
//! network) and `wdl_fit` (the `wdl` model) fit; `lab` (the alpha-beta laboratory) has
//! its own small searches, side by side. See `src/tools/mod.rs`.

// Public: what `main.rs` and `tests/` use (and `search`, the tools). The rest is
// private, so that the compiler reports what nothing uses.
mod args;
pub mod bench;
pub mod cpu;
mod engine;
mod eval;
pub mod genfens;
pub mod nnue;
pub(crate) mod packed_move;
pub mod params;
pub mod perft;
pub mod position;
pub(crate) mod rng;
pub mod score;
pub mod search;
pub(crate) mod special_moves;
mod tablebase;
mod text;
mod time;
#[cfg(feature = "tools")]
pub mod tools;
mod tt;
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
