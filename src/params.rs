//! Every tuneable number of the search and of the time manager, declared once.
//! (Below both: the search reads its numbers from here, and `time.rs` its own.)
//!
//! `tunables!` below is the one list: each number with its default, the range an
//! automatic tuner (SPSA) may explore and the step it should start with. From that
//! list come the `ParamValues` struct, `TUNABLES` (for `tabas params`, which prints
//! SPSA input in OpenBench's format) and, in builds with the cargo feature `tuning`,
//! one UCI spin option per number. Fractions are in hundredths.
//!
//! Three names, three roles: `ParamValues` holds a value for each number,
//! `ParamValues::DEFAULT` the defaults, and `Params` is how the search reads them
//! (`params.lmr_base`). In a normal build `Params` is an empty type that dereferences
//! to `ParamValues::DEFAULT`, so every number is a constant the compiler folds into
//! the search; only the `tuning` build, where `Params` is `ParamValues` itself, reads
//! them at run time.
//!
//! Numbers that are not a matter of taste (limits, table sizes) are plain
//! constants at the end. The time manager's numbers of taste are here too (`time_*`,
//! tuned at a real clock); its safety margins and bounds stay at the top of
//! `src/time.rs`.

use crate::score::MAX_PLY;
use crate::tt::Replacement;

/// One tuneable number: its name (the UCI option under `tuning`), default and range.
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// A sensible first perturbation for SPSA (OpenBench's `c_end`).
    pub step: i32,
}

macro_rules! tunables {
    ($( $(#[doc = $doc:literal])* $field:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// The search's numbers (see `tunables!` in `params.rs` for each one's meaning),
        /// as values; the search reads them through `Params`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct ParamValues {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl ParamValues {
            /// Every number at its default.
            pub const DEFAULT: ParamValues = ParamValues { $( $field: $default, )* };
        }

        /// The tuneable numbers, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: stringify!($field), default: $default, min: $min, max: $max, step: $step }, )*
        ];

        impl ParamValues {
            /// The number called `name` (case-insensitive), for the `tuning` build's options.
            pub fn get_mut(&mut self, name: &str) -> Option<&mut i32> {
                $( if name.eq_ignore_ascii_case(stringify!($field)) { return Some(&mut self.$field); } )*
                None
            }
        }
    };
}

tunables! {
    /// Aspiration windows start at this depth (shallower iterations are too unstable).
    aspiration_min_depth = 5, 1..=10, step 1;
    /// First half-width of the aspiration window (centipawns).
    aspiration_delta = 25, 5..=100, step 5;
    /// Each failed aspiration search widens the window by this share (hundredths).
    aspiration_widening = 50, 10..=200, step 10;
    /// Past this half-width the window is opened fully (centipawns).
    aspiration_give_up = 1000, 200..=3000, step 100;

    /// Null-move pruning is tried from this remaining depth on.
    null_move_min_depth = 3, 1..=6, step 1;
    /// Base reduction of the null-move search...
    null_move_base_reduction = 3, 1..=6, step 1;
    /// ...plus one more ply per this many plies of depth.
    null_move_depth_divisor = 4, 2..=8, step 1;

    /// Late move reductions start at this remaining depth...
    lmr_min_depth = 3, 1..=6, step 1;
    /// ...and after this many moves have been searched at full depth.
    lmr_min_moves = 3, 1..=8, step 1;
    /// Reduction = base + ln(depth) * ln(move number) / divisor (both in hundredths of a ply).
    lmr_base = 75, 0..=200, step 10;
    lmr_divisor = 225, 100..=400, step 15;
    /// One ply less (more) reduction per this much positive (negative) quiet history.
    lmr_history_divisor = 8192, 2048..=32768, step 512;
    /// ...but by at most this many plies either way, so that a move with bad history is
    /// still searched to a depth where it can show itself.
    lmr_history_max = 2, 0..=6, step 1;
    /// A reduced search is never shallower than this many plies (a reduction is at most
    /// depth − 1 − this, and never below 0).
    lmr_min_reduced_depth = 1, 1..=3, step 1;

    /// Reverse futility pruning applies up to this remaining depth...
    rfp_max_depth = 8, 3..=12, step 1;
    /// ...when the static evaluation beats beta by this much per ply of depth (centipawns).
    rfp_margin = 80, 30..=200, step 8;

    /// Razoring up to this remaining depth...
    razor_max_depth = 3, 1..=6, step 1;
    /// ...when the static evaluation plus base + per-ply² × depth² is still below alpha.
    razor_base = 250, 50..=600, step 25;
    razor_per_ply_sq = 150, 50..=400, step 15;

    /// ProbCut from this remaining depth on...
    probcut_min_depth = 5, 3..=10, step 1;
    /// ...with a bound this far above beta (centipawns)...
    probcut_margin = 150, 50..=400, step 15;
    /// ...searched this many plies shallower.
    probcut_reduction = 4, 2..=6, step 1;

    /// Late move pruning applies up to this remaining depth...
    lmp_max_depth = 8, 3..=12, step 1;
    /// ...after (base + depth²) quiet moves when improving, half as many when not.
    lmp_base = 3, 0..=10, step 1;

    /// Futility pruning of quiet moves applies up to this remaining depth...
    futility_max_depth = 8, 3..=12, step 1;
    /// ...when the static evaluation plus base + per-ply × depth is still at or below alpha.
    futility_base = 80, 0..=300, step 10;
    futility_per_ply = 80, 30..=200, step 8;

    /// SEE pruning at low depth: up to this remaining depth, a quiet move losing more than
    /// quiet margin × depth, or a capture losing more than capture margin × depth, is skipped.
    see_prune_max_depth = 8, 2..=12, step 1;
    see_quiet_margin = 60, 20..=200, step 8;
    see_capture_margin = 100, 30..=300, step 10;

    /// Singular extensions from this remaining depth on...
    se_min_depth = 8, 4..=12, step 1;
    /// ...when the table's entry is at most this many plies shallower than the node...
    se_tt_depth_margin = 3, 1..=6, step 1;
    /// ...and every other move fails below the table's score minus this much per ply
    /// of depth (centipawns).
    se_margin_per_ply = 2, 1..=8, step 1;
    /// The search without the table move is this share of depth − 1 deep (hundredths).
    se_depth_share = 50, 25..=75, step 5;

    /// Internal iterative reduction from this remaining depth on.
    iir_min_depth = 4, 2..=10, step 1;

    /// A quiet move that cuts off gains this × depth² / 100 history (butterfly and
    /// continuation), and each quiet move tried before it loses as much.
    history_bonus_per_ply_sq = 100, 25..=400, step 10;

    /// Correction history (`correction.rs`): what each table's score is worth at full
    /// scale (centipawns): the pawn structure, the minor pieces and kings, each side's
    /// non-pawn pieces, the last two moves.
    corr_pawn_weight = 40, 0..=128, step 6;
    corr_minor_weight = 32, 0..=128, step 6;
    corr_non_pawn_weight = 40, 0..=128, step 6;
    corr_last_moves_weight = 32, 0..=128, step 6;
    /// An update moves a table's score by (error × depth / this), within a quarter of its range.
    corr_update_divisor = 8, 2..=32, step 1;
    /// Late move reductions: one ply less where the correction is at least this large
    /// (centipawns): the static evaluation is unsure there, so are the cuts it suggests.
    lmr_correction_threshold = 40, 10..=200, step 8;

    /// Replacement in the table: an entry of an older search counts as this many plies shallower per search of age.
    tt_age_weight = 8, 1..=32, step 2;
    /// ...and a non-exact entry of the same position survives a new one this many plies shallower.
    tt_keep_deeper_by = 3, 0..=8, step 1;

    /// Time (`src/time.rs`, the adaptive plan): moves assumed still to come in sudden
    /// death, so that a move's share is 1/this of the usable clock...
    time_moves_to_go = 25, 10..=50, step 3;
    /// ...plus this share of the increment (per mille).
    time_increment_share = 800, 400..=1000, step 50;
    /// Time: the hard limit is at most this multiple of the optimum (tenths)...
    time_hard_over_optimum = 50, 20..=100, step 5;
    /// ...and at most this share of the usable clock, plus 1/movestogo of it (per mille).
    time_hard_share = 250, 100..=500, step 25;
    /// Time: the soft limit is scaled by base − step × n after n iterations in a row with
    /// the same best move (hundredths; n counts up to 10, so the factor stays above 0.2).
    time_stability_base = 130, 100..=200, step 6;
    time_stability_step = 6, 0..=8, step 1;
    /// Time: the soft limit grows by this share per centipawn the score dropped
    /// (thousandths)...
    time_score_drop = 12, 0..=40, step 2;
    /// ...up to this factor (hundredths).
    time_score_factor_max = 160, 100..=300, step 10;
    /// Time: the soft limit is scaled by offset + weight × (1 − the best move's share of
    /// the root's nodes) (hundredths): a best move that takes nearly all the effort is clear.
    time_effort_offset = 40, 0..=100, step 5;
    time_effort_weight = 200, 50..=400, step 15;
}

impl Default for ParamValues {
    fn default() -> Self {
        ParamValues::DEFAULT
    }
}

/// The numbers as the search reads them: in a normal build, the defaults as
/// constants. Empty: `params.some_number` reads `ParamValues::DEFAULT` through `Deref`
/// (a promoted constant: the compiler replaces each load with its value).
#[cfg(not(feature = "tuning"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Params;

#[cfg(not(feature = "tuning"))]
impl std::ops::Deref for Params {
    type Target = ParamValues;
    #[inline(always)]
    fn deref(&self) -> &ParamValues {
        &ParamValues::DEFAULT
    }
}

/// The numbers as the search reads them: in the `tuning` build, values set at run
/// time by the UCI options (`ParamValues::get_mut`).
#[cfg(feature = "tuning")]
pub type Params = ParamValues;

/// Killer moves remembered per ply (another count needs one order score per slot:
/// `KILLER_SCORES` in `ordering.rs`, which the compiler checks).
pub const KILLER_SLOTS: usize = 2;
/// History scores stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// The deepest iteration iterative deepening will start.
pub const MAX_DEPTH: i32 = 100;

/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY_NODES: u64 = 1024;

impl ParamValues {
    /// The table's replacement rule.
    pub fn replacement(&self) -> Replacement {
        Replacement {
            age_weight: self.tt_age_weight,
            keep_deeper_by: self.tt_keep_deeper_by,
        }
    }

    /// Quiet moves searched before late move pruning cuts the rest.
    pub fn late_move_limit(&self, depth: i32, improving: bool) -> usize {
        let limit = self.lmp_base + depth * depth;
        (if improving { limit } else { limit / 2 }) as usize
    }

    /// How far below alpha a node's static evaluation must be for futility pruning.
    pub fn futility_margin(&self, depth: i32) -> i32 {
        self.futility_base + self.futility_per_ply * depth
    }

    /// Reduction of the null-move search at `depth`: deeper nodes afford more.
    pub fn null_move_reduction(&self, depth: i32) -> i32 {
        self.null_move_base_reduction + depth / self.null_move_depth_divisor
    }

    /// The most a late move at `depth` may be reduced (below 0: not at all).
    pub fn lmr_max_reduction(&self, depth: i32) -> i32 {
        depth - 1 - self.lmr_min_reduced_depth
    }

    /// The depth of the singular-extension search of a node at `depth`.
    pub fn singular_depth(&self, depth: i32) -> i32 {
        (depth - 1) * self.se_depth_share / 100
    }

    /// The history bonus of a quiet move that cuts off at `depth` (and the malus of
    /// the quiet moves tried before it).
    pub fn history_bonus(&self, depth: i32) -> i32 {
        self.history_bonus_per_ply_sq * depth * depth / 100
    }
}

/// Late move reductions in whole plies by (depth, moves searched), computed from the
/// `lmr_*` numbers. A search thread keeps its table from one search to the next and
/// computes it again (8192 logarithms) only when those numbers change.
#[derive(Debug, PartialEq, Eq)]
pub struct Reductions {
    table: Box<[[u8; 64]; 64]>,
    /// The (`lmr_base`, `lmr_divisor`) the table was computed from.
    made_from: (i32, i32),
}

impl Reductions {
    pub fn new(params: &ParamValues) -> Reductions {
        let mut r = Reductions {
            table: Box::new([[0u8; 64]; 64]),
            made_from: (params.lmr_base, params.lmr_divisor),
        };
        r.compute();
        r
    }

    /// The table for `params`, computed again in place if its numbers changed.
    pub fn update(&mut self, params: &ParamValues) {
        let wanted = (params.lmr_base, params.lmr_divisor);
        if self.made_from != wanted {
            self.made_from = wanted;
            self.compute();
        }
    }

    fn compute(&mut self) {
        let base = self.made_from.0 as f64 / 100.0;
        let divisor = self.made_from.1 as f64 / 100.0;
        for (d, row) in self.table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = base + (d as f64).ln() * (m as f64).ln() / divisor;
                *r = x.max(0.0) as u8;
            }
        }
    }

    /// Reduction (plies) for the `moves_searched`-th move at `depth`.
    #[inline]
    pub fn get(&self, depth: i32, moves_searched: usize) -> i32 {
        self.table[(depth.max(0) as usize).min(63)][moves_searched.min(63)] as i32
    }
}

const _: () = assert!(MAX_DEPTH < MAX_PLY as i32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_their_ranges() {
        let mut params = ParamValues::DEFAULT;
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0, "{}", t.name);
            let value = *params.get_mut(t.name).expect("every tunable is a field");
            assert_eq!(value, t.default, "{}", t.name);
        }
        assert!(
            params.get_mut("LMR_BASE").is_some(),
            "names are case-insensitive"
        );
        assert!(params.get_mut("no_such_number").is_none());
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(&ParamValues::DEFAULT);
        assert_eq!(r.get(1, 1), 0);
        assert!(r.get(10, 20) > r.get(3, 4));
        assert!(r.get(63, 63) >= r.get(62, 63));
    }

    /// The numbers that were written into the search before they were tunables keep
    /// their old values at the defaults.
    #[test]
    fn defaults_keep_the_old_formulas() {
        for depth in 1..=MAX_DEPTH {
            assert_eq!(ParamValues::DEFAULT.history_bonus(depth), depth * depth);
            assert_eq!(ParamValues::DEFAULT.singular_depth(depth), (depth - 1) / 2);
            assert_eq!(ParamValues::DEFAULT.lmr_max_reduction(depth), depth - 2);
        }
    }

    #[test]
    fn updated_reductions_equal_new_ones() {
        let mut other = ParamValues::DEFAULT;
        *other.get_mut("lmr_base").unwrap() += 50;
        *other.get_mut("lmr_divisor").unwrap() -= 60;
        let mut r = Reductions::new(&ParamValues::DEFAULT);
        r.update(&other);
        assert!(r == Reductions::new(&other));
        assert!(r != Reductions::new(&ParamValues::DEFAULT));
        r.update(&ParamValues::DEFAULT);
        assert!(r == Reductions::new(&ParamValues::DEFAULT));
    }

    #[test]
    fn params_read_the_defaults() {
        // (In the `tuning` build `Params` is not a unit struct: `default` serves both.)
        #[allow(clippy::default_constructed_unit_structs)]
        let params = Params::default();
        let values: &ParamValues = &params;
        assert_eq!(*values, ParamValues::DEFAULT);
        assert_eq!(ParamValues::DEFAULT, ParamValues::default());
        assert_eq!(
            params.replacement().age_weight,
            ParamValues::DEFAULT.tt_age_weight
        );
        // A normal build's numbers are constants: nothing to store.
        #[cfg(not(feature = "tuning"))]
        assert_eq!(std::mem::size_of::<Params>(), 0);
    }
}
