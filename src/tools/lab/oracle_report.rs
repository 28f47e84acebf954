//! The oracle study's results: a table per position (stdout), a CSV and the chart.
//!
//! Per depth: the width b of the Knuth-Moore formula and its node count; the oracle's
//! nodes (the minimal tree) and their ratio to the formula; alpha-beta's nodes with the
//! engine's ordering and in generation order; the ordering efficiency (oracle nodes ÷
//! engine-ordering nodes); the mean width of the minimal tree's nodes that search
//! every move (those set its size: a refuted node searches one); and what the oracle
//! paid for its values.

use super::oracle::{OracleResult, WIDTH_PLIES};
use super::report::{csv_field, percent, show_value, thousands};
use super::svg::{Chart, Marker, Panel, Series};
use std::io::{self, Write};

/// The conditions of the study.
pub fn write_preamble(out: &mut dyn Write, depth: u32) -> io::Result<()> {
    writeln!(
        out,
        "Tabas oracle study: the minimal tree of real positions, depths 1..{depth}"
    )?;
    writeln!(
        out,
        "The lab's tree (static eval at the horizon, no quiescence). oracle: alpha-beta with every"
    )?;
    writeln!(
        out,
        "node's moves ordered by their exact minimax values, best first (the minimal tree)."
    )?;
    writeln!(
        out,
        "knuth_moore: b^ceil(d/2) + b^floor(d/2) - 1 leaves for b = perft(k)^(1/k), k = min(d, {WIDTH_PLIES}),"
    )?;
    writeln!(
        out,
        "nodes summed level by level. engine: alphabeta_killers (MVV-LVA, killers, history, no"
    )?;
    writeln!(
        out,
        "table); generation: alphabeta. efficiency = oracle nodes / engine nodes (100%: perfect)."
    )?;
    writeln!(
        out,
        "width: mean legal moves at the minimal tree's nodes that search every move (the PV and"
    )?;
    writeln!(
        out,
        "the nodes whose moves all fail low; a refuted node searches one). price: nodes the"
    )?;
    writeln!(
        out,
        "oracle's value searches visited (not counted in its nodes)."
    )
}

/// The table of one position.
pub fn write_table(out: &mut dyn Write, result: &OracleResult) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "== {}: {}", result.name, result.fen)?;
    writeln!(out, "   {} legal moves at the root", result.root_moves)?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>5}  {:>5}  {:>11}  {:>11}  {:>9}  {:>11}  {:>12}  {:>10}  {:>5}  {:>13}  {:>6}  check",
        "depth",
        "b",
        "knuth_moore",
        "oracle",
        "/ formula",
        "engine",
        "generation",
        "efficiency",
        "width",
        "price",
        "value"
    )?;
    for row in &result.rows {
        writeln!(
            out,
            "{:>5}  {:>5.1}  {:>11}  {:>11}  {:>9}  {:>11}  {:>12}  {:>10}  {:>5.1}  {:>13}  {:>6}  {}",
            row.depth,
            row.width,
            thousands(row.knuth_moore_nodes.round() as u64),
            thousands(row.oracle.counts.nodes),
            format!(
                "{:.2}",
                row.oracle.counts.nodes as f64 / row.knuth_moore_nodes
            ),
            thousands(row.engine.counts.nodes),
            thousands(row.generation.counts.nodes),
            percent(100.0 * row.ordering_efficiency()),
            row.oracle_width,
            thousands(row.oracle_price),
            show_value(row.oracle.value),
            if row.values_agree() {
                "exact"
            } else {
                "VALUES DIFFER"
            }
        )?;
    }
    Ok(())
}

const CSV_HEADER: &str = "position,depth,width_b,knuth_moore_nodes,knuth_moore_leaves,\
oracle_nodes,oracle_leaves,oracle_vs_knuth_moore,engine_order_nodes,engine_order_leaves,\
generation_order_nodes,generation_order_leaves,ordering_efficiency,\
engine_first_move_cutoff_pct,generation_first_move_cutoff_pct,oracle_full_node_width,\
oracle_price_nodes,value,values_agree,fen";

/// One row per position and depth.
pub fn csv(results: &[OracleResult]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for result in results {
        for row in &result.rows {
            let pct = |c: &super::variants::Counts| {
                c.first_move_cutoff_percent()
                    .map_or(String::new(), |p| format!("{p:.2}"))
            };
            let fields = [
                csv_field(&result.name),
                row.depth.to_string(),
                format!("{:.3}", row.width),
                format!("{:.1}", row.knuth_moore_nodes),
                format!("{:.1}", row.knuth_moore_leaves),
                row.oracle.counts.nodes.to_string(),
                row.oracle.counts.leaves.to_string(),
                format!(
                    "{:.4}",
                    row.oracle.counts.nodes as f64 / row.knuth_moore_nodes
                ),
                row.engine.counts.nodes.to_string(),
                row.engine.counts.leaves.to_string(),
                row.generation.counts.nodes.to_string(),
                row.generation.counts.leaves.to_string(),
                format!("{:.4}", row.ordering_efficiency()),
                pct(&row.engine.counts),
                pct(&row.generation.counts),
                format!("{:.3}", row.oracle_width),
                row.oracle_price.to_string(),
                row.oracle.value.to_string(),
                row.values_agree().to_string(),
                csv_field(&result.fen),
            ];
            text.push_str(&fields.join(","));
            text.push('\n');
        }
    }
    text
}

/// One panel per position: nodes against depth for the three orderings and the formula.
pub fn chart(results: &[OracleResult]) -> Chart {
    let max_depth = results
        .iter()
        .flat_map(|r| r.rows.iter().map(|row| row.depth))
        .max()
        .unwrap_or(1);
    let panels = results
        .iter()
        .map(|result| {
            let line = |label: &str, color, marker, dashed, y: &dyn Fn(usize) -> f64| Series {
                label: label.into(),
                color,
                dashed,
                marker,
                points: (0..result.rows.len())
                    .map(|i| (result.rows[i].depth as f64, y(i)))
                    .collect(),
            };
            let rows = &result.rows;
            Panel {
                title: format!("{} ({} legal moves)", result.name, result.root_moves),
                series: vec![
                    line("generation order", "#d62728", Marker::Square, false, &|i| {
                        rows[i].generation.counts.nodes as f64
                    }),
                    line(
                        "engine ordering",
                        "#b8a000",
                        Marker::Triangle,
                        false,
                        &|i| rows[i].engine.counts.nodes as f64,
                    ),
                    line(
                        "oracle (minimal tree)",
                        "#2ca02c",
                        Marker::Circle,
                        false,
                        &|i| rows[i].oracle.counts.nodes as f64,
                    ),
                    line("Knuth-Moore, own b", "#555555", Marker::None, true, &|i| {
                        rows[i].knuth_moore_nodes
                    }),
                ],
            }
        })
        .collect();
    Chart {
        title: format!("The minimal tree of real positions, depths 1..{max_depth}, log scale"),
        x_label: "depth (plies)".into(),
        y_label: "nodes visited (interior + leaves)".into(),
        panels,
        footnotes: vec![
            "Alpha-beta on the lab's tree (static eval at the horizon). oracle: every node's moves ordered by their exact minimax values, best first.".into(),
            "generation order: alphabeta. engine ordering: alphabeta_killers (MVV-LVA, killers, history; no table).".into(),
            format!("Knuth-Moore (dashed): the minimal tree of the uniform tree with the position's width b = perft(k)^(1/k), k = min(d, {WIDTH_PLIES})."),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::lab::{oracle, parse_position};

    #[test]
    fn table_csv_and_chart() {
        let position =
            parse_position("startpos", crate::tools::lab::DEFAULT_POSITIONS[0].1).unwrap();
        let result = oracle::measure(&position, 2);
        let text = csv(std::slice::from_ref(&result));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        // Depth 1: b = 20, the formula's 21 nodes, every ordering 21.
        assert!(
            lines[1].starts_with("startpos,1,20.000,21.0,20.0,21,20,1.0000,21,20,21,20,1.0000,"),
            "{}",
            lines[1]
        );
        assert!(lines.iter().skip(1).all(|l| l.contains(",true,")));
        let mut out = Vec::new();
        write_preamble(&mut out, 2).unwrap();
        write_table(&mut out, &result).unwrap();
        let table = String::from_utf8(out).unwrap();
        assert_eq!(table.matches("  exact\n").count(), 2, "{table}");
        let svg = super::super::svg::render(&chart(&[result]));
        assert!(svg.contains("oracle (minimal tree)") && !svg.contains("NaN"));
    }
}
