//! Which recorded positions the tuner and the trainer learn from: the peers'
//! filters, each a setting of its own so that each can be measured alone (`tabas
//! train --min-ply N --keep-checks --keep-noisy --max-score CP`).
//!
//! The default keeps the *quiet* positions, those a static evaluation can be asked
//! to predict: none in check, none whose played move (the search's best) is a
//! capture or a promotion, none in the first `SKIP_PLIES` plies, none whose score is
//! `MAX_SCORE` or more. `tabas tune` uses the default; the trainer's validation
//! positions always pass it, whatever the training positions pass, so that the
//! validation losses of runs with different filters are measured on the same
//! positions.

use crate::score::MATE_BOUND;
use crate::tools::datagen::format::{Sample, UNSCORED};
use shakmaty::Position as _;

/// Recorded plies skipped at the start of each game: right after the random
/// opening the position is still shaped by random moves more than by play.
pub const SKIP_PLIES: usize = 8;
/// Positions whose search score (centipawns) is this large or larger are left
/// out: the game is decided there, and the evaluation has nothing to learn.
pub const MAX_SCORE: i32 = 2000;
const _: () = assert!(MAX_SCORE < MATE_BOUND, "mate scores must be filtered out");

/// A filter of recorded positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Plies of each game skipped at its start (right after the random opening
    /// the position is shaped by random moves more than by play).
    pub min_ply: usize,
    /// Keep positions whose side to move is in check (a static evaluation is
    /// rarely asked about them: the search extends or answers every check).
    pub keep_checks: bool,
    /// Keep positions whose best move is a capture or a promotion (their score
    /// is the exchange's outcome, which quiescence, not the evaluation, sees).
    pub keep_noisy: bool,
    /// Positions whose score's magnitude is this or more are left out (decided
    /// games; mate scores always are).
    pub max_score: i32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            min_ply: SKIP_PLIES,
            keep_checks: false,
            keep_noisy: false,
            max_score: MAX_SCORE,
        }
    }
}

/// The largest `--max-score`: below every mate score.
pub const MAX_MAX_SCORE: i32 = MATE_BOUND - 1;

impl Filter {
    /// Whether `sample`, the `ply`-th recorded position of its game, is kept.
    pub fn keeps(&self, sample: &Sample, ply: usize) -> bool {
        ply >= self.min_ply
            && (self.keep_checks || !sample.pos.is_check())
            && (self.keep_noisy || !(sample.played.is_capture() || sample.played.is_promotion()))
            && sample.white_score != UNSCORED
            && (sample.white_score as i32).abs() < self.max_score.min(MAX_MAX_SCORE)
    }

    /// The filter in the words of the command line (empty for the default).
    pub fn describe(&self) -> String {
        let d = Filter::default();
        let mut parts = Vec::new();
        if self.min_ply != d.min_ply {
            parts.push(format!("--min-ply {}", self.min_ply));
        }
        if self.keep_checks {
            parts.push("--keep-checks".to_string());
        }
        if self.keep_noisy {
            parts.push("--keep-noisy".to_string());
        }
        if self.max_score != d.max_score {
            parts.push(format!("--max-score {}", self.max_score));
        }
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::datagen::format::GameResult;
    use shakmaty::{CastlingMode, Chess, uci::UciMove};

    fn sample(fen: &str, played: &str, white_score: i16) -> Sample {
        let pos: Chess = crate::position::parse_fen(fen, CastlingMode::Standard).unwrap();
        let played = played.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        Sample {
            pos,
            played,
            white_score,
            result: GameResult::Draw,
        }
    }

    #[test]
    fn each_setting_lets_through_only_what_it_names() {
        let quiet = sample(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "f1b5",
            30,
        );
        let capture = sample(
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "e4d5",
            30,
        );
        let promotion = sample("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q", 30);
        let check = sample(
            "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
            "g7g6",
            -30,
        );
        let decided = sample(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "f1b5",
            -2500,
        );
        let (d, early, late) = (Filter::default(), 3, 20);
        // The default keeps quiet positions past the opening only.
        assert!(d.keeps(&quiet, late) && !d.keeps(&quiet, early));
        for s in [&capture, &promotion, &check, &decided] {
            assert!(!d.keeps(s, late));
        }

        let f = Filter { min_ply: 0, ..d };
        assert!(f.keeps(&quiet, early) && !f.keeps(&check, early));
        let f = Filter {
            keep_checks: true,
            ..d
        };
        assert!(f.keeps(&check, late) && !f.keeps(&capture, late));
        let f = Filter {
            keep_noisy: true,
            ..d
        };
        assert!(f.keeps(&capture, late) && f.keeps(&promotion, late));
        assert!(!f.keeps(&check, late));
        let f = Filter {
            max_score: 3000,
            ..d
        };
        assert!(f.keeps(&decided, late) && !f.keeps(&capture, late));
        // Mate scores stay out whatever --max-score says.
        let mate = sample(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "f1b5",
            MATE_BOUND as i16,
        );
        let f = Filter {
            max_score: i32::MAX,
            ..d
        };
        assert!(!f.keeps(&mate, late));
    }

    #[test]
    fn the_description_is_the_command_line() {
        assert_eq!(Filter::default().describe(), "");
        let f = Filter {
            min_ply: 0,
            keep_checks: true,
            keep_noisy: true,
            max_score: 3000,
        };
        assert_eq!(
            f.describe(),
            "--min-ply 0 --keep-checks --keep-noisy --max-score 3000"
        );
    }
}
