//! `tabas`: the UCI engine (no arguments), or one of the tools
//! `tabas bench [depth]`, `tabas perft <depth> [fen]`, `tabas lab …`,
//! `tabas datagen …`, `tabas dataset …`, `tabas tune …`, `tabas train …` and
//! `tabas wdl-fit …`; or, with other arguments, each argument one UCI command line
//! (`tabas "genfens 10 seed 1 book None" quit`, `tabas "go perft 5" quit`: see
//! `uci::run_lines`).

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
       tabas datagen --out DIR [--games N] [--threads T] [--nodes N] [--seed S] [--frc]
                                  self-play games for training (tabas datagen --help)
       tabas dataset DIR [--dump N]
                                  what a datagen folder holds
       tabas tune --data DIR [--data DIR ...] [--positions N] [--epochs E] [--lambda L]
                  [--rate R] [--threads T] [--seed S] [--out FILE]
                                  fits the evaluation's weights to datagen games (tabas tune --help)
       tabas train --data DIR [--data DIR ...] --out FILE [--hidden N] [--epochs E] [--batch B]
                   [--lr R] [--wd W] [--lambda L] [--threads T] [--seed S] [--max-positions N]
                                  trains the network (NNUE) on datagen games (tabas train --help)
       tabas wdl-fit --data DIR [--data DIR ...] [--threads T]
                                  fits UCI_ShowWDL's model to datagen games (tabas wdl-fit --help)
       tabas params               the search's tunables as SPSA input (OpenBench format)
       tabas lab [--depth N] [--epd FILE] [--csv FILE] [--svg FILE]
                                  what each part of the search prunes (tabas lab --help)";

/// Exit status when the CPU lacks instructions this binary was compiled for.
const EXIT_CPU_UNSUPPORTED: u8 = 3;

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
        Some("lab") => tabas::tools::lab::run_cli(&args[1..]),
        Some(tool @ ("datagen" | "tune" | "train" | "wdl-fit"))
            if args.get(1).is_some_and(|a| a == "--help" || a == "-h") =>
        {
            send(tool_usage(tool));
            ExitCode::SUCCESS
        }
        Some("datagen") => tabas::tools::datagen::run_cli(&args[1..]),
        Some("tune") => tabas::tools::tune::run_cli(&args[1..], &mut |line| send(line)),
        Some("train") => tabas::tools::train::run_cli(&args[1..], &mut |line| send(line)),
        Some("wdl-fit") => tabas::tools::wdl_fit::run_cli(&args[1..], &mut |line| send(line)),
        Some("dataset") => {
            tabas::tools::datagen::run_dataset_cli(&args[1..], &mut |line| send(line))
        }
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

/// The usage of a tool, for `tabas <tool> --help`.
fn tool_usage(tool: &str) -> &'static str {
    match tool {
        "datagen" => tabas::tools::datagen::USAGE,
        "tune" => tabas::tools::tune::USAGE,
        "train" => tabas::tools::train::USAGE,
        _ => tabas::tools::wdl_fit::USAGE,
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("tabas: {msg}\n{USAGE}");
    ExitCode::from(2)
}
