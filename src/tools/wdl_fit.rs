//! `tabas wdl-fit`: fits the win/draw/loss model of `src/wdl.rs` to Tabas's own
//! self-play games (`tabas datagen` folders) by maximum likelihood, and prints the
//! fitted constants as Rust code.
//!
//! Every recorded position whose score is not a mate is one observation: the
//! search's score from the side to move's point of view, `x` of the position (both
//! variables), and the game's result from the side to move's side (won, drawn,
//! lost). The likelihood of a result is the model's P(win), P(draw) or P(loss);
//! the fit maximises the sum of their logarithms over the training games, for each
//! variable, with Levenberg–Marquardt steps on the Fisher information (eight
//! parameters: two cubics). Every `VALIDATION_EVERY`-th game is held out, whole,
//! and both models' mean log-loss on them is reported; the material model is the one
//! printed (why: the comment on `wdl::VARIABLE`).
//!
//! Given the data, the result does not depend on the number of threads: the work is
//! cut into the same parts whatever their number (`parallel::in_chunks`).

use crate::args::whole;
use crate::tools::datagen::format::{GameRecord, UNSCORED};
use crate::tools::parallel::in_chunks;
use crate::wdl::{Model, Variable, cubic};
use shakmaty::Position;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

pub const USAGE: &str = "usage: tabas wdl-fit --data DIR [--data DIR ...] [--threads T]
  --data DIR      a tabas datagen folder, or a folder of them (repeat for more)
  --threads T     threads replaying games and summing the likelihood (default 1; the
                  result does not depend on it)
  Fits P(win) = 1 / (1 + exp((a(x) - s) / b(x))) with a and b cubic in x, for x the
  material and for x the move number, to every position that is not scored as a mate
  (s: the search's score for the side to move; its result: the game's for that side).
  One game in 10 is held out. The material model is printed as Rust code for
  src/wdl.rs (the move-number model's constants and both models' mean log-loss on
  the held-out games go to stderr with the progress).";

/// Games `g` with `g % VALIDATION_EVERY == VALIDATION_EVERY - 1` are held out.
const VALIDATION_EVERY: usize = 10;
/// The variables tried, in the order of `Point::x`.
const VARIABLES: [Variable; 2] = [Variable::Material, Variable::MoveNumber];
/// Where the fit starts: a(x) = 100 cp and b(x) = 100 cp everywhere (a 46 % draw
/// chance at 0 cp), close enough for the first steps to be accepted.
const START: ([f64; 4], [f64; 4]) = ([0.0, 0.0, 0.0, 100.0], [0.0, 0.0, 0.0, 100.0]);
/// The fit stops when a step gains less log-likelihood than this, per position.
const CONVERGED: f64 = 1e-12;
/// At most this many accepted steps (it converges in a few dozen).
const MAX_STEPS: usize = 500;

/// What `tabas wdl-fit` was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub data: Vec<PathBuf>,
    pub threads: usize,
}

/// Parses `tabas wdl-fit` arguments (pure: no file is touched).
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        threads: 1,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => o.data.push(PathBuf::from(value()?)),
            "--threads" => o.threads = whole(flag, value()?, 1..=256)?,
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if o.data.is_empty() {
        return Err("--data DIR is required".to_string());
    }
    Ok(o)
}

/// A game's result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One observation.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    /// `x` of the position for each of `VARIABLES`.
    x: [f64; 2],
    /// The search's score, side to move's point of view, centipawns (not a mate).
    score: f64,
    outcome: Outcome,
}

/// The observations of some numbered games: (training, validation).
fn points(games: &[(usize, &GameRecord)]) -> Result<(Vec<Point>, Vec<Point>), String> {
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for &(number, game) in games {
        let held_out = number % VALIDATION_EVERY == VALIDATION_EVERY - 1;
        let samples = game.samples().map_err(|e| format!("game {number}: {e}"))?;
        for s in samples {
            // Mates say nothing of the odds; unscored positions have no score.
            if crate::score::is_mate(s.white_score as i32) || s.white_score == UNSCORED {
                continue;
            }
            let turn = s.pos.turn();
            let score = if turn.is_white() {
                s.white_score
            } else {
                -s.white_score
            };
            let outcome = match s.result.winner() {
                None => Outcome::Draw,
                Some(c) if c == turn => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
            let point = Point {
                x: VARIABLES.map(|v| v.of(&s.pos)),
                score: score as f64,
                outcome,
            };
            if held_out {
                validation.push(point);
            } else {
                training.push(point);
            }
        }
    }
    Ok((training, validation))
}

/// The eight parameters: a's coefficients, then b's.
type Params = [f64; 8];

fn model(variable: Variable, p: &Params) -> Model {
    Model {
        variable,
        midpoint: [p[0], p[1], p[2], p[3]],
        spread: [p[4], p[5], p[6], p[7]],
    }
}

fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// The log-likelihood of some points, and (when asked) its gradient and the Fisher
/// information, for the variable `v` (an index into `VARIABLES`).
#[derive(Clone, Debug, Default)]
struct Sums {
    log_likelihood: f64,
    gradient: Params,
    fisher: [Params; 8],
}

fn sums(points: &[Point], v: usize, p: &Params, derivatives: bool) -> Sums {
    let mut out = Sums::default();
    for point in points {
        let x = point.x[v];
        let powers = [x * x * x, x * x, x, 1.0];
        let a = cubic(&[p[0], p[1], p[2], p[3]], x);
        let b = cubic(&[p[4], p[5], p[6], p[7]], x);
        let s = point.score;
        let (u, w) = ((s - a) / b, (-s - a) / b);
        let (win, loss) = (sigmoid(u), sigmoid(w));
        // 1 − P(win) − P(loss), without the cancellation when one of them is near 1.
        let draw = sigmoid(-u) - loss;
        let observed = match point.outcome {
            Outcome::Win => win,
            Outcome::Draw => draw,
            Outcome::Loss => loss,
        };
        if !(b > 0.0 && observed > 0.0) {
            // b ≤ 0 or a ≤ 0 here: no model at all, or one that calls this result
            // impossible.
            out.log_likelihood = f64::NEG_INFINITY;
            return out;
        }
        out.log_likelihood += observed.ln();
        if !derivatives {
            continue;
        }
        // ∂P/∂a and ∂P/∂b for each result.
        let d_win = [-win * (1.0 - win) / b, -win * (1.0 - win) * u / b];
        let d_loss = [-loss * (1.0 - loss) / b, -loss * (1.0 - loss) * w / b];
        let d_draw = [-d_win[0] - d_loss[0], -d_win[1] - d_loss[1]];
        let d_observed = match point.outcome {
            Outcome::Win => d_win,
            Outcome::Draw => d_draw,
            Outcome::Loss => d_loss,
        };
        // The expected curvature: Σ over results of ∇P ∇Pᵀ / P, in (a, b).
        let mut f = [[0.0; 2]; 2];
        for (prob, d) in [(win, d_win), (draw, d_draw), (loss, d_loss)] {
            if prob > 0.0 {
                for i in 0..2 {
                    for j in 0..2 {
                        f[i][j] += d[i] * d[j] / prob;
                    }
                }
            }
        }
        for i in 0..8 {
            let (ai, pi) = (i / 4, powers[i % 4]);
            out.gradient[i] += d_observed[ai] / observed * pi;
            for j in 0..8 {
                out.fisher[i][j] += f[ai][j / 4] * pi * powers[j % 4];
            }
        }
    }
    out
}

/// [`sums`] over all points, in parts whose results are added in order.
fn total(points: &[Point], v: usize, p: &Params, derivatives: bool, threads: usize) -> Sums {
    let mut all = Sums::default();
    for part in in_chunks(points, threads, |_, chunk| sums(chunk, v, p, derivatives)) {
        all.log_likelihood += part.log_likelihood;
        for i in 0..8 {
            all.gradient[i] += part.gradient[i];
            for j in 0..8 {
                all.fisher[i][j] += part.fisher[i][j];
            }
        }
    }
    all
}

/// Solves `m · x = y` by Gaussian elimination with partial pivoting; `None` if `m`
/// is singular.
fn solve(mut m: [Params; 8], mut y: Params) -> Option<Params> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        y.swap(col, pivot);
        let pivot_row = m[col];
        for row in col + 1..8 {
            let factor = m[row][col] / pivot_row[col];
            for (cell, p) in m[row].iter_mut().zip(pivot_row).skip(col) {
                *cell -= factor * p;
            }
            y[row] -= factor * y[col];
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let rest: f64 = (row + 1..8).map(|k| m[row][k] * x[k]).sum();
        x[row] = (y[row] - rest) / m[row][row];
    }
    Some(x)
}

/// The maximum-likelihood parameters for variable `v` on `points`, and the steps taken.
fn fit(points: &[Point], v: usize, threads: usize) -> (Params, usize) {
    let mut p: Params = [
        START.0[0], START.0[1], START.0[2], START.0[3], START.1[0], START.1[1], START.1[2],
        START.1[3],
    ];
    let n = points.len().max(1) as f64;
    let mut here = total(points, v, &p, true, threads);
    // Levenberg–Marquardt: the Fisher step, damped by `lambda` × its diagonal;
    // less damping after a step that gains, more after one that does not.
    let mut lambda = 1e-3;
    let mut steps = 0;
    while steps < MAX_STEPS && lambda < 1e12 {
        let mut m = here.fisher;
        let largest = (0..8).map(|i| m[i][i]).fold(0.0, f64::max);
        for (i, row) in m.iter_mut().enumerate() {
            row[i] += lambda * row[i] + 1e-12 * largest;
        }
        let Some(delta) = solve(m, here.gradient) else {
            lambda *= 10.0;
            continue;
        };
        let mut next = p;
        for i in 0..8 {
            next[i] += delta[i];
        }
        let there = total(points, v, &next, false, threads);
        if there.log_likelihood > here.log_likelihood {
            let gain = (there.log_likelihood - here.log_likelihood) / n;
            p = next;
            here = total(points, v, &p, true, threads);
            steps += 1;
            lambda = (lambda / 10.0).max(1e-9);
            if gain < CONVERGED {
                break;
            }
        } else {
            lambda *= 10.0;
        }
    }
    (p, steps)
}

/// Mean log-loss (nats a position) of `p` for variable `v` on `points`.
fn log_loss(points: &[Point], v: usize, p: &Params, threads: usize) -> f64 {
    -total(points, v, p, false, threads).log_likelihood / points.len().max(1) as f64
}

/// Mean log-loss on `points` of predicting every position by the results' shares in
/// `training`: what the score adds is measured against this.
fn log_loss_without_score(training: &[Point], points: &[Point]) -> f64 {
    let share = |o: Outcome| {
        // One of each result added, so that no share is zero.
        (training.iter().filter(|p| p.outcome == o).count() as f64 + 1.0)
            / (training.len() as f64 + 3.0)
    };
    let shares = [Outcome::Win, Outcome::Draw, Outcome::Loss].map(|o| (o, share(o)));
    let total: f64 = points
        .iter()
        .map(|p| {
            let (_, s) = shares
                .iter()
                .find(|(o, _)| *o == p.outcome)
                .expect("all three");
            -s.ln()
        })
        .sum();
    total / points.len().max(1) as f64
}

/// One variable's fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub model: Model,
    pub training_loss: f64,
    pub validation_loss: f64,
    pub steps: usize,
}

/// What a run ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct Fits {
    pub games: usize,
    pub held_out_games: usize,
    pub training_positions: usize,
    pub validation_positions: usize,
    /// One fit per variable, in the order of `VARIABLES`.
    pub fits: Vec<Fitted>,
    /// Mean log-loss without the score (training, validation).
    pub without_score: (f64, f64),
    /// Mean log-loss of the model in the binary, `src/wdl.rs` (training, validation):
    /// what a refit would replace, on the same games.
    pub built_in: (f64, f64),
    /// The index in `fits` of the lower validation loss.
    pub best: usize,
}

/// Fits both variables on `games`, reporting progress to `progress`.
pub fn run(
    games: &[GameRecord],
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Fits, String> {
    let clock = Instant::now();
    let numbered: Vec<(usize, &GameRecord)> = games.iter().enumerate().collect();
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for part in in_chunks(&numbered, threads, |_, chunk| points(chunk)) {
        let (t, v) = part?;
        training.extend(t);
        validation.extend(v);
    }
    if training.is_empty() || validation.is_empty() {
        return Err(format!(
            "too few positions to fit on ({} games: {} for training, {} held out; at least {VALIDATION_EVERY} games needed)",
            games.len(),
            training.len(),
            validation.len()
        ));
    }
    progress(&format!(
        "wdl-fit: {} games, {} positions for training, {} held out ({} games; {:.1} s)",
        games.len(),
        training.len(),
        validation.len(),
        games.len() / VALIDATION_EVERY,
        clock.elapsed().as_secs_f64()
    ));
    let mut fits = Vec::new();
    for (v, &variable) in VARIABLES.iter().enumerate() {
        let (p, steps) = fit(&training, v, threads);
        let fitted = Fitted {
            model: model(variable, &p),
            training_loss: log_loss(&training, v, &p, threads),
            validation_loss: log_loss(&validation, v, &p, threads),
            steps,
        };
        progress(&format!(
            "wdl-fit: by {:<11}  log-loss {:.6} (training)  {:.6} (validation)  {} steps, {:.1} s\n\
             wdl-fit:   MIDPOINT = {:.3?}, SPREAD = {:.3?}",
            variable.name(),
            fitted.training_loss,
            fitted.validation_loss,
            steps,
            clock.elapsed().as_secs_f64(),
            fitted.model.midpoint,
            fitted.model.spread
        ));
        fits.push(fitted);
    }
    let without_score = (
        log_loss_without_score(&training, &training),
        log_loss_without_score(&training, &validation),
    );
    let (built_in_v, built_in_p) = built_in_params();
    let built_in = (
        log_loss(&training, built_in_v, &built_in_p, threads),
        log_loss(&validation, built_in_v, &built_in_p, threads),
    );
    progress(&format!(
        "wdl-fit: the model in the binary (by {}): log-loss {:.6} (training)  {:.6} (validation)",
        crate::wdl::VARIABLE.name(),
        built_in.0,
        built_in.1
    ));
    // Material, even where the move number predicts the held-out games better: see
    // `wdl::VARIABLE`.
    let best = VARIABLES
        .iter()
        .position(|&v| v == Variable::Material)
        .expect("material is fitted");
    Ok(Fits {
        games: games.len(),
        held_out_games: games.len() / VALIDATION_EVERY,
        training_positions: training.len(),
        validation_positions: validation.len(),
        fits,
        without_score,
        built_in,
        best,
    })
}

/// The model of `src/wdl.rs` as (its index in `VARIABLES`, its parameters).
fn built_in_params() -> (usize, Params) {
    let v = VARIABLES
        .iter()
        .position(|&v| v == crate::wdl::VARIABLE)
        .expect("the built-in model's variable is one of those fitted");
    let (a, b) = (crate::wdl::MIDPOINT, crate::wdl::SPREAD);
    (v, [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]])
}

impl Fits {
    /// The three constants of `src/wdl.rs`, with their provenance, as Rust code.
    pub fn rust_code(&self, command: &str) -> String {
        let best = &self.fits[self.best];
        let coefficients = |c: &[f64; 4]| {
            c.iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut text = format!(
            "// Fitted by `{command}`\n\
             // on {} games ({} positions not scored as mates; {} games held out).\n\
             // Mean log-loss, nats a position, training / validation (held-out games):\n",
            self.games,
            self.training_positions + self.validation_positions,
            self.held_out_games,
        );
        for (i, f) in self.fits.iter().enumerate() {
            text.push_str(&format!(
                "//   by {:<13}{:.4} / {:.4}{}\n",
                f.model.variable.name(),
                f.training_loss,
                f.validation_loss,
                if i == self.best { "  (used)" } else { "" }
            ));
        }
        text.push_str(&format!(
            "//   score ignored   {:.4} / {:.4}\n",
            self.without_score.0, self.without_score.1
        ));
        text.push_str(&format!(
            "//   the model this replaces {:.4} / {:.4}\n",
            self.built_in.0, self.built_in.1
        ));
        text.push_str(&format!(
            "/// The variable `x` of the polynomials (material: see docs/wdl.md).\n\
             pub const VARIABLE: Variable = Variable::{:?};\n\
             /// a(x), centipawns: the score at which the side to move wins half its games\n\
             /// (coefficients of x³, x², x, 1).\n\
             pub const MIDPOINT: [f64; 4] = [{}];\n\
             /// b(x), centipawns: the score that multiplies the odds of a win by e\n\
             /// (coefficients of x³, x², x, 1).\n\
             pub const SPREAD: [f64; 4] = [{}];",
            best.model.variable,
            coefficients(&best.model.midpoint),
            coefficients(&best.model.spread)
        ));
        text
    }
}

/// `tabas wdl-fit …`
pub fn run_cli(args: &[String], stdout: &mut dyn FnMut(&str)) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tabas wdl-fit: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut games = Vec::new();
    for dir in &options.data {
        match crate::tools::datagen::read_folder(dir) {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("tabas wdl-fit: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match run(&games, options.threads, &mut |line| eprintln!("{line}")) {
        Ok(outcome) => {
            let command = format!("tabas wdl-fit {}", args.join(" "));
            stdout(&outcome.rust_code(&command));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tabas wdl-fit: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::words as args;
    use crate::rng::Rng;

    #[test]
    fn options_parse_and_reject_nonsense() {
        let o = parse_options(&args("--data a --data b --threads 3")).unwrap();
        assert_eq!(o.data, vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(o.threads, 3);
        assert_eq!(parse_options(&args("--data a")).unwrap().threads, 1);
        for bad in [
            "",
            "--threads 2",
            "--data",
            "--data d --threads 0",
            "--data d --x",
        ] {
            assert!(parse_options(&args(bad)).is_err(), "{bad}");
        }
    }

    /// A uniform number in [0, 1).
    fn uniform(rng: &mut Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `n` points whose results are drawn from `truth` (the move-number slot holds `x`).
    fn sampled(truth: &Model, n: usize, seed: u64) -> Vec<Point> {
        let mut rng = Rng::new(seed, 0);
        (0..n)
            .map(|_| {
                let x = 0.1 + 0.9 * uniform(&mut rng);
                let score = (uniform(&mut rng) * 1200.0 - 600.0).round();
                let (win, loss) = (truth.win(score, x), truth.win(-score, x));
                let r = uniform(&mut rng);
                let outcome = if r < win {
                    Outcome::Win
                } else if r < win + loss {
                    Outcome::Loss
                } else {
                    Outcome::Draw
                };
                Point {
                    x: [0.0, x],
                    score,
                    outcome,
                }
            })
            .collect()
    }

    const TRUTH: Model = Model {
        variable: Variable::MoveNumber,
        midpoint: [0.0, 100.0, -50.0, 150.0],
        spread: [50.0, 0.0, -40.0, 90.0],
    };

    #[test]
    fn the_gradient_is_the_slope_of_the_likelihood() {
        let points = sampled(&TRUTH, 2000, 3);
        let p: Params = [10.0, 90.0, -40.0, 140.0, 30.0, 10.0, -30.0, 100.0];
        let at = sums(&points, 1, &p, true);
        for i in 0..8 {
            let h = 1e-4;
            let (mut up, mut down) = (p, p);
            up[i] += h;
            down[i] -= h;
            let slope = (sums(&points, 1, &up, false).log_likelihood
                - sums(&points, 1, &down, false).log_likelihood)
                / (2.0 * h);
            assert!(
                (slope - at.gradient[i]).abs() <= 1e-5 * slope.abs().max(1.0),
                "parameter {i}: {slope} vs {}",
                at.gradient[i]
            );
        }
    }

    #[test]
    fn the_fit_recovers_the_model_that_drew_the_results() {
        let points = sampled(&TRUTH, 100_000, 5);
        let (p, steps) = fit(&points, 1, 2);
        assert!(steps > 0 && steps < MAX_STEPS, "{steps} steps");
        let fitted = model(Variable::MoveNumber, &p);
        for x in [0.2, 0.5, 0.8] {
            for s in [-300.0, 0.0, 100.0, 400.0] {
                let (want, got) = (TRUTH.win(s, x), fitted.win(s, x));
                assert!(
                    (want - got).abs() < 0.02,
                    "P(win | {s}, {x}): {want} vs {got}"
                );
            }
        }
        // As good as the truth on the data it saw, and the same with other threads.
        let truth_params: Params = [0.0, 100.0, -50.0, 150.0, 50.0, 0.0, -40.0, 90.0];
        assert!(log_loss(&points, 1, &p, 1) <= log_loss(&points, 1, &truth_params, 1));
        assert_eq!(fit(&points, 1, 1), (p, steps));
    }

    #[test]
    fn a_model_that_forbids_an_observed_result_has_no_likelihood() {
        let points = sampled(&TRUTH, 100, 7);
        let no_draws: Params = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 100.0];
        assert_eq!(
            sums(&points, 1, &no_draws, false).log_likelihood,
            f64::NEG_INFINITY
        );
        let negative_spread: Params = [0.0, 0.0, 0.0, 100.0, 0.0, 0.0, 0.0, -100.0];
        assert_eq!(
            sums(&points, 1, &negative_spread, false).log_likelihood,
            f64::NEG_INFINITY
        );
    }
}
