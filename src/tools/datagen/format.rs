//! The self-play data format: games, not positions. A game is its start position
//! (as FEN) and, for every move played, the move and the search's score; each
//! position of the game is replayed from those. About 4 bytes a position.
//!
//! A file is the 8-byte magic `TABASDG1` followed by game records, little-endian:
//!
//! ```text
//! u16  length of the FEN          u8   result: 0 Black won, 1 draw, 2 White won
//! ...  FEN (ASCII)                u8   flags: bit 0 = Chess960 castling
//! u16  number of moves n          n × (u16 move, i16 score)
//! ```
//!
//! * move: from (6 bits) | to (6) | promotion role (3), as the transposition table
//!   packs it; castling is king square to rook square (shakmaty's encoding);
//! * score: the search's score of the position before the move, **from White's
//!   point of view**, in centipawns (|score| ≥ `score::MATE_BOUND`: a mate).
//!
//! Records are appended whole and flushed; a file cut short (a crash in the middle of
//! a write) ends in a record that does not parse, and `read` reports where the
//! complete records end, so a resumed run truncates the rest.

use crate::packed_move::pack_move;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

pub const MAGIC: &[u8; 8] = b"TABASDG1";

/// The score of a position no Tabas search scored (a game imported from PGN: the
/// other engine's moves, book moves): beyond every score, mate scores included, so
/// that every filter of the tools leaves the position out; its move is still played.
pub const UNSCORED: i16 = i16::MIN;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWon = 0,
    Draw = 1,
    WhiteWon = 2,
}

impl GameResult {
    fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::BlackWon),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWon),
            _ => None,
        }
    }

    /// The result as a score for White: 1, ½ or 0.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The side that won (`None`: a draw).
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::BlackWon => Some(Color::Black),
            GameResult::Draw => None,
            GameResult::WhiteWon => Some(Color::White),
        }
    }
}

/// One played move and the score of the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub packed_move: u16,
    /// White's point of view, centipawns.
    pub white_score: i16,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Chess,
    pub chess960: bool,
    pub result: GameResult,
    pub plies: Vec<Ply>,
}

/// One recorded position: the position, the move played in it, the search's score
/// (White's point of view) and the game's result.
pub struct Sample {
    pub pos: Chess,
    pub played: Move,
    pub white_score: i16,
    pub result: GameResult,
}

impl GameRecord {
    /// A 64-bit hash of the whole game (its record in the file format): the same
    /// game gives the same number wherever it lies in whichever folder, so that a
    /// choice made by it (which games are held out) does not move when the data
    /// grows or is given in another order.
    pub fn fingerprint(&self) -> u64 {
        let mut bytes = Vec::with_capacity(96 + 4 * self.plies.len());
        self.encode(&mut bytes);
        // FNV-1a, then SplitMix64's finaliser to spread the bits.
        let mut h = bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
        });
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }

    /// Appends this game in the file format.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        out.extend_from_slice(&(fen.len() as u16).to_le_bytes());
        out.extend_from_slice(fen.as_bytes());
        out.push(self.result as u8);
        out.push(self.chess960 as u8);
        out.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for p in &self.plies {
            out.extend_from_slice(&p.packed_move.to_le_bytes());
            out.extend_from_slice(&p.white_score.to_le_bytes());
        }
    }

    /// Reads one game from the start of `bytes`: the game and the bytes it took, or
    /// `Ok(None)` when `bytes` ends before the record does (a cut-off write).
    pub fn decode(bytes: &[u8]) -> Result<Option<(GameRecord, usize)>, String> {
        let mut at = 0;
        let mut take = |n: usize| -> Option<&[u8]> {
            let s = bytes.get(at..at + n)?;
            at += n;
            Some(s)
        };
        let Some(len) = take(2) else { return Ok(None) };
        let len = u16::from_le_bytes([len[0], len[1]]) as usize;
        let Some(fen) = take(len) else {
            return Ok(None);
        };
        let fen = std::str::from_utf8(fen).map_err(|_| "FEN is not text".to_string())?;
        let fen = fen.to_string();
        let Some(head) = take(4) else { return Ok(None) };
        let result =
            GameResult::from_byte(head[0]).ok_or_else(|| format!("bad result byte {}", head[0]))?;
        let chess960 = head[1] & 1 != 0;
        let n = u16::from_le_bytes([head[2], head[3]]) as usize;
        let Some(body) = take(4 * n) else {
            return Ok(None);
        };
        let plies = body
            .chunks_exact(4)
            .map(|c| Ply {
                packed_move: u16::from_le_bytes([c[0], c[1]]),
                white_score: i16::from_le_bytes([c[2], c[3]]),
            })
            .collect();
        let start = crate::position::parse_fen(&fen, CastlingMode::from_chess960(chess960))?;
        Ok(Some((
            GameRecord {
                start,
                chess960,
                result,
                plies,
            },
            at,
        )))
    }

    /// Every position of the game with its move, score and result, replayed from the
    /// start; an error if a stored move is not legal where it was played.
    pub fn samples(&self) -> Result<Vec<Sample>, String> {
        let mut pos = self.start.clone();
        let mut samples = Vec::with_capacity(self.plies.len());
        for (i, p) in self.plies.iter().enumerate() {
            let played = pos
                .legal_moves()
                .into_iter()
                .find(|&m| pack_move(m) == p.packed_move)
                .ok_or_else(|| {
                    format!(
                        "move {} of a game from {} is not legal",
                        i + 1,
                        Fen::from_position(&self.start, EnPassantMode::Legal)
                    )
                })?;
            let next = pos.clone().play(played).map_err(|e| e.to_string())?;
            samples.push(Sample {
                pos,
                played,
                white_score: p.white_score,
                result: self.result,
            });
            pos = next;
        }
        Ok(samples)
    }
}

/// The games of one data file, and the length of its complete part (shorter than the
/// file when the last record was cut off).
pub struct FileContents {
    pub games: Vec<GameRecord>,
    pub complete_len: usize,
}

/// Parses a whole data file.
pub fn read(bytes: &[u8]) -> Result<FileContents, String> {
    if bytes.len() < MAGIC.len() {
        // An empty (or cut-off) new file: nothing complete yet.
        return if MAGIC.starts_with(bytes) {
            Ok(FileContents {
                games: Vec::new(),
                complete_len: 0,
            })
        } else {
            Err("not a Tabas data file (bad magic)".to_string())
        };
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Tabas data file (bad magic)".to_string());
    }
    let mut at = MAGIC.len();
    let mut games = Vec::new();
    while at < bytes.len() {
        match GameRecord::decode(&bytes[at..]).map_err(|e| format!("at byte {at}: {e}"))? {
            Some((game, used)) => {
                games.push(game);
                at += used;
            }
            None => break,
        }
    }
    Ok(FileContents {
        games,
        complete_len: at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str], start: Chess, chess960: bool) -> GameRecord {
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (i, uci) in moves.iter().enumerate() {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            plies.push(Ply {
                packed_move: pack_move(m),
                white_score: (i as i16 - 2) * 37,
            });
            pos.play_unchecked(m);
        }
        GameRecord {
            start,
            chess960,
            result: GameResult::Draw,
            plies,
        }
    }

    #[test]
    fn games_round_trip_and_replay() {
        let standard = game(
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"],
            Chess::default(),
            false,
        );
        // A Chess960 position where castling is written king takes rook.
        let frc = crate::position::parse_fen(
            "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
            CastlingMode::Chess960,
        )
        .unwrap();
        let frc = game(&["b1a1"], frc, true);
        let mut bytes = MAGIC.to_vec();
        standard.encode(&mut bytes);
        let one = bytes.len();
        frc.encode(&mut bytes);
        assert!(
            one - MAGIC.len() < 70 + 4 * standard.plies.len(),
            "about 4 bytes a move"
        );
        let read_back = read(&bytes).unwrap();
        assert_eq!(read_back.games, vec![standard.clone(), frc.clone()]);
        assert_eq!(read_back.complete_len, bytes.len());
        let samples = standard.samples().unwrap();
        assert_eq!(samples.len(), 7);
        assert_eq!(
            samples[6].played.to_uci(CastlingMode::Standard).to_string(),
            "e1g1"
        );
        assert_eq!(samples[3].white_score, 37);
        let castle = &frc.samples().unwrap()[0];
        assert!(castle.played.is_castle());
    }

    #[test]
    fn a_games_fingerprint_is_its_content() {
        let g = game(&["e2e4", "e7e5", "g1f3"], Chess::default(), false);
        assert_eq!(g.fingerprint(), g.clone().fingerprint());
        let mut scored = g.clone();
        scored.plies[2].white_score += 1;
        let mut won = g.clone();
        won.result = GameResult::WhiteWon;
        let shorter = game(&["e2e4", "e7e5"], Chess::default(), false);
        let prints = [&g, &scored, &won, &shorter].map(|x| x.fingerprint());
        for (i, a) in prints.iter().enumerate() {
            assert!(prints[i + 1..].iter().all(|b| a != b), "{prints:?}");
        }
    }

    #[test]
    fn a_cut_off_record_is_left_out_and_its_start_reported() {
        let g = game(&["d2d4", "d7d5"], Chess::default(), false);
        let mut bytes = MAGIC.to_vec();
        g.encode(&mut bytes);
        let complete = bytes.len();
        g.encode(&mut bytes);
        for cut in complete..bytes.len() {
            let r = read(&bytes[..cut]).unwrap();
            assert_eq!(r.games.len(), 1, "cut at {cut}");
            assert_eq!(r.complete_len, complete);
        }
        assert_eq!(read(&bytes[..3]).unwrap().games.len(), 0);
        assert!(read(b"NOTADATAFILE").is_err());
    }

    #[test]
    fn a_move_that_is_not_legal_is_an_error_not_a_panic() {
        let mut g = game(&["e2e4"], Chess::default(), false);
        g.plies[0].packed_move = 0xfff;
        assert!(g.samples().is_err());
    }
}
