//! Published perft suites, checked against `tabas::perft::perft` (shakmaty's move
//! lists) and against `tabas::search::picker_perft` (the search's staged move picker
//! with Tabas's own legality: every legal move once, nothing else).
//!
//! Suites (all under `perft/`):
//! * `perftsuite.epd`: 126 standard positions, `FEN ;D1 n ;D2 n ...`.
//! * `cpw_perft.epd`: the Chess Programming Wiki positions, same format.
//! * `fischer.epd`: 960 Chess960 start-ish positions, Shredder castling (`HFhf`).
//! * `tricky.perft`: `id` / `epd FEN` / `perft DEPTH NODES` blocks, with X-FEN
//!   castling on Chess960 setups and deliberately unreachable positions.
//!
//! Castling mode per suite:
//! * `perftsuite.epd` and `cpw_perft.epd` are parsed with `CastlingMode::Standard`,
//!   which is strict: a castling right that is not king on e1/e8 with a rook on the
//!   a/h file is rejected, so a typo in those files cannot silently drop a right.
//!   (`castling_modes_agree_on_standard_suites` checks Chess960 mode reads them the
//!   same way.)
//! * `fischer.epd` and `tricky.perft` need `CastlingMode::Chess960`: Shredder
//!   letters and X-FEN `KQkq` with the king off the e-file are only valid there.
//!
//! Fast tests (`cargo test --test perft_suites`) check every count up to a per-suite
//! node budget (`FAST_BUDGET`, `FAST_BUDGET_FISCHER`); the `full_*` tests are
//! `#[ignore]`d and check every count up to `FULL_CAP` (`FULL_CAP_FISCHER` for
//! `fischer.epd`):
//!
//! ```text
//! cargo test --release --test perft_suites -- --ignored
//! cargo test --release --test perft_suites -- --ignored --exact full_cpw   # one suite
//! ```
//!
//! Each suite runs its (position, depth) pairs on all available cores.
//!
//! Every test reports all mismatches before failing, and asserts that a minimum
//! number of (position, depth) pairs were actually checked.

use std::{
    fmt::Write as _,
    sync::{
        Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Instant,
};

use shakmaty::{CastlingMode, Chess, Position, PositionError, fen::Fen};

// Budgets are leaf-node counts: a (position, depth) pair is checked when its
// published count is at most the budget. Timings: 2-core dev machine.

/// Fast budget for the standard suites and `tricky.perft`: perftsuite 723 pairs
/// (265M leaves), cpw 30 pairs (17M), tricky all 67 pairs (3.4M).
const FAST_BUDGET: u64 = 10_000_000;
/// Fast budget for `fischer.epd`, lower since it has 960 positions: 3771 pairs,
/// every D1-D3 and nearly every D4 (495M leaves). The whole file then takes about
/// 6-10 s in the dev profile.
const FAST_BUDGET_FISCHER: u64 = 1_000_000;
/// Budgets of the move picker's perft, which counts the leaves one by one through the
/// picker (no bulk count): perftsuite 699 pairs (85M leaves), cpw 28 (8M), tricky all
/// 67; fischer 3137 pairs, every D1-D3 count and a third of the D4 (100M), about 4 s each.
const PICKER_BUDGET: u64 = 4_000_000;
const PICKER_BUDGET_FISCHER: u64 = 400_000;
/// Cap of the picker's ignored full runs. `--release`: perftsuite 737 pairs (772 M leaves)
/// in 42 s, cpw 34 (150 M) in 8 s, tricky all 67; fischer under its own cap 4052 pairs
/// (2.18 G leaves: every D1-D4 count and most D5) in 143 s.
const PICKER_FULL_CAP: u64 = 100_000_000;
const PICKER_FULL_CAP_FISCHER: u64 = 10_000_000;

/// How a run counts the leaves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Counter {
    /// `tabas::perft::perft`: shakmaty's legal move lists.
    Shakmaty,
    /// `tabas::search::picker_perft`: the search's move picker.
    Picker,
}

impl Counter {
    fn count(self, pos: &Chess, depth: u32) -> u64 {
        match self {
            Counter::Shakmaty => tabas::perft::perft(pos, depth),
            Counter::Picker => tabas::search::picker_perft(pos, depth),
        }
    }
}

/// Cap for the ignored full runs: every count up to one billion leaf nodes.
/// `--release`: perftsuite 755 pairs (all) in 31 s, cpw 40 of 44 pairs in 12 s,
/// tricky all 67 pairs in 0.03 s.
const FULL_CAP: u64 = 1_000_000_000;
/// `fischer.epd` under `FULL_CAP` would be 417 billion leaf nodes (over an hour on
/// two cores), so its full run stops at 100 million nodes a count: 4810 pairs,
/// every D1-D5 count but one plus 11 D6 counts, 18.2 billion leaves, 142 s in
/// `--release`.
const FULL_CAP_FISCHER: u64 = 100_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Format {
    /// `FEN ;D1 n ;D2 n ...`, one position a line.
    Epd,
    /// `id NAME` / `epd FEN` / `perft DEPTH NODES` lines.
    Blocks,
}

#[derive(Clone, Copy)]
struct Suite {
    file: &'static str,
    format: Format,
    mode: CastlingMode,
    /// Accept positions that shakmaty rejects only for an impossible check (checker
    /// alignment no legal move could produce). Such positions are in the published
    /// suites on purpose; the legal move generator handles them fine.
    allow_impossible_check: bool,
}

const PERFTSUITE: Suite = Suite {
    file: "perftsuite.epd",
    format: Format::Epd,
    mode: CastlingMode::Standard,
    // Line 51, `B6b/8/8/8/2K5/5k2/8/b6B b - -`: both a8 and h1 bishops check f3.
    allow_impossible_check: true,
};
const CPW: Suite = Suite {
    file: "cpw_perft.epd",
    format: Format::Epd,
    mode: CastlingMode::Standard,
    allow_impossible_check: false,
};
const FISCHER: Suite = Suite {
    file: "fischer.epd",
    format: Format::Epd,
    mode: CastlingMode::Chess960,
    allow_impossible_check: false,
};
const TRICKY: Suite = Suite {
    file: "tricky.perft",
    format: Format::Blocks,
    mode: CastlingMode::Chess960,
    allow_impossible_check: true,
};

/// One expected count: `perft(pos, depth) == nodes`, read from `line`.
#[derive(Clone, Copy, Debug)]
struct Expect {
    depth: u32,
    nodes: u64,
    line: usize,
}

struct Case {
    /// Line of the FEN (1-based).
    line: usize,
    id: Option<String>,
    fen: String,
    pos: Chess,
    /// Parsed only by ignoring shakmaty's "impossible check" error.
    impossible_check: bool,
    expects: Vec<Expect>,
}

fn path_of(file: &str) -> String {
    format!("{}/perft/{}", env!("CARGO_MANIFEST_DIR"), file)
}

/// Parses `fen` in the suite's castling mode. Returns the position and whether it
/// was only accepted by ignoring an impossible check.
fn parse_fen(suite: &Suite, line: usize, fen: &str) -> Result<(Chess, bool), String> {
    let parsed = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| format!("perft/{}:{line}: bad FEN {fen:?}: {e}", suite.file))?;
    let invalid = |e: PositionError<Chess>| {
        format!(
            "perft/{}:{line}: FEN {fen:?} is not a valid position ({:?} castling): {e}",
            suite.file, suite.mode
        )
    };
    match parsed.into_position::<Chess>(suite.mode) {
        Ok(pos) => Ok((pos, false)),
        Err(e) if suite.allow_impossible_check => e
            .ignore_impossible_check()
            .map(|pos| (pos, true))
            .map_err(invalid),
        Err(e) => Err(invalid(e)),
    }
}

fn parse_epd(suite: &Suite, text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or("").trim();
        let (pos, impossible_check) = parse_fen(suite, line, fen)?;
        let mut expects = Vec::new();
        for part in parts {
            let part = part.trim();
            let bad = || {
                format!(
                    "perft/{}:{line}: bad depth/count field {part:?}",
                    suite.file
                )
            };
            let (d, n) = part.split_once(char::is_whitespace).ok_or_else(bad)?;
            let depth = d
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(bad)?;
            let nodes = n.trim().parse::<u64>().map_err(|_| bad())?;
            expects.push(Expect { depth, nodes, line });
        }
        if expects.is_empty() {
            return Err(format!("perft/{}:{line}: no ;Dn counts", suite.file));
        }
        cases.push(Case {
            line,
            id: None,
            fen: fen.to_string(),
            pos,
            impossible_check,
            expects,
        });
    }
    Ok(cases)
}

fn parse_blocks(suite: &Suite, text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    let mut id: Option<String> = None;
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (key, rest) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        let rest = rest.trim();
        match key {
            "id" => id = Some(rest.to_string()),
            "epd" => {
                let (pos, impossible_check) = parse_fen(suite, line, rest)?;
                cases.push(Case {
                    line,
                    id: id.take(),
                    fen: rest.to_string(),
                    pos,
                    impossible_check,
                    expects: Vec::new(),
                });
            }
            "perft" => {
                let bad = || format!("perft/{}:{line}: bad perft line {trimmed:?}", suite.file);
                let mut it = rest.split_whitespace();
                let depth = it
                    .next()
                    .and_then(|d| d.parse::<u32>().ok())
                    .ok_or_else(bad)?;
                let nodes = it
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or_else(bad)?;
                if it.next().is_some() {
                    return Err(bad());
                }
                let case = cases.last_mut().ok_or_else(|| {
                    format!(
                        "perft/{}:{line}: perft line before any epd line",
                        suite.file
                    )
                })?;
                case.expects.push(Expect { depth, nodes, line });
            }
            _ => {
                return Err(format!(
                    "perft/{}:{line}: unknown line {trimmed:?}",
                    suite.file
                ));
            }
        }
    }
    if let Some(c) = cases.iter().find(|c| c.expects.is_empty()) {
        return Err(format!(
            "perft/{}:{}: epd without perft lines",
            suite.file, c.line
        ));
    }
    Ok(cases)
}

fn load(suite: &Suite) -> Vec<Case> {
    let path = path_of(suite.file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let parsed = match suite.format {
        Format::Epd => parse_epd(suite, &text),
        Format::Blocks => parse_blocks(suite, &text),
    };
    parsed.unwrap_or_else(|e| panic!("{e}"))
}

/// Checks every count `<= cap` of every position of `suite`, on all available
/// cores, and panics listing every mismatch. Also panics when fewer than
/// `min_positions` positions or `min_pairs` (position, depth) pairs were checked.
fn run_suite(suite: &Suite, counter: Counter, cap: u64, min_positions: usize, min_pairs: usize) {
    let start = Instant::now();
    let cases = load(suite);

    let mut jobs: Vec<(usize, Expect)> = cases
        .iter()
        .enumerate()
        .flat_map(|(i, c)| {
            c.expects
                .iter()
                .filter(|e| e.nodes <= cap)
                .map(move |e| (i, *e))
        })
        .collect();
    // Biggest first, so the threads finish at about the same time.
    jobs.sort_by_key(|j| std::cmp::Reverse(j.1.nodes));

    let mut positions: Vec<usize> = jobs.iter().map(|j| j.0).collect();
    positions.sort_unstable();
    positions.dedup();
    let expected_nodes: u64 = jobs.iter().map(|j| j.1.nodes).sum();
    let max_depth = jobs.iter().map(|j| j.1.depth).max().unwrap_or(0);

    let next = AtomicUsize::new(0);
    let mismatches: Mutex<Vec<(usize, Expect, u64)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(jobs.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(i, e)) = jobs.get(k) else { break };
                    let got = counter.count(&cases[i].pos, e.depth);
                    if got != e.nodes {
                        mismatches.lock().unwrap().push((i, e, got));
                    }
                }
            });
        }
    });
    let mut mismatches = mismatches.into_inner().unwrap();
    mismatches.sort_by_key(|m| (m.1.line, m.1.depth));

    println!(
        "perft/{} ({counter:?}): cap {cap}: {} positions of {}, {} (position, depth) pairs, \
         max depth {max_depth}, {expected_nodes} leaf nodes, {} threads, {:.2?}",
        suite.file,
        positions.len(),
        cases.len(),
        jobs.len(),
        threads,
        start.elapsed()
    );

    if !mismatches.is_empty() {
        let mut msg = format!(
            "{} perft mismatch(es) in perft/{} ({counter:?}; of {} pairs checked):\n",
            mismatches.len(),
            suite.file,
            jobs.len()
        );
        for (i, e, got) in &mismatches {
            let c = &cases[*i];
            // Independent reference from shakmaty itself: tells a bug in
            // tabas::perft from a wrong published count.
            let reference = shakmaty::perft(&c.pos, e.depth);
            let _ = writeln!(
                msg,
                "  perft/{}:{}{}: fen {:?} depth {} expected {} got {} (diff {:+}; shakmaty::perft {})",
                suite.file,
                e.line,
                c.id.as_deref()
                    .map(|id| format!(" [{id}]"))
                    .unwrap_or_default(),
                c.fen,
                e.depth,
                e.nodes,
                got,
                i128::from(*got) - i128::from(e.nodes),
                reference
            );
        }
        panic!("{msg}");
    }

    assert!(
        positions.len() >= min_positions,
        "perft/{}: only {} positions checked under cap {cap}, expected at least {min_positions} \
         (parser broken?)",
        suite.file,
        positions.len()
    );
    assert!(
        jobs.len() >= min_pairs,
        "perft/{}: only {} (position, depth) pairs checked under cap {cap}, expected at least \
         {min_pairs} (parser broken?)",
        suite.file,
        jobs.len()
    );
}

// ---------------------------------------------------------------------------
// Parsing sanity (no perft).
// ---------------------------------------------------------------------------

#[test]
fn suites_parse_completely() {
    // (suite, positions, (position, depth) pairs, lines only valid ignoring an
    // impossible check) as published.
    for (suite, n_pos, n_pairs, impossible_lines) in [
        (PERFTSUITE, 126, 755, &[51][..]),
        (CPW, 7, 44, &[]),
        (FISCHER, 960, 5760, &[]),
        // align-diag-1/2, align-horizontal, align-ep, align-ep-pinned, ep-unrelated-check.
        (TRICKY, 19, 67, &[104, 110, 116, 122, 128, 134]),
    ] {
        let cases = load(&suite);
        let pairs: usize = cases.iter().map(|c| c.expects.len()).sum();
        let impossible: Vec<usize> = cases
            .iter()
            .filter(|c| c.impossible_check)
            .map(|c| c.line)
            .collect();
        println!(
            "perft/{}: {} positions, {pairs} pairs, impossible-check lines {impossible:?}",
            suite.file,
            cases.len()
        );
        assert_eq!(cases.len(), n_pos, "perft/{}: position count", suite.file);
        assert_eq!(
            pairs, n_pairs,
            "perft/{}: (position, depth) pair count",
            suite.file
        );
        assert_eq!(
            impossible, impossible_lines,
            "perft/{}: impossible-check positions",
            suite.file
        );
        for c in &cases {
            for (k, e) in c.expects.iter().enumerate() {
                assert!(
                    e.depth >= 1 && (k == 0 || e.depth > c.expects[k - 1].depth),
                    "perft/{}:{}: depths not increasing",
                    suite.file,
                    e.line
                );
            }
            // Depth 1 (when listed) is just the legal move count: checks the FEN
            // was read as intended without any perft machinery.
            if let Some(e) = c.expects.iter().find(|e| e.depth == 1) {
                assert_eq!(
                    c.pos.legal_moves().len() as u64,
                    e.nodes,
                    "perft/{}:{}: legal move count of {:?}",
                    suite.file,
                    e.line,
                    c.fen
                );
            }
        }
    }
}

/// The standard suites are parsed in strict standard mode; Chess960 mode (which
/// accepts X-FEN `KQkq` too) must read exactly the same castling rights.
#[test]
fn castling_modes_agree_on_standard_suites() {
    for suite in [PERFTSUITE, CPW] {
        let chess960 = Suite {
            mode: CastlingMode::Chess960,
            ..suite
        };
        for (a, b) in load(&suite).iter().zip(load(&chess960).iter()) {
            assert_eq!(
                a.pos.castles().castling_rights(),
                b.pos.castles().castling_rights(),
                "perft/{}:{}: castling rights differ between modes",
                suite.file,
                a.line
            );
            assert_eq!(
                a.pos.legal_moves().len(),
                b.pos.legal_moves().len(),
                "perft/{}:{}",
                suite.file,
                a.line
            );
        }
    }
}

/// Shredder-FEN and X-FEN name the same rights in Chess960 mode, and the Chess960
/// suite really needs Chess960 mode (standard mode rejects its castling rights).
#[test]
fn chess960_castling_notations() {
    let start = |castling: &str, mode| {
        Fen::from_ascii(
            format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {castling} - 0 1").as_bytes(),
        )
        .unwrap()
        .into_position::<Chess>(mode)
        .unwrap()
    };
    let xfen = start("KQkq", CastlingMode::Chess960);
    let shredder = start("HAha", CastlingMode::Chess960);
    let standard = start("KQkq", CastlingMode::Standard);
    assert_eq!(
        xfen.castles().castling_rights(),
        shredder.castles().castling_rights()
    );
    assert_eq!(
        xfen.castles().castling_rights(),
        standard.castles().castling_rights()
    );

    let rejected = load(&FISCHER)
        .iter()
        .filter(|c| {
            !c.pos.castles().is_empty()
                && Fen::from_ascii(c.fen.as_bytes())
                    .unwrap()
                    .into_position::<Chess>(CastlingMode::Standard)
                    .is_err()
        })
        .count();
    assert!(
        rejected > 500,
        "only {rejected} fischer.epd positions need Chess960 mode"
    );
}

// ---------------------------------------------------------------------------
// Fast runs (plain `cargo test`).
// ---------------------------------------------------------------------------

#[test]
fn fast_perftsuite() {
    run_suite(&PERFTSUITE, Counter::Shakmaty, FAST_BUDGET, 126, 720);
}

#[test]
fn fast_cpw() {
    run_suite(&CPW, Counter::Shakmaty, FAST_BUDGET, 7, 30);
}

#[test]
fn fast_fischer() {
    run_suite(&FISCHER, Counter::Shakmaty, FAST_BUDGET_FISCHER, 960, 3700);
}

#[test]
fn fast_tricky() {
    run_suite(&TRICKY, Counter::Shakmaty, FAST_BUDGET, 19, 67);
}

#[test]
fn fast_picker_perftsuite() {
    run_suite(&PERFTSUITE, Counter::Picker, PICKER_BUDGET, 126, 690);
}

#[test]
fn fast_picker_cpw() {
    run_suite(&CPW, Counter::Picker, PICKER_BUDGET, 7, 28);
}

#[test]
fn fast_picker_fischer() {
    run_suite(&FISCHER, Counter::Picker, PICKER_BUDGET_FISCHER, 960, 3100);
}

#[test]
fn fast_picker_tricky() {
    run_suite(&TRICKY, Counter::Picker, PICKER_BUDGET, 19, 67);
}

// ---------------------------------------------------------------------------
// Full runs: `cargo test --release --test perft_suites -- --ignored`
// ---------------------------------------------------------------------------

#[test]
#[ignore = "long: every count up to FULL_CAP nodes; run with --release"]
fn full_perftsuite() {
    run_suite(&PERFTSUITE, Counter::Shakmaty, FULL_CAP, 126, 755);
}

#[test]
#[ignore = "long: every count up to FULL_CAP nodes; run with --release"]
fn full_cpw() {
    run_suite(&CPW, Counter::Shakmaty, FULL_CAP, 7, 40);
}

#[test]
#[ignore = "long: every count up to FULL_CAP_FISCHER nodes; run with --release"]
fn full_fischer() {
    run_suite(&FISCHER, Counter::Shakmaty, FULL_CAP_FISCHER, 960, 4810);
}

#[test]
#[ignore = "long: every count up to FULL_CAP nodes; run with --release"]
fn full_tricky() {
    run_suite(&TRICKY, Counter::Shakmaty, FULL_CAP, 19, 67);
}

#[test]
#[ignore = "long: every count up to PICKER_FULL_CAP nodes; run with --release"]
fn full_picker_perftsuite() {
    run_suite(&PERFTSUITE, Counter::Picker, PICKER_FULL_CAP, 126, 737);
}

#[test]
#[ignore = "long: every count up to PICKER_FULL_CAP nodes; run with --release"]
fn full_picker_cpw() {
    run_suite(&CPW, Counter::Picker, PICKER_FULL_CAP, 7, 34);
}

#[test]
#[ignore = "long: every count up to PICKER_FULL_CAP_FISCHER nodes; run with --release"]
fn full_picker_fischer() {
    run_suite(
        &FISCHER,
        Counter::Picker,
        PICKER_FULL_CAP_FISCHER,
        960,
        3800,
    );
}

#[test]
#[ignore = "long: every count up to PICKER_FULL_CAP nodes; run with --release"]
fn full_picker_tricky() {
    run_suite(&TRICKY, Counter::Picker, PICKER_FULL_CAP, 19, 67);
}
