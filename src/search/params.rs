//! Every tuneable number of the search, in one place.

/// Aspiration windows start at this depth (shallower iterations are too unstable).
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// First half-width of the aspiration window (centipawns).
pub const ASPIRATION_DELTA: i32 = 25;

/// Null-move pruning is tried from this remaining depth on.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Base reduction of the null-move search...
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// ...plus one more ply per this many plies of depth.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

/// Killer moves remembered per ply.
pub const KILLER_SLOTS: usize = 2;
/// History scores stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// The deepest iteration iterative deepening will start.
pub const MAX_DEPTH: i32 = 100;

/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY_NODES: u64 = 1024;

/// Reduction of the null-move search at `depth`: deeper nodes afford more.
pub const fn null_move_reduction(depth: i32) -> i32 {
    NULL_MOVE_BASE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR
}
