//! `tabas lab switches`: the full engine, one switch at a time.
//!
//! The engine's own search (`Searcher::search`, the code path of `go depth N` and of
//! `bench`: one thread, a fresh table and fresh histories for each position, so the
//! counts are deterministic) runs on the bench positions to a fixed depth, once with
//! every part on and once with each `Debug_` switch off alone. For every depth it keeps
//! what the search reported when that iteration completed: nodes, time (the search
//! thread's CPU time where Linux tells it, so that a busy machine does not slow the
//! figures down; else the wall clock), and the beta cutoffs made in the main search
//! (`Report::cutoffs`), summed over the positions.
//!
//! `Debug_TimeManager` is left out: it changes how long a timed move thinks, not the
//! tree of a fixed depth (its node counts would be the full engine's).

use super::{Command, Flags, parse_flag_value, set_once};
use crate::bench;
use crate::position::Board;
use crate::search::{
    Control, Cutoffs, Limits, SWITCH_OPTIONS, ScoreBound, SearchConfig, Searcher, SharedContext,
    ThreadData,
};
use crate::tt::TranspositionTable;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move};
use std::path::PathBuf;
use std::time::Duration;

/// Depth of `tabas lab switches` without `--depth` (docs/lab/'s figures): the whole study
/// takes about four minutes on one core, most of it with PVS off.
pub const DEFAULT_DEPTH: u32 = 13;
/// The deepest `--depth` accepted.
pub const MAX_DEPTH: u32 = 30;
/// The switches not studied, and why (see the module's comment).
pub const SKIPPED: &[(&str, &str)] = &[(
    "Debug_TimeManager",
    "time management: changes how long a timed move thinks, not a fixed depth's tree",
)];
/// The name of the setting with every switch on.
pub const FULL: &str = "full";

/// The switches by what they do, for the table's order and the chart's panels. A test
/// checks that every studied switch is in exactly one family.
pub const FAMILIES: &[(&str, &[&str])] = &[
    (
        "The frame: windows, table, quiescence",
        &[
            "Debug_Aspiration",
            "Debug_PVS",
            "Debug_TTCutoffs",
            "Debug_Quiescence",
            "Debug_QuiescenceTT",
        ],
    ),
    (
        "Move ordering and learning",
        &[
            "Debug_MVVLVA",
            "Debug_Killers",
            "Debug_History",
            "Debug_Correction",
        ],
    ),
    (
        "Pruning",
        &[
            "Debug_NullMove",
            "Debug_ReverseFutility",
            "Debug_Razoring",
            "Debug_Futility",
            "Debug_LateMovePruning",
            "Debug_SEE",
            "Debug_ProbCut",
        ],
    ),
    (
        "Reductions and extensions",
        &["Debug_LMR", "Debug_IIR", "Debug_Singular"],
    ),
];

pub const USAGE: &str =
    "usage: tabas lab switches [--depth N] [--positions K] [--only LIST] [--csv FILE] [--svg FILE]
       tabas lab switches --match-commands [--only LIST]
  the engine's own search on the bench positions, full and with each Debug_ switch off
  alone (Debug_TimeManager excepted): nodes, time to depth, EBF, first-move cutoffs,
  and the Elo each part is worth where a match measured it
  --depth N         search to depth N (default 13: about 4 minutes; at most 30)
  --positions K     the first K of the 50 bench positions (default: all)
  --only LIST       only these switches, comma-separated (Debug_ may be left out: LMR,NullMove)
  --csv FILE        write one row per setting and depth
  --svg FILE        write the chart: nodes against depth as a multiple of the full engine's
  --match-commands  print, for each switch whose Elo is not measured, the match.py command
                    that measures it (nothing is searched)";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub depth: u32,
    pub positions: usize,
    /// The switches to turn off, one at a time, in `FAMILIES` order.
    pub switches: Vec<&'static str>,
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

/// Parses the arguments after `lab switches`.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut flags = Flags::new(MAX_DEPTH).without_epd();
    let mut positions = None;
    let mut only: Option<Vec<&'static str>> = None;
    let mut match_commands = false;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flags.read(flag, &mut rest)? {
            continue;
        }
        match flag.as_str() {
            "--help" | "-h" => return Ok(Command::Help(USAGE)),
            "--match-commands" => match_commands = true,
            "--positions" => {
                let value = parse_flag_value(flag, rest.next())?;
                let count = bench::POSITIONS.len();
                let k = match value.parse::<usize>() {
                    Ok(k) if (1..=count).contains(&k) => k,
                    _ => return Err(format!("--positions must be 1..{count}, not '{value}'")),
                };
                set_once(&mut positions, k, flag)?;
            }
            "--only" => {
                let value = parse_flag_value(flag, rest.next())?;
                set_once(&mut only, parse_switch_list(value)?, flag)?;
            }
            other => return Err(format!("unknown lab switches argument '{other}'")),
        }
    }
    let switches = studied()
        .filter(|s| only.as_ref().is_none_or(|list| list.contains(s)))
        .collect();
    if match_commands {
        if flags.depth.is_some()
            || positions.is_some()
            || flags.csv.is_some()
            || flags.svg.is_some()
        {
            return Err("--match-commands takes only --only".into());
        }
        return Ok(Command::MatchCommands(switches));
    }
    Ok(Command::Switches(Options {
        depth: flags.depth.unwrap_or(DEFAULT_DEPTH),
        positions: positions.unwrap_or(bench::POSITIONS.len()),
        switches,
        csv: flags.csv,
        svg: flags.svg,
    }))
}

/// The switches studied, in `FAMILIES` order (then any switch no family lists yet).
pub fn studied() -> impl Iterator<Item = &'static str> {
    let listed = FAMILIES
        .iter()
        .flat_map(|(_, switches)| switches.iter().copied());
    let unlisted = SWITCH_OPTIONS
        .iter()
        .copied()
        .filter(|s| !FAMILIES.iter().any(|(_, f)| f.contains(s)));
    listed
        .chain(unlisted)
        .filter(|s| !SKIPPED.iter().any(|(skipped, _)| skipped == s))
}

/// `LMR,Debug_NullMove` → the studied switches named (case-insensitive, `Debug_` optional).
fn parse_switch_list(text: &str) -> Result<Vec<&'static str>, String> {
    let mut list = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let full = if name.len() >= 6 && name[..6].eq_ignore_ascii_case("debug_") {
            name.to_string()
        } else {
            format!("Debug_{name}")
        };
        if let Some((skipped, why)) = SKIPPED.iter().find(|(s, _)| s.eq_ignore_ascii_case(&full)) {
            return Err(format!("{skipped} is not studied ({why})"));
        }
        let Some(switch) = studied().find(|s| s.eq_ignore_ascii_case(&full)) else {
            return Err(format!("--only: no switch '{name}'"));
        };
        if !list.contains(&switch) {
            list.push(switch);
        }
    }
    if list.is_empty() {
        return Err("--only needs at least one switch".into());
    }
    Ok(list)
}

/// The family of `switch` (`None`: no family lists it yet).
pub fn family(switch: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|(_, switches)| switches.contains(&switch))
        .map(|(name, _)| *name)
}

/// The engine's configuration with `switch` off (`None`: everything on).
pub fn config(switch: Option<&str>) -> SearchConfig {
    let mut config = SearchConfig::default();
    if let Some(switch) = switch {
        *config
            .switch_mut(switch)
            .expect("a switch of SWITCH_OPTIONS") = false;
    }
    config
}

/// What the search had done when one iteration completed (its exact report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Iteration {
    pub nodes: u64,
    /// Wall-clock time since the search started.
    pub wall: Duration,
    /// The search thread's CPU time since it started (`None` where it cannot be read).
    pub cpu: Option<Duration>,
    pub cutoffs: Cutoffs,
    pub best: Option<Move>,
}

/// One setting (the full engine, or one switch off) on every position.
#[derive(Clone, Debug)]
pub struct SettingRun {
    /// `FULL`, or the switch turned off.
    pub name: &'static str,
    /// Per position, per depth (index depth − 1).
    pub positions: Vec<Vec<Iteration>>,
}

/// One setting's figures at one depth, summed over the positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub nodes: u64,
    pub wall: Duration,
    /// `None` if any position's CPU time is unknown.
    pub cpu: Option<Duration>,
    pub cutoffs: Cutoffs,
}

impl Totals {
    /// The time to depth: the CPU time where known (other programs on the machine do
    /// not count), else the wall-clock time.
    pub fn time(&self) -> Duration {
        self.cpu.unwrap_or(self.wall)
    }
}

impl SettingRun {
    pub fn max_depth(&self) -> u32 {
        self.positions.first().map_or(0, |p| p.len() as u32)
    }

    /// The sums at `depth` (1-based).
    pub fn totals(&self, depth: u32) -> Totals {
        let mut totals = Totals {
            cpu: Some(Duration::ZERO),
            ..Totals::default()
        };
        for iteration in self
            .positions
            .iter()
            .filter_map(|p| p.get(depth as usize - 1))
        {
            totals.nodes += iteration.nodes;
            totals.wall += iteration.wall;
            totals.cpu = totals.cpu.zip(iteration.cpu).map(|(a, b)| a + b);
            totals.cutoffs.all += iteration.cutoffs.all;
            totals.cutoffs.first_move += iteration.cutoffs.first_move;
        }
        totals
    }

    /// The positions whose best move at `depth` differs from `other`'s.
    pub fn moves_changed(&self, other: &SettingRun, depth: u32) -> usize {
        let at = |p: &Vec<Iteration>| p.get(depth as usize - 1).and_then(|i| i.best);
        self.positions
            .iter()
            .zip(&other.positions)
            .filter(|(a, b)| at(a) != at(b))
            .count()
    }
}

/// The bench positions, evaluated as the bench evaluates them (the built-in network).
pub fn bench_boards(count: usize) -> Vec<Board> {
    bench::POSITIONS
        .iter()
        .take(count)
        .map(|fen| {
            let pos: Chess = fen
                .parse::<Fen>()
                .expect("bench FEN")
                .into_position(CastlingMode::Standard)
                .expect("bench position");
            Board::with_network(pos, crate::nnue::embedded())
        })
        .collect()
}

/// Searches `board` to `depth` as `bench` does (fresh table and thread state), keeping
/// each iteration's exact report. An iteration the search did not reach (it never
/// stops early at a fixed depth, but if it did) repeats the last one reached.
pub fn search(
    board: &Board,
    depth: u32,
    config: SearchConfig,
    tt: &TranspositionTable,
) -> Vec<Iteration> {
    tt.clear();
    let control = Control::new(false);
    let limits = Limits {
        depth: Some(depth as i32),
        ..Limits::default()
    };
    let mut thread = ThreadData::default();
    let shared = SharedContext::alone(tt, &control);
    let mut searcher = Searcher::new(shared, &mut thread, config, limits, 0);
    let mut iterations: Vec<Option<Iteration>> = vec![None; depth as usize];
    let cpu_start = thread_cpu_time();
    searcher.search(board, &[], &mut |report| {
        // The first exact line of a depth ends its iteration (bounds come before it;
        // a repeated line after the last iteration must not overwrite it).
        if report.bound == ScoreBound::Exact
            && let Some(slot) = usize::try_from(report.depth - 1)
                .ok()
                .and_then(|i| iterations.get_mut(i))
            && slot.is_none()
        {
            *slot = Some(Iteration {
                nodes: report.nodes,
                wall: report.time,
                cpu: cpu_start
                    .zip(thread_cpu_time())
                    .map(|(start, now)| now.saturating_sub(start)),
                cutoffs: report.cutoffs,
                best: report.pv.first().copied(),
            });
        }
    });
    let mut last = Iteration::default();
    iterations
        .into_iter()
        .map(|i| {
            last = i.unwrap_or(last);
            last
        })
        .collect()
}

/// The CPU time the calling thread has run, from Linux's `/proc/thread-self/schedstat`
/// (nanoseconds; reading it costs a few microseconds); `None` elsewhere. The study runs
/// beside other programs: their share of the cores must not count as the search's time.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Runs one setting on `boards` to `depth`.
pub fn measure(
    name: &'static str,
    boards: &[Board],
    depth: u32,
    tt: &TranspositionTable,
) -> SettingRun {
    let config = config((name != FULL).then_some(name));
    SettingRun {
        name,
        positions: boards
            .iter()
            .map(|b| search(b, depth, config, tt))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::lab::tests::args;

    fn options(text: &str) -> Options {
        match parse_args(&args(text)) {
            Ok(Command::Switches(o)) => o,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn every_switch_but_the_clock_is_studied_once() {
        let studied: Vec<&str> = studied().collect();
        assert_eq!(studied.len(), SWITCH_OPTIONS.len() - SKIPPED.len());
        for switch in SWITCH_OPTIONS {
            let in_families = FAMILIES.iter().filter(|(_, f)| f.contains(switch)).count();
            let skipped = SKIPPED.iter().any(|(s, _)| s == switch);
            assert_eq!(
                in_families + skipped as usize,
                1,
                "{switch}: in one family, or skipped"
            );
        }
        for (_, switches) in FAMILIES {
            assert!(
                switches.iter().all(|s| SWITCH_OPTIONS.contains(s)),
                "{switches:?}"
            );
        }
    }

    #[test]
    fn arguments() {
        let o = options("");
        assert_eq!(
            (o.depth, o.positions, o.csv, o.svg),
            (DEFAULT_DEPTH, 50, None, None)
        );
        assert_eq!(o.switches, studied().collect::<Vec<_>>());
        let o = options("--depth 9 --positions 3 --only nullmove,Debug_LMR,LMR --csv a --svg b");
        assert_eq!(o.depth, 9);
        assert_eq!(o.positions, 3);
        // In the study's order, whatever the list's.
        assert_eq!(o.switches, ["Debug_NullMove", "Debug_LMR"]);
        assert_eq!(o.csv, Some(PathBuf::from("a")));
        assert_eq!(
            parse_args(&args("--match-commands --only LMR")),
            Ok(Command::MatchCommands(vec!["Debug_LMR"]))
        );
        assert_eq!(parse_args(&args("--depth 3 -h")), Ok(Command::Help(USAGE)));
        for (text, expected) in [
            ("--depth 31", "--depth must be 1..30, not '31'"),
            ("--depth x", "--depth must be 1..30, not 'x'"),
            ("--positions 0", "--positions must be 1..50, not '0'"),
            ("--positions 51", "--positions must be 1..50"),
            ("--positions", "--positions needs a value"),
            ("--only Bogus", "--only: no switch 'Bogus'"),
            ("--only ,", "--only needs at least one switch"),
            ("--only TimeManager", "Debug_TimeManager is not studied"),
            ("--only LMR --only IIR", "--only given twice"),
            (
                "--match-commands --depth 3",
                "--match-commands takes only --only",
            ),
            ("--epd x", "unknown lab switches argument '--epd'"),
        ] {
            let err = parse_args(&args(text)).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    #[test]
    fn configs_turn_one_switch_off() {
        assert_eq!(config(None), SearchConfig::default());
        let off = config(Some("Debug_LMR"));
        assert!(!off.lmr);
        let mut back = off;
        *back.switch_mut("Debug_LMR").unwrap() = true;
        assert_eq!(back, SearchConfig::default());
    }

    #[test]
    fn iterations_are_the_engines_and_deterministic() {
        let boards = bench_boards(2);
        let tt = TranspositionTable::new(bench::BENCH_HASH_MB).unwrap();
        let full = measure(FULL, &boards, 5, &tt);
        let again = measure(FULL, &boards, 5, &tt);
        assert_eq!(full.max_depth(), 5);
        for depth in 1..=5 {
            assert_eq!(full.totals(depth).nodes, again.totals(depth).nodes);
            assert_eq!(full.moves_changed(&again, depth), 0);
        }
        assert!((2..=5).all(|d| full.totals(d).nodes > full.totals(d - 1).nodes));
        // Depth 5's totals are what `bench 5` counts on those positions.
        let mut bench_nodes = Vec::new();
        bench::run(5, SearchConfig::default(), &mut |line| {
            bench_nodes.push(line.to_string())
        });
        let per_position: Vec<u64> = bench_nodes
            .iter()
            .take(2)
            .map(|l| l.split_whitespace().nth(5).unwrap().parse().unwrap())
            .collect();
        assert_eq!(full.totals(5).nodes, per_position.iter().sum::<u64>());
        let cutoffs = full.totals(5).cutoffs;
        assert!(cutoffs.first_move <= cutoffs.all && cutoffs.all > 0);
        let no_killers = measure("Debug_Killers", &boards, 5, &tt);
        assert_ne!(no_killers.totals(5).nodes, full.totals(5).nodes);
        let totals = full.totals(5);
        if let Some(cpu) = totals.cpu {
            // A single-threaded search cannot run longer than the clock on the wall.
            assert!(cpu <= totals.wall + Duration::from_millis(5), "{totals:?}");
            assert_eq!(totals.time(), cpu);
        }
    }
}
