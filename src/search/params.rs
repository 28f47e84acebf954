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

/// Late move reductions start at this remaining depth...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ...and after this many moves have been searched at full depth.
pub const LMR_MIN_MOVES: usize = 3;
/// Reduction = LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR (in plies).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Reverse futility pruning applies up to this remaining depth...
pub const RFP_MAX_DEPTH: i32 = 8;
/// ...when the static evaluation beats beta by this much per ply of depth (centipawns).
pub const RFP_MARGIN_PER_PLY: i32 = 80;

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

/// Late move reduction (plies) for the `moves_searched`-th move at `depth`.
pub fn lmr_reduction(depth: i32, moves_searched: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                *r = x.max(0.0) as u8;
            }
        }
        t
    });
    table[(depth.max(0) as usize).min(63)][moves_searched.min(63)] as i32
}
