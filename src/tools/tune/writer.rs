//! Writes tuned weights as `src/eval/weights.rs`: the whole file, in the layout
//! `eval::layout` declares, so that copying it over the old one and rebuilding
//! gives the tuned engine. Writing the current weights gives the current file
//! byte for byte (a test checks it).
//!
//! Before writing, the weights are rounded to whole centipawns and each table's
//! drift is moved into material ([`round_and_fold`]): adding a constant to every
//! entry of the knight table and taking it from the knight's material changes no
//! evaluation, so the tuner cannot tell the two apart and lets them wander
//! together. Folding keeps each table's average where it started, so that the
//! material values stay readable as what a piece is worth.

use super::loss::Weights;
use crate::eval::layout::{self, GROUPS, Group, Shape};
use crate::eval::pair::Pair;

/// The file's opening lines; `{source}` is replaced by where the weights came from.
const HEADER: &str = "\
//! The evaluation's weights: (midgame, endgame) centipawns from White's point of
//! view, blended by the game phase (`eval/mod.rs`).
//!
//! Generated: `tabas tune` writes this whole file, so edit it by hand only to set
//! starting values, keeping the layout. Names, order and doc comments come from
//! `layout!` in `src/eval/layout.rs`; a test checks that writing these values
//! back gives this file byte for byte.
//!
//! Source: {source}

use super::pair::{Pair, SquareTable};
";

/// Pairs a line in a list.
const PAIRS_PER_LINE: usize = 4;

/// The text of `weights.rs` holding `weights` (flat, `layout::COUNT` pairs);
/// `source` (one line) says where they came from.
pub fn weights_file(weights: &[Pair], source: &str) -> String {
    let mut out = HEADER.replace("{source}", source);
    for group in GROUPS {
        out.push('\n');
        for line in group.doc.lines() {
            // Each line is kept as written after its `///`, leading space included.
            out.push_str(&format!("///{line}\n"));
        }
        let values = &weights[group.offset..group.offset + group.shape.len()];
        out.push_str(&item(group, values));
    }
    out
}

/// One group's `pub const`.
fn item(group: &Group, values: &[Pair]) -> String {
    let name = group.name;
    match group.shape {
        Shape::Single => format!(
            "pub const {name}: Pair = ({}, {});\n",
            values[0].0, values[0].1
        ),
        Shape::List(n) => {
            let mut s = format!("pub const {name}: [Pair; {n}] = [\n");
            for line in values.chunks(PAIRS_PER_LINE) {
                let pairs: Vec<String> = line
                    .iter()
                    .map(|(mg, eg)| format!("({mg:>4}, {eg:>4}),"))
                    .collect();
                s.push_str(&format!("    {}\n", pairs.join(" ")));
            }
            s.push_str("];\n");
            s
        }
        Shape::Table => {
            let board = |half: fn(&Pair) -> i32| {
                let mut s = String::new();
                for row in values.chunks(8) {
                    let cells: Vec<String> =
                        row.iter().map(|p| format!("{:>4},", half(p))).collect();
                    s.push_str(&format!("        {}\n", cells.join(" ")));
                }
                s
            };
            format!(
                "pub const {name}: SquareTable = SquareTable {{\n    mg: [\n{}    ],\n    eg: [\n{}    ],\n}};\n",
                board(|p| p.0),
                board(|p| p.1)
            )
        }
    }
}

/// A table whose average drift is moved into a material value.
struct Fold {
    /// The table's first entry and how many entries it has.
    table: usize,
    len: usize,
    /// The entries never used (a pawn table's first and last rows) stay as they are.
    skip: fn(usize) -> bool,
    /// The material weight that takes the drift; `None` for the king, whose
    /// material counts for nothing (each side always has one king).
    material: Option<usize>,
}

/// Every table that moves together with a material value.
fn folds() -> [Fold; 10] {
    let table = |role: usize, material: Option<usize>| Fold {
        table: layout::PST + 64 * role,
        len: 64,
        skip: if role == 0 {
            |i| !(8..56).contains(&i)
        } else {
            |_| false
        },
        material,
    };
    let mobility = |table: usize, len: usize, role: usize| Fold {
        table,
        len,
        skip: |_| false,
        material: Some(layout::MATERIAL + role),
    };
    [
        table(0, Some(layout::MATERIAL)),
        table(1, Some(layout::MATERIAL + 1)),
        table(2, Some(layout::MATERIAL + 2)),
        table(3, Some(layout::MATERIAL + 3)),
        table(4, Some(layout::MATERIAL + 4)),
        table(5, None),
        mobility(layout::KNIGHT_MOBILITY, 9, 1),
        mobility(layout::BISHOP_MOBILITY, 14, 2),
        mobility(layout::ROOK_MOBILITY, 15, 3),
        mobility(layout::QUEEN_MOBILITY, 28, 4),
    ]
}

/// The tuned weights in whole centipawns, each table's average drift from `start`
/// moved into material (see the module's notes): the evaluation is exactly the
/// one of the rounded weights.
pub fn round_and_fold(tuned: &Weights, start: &[Pair]) -> Vec<Pair> {
    let mut out: Vec<Pair> = tuned
        .iter()
        .map(|[mg, eg]| (mg.round() as i32, eg.round() as i32))
        .collect();
    for fold in folds() {
        let live: Vec<usize> = (fold.table..fold.table + fold.len)
            .filter(|&i| !(fold.skip)(i - fold.table))
            .collect();
        let mean_drift = |half: fn(&Pair) -> i32| {
            let sum: i64 = live
                .iter()
                .map(|&i| (half(&out[i]) - half(&start[i])) as i64)
                .sum();
            (sum as f64 / live.len() as f64).round() as i32
        };
        let (d_mg, d_eg) = (mean_drift(|p| p.0), mean_drift(|p| p.1));
        for &i in &live {
            out[i].0 -= d_mg;
            out[i].1 -= d_eg;
        }
        if let Some(m) = fold.material {
            out[m].0 += d_mg;
            out[m].1 += d_eg;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::layout::{COUNT, DEFAULTS};

    const CURRENT: &str = include_str!("../../eval/weights.rs");

    /// The `Source:` line of the current file.
    fn current_source() -> &'static str {
        CURRENT
            .lines()
            .find_map(|l| l.strip_prefix("//! Source: "))
            .expect("weights.rs has a Source line")
    }

    #[test]
    fn writing_the_current_weights_gives_the_current_file() {
        let written = weights_file(&DEFAULTS, current_source());
        if written != CURRENT {
            let line = written
                .lines()
                .zip(CURRENT.lines())
                .position(|(a, b)| a != b);
            panic!("weights.rs differs from what the writer makes, first at line {line:?}");
        }
    }

    #[test]
    fn other_weights_land_in_their_places() {
        let mut w = DEFAULTS;
        w[layout::DOUBLED] = (-7, -21);
        w[layout::KNIGHT + 62] = (-19, 0);
        w[layout::KNIGHT + 63] = (-123, 45);
        w[layout::HANGING + 4] = (1000, -1000);
        let text = weights_file(&w, "a test");
        assert!(text.contains("pub const DOUBLED: Pair = (-7, -21);\n"));
        assert!(
            text.contains("-19, -123,\n    ],\n    eg: [\n"),
            "h1 ends the knight's midgame board"
        );
        assert!(text.contains("(1000, -1000),\n];\n"));
        assert!(text.contains("//! Source: a test\n"));
    }

    #[test]
    fn folding_moves_table_drift_into_material_and_keeps_every_evaluation() {
        let start: Vec<Pair> = DEFAULTS.to_vec();
        let mut tuned: Weights = start
            .iter()
            .map(|&(mg, eg)| [mg as f64, eg as f64])
            .collect();
        // The knight table drifts up 12 / down 5, its material the other way; the
        // pawn table (live rows only) up 3; the king table down 9.
        for i in 0..64 {
            tuned[layout::KNIGHT + i][0] += 12.0;
            tuned[layout::KNIGHT + i][1] -= 5.0;
            tuned[layout::KING + i][1] -= 9.0;
        }
        for i in 8..56 {
            tuned[layout::PAWN + i][0] += 3.0;
        }
        tuned[layout::MATERIAL + 1][0] -= 12.0;
        tuned[layout::MATERIAL + 1][1] += 5.0;
        tuned[layout::PASSED + 3][1] += 0.6;
        let out = round_and_fold(&tuned, &start);
        let mut expected = start.clone();
        expected[layout::MATERIAL].0 += 3;
        expected[layout::PASSED + 3].1 += 1;
        assert_eq!(out, expected);

        // Whatever the drift, the folded weights evaluate every position as the
        // rounded ones do.
        let mut drifted = tuned.clone();
        for (i, w) in drifted.iter_mut().enumerate() {
            w[0] += (i % 13) as f64 - 6.0;
            w[1] += (i % 7) as f64 * 1.5;
        }
        let rounded: Vec<Pair> = drifted
            .iter()
            .map(|[a, b]| (a.round() as i32, b.round() as i32))
            .collect();
        let folded: [Pair; COUNT] = round_and_fold(&drifted, &start).try_into().unwrap();
        let rounded: [Pair; COUNT] = rounded.try_into().unwrap();
        assert_ne!(folded, rounded);
        for p in crate::eval::tests::sample_positions() {
            let t = crate::eval::trace(&p);
            assert_eq!(t.sums(&folded), t.sums(&rounded));
        }
    }
}
