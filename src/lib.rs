//! Tabas: a UCI chess engine built on alpha-beta pruning.
//!
//! Layers, top to bottom (no arrow runs back up):
//! `main` → `uci` → `engine` / `bench` → `search` → `eval` / `perft` → `position` / `tt` / `time` / `score`.
//! Chess rules (move generation, FEN, UCI notation, Chess960) come from `shakmaty`.

pub mod bench;
pub mod engine;
pub mod eval;
pub mod perft;
pub mod position;
pub mod score;
pub mod search;
pub mod text;
pub mod time;
pub mod tt;
pub mod uci;
