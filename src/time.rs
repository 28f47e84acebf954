//! Turning the clock into two limits for one move.
//!
//! * soft: do not start another iteration past it (the next one would likely not finish);
//! * hard: the search returns at once when it is reached (checked every few thousand nodes).
//!
//! Times are measured from the moment the clock starts: `go`, or `ponderhit` when pondering.

use std::time::Duration;

/// What the GUI told us about the clock for this move (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: Option<u64>,
    pub increment: u64,
    pub moves_to_go: Option<u32>,
    pub movetime: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves we assume are still to be played when the GUI does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Never plan to use more than this fraction (1/n) of the remaining clock on one move.
const HARD_FRACTION_OF_CLOCK: u64 = 4;
/// The hard limit may exceed the soft one by this factor.
const HARD_OVER_SOFT: u64 = 4;
/// Kept in reserve whatever happens, on top of `Move Overhead` (ms).
const SAFETY_MS: u64 = 5;
/// The least time we will think, so that a move always comes out (ms).
const MIN_THINK_MS: u64 = 1;

/// The limits for one move, or `None` when the search has no clock (depth, nodes, infinite).
pub fn limits(clock: &Clock, move_overhead_ms: u64) -> Option<TimeLimits> {
    if let Some(movetime) = clock.movetime {
        let t = movetime.saturating_sub(move_overhead_ms).max(MIN_THINK_MS);
        let d = Duration::from_millis(t);
        return Some(TimeLimits { soft: d, hard: d });
    }
    let left = clock.time_left?;
    // What we may spend at most: the clock minus overhead and a safety reserve.
    let usable = left
        .saturating_sub(move_overhead_ms)
        .saturating_sub(SAFETY_MS)
        .max(MIN_THINK_MS);
    let moves_to_go = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| {
        (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
    });
    let soft = (usable / moves_to_go)
        .saturating_add(clock.increment / 4 * 3)
        .min(usable);
    let hard_cap = if moves_to_go == 1 {
        usable
    } else {
        usable / HARD_FRACTION_OF_CLOCK
    };
    let hard = soft.saturating_mul(HARD_OVER_SOFT).min(hard_cap).max(soft);
    Some(TimeLimits {
        soft: Duration::from_millis(soft.max(MIN_THINK_MS)),
        hard: Duration::from_millis(hard.max(MIN_THINK_MS)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock {
            time_left: Some(left),
            increment: inc,
            moves_to_go: mtg,
            movetime: None,
        }
    }

    #[test]
    fn no_clock_means_no_limits() {
        assert_eq!(limits(&Clock::default(), 10), None);
    }

    #[test]
    fn never_plans_past_the_clock() {
        for left in [0, 1, 5, 30, 50, 100, 1_000, 60_000, u64::MAX / 2] {
            for inc in [0, 10, 1_000, 100_000] {
                for mtg in [None, Some(1), Some(2), Some(40), Some(0)] {
                    let l = limits(&clock(left, inc, mtg), 10).unwrap();
                    assert!(l.soft <= l.hard, "{left} {inc} {mtg:?}");
                    let cap = left.saturating_sub(10 + SAFETY_MS).max(MIN_THINK_MS);
                    assert!(
                        l.hard.as_millis() as u64 <= cap,
                        "{left} {inc} {mtg:?}: {l:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_is_respected_minus_overhead() {
        let c = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        let l = limits(&c, 30).unwrap();
        assert_eq!(l.hard, Duration::from_millis(970));
    }

    #[test]
    fn spends_a_share_of_the_clock() {
        let l = limits(&clock(60_000, 0, None), 10).unwrap();
        assert!(l.soft >= Duration::from_millis(1_000));
        assert!(l.soft <= Duration::from_millis(3_000));
    }
}
