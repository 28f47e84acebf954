//! One self-play game: a random opening, then Tabas against itself within a node
//! budget a move, every position recorded with its score. A game depends only on
//! the run's seed, its own number and the settings, never on timing or threads (nor
//! on the games a `Player` played before: its table and searcher start afresh).

use super::format::{GameRecord, GameResult, Ply};
use crate::packed_move::pack_move;
use crate::position::Board;
use crate::rng::Rng;
use crate::score::Score;
use crate::search::{Control, Limits, SearchConfig, Searcher, SharedContext, ThreadData};
use crate::tt::TranspositionTable;
use shakmaty::{Board as Placement, CastlingMode, Chess, Color, Position, Setup};

/// Random plies played from the start position before recording: this many...
const OPENING_MIN_PLIES: u64 = 8;
/// ...or one more (so that both sides start games).
const OPENING_EXTRA_PLIES: u64 = 1;
/// An opening whose short search says one side is ahead by more than this is drawn again.
const OPENING_MAX_SCORE: Score = 300;
/// Win adjudication: both sides' searches agree on at least this score...
const WIN_SCORE: Score = 1000;
/// ...for this many plies in a row.
const WIN_PLIES: usize = 6;
/// Draw adjudication: after this many plies...
const DRAW_AFTER_PLIES: usize = 80;
/// ...the score stays within ±this...
const DRAW_SCORE: Score = 10;
/// ...for this many plies in a row.
const DRAW_PLIES: usize = 12;
/// A game this long is a draw (a safety net: the fifty-move rule ends games first).
const MAX_GAME_PLIES: usize = 600;

/// How each move is searched and how games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// No new iteration starts after this many nodes.
    pub soft_nodes: u64,
    /// The search stops at this many nodes, inside an iteration if need be.
    pub hard_nodes: u64,
    /// Games start from random Chess960 positions instead of the standard one.
    pub chess960: bool,
    /// The histories (and counter moves, corrections) live through a game, cleared
    /// only when it starts, as a game's searches would keep them; otherwise each move
    /// starts from fresh tables.
    pub keep_histories: bool,
    /// The soft limit scales after each iteration as a clock's would (stable best
    /// move: sooner; falling score or a contested best move: later), up to the hard
    /// limit; otherwise it is `soft_nodes` for every move.
    pub managed_nodes: bool,
}

/// What one self-play thread keeps for all its games, allocated once: the table
/// (cleared at each game) and the searcher's tables (cleared at each move, as a new
/// searcher's are fresh; allocating them per move cost more than the clearing; with
/// `keep_histories`, at each game).
pub struct Player {
    tt: TranspositionTable,
    /// The searcher's thread data (cleared before each move).
    thread: Box<ThreadData>,
    /// The keys of the game's positions so far.
    keys: Vec<u64>,
}

impl Player {
    /// A player with a table of `hash_mb` MB (`None`: no memory for it).
    pub fn new(hash_mb: usize) -> Option<Player> {
        Some(Player {
            tt: TranspositionTable::new(hash_mb)?,
            thread: Box::default(),
            keys: Vec::new(),
        })
    }

    /// Plays game number `index` of the run seeded with `seed`.
    pub fn play_game(&mut self, seed: u64, index: u64, settings: &Settings) -> GameRecord {
        let mut rng = Rng::new(seed, index);
        self.tt.clear();
        // Under `keep_histories` the opening draws search as the game's moves do: they
        // must not see the last game's histories, nor the game theirs (the clear below).
        self.thread.clear();
        let start = loop {
            if let Some(pos) = random_opening(&mut rng, settings.chess960)
                && self.search(&Board::new(pos.clone()), &[], settings).1.abs() <= OPENING_MAX_SCORE
            {
                break pos;
            }
        };
        self.thread.clear();

        // Taken for the game (`search` borrows `self`), given back at the end.
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let record = self.play_from(start, &mut keys, settings);
        self.keys = keys;
        record
    }

    /// The game from `start` (`keys`: empty, filled as it goes).
    fn play_from(&mut self, start: Chess, keys: &mut Vec<u64>, settings: &Settings) -> GameRecord {
        let mut board = Board::new(start.clone());
        let mut plies = Vec::new();
        let mut win_streak = 0;
        let mut draw_streak = 0;
        let result = loop {
            if let Some(result) = game_over(&board, keys, plies.len()) {
                break result;
            }
            let (best, score) = self.search(&board, keys, settings);
            let Some(best) = best else {
                unreachable!("a position that is not over has a legal move")
            };
            let white_score = if board.turn() == Color::White {
                score
            } else {
                -score
            };
            plies.push(Ply {
                packed_move: pack_move(best),
                white_score: white_score.clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            });

            // Adjudication: a clear win (both sides see it) or a dead draw ends the game.
            win_streak = if white_score.abs() >= WIN_SCORE {
                win_streak + 1
            } else {
                0
            };
            draw_streak = if white_score.abs() <= DRAW_SCORE {
                draw_streak + 1
            } else {
                0
            };
            if win_streak >= WIN_PLIES && same_sign(&plies[plies.len() - WIN_PLIES..]) {
                break if white_score > 0 {
                    GameResult::WhiteWon
                } else {
                    GameResult::BlackWon
                };
            }
            if plies.len() >= DRAW_AFTER_PLIES && draw_streak >= DRAW_PLIES {
                break GameResult::Draw;
            }

            keys.push(board.key());
            board = board.play(best);
        };
        GameRecord {
            start,
            chess960: settings.chess960,
            result,
            plies,
        }
    }

    /// The best move and its score (side to move's view) at the settings' node limits,
    /// by a searcher with fresh tables (the player's, cleared), or with the game's
    /// histories under `keep_histories`.
    fn search(
        &mut self,
        board: &Board,
        keys: &[u64],
        settings: &Settings,
    ) -> (Option<shakmaty::Move>, Score) {
        let control = Control::new(false);
        let limits = Limits {
            nodes: Some(settings.hard_nodes),
            soft_nodes: Some(settings.soft_nodes),
            managed_soft_nodes: settings.managed_nodes,
            ..Limits::default()
        };
        if settings.keep_histories {
            self.thread.clear_but_histories();
        } else {
            self.thread.clear();
        }
        let shared = SharedContext::alone(&self.tt, &control);
        let config = SearchConfig::default();
        let mut searcher = Searcher::new(shared, &mut self.thread, config, limits, 0);
        let result = searcher.search(board, keys, &mut |_| {});
        (result.best, result.score)
    }
}

/// The start position plus 8 or 9 random legal plies; `None` if the game ended on the way.
fn random_opening(rng: &mut Rng, chess960: bool) -> Option<Chess> {
    let mut pos = if chess960 {
        let mut setup = Setup::initial();
        setup.board = Placement::chess960(rng.below(960) as u32);
        setup.castling_rights = setup.board.rooks();
        setup.position::<Chess>(CastlingMode::Chess960).ok()?
    } else {
        Chess::default()
    };
    let plies = OPENING_MIN_PLIES + rng.below(OPENING_EXTRA_PLIES + 1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// The result if the game is over by the rules (mate, stalemate, too little material,
/// fifty moves, threefold repetition) or by the length cap.
fn game_over(board: &Board, keys: &[u64], plies: usize) -> Option<GameResult> {
    let pos = board.chess();
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            match pos.turn() {
                Color::White => GameResult::BlackWon,
                Color::Black => GameResult::WhiteWon,
            }
        } else {
            GameResult::Draw
        });
    }
    let repetitions = keys.iter().filter(|&&k| k == board.key()).count();
    if pos.is_insufficient_material()
        || pos.halfmoves() >= 100
        || repetitions >= 2
        || plies >= MAX_GAME_PLIES
    {
        return Some(GameResult::Draw);
    }
    None
}

fn same_sign(plies: &[Ply]) -> bool {
    plies.iter().all(|p| p.white_score > 0) || plies.iter().all(|p| p.white_score < 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: Settings = Settings {
        soft_nodes: 300,
        hard_nodes: 2000,
        chess960: false,
        keep_histories: false,
        managed_nodes: false,
    };

    #[test]
    fn a_game_is_legal_finished_and_reproducible() {
        let mut player = Player::new(1).unwrap();
        let a = player.play_game(11, 0, &FAST);
        let b = player.play_game(11, 0, &FAST);
        assert_eq!(a, b, "same seed and number, same game");
        let samples = a.samples().expect("every move legal");
        assert!(!samples.is_empty());
        let other = player.play_game(11, 1, &FAST);
        assert_ne!(a, other, "another number, another game");
        // Nothing of the games before carries over: a new player plays the same games.
        assert_eq!(Player::new(1).unwrap().play_game(11, 1, &FAST), other);
        assert_eq!(player.play_game(11, 0, &FAST), a);
        // The recorded start is 8 or 9 plies in: Black or White to move.
        let fullmoves = a.start.fullmoves().get();
        assert_eq!(fullmoves, 5, "8 plies: White to move, 9: Black");
    }

    /// Game 0 of seed 11 under `settings`: legal; the same after another game and from
    /// a new player (nothing crosses a game's start); from the same opening as under
    /// the defaults (the opening draws search with fresh tables and the fixed limit),
    /// but not the same game, so the setting does act.
    fn plays_its_own_reproducible_games(settings: &Settings) {
        let mut player = Player::new(1).unwrap();
        let a = player.play_game(11, 0, settings);
        a.samples().expect("every move legal");
        player.play_game(11, 1, settings);
        assert_eq!(player.play_game(11, 0, settings), a);
        assert_eq!(Player::new(1).unwrap().play_game(11, 0, settings), a);
        let defaults = player.play_game(11, 0, &FAST);
        assert_eq!(defaults.start, a.start);
        assert_ne!(defaults.plies, a.plies);
    }

    #[test]
    fn kept_histories_stay_within_a_game() {
        plays_its_own_reproducible_games(&Settings {
            keep_histories: true,
            ..FAST
        });
    }

    #[test]
    fn a_managed_node_limit_plays_other_games() {
        plays_its_own_reproducible_games(&Settings {
            managed_nodes: true,
            ..FAST
        });
    }

    #[test]
    fn chess960_games_start_from_chess960_positions() {
        let settings = Settings {
            chess960: true,
            ..FAST
        };
        let g = Player::new(1).unwrap().play_game(5, 2, &settings);
        assert!(g.chess960);
        g.samples().expect("every move legal");
    }

    #[test]
    fn adjudication_needs_both_sides_to_agree() {
        let p = |s| Ply {
            packed_move: 0,
            white_score: s,
        };
        assert!(same_sign(&[p(1200), p(1100), p(1500)]));
        assert!(!same_sign(&[p(1200), p(-1100), p(1500)]));
    }
}
