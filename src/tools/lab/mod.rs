//! The alpha-beta laboratory, `tabas lab`: what each part of the search prunes.
//!
//! Alpha-beta returns exactly minimax's value while visiting far fewer nodes; with
//! perfect move ordering a uniform tree of branching factor b and depth d has
//! `b^ceil(d/2) + b^floor(d/2) - 1` leaves to visit instead of `b^d` (Knuth and
//! Moore 1975). The lab runs minimax and alpha-beta with one enhancement added at
//! a time (`variants.rs`) on real positions, depth by depth, and reports nodes,
//! leaves, values, the effective branching factor and the ordering quality
//! beside that theoretical minimum: a table on stdout (`report.rs`), and on
//! request a CSV and an SVG chart (`svg.rs`).
//!
//! Two studies go further, each a subcommand: `tabas lab switches` runs the engine's own
//! search at real depths with each `Debug_` switch off alone (`switches.rs`), and
//! `tabas lab oracle` builds the minimal tree of real positions by ordering every
//! node's moves by their exact values (`oracle.rs`).
//!
//! * `mod.rs` (here): the command line (pure parsing, then I/O), positions, orchestration;
//! * `variants.rs`: the searches and their counting conventions;
//! * `report.rs`: table, CSV and the chart's data;
//! * `switches.rs`, `switches_report.rs`: the switch study and its table, CSV and chart;
//! * `elo.rs`: what matches measured of each switch, and the matches still to play;
//! * `oracle.rs`, `oracle_report.rs`: the oracle-ordered tree and its table, CSV and chart;
//! * `svg.rs`: a small SVG writer.

pub mod elo;
pub mod oracle;
mod oracle_report;
mod report;
mod svg;
pub mod switches;
mod switches_report;
pub mod variants;

use crate::bench::BENCH_HASH_MB;
use crate::position::Board;
use crate::tt::TranspositionTable;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use variants::{Outcome, Variant};

/// Depth of `tabas lab` without `--depth`: minimax finishes Kiwipete in about a second.
pub const DEFAULT_DEPTH: u32 = 4;
/// The deepest `--depth` accepted: minimax visits every node, and at depth 7 a
/// middlegame is billions of them.
pub const MAX_DEPTH: u32 = 6;

pub const USAGE: &str = "usage: tabas lab [--depth N] [--epd FILE] [--csv FILE] [--svg FILE]
       tabas lab switches …   the engine's search with each Debug_ switch off (tabas lab switches --help)
       tabas lab oracle …     the minimal tree of real positions (tabas lab oracle --help)
       tabas lab all --out DIR   all three with their defaults: DIR/lab.csv, lab.svg,
                              switches.csv, switches.svg, oracle.csv, oracle.svg, and
                              switch-matches.sh (--match-commands): docs/lab/
  --depth N   measure depths 1..N (default 4, at most 6: minimax visits every node)
  --epd FILE  positions, one per line: the first 4 FEN fields (EPD opcodes ignored,
              except `id \"name\"`, which names the position); default: startpos,
              kiwipete, a closed Ruy Lopez middlegame and a rook endgame
  --csv FILE  write one row per position, depth and variant
  --svg FILE  write the chart: nodes against depth (log scale), one panel per position";

/// The default positions: the start, a tactical and a quiet middlegame, an endgame.
pub const DEFAULT_POSITIONS: &[(&str, &str)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    ),
    (
        "ruy_lopez",
        "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - -",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"),
];

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Print this usage text.
    Help(&'static str),
    /// The variants, depth by depth (plain `tabas lab`).
    Run(Options),
    /// `tabas lab switches`.
    Switches(switches::Options),
    /// `tabas lab switches --match-commands`: the matches for these switches' Elo.
    MatchCommands(Vec<&'static str>),
    /// `tabas lab oracle`.
    Oracle(oracle::Options),
    /// `tabas lab all --out DIR`: the three studies with their defaults, files in DIR.
    All(PathBuf),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub depth: u32,
    pub epd: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

/// Parses the arguments after `lab`; pure, so that every error is a tested message.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    match args.first().map(String::as_str) {
        Some("switches") => return switches::parse_args(&args[1..]),
        Some("oracle") => return oracle::parse_args(&args[1..]),
        Some("all") => return parse_all(&args[1..]),
        _ => {}
    }
    let mut flags = Flags::new(MAX_DEPTH);
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help(USAGE));
        }
        if !flags.read(flag, &mut rest)? {
            return Err(format!("unknown lab argument '{flag}'"));
        }
    }
    Ok(Command::Run(Options {
        depth: flags.depth.unwrap_or(DEFAULT_DEPTH),
        epd: flags.epd,
        csv: flags.csv,
        svg: flags.svg,
    }))
}

/// `all --out DIR`.
fn parse_all(args: &[String]) -> Result<Command, String> {
    let mut out = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--help" | "-h" => return Ok(Command::Help(USAGE)),
            "--out" => set_once(
                &mut out,
                PathBuf::from(parse_flag_value(flag, rest.next())?),
                flag,
            )?,
            other => return Err(format!("unknown lab all argument '{other}'")),
        }
    }
    out.map(Command::All).ok_or_else(|| {
        "lab all needs --out DIR (docs/lab to renew the repository's figures)".into()
    })
}

/// The flags that the lab's studies share, each given at most once: `--depth N`
/// (1..=`max_depth`), `--epd FILE` (unless refused), `--csv FILE` and `--svg FILE`.
/// Each study's parser hands it every flag first, and reads what it leaves.
#[derive(Debug)]
struct Flags {
    max_depth: u32,
    /// Whether `--epd` is a flag of this study (`tabas lab switches` searches the
    /// bench positions only).
    epd_allowed: bool,
    depth: Option<u32>,
    epd: Option<PathBuf>,
    csv: Option<PathBuf>,
    svg: Option<PathBuf>,
}

impl Flags {
    /// None read yet; `--depth` may be 1..=`max_depth`.
    fn new(max_depth: u32) -> Flags {
        Flags {
            max_depth,
            epd_allowed: true,
            depth: None,
            epd: None,
            csv: None,
            svg: None,
        }
    }

    /// The same, with no `--epd` flag.
    fn without_epd(self) -> Flags {
        Flags {
            epd_allowed: false,
            ..self
        }
    }

    /// Reads `flag`, and its value from `rest`, if it is one of these flags;
    /// `Ok(false)`: it is not one (the study's parser reads it, or refuses it).
    fn read<'a>(
        &mut self,
        flag: &str,
        rest: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, String> {
        let slot = match flag {
            "--depth" => {
                let value = parse_flag_value(flag, rest.next())?;
                set_once(
                    &mut self.depth,
                    parse_depth(flag, value, self.max_depth)?,
                    flag,
                )?;
                return Ok(true);
            }
            "--epd" if self.epd_allowed => &mut self.epd,
            "--csv" => &mut self.csv,
            "--svg" => &mut self.svg,
            _ => return Ok(false),
        };
        set_once(
            slot,
            PathBuf::from(parse_flag_value(flag, rest.next())?),
            flag,
        )?;
        Ok(true)
    }
}

/// The value after `flag`: present and not empty.
fn parse_flag_value<'a>(flag: &str, value: Option<&'a String>) -> Result<&'a str, String> {
    value
        .map(String::as_str)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{flag} needs a value"))
}

/// Fills `slot` with `value`, unless the flag was given before.
fn set_once<T>(slot: &mut Option<T>, value: T, flag: &str) -> Result<(), String> {
    match slot.replace(value) {
        None => Ok(()),
        Some(_) => Err(format!("{flag} given twice")),
    }
}

/// A depth 1..=`max`.
fn parse_depth(flag: &str, text: &str, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=max).contains(&d) => Ok(d),
        _ => Err(format!("{flag} must be 1..{max}, not '{text}'")),
    }
}

/// A position to measure.
#[derive(Clone, Debug)]
pub struct LabPosition {
    pub name: String,
    /// The four FEN fields that define the position (no move counters).
    pub fen: String,
    pub board: Board,
}

/// Reads a position from the first four FEN fields of `text`; the rest is ignored.
pub fn parse_position(name: &str, text: &str) -> Result<LabPosition, String> {
    let fields: Vec<&str> = text.split_whitespace().take(4).collect();
    if fields.len() < 4 {
        return Err(format!(
            "'{}' needs 4 FEN fields (board, side, castling, en passant)",
            text.trim()
        ));
    }
    let fen = fields.join(" ");
    // Chess960 mode reads every castling notation and plays standard chess the same.
    let pos: Chess = Fen::from_ascii(format!("{fen} 0 1").as_bytes())
        .map_err(|e| format!("bad FEN '{fen}': {e}"))?
        .into_position(CastlingMode::Chess960)
        .map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    Ok(LabPosition {
        name: name.to_string(),
        fen,
        // The hand-written evaluation, whatever the build's network: the lab's counts
        // (docs/lab/) stay comparable from build to build.
        board: Board::with_network(pos, None),
    })
}

/// The positions of an EPD file: one per non-empty line (`#` starts a comment line),
/// named by an `id "…"` opcode when there is one, else `line N`.
pub fn parse_epd(text: &str) -> Result<Vec<LabPosition>, String> {
    let mut positions = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = epd_id(line).unwrap_or_else(|| format!("line {}", index + 1));
        let position =
            parse_position(&name, line).map_err(|e| format!("line {}: {e}", index + 1))?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err("no positions in the EPD file".into());
    }
    Ok(positions)
}

/// The value of an EPD `id "…"` opcode, if the line has one.
fn epd_id(line: &str) -> Option<String> {
    let start = line.find("id \"")? + 4;
    let len = line[start..].find('"')?;
    let id = line[start..start + len].trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// The positions of the EPD file at `path`.
pub fn read_positions(path: &Path) -> Result<Vec<LabPosition>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|text| parse_epd(&text).map_err(|e| format!("{}: {e}", path.display())))
}

pub fn default_positions() -> Result<Vec<LabPosition>, String> {
    DEFAULT_POSITIONS
        .iter()
        .map(|(name, fen)| parse_position(name, fen))
        .collect()
}

/// Every variant's outcomes on one position, depths 1..=`max_depth`.
#[derive(Clone, Debug)]
pub struct PositionResult {
    pub name: String,
    pub fen: String,
    pub root_moves: usize,
    pub max_depth: u32,
    /// In `Variant::ALL` order, one outcome per depth.
    pub runs: Vec<(Variant, Vec<Outcome>)>,
}

impl PositionResult {
    pub fn outcomes(&self, variant: Variant) -> &[Outcome] {
        self.runs
            .iter()
            .find(|(v, _)| *v == variant)
            .map_or(&[], |(_, o)| o.as_slice())
    }

    /// The outcome of `variant` at `depth`, if measured.
    pub fn outcome(&self, variant: Variant, depth: u32) -> Option<&Outcome> {
        self.outcomes(variant).iter().find(|o| o.depth == depth)
    }

    /// The b of the Knuth-Moore bound at `depth`: the branching factor of the uniform
    /// tree with as many leaves at that depth as minimax visited, `round(leaves^(1/depth))`.
    /// At depth 1 it is the number of legal moves, so the bound equals minimax there.
    pub fn branching_factor(&self, depth: u32) -> u64 {
        let leaves = self
            .outcome(Variant::Minimax, depth)
            .map_or(0, |o| o.counts.leaves);
        (leaves as f64).powf(1.0 / depth.max(1) as f64).round() as u64
    }
}

/// Runs every variant on `position` to `max_depth`.
pub fn measure(position: &LabPosition, max_depth: u32) -> PositionResult {
    PositionResult {
        name: position.name.clone(),
        fen: position.fen.clone(),
        root_moves: position.board.chess().legal_moves().len(),
        max_depth,
        runs: Variant::ALL
            .iter()
            .map(|&v| (v, variants::run(v, &position.board, max_depth)))
            .collect(),
    }
}

/// Leaves of the minimal tree that proves a uniform tree's value (Knuth and Moore
/// 1975): `b^ceil(d/2) + b^floor(d/2) - 1`; 59 for b = 30, d = 2.
pub fn knuth_moore_leaves(b: u64, depth: u32) -> u64 {
    let power = |e: u32| b.checked_pow(e).unwrap_or(u64::MAX);
    power(depth.div_ceil(2))
        .checked_add(power(depth / 2))
        .map_or(u64::MAX, |sum| sum.saturating_sub(1))
}

/// Nodes of that minimal tree: its ply-i level is the minimal tree of depth i.
pub fn knuth_moore_nodes(b: u64, depth: u32) -> u64 {
    (0..=depth)
        .map(|d| knuth_moore_leaves(b, d))
        .fold(0, u64::saturating_add)
}

/// `tabas lab …`: the table on stdout, progress and errors on stderr.
/// Exit code 2 for bad arguments or positions, 1 when an output cannot be written.
pub fn run_cli(args: &[String]) -> ExitCode {
    let usage = match args.first().map(String::as_str) {
        Some("switches") => switches::USAGE,
        Some("oracle") => oracle::USAGE,
        _ => USAGE,
    };
    match parse_args(args) {
        Err(e) => usage_error(&e, usage),
        Ok(Command::Help(text)) => {
            let _ = writeln!(io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Ok(Command::Run(options)) => run_variants(&options),
        Ok(Command::Switches(options)) => run_switches(&options),
        Ok(Command::MatchCommands(list)) => print_match_commands(&list),
        Ok(Command::Oracle(options)) => run_oracle(&options),
        Ok(Command::All(dir)) => run_all(&dir),
    }
}

/// Every study with its defaults, its CSV and chart in `dir`, and the script of the
/// switches' matches: what docs/lab/ holds.
fn run_all(dir: &Path) -> ExitCode {
    let file = |name: &str| Some(dir.join(name));
    let variants = Options {
        depth: DEFAULT_DEPTH,
        epd: None,
        csv: file("lab.csv"),
        svg: file("lab.svg"),
    };
    let Ok(Command::Switches(mut switches)) = switches::parse_args(&[]) else {
        unreachable!("no arguments are the defaults")
    };
    (switches.csv, switches.svg) = (file("switches.csv"), file("switches.svg"));
    let Ok(Command::Oracle(mut oracle)) = oracle::parse_args(&[]) else {
        unreachable!("no arguments are the defaults")
    };
    (oracle.csv, oracle.svg) = (file("oracle.csv"), file("oracle.svg"));
    let script = dir.join("switch-matches.sh");
    if let Err(e) = std::fs::write(&script, switches_report::match_script(&switches.switches)) {
        return usage_error(&format!("cannot write {}: {e}", script.display()), USAGE);
    }
    let studies: [&dyn Fn() -> ExitCode; 3] = [
        &|| run_variants(&variants),
        &|| run_switches(&switches),
        &|| run_oracle(&oracle),
    ];
    for study in studies {
        let code = study();
        if code != ExitCode::SUCCESS {
            return code;
        }
        let _ = writeln!(io::stdout());
    }
    ExitCode::SUCCESS
}

/// The variants on the positions, depth by depth.
fn run_variants(options: &Options) -> ExitCode {
    let positions = match &options.epd {
        None => default_positions(),
        Some(path) => read_positions(path),
    };
    let positions = match positions {
        Ok(p) => p,
        Err(e) => return usage_error(&e, USAGE),
    };
    let outputs = match Outputs::open(options.csv.as_ref(), options.svg.as_ref()) {
        Ok(o) => o,
        Err(e) => return usage_error(&e, USAGE),
    };
    let mut out = io::stdout().lock();
    let mut results = Vec::new();
    if let Err(e) = report::write_preamble(&mut out, options.depth) {
        return table_error(e);
    }
    for position in &positions {
        let start = Instant::now();
        let result = measure(position, options.depth);
        eprintln!(
            "lab: {} to depth {} in {:.2} s",
            position.name,
            options.depth,
            start.elapsed().as_secs_f64()
        );
        if let Err(e) = report::write_table(&mut out, &result).and_then(|()| out.flush()) {
            return table_error(e);
        }
        results.push(result);
    }
    outputs.write(report::csv(&results), || {
        svg::render(&report::chart(&results))
    })
}

/// The engine with each switch off, on the bench positions.
fn run_switches(options: &switches::Options) -> ExitCode {
    let outputs = match Outputs::open(options.csv.as_ref(), options.svg.as_ref()) {
        Ok(o) => o,
        Err(e) => return usage_error(&e, switches::USAGE),
    };
    let Some(tt) = TranspositionTable::new(BENCH_HASH_MB) else {
        eprintln!("tabas lab switches: cannot allocate a {BENCH_HASH_MB} MB table");
        return ExitCode::FAILURE;
    };
    let boards = switches::bench_boards(options.positions);
    let measure = |name: &'static str| {
        let start = Instant::now();
        let run = switches::measure(name, &boards, options.depth, &tt);
        eprintln!(
            "lab switches: {name} to depth {} on {} positions in {:.1} s",
            options.depth,
            boards.len(),
            start.elapsed().as_secs_f64()
        );
        run
    };
    let mut out = io::stdout().lock();
    if let Err(e) = switches_report::write_preamble(&mut out, options) {
        return table_error(e);
    }
    let full = measure(switches::FULL);
    if let Err(e) = switches_report::write_header(&mut out, options.depth)
        .and_then(|()| switches_report::write_row(&mut out, &full, &full))
        .and_then(|()| out.flush())
    {
        return table_error(e);
    }
    let mut runs = Vec::new();
    for &switch in &options.switches {
        let run = measure(switch);
        if let Err(e) = switches_report::write_row(&mut out, &full, &run).and_then(|()| out.flush())
        {
            return table_error(e);
        }
        runs.push(run);
    }
    if let Err(e) = switches_report::write_notes(&mut out, &runs) {
        return table_error(e);
    }
    outputs.write(switches_report::csv(&full, &runs), || {
        svg::render(&switches_report::chart(&full, &runs))
    })
}

/// The `match.py` command of each switch in `list`, as a shell script on stdout.
fn print_match_commands(list: &[&'static str]) -> ExitCode {
    let mut out = io::stdout().lock();
    let text = switches_report::match_script(list);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => table_error(e),
    }
}

/// The oracle-ordered trees of the positions.
fn run_oracle(options: &oracle::Options) -> ExitCode {
    let positions = match oracle::positions(options) {
        Ok(p) => p,
        Err(e) => return usage_error(&e, oracle::USAGE),
    };
    let outputs = match Outputs::open(options.csv.as_ref(), options.svg.as_ref()) {
        Ok(o) => o,
        Err(e) => return usage_error(&e, oracle::USAGE),
    };
    let mut out = io::stdout().lock();
    if let Err(e) = oracle_report::write_preamble(&mut out, options.depth) {
        return table_error(e);
    }
    let mut results = Vec::new();
    for position in &positions {
        let start = Instant::now();
        let result = oracle::measure(position, options.depth);
        eprintln!(
            "lab oracle: {} to depth {} in {:.1} s",
            position.name,
            options.depth,
            start.elapsed().as_secs_f64()
        );
        if let Err(e) = oracle_report::write_table(&mut out, &result).and_then(|()| out.flush()) {
            return table_error(e);
        }
        results.push(result);
    }
    outputs.write(oracle_report::csv(&results), || {
        svg::render(&oracle_report::chart(&results))
    })
}

/// The CSV and SVG files asked for, opened before any search: a wrong path should
/// fail at once, not after the searches.
struct Outputs {
    csv: Option<(File, PathBuf)>,
    svg: Option<(File, PathBuf)>,
}

impl Outputs {
    fn open(csv: Option<&PathBuf>, svg: Option<&PathBuf>) -> Result<Outputs, String> {
        let open = |path: Option<&PathBuf>| {
            path.map(|p| {
                File::create(p)
                    .map(|f| (f, p.clone()))
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))
            })
            .transpose()
        };
        Ok(Outputs {
            csv: open(csv)?,
            svg: open(svg)?,
        })
    }

    /// Writes `csv` and the chart (`svg`, drawn only if asked for).
    fn write(self, csv: String, svg: impl FnOnce() -> String) -> ExitCode {
        let svg = self.svg.map(|(file, path)| (file, path, svg()));
        let csv = self.csv.map(|(file, path)| (file, path, csv));
        for (mut file, path, text) in csv.into_iter().chain(svg) {
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                eprintln!("tabas lab: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        ExitCode::SUCCESS
    }
}

/// A closed stdout (`tabas lab | head`) ends the run: nobody reads the rest.
fn table_error(e: io::Error) -> ExitCode {
    eprintln!("tabas lab: cannot write the table: {e}");
    ExitCode::FAILURE
}

fn usage_error(msg: &str, usage: &str) -> ExitCode {
    eprintln!("tabas lab: {msg}\n{usage}");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line's words (the lab's modules test their parsers with it).
    pub(super) use crate::args::words as args;

    fn run(text: &str) -> Options {
        match parse_args(&args(text)) {
            Ok(Command::Run(o)) => o,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn defaults_and_flags() {
        let o = run("");
        assert_eq!(
            (o.depth, o.epd, o.csv, o.svg),
            (DEFAULT_DEPTH, None, None, None)
        );
        let o = run("--svg c.svg --depth 3 --epd p.epd --csv out.csv");
        assert_eq!(o.depth, 3);
        assert_eq!(o.epd, Some(PathBuf::from("p.epd")));
        assert_eq!(o.csv, Some(PathBuf::from("out.csv")));
        assert_eq!(o.svg, Some(PathBuf::from("c.svg")));
        assert_eq!(parse_args(&args("--depth 2 -h")), Ok(Command::Help(USAGE)));
        assert!(matches!(
            parse_args(&args("switches --depth 3")),
            Ok(Command::Switches(o)) if o.depth == 3
        ));
        assert!(matches!(
            parse_args(&args("oracle --depth 3")),
            Ok(Command::Oracle(o)) if o.depth == 3
        ));
        // A subcommand is only the first argument.
        assert!(parse_args(&args("--depth 3 oracle")).is_err());
        assert_eq!(
            parse_args(&args("all --out docs/lab")),
            Ok(Command::All(PathBuf::from("docs/lab")))
        );
        assert!(
            parse_args(&args("all"))
                .unwrap_err()
                .contains("needs --out DIR")
        );
        assert!(
            parse_args(&args("all --out a --out b"))
                .unwrap_err()
                .contains("given twice")
        );
        assert!(
            parse_args(&args("all --depth 3"))
                .unwrap_err()
                .contains("unknown lab all argument")
        );
    }

    #[test]
    fn bad_arguments_are_messages() {
        for (text, expected) in [
            ("--depth", "--depth needs a value"),
            ("--depth 0", "--depth must be 1..6, not '0'"),
            ("--depth 7", "--depth must be 1..6"),
            ("--depth -1", "--depth must be 1..6"),
            ("--depth four", "--depth must be 1..6, not 'four'"),
            ("--depth 2 --depth 3", "--depth given twice"),
            ("--csv a --csv b", "--csv given twice"),
            ("--svg", "--svg needs a value"),
            ("--bogus", "unknown lab argument '--bogus'"),
            ("4", "unknown lab argument '4'"),
        ] {
            let err = parse_args(&args(text)).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
        assert!(parse_args(&["--epd".into(), String::new()]).is_err());
    }

    /// The studies read `--depth`, `--csv` and `--svg` with the one reader: the same
    /// values and the same messages.
    #[test]
    fn the_studies_share_their_flags() {
        for study in ["", "oracle ", "switches "] {
            for (text, expected) in [
                ("--depth 0", "--depth must be 1.."),
                ("--depth", "--depth needs a value"),
                ("--csv a --csv b", "--csv given twice"),
                ("--svg", "--svg needs a value"),
            ] {
                let err = parse_args(&args(&format!("{study}{text}"))).unwrap_err();
                assert!(err.contains(expected), "{study}{text}: {err}");
            }
            let read = match parse_args(&args(&format!("{study}--depth 2 --csv a --svg b"))) {
                Ok(Command::Run(o)) => (o.depth, o.csv, o.svg),
                Ok(Command::Oracle(o)) => (o.depth, o.csv, o.svg),
                Ok(Command::Switches(o)) => (o.depth, o.csv, o.svg),
                other => panic!("{study}: {other:?}"),
            };
            let (a, b) = (Some(PathBuf::from("a")), Some(PathBuf::from("b")));
            assert_eq!(read, (2, a, b), "{study}");
        }
    }

    #[test]
    fn epd_lines_become_positions() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n\
                    \n\
                    8/8/8/4k3/8/8/3KP3/8 w - - 0 1\n";
        let positions = parse_epd(text).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].name, "start");
        assert_eq!(positions[0].board.key(), Board::startpos().key());
        assert_eq!(positions[1].name, "line 4");
        assert_eq!(positions[1].fen, "8/8/8/4k3/8/8/3KP3/8 w - -");
    }

    #[test]
    fn bad_epd_is_an_error_not_a_panic() {
        assert!(parse_epd("").unwrap_err().contains("no positions"));
        assert!(
            parse_epd("8/8/8 w - -")
                .unwrap_err()
                .starts_with("line 1: bad FEN")
        );
        assert!(parse_epd("x\n8/8 w").unwrap_err().starts_with("line 1:"));
        assert!(parse_epd("8/8/8/8/8/8/8/8 w - -").is_err(), "no kings");
        assert_eq!(epd_id("fen id \"\";"), None);
        assert_eq!(epd_id("fen id \"unterminated"), None);
    }

    #[test]
    fn default_positions_parse() {
        let positions = default_positions().unwrap();
        assert_eq!(positions.len(), DEFAULT_POSITIONS.len());
        assert_eq!(positions[1].board.chess().legal_moves().len(), 48);
    }

    #[test]
    fn knuth_moore_matches_the_paper() {
        assert_eq!(knuth_moore_leaves(30, 2), 59);
        assert_eq!(knuth_moore_leaves(30, 0), 1);
        assert_eq!(knuth_moore_leaves(30, 1), 30);
        assert_eq!(knuth_moore_leaves(30, 3), 30 * 30 + 30 - 1);
        assert_eq!(knuth_moore_nodes(30, 2), 1 + 30 + 59);
        assert_eq!(knuth_moore_leaves(0, 3), 0);
        assert_eq!(knuth_moore_leaves(u64::MAX, 6), u64::MAX);
    }

    #[test]
    fn branching_factor_of_the_start_position() {
        let position = parse_position("startpos", DEFAULT_POSITIONS[0].1).unwrap();
        let result = measure(&position, 3);
        // perft(2) = 400 = 20^2, perft(3) = 8902 = 20.7^3.
        assert_eq!(result.branching_factor(1), 20);
        assert_eq!(result.branching_factor(2), 20);
        assert_eq!(result.branching_factor(3), 21);
        assert_eq!(result.root_moves, 20);
    }
}
