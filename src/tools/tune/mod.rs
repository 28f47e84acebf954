//! `tabas tune`: fits every weight of the hand-written evaluation to Tabas's own
//! self-play games (`tabas datagen`), by Texel's method: the evaluation's score,
//! mapped to an expected result, should match what the game and the search said.
//!
//! * `data.rs`: quiet positions from data folders, as sparse evaluation traces;
//! * `loss.rs`: the loss (mean squared error of the expected result), its
//!   gradient, and the fit of the score-to-result scale `K`;
//! * `adam.rs`: the optimiser, one full-batch step an epoch;
//! * `writer.rs`: the tuned weights as a new `src/eval/weights.rs`.
//!
//! Given the data, the seed and the settings, a run is reproducible whatever the
//! number of threads: all work is cut into the same parts (`parallel::in_chunks`).

mod adam;
pub(crate) mod data;
mod loss;
mod writer;

use crate::args::{real, whole};
use crate::eval::layout::{COUNT, DEFAULTS};
use adam::Adam;
use loss::Weights;
use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

pub const USAGE: &str = "usage: tabas tune --data DIR [--data DIR ...] [--positions N] [--epochs E]
                  [--lambda L] [--rate R] [--threads T] [--seed S] [--out FILE]
  --data DIR      a tabas datagen folder, or a folder of them (repeat for more)
  --positions N   quiet positions to use at most, 5% of them for validation (default 2000000)
  --epochs E      optimiser steps, each over all the training positions (default 1000);
                  the weights of the epoch with the lowest validation loss are written
  --lambda L      target = L x game result + (1 - L) x search score's expectation (default 0.5)
  --rate R        Adam's learning rate, centipawns a step (default 1)
  --threads T     threads computing the loss (default 1; the result does not depend on it)
  --seed S        the seed of the positions' sampling (default 1)
  --out FILE      where the tuned src/eval/weights.rs goes (default: stdout); the best
                  weights so far are written every 50 epochs, and at the end
  Progress (epoch, training loss, validation loss, seconds) goes to stderr.";

/// What `tabas tune` was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub data: Vec<PathBuf>,
    pub positions: usize,
    pub epochs: usize,
    pub lambda: f64,
    pub rate: f64,
    pub threads: usize,
    pub seed: u64,
    pub out: Option<PathBuf>,
}

// The defaults (each also written in `USAGE`).
/// Enough positions to pin down the rare weights (a queen on a8, seven attackers),
/// little enough for a few hundred MB of memory.
const DEFAULT_POSITIONS: usize = 2_000_000;
/// Adam at the default rate reaches the lowest validation loss in a few hundred
/// steps on a small data set; the best epoch is written anyway.
const DEFAULT_EPOCHS: usize = 1000;
/// Half the game's result, half the search's verdict: the result alone is noisy
/// (one late blunder decides it), the search alone inherits the evaluation's bias.
const DEFAULT_LAMBDA: f64 = 0.5;
/// Centipawns a step: fine enough for whole-centipawn weights.
const DEFAULT_RATE: f64 = 1.0;

/// The output file is rewritten this often (epochs), so that a long run stopped
/// early still leaves its best weights so far.
const CHECKPOINT_EVERY: usize = 50;

/// Parses `tabas tune` arguments (pure: no file is touched).
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        positions: DEFAULT_POSITIONS,
        epochs: DEFAULT_EPOCHS,
        lambda: DEFAULT_LAMBDA,
        rate: DEFAULT_RATE,
        threads: 1,
        seed: 1,
        out: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => o.data.push(PathBuf::from(value()?)),
            "--positions" => o.positions = whole(flag, value()?, 1..=u32::MAX as usize)?,
            "--epochs" => o.epochs = whole(flag, value()?, 0..=1_000_000)?,
            "--lambda" => o.lambda = real(flag, value()?, 0.0..=1.0)?,
            "--rate" => o.rate = real(flag, value()?, 1e-6..=1000.0)?,
            "--threads" => o.threads = whole(flag, value()?, 1..=256)?,
            "--seed" => o.seed = whole(flag, value()?, 0..=u64::MAX)?,
            "--out" => o.out = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if o.data.is_empty() {
        return Err("--data DIR is required".to_string());
    }
    Ok(o)
}

/// What a run ends with.
pub struct Outcome {
    /// The new `weights.rs`.
    pub file: String,
    pub k: f64,
    /// Training and validation loss with the starting weights and with the
    /// weights written (those of `best_epoch`, rounded).
    pub start_loss: (f64, f64),
    pub end_loss: (f64, f64),
    /// The epoch of the lowest validation loss, whose weights are written.
    pub best_epoch: usize,
}

/// Tunes the weights on the data `options` names, reporting progress lines to
/// `progress` and the file of the best weights so far to `checkpoint` (every
/// `CHECKPOINT_EVERY` epochs, and at the end). `command` goes in the file's
/// `Source:` line.
pub fn run(
    options: &Options,
    command: &str,
    progress: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<Outcome, String> {
    let clock = Instant::now();
    let (training, validation, counts) = data::load(
        &options.data,
        options.positions,
        options.seed,
        options.threads,
    )?;
    if training.is_empty() || validation.is_empty() {
        return Err(format!(
            "too few quiet positions to tune on ({} games, {} positions, {} quiet)",
            counts.games, counts.positions, counts.quiet
        ));
    }
    progress(&format!(
        "tune: {} games, {} positions, {} quiet; training on {}, validating on {} ({} trace entries, {:.1} s)",
        counts.games,
        counts.positions,
        counts.quiet,
        training.len(),
        validation.len(),
        training.entries.len() + validation.entries.len(),
        clock.elapsed().as_secs_f64()
    ));

    let start: Weights = DEFAULTS
        .iter()
        .map(|&(mg, eg)| [mg as f64, eg as f64])
        .collect();
    let k = loss::fit_k(&training, &start);
    progress(&format!(
        "tune: K = {k:.6} (sigmoid(K x centipawns) predicts the results best)"
    ));
    let train_targets = loss::targets(&training, k, options.lambda);
    let valid_targets = loss::targets(&validation, k, options.lambda);
    let losses = |w: &Weights| {
        (
            loss::loss(&training, &train_targets, w, k, options.threads),
            loss::loss(&validation, &valid_targets, w, k, options.threads),
        )
    };

    // Each epoch: the losses of the current weights (the line printed), then one
    // step. The weights kept are those of the epoch with the lowest validation
    // loss: past it the tuner fits the training positions' noise (early stopping).
    let mut weights = start.clone();
    let mut adam = Adam::new(COUNT, options.rate);
    let mut best = Best {
        epoch: 0,
        validation: f64::INFINITY,
        weights: start.clone(),
    };
    let tuning = Instant::now();
    let mut start_loss = (0.0, 0.0);
    for epoch in 0..=options.epochs {
        let (train, gradient) =
            loss::loss_and_gradient(&training, &train_targets, &weights, k, options.threads);
        let valid = loss::loss(&validation, &valid_targets, &weights, k, options.threads);
        if epoch == 0 {
            start_loss = (train, valid);
        }
        if valid < best.validation {
            best = Best {
                epoch,
                validation: valid,
                weights: weights.clone(),
            };
        }
        progress(&format!(
            "epoch {epoch:>5}  train {train:.6}  validation {valid:.6}  {:>7.1} s",
            tuning.elapsed().as_secs_f64()
        ));
        if epoch == options.epochs {
            break;
        }
        adam.step(&mut weights, &gradient);
        if (epoch + 1) % CHECKPOINT_EVERY == 0 {
            checkpoint(&best.file(command, k, &losses))?;
        }
    }
    progress(&format!(
        "tune: the lowest validation loss was at epoch {}",
        best.epoch
    ));
    let written = best.written();
    let largest =
        loss::largest_sum(&training, &written).max(loss::largest_sum(&validation, &written));
    if largest > i16::MAX as f64 {
        progress(&format!(
            "tune: warning: a midgame or endgame sum reaches {largest} with these weights; \
             the engine's packed sums hold {} at most",
            i16::MAX
        ));
    }
    let file = best.file(command, k, &losses);
    checkpoint(&file)?;
    Ok(Outcome {
        file,
        k,
        start_loss,
        end_loss: losses(&written),
        best_epoch: best.epoch,
    })
}

/// The weights of the epoch with the lowest validation loss so far.
struct Best {
    epoch: usize,
    validation: f64,
    weights: Weights,
}

impl Best {
    /// The weights as written: whole centipawns, table drift folded into material.
    fn written(&self) -> Weights {
        writer::round_and_fold(&self.weights, &DEFAULTS)
            .iter()
            .map(|&(mg, eg)| [mg as f64, eg as f64])
            .collect()
    }

    /// The `weights.rs` of these weights; `losses` gives (training, validation).
    fn file(&self, command: &str, k: f64, losses: &dyn Fn(&Weights) -> (f64, f64)) -> String {
        let (train, valid) = losses(&self.written());
        let source = format!(
            "`{command}`: epoch {}, K = {k:.6}, training loss {train:.6}, validation loss {valid:.6}",
            self.epoch
        );
        writer::weights_file(&writer::round_and_fold(&self.weights, &DEFAULTS), &source)
    }
}

/// `tabas tune …`
pub fn run_cli(args: &[String], stdout: &mut dyn FnMut(&str)) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tabas tune: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // A wrong output path fails now, not after the run.
    if let Some(path) = &options.out
        && let Err(e) = OpenOptions::new().create(true).append(true).open(path)
    {
        eprintln!("tabas tune: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    let command = format!("tabas tune {}", args.join(" "));
    let mut save = |text: &str| match &options.out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => Ok(()),
    };
    match run(
        &options,
        &command,
        &mut |line| eprintln!("{line}"),
        &mut save,
    ) {
        Ok(outcome) => {
            eprintln!(
                "tune: done; the weights of epoch {}, as written: loss {:.6} -> {:.6} (training), \
                 {:.6} -> {:.6} (validation)",
                outcome.best_epoch,
                outcome.start_loss.0,
                outcome.end_loss.0,
                outcome.start_loss.1,
                outcome.end_loss.1
            );
            if options.out.is_none() {
                // `weights.rs` ends with a newline; each line is sent with one.
                stdout(outcome.file.trim_end_matches('\n'));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tabas tune: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::words as args;
    use crate::tools::datagen::selfplay::{Player, Settings};

    #[test]
    fn options_parse_with_defaults_and_reject_nonsense() {
        let o = parse_options(&args(
            "--data a --data b --threads 2 --lambda 0.25 --out w.rs",
        ))
        .unwrap();
        assert_eq!(o.data, vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(
            (o.threads, o.lambda, o.positions, o.epochs, o.seed),
            (2, 0.25, 2_000_000, 1000, 1)
        );
        assert_eq!(o.out, Some(PathBuf::from("w.rs")));
        for default in [
            format!("(default {DEFAULT_POSITIONS})"),
            format!("(default {DEFAULT_EPOCHS})"),
            format!("(default {DEFAULT_LAMBDA})"),
            format!("(default {DEFAULT_RATE})"),
            format!("every {CHECKPOINT_EVERY} epochs"),
        ] {
            assert!(USAGE.contains(&default), "USAGE should say {default}");
        }
        for bad in [
            "",
            "--positions 10",
            "--data",
            "--data d --lambda 1.5",
            "--data d --lambda nan",
            "--data d --rate 0",
            "--data d --threads 0",
            "--data d --positions -3",
            "--data d --epochs 99999999999999999999",
            "--data d --what 1",
        ] {
            assert!(parse_options(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_few_epochs_on_self_play_games_lower_the_loss() {
        // A couple of dozen short games, as `tabas datagen` would play them.
        let settings = Settings {
            soft_nodes: 150,
            hard_nodes: 600,
            chess960: false,
            keep_histories: false,
            managed_nodes: false,
        };
        let mut player = Player::new(1).unwrap();
        let games: Vec<_> = (0..24).map(|g| player.play_game(5, g, &settings)).collect();
        let (training, _, counts) = data::select(&games, 100_000, 1, 2).unwrap();
        assert!(training.len() > 200, "{counts:?}");

        let start: Weights = DEFAULTS
            .iter()
            .map(|&(mg, eg)| [mg as f64, eg as f64])
            .collect();
        let k = loss::fit_k(&training, &start);
        assert!((0.001..0.02).contains(&k), "K = {k}");
        let targets = loss::targets(&training, k, 0.5);
        let mut weights = start.clone();
        let mut adam = Adam::new(COUNT, 1.0);
        let before = loss::loss(&training, &targets, &weights, k, 2);
        for _ in 0..10 {
            let (_, gradient) = loss::loss_and_gradient(&training, &targets, &weights, k, 2);
            adam.step(&mut weights, &gradient);
        }
        let after = loss::loss(&training, &targets, &weights, k, 2);
        assert!(after < before * 0.98, "loss {before} -> {after}");
    }
}
