//! `tabas train`: fits a small efficiently-updatable network (NNUE) to Tabas's own
//! self-play games (`tabas datagen`) and writes it as the quantised net file the
//! engine loads.
//!
//! * `data.rs`: the positions, packed in 32 bytes, split by game; the input
//!   features (768 a perspective);
//! * `net.rs`: the float network (768 → N SCReLU, both perspectives → 1; CReLU to
//!   compare), its loss and gradient;
//! * `batch.rs`: a mini-batch's gradient over threads, the same bits with any;
//! * `adamw.rs`: the optimiser, one step a mini-batch, weights clipped for the
//!   integers;
//! * `quant.rs`: the net file (the contract with the engine) and a reference of
//!   the engine's integer evaluation;
//! * `options.rs`: the command line (usage text, parsing into [`Options`]);
//! * `wide.rs`: the hot loops compiled a second time for AVX2, run where the CPU
//!   has it (the same arithmetic, so the same net).
//!
//! The loss is the squared difference between `sigmoid(eval / 400)` and a target
//! mixing the game's result and the search's score, as in `tabas tune`. Given the
//! data, the seed and the settings, a run is reproducible to the bit whatever the
//! number of threads and whatever the x86-64 CPU.

mod adamw;
mod batch;
pub mod data;
pub mod net;
mod options;
pub mod quant;
mod wide;

pub use net::{Activation, FloatNet};
pub use options::{Options, USAGE, parse_options};
pub use quant::{MAGIC, QA, QB, QuantNet, SCALE};

use crate::nnue::{InputLayout, MAX_OUTPUT_BUCKETS};
use crate::rng::Rng;
use crate::tools::datagen::format::GameRecord;
use crate::tools::filter::Filter;
use crate::tools::parallel::in_chunks;
use adamw::AdamW;
use data::{Packed, Split};
use net::{Gradient, Workspace};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// How `tabas train` trains: the command line's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub hidden: usize,
    pub buckets: usize,
    /// `None`: set by the data's size (`epochs_for`).
    pub epochs: Option<usize>,
    pub batch: usize,
    pub lr: f64,
    pub wd: f64,
    pub lambda: f64,
    pub threads: usize,
    pub seed: u64,
    pub max_positions: usize,
    /// Which positions train the net (validation positions pass the default).
    pub filter: Filter,
    pub activation: Activation,
    pub schedule: ScheduleKind,
    /// Train on the mirror images too (`data::add_mirrored`; `--no-mirror` turns it
    /// off). King-mirrored inputs never get them ([`Settings::adds_mirror_images`]).
    pub mirror: bool,
    /// How the net reads the board (`--inputs`).
    pub inputs: InputLayout,
}

/// The shape of the learning rate's course over a run (`Schedule` gives its rates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleKind {
    /// `--lr`, then `--lr × LR_DROP` for the last 1/`DROP_PART` of the epochs.
    Step,
    /// From `--lr` down to `--lr × COSINE_FLOOR` along half a cosine, batch by batch:
    /// the peers' other usual schedule, to compare.
    Cosine,
}

// The defaults (each also written in `USAGE`).
/// The engine's width, so that a net trained with the defaults loads in the build
/// that trained it (256 since cfbe014: 256 units beat 128 by +34.3 Elo on 19.4 M
/// positions (c676fe0) and are 3.2 % better in validation on 8.9 M; a 400 KB file).
const DEFAULT_HIDDEN: usize = crate::nnue::HIDDEN;
/// One output layer for about every four pieces on the board: the usual choice of
/// small nets, and the lowest validation loss of 1, 4 and 8 (docs/network/tools.md, "The network").
const DEFAULT_BUCKETS: usize = 8;
/// Without `--epochs`, the epochs show the net this many positions in all (within
/// `AUTO_EPOCHS`): a budget of optimizer steps rather than of passes, so that more data
/// means fewer passes over it. On 4.3 M quiet positions the validation loss was
/// 0.002409 after 12 epochs, 0.002388 after 24 and 0.002377 after 40 (172 M seen).
/// On 12.5 M positions (15.0 M with the mirror images) the file's net had 0.003805
/// after 14 epochs (the 200 M budget this replaced), 0.003773 after 28 and 0.003750
/// after 40 (600 M); on 30 M, 10 epochs beat that budget's 6 by 0.9 %
/// (docs/network/default-net.md, "At 12.5 M positions"). Remeasure (e.g. half and
/// twice the budget) when the data grows several-fold.
const POSITIONS_SEEN: usize = 600_000_000;
/// Epochs without `--epochs`: at least 4 (so that the low-rate quarter exists), at
/// most 40 (no run measured more).
const AUTO_EPOCHS: std::ops::RangeInclusive<usize> = 4..=40;
/// Small enough for a few hundred steps an epoch on a million positions (16384
/// gave 40 steps an epoch, and the net was far from trained after 8 epochs),
/// large enough for many thread chunks.
const DEFAULT_BATCH: usize = 4096;
/// Adam's usual rate; the weights live in ±`adamw::CLIP`.
const DEFAULT_LR: f64 = 0.001;
/// Strong: the nets are data-bound (training loss well under validation loss).
/// On 1.43 M quiet positions (λ 0, 128 units, one output bucket, batch 4096, 12
/// epochs) the validation loss was 0.002793 at 0.01, 0.002731 at 0.1, 0.002634
/// at 0.3 and 0.002780 at 1.0. On 3.39 M (8 output buckets, otherwise the same)
/// it was 0.002543 at 0.01, 0.002530 at 0.03, 0.002502 at 0.1 and 0.002538 at 0.3
/// (the file's integer net); no game compared the decays alone. Retune it when the
/// data grows several-fold.
const DEFAULT_WD: f64 = 0.1;
/// The search's score only. On 8,657 games (1.07 M positions), λ = 0.5 let even a
/// 32-unit net learn the games' results by heart (training loss 0.015, validation
/// 0.028, rising), and its net scored 20 % against the hand-written evaluation in
/// 32 games at 2+0.02; λ = 0 kept the losses together and scored 37.5 % (40
/// games). A game's result is one label for a hundred positions: with few games
/// it is noise to memorise. Try λ > 0 again with millions of games.
const DEFAULT_LAMBDA: f64 = 0.0;

/// The learning rate is multiplied by `LR_DROP` for the last 1/`DROP_PART` of the
/// epochs (rounded down: none for fewer than 4 epochs): a step schedule, the
/// simplest that lets the weights settle at the end, and easy to reason about.
///
/// Those epochs also make the net file exact in its output layer: their first
/// snaps the output weights to the file's grid (multiples of 1/QB) and freezes
/// them, and the other parameters learn around the rounding. Rounded plainly,
/// output weights moved by up to 1/(2·QB) each shift a 128-unit net's evaluations
/// by 10–17 cp on Tabas's data (SCReLU units are never negative, so the roundings
/// add up instead of cancelling); at the low rate they would move less than a
/// grid step anyway.
const LR_DROP: f64 = 0.1;
const DROP_PART: usize = 4;
/// A cosine schedule ends at this fraction of `--lr`: the step schedule's low rate cut
/// by ten again, so that the last batches barely move the weights.
const COSINE_FLOOR: f64 = 0.01;
/// The random generator's stream of the epochs' shuffles.
const SHUFFLE_STREAM: u64 = u64::MAX - 4;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: DEFAULT_HIDDEN,
            buckets: DEFAULT_BUCKETS,
            epochs: None,
            batch: DEFAULT_BATCH,
            lr: DEFAULT_LR,
            wd: DEFAULT_WD,
            lambda: DEFAULT_LAMBDA,
            threads: 1,
            seed: 1,
            max_positions: usize::MAX,
            filter: Filter::default(),
            activation: Activation::SCReLU,
            schedule: ScheduleKind::Step,
            mirror: true,
            inputs: InputLayout::Plain,
        }
    }
}

impl Settings {
    /// An error naming the command-line flag of the first setting out of range.
    pub fn check(&self) -> Result<(), String> {
        let s = self;
        let bad = |what: &str| Err(what.to_string());
        if !(quant::MIN_HIDDEN..=quant::MAX_HIDDEN).contains(&s.hidden)
            || !s.hidden.is_multiple_of(quant::HIDDEN_STEP)
        {
            return Err(format!(
                "--hidden must be a multiple of {} in {}..={}, not {}",
                quant::HIDDEN_STEP,
                quant::MIN_HIDDEN,
                quant::MAX_HIDDEN,
                s.hidden
            ));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&s.buckets) {
            return Err(format!(
                "--output-buckets must be in 1..={MAX_OUTPUT_BUCKETS}"
            ));
        }
        if s.epochs == Some(0) || s.batch == 0 || s.threads == 0 || s.max_positions == 0 {
            return bad("--epochs, --batch, --threads and --max-positions must be at least 1");
        }
        // (NaN fails every comparison.)
        if !(s.lr > 0.0 && s.lr <= 1.0) {
            return bad("--lr must be in (0, 1]");
        }
        if !((0.0..=1.0).contains(&s.wd) && (0.0..=1.0).contains(&s.lambda)) {
            return bad("--wd and --lambda must be in 0..=1");
        }
        Ok(())
    }

    /// Whether the run adds the mirror images of its positions: as `mirror` says, for
    /// plain inputs only (a king-mirrored net sees an image as its original).
    pub fn adds_mirror_images(&self) -> bool {
        self.mirror && self.inputs == InputLayout::Plain
    }

    /// The epochs of a run on `positions` training positions: `--epochs`, or as many as
    /// show the net `POSITIONS_SEEN` positions (rounded up, within `AUTO_EPOCHS`).
    pub fn epochs_for(&self, positions: usize) -> usize {
        self.epochs.unwrap_or_else(|| {
            POSITIONS_SEEN
                .div_ceil(positions.max(1))
                .clamp(*AUTO_EPOCHS.start(), *AUTO_EPOCHS.end())
        })
    }
}

/// The learning rate of every batch of a run (see `ScheduleKind`), and the epoch from
/// which the output weights stay on the file's grid (the last quarter, either way).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Schedule {
    lr: f64,
    epochs: usize,
    kind: ScheduleKind,
}

impl Schedule {
    /// The learning rate of `epoch` (1-based) after `done` (in 0..1) of its batches.
    fn rate(&self, epoch: usize, done: f64) -> f64 {
        match self.kind {
            ScheduleKind::Step if epoch >= self.first_low_rate_epoch() => self.lr * LR_DROP,
            ScheduleKind::Step => self.lr,
            ScheduleKind::Cosine => {
                let progress = ((epoch - 1) as f64 + done) / self.epochs as f64;
                let floor = self.lr * COSINE_FLOOR;
                floor + (self.lr - floor) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
            }
        }
    }

    /// The first epoch of the last quarter (past the last when there is none): the step
    /// schedule's low rate, and the output weights on the file's grid.
    fn first_low_rate_epoch(&self) -> usize {
        self.epochs - self.epochs / DROP_PART + 1
    }
}

/// Trains a network on `games` with `settings`, reporting a line at the start and
/// one an epoch to `out`.
pub fn train_on_games(
    games: &[GameRecord],
    settings: &Settings,
    out: &mut dyn FnMut(&str),
) -> Result<FloatNet, String> {
    train(games, settings, None, out, &mut |_| Ok(()))
}

/// [`train_on_games`] from the network `start` (random weights from the seed when
/// `None`), handing the network to `checkpoint` after every epoch.
pub fn train(
    games: &[GameRecord],
    settings: &Settings,
    start: Option<FloatNet>,
    out: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&FloatNet) -> Result<(), String>,
) -> Result<FloatNet, String> {
    settings.check()?;
    let s = settings;
    if let Some(net) = &start
        && (net.hidden, net.buckets(), net.activation, net.layout)
            != (s.hidden, s.buckets, s.activation, s.inputs)
    {
        return Err(format!(
            "the starting net has {} hidden units, {} output buckets and {} inputs, the \
             settings {}, {} and {}",
            net.hidden,
            net.buckets(),
            net.layout.name(),
            s.hidden,
            s.buckets,
            s.inputs.name()
        ));
    }
    let clock = Instant::now();
    let Split {
        mut training,
        validation,
        counts,
    } = data::split(games, s.max_positions, s.seed, s.threads, &s.filter)?;
    let mirrored = if s.adds_mirror_images() {
        data::add_mirrored(&mut training)
    } else {
        0
    };
    if training.is_empty() {
        return Err(format!(
            "too few quiet positions to train on ({} games, {} positions, {} quiet)",
            counts.games, counts.positions, counts.quiet
        ));
    }
    out(&format!(
        "train: {} games, {} positions, {} pass the filter{}, {} kept; training on {}{}, validating on {} \
         (from {} games); {} hidden units, {} inputs{}; {} epochs; {:.1} s",
        counts.games,
        counts.positions,
        counts.quiet,
        match s.filter.describe() {
            d if d.is_empty() => String::new(),
            d => format!(" ({d}; validation: the default)"),
        },
        training.len() - mirrored + validation.len(),
        training.len(),
        match mirrored {
            0 => String::new(),
            n => format!(" ({n} of them mirror images)"),
        },
        validation.len(),
        counts.validation_games,
        s.hidden,
        s.inputs.name(),
        if start.is_some() {
            ", from the given net"
        } else {
            ""
        },
        s.epochs_for(training.len()),
        clock.elapsed().as_secs_f64()
    ));

    let lambda = s.lambda as f32;
    let mut net = start.unwrap_or_else(|| FloatNet::new(s.hidden, s.buckets, s.seed));
    net.activation = s.activation;
    net.layout = s.inputs;
    let mut adam = AdamW::new(&net);
    let mut workspaces: Vec<Workspace> = (0..s.threads)
        .map(|_| Workspace::new(s.hidden, s.buckets))
        .collect();
    let mut gradient = Gradient::new(s.hidden, s.buckets);
    let mut shuffler = Rng::new(s.seed, SHUFFLE_STREAM);
    let schedule = Schedule {
        lr: s.lr,
        epochs: s.epochs_for(training.len()),
        kind: s.schedule,
    };
    let batches = training.len().div_ceil(s.batch);
    for epoch in 1..=schedule.epochs {
        let started = Instant::now();
        // (The epoch's first rate, for the log.)
        let rate = schedule.rate(epoch, 0.0);
        if epoch == schedule.first_low_rate_epoch() {
            net.snap_output_weights();
            adam.freeze_output();
        }
        shuffle(&mut training, &mut shuffler);
        let mut loss = 0.0;
        for (b, batch) in training.chunks(s.batch).enumerate() {
            loss += batch::batch_gradient(&net, batch, lambda, &mut workspaces, &mut gradient);
            let rate = schedule.rate(epoch, b as f64 / batches as f64);
            adam.step(&mut net, &gradient, rate as f32, s.wd as f32);
        }
        let training_secs = started.elapsed().as_secs_f64();
        // The training loss is the mean over the epoch, as the weights moved.
        let train_loss = loss / training.len() as f64;
        if !train_loss.is_finite() {
            return Err(format!(
                "the loss diverged in epoch {epoch}; try a lower --lr"
            ));
        }
        let valid = match mean_loss(&net, &validation, lambda, s.threads) {
            Some(l) => format!("{l:.6}"),
            None => "-".to_string(),
        };
        out(&format!(
            "epoch {epoch:>3}  lr {rate:.6}  train {train_loss:.6}  validation {valid}  \
             {:.0} positions/s  {:.1} s",
            training.len() as f64 / training_secs.max(1e-9),
            started.elapsed().as_secs_f64()
        ));
        checkpoint(&net)?;
    }
    // What the engine will see: the net file's integer evaluation, beside the
    // float network's (on the validation positions).
    let check = if validation.is_empty() {
        &training
    } else {
        &validation
    };
    let float = mean_loss(&net, check, lambda, s.threads).unwrap_or(f64::NAN);
    if net.activation == Activation::SCReLU {
        let evals = integer_evals(&QuantNet::from_float(&net), check);
        let file = agreement(&net, &evals, check);
        out(&format!(
            "train: the net file's integer evaluation: loss {:.6} (float {float:.6}), {:.2} cp \
             from the float one on average, {:.0} cp at most",
            integer_loss(&evals, check, lambda),
            file.mean,
            file.most
        ));
    } else {
        out(&format!(
            "train: {} float network: loss {float:.6}",
            net.activation.name()
        ));
    }
    // Yardsticks that do not depend on --lambda, for comparing runs that differ in it.
    // (The run's own λ was measured above: not again.)
    let against = |l: f32| {
        if l == lambda {
            float
        } else {
            mean_loss(&net, check, l, s.threads).unwrap_or(f64::NAN)
        }
    };
    out(&format!(
        "train: validation loss against the search's score (lambda 0) {:.6}, against the \
         game's result (lambda 1) {:.6}",
        against(0.0),
        against(1.0)
    ));
    Ok(net)
}

/// The losses of the net file `net` on the validation positions of `games` split as
/// `settings` would split them (its seed; the default filter, as validation always is):
/// against its target (`settings.lambda`), the search's score and the game's result.
pub fn evaluate(
    games: &[GameRecord],
    settings: &Settings,
    net: &QuantNet,
    out: &mut dyn FnMut(&str),
) -> Result<(), String> {
    settings.check()?;
    let s = settings;
    let validation = data::split(games, s.max_positions, s.seed, s.threads, &s.filter)?;
    let (positions, held_out) = (validation.validation, validation.counts.validation_games);
    if positions.is_empty() {
        return Err(format!(
            "no held-out positions to evaluate on ({} games)",
            validation.counts.games
        ));
    }
    let evals = integer_evals(net, &positions);
    out(&format!(
        "evaluate: {} positions of {held_out} held-out games (of {}): loss {:.6} against \
         the target (lambda {}), {:.6} against the search's score (lambda 0), {:.6} against \
         the game's result (lambda 1)",
        positions.len(),
        validation.counts.games,
        integer_loss(&evals, &positions, s.lambda as f32),
        s.lambda,
        integer_loss(&evals, &positions, 0.0),
        integer_loss(&evals, &positions, 1.0),
    ));
    Ok(())
}

/// The net file's integer evaluation of each of `positions`, evaluated once for every
/// figure taken from it.
fn integer_evals(q: &QuantNet, positions: &[Packed]) -> Vec<i32> {
    let (mut ours, mut theirs) = ([0; data::MAX_PIECES], [0; data::MAX_PIECES]);
    positions
        .iter()
        .map(|p| {
            let n = p.features(q.layout, &mut ours, &mut theirs);
            q.evaluate_features(&ours[..n], &theirs[..n])
        })
        .collect()
}

/// The mean loss of the integer evaluations `evals` of `positions`.
fn integer_loss(evals: &[i32], positions: &[Packed], lambda: f32) -> f64 {
    let loss: f64 = evals
        .iter()
        .zip(positions)
        .map(|(&int, p)| {
            let prediction = data::sigmoid(int as f32 / SCALE as f32);
            ((prediction - p.target(lambda)) as f64).powi(2)
        })
        .sum();
    loss / positions.len().max(1) as f64
}

/// How a net file's integer evaluation differs from its float network's, centipawns.
struct Agreement {
    /// The mean and the largest difference.
    mean: f64,
    most: f64,
}

/// `evals`: the net file's integer evaluations of `positions` ([`integer_evals`]).
fn agreement(net: &FloatNet, evals: &[i32], positions: &[Packed]) -> Agreement {
    let (mut ours, mut theirs) = ([0; data::MAX_PIECES], [0; data::MAX_PIECES]);
    let (mut total, mut most) = (0.0f64, 0.0f64);
    for (&int, p) in evals.iter().zip(positions) {
        let n = p.features(net.layout, &mut ours, &mut theirs);
        let error = (net.evaluate_features(&ours[..n], &theirs[..n]) - int as f32).abs() as f64;
        total += error;
        most = most.max(error);
    }
    Agreement {
        mean: total / positions.len().max(1) as f64,
        most,
    }
}

/// The mean loss of `positions` (`None` when there are none), over `threads`.
fn mean_loss(net: &FloatNet, positions: &[Packed], lambda: f32, threads: usize) -> Option<f64> {
    if positions.is_empty() {
        return None;
    }
    let parts = in_chunks(positions, threads, |_, part| {
        net::loss_sum(net, part, lambda)
    });
    Some(parts.iter().sum::<f64>() / positions.len() as f64)
}

/// A seeded Fisher–Yates shuffle.
fn shuffle(positions: &mut [Packed], rng: &mut Rng) {
    for i in (1..positions.len()).rev() {
        positions.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// `path` with `.tmp` added to its name.
fn temporary(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `bytes` to `path` whole or not at all: to a temporary file first, then
/// renamed over it, so that a trainer killed mid-write leaves the last whole net.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temporary(path);
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `tabas train …`
pub fn run_cli(args: &[String], out: &mut dyn FnMut(&str)) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tabas train: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // A wrong output path fails now, not after loading the data and an epoch.
    if let Some(path) = &options.out {
        let tmp = temporary(path);
        if let Err(e) = std::fs::write(&tmp, b"").and_then(|_| std::fs::remove_file(&tmp)) {
            eprintln!("tabas train: cannot write {}: {e}", tmp.display());
            return ExitCode::FAILURE;
        }
    }
    // The net files are read before the data, so that a wrong one fails at once.
    let load = |path: &PathBuf| {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        QuantNet::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let (evaluated, init) = match (
        options.evaluate.as_ref().map(load).transpose(),
        options.init.as_ref().map(load).transpose(),
    ) {
        (Ok(evaluated), Ok(init)) => (evaluated, init),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("tabas train: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A run from a net file has that net's shape, or its width made larger.
    let mut settings = options.settings;
    let mut start = init.as_ref().map(FloatNet::from_quant);
    if let Some(net) = &mut start {
        if options.widen {
            match net.widen(settings.hidden, settings.seed) {
                Ok(wide) => *net = wide,
                Err(e) => {
                    eprintln!("tabas train: {e} (--hidden with --init)");
                    return ExitCode::FAILURE;
                }
            }
        }
        (settings.hidden, settings.buckets) = (net.hidden, net.buckets());
        settings.inputs = net.layout;
    }
    let mut games = Vec::new();
    for dir in &options.data {
        match crate::tools::datagen::read_folder(dir) {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("tabas train: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Some(net) = &evaluated {
        return match evaluate(&games, &settings, net, out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tabas train: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut save = |net: &FloatNet| match &options.out {
        Some(path) => write_atomically(path, &net.to_bytes()),
        None => Ok(()),
    };
    match train(&games, &settings, start, out, &mut save) {
        Ok(net) => {
            match &options.out {
                Some(path) => out(&format!(
                    "train: done; {} holds the net of the last epoch ({} hidden units, {} \
                     output buckets, {} bytes)",
                    path.display(),
                    net.hidden,
                    net.buckets(),
                    quant::file_len(net.hidden, net.buckets())
                )),
                None => out("train: done (no net file: the engine evaluates SCReLU nets)"),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tabas train: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::packed_move::pack_move;
    use crate::tools::datagen::format::{GameResult, Ply};
    use shakmaty::{Chess, Color, Position, Role};

    #[test]
    fn the_api_refuses_what_the_command_line_refuses() {
        for wrong in [
            Settings {
                hidden: 12,
                ..Settings::default()
            },
            Settings {
                threads: 0,
                ..Settings::default()
            },
            Settings {
                lr: f64::NAN,
                ..Settings::default()
            },
        ] {
            assert!(train_on_games(&[], &wrong, &mut |_| {}).is_err());
        }
        assert!(
            train_on_games(&[], &Settings::default(), &mut |_| {})
                .unwrap_err()
                .contains("too few quiet positions")
        );
    }

    #[test]
    fn the_learning_rate_drops_for_the_last_quarter() {
        let rates = |epochs| {
            let s = Schedule {
                epochs,
                lr: 1.0,
                kind: ScheduleKind::Step,
            };
            (1..=epochs).map(|e| s.rate(e, 0.5)).collect::<Vec<_>>()
        };
        assert_eq!(rates(8), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1, 0.1]);
        assert_eq!(rates(20).iter().filter(|&&r| r < 1.0).count(), 5);
        assert_eq!(rates(3), [1.0, 1.0, 1.0]);
    }

    #[test]
    fn the_cosine_schedule_falls_smoothly_from_the_rate_to_its_floor() {
        let s = Schedule {
            epochs: 4,
            lr: 1.0,
            kind: ScheduleKind::Cosine,
        };
        assert_eq!(s.rate(1, 0.0), 1.0, "starts at --lr");
        let middle = s.rate(3, 0.0);
        assert!(
            (middle - (1.0 + COSINE_FLOOR) / 2.0).abs() < 1e-12,
            "{middle}"
        );
        let last = s.rate(4, 0.999_999);
        assert!(
            (last - COSINE_FLOOR).abs() < 1e-9,
            "ends at the floor: {last}"
        );
        // Falling all along, batch after batch.
        let course: Vec<f64> = (1..=4)
            .flat_map(|e| (0..10).map(move |b| s.rate(e, b as f64 / 10.0)))
            .collect();
        assert!(course.windows(2).all(|w| w[1] < w[0]), "{course:?}");
        // The output weights go on the grid at the same epoch as with steps.
        assert_eq!(s.first_low_rate_epoch(), 4);
    }

    #[test]
    fn without_epochs_more_data_gets_fewer_passes() {
        let auto = Settings::default();
        assert_eq!(auto.epochs_for(15_000_000), 40);
        assert_eq!(auto.epochs_for(4_000_000), 40, "at most 40");
        assert_eq!(auto.epochs_for(35_000_000), 18, "600 M / 35 M, rounded up");
        assert_eq!(auto.epochs_for(300_000_000), 4, "at least 4");
        assert_eq!(auto.epochs_for(0), 40);
        let given = Settings {
            epochs: Some(12),
            ..Settings::default()
        };
        assert_eq!(given.epochs_for(30_000_000), 12, "--epochs wins");
    }

    /// Material balance for White, centipawns.
    fn material(pos: &Chess) -> i32 {
        const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];
        pos.board()
            .iter()
            .map(|(_, p)| {
                let value = VALUES[p.role as usize - Role::Pawn as usize];
                if p.color == Color::White {
                    value
                } else {
                    -value
                }
            })
            .sum()
    }

    /// Games of random moves (captures favoured), scored by material, won by the
    /// side ahead at the end: data with something to learn, made in milliseconds.
    pub(crate) fn playout_games(count: u64, seed: u64) -> Vec<GameRecord> {
        (0..count)
            .map(|g| {
                let mut rng = Rng::new(seed, g);
                let start = Chess::default();
                let mut pos = start.clone();
                let mut plies = Vec::new();
                for _ in 0..100 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = crate::rng::playout_move(&mut rng, &moves, 3);
                    let noise = rng.below(41) as i32 - 20;
                    plies.push(Ply {
                        packed_move: pack_move(m),
                        white_score: (material(&pos) + noise).clamp(-1900, 1900) as i16,
                    });
                    pos.play_unchecked(m);
                }
                let result = match material(&pos) {
                    m if m > 150 => GameResult::WhiteWon,
                    m if m < -150 => GameResult::BlackWon,
                    _ => GameResult::Draw,
                };
                GameRecord {
                    start,
                    chess960: false,
                    result,
                    plies,
                }
            })
            .collect()
    }

    fn small(threads: usize) -> Settings {
        Settings {
            hidden: 16,
            epochs: Some(6),
            batch: 3 * batch::CHUNK,
            lr: 0.01,
            threads,
            ..Settings::default()
        }
    }

    #[test]
    fn evaluating_a_net_file_gives_the_loss_its_training_run_gave() {
        let games = playout_games(80, 3);
        let settings = small(1);
        let mut lines = Vec::new();
        let net = train_on_games(&games, &settings, &mut |l| lines.push(l.to_string())).unwrap();
        // "train: the net file's integer evaluation: loss X (float …"
        let trained = lines[7]
            .split("loss ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let mut reported = Vec::new();
        let file = QuantNet::from_bytes(&net.to_bytes()).unwrap();
        evaluate(&games, &settings, &file, &mut |l| {
            reported.push(l.to_string())
        })
        .unwrap();
        assert_eq!(reported.len(), 1, "{reported:?}");
        let split = data::split(&games, usize::MAX, settings.seed, 1, &Filter::default()).unwrap();
        let r = &reported[0];
        assert!(
            r.starts_with(&format!(
                "evaluate: {} positions of {} held-out games (of 80): loss {trained} against",
                split.validation.len(),
                split.counts.validation_games
            )),
            "{r} (training said {trained})"
        );
        // Another seed holds out other games, so another loss.
        let other = Settings {
            seed: 2,
            ..small(1)
        };
        let mut elsewhere = Vec::new();
        evaluate(&games, &other, &file, &mut |l| {
            elsewhere.push(l.to_string())
        })
        .unwrap();
        assert_ne!(elsewhere, reported);
        // No held-out games: an error, not the loss of nothing.
        assert!(evaluate(&games[..0], &settings, &file, &mut |_| {}).is_err());
    }

    #[test]
    fn training_lowers_the_loss_the_same_with_any_threads() {
        let games = playout_games(80, 2);
        let settings = small(1);
        let mut lines = Vec::new();
        let mut epochs = 0;
        let net = train(
            &games,
            &settings,
            None,
            &mut |l| lines.push(l.to_string()),
            &mut |_| {
                epochs += 1;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(Some(epochs), settings.epochs, "a checkpoint every epoch");
        assert_eq!(lines.len(), 3 + epochs, "{lines:?}");
        assert!(lines[7].contains("cp at most"), "{}", lines[7]);
        assert!(lines[8].contains("(lambda 1)"), "{}", lines[8]);
        assert!(lines[0].starts_with("train: 80 games"), "{}", lines[0]);
        assert!(lines[6].contains("epoch   6  lr 0.001000"), "{}", lines[6]);

        let split = data::split(&games, usize::MAX, settings.seed, 1, &Filter::default()).unwrap();
        assert!(split.training.len() > 2000, "{:?}", split.counts);
        let start = FloatNet::new(settings.hidden, settings.buckets, settings.seed);
        for set in [&split.training, &split.validation] {
            let before = mean_loss(&start, set, 0.5, 1).unwrap();
            let after = mean_loss(&net, set, 0.5, 1).unwrap();
            assert!(after < 0.6 * before, "loss {before} -> {after}");
        }

        // A CReLU network learns too, and its report names no net file.
        let crelu_settings = Settings {
            activation: Activation::CReLU,
            ..small(1)
        };
        let mut crelu_lines = Vec::new();
        let crelu = train_on_games(&games, &crelu_settings, &mut |l| {
            crelu_lines.push(l.to_string())
        })
        .unwrap();
        assert_eq!(crelu.activation, Activation::CReLU);
        let before = mean_loss(&start, &split.validation, 0.5, 1).unwrap();
        let after = mean_loss(&crelu, &split.validation, 0.5, 1).unwrap();
        assert!(after < 0.6 * before, "crelu loss {before} -> {after}");
        assert!(
            crelu_lines[7].contains("crelu float network"),
            "{crelu_lines:?}"
        );

        let two = train_on_games(&games, &small(2), &mut |_| {}).unwrap();
        assert!(bits(&two) == bits(&net), "two threads trained another net");
        let three = train_on_games(&games, &small(3), &mut |_| {}).unwrap();
        assert!(
            bits(&three) == bits(&net),
            "three threads trained another net"
        );

        // The output weights ended on the file's grid (the last epoch froze them
        // there), so the integer evaluation differs from the float one only by the
        // input weights' rounding and the engine's truncating divisions.
        assert!(net.v.iter().all(|v| (v * QB as f32).fract() == 0.0));
        let q = QuantNet::from_bytes(&net.to_bytes()).unwrap();
        let (mut total, mut count) = (0.0, 0);
        for game in games.iter().take(20) {
            for sample in game.samples().unwrap().iter().step_by(3) {
                let (float, int) = (net.evaluate_cp(&sample.pos), q.evaluate_cp(&sample.pos));
                assert!((float - int as f32).abs() < 12.0, "{float} {int}");
                total += (float - int as f32).abs();
                count += 1;
            }
        }
        assert!(total / count as f32 <= 3.0, "{}", total / count as f32);
    }

    #[test]
    fn a_run_trains_on_the_mirror_images_too_unless_told_not_to() {
        let games = playout_games(40, 4);
        let mirrored = Settings {
            epochs: Some(1),
            ..small(1)
        };
        let split = data::split(&games, usize::MAX, mirrored.seed, 1, &Filter::default()).unwrap();
        let images = split.training.iter().filter(|p| p.mirrorable()).count();
        assert!(images > 0);
        let mut lines = Vec::new();
        train_on_games(&games, &mirrored, &mut |l| lines.push(l.to_string())).unwrap();
        let expected = format!(
            "training on {} ({images} of them mirror images), validating on {} ",
            split.training.len() + images,
            split.validation.len()
        );
        assert!(lines[0].contains(&expected), "{}", lines[0]);
        let plain = Settings {
            mirror: false,
            ..mirrored
        };
        lines.clear();
        train_on_games(&games, &plain, &mut |l| lines.push(l.to_string())).unwrap();
        let expected = format!(
            "training on {}, validating on {} ",
            split.training.len(),
            split.validation.len()
        );
        assert!(lines[0].contains(&expected), "{}", lines[0]);
    }

    #[test]
    fn a_run_from_a_net_goes_on_from_it() {
        let games = playout_games(80, 2);
        let settings = small(1);
        let trained = train_on_games(&games, &settings, &mut |_| {}).unwrap();
        let split = data::split(&games, usize::MAX, settings.seed, 1, &Filter::default()).unwrap();
        let loss = |net: &FloatNet| mean_loss(net, &split.validation, 0.0, 1).unwrap();
        // One epoch at a low rate: from the trained net it stays near that net's loss,
        // far below a random start's one epoch at the same rate.
        let gentle = Settings {
            epochs: Some(1),
            lr: 0.0005,
            ..small(1)
        };
        let mut lines = Vec::new();
        let from_trained = train(
            &games,
            &gentle,
            Some(trained.clone()),
            &mut |l| lines.push(l.to_string()),
            &mut |_| Ok(()),
        )
        .unwrap();
        assert!(
            lines[0].contains("16 hidden units, plain inputs, from the given net;"),
            "{}",
            lines[0]
        );
        let from_scratch = train_on_games(&games, &gentle, &mut |_| {}).unwrap();
        assert!(
            loss(&from_trained) < 1.2 * loss(&trained)
                && 1.5 * loss(&from_trained) < loss(&from_scratch),
            "trained {} -> {}, from scratch {}",
            loss(&trained),
            loss(&from_trained),
            loss(&from_scratch)
        );
        // A start of another shape than the settings: an error.
        let wide = Settings {
            hidden: 32,
            ..gentle
        };
        let e = train(&games, &wide, Some(trained), &mut |_| {}, &mut |_| Ok(())).unwrap_err();
        assert!(e.contains("16 hidden units"), "{e}");
    }

    /// Each parameter's bits: equal nets to the last bit (−0 ≠ +0).
    fn bits(net: &FloatNet) -> Vec<u32> {
        let all = net.w.iter().chain(&net.b).chain(&net.v);
        all.chain(&net.c0).map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_net_file_is_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("tabas-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.bin");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!temporary(&path).exists());
        assert_eq!(temporary(&path), dir.join("net.bin.tmp"));
        assert!(write_atomically(&dir.join("no/such/net.bin"), b"x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The round trip: a network trained here loads in the engine (`src/nnue/`) and
/// evaluates exactly as the trainer's integer reference and close to its float
/// forward pass.
#[cfg(test)]
mod round_trip {
    use super::{QuantNet, Settings, train_on_games};
    use crate::nnue::{HIDDEN, InputLayout, MAX_EVAL, Network};
    use shakmaty::Position;

    #[test]
    fn a_trained_network_evaluates_as_the_trainer_says() {
        evaluates_as_the_trainer_says(InputLayout::Plain);
    }

    #[test]
    fn a_trained_king_mirrored_network_evaluates_as_the_trainer_says() {
        evaluates_as_the_trainer_says(InputLayout::KingMirrored);
    }

    fn evaluates_as_the_trainer_says(inputs: InputLayout) {
        let games = super::tests::playout_games(60, 5);
        let settings = Settings {
            hidden: HIDDEN,
            epochs: Some(4),
            batch: 256,
            inputs,
            ..Settings::default()
        };
        let float = train_on_games(&games, &settings, &mut |_| {}).unwrap();
        let bytes = float.to_bytes();
        let net: &'static Network = Box::leak(Box::new(Network::from_bytes(&bytes).unwrap()));
        assert_eq!(net.layout(), inputs);
        let reference = QuantNet::from_bytes(&bytes).unwrap();
        let mut worst = 0.0f32;
        let mut positions = 0;
        for game in &games {
            for sample in game.samples().unwrap() {
                // The network alone (`Board::evaluate` adds `nnue::bare_king`'s term).
                let board = sample.pos.board();
                let ours = net.evaluate(
                    &net.refresh(board),
                    sample.pos.turn(),
                    board.occupied().count(),
                );
                assert_eq!(
                    ours,
                    reference
                        .evaluate_cp(&sample.pos)
                        .clamp(-MAX_EVAL, MAX_EVAL)
                );
                worst = worst.max((ours as f32 - float.evaluate_cp(&sample.pos)).abs());
                positions += 1;
            }
        }
        assert!(positions > 1000, "{positions}");
        // Rounding the hidden weights to 1/255: a few centipawns.
        assert!(
            worst < 40.0,
            "{worst} cp between the float and the integer network"
        );
    }
}
