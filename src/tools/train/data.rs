//! The trainer's data: quiet positions of `tabas datagen` games, packed in 32
//! bytes each (1–5 million of them must fit in memory; dense feature vectors would
//! take 768 floats a perspective), and the network's input features, computed
//! from a packed position on the fly.
//!
//! Positions are filtered by `tools::filter::Filter` (by default as the Texel tuner
//! filters them; validation positions always so). They
//! are split into training and validation **by game**: the positions of one
//! game are alike, so a game on both sides of the split would make the validation
//! loss look better than the network is.

use crate::nnue::{InputLayout, SCALE, feature, feature_from_codes, mirror_feature};
use crate::rng::Rng;
use crate::tools::datagen::format::{GameRecord, GameResult};
use crate::tools::filter::Filter;
use crate::tools::parallel::in_chunks;
use shakmaty::{Chess, Color, Position as _};

/// The expected result (0 to 1) of a score in the network's output unit (`SCALE`
/// centipawns): the map from scores to results of the loss and the targets.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A legal position has at most 32 pieces (16 a side).
pub const MAX_PIECES: usize = 32;
/// One game in this many goes to the validation set.
pub const VALIDATION_EVERY: u64 = 20;
/// The seeded generator's streams (the self-play games use the small numbers).
const SPLIT_STREAM: u64 = u64::MAX - 1;
const ORDER_STREAM: u64 = u64::MAX - 2;

/// The active features of `pos` from the side to move's and the other side's
/// perspective, in the board's square order, as a net of `layout` reads them.
pub fn features_of(pos: &Chess, layout: InputLayout) -> (Vec<u16>, Vec<u16>) {
    let us = pos.turn();
    let board = pos.board();
    let mirrored = |side: Color| layout.mirrors(board.king_of(side));
    let (ours, theirs) = (mirrored(us), mirrored(!us));
    board
        .iter()
        .map(|(square, piece)| {
            (
                feature(us, piece, square, ours) as u16,
                feature(!us, piece, square, theirs) as u16,
            )
        })
        .unzip()
}

/// One training position in 32 bytes: the board, the search's score and the game's
/// result, both from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The occupied squares (bit `s` = square `s`).
    occupied: u64,
    /// The piece on each occupied square, in square order, a nibble each:
    /// bit 3 set for Black, bits 0–2 the role (1 = pawn … 6 = king).
    pieces: [u8; MAX_PIECES / 2],
    /// The search's score, centipawns, side to move's view.
    score: i16,
    /// 0: the side to move lost, 1: a draw, 2: it won.
    result: u8,
    black_to_move: bool,
    /// No side may castle: the position mirrored left to right (files a↔h) is as
    /// good a position with the same score ([`Packed::mirrored`]).
    mirrorable: bool,
}

impl Packed {
    /// Packs `pos` with its score and result (White's view, as the data stores
    /// them); `None` for a board of more than `MAX_PIECES` pieces.
    pub fn new(pos: &Chess, white_score: i16, result: GameResult) -> Option<Packed> {
        let board = pos.board();
        if board.occupied().count() > MAX_PIECES {
            return None;
        }
        let mut pieces = [0u8; MAX_PIECES / 2];
        for (i, (_, piece)) in board.iter().enumerate() {
            let code = (piece.color == Color::Black) as u8 * 8 + piece.role as u8;
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        let black_to_move = pos.turn() == Color::Black;
        let white_result = result as u8; // 0 Black won, 1 draw, 2 White won
        Some(Packed {
            occupied: board.occupied().0,
            pieces,
            score: if black_to_move {
                white_score.saturating_neg()
            } else {
                white_score
            },
            result: if black_to_move {
                2 - white_result
            } else {
                white_result
            },
            black_to_move,
            mirrorable: !pos.castles().any(),
        })
    }

    /// Whether [`Packed::mirrored`] is this position's equal (no castling rights).
    pub fn mirrorable(&self) -> bool {
        self.mirrorable
    }

    /// This position mirrored left to right: every piece on the same rank, file a↔h.
    /// Chess without castling is symmetric so, and the side to move's score and result
    /// stay; a position with castling rights is not (use only if `mirrorable`).
    pub fn mirrored(&self) -> Packed {
        let mut by_square = [0u8; 64];
        let mut occupied = self.occupied;
        let mut mirrored_occupied = 0u64;
        let mut i = 0;
        while occupied != 0 {
            let square = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 0xf;
            by_square[square ^ 7] = code;
            mirrored_occupied |= 1 << (square ^ 7);
            i += 1;
        }
        let mut pieces = [0u8; MAX_PIECES / 2];
        let mut rest = mirrored_occupied;
        let mut i = 0;
        while rest != 0 {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            pieces[i / 2] |= by_square[square] << (4 * (i % 2));
            i += 1;
        }
        Packed {
            occupied: mirrored_occupied,
            pieces,
            ..*self
        }
    }

    /// Writes the active features of the side to move's and the other side's
    /// perspective, as a net of `layout` reads them, into `ours` and `theirs`;
    /// returns how many there are.
    #[inline]
    pub fn features(
        &self,
        layout: InputLayout,
        ours: &mut [u16; MAX_PIECES],
        theirs: &mut [u16; MAX_PIECES],
    ) -> usize {
        let mut occupied = self.occupied;
        let mut i = 0;
        // Each colour's king's square (White's, Black's).
        let mut kings = [None; 2];
        while occupied != 0 && i < MAX_PIECES {
            let square = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) as usize & 0xf;
            let (black_piece, role) = (code & 8 != 0, code & 7);
            if role == shakmaty::Role::King as usize {
                kings[black_piece as usize] = shakmaty::Square::try_from(square).ok();
            }
            ours[i] = feature_from_codes(self.black_to_move, black_piece, role, square) as u16;
            theirs[i] = feature_from_codes(!self.black_to_move, black_piece, role, square) as u16;
            i += 1;
        }
        // A mirrored view: every feature's file turned (the features' low 3 bits).
        let (us, them) = (self.black_to_move as usize, !self.black_to_move as usize);
        for (features, king) in [(&mut *ours, kings[us]), (&mut *theirs, kings[them])] {
            if layout.mirrors(king) {
                for f in &mut features[..i] {
                    *f = mirror_feature(*f as usize, true) as u16;
                }
            }
        }
        i
    }

    /// What the network's prediction is compared with: `lambda` × the game's
    /// result + (1 − `lambda`) × the search score's expected result.
    #[inline]
    pub fn target(&self, lambda: f32) -> f32 {
        let result = self.result as f32 / 2.0;
        let expected = sigmoid(self.score as f32 / SCALE as f32);
        lambda * result + (1.0 - lambda) * expected
    }
}

/// Appends the mirrored copy ([`Packed::mirrored`]) of every position of `training`
/// that has one (no castling rights); returns how many were added. The copies are
/// other inputs with the same targets: more positions from the same games, for a
/// net that would otherwise have to learn the board's left-right symmetry from data.
pub fn add_mirrored(training: &mut Vec<Packed>) -> usize {
    let before = training.len();
    for i in 0..before {
        if training[i].mirrorable {
            let copy = training[i].mirrored();
            training.push(copy);
        }
    }
    training.len() - before
}

/// What loading found, for the trainer's report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: usize,
    pub positions: usize,
    /// Positions that pass the filter, before `max_positions`.
    pub quiet: usize,
    pub validation_games: usize,
}

/// Training and validation positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub training: Vec<Packed>,
    pub validation: Vec<Packed>,
    pub counts: Counts,
}

/// The positions of `games` that pass the filter, packed and split by game: one
/// game in `VALIDATION_EVERY` for validation (a draw seeded by `seed` and the game's
/// own content, [`GameRecord::fingerprint`]: a game is held out or not whatever
/// other games the data holds and in whatever order, so that nets trained on two
/// snapshots of a growing folder validate on the same games), its positions
/// filtered by the default filter whatever `filter` is. At most `max_positions` to
/// train on, taken game by game in a seeded order of the games, so that a cap picks
/// whole games from all the data; the held-out games are all kept whatever the cap,
/// so that runs on less data validate on the same positions. `threads` replay games
/// at once; the result does not depend on their number.
pub fn split(
    games: &[GameRecord],
    max_positions: usize,
    seed: u64,
    threads: usize,
    filter: &Filter,
) -> Result<Split, String> {
    let validation_game: Vec<bool> = games
        .iter()
        .map(|g| Rng::new(seed ^ SPLIT_STREAM, g.fingerprint()).below(VALIDATION_EVERY) == 0)
        .collect();
    let mut order: Vec<usize> = (0..games.len()).collect();
    let mut shuffler = Rng::new(seed, ORDER_STREAM);
    for i in (1..order.len()).rev() {
        order.swap(i, shuffler.below(i as u64 + 1) as usize);
    }

    let packed = in_chunks(&order, threads, |_, part| {
        part.iter()
            .map(|&g| {
                let f = if validation_game[g] {
                    Filter::default()
                } else {
                    *filter
                };
                pack_game(&games[g], &f)
                    .map(|positions| (g, positions))
                    .map_err(|e| format!("game {g}: {e}"))
            })
            .collect::<Result<Vec<_>, String>>()
    });
    let mut out = Split::default();
    out.counts.games = games.len();
    out.counts.positions = games.iter().map(|g| g.plies.len()).sum();
    for part in packed {
        for (g, positions) in part? {
            out.counts.quiet += positions.len();
            if validation_game[g] {
                if !positions.is_empty() {
                    out.counts.validation_games += 1;
                    out.validation.extend_from_slice(&positions);
                }
            } else {
                let room = max_positions.saturating_sub(out.training.len());
                out.training
                    .extend_from_slice(&positions[..positions.len().min(room)]);
            }
        }
    }
    Ok(out)
}

/// The positions of one game that pass `filter`, packed.
fn pack_game(game: &GameRecord, filter: &Filter) -> Result<Vec<Packed>, String> {
    Ok(game
        .samples()?
        .iter()
        .enumerate()
        .filter(|(ply, sample)| filter.keeps(sample, *ply))
        .filter_map(|(_, s)| Packed::new(&s.pos, s.white_score, s.result))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed_move::pack_move;
    use crate::position::pos;
    use crate::tools::datagen::format::Ply;
    use crate::tools::filter::SKIP_PLIES;

    #[test]
    fn a_packed_position_keeps_its_features_score_and_result() {
        for (fen, white_score, result, score, outcome) in [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                35,
                GameResult::WhiteWon,
                35,
                2,
            ),
            (
                "8/5k2/8/3p4/8/2K5/8/8 b - - 0 1",
                -120,
                GameResult::WhiteWon,
                120,
                0,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                i16::MIN,
                GameResult::Draw,
                i16::MAX,
                1,
            ),
        ] {
            let p = pos(fen);
            let packed = Packed::new(&p, white_score, result).unwrap();
            assert_eq!((packed.score, packed.result), (score, outcome), "{fen}");
            // (Kings on e1 and e8, on c3 and f7, on e1 and e8: mirrored views.)
            for layout in InputLayout::ALL {
                let (mut ours, mut theirs) = ([0; MAX_PIECES], [0; MAX_PIECES]);
                let n = packed.features(layout, &mut ours, &mut theirs);
                let (expected_ours, expected_theirs) = features_of(&p, layout);
                assert_eq!(ours[..n], expected_ours[..], "{fen}");
                assert_eq!(theirs[..n], expected_theirs[..], "{fen}");
            }
        }
        assert_eq!(std::mem::size_of::<Packed>(), 32);
        // λ = 1: the result alone; λ = 0: the score alone (0 cp = ½).
        let start = Packed::new(&Chess::default(), 0, GameResult::BlackWon).unwrap();
        assert_eq!(start.target(1.0), 0.0);
        assert_eq!(start.target(0.0), 0.5);
        assert_eq!(start.target(0.5), 0.25);
    }

    #[test]
    fn a_mirrored_position_is_the_mirror_images_packing() {
        // (FEN, its mirror image: each rank's squares reversed.)
        for (fen, mirror) in [
            (
                "r4rk1/pp1q1ppp/2n1bn2/3p4/3P4/2NB1N2/PP1Q1PPP/R4RK1 w - - 4 12",
                "1kr4r/ppp1q1pp/2nb1n2/4p3/4P3/2N1BN2/PPP1Q1PP/1KR4R w - - 4 12",
            ),
            (
                "8/5k2/5p2/8/8/5P2/3R1K2/r7 b - - 0 41",
                "8/2k5/2p5/8/8/2P5/2K1R3/7r b - - 0 41",
            ),
        ] {
            let packed = Packed::new(&pos(fen), 57, GameResult::WhiteWon).unwrap();
            let image = Packed::new(&pos(mirror), 57, GameResult::WhiteWon).unwrap();
            assert!(packed.mirrorable());
            assert_eq!(packed.mirrored(), image, "{fen}");
            assert_eq!(packed.mirrored().mirrored(), packed);
        }
        // Castling rights: no mirror copy.
        let start = Packed::new(&Chess::default(), 0, GameResult::Draw).unwrap();
        assert!(!start.mirrorable());
        let late = pos("8/5k2/5p2/8/8/5P2/3R1K2/r7 b - - 0 41");
        let mut training = vec![start, Packed::new(&late, -20, GameResult::Draw).unwrap()];
        assert_eq!(add_mirrored(&mut training), 1);
        assert_eq!(training.len(), 3);
        assert_eq!(training[2], training[1].mirrored());
    }

    /// A game of `plies` quiet knight moves with White's score `score`.
    fn knight_shuffle(plies: usize, score: i16) -> GameRecord {
        const CYCLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut p = Chess::default();
        let mut record = Vec::new();
        for ply in 0..plies {
            let m = CYCLE[ply % 4]
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&p)
                .unwrap();
            record.push(Ply {
                packed_move: pack_move(m),
                white_score: score,
            });
            p.play_unchecked(m);
        }
        GameRecord {
            start: Chess::default(),
            chess960: false,
            result: GameResult::WhiteWon,
            plies: record,
        }
    }

    /// 100 games of 10 quiet positions each past `SKIP_PLIES`, game `i` scored `i`.
    fn hundred_games() -> Vec<GameRecord> {
        (0..100)
            .map(|i| knight_shuffle(SKIP_PLIES + 10, i as i16))
            .collect()
    }

    #[test]
    fn the_split_is_by_game_seeded_capped_and_independent_of_threads() {
        let games = hundred_games();
        let all = split(&games, usize::MAX, 3, 1, &Filter::default()).unwrap();
        assert_eq!(all.counts.games, 100);
        assert_eq!(all.counts.quiet, 1000);
        assert_eq!(all.training.len() + all.validation.len(), 1000);
        assert_eq!(all.validation.len(), 10 * all.counts.validation_games);
        assert!(
            (1..=12).contains(&all.counts.validation_games),
            "{:?}",
            all.counts
        );
        // By game: a game's score (its number here) is on one side only.
        let scores = |set: &[Packed]| -> Vec<i16> {
            set.iter()
                .map(|p| if p.black_to_move { -p.score } else { p.score })
                .collect()
        };
        let (t, v) = (scores(&all.training), scores(&all.validation));
        assert!(v.iter().all(|s| !t.contains(s)));

        assert_eq!(
            split(&games, usize::MAX, 3, 3, &Filter::default()).unwrap(),
            all
        );
        assert_ne!(
            split(&games, usize::MAX, 4, 1, &Filter::default()).unwrap(),
            all
        );
        // The cap is on the training positions: runs on less data validate on the same
        // positions.
        let capped = split(&games, 255, 3, 2, &Filter::default()).unwrap();
        assert_eq!(capped.training.len(), 255);
        assert_eq!(capped.validation, all.validation);
        assert_eq!(capped.counts.quiet, 1000);

        // The held-out games are the same ones when the data grows and comes in
        // another order (a folder's files grow side by side as datagen goes on).
        let mut grown: Vec<GameRecord> = (100..160)
            .map(|i| knight_shuffle(SKIP_PLIES + 10, i as i16))
            .collect();
        grown.extend(games.iter().rev().cloned());
        let grown = split(&grown, usize::MAX, 3, 2, &Filter::default()).unwrap();
        let mut held: Vec<i16> = scores(&grown.validation);
        held.retain(|s| *s < 100);
        let mut before = v.clone();
        held.sort();
        before.sort();
        assert_eq!(held, before);

        // A move that is not legal: an error naming the game, not a panic.
        let mut bad = games[..3].to_vec();
        bad[1].plies[4].packed_move = 0xfff;
        let e = split(&bad, usize::MAX, 1, 2, &Filter::default()).unwrap_err();
        assert!(e.starts_with("game 1: "), "{e}");
    }

    #[test]
    fn a_filter_changes_the_training_positions_only() {
        let games = hundred_games();
        let default = split(&games, usize::MAX, 3, 1, &Filter::default()).unwrap();
        let all_plies = Filter {
            min_ply: 0,
            ..Filter::default()
        };
        let wider = split(&games, usize::MAX, 3, 2, &all_plies).unwrap();
        assert_eq!(wider.validation, default.validation);
        let training_games = 100 - default.counts.validation_games;
        assert_eq!(default.training.len(), 10 * training_games);
        assert_eq!(wider.training.len(), (SKIP_PLIES + 10) * training_games);
    }
}
