//! The switch study's results: a table (stdout), a CSV, the chart's data, and the
//! script of matches that would measure the missing Elo figures.
//!
//! * `× full`: the figure as a multiple of the full engine's (below 1: the switch off
//!   searches less or faster);
//! * `time`: to complete that depth, the search thread's CPU time (wall time where the
//!   system does not tell it; the CSV has both);
//! * `EBF`: effective branching factor, the mean growth of the nodes per ply over the
//!   last four depths, `(nodes(d) / nodes(d-4))^(1/4)` (odd and even depths alternate in
//!   cost, so one ply alone swings);
//! * `1st-move cuts`: the share of the main search's beta cutoffs made by the first
//!   move searched, the ordering's quality (the whole run to that depth);
//! * `moves changed`: positions whose best move at that depth differs from the full
//!   engine's;
//! * `Elo`: what the part is worth in games, the full engine's Elo over the engine
//!   without it, where a match measured that change (`elo.rs`).

use super::elo;
use super::report::{csv_field, percent, thousands};
use super::svg::{Chart, Marker, Panel, Series};
use super::switches::{self, FULL, Options, SettingRun, Totals};
use crate::search::SWITCH_OPTIONS;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The conditions of the study.
pub fn write_preamble(out: &mut dyn Write, options: &Options) -> io::Result<()> {
    writeln!(
        out,
        "Tabas switch study: the engine's search (bench's code path: one thread, a fresh {} MB",
        crate::bench::BENCH_HASH_MB
    )?;
    writeln!(
        out,
        "table and histories per position) on the first {} bench positions to depth {}, full and",
        options.positions, options.depth
    )?;
    writeln!(
        out,
        "with each Debug_ switch off alone. Figures are sums over the positions at that depth."
    )?;
    writeln!(
        out,
        "time: the search thread's CPU time (else the wall clock's). x full: a multiple of the"
    )?;
    writeln!(
        out,
        "full engine's figure. EBF: (nodes(d)/nodes(d-4))^(1/4), the growth per ply."
    )?;
    writeln!(
        out,
        "1st-move cuts: share of the main search's beta cutoffs made by the first move searched."
    )?;
    writeln!(
        out,
        "moves changed: positions whose best move differs from the full engine's. Elo: the full"
    )?;
    writeln!(
        out,
        "engine over the switch off in games, where a match measured that change (else '-')."
    )
}

/// The table's header, for figures at `depth`.
pub fn write_header(out: &mut dyn Write, depth: u32) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "At depth {depth}:")?;
    writeln!(
        out,
        "{:<22}  {:>14}  {:>7}  {:>9}  {:>7}  {:>5}  {:>13}  {:>7}  Elo",
        "setting", "nodes", "x full", "time", "x full", "EBF", "1st-move cuts", "changed"
    )
}

/// One setting's row at its deepest depth.
pub fn write_row(out: &mut dyn Write, full: &SettingRun, run: &SettingRun) -> io::Result<()> {
    let row = Row::of(full, run, run.max_depth());
    writeln!(
        out,
        "{:<22}  {:>14}  {:>7}  {:>8.2}s  {:>7}  {:>5}  {:>13}  {:>7}  {}",
        label(run.name),
        thousands(row.totals.nodes),
        format!("{:.2}", row.nodes_vs_full),
        row.totals.time().as_secs_f64(),
        format!("{:.2}", row.time_vs_full),
        row.ebf.map_or("-".into(), |e| format!("{e:.2}")),
        row.totals
            .cutoffs
            .first_move_percent()
            .map_or("-".into(), percent),
        row.moves_changed,
        elo_text(run.name),
    )
}

/// What the table leaves out, and the notes of the Elo figures.
pub fn write_notes(out: &mut dyn Write, runs: &[SettingRun]) -> io::Result<()> {
    writeln!(out)?;
    for (switch, why) in switches::SKIPPED {
        writeln!(out, "Not studied: {switch} ({why}).")?;
    }
    for run in runs {
        if let Some(m) = elo::figure(run.name) {
            writeln!(out, "Elo of {}: {}.", run.name, m.source)?;
        }
    }
    writeln!(
        out,
        "The matches that measure the rest: tabas lab switches --match-commands"
    )
}

/// `Debug_LMR` → `LMR off`; the full engine as it is.
fn label(name: &str) -> String {
    if name == FULL {
        "full engine".into()
    } else {
        format!("{} off", name.trim_start_matches("Debug_"))
    }
}

fn elo_text(name: &str) -> String {
    if name == FULL {
        return String::new();
    }
    match elo::figure(name) {
        Some(m) => format!("{:+.1} ± {:.1}", m.elo, m.error),
        None => "-".into(),
    }
}

/// A setting's figures at one depth, beside the full engine's.
struct Row {
    totals: Totals,
    nodes_vs_full: f64,
    time_vs_full: f64,
    ebf: Option<f64>,
    moves_changed: usize,
}

impl Row {
    fn of(full: &SettingRun, run: &SettingRun, depth: u32) -> Row {
        let totals = run.totals(depth);
        let reference = full.totals(depth);
        Row {
            totals,
            nodes_vs_full: totals.nodes as f64 / reference.nodes.max(1) as f64,
            time_vs_full: totals.time().as_secs_f64() / reference.time().as_secs_f64().max(1e-9),
            ebf: ebf(run, depth),
            moves_changed: run.moves_changed(full, depth),
        }
    }
}

/// Plies over which the EBF is averaged.
const EBF_PLIES: u32 = 4;

/// `(nodes(d) / nodes(d-k))^(1/k)`, k = min(`EBF_PLIES`, d - 1); none at depth 1.
fn ebf(run: &SettingRun, depth: u32) -> Option<f64> {
    let k = EBF_PLIES.min(depth.saturating_sub(1));
    (k > 0).then(|| {
        let ratio = run.totals(depth).nodes as f64 / run.totals(depth - k).nodes.max(1) as f64;
        ratio.powf(1.0 / k as f64)
    })
}

const CSV_HEADER: &str = "setting,family,depth,positions,nodes,nodes_vs_full,cpu_ms,wall_ms,time_vs_full,\
ebf,cutoffs,first_move_cutoffs,first_move_cutoff_pct,moves_changed,elo,elo_error,elo_source";

/// One row per setting (the full engine first) and depth. The Elo columns, the same on
/// every row of a switch, are empty where no match measured it; `elo_source` then says
/// `not measured` and names the bundle that included it, if one did.
pub fn csv(full: &SettingRun, runs: &[SettingRun]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for run in std::iter::once(full).chain(runs) {
        let (elo, error, source) = match (run.name == FULL, elo::figure(run.name)) {
            (true, _) => (String::new(), String::new(), String::new()),
            (false, Some(m)) => (
                format!("{:.1}", m.elo),
                format!("{:.1}", m.error),
                m.source.to_string(),
            ),
            (false, None) => (String::new(), String::new(), "not measured".into()),
        };
        for depth in 1..=run.max_depth() {
            let row = Row::of(full, run, depth);
            let fields = [
                run.name.to_string(),
                csv_field(switches::family(run.name).unwrap_or("")),
                depth.to_string(),
                run.positions.len().to_string(),
                row.totals.nodes.to_string(),
                format!("{:.4}", row.nodes_vs_full),
                row.totals.cpu.map_or(String::new(), |t| {
                    format!("{:.1}", t.as_secs_f64() * 1000.0)
                }),
                format!("{:.1}", row.totals.wall.as_secs_f64() * 1000.0),
                format!("{:.4}", row.time_vs_full),
                row.ebf.map_or(String::new(), |e| format!("{e:.3}")),
                row.totals.cutoffs.all.to_string(),
                row.totals.cutoffs.first_move.to_string(),
                row.totals
                    .cutoffs
                    .first_move_percent()
                    .map_or(String::new(), |p| format!("{p:.2}")),
                row.moves_changed.to_string(),
                elo.clone(),
                error.clone(),
                csv_field(&source),
            ];
            text.push_str(&fields.join(","));
            text.push('\n');
        }
    }
    text
}

/// Colours within a panel; each panel has its own marker, so that every switch has its
/// own colour and marker pair.
const COLORS: [&str; 7] = [
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b",
];
const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Square,
    Marker::Diamond,
    Marker::Triangle,
];

/// One panel per family: nodes to each depth with the switch off, as a multiple of the
/// full engine's, with the full engine's line at 1.
pub fn chart(full: &SettingRun, runs: &[SettingRun]) -> Chart {
    let depth = full.max_depth();
    let mut families: Vec<&str> = switches::FAMILIES.iter().map(|(name, _)| *name).collect();
    if runs.iter().any(|r| switches::family(r.name).is_none()) {
        families.push("Other");
    }
    let panels = families
        .iter()
        .enumerate()
        .filter_map(|(p, &family)| {
            let members: Vec<&SettingRun> = runs
                .iter()
                .filter(|r| switches::family(r.name).unwrap_or("Other") == family)
                .collect();
            if members.is_empty() {
                return None;
            }
            let mut series: Vec<Series> = members
                .iter()
                .enumerate()
                .map(|(i, run)| Series {
                    label: label(run.name),
                    color: COLORS[i % COLORS.len()],
                    dashed: false,
                    marker: MARKERS[p % MARKERS.len()],
                    points: (1..=depth)
                        .map(|d| {
                            let ratio =
                                run.totals(d).nodes as f64 / full.totals(d).nodes.max(1) as f64;
                            (d as f64, ratio)
                        })
                        .collect(),
                })
                .collect();
            series.push(Series {
                label: "full engine".into(),
                color: "#222222",
                dashed: true,
                marker: Marker::None,
                points: vec![(1.0, 1.0), (depth as f64, 1.0)],
            });
            Some(Panel {
                title: family.to_string(),
                series,
            })
        })
        .collect();
    Chart {
        title: format!(
            "One switch off: nodes to reach each depth, x the full engine ({} bench positions)",
            full.positions.len()
        ),
        x_label: "depth (plies)".into(),
        y_label: "nodes, x the full engine (log scale)".into(),
        panels,
        footnotes: vec![
            "The engine's own search (one thread, fresh table per position), each Debug_ switch off alone; nodes summed over the positions.".into(),
            format!(
                "Above 1: the part saves nodes; below 1: it spends them (on purpose: extensions, quiescence). Full engine at depth {depth}: {} nodes.",
                thousands(full.totals(depth).nodes)
            ),
        ],
    }
}

/// A shell script: for each switch of `list`, what is known and the `match.py` command
/// that measures it (seed `MATCH_SEED` + its place in `SWITCH_OPTIONS`).
pub fn match_script(list: &[&'static str]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# The Elo each part of the search is worth: the full engine against the same binary\n\
         # with one Debug_ switch off ({} games at {} each, 8moves_v3 openings). Run from the\n\
         # repository after `cargo build --release`; the last line of each match is a JSON\n\
         # object whose Elo (first engine over the second) goes into src/tools/lab/elo.rs.",
        elo::MATCH_GAMES,
        elo::MATCH_TC
    );
    for &switch in list {
        let index = SWITCH_OPTIONS
            .iter()
            .position(|s| *s == switch)
            .unwrap_or(0) as u32;
        let _ = writeln!(text);
        let _ = match elo::figure(switch) {
            Some(m) => writeln!(
                text,
                "# {switch}: measured {:+.1} ± {:.1} ({}); again at today's build:",
                m.elo, m.error, m.source
            ),
            None => writeln!(text, "# {switch}: not measured"),
        };
        let _ = writeln!(
            text,
            "{}",
            elo::match_command(switch, elo::MATCH_SEED + index)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Cutoffs;
    use crate::tools::lab::switches::Iteration;
    use std::time::Duration;

    /// A run whose nodes at depth d are `base * growth^(d-1)` on each of two positions.
    fn run(name: &'static str, base: u64, growth: u64) -> SettingRun {
        let iterations = (0..6)
            .map(|d| Iteration {
                nodes: base * growth.pow(d),
                wall: Duration::from_millis(base * growth.pow(d) / 100),
                cpu: Some(Duration::from_millis(base * growth.pow(d) / 200)),
                cutoffs: Cutoffs {
                    all: 10,
                    first_move: 9,
                },
                best: None,
            })
            .collect::<Vec<_>>();
        SettingRun {
            name,
            positions: vec![iterations.clone(), iterations],
        }
    }

    #[test]
    fn rows_compare_with_the_full_engine() {
        let full = run(FULL, 100, 2);
        let lmr = run("Debug_LMR", 100, 3);
        let row = Row::of(&full, &lmr, 6);
        assert_eq!(row.totals.nodes, 2 * 100 * 243);
        assert!((row.nodes_vs_full - 243.0 / 32.0).abs() < 1e-9);
        assert!((row.ebf.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(ebf(&full, 1), None);
        assert!((ebf(&full, 3).unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(row.moves_changed, 0);
        assert_eq!(label("Debug_LMR"), "LMR off");
        assert_eq!(label(FULL), "full engine");
    }

    #[test]
    fn csv_and_table() {
        let full = run(FULL, 100, 2);
        let runs = [run("Debug_LMR", 100, 3), run("Debug_Correction", 100, 2)];
        let text = csv(&full, &runs);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 3 * 6);
        assert!(lines[1].starts_with("full,,1,2,200,1.0000,"));
        let columns = CSV_HEADER.split(',').count();
        for line in &lines {
            // The source may hold quoted commas.
            assert!(line.split(',').count() >= columns, "{line}");
        }
        assert!(text.contains("Debug_LMR,Reductions and extensions,6,2,48600,"));
        let lmr = elo::figure("Debug_LMR").expect("LMR's match was played");
        assert!(text.contains(&format!(",{:.1},{:.1},", lmr.elo, lmr.error)));
        assert!(text.contains(",27.9,17.2,"));
        let mut out = Vec::new();
        write_header(&mut out, 6).unwrap();
        for r in std::iter::once(&full).chain(&runs) {
            write_row(&mut out, &full, r).unwrap();
        }
        write_notes(&mut out, &runs).unwrap();
        let table = String::from_utf8(out).unwrap();
        assert!(table.contains("LMR off"), "{table}");
        assert!(table.contains("+27.9 ± 17.2"), "{table}");
        assert!(table.contains("Not studied: Debug_TimeManager"), "{table}");
        assert!(table.contains("90.0%"), "{table}");
    }

    #[test]
    fn chart_has_a_panel_per_family_and_the_reference() {
        let full = run(FULL, 100, 2);
        let runs = [run("Debug_LMR", 100, 3), run("Debug_NullMove", 100, 3)];
        let chart = chart(&full, &runs);
        assert_eq!(chart.panels.len(), 2);
        assert!(
            chart
                .panels
                .iter()
                .all(|p| p.series.last().unwrap().label == "full engine")
        );
        let svg = super::super::svg::render(&chart);
        assert!(svg.contains("NullMove off") && !svg.contains("NaN"));
    }

    #[test]
    fn match_script_lists_each_switch() {
        // A switch without a match (none today: a name no switch has) says so.
        let script = match_script(&["Debug_LMR", "Debug_Correction", "Debug_NoSuchPart"]);
        assert_eq!(
            script.matches("python3 ../shared/tools/match.py").count(),
            3
        );
        assert!(script.contains("# Debug_LMR: measured +"));
        assert!(script.contains("# Debug_Correction: measured +27.9"));
        assert!(script.contains("# Debug_NoSuchPart: not measured\n"));
        let lmr_seed = elo::MATCH_SEED
            + SWITCH_OPTIONS
                .iter()
                .position(|s| *s == "Debug_LMR")
                .unwrap() as u32;
        assert!(script.contains(&format!("--seed {lmr_seed} ")));
    }
}
