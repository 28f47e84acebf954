//! `tabas`: the UCI engine (no arguments), `tabas bench [depth]`,
//! `tabas perft <depth> [fen]` or `tabas params`; or, with other arguments, each
//! argument one UCI command line (`tabas "genfens 10 seed 1 book None" quit`,
//! `tabas "go perft 5" quit`: see `uci::run_lines`).
//!
//! With the cargo feature `tools` (the default build), also the offline tools of
//! `src/tools/`: `tabas datagen …`, `tabas dataset …`, `tabas import-pgn …`, `tabas tune …`,
//! `tabas train …`, `tabas wdl-fit …` and `tabas lab …`. An engine built without
//! them (`make`, OpenBench's build) says so for each of these words and exits with
//! status 2.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::process::ExitCode;
use std::time::Instant;
use tabas::uci::send;

const USAGE: &str = "usage: tabas                      UCI engine on stdin/stdout
       tabas --dev                the same, listing the Debug_* search switches as options
       tabas \"LINE\" [\"LINE\" ...]  each argument one UCI command line, run in order, then exit
                                  (as Stockfish does), e.g. tabas \"go perft 5\" quit; also
                                  tabas \"genfens N seed S book <None|FILE>\" quit (OpenBench)
       tabas --help | --version   this text | tabas <version>
       tabas bench [depth]        fixed-depth benchmark, ends with '<N> nodes <M> nps'
       tabas perft <depth> [fen]  move-generation count per root move
       tabas params               the search's tunables as SPSA input (OpenBench format)
tools (default build, cargo feature `tools`; `make` builds the engine without them):
       tabas datagen --out DIR [--games N] [--threads T] [--nodes N] [--seed S] [--frc]
                                  self-play games for training (tabas datagen --help)
       tabas dataset DIR [--dump N]
                                  what a datagen folder holds
       tabas import-pgn --out DIR [--engine NAME] [--pawn UNITS | --internal-scores] FILE [FILE ...]
                                  games from PGN (OpenBench, fastchess) into a data folder, Tabas's scores only
       tabas tune --data DIR [--data DIR ...] [--positions N] [--epochs E] [--lambda L]
                  [--rate R] [--threads T] [--seed S] [--out FILE]
                                  fits the evaluation's weights to datagen games (tabas tune --help)
       tabas train --data DIR [--data DIR ...] --out FILE [--hidden N] [--epochs E] [--batch B]
                   [--lr R] [--wd W] [--lambda L] [--threads T] [--seed S] [--max-positions N]
                                  trains the network (NNUE) on datagen games (tabas train --help)
       tabas wdl-fit --data DIR [--data DIR ...] [--threads T]
                                  fits UCI_ShowWDL's model to datagen games (tabas wdl-fit --help)
       tabas lab [--depth N] [--epd FILE] [--csv FILE] [--svg FILE]
                                  what each part of the search prunes (tabas lab --help)
       tabas lab switches [--depth N] [--positions K] [--only LIST] [--csv FILE] [--svg FILE]
                                  the engine with each Debug_ switch off (tabas lab switches --help)
       tabas lab oracle [--depth N] [--epd FILE] [--csv FILE] [--svg FILE]
                                  the minimal tree of real positions (tabas lab oracle --help)";

/// Exit status when the CPU lacks instructions this binary was compiled for.
const EXIT_CPU_UNSUPPORTED: u8 = 3;

/// The offline tools' words (`src/tools/`, cargo feature `tools`). A build without
/// the feature knows them too, to say that they are not there.
const TOOLS: [&str; 7] = [
    "datagen",
    "dataset",
    "import-pgn",
    "tune",
    "train",
    "wdl-fit",
    "lab",
];

fn main() -> ExitCode {
    // First of all: a level build on an older CPU says so instead of crashing later.
    if let Some(message) = tabas::cpu::unsupported() {
        eprintln!("{message}");
        println!("info string error: {message}");
        return ExitCode::from(EXIT_CPU_UNSUPPORTED);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            tabas::uci::run(false);
            ExitCode::SUCCESS
        }
        Some("--dev") => {
            tabas::uci::run(true);
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<i32>()) {
                None => tabas::bench::DEFAULT_DEPTH,
                Some(Ok(d)) if (1..=64).contains(&d) => d,
                Some(_) => return usage_error("bench depth must be 1..64"),
            };
            tabas::bench::run(depth, Default::default(), &mut |line| send(line));
            ExitCode::SUCCESS
        }
        Some("perft") => perft(&args[1..]),
        Some(tool) if TOOLS.contains(&tool) => run_tool(tool, &args[1..]),
        Some("params") => {
            // OpenBench's SPSA input: name, int, default, min, max, c_end, r_end.
            for t in tabas::search::params::TUNABLES {
                send(&format!(
                    "{}, int, {}, {}, {}, {}, 0.002",
                    t.name, t.default, t.min, t.max, t.step
                ));
            }
            ExitCode::SUCCESS
        }
        Some("--help" | "-h") => {
            send(USAGE);
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            let level = tabas::cpu::level_of(&tabas::cpu::compiled_for());
            println!("tabas {} ({level})", tabas::version());
            ExitCode::SUCCESS
        }
        Some(other) if other.starts_with('-') => {
            usage_error(&format!("unknown argument '{other}'"))
        }
        // Stockfish's way: each argument is one UCI command line.
        Some(_) => {
            tabas::uci::run_lines(&args, false);
            ExitCode::SUCCESS
        }
    }
}

fn perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        return usage_error("perft needs a depth");
    };
    let pos: Chess = if args.len() > 1 {
        let text = args[1..].join(" ");
        // Chess960 mode reads every castling notation and plays standard chess the same.
        match tabas::position::parse_fen(&text, CastlingMode::Chess960) {
            Ok(p) => p,
            Err(e) => return usage_error(&e),
        }
    } else {
        Chess::default()
    };
    let mode = if Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
        .as_setup()
        .castling_rights
        .is_empty()
    {
        CastlingMode::Standard
    } else {
        shakmaty::Position::castles(&pos).mode()
    };
    let start = Instant::now();
    let total = tabas::perft::print_divide(&pos, depth, mode, &|| false, &mut |line| send(line))
        .expect("nothing stops it");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.1} Mnps)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

/// `tabas <tool> ARGS…`, `tool` one of [`TOOLS`]. `lab` and `dataset` read their
/// own `--help`; for the others it is their usage.
#[cfg(feature = "tools")]
fn run_tool(tool: &str, args: &[String]) -> ExitCode {
    use tabas::tools::{datagen, import_pgn, lab, train, tune, wdl_fit};
    let help = args.first().is_some_and(|a| a == "--help" || a == "-h");
    let usage = match tool {
        "datagen" => Some(datagen::USAGE),
        "import-pgn" => Some(import_pgn::USAGE),
        "tune" => Some(tune::USAGE),
        "train" => Some(train::USAGE),
        "wdl-fit" => Some(wdl_fit::USAGE),
        _ => None,
    };
    if let (true, Some(usage)) = (help, usage) {
        send(usage);
        return ExitCode::SUCCESS;
    }
    match tool {
        "datagen" => datagen::run_cli(args),
        "dataset" => datagen::run_dataset_cli(args, &mut |line| send(line)),
        "import-pgn" => import_pgn::run_cli(args, &mut |line| send(line)),
        "tune" => tune::run_cli(args, &mut |line| send(line)),
        "train" => train::run_cli(args, &mut |line| send(line)),
        "wdl-fit" => wdl_fit::run_cli(args, &mut |line| send(line)),
        "lab" => lab::run_cli(args),
        other => unreachable!("'{other}' is not one of TOOLS"),
    }
}

/// A tool's word in an engine built without the tools: one line that says so, and
/// status 2, as for any command line this build cannot run.
#[cfg(not(feature = "tools"))]
fn run_tool(tool: &str, _args: &[String]) -> ExitCode {
    eprintln!(
        "tabas: '{tool}' is a tool, not built into this engine \
         (build with the default features: cargo build --release)"
    );
    ExitCode::from(2)
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("tabas: {msg}\n{USAGE}");
    ExitCode::from(2)
}
