//! Every weight of the evaluation in one flat list: where each group of weights
//! sits in it, what the group is called and how `weights.rs` lays it out.
//!
//! The evaluation reports each use of a weight by its index in this list (see
//! `sink.rs`); the tuner trains the list and writes it back as `weights.rs`.
//! `layout!` below is the one declaration: from it come the index of each group
//! (`layout::DOUBLED`, …), [`GROUPS`] (names, docs and shapes, for the writer) and
//! [`DEFAULTS`] (the values of `weights.rs`, flattened).

use super::pair::{Pair, SquareTable};
use super::weights as w;

/// How a group of weights is laid out in `weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One pair.
    Single,
    /// A list of pairs, indexed by a count or a role.
    List(usize),
    /// A [`SquareTable`]: 64 pairs, in the order of its boards.
    Table,
}

impl Shape {
    /// How many weights the group holds.
    pub const fn len(self) -> usize {
        match self {
            Shape::Single => 1,
            Shape::List(n) => n,
            Shape::Table => 64,
        }
    }
}

/// A named group of weights: one item of `weights.rs`.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub name: &'static str,
    /// Its doc comment, one `\n`-ended line per line, each as written after
    /// the `///` (so starting with a space).
    #[cfg_attr(
        not(feature = "tools"),
        allow(dead_code, reason = "read by the tuner's writer (src/tools/tune/)")
    )]
    pub doc: &'static str,
    pub shape: Shape,
    /// Index of its first weight in the flat list.
    pub offset: usize,
}

/// Copies one group of `weights.rs` into the flat list (in a `const` context).
macro_rules! put {
    ($out:ident, $at:expr, Single, $value:expr) => {
        $out[$at] = $value;
    };
    ($out:ident, $at:expr, List($n:literal), $value:expr) => {
        let value = $value;
        assert!(
            value.len() == $n,
            "a list in weights.rs has the wrong length"
        );
        let mut i = 0;
        while i < $n {
            $out[$at + i] = value[i];
            i += 1;
        }
    };
    ($out:ident, $at:expr, Table, $value:expr) => {
        let value: SquareTable = $value;
        let mut i = 0;
        while i < 64 {
            $out[$at + i] = (value.mg[i], value.eg[i]);
            i += 1;
        }
    };
}

macro_rules! layout {
    ($( $(#[doc = $doc:literal])+ $name:ident: $kind:ident $(($len:literal))?; )+) => {
        /// The groups' positions in declaration order, to compute the offsets.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Id { $($name),+ }

        const SHAPES: &[Shape] = &[$(Shape::$kind $(($len))?),+];

        /// Index of the first weight of the group declared at position `id`.
        const fn offset(id: usize) -> usize {
            let mut sum = 0;
            let mut i = 0;
            while i < id {
                sum += SHAPES[i].len();
                i += 1;
            }
            sum
        }

        $(
            $(#[doc = $doc])+
            pub const $name: usize = offset(Id::$name as usize);
        )+

        /// How many weights the evaluation has.
        pub const COUNT: usize = offset(SHAPES.len());

        /// Every group, in the order of `weights.rs` and of the flat list.
        pub const GROUPS: &[Group] = &[$(
            Group {
                name: stringify!($name),
                doc: concat!($($doc, "\n"),+),
                shape: Shape::$kind $(($len))?,
                offset: $name,
            },
        )+];

        /// The values of `weights.rs`, as one flat list.
        pub const DEFAULTS: [Pair; COUNT] = {
            let mut out = [(0, 0); COUNT];
            $( put!(out, $name, $kind $(($len))?, w::$name); )+
            out
        };
    };
}

// Each doc comment below is copied into `weights.rs` by the tuner's writer.
layout! {
    /// Material, in `Role::ALL` order (pawn, knight, bishop, rook, queen, king).
    MATERIAL: List(6);
    /// Pawns: the first and last rows are never used.
    PAWN: Table;
    /// Knights.
    KNIGHT: Table;
    /// Bishops.
    BISHOP: Table;
    /// Rooks.
    ROOK: Table;
    /// Queens.
    QUEEN: Table;
    /// The king.
    KING: Table;
    /// Knight mobility: by the number of safe squares attacked (not ours, not
    /// attacked by an enemy pawn).
    KNIGHT_MOBILITY: List(9);
    /// Bishop mobility, by safe squares attacked.
    BISHOP_MOBILITY: List(14);
    /// Rook mobility, by safe squares attacked.
    ROOK_MOBILITY: List(15);
    /// Queen mobility, by safe squares attacked.
    QUEEN_MOBILITY: List(28);
    /// A pawn no enemy pawn can stop or take and no own pawn blocks, by rank from
    /// its own side (index 1 = second rank; 0 and 7 are never used).
    PASSED: List(8);
    /// Each pawn beyond the first on a file.
    DOUBLED: Single;
    /// A pawn with no friendly pawn on a neighbouring file.
    ISOLATED: Single;
    /// Two bishops or more.
    BISHOP_PAIR: Single;
    /// A rook on a file without pawns...
    ROOK_OPEN_FILE: Single;
    /// ...or without pawns of its own side.
    ROOK_HALF_OPEN_FILE: Single;
    /// Attacks on the enemy king's zone (its square, the squares around it and the
    /// three squares two ranks in front of it), per attacked zone square, by the
    /// attacking role: knight, bishop, rook, queen.
    KING_ZONE_ATTACKS: List(4);
    /// The number of our pieces attacking the enemy king's zone (7: seven or more).
    KING_ATTACKERS: List(8);
    /// Our king's shelter: on each file at and beside the king, the nearest own pawn
    /// in front of it, by its distance in ranks (0: no such pawn).
    PAWN_SHELTER: List(7);
    /// The storm on our king: on each file at and beside the king, the nearest enemy
    /// pawn in front of it, by its distance in ranks (0: no such pawn).
    PAWN_STORM: List(7);
    /// Our pawn attacks an enemy knight, bishop, rook or queen.
    PAWN_THREAT: List(4);
    /// Our knight or bishop attacks an enemy rook or queen.
    MINOR_THREAT: List(2);
    /// Our rook attacks an enemy queen.
    ROOK_THREAT: Single;
    /// An enemy pawn, knight, bishop, rook or queen that we attack and no enemy
    /// piece defends.
    HANGING: List(5);
}

/// The first piece-square table: the tables of `Role::ALL` follow one another.
pub const PST: usize = PAWN;
const _: () = assert!(KING == PST + 5 * 64, "the six tables must be consecutive");

/// Index of the piece-square weight of `role` (0 = pawn … 5 = king) on `square`
/// (shakmaty's index, a1 = 0) for a White piece; a Black piece reads the table
/// mirrored, so it passes its square flipped (`square ^ 56`).
pub const fn pst(role: usize, white_square: usize) -> usize {
    // The tables are stored with rank 8 first, so White's a1 (0) is entry 56.
    PST + 64 * role + (white_square ^ 56)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_list_in_order() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.offset, next, "{}", g.name);
            assert!(g.doc.ends_with('\n') && !g.doc.contains("\n\n"));
            next += g.shape.len();
        }
        assert_eq!(next, COUNT);
    }

    #[test]
    fn tables_read_as_printed() {
        // White's knight on a1 is the bottom-left entry of the printed board
        // (row 8, column 1), Black's on a8 the same entry mirrored.
        assert_eq!(pst(1, 0), KNIGHT + 56);
        assert_eq!(pst(1, 56), KNIGHT);
        assert_eq!(DEFAULTS[KNIGHT + 56], (w::KNIGHT.mg[56], w::KNIGHT.eg[56]));
        assert_eq!(DEFAULTS[MATERIAL + 4], w::MATERIAL[4]);
        assert_eq!(DEFAULTS[ROOK_HALF_OPEN_FILE], w::ROOK_HALF_OPEN_FILE);
    }
}
