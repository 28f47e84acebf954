//! Tabas: a UCI chess engine built on alpha-beta pruning.
//!
//! Layers, top to bottom (no arrow runs back up):
//! `main` → `uci` → `engine` / `bench` / `lab` → `search` → `eval` / `perft` → `position` / `tt` / `time` / `score`.
//! `lab` (the alpha-beta laboratory) has its own small searches, side by side.
//! Chess rules (move generation, FEN, UCI notation, Chess960) come from `shakmaty`.

pub mod bench;
pub mod engine;
pub mod eval;
pub mod lab;
pub mod perft;
pub mod position;
pub mod score;
pub mod search;
pub mod text;
pub mod time;
pub mod tt;
pub mod uci;
