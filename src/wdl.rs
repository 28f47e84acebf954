//! The win/draw/loss model behind `UCI_ShowWDL`: a search score (centipawns, side
//! to move) and the root position → the side to move's chances, per mille, of
//! winning, drawing and losing.
//!
//! The model is Stockfish's win-rate model, fitted to Tabas's own self-play games
//! (`tabas wdl-fit`, `src/tools/wdl_fit.rs`):
//!
//! ```text
//! P(win  | s, x) = 1 / (1 + exp((a(x) − s) / b(x)))
//! P(loss | s, x) = P(win | −s, x)          P(draw) = 1 − P(win) − P(loss)
//! ```
//!
//! `a(x)` is the score at which the side to move wins half its games, `b(x)` how
//! many centipawns multiply the odds of a win by e; both are cubic polynomials in
//! `x`, the root's material or move number, normalised ([`Variable`]). Mate scores
//! are certain: 1000/0/0 or 0/0/1000.

use crate::score::{self, Score};
use shakmaty::{Chess, Position};

// The fitted model: `tabas wdl-fit` prints these three constants (docs/wdl.md);
// paste them here to refit.
//
// Fitted by `tabas wdl-fit --data data/wdl-2643 --threads 1` (a copy of data/selfplay-2643)
// on 20034 games (2359306 positions not scored as mates; 2003 games held out),
// net `2488b488`'s games, seed 2643 (docs/network/manifests/seed-2643.txt).
// Mean log-loss, nats a position, training / validation (held-out games):
//   by material     0.5986 / 0.5972  (used)
//   by move number  0.5989 / 0.5903
//   score ignored   1.0793 / 1.0831
//   the model this replaces 0.6008 / 0.5987 (fitted to net `c315aceb`'s games)
// Material stays the variable: the move number fits these held-out games 1.2 % better,
// but on earlier nets' games its edge lay in plies 80-120, where datagen's draw
// adjudication begins (it learns the rule), and a position set up from a FEN that says
// move 1 (as analysis positions often do) would read as a game's start by move number,
// whatever is left on the board.
/// The variable `x` of the polynomials (material: see docs/wdl.md).
pub const VARIABLE: Variable = Variable::Material;
/// a(x), centipawns: the score at which the side to move wins half its games
/// (coefficients of x³, x², x, 1).
pub const MIDPOINT: [f64; 4] = [-1782.383, 3800.629, -2806.303, 863.377];
/// b(x), centipawns: the score that multiplies the odds of a win by e
/// (coefficients of x³, x², x, 1).
pub const SPREAD: [f64; 4] = [-501.903, 820.635, -394.519, 170.158];

/// Material counted as pawn 1, knight 3, bishop 3, rook 5, queen 9, both sides.
const PIECE_VALUES: [u32; 5] = [1, 3, 3, 5, 9];
/// All the material of the start position.
pub const MATERIAL_MAX: u32 = 78;
/// Less material than this is read as this much: the games hold too few such endings
/// (a few hundred positions) to pin the polynomials down there.
pub const MATERIAL_MIN: u32 = 4;
/// Plies past this are read as this many: longer games are rare, and nearly all drawn.
pub const PLY_MAX: u32 = 240;

/// What the polynomials read from the root position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variable {
    /// Material on the board, `MATERIAL_MIN..=MATERIAL_MAX`, as a share of the start's.
    Material,
    /// Plies since the start of the game (from the FEN's move number), `0..=PLY_MAX`,
    /// as a share of `PLY_MAX`. A FEN that says move 1 reads as a game's start.
    MoveNumber,
}

impl Variable {
    /// `x` of `pos`.
    pub fn of(self, pos: &Chess) -> f64 {
        match self {
            Variable::Material => {
                let b = pos.board();
                let counts = [b.pawns(), b.knights(), b.bishops(), b.rooks(), b.queens()]
                    .map(|set| set.count() as u32);
                let material: u32 = counts.iter().zip(PIECE_VALUES).map(|(n, v)| n * v).sum();
                material.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / MATERIAL_MAX as f64
            }
            Variable::MoveNumber => {
                // u64: a FEN may give any move number up to u32::MAX.
                let ply = 2 * (pos.fullmoves().get() as u64 - 1) + pos.turn().is_black() as u64;
                ply.min(PLY_MAX as u64) as f64 / PLY_MAX as f64
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Variable::Material => "material",
            Variable::MoveNumber => "move number",
        }
    }
}

/// The material (in `PIECE_VALUES`, both sides) at which a shown score of 100 cp is a
/// 50 % chance to win: 58 of the start's 78, a middlegame after a few trades (the
/// material Stockfish normalises at, so that the two engines' scores compare).
pub const NORMAL_MATERIAL: u32 = 58;

/// The internal score (centipawns of the search) at which the side to move wins half
/// its games at `NORMAL_MATERIAL`, by the fitted model: the shown centipawn's size.
/// It follows the model, and so the net the model was fitted to: refitting the
/// model with a new net (`tabas wdl-fit`) converts the scores of the new net.
pub const INTERNAL_PAWN: f64 = cubic(&MIDPOINT, NORMAL_MATERIAL as f64 / MATERIAL_MAX as f64);

/// The score a user sees (UCI `score cp`): the internal `score` scaled so that 100 is
/// a 50 % chance to win at `NORMAL_MATERIAL`, rounded. Display only: the search, the
/// table, self-play data, `bench` and the levels stay on the internal scale. Mate
/// and tablebase scores are not chances and are returned as they are (tablebase
/// scores stay above every converted evaluation, so the order of scores is kept).
pub fn normalised_cp(score: Score) -> Score {
    if score::is_decisive(score) {
        return score;
    }
    (score as f64 * 100.0 / INTERNAL_PAWN).round() as Score
}

/// A model: the two polynomials of one variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub variable: Variable,
    /// a(x), coefficients of x³, x², x, 1.
    pub midpoint: [f64; 4],
    /// b(x), coefficients of x³, x², x, 1.
    pub spread: [f64; 4],
}

/// The fitted model.
pub const MODEL: Model = Model {
    variable: VARIABLE,
    midpoint: MIDPOINT,
    spread: SPREAD,
};

/// The value at `x` of a cubic given by its coefficients (x³ first).
pub const fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

impl Model {
    /// The probability that the side to move wins with score `s` (centipawns, not
    /// a mate) at `x`.
    pub fn win(&self, s: f64, x: f64) -> f64 {
        let a = cubic(&self.midpoint, x);
        let b = cubic(&self.spread, x);
        1.0 / (1.0 + ((a - s) / b).exp())
    }
}

/// What the model reads from the root position, taken when the search starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Input(f64);

impl Input {
    pub fn of(pos: &Chess) -> Input {
        Input(VARIABLE.of(pos))
    }
}

/// Per mille chances of the side to move; they add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chances {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// The chances of the side to move with `score` (its point of view) at `input`.
pub fn wdl(score: Score, input: Input) -> Chances {
    model_wdl(&MODEL, score, input.0)
}

fn model_wdl(model: &Model, score: Score, x: f64) -> Chances {
    if score::is_mate(score) {
        let won = score > 0;
        return Chances {
            win: if won { 1000 } else { 0 },
            draw: 0,
            loss: if won { 0 } else { 1000 },
        };
    }
    let s = score as f64;
    let (win, loss) = (1000.0 * model.win(s, x), 1000.0 * model.win(-s, x));
    let (mut w, mut l) = (per_mille(win.round()), per_mille(loss.round()));
    if w + l > 1000 {
        // Both rounded up past 1000 (a draw chance under 0.1 %): round both down,
        // which keeps the two sides symmetric.
        (w, l) = (per_mille(win.floor()), per_mille(loss.floor()));
    }
    Chances {
        win: w,
        draw: 1000 - w - l,
        loss: l,
    }
}

/// `thousandths` (a probability × 1000, already rounded) as a whole number.
fn per_mille(thousandths: f64) -> u32 {
    thousandths.clamp(0.0, 1000.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    /// The inputs the tests try: the whole range of the variable.
    fn inputs() -> Vec<Input> {
        (0..=20).map(|i| Input(i as f64 / 20.0)).collect()
    }

    #[test]
    fn chances_add_up_to_1000_and_rise_with_the_score() {
        for input in inputs() {
            let mut last = wdl(-score::MATE_BOUND + 1, input);
            for s in (-score::MATE_BOUND + 1..score::MATE_BOUND).step_by(7) {
                let now = wdl(s, input);
                assert_eq!(now.win + now.draw + now.loss, 1000, "{s} at {input:?}");
                assert!(now.win >= last.win, "win falls at {s}, {input:?}");
                assert!(now.loss <= last.loss, "loss rises at {s}, {input:?}");
                last = now;
            }
            // From nearly lost to nearly won.
            assert!(wdl(-3000, input).loss > 990 && wdl(3000, input).win > 990);
        }
    }

    #[test]
    fn the_other_side_sees_the_same_chances_reversed() {
        for input in inputs() {
            for s in -3000..=3000 {
                let (us, them) = (wdl(s, input), wdl(-s, input));
                assert_eq!((us.win, us.draw, us.loss), (them.loss, them.draw, them.win));
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        let input = Input::of(&Chess::default());
        let won = Chances {
            win: 1000,
            draw: 0,
            loss: 0,
        };
        let lost = Chances {
            win: 0,
            draw: 0,
            loss: 1000,
        };
        for ply in [0, 1, 5, score::MAX_PLY] {
            assert_eq!(wdl(score::mate_in(ply), input), won);
            assert_eq!(wdl(score::mated_in(ply), input), lost);
        }
    }

    #[test]
    fn the_fitted_polynomials_stay_sensible_over_the_whole_range() {
        for i in 0..=100 {
            let x = i as f64 / 100.0;
            let (a, b) = (cubic(&MIDPOINT, x), cubic(&SPREAD, x));
            assert!((0.0..1000.0).contains(&a), "a({x}) = {a}");
            assert!((10.0..1000.0).contains(&b), "b({x}) = {b}");
        }
        // The formula, per mille.
        let start = Input::of(&Chess::default());
        let (a, b) = (cubic(&MIDPOINT, start.0), cubic(&SPREAD, start.0));
        let even = (1000.0 / (1.0 + (a / b).exp())).round() as u32;
        assert_eq!(
            wdl(0, start),
            Chances {
                win: even,
                draw: 1000 - 2 * even,
                loss: even
            }
        );
        let up = (1000.0 / (1.0 + ((a - 300.0) / b).exp())).round() as u32;
        assert_eq!(wdl(300, start).win, up);
        assert!(wdl(300, start).win > 500, "{:?}", wdl(300, start));
        assert!(wdl(1000, start).win > 950, "{:?}", wdl(1000, start));
    }

    #[test]
    fn the_variables_read_the_position() {
        let start = Chess::default();
        assert_eq!(Variable::Material.of(&start), 1.0);
        assert_eq!(Variable::MoveNumber.of(&start), 0.0);
        // Rook and pawn each, Black to move at move 41: material 12, ply 81.
        let ending = pos("8/5k2/5p2/8/8/5P2/3R1K2/r7 b - - 0 41");
        assert_eq!(Variable::Material.of(&ending), 12.0 / MATERIAL_MAX as f64);
        assert_eq!(Variable::MoveNumber.of(&ending), 81.0 / PLY_MAX as f64);
        // A lone pawn counts as the least material.
        let pawn = pos("8/8/4k3/8/8/4P3/4K3/8 w - - 0 1");
        assert_eq!(
            Variable::Material.of(&pawn),
            MATERIAL_MIN as f64 / MATERIAL_MAX as f64
        );
        let queens = pos("3qk3/8/8/8/8/8/8/3QK3 w - - 0 300");
        assert_eq!(Variable::Material.of(&queens), 18.0 / MATERIAL_MAX as f64);
        assert_eq!(Variable::MoveNumber.of(&queens), 1.0);
        let last = pos("3qk3/8/8/8/8/8/8/3QK3 b - - 0 4294967295");
        assert_eq!(Variable::MoveNumber.of(&last), 1.0);
    }

    #[test]
    fn a_shown_100_cp_is_an_even_chance_to_win_at_the_stated_material() {
        let x = NORMAL_MATERIAL as f64 / MATERIAL_MAX as f64;
        // The internal score shown as 100 cp is the model's 50 % point there.
        let internal = INTERNAL_PAWN;
        assert!((MODEL.win(internal, x) - 0.5).abs() < 1e-12);
        assert_eq!(normalised_cp(internal.round() as Score), 100);
        assert_eq!(normalised_cp(-internal.round() as Score), -100);
        assert_eq!(normalised_cp(0), 0);
        // A position with that material: the chances at a shown 100 cp are even.
        let pos = pos("r2qk2r/pp3ppp/4pn2/3p4/3P4/4PN2/PP3PPP/R2QK2R w KQkq - 0 12");
        assert_eq!(Variable::Material.of(&pos), x);
        let c = wdl(internal.round() as Score, Input::of(&pos));
        assert!((495..=505).contains(&c.win), "{c:?}");
    }

    #[test]
    fn the_conversion_keeps_order_and_leaves_mates_and_tablebase_scores() {
        let mut last = Score::MIN;
        for s in (-score::MATE..=score::MATE).step_by(13) {
            let shown = normalised_cp(s);
            assert!(shown >= last, "{s}");
            last = shown;
        }
        for s in [
            score::mate_in(3),
            score::mated_in(4),
            score::tb_win_in(5),
            score::tb_loss_in(6),
        ] {
            assert_eq!(normalised_cp(s), s);
        }
        let max = crate::nnue::MAX_EVAL;
        assert!(normalised_cp(max) < score::TB_WIN_BOUND && normalised_cp(max) > 0);
    }
}
