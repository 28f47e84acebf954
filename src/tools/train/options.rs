//! `tabas train`'s command line: its usage text and the parsing of its arguments
//! into [`Options`] (pure: no file is touched; `run_cli` in `mod.rs` does the I/O).

use super::{Activation, ScheduleKind, Settings, quant};
use crate::args::{real, whole};
use crate::nnue::{InputLayout, MAX_OUTPUT_BUCKETS};
use crate::tools::filter;
use std::path::PathBuf;

pub const USAGE: &str =
    "usage: tabas train --data DIR [--data DIR ...] --out FILE [--hidden N] [--epochs E]
                   [--batch B] [--lr R] [--wd W] [--lambda L] [--threads T] [--seed S]
                   [--max-positions N] [--min-ply N] [--keep-checks] [--keep-noisy]
                   [--max-score CP] [--activation screlu|crelu] [--schedule step|cosine]
                   [--init NET] [--no-mirror] [--inputs plain|king-mirrored]
       tabas train --data DIR [--data DIR ...] --evaluate NET [--lambda L] [--seed S]
  --data DIR          a tabas datagen folder, or a folder of them such as
                      ../shared/data/selfplay (repeat for more)
  --out FILE          the net file, rewritten after every epoch (through FILE.tmp)
  --init NET          start from the net file NET's weights instead of random ones
                      (fine-tuning; its output buckets are the run's, so leave out
                      --output-buckets, and so is its hidden size unless --hidden
                      asks for more: then its units are kept and the new ones start
                      with zero output weights, so the wider net begins where NET
                      is); give it a low --lr and few --epochs (0.00003 and 8
                      fine-tuned the 128-unit net best)
  --evaluate NET      train nothing: the losses of the net file NET on the held-out
                      games of this data and --seed's split (the positions a run on
                      the same --data would validate on), to compare nets trained on
                      different data on the same positions
  --hidden N          hidden units, a multiple of 8 in 8..=1024 (default 384)
  --output-buckets K  output layers by material (pieces on the board), 1..=8 (default 8)
  --epochs E          passes over the training positions (default: as many as show
                      the net 600 M positions, 4..=40); for the last quarter of them
                      the output weights stay fixed on the net file's grid (exact in
                      the file)
  --schedule S        the learning rate's course: step (default: cut by 10 for the last
                      quarter of the epochs) or cosine (from --lr down to a hundredth of
                      it along half a cosine, batch by batch)
  --batch B           positions a step (default 4096)
  --lr R              AdamW's learning rate (default 0.001)
  --wd W              AdamW's weight decay, not on biases (default 0.1)
  --lambda L          target = L x game result + (1 - L) x search score's expectation (default 0)
  --activation A      screlu (default; the engine's) or crelu, to compare: a crelu run
                      reports its losses and writes no net file (leave out --out)
  --threads T         threads (default 1; the net does not depend on it)
  --seed S            the seed of the weights, the split and the shuffles (default 1)
  --max-positions N   positions to train on at most, whole games in a seeded order
                      (default all; their mirror images come on top); the held-out
                      games are validated on whatever N
  --min-ply N         skip each game's first N recorded plies (default 8)
  --keep-checks       keep positions whose side to move is in check (default: left out)
  --keep-noisy        keep positions whose best move is a capture or a promotion
                      (default: left out)
  --max-score CP      leave out positions whose score's magnitude is CP or more (default
                      2000; mate scores always); validation positions always pass the
                      default filter, so that runs' validation losses compare
  --no-mirror         train on the positions as they are; by default the mirror
                      image (files a-h swapped) of each one without castling rights is
                      added, the same score and result for another input (+44.8 Elo
                      from scratch on 6.6 M positions); the held-out
                      positions stay as they are
  --inputs L          how the net reads the board: plain (default) or king-mirrored
                      (each side's view mirrored a-h when its own king stands on
                      files e-h; implies --no-mirror, whose images it would see as
                      their originals); the net file says which, and the engine
                      reads both; with --init, the net file's
  One game in 20 is held out for validation. Progress goes to stdout, a line an epoch.";

/// What `tabas train` was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub data: Vec<PathBuf>,
    /// The net file (`None` for a CReLU run, which writes none).
    pub out: Option<PathBuf>,
    /// A net file to evaluate instead of training (`--evaluate`).
    pub evaluate: Option<PathBuf>,
    /// A net file whose weights the run starts from (`--init`).
    pub init: Option<PathBuf>,
    /// `--hidden` given with `--init`: the starting net is widened to
    /// `settings.hidden` units ([`FloatNet::widen`]).
    pub widen: bool,
    pub settings: Settings,
}

/// Parses `tabas train` arguments (pure: no file is touched).
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut data = Vec::new();
    let mut out = None;
    let mut evaluate = None;
    let mut init = None;
    let (mut hidden_given, mut buckets_given, mut inputs_given) = (false, false, false);
    let mut s = Settings::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => data.push(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--evaluate" => evaluate = Some(PathBuf::from(value()?)),
            "--init" => init = Some(PathBuf::from(value()?)),
            "--hidden" => {
                s.hidden = whole(flag, value()?, quant::MIN_HIDDEN..=quant::MAX_HIDDEN)?;
                hidden_given = true;
            }
            "--output-buckets" => {
                s.buckets = whole(flag, value()?, 1..=MAX_OUTPUT_BUCKETS)?;
                buckets_given = true;
            }
            "--epochs" => s.epochs = Some(whole(flag, value()?, 1..=100_000)?),
            "--batch" => s.batch = whole(flag, value()?, 1..=1 << 24)?,
            "--lr" => s.lr = real(flag, value()?, 1e-7..=1.0)?,
            "--wd" => s.wd = real(flag, value()?, 0.0..=1.0)?,
            "--lambda" => s.lambda = real(flag, value()?, 0.0..=1.0)?,
            "--threads" => s.threads = whole(flag, value()?, 1..=256)?,
            "--seed" => s.seed = whole(flag, value()?, 0..=u64::MAX)?,
            "--max-positions" => s.max_positions = whole(flag, value()?, 1..=usize::MAX)?,
            "--min-ply" => s.filter.min_ply = whole(flag, value()?, 0..=u16::MAX as usize)?,
            "--activation" => {
                s.activation = match value()?.as_str() {
                    "screlu" => Activation::SCReLU,
                    "crelu" => Activation::CReLU,
                    other => {
                        return Err(format!(
                            "--activation must be screlu or crelu, not '{other}'"
                        ));
                    }
                }
            }
            "--schedule" => {
                s.schedule = match value()?.as_str() {
                    "step" => ScheduleKind::Step,
                    "cosine" => ScheduleKind::Cosine,
                    other => {
                        return Err(format!("--schedule must be step or cosine, not '{other}'"));
                    }
                }
            }
            "--keep-checks" => s.filter.keep_checks = true,
            "--keep-noisy" => s.filter.keep_noisy = true,
            "--max-score" => s.filter.max_score = whole(flag, value()?, 1..=filter::MAX_MAX_SCORE)?,
            "--no-mirror" => s.mirror = false,
            "--inputs" => {
                let name = value()?;
                s.inputs = InputLayout::from_name(name).ok_or_else(|| {
                    format!("--inputs must be plain or king-mirrored, not '{name}'")
                })?;
                inputs_given = true;
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if data.is_empty() {
        return Err("--data DIR is required".to_string());
    }
    match (&evaluate, s.activation, &out) {
        (Some(_), Activation::SCReLU, None) => {}
        (Some(_), _, _) => {
            return Err("--evaluate trains nothing: leave out --out and --activation".to_string());
        }
        (None, Activation::SCReLU, None) => return Err("--out FILE is required".to_string()),
        (None, Activation::CReLU, Some(_)) => {
            return Err(
                "--activation crelu writes no net file (the engine evaluates SCReLU nets): \
                 leave out --out"
                    .to_string(),
            );
        }
        _ => {}
    }
    if init.is_some() {
        if evaluate.is_some() || s.activation != Activation::SCReLU {
            return Err(
                "--init trains an SCReLU net: leave out --evaluate and --activation".to_string(),
            );
        }
        if buckets_given {
            return Err(
                "--init takes the output buckets from the net file: leave out --output-buckets"
                    .to_string(),
            );
        }
    }
    if init.is_some() && inputs_given {
        return Err("--init takes the inputs from the net file: leave out --inputs".to_string());
    }
    s.check()?;
    Ok(Options {
        data,
        out,
        evaluate,
        widen: init.is_some() && hidden_given,
        init,
        settings: s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::words as args;
    use crate::tools::train::{
        AUTO_EPOCHS, DEFAULT_BATCH, DEFAULT_BUCKETS, DEFAULT_HIDDEN, DEFAULT_LAMBDA, DEFAULT_LR,
        DEFAULT_WD, POSITIONS_SEEN,
    };

    #[test]
    fn options_parse_with_defaults_and_reject_nonsense() {
        let o = parse_options(&args(
            "--data a --data b --out n.bin --hidden 64 --threads 2 --output-buckets 1",
        ))
        .unwrap();
        assert_eq!(o.data, vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(o.out, Some(PathBuf::from("n.bin")));
        assert_eq!(
            o.settings,
            Settings {
                hidden: 64,
                buckets: 1,
                threads: 2,
                ..Settings::default()
            }
        );
        let o = parse_options(&args(
            "--out n --data a --epochs 3 --batch 100 --lr 0.01 --wd 0 --lambda 1 --seed 9 \
             --max-positions 5000",
        ))
        .unwrap();
        assert_eq!(
            (
                o.settings.epochs,
                o.settings.batch,
                o.settings.lr,
                o.settings.wd
            ),
            (Some(3), 100, 0.01, 0.0)
        );
        assert_eq!(
            (o.settings.lambda, o.settings.seed, o.settings.max_positions),
            (1.0, 9, 5000)
        );
        // The filter's settings, and a CReLU run without a net file.
        let o = parse_options(&args(
            "--data a --min-ply 0 --keep-checks --keep-noisy --max-score 3000 \
             --activation crelu",
        ))
        .unwrap();
        assert_eq!(o.out, None);
        assert_eq!(o.settings.activation, Activation::CReLU);
        assert_eq!(
            o.settings.filter.describe(),
            "--min-ply 0 --keep-checks --keep-noisy --max-score 3000"
        );
        assert_eq!(o.settings.schedule, ScheduleKind::Step, "the default");
        let o = parse_options(&args("--data a --evaluate net.nnue --lambda 0.5")).unwrap();
        assert_eq!(
            (o.evaluate, o.out, o.settings.lambda),
            (Some(PathBuf::from("net.nnue")), None, 0.5)
        );
        let o = parse_options(&args("--data a --out n --schedule cosine")).unwrap();
        assert_eq!(o.settings.schedule, ScheduleKind::Cosine);
        assert!(o.settings.mirror, "the default");
        assert!(
            !parse_options(&args("--data a --out n --no-mirror"))
                .unwrap()
                .settings
                .mirror
        );
        let o = parse_options(&args("--data a --out n --init old.nnue --lr 0.0001")).unwrap();
        assert_eq!((o.init, o.widen), (Some(PathBuf::from("old.nnue")), false));
        let o = parse_options(&args("--data a --out n --init old --hidden 256")).unwrap();
        assert_eq!((o.widen, o.settings.hidden), (true, 256));
        assert!(
            !parse_options(&args("--data a --out n --hidden 256"))
                .unwrap()
                .widen
        );
        for conflict in [
            "--data a --out n --init old --output-buckets 8",
            "--data a --init old --evaluate net",
            "--data a --init old --activation crelu",
        ] {
            let e = parse_options(&args(conflict)).unwrap_err();
            assert!(e.starts_with("--init"), "{conflict}: {e}");
        }
        for default in [
            format!("(default {DEFAULT_HIDDEN})"),
            format!("(default {DEFAULT_BUCKETS})"),
            format!("the net {} M positions", POSITIONS_SEEN / 1_000_000),
            format!("{}..={})", AUTO_EPOCHS.start(), AUTO_EPOCHS.end()),
            format!("(default {DEFAULT_BATCH})"),
            format!("(default {DEFAULT_LR})"),
            format!("(default {DEFAULT_WD})"),
            format!("(default {DEFAULT_LAMBDA})"),
        ] {
            assert!(USAGE.contains(&default), "USAGE should say {default}");
        }
        for (bad, message) in [
            ("", "--data DIR is required"),
            ("--data d", "--out FILE is required"),
            ("--out n", "--data DIR is required"),
            ("--data", "--data needs a value"),
            ("--data d --evaluate e --out n", "--evaluate trains nothing"),
            (
                "--data d --evaluate e --activation crelu",
                "--evaluate trains nothing",
            ),
            ("--evaluate e", "--data DIR is required"),
            ("--data d --out n --hidden 100", "multiple of 8"),
            ("--data d --out n --hidden 0", "--hidden must be"),
            ("--data d --out n --hidden 2048", "--hidden must be"),
            ("--data d --out n --hidden many", "--hidden must be"),
            (
                "--data d --out n --output-buckets 0",
                "--output-buckets must be",
            ),
            (
                "--data d --out n --output-buckets 9",
                "--output-buckets must be",
            ),
            ("--data d --out n --epochs 0", "--epochs must be"),
            ("--data d --out n --batch -1", "--batch must be"),
            ("--data d --out n --lr 0", "--lr must be"),
            ("--data d --out n --lr nan", "--lr must be"),
            ("--data d --out n --wd 2", "--wd must be"),
            ("--data d --out n --lambda -0.5", "--lambda must be"),
            ("--data d --out n --threads 0", "--threads must be"),
            ("--data d --out n --seed -1", "--seed must be"),
            (
                "--data d --out n --max-positions 0",
                "--max-positions must be",
            ),
            (
                "--data d --out n --epochs 99999999999999999999999",
                "--epochs must be",
            ),
            ("--data d --out n --fast", "unknown argument '--fast'"),
            ("--data d --out n --min-ply -1", "--min-ply must be"),
            ("--data d --out n --max-score 0", "--max-score must be"),
            ("--data d --out n --max-score 40000", "--max-score must be"),
            ("--data d --out n --activation relu", "screlu or crelu"),
            ("--data d --out n --schedule linear", "step or cosine"),
            ("--data d --out n --activation crelu", "leave out --out"),
            ("--data d --activation screlu", "--out FILE is required"),
        ] {
            let e = parse_options(&args(bad)).unwrap_err();
            assert!(e.contains(message), "{bad}: {e}");
        }
    }
}
