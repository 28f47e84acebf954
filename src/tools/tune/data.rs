//! The tuner's data: quiet positions from `tabas datagen` folders, each kept as
//! its evaluation trace (sparse: the weights it uses and how often), its phase,
//! the search's score and the game's result.
//!
//! A position is kept when it is *quiet* (`tools::filter`'s default filter), so
//! that the static evaluation can be asked to predict it. A seeded shuffle picks at
//! most the positions asked for and sets a share of them aside for validation.

use crate::eval::{Trace, trace};
use crate::rng::Rng;
use crate::tools::datagen::format::{GameRecord, Sample};
use crate::tools::filter::Filter;
use crate::tools::parallel::in_chunks;
use shakmaty::Position as _;
use std::path::PathBuf;
/// One position in this many goes to the validation set.
pub const VALIDATION_EVERY: usize = 20;
/// The shuffle's stream of the seeded generator (the games use the others).
const SHUFFLE_STREAM: u64 = u64::MAX;

/// One use count of one weight: an entry of a sparse trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The weight's index in the flat list (`eval::layout`).
    pub index: u16,
    /// White's uses minus Black's.
    pub count: i16,
}

/// One position: where its trace lies in [`Dataset::entries`], and what the
/// tuner compares its evaluation with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub start: u32,
    pub len: u16,
    /// `eval::MAX_PHASE` = all midgame, 0 = endgame.
    pub phase: u8,
    pub white_to_move: bool,
    /// The search's score, White's point of view, centipawns.
    pub score: i16,
    /// The game's result for White: 1, ½ or 0.
    pub result: f32,
}

/// Positions and their sparse traces, one flat list of entries for all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    pub positions: Vec<Position>,
    pub entries: Vec<Entry>,
}

impl Dataset {
    /// The trace entries of `p`.
    pub fn entries_of(&self, p: &Position) -> &[Entry] {
        &self.entries[p.start as usize..p.start as usize + p.len as usize]
    }

    /// Adds a position from its dense trace; an error if the data set grows past
    /// what a `u32` indexes or a count leaves `i16` (neither happens in chess).
    pub fn push(
        &mut self,
        trace: &Trace,
        white_to_move: bool,
        score: i16,
        result: f32,
    ) -> Result<(), String> {
        let start =
            u32::try_from(self.entries.len()).map_err(|_| "too many positions".to_string())?;
        for (index, &count) in trace.counts.iter().enumerate() {
            if count != 0 {
                let count =
                    i16::try_from(count).map_err(|_| format!("a count of {count} in a trace"))?;
                self.entries.push(Entry {
                    index: index as u16,
                    count,
                });
            }
        }
        self.positions.push(Position {
            start,
            len: (self.entries.len() - start as usize) as u16,
            phase: trace.phase as u8,
            white_to_move,
            score,
            result,
        });
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    fn append(&mut self, mut other: Dataset) {
        let offset = self.entries.len() as u32;
        for p in &mut other.positions {
            p.start += offset;
        }
        self.positions.append(&mut other.positions);
        self.entries.append(&mut other.entries);
    }
}

/// What loading found, for the tuner's report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: usize,
    pub positions: usize,
    /// Positions that pass the filter, before sampling.
    pub quiet: usize,
}

/// A position's place in the games: game number in the high bits, ply in the low 16
/// (a game has at most `u16::MAX` plies: the format stores the count as `u16`).
type Key = u64;

fn key(game: usize, ply: usize) -> Key {
    ((game as u64) << 16) | ply as u64
}

/// Loads every game of `dirs` and returns (training, validation, counts): at most
/// `max_positions` quiet positions, picked by a shuffle seeded with `seed`, one in
/// `VALIDATION_EVERY` held out. `threads` replay games at once; the result does not
/// depend on their number.
pub fn load(
    dirs: &[PathBuf],
    max_positions: usize,
    seed: u64,
    threads: usize,
) -> Result<(Dataset, Dataset, Counts), String> {
    let mut games = Vec::new();
    for dir in dirs {
        games.extend(crate::tools::datagen::read_folder(dir)?);
    }
    select(&games, max_positions, seed, threads)
}

/// [`load`] on games already read.
pub fn select(
    games: &[GameRecord],
    max_positions: usize,
    seed: u64,
    threads: usize,
) -> Result<(Dataset, Dataset, Counts), String> {
    let mut counts = Counts {
        games: games.len(),
        positions: games.iter().map(|g| g.plies.len()).sum(),
        quiet: 0,
    };

    // Pass 1: the quiet positions' keys, game by game.
    let numbered: Vec<(usize, &GameRecord)> = games.iter().enumerate().collect();
    let mut keys: Vec<Key> = Vec::new();
    for part in in_chunks(&numbered, threads, |_, chunk| quiet_keys(chunk)) {
        keys.extend(part?);
    }
    counts.quiet = keys.len();

    // The seeded pick: a Fisher-Yates shuffle, then the first `max_positions`.
    let mut rng = Rng::new(seed, SHUFFLE_STREAM);
    for i in (1..keys.len()).rev() {
        keys.swap(i, rng.below(i as u64 + 1) as usize);
    }
    keys.truncate(max_positions);
    let mut validation: Vec<Key> = keys.iter().copied().step_by(VALIDATION_EVERY).collect();
    let mut training: Vec<Key> = keys
        .iter()
        .enumerate()
        .filter(|(i, _)| i % VALIDATION_EVERY != 0)
        .map(|(_, &k)| k)
        .collect();

    // Pass 2: replay the games again and trace the positions picked, in game order.
    let trace_all = |keys: &mut Vec<Key>| -> Result<Dataset, String> {
        keys.sort_unstable();
        let mut set = Dataset::default();
        for part in in_chunks(keys, threads, |_, chunk| trace_keys(games, chunk)) {
            set.append(part?);
        }
        Ok(set)
    };
    Ok((
        trace_all(&mut training)?,
        trace_all(&mut validation)?,
        counts,
    ))
}

/// The keys of the quiet positions of some numbered games.
fn quiet_keys(games: &[(usize, &GameRecord)]) -> Result<Vec<Key>, String> {
    let (quiet, mut keys) = (Filter::default(), Vec::new());
    for &(number, game) in games {
        let samples = game.samples().map_err(|e| format!("game {number}: {e}"))?;
        for (ply, sample) in samples.iter().enumerate() {
            if quiet.keeps(sample, ply) {
                keys.push(key(number, ply));
            }
        }
    }
    Ok(keys)
}

/// The traces of the positions of `keys` (sorted), replaying each game once.
fn trace_keys(games: &[GameRecord], keys: &[Key]) -> Result<Dataset, String> {
    let mut set = Dataset::default();
    let mut replayed: Option<(usize, Vec<Sample>)> = None;
    for &k in keys {
        let (number, ply) = ((k >> 16) as usize, (k & 0xffff) as usize);
        if replayed.as_ref().is_none_or(|(n, _)| *n != number) {
            let samples = games[number]
                .samples()
                .map_err(|e| format!("game {number}: {e}"))?;
            replayed = Some((number, samples));
        }
        let Some((_, samples)) = &replayed else {
            unreachable!("replayed just above")
        };
        let s = &samples[ply];
        let white_to_move = s.pos.turn().is_white();
        set.push(
            &trace(&s.pos),
            white_to_move,
            s.white_score,
            s.result.white_score(),
        )?;
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed_move::pack_move;
    use crate::tools::datagen::format::{GameResult, Ply};
    use crate::tools::filter::SKIP_PLIES;
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Move};

    /// A game of `plies` moves shuffling knights (quiet), with a constant score.
    fn knight_shuffle(plies: usize, score: i16) -> GameRecord {
        const CYCLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut pos = Chess::default();
        let mut record = Vec::new();
        for ply in 0..plies {
            let m: Move = UciMove::from_ascii(CYCLE[ply % 4].as_bytes())
                .unwrap()
                .to_move(&pos)
                .unwrap();
            record.push(Ply {
                packed_move: pack_move(m),
                white_score: score,
            });
            pos.play_unchecked(m);
        }
        GameRecord {
            start: Chess::default(),
            chess960: false,
            result: GameResult::Draw,
            plies: record,
        }
    }

    #[test]
    fn quiet_positions_only_after_the_opening_and_below_the_score_limit() {
        let games = vec![
            knight_shuffle(30, 15),
            knight_shuffle(30, 3000),
            knight_shuffle(5, 0),
        ];
        let (training, validation, counts) = select(&games, 1000, 1, 2).unwrap();
        assert_eq!(
            counts,
            Counts {
                games: 3,
                positions: 65,
                quiet: 30 - SKIP_PLIES
            }
        );
        assert_eq!(training.len() + validation.len(), counts.quiet);
        assert_eq!(validation.len(), counts.quiet.div_ceil(VALIDATION_EVERY));
        for set in [&training, &validation] {
            for p in &set.positions {
                assert_eq!((p.score, p.result, p.phase), (15, 0.5, 24));
            }
        }
    }

    #[test]
    fn the_pick_depends_on_the_seed_and_not_on_the_threads() {
        let games: Vec<GameRecord> = (0..6)
            .map(|i| knight_shuffle(20 + 2 * i, i as i16))
            .collect();
        let one = select(&games, 40, 7, 1).unwrap();
        let three = select(&games, 40, 7, 3).unwrap();
        assert_eq!(one, three);
        assert_eq!(one.0.len() + one.1.len(), 40);
        let other = select(&games, 40, 8, 1).unwrap();
        assert_ne!(one.0, other.0);
    }

    #[test]
    fn a_sparse_trace_keeps_every_count() {
        let pos = Chess::default();
        let t = trace(&pos);
        let mut set = Dataset::default();
        set.push(&t, true, 0, 0.5).unwrap();
        set.push(&t, false, 0, 0.5).unwrap();
        let p = set.positions[1];
        let mut dense = [0; crate::eval::layout::COUNT];
        for e in set.entries_of(&p) {
            dense[e.index as usize] = e.count as i32;
        }
        assert_eq!(dense, t.counts);
        assert_eq!(p.start as usize, set.entries.len() / 2);
    }
}
