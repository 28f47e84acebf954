//! The laboratory's results as a table (stdout), a CSV and the chart's data.
//!
//! One row per depth and variant, then the theoretical `knuth_moore` row:
//! * `of minimax`: nodes as a share of minimax's nodes at the same depth;
//! * `EBF`: effective branching factor, nodes(d) / nodes(d-1);
//! * `1st-move cuts`: the share of beta cutoffs made by the first move searched,
//!   the ordering's quality (100 % is perfect ordering);
//! * `check`: whether the value is minimax's (`exact`), and for null move, the
//!   only variant allowed to differ, `same` or `differs`.

use super::svg::{Chart, Marker, Panel, Series};
use super::variants::{Counts, Variant};
use super::{PositionResult, knuth_moore_leaves, knuth_moore_nodes};
use crate::score::{self, Score};
use std::fmt::Write as _;
use std::io::{self, Write};

/// The name of the theoretical row in tables, the CSV and the chart.
pub const KNUTH_MOORE: &str = "knuth_moore";

/// How a variant's value compares with minimax's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Reference,
    /// An exact variant with minimax's value.
    Exact,
    /// An exact variant with another value: a bug.
    Wrong {
        minimax: Score,
    },
    /// Null move, with minimax's value.
    Same,
    /// Null move, with another value (allowed: it is not exact).
    Differs {
        minimax: Score,
    },
    /// The theoretical row has no value.
    NotApplicable,
}

impl Check {
    fn of(variant: Variant, value: Score, minimax: Score) -> Check {
        match (variant, variant.is_exact(), value == minimax) {
            (Variant::Minimax, _, _) => Check::Reference,
            (_, true, true) => Check::Exact,
            (_, true, false) => Check::Wrong { minimax },
            (_, false, true) => Check::Same,
            (_, false, false) => Check::Differs { minimax },
        }
    }

    fn text(self) -> String {
        match self {
            Check::Reference => "reference".into(),
            Check::Exact => "exact".into(),
            Check::Wrong { minimax } => format!("WRONG (minimax {})", show_value(minimax)),
            Check::Same => "same".into(),
            Check::Differs { minimax } => format!("differs (minimax {})", show_value(minimax)),
            Check::NotApplicable => "-".into(),
        }
    }

    /// The CSV's `matches_minimax` column.
    fn matches(self) -> &'static str {
        match self {
            Check::Reference | Check::Exact | Check::Same => "true",
            Check::Wrong { .. } | Check::Differs { .. } => "false",
            Check::NotApplicable => "",
        }
    }
}

/// One line of the table and of the CSV.
struct Row {
    depth: u32,
    variant: &'static str,
    nodes: u64,
    leaves: u64,
    value: Option<Score>,
    check: Check,
    /// Nodes as a percentage of minimax's at this depth.
    of_minimax: f64,
    /// nodes(d) / nodes(d-1); none at depth 1.
    ebf: Option<f64>,
    /// The branching factor of the theoretical row.
    knuth_moore_b: Option<u64>,
    /// `None` for the theoretical row.
    counts: Option<Counts>,
}

/// The rows of one position: per depth, every variant then `knuth_moore`.
fn rows(result: &PositionResult) -> Vec<Row> {
    let mut rows = Vec::new();
    for depth in 1..=result.max_depth {
        let Some(minimax) = result.outcome(Variant::Minimax, depth) else {
            continue;
        };
        let share = |nodes: u64| 100.0 * nodes as f64 / minimax.counts.nodes.max(1) as f64;
        let ebf =
            |nodes: u64, previous: Option<u64>| previous.map(|p| nodes as f64 / p.max(1) as f64);
        for &(variant, ref outcomes) in &result.runs {
            let Some(outcome) = outcomes.iter().find(|o| o.depth == depth) else {
                continue;
            };
            let previous = outcomes.iter().find(|o| o.depth + 1 == depth);
            let nodes = outcome.counts.nodes;
            rows.push(Row {
                depth,
                variant: variant.name(),
                nodes,
                leaves: outcome.counts.leaves,
                value: Some(outcome.value),
                check: Check::of(variant, outcome.value, minimax.value),
                of_minimax: share(nodes),
                ebf: ebf(nodes, previous.map(|p| p.counts.nodes)),
                knuth_moore_b: None,
                counts: Some(outcome.counts),
            });
        }
        let b = result.branching_factor(depth);
        let nodes = knuth_moore_nodes(b, depth);
        rows.push(Row {
            depth,
            variant: KNUTH_MOORE,
            nodes,
            leaves: knuth_moore_leaves(b, depth),
            value: None,
            check: Check::NotApplicable,
            of_minimax: share(nodes),
            ebf: ebf(nodes, (depth > 1).then(|| knuth_moore_nodes(b, depth - 1))),
            knuth_moore_b: Some(b),
            counts: None,
        });
    }
    rows
}

/// What every table shares: the conditions of the measurement.
pub fn write_preamble(out: &mut dyn Write, depth: u32) -> io::Result<()> {
    writeln!(out, "Tabas alpha-beta laboratory: depths 1..{depth}")?;
    writeln!(
        out,
        "Same tree for every variant: static eval at the horizon, no quiescence, no check extension,"
    )?;
    writeln!(
        out,
        "no repetition draws; mate and stalemate scored at interior nodes. nodes = interior + leaves."
    )?;
    writeln!(
        out,
        "Each variant adds one idea to the one above it. pvs_aspiration and pvs_null_move iterate:"
    )?;
    writeln!(
        out,
        "their counts at depth d are the whole iterative-deepening run 1..d."
    )?;
    writeln!(
        out,
        "knuth_moore: the minimal tree of a uniform tree, b^ceil(d/2) + b^floor(d/2) - 1 leaves,"
    )?;
    writeln!(
        out,
        "with b = round(minimax leaves(d)^(1/d)): the uniform tree as big as the real one at depth d."
    )
}

/// The table of one position.
pub fn write_table(out: &mut dyn Write, result: &PositionResult) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "== {}: {}", result.name, result.fen)?;
    let b: Vec<String> = (1..=result.max_depth)
        .map(|d| result.branching_factor(d).to_string())
        .collect();
    writeln!(
        out,
        "   {} legal moves at the root; knuth_moore b at depths 1..{}: {}",
        result.root_moves,
        result.max_depth,
        b.join(", ")
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>5}  {:<17}  {:>12}  {:>12}  {:>7}  {:>10}  {:>6}  {:>13}  check",
        "depth", "variant", "nodes", "leaves", "value", "of minimax", "EBF", "1st-move cuts"
    )?;
    let mut last_depth = 0;
    for row in rows(result) {
        if row.depth != last_depth && last_depth != 0 {
            writeln!(out)?;
        }
        last_depth = row.depth;
        writeln!(
            out,
            "{:>5}  {:<17}  {:>12}  {:>12}  {:>7}  {:>10}  {:>6}  {:>13}  {}",
            row.depth,
            row.variant,
            thousands(row.nodes),
            thousands(row.leaves),
            row.value.map_or("-".into(), show_value),
            percent(row.of_minimax),
            row.ebf.map_or("-".into(), |e| format!("{e:.1}")),
            row.counts
                .and_then(|c| c.first_move_cutoff_percent())
                .map_or("-".into(), |p| format!("{p:.1}%")),
            row.check.text()
        )?;
    }
    Ok(())
}

/// The CSV columns; the first six are the stable interface.
const CSV_HEADER: &str = "position,depth,variant,nodes,leaves,value,matches_minimax,\
nodes_pct_of_minimax,ebf,first_move_cutoff_pct,cutoffs,first_move_cutoffs,table_cutoffs,null_move_cutoffs,\
pvs_re_searches,aspiration_re_searches,knuth_moore_b,fen";

/// One row per position, depth and variant (and `knuth_moore`); empty cells where
/// a column does not apply.
pub fn csv(results: &[PositionResult]) -> String {
    let mut text = String::new();
    text.push_str(CSV_HEADER);
    text.push('\n');
    for result in results {
        for row in rows(result) {
            let count =
                |f: fn(&Counts) -> u64| row.counts.map_or(String::new(), |c| f(&c).to_string());
            let fields = [
                csv_field(&result.name),
                row.depth.to_string(),
                row.variant.to_string(),
                row.nodes.to_string(),
                row.leaves.to_string(),
                row.value.map_or(String::new(), |v| v.to_string()),
                row.check.matches().to_string(),
                format!("{:.4}", row.of_minimax),
                row.ebf.map_or(String::new(), |e| format!("{e:.3}")),
                row.counts
                    .and_then(|c| c.first_move_cutoff_percent())
                    .map_or(String::new(), |p| format!("{p:.2}")),
                count(|c| c.cutoffs),
                count(|c| c.first_move_cutoffs),
                count(|c| c.table_cutoffs),
                count(|c| c.null_move_cutoffs),
                count(|c| c.pvs_re_searches),
                count(|c| c.aspiration_re_searches),
                row.knuth_moore_b.map_or(String::new(), |b| b.to_string()),
                csv_field(&result.fen),
            ];
            text.push_str(&fields.join(","));
            text.push('\n');
        }
    }
    text
}

/// Colour and marker per line of the chart, in legend order.
const STYLES: [(Variant, &str, Marker); 8] = [
    (Variant::Minimax, "#222222", Marker::Circle),
    (Variant::AlphaBeta, "#d62728", Marker::Square),
    (Variant::AlphaBetaMvvLva, "#ff7f0e", Marker::Diamond),
    (Variant::AlphaBetaKillers, "#b8a000", Marker::Triangle),
    (Variant::AlphaBetaTt, "#2ca02c", Marker::Circle),
    (Variant::Pvs, "#17becf", Marker::Square),
    (Variant::PvsAspiration, "#1f77b4", Marker::Diamond),
    (Variant::PvsNullMove, "#9467bd", Marker::Triangle),
];
const KNUTH_MOORE_COLOR: &str = "#555555";

/// The chart: one panel per position, nodes against depth, the bound dashed.
pub fn chart(results: &[PositionResult]) -> Chart {
    let max_depth = results.iter().map(|r| r.max_depth).max().unwrap_or(1);
    let panels = results
        .iter()
        .map(|result| {
            let mut series: Vec<Series> = STYLES
                .iter()
                .map(|&(variant, color, marker)| Series {
                    label: variant.name().into(),
                    color,
                    dashed: false,
                    marker,
                    points: result
                        .outcomes(variant)
                        .iter()
                        .map(|o| (o.depth as f64, o.counts.nodes as f64))
                        .collect(),
                })
                .collect();
            series.push(Series {
                label: KNUTH_MOORE.into(),
                color: KNUTH_MOORE_COLOR,
                dashed: true,
                marker: Marker::None,
                points: (1..=result.max_depth)
                    .map(|d| {
                        (
                            d as f64,
                            knuth_moore_nodes(result.branching_factor(d), d) as f64,
                        )
                    })
                    .collect(),
            });
            Panel {
                title: format!("{} ({} legal moves)", result.name, result.root_moves),
                series,
            }
        })
        .collect();
    Chart {
        title: format!("Nodes visited to reach each depth (1..{max_depth}), log scale"),
        x_label: "depth (plies)".into(),
        y_label: "nodes visited (interior + leaves)".into(),
        panels,
        footnotes: vec![
            "Same tree for every variant: static eval at the horizon, no quiescence; each variant adds one idea to the one above it in the legend.".into(),
            "pvs_aspiration and pvs_null_move: the whole iterative-deepening run 1..d. knuth_moore (dashed): minimal tree of the uniform tree with b = round(minimax leaves(d)^(1/d)).".into(),
        ],
    }
}

/// A value for people: centipawns, or `#n` / `#-n` for mate in n moves.
pub(super) fn show_value(value: Score) -> String {
    if score::is_mate(value) {
        format!("#{}", score::mate_moves(value))
    } else {
        value.to_string()
    }
}

/// `4085603` → `4,085,603`.
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Enough digits to tell small shares apart: `100%`, `12.3%`, `0.42%`.
pub(super) fn percent(p: f64) -> String {
    let mut s = String::new();
    let _ = if p >= 99.95 {
        write!(s, "{p:.0}%")
    } else if p >= 1.0 {
        write!(s, "{p:.1}%")
    } else {
        write!(s, "{p:.2}%")
    };
    s
}

/// A CSV cell, quoted when it holds a comma, quote or line break.
pub(super) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::lab::{measure, parse_position};

    fn startpos(depth: u32) -> PositionResult {
        measure(
            &parse_position(
                "startpos",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            )
            .unwrap(),
            depth,
        )
    }

    #[test]
    fn csv_has_a_row_per_depth_and_variant() {
        let text = csv(&[startpos(2)]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("position,depth,variant,nodes,leaves,value,"));
        assert_eq!(lines.len(), 1 + 2 * (Variant::ALL.len() + 1));
        assert!(lines[1].starts_with("startpos,1,minimax,21,20,"));
        let columns = lines[0].split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == columns));
        assert!(text.contains(",2,knuth_moore,"));
        assert!(
            !text.contains("false"),
            "every variant matches minimax here"
        );
    }

    #[test]
    fn table_marks_every_exact_variant() {
        let mut out = Vec::new();
        write_table(&mut out, &startpos(2)).unwrap();
        let table = String::from_utf8(out).unwrap();
        assert_eq!(
            table.matches(" exact").count(),
            2 * (Variant::ALL.len() - 2)
        );
        assert!(!table.contains("WRONG"));
    }

    #[test]
    fn checks_and_formats() {
        assert_eq!(Check::of(Variant::Pvs, 5, 6), Check::Wrong { minimax: 6 });
        assert_eq!(
            Check::of(Variant::PvsNullMove, 5, 6),
            Check::Differs { minimax: 6 }
        );
        assert_eq!(Check::of(Variant::PvsNullMove, 6, 6), Check::Same);
        assert_eq!(thousands(4_085_603), "4,085,603");
        assert_eq!(thousands(999), "999");
        assert_eq!(percent(100.0), "100%");
        assert_eq!(percent(0.4249), "0.42%");
        assert_eq!(show_value(score::mate_in(1)), "#1");
        assert_eq!(show_value(score::mated_in(2)), "#-1");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
