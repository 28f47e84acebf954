//! Turning the clock into limits for one move.
//!
//! * soft: checked between iterations; no new iteration starts past it. It is a target
//!   (`optimum`) scaled by how the search is going: less when the best move is stable,
//!   takes most of the effort and the score holds; more when the best move keeps
//!   changing or the score drops.
//! * hard: the search returns at once when it is reached (checked every 1024 nodes).
//!
//! Times are measured from `go`; for `go ponder`, the time spent pondering counts too
//! (see `Control::elapsed`).
//! `Move Overhead` and a small safety reserve are never planned for.

use crate::params::ParamValues;
use std::time::Duration;

/// What the GUI told us about the clock for this move (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: Option<u64>,
    pub increment: u64,
    pub moves_to_go: Option<u32>,
    pub movetime: Option<u64>,
}

/// How the clock is spent: `Adaptive` (the default) or the fixed share of the first
/// version (`Simple`, kept behind `Debug_TimeManager` to measure against).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    #[default]
    Adaptive,
    Simple,
}

/// How the search is going, after a completed iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Completed iterations in a row that ended with the same best move (0: it just changed).
    pub stable_iterations: u32,
    /// Score a few iterations ago minus the score now (centipawns; > 0: it dropped).
    pub score_drop: i32,
    /// Share of the last iteration's root nodes spent below the best move (0..=1).
    pub best_move_effort: f64,
}

// The time manager's safety margins and bounds. Its numbers of taste (`time_*`: the
// share of the clock a move plans for, the hard limit's multiple and share, and how
// stability, a falling score and the effort scale the soft limit) are tunables in
// `src/params.rs`. `usable` below is the clock minus `Move Overhead`, `SAFETY_MS`
// and the latency reserve.

/// Never planned for, on top of `Move Overhead`: a cushion for a stall of the GUI, the
/// runner or the OS (1000 games at 1+0.01, 15 at a time on 16 cores, showed stalls of
/// up to 110 ms that cost 6 games with a 50 ms cushion) (ms).
const SAFETY_MS: u64 = 150;
/// What a move costs beyond our thinking: pipes, the GUI's own work, scheduling (a
/// 15-game load measured p50 2 ms, p99 8 ms). When the increment does not pay for it...
const MOVE_LATENCY_MS: u64 = 5;
/// ...it is kept in reserve for this many moves to come (at most the moves to go), so
/// that a long game without increment does not bleed the clock to zero.
const LATENCY_RESERVE_MOVES: u64 = 40;
/// Simple rule: moves assumed still to come when the GUI does not say...
const SIMPLE_MOVES_TO_GO: u64 = 30;
/// ...the hard limit may exceed the soft one by this factor...
const SIMPLE_HARD_OVER_SOFT: u64 = 4;
/// ...and is at most 1/n of the usable clock.
const SIMPLE_HARD_FRACTION: u64 = 4;
/// ...and each move also plans for this many quarters of the increment.
const SIMPLE_INCREMENT_QUARTERS: u64 = 3;
/// Adaptive: a `movestogo` beyond this is read as this (the far future is uncertain).
const MOVES_TO_GO_MAX: u64 = 50;
/// Adaptive: the hard limit's share of the usable clock (`time_hard_share` plus
/// 1/movestogo) is capped here: one move never gambles the game (per mille).
const HARD_SHARE_MAX_PERMILLE: u64 = 750;
/// Stability: iterations with the same best move count up to this many.
const STABILITY_MAX: u32 = 10;
/// Score drop: the factor never shrinks the soft limit below this (a rising score).
const SCORE_FACTOR_MIN: f64 = 0.85;
/// Effort: the factor stays within these bounds.
const EFFORT_FACTOR_MIN: f64 = 0.50;
const EFFORT_FACTOR_MAX: f64 = 2.00;

/// How the soft limit follows the search (from the `time_*` tunables, as factors).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scaling {
    stability_base: f64,
    stability_step: f64,
    score_drop_per_cp: f64,
    score_factor_max: f64,
    effort_offset: f64,
    effort_weight: f64,
}

impl Scaling {
    fn new(params: &ParamValues) -> Scaling {
        let hundredths = |n: i32| n as f64 / 100.0;
        Scaling {
            stability_base: hundredths(params.time_stability_base),
            stability_step: hundredths(params.time_stability_step),
            score_drop_per_cp: params.time_score_drop as f64 / 1000.0,
            score_factor_max: hundredths(params.time_score_factor_max),
            effort_offset: hundredths(params.time_effort_offset),
            effort_weight: hundredths(params.time_effort_weight),
        }
    }

    /// The score-drop factor for a drop of `score_drop` centipawns.
    fn score(&self, score_drop: i32) -> f64 {
        (1.0 + self.score_drop_per_cp * score_drop as f64)
            .clamp(SCORE_FACTOR_MIN, self.score_factor_max)
    }

    /// What the soft limit is multiplied by after an iteration that went as `progress`
    /// says: stability times score drop times effort.
    fn factor(&self, progress: &Progress) -> f64 {
        let stability = self.stability_base
            - self.stability_step * progress.stable_iterations.min(STABILITY_MAX) as f64;
        let score = self.score(progress.score_drop);
        let effort = (self.effort_offset + self.effort_weight * (1.0 - progress.best_move_effort))
            .clamp(EFFORT_FACTOR_MIN, EFFORT_FACTOR_MAX);
        stability * score * effort
    }
}

/// The soft node limit `soft_nodes` scaled as a clock's soft limit is after an iteration
/// that went as `progress` says (a settled search stops sooner, an unsettled one goes
/// on), for searches limited by nodes rather than time (self-play's default, unless
/// `--fixed-nodes`); never past `hard_nodes`.
pub fn managed_soft_nodes(
    soft_nodes: u64,
    hard_nodes: u64,
    progress: &Progress,
    params: &ParamValues,
) -> u64 {
    let scaled = soft_nodes as f64 * Scaling::new(params).factor(progress);
    (scaled as u64).min(hard_nodes)
}

/// The time plan for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeManager {
    /// What a normal move should take.
    optimum: Duration,
    /// Never more than this.
    hard: Duration,
    /// `movetime`, or the simple rule: the soft limit does not move with the search.
    fixed_soft: bool,
    scaling: Scaling,
}

impl TimeManager {
    /// The plan for one move, or `None` when the search has no clock (depth, nodes,
    /// infinite). `params` gives the numbers of taste (`time_*`).
    pub fn new(
        clock: &Clock,
        move_overhead_ms: u64,
        policy: Policy,
        params: &ParamValues,
    ) -> Option<TimeManager> {
        let scaling = Scaling::new(params);
        if let Some(movetime) = clock.movetime {
            let t = Duration::from_millis(movetime.saturating_sub(move_overhead_ms));
            return Some(TimeManager {
                optimum: t,
                hard: t,
                fixed_soft: true,
                scaling,
            });
        }
        let left = clock.time_left?;
        let future_moves = clock.moves_to_go.map_or(LATENCY_RESERVE_MOVES, |m| {
            (m as u64).min(LATENCY_RESERVE_MOVES)
        });
        let latency_reserve =
            future_moves.saturating_mul(MOVE_LATENCY_MS.saturating_sub(clock.increment));
        let usable = left
            .saturating_sub(move_overhead_ms)
            .saturating_sub(SAFETY_MS)
            .saturating_sub(latency_reserve);
        let (optimum, hard) = match policy {
            Policy::Simple => simple(usable, clock),
            Policy::Adaptive => adaptive(usable, clock, params),
        };
        // The least planned thinking time is zero: the search always completes its
        // first iteration (well under a millisecond), so a move always comes out,
        // and on an almost empty clock every millisecond saved is one more move.
        let optimum = optimum.min(usable);
        let hard = hard.clamp(optimum, usable);
        Some(TimeManager {
            optimum: Duration::from_millis(optimum),
            hard: Duration::from_millis(hard),
            fixed_soft: policy == Policy::Simple,
            scaling,
        })
    }

    /// What a normal move should take (the plan before the search says how it goes).
    pub fn optimum(&self) -> Duration {
        self.optimum
    }

    /// The search returns at once when this much time has passed.
    pub fn hard(&self) -> Duration {
        self.hard
    }

    /// No new iteration starts past this.
    pub fn soft(&self, progress: &Progress) -> Duration {
        if self.fixed_soft {
            return self.optimum;
        }
        self.optimum
            .mul_f64(self.scaling.factor(progress))
            .min(self.hard)
    }

    /// [`TimeManager::soft`] for a search of several lines (MultiPV): only a falling
    /// score extends it. The exact scores of close lines reorder them and spread the
    /// nodes, which would read as an unsettled search and stretch every move; the
    /// budget of a timed move must not depend on how many lines a GUI shows.
    pub fn soft_for_several_lines(&self, score_drop: i32) -> Duration {
        if self.fixed_soft {
            return self.optimum;
        }
        self.optimum
            .mul_f64(self.scaling.score(score_drop))
            .min(self.hard)
    }

    /// One legal move: nothing to think about.
    pub fn answer_now(&mut self) {
        self.optimum = Duration::ZERO;
        self.hard = Duration::ZERO;
        self.fixed_soft = true;
    }
}

/// The rule of the first version: a 1/30 share (or 1/movestogo) plus ¾ of the increment;
/// hard = 4 × soft, at most a quarter of the clock (all of it on the last move of a period).
fn simple(usable: u64, clock: &Clock) -> (u64, u64) {
    let moves_to_go = clock.moves_to_go.map_or(SIMPLE_MOVES_TO_GO, |m| {
        (m as u64).clamp(1, SIMPLE_MOVES_TO_GO)
    });
    let soft =
        (usable / moves_to_go).saturating_add(clock.increment / 4 * SIMPLE_INCREMENT_QUARTERS);
    let hard_cap = if moves_to_go == 1 {
        usable
    } else {
        usable / SIMPLE_HARD_FRACTION
    };
    (
        soft,
        soft.saturating_mul(SIMPLE_HARD_OVER_SOFT).min(hard_cap),
    )
}

/// The adaptive plan: a share of what is left for the moves to come plus most of the
/// increment; the hard limit a multiple of that, within a share of the clock that grows
/// as the end of a period nears (time left at the end of a period is wasted).
fn adaptive(usable: u64, clock: &Clock, params: &ParamValues) -> (u64, u64) {
    let moves_to_go = match clock.moves_to_go {
        Some(m) => (m as u64).clamp(1, MOVES_TO_GO_MAX),
        None => params.time_moves_to_go as u64,
    };
    let increment = clock
        .increment
        .saturating_mul(params.time_increment_share as u64)
        / 1000;
    // With a period ending, keep a move's share in hand: (movestogo + 1).
    let share = if clock.moves_to_go.is_some() {
        usable / (moves_to_go + 1)
    } else {
        usable / moves_to_go
    };
    let optimum = share.saturating_add(increment);
    let hard_share =
        (params.time_hard_share as u64 + 1000 / moves_to_go).min(HARD_SHARE_MAX_PERMILLE);
    let hard_cap = usable / 1000 * hard_share + usable % 1000 * hard_share / 1000;
    let hard = optimum.saturating_mul(params.time_hard_over_optimum as u64) / 10;
    (optimum, hard.min(hard_cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: ParamValues = ParamValues::DEFAULT;

    fn clock(left: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock {
            time_left: Some(left),
            increment: inc,
            moves_to_go: mtg,
            movetime: None,
        }
    }

    fn calm() -> Progress {
        Progress {
            stable_iterations: 10,
            score_drop: 0,
            best_move_effort: 0.95,
        }
    }

    fn troubled() -> Progress {
        Progress {
            stable_iterations: 0,
            score_drop: 60,
            best_move_effort: 0.2,
        }
    }

    #[test]
    fn a_managed_node_limit_follows_the_search_as_the_clock_does() {
        for params in time_extremes() {
            let calm_nodes = managed_soft_nodes(5000, 20000, &calm(), &params);
            let troubled_nodes = managed_soft_nodes(5000, 20000, &troubled(), &params);
            assert!(
                calm_nodes <= troubled_nodes,
                "{calm_nodes} {troubled_nodes}"
            );
            assert!(troubled_nodes <= 20000);
            // The same factors as a timed move's soft limit.
            let plan = TimeManager::new(&clock(60_000, 0, None), 10, Policy::Adaptive, &params)
                .expect("a clock");
            for progress in [calm(), troubled()] {
                let by_time = plan.soft(&progress).as_secs_f64() / plan.optimum().as_secs_f64();
                let by_nodes = managed_soft_nodes(1_000_000, u64::MAX, &progress, &params);
                if plan.soft(&progress) < plan.hard() {
                    assert!((by_nodes as f64 / 1e6 - by_time).abs() < 1e-3);
                }
            }
        }
        // With the defaults a settled move stops well before the fixed limit, an
        // unsettled one goes well past it.
        assert!(managed_soft_nodes(5000, 20000, &calm(), &DEFAULT) < 3000);
        assert!(managed_soft_nodes(5000, 20000, &troubled(), &DEFAULT) > 10000);
    }

    #[test]
    fn no_clock_means_no_plan() {
        for policy in [Policy::Adaptive, Policy::Simple] {
            assert_eq!(
                TimeManager::new(&Clock::default(), 10, policy, &DEFAULT),
                None
            );
        }
    }

    /// The time tunables all at their lowest, or all at their highest, allowed values
    /// (what a tuner may try), besides the defaults.
    fn time_extremes() -> [ParamValues; 3] {
        let mut low = DEFAULT;
        let mut high = DEFAULT;
        for t in crate::params::TUNABLES.iter() {
            if t.name.starts_with("time_") {
                *low.get_mut(t.name).unwrap() = t.min;
                *high.get_mut(t.name).unwrap() = t.max;
            }
        }
        [DEFAULT, low, high]
    }

    #[test]
    fn never_plans_past_the_clock() {
        for params in time_extremes() {
            for policy in [Policy::Adaptive, Policy::Simple] {
                for left in [0, 1, 5, 30, 50, 100, 1_000, 60_000, u64::MAX / 2] {
                    for inc in [0, 10, 1_000, 100_000] {
                        for mtg in [None, Some(1), Some(2), Some(40), Some(0), Some(u32::MAX)] {
                            let tm = TimeManager::new(&clock(left, inc, mtg), 10, policy, &params)
                                .unwrap();
                            let cap = left.saturating_sub(10 + SAFETY_MS);
                            let ctx = format!("{policy:?} {left} {inc} {mtg:?}: {tm:?}");
                            assert!(tm.hard.as_millis() as u64 <= cap, "{ctx}");
                            assert!(tm.optimum <= tm.hard, "{ctx}");
                            for p in [calm(), troubled()] {
                                assert!(tm.soft(&p) <= tm.hard, "{ctx}");
                                // A search that has time always gets some of it.
                                assert!(tm.optimum.is_zero() || !tm.soft(&p).is_zero(), "{ctx}");
                                let several = tm.soft_for_several_lines(p.score_drop);
                                assert!(several <= tm.hard, "{ctx}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// With several lines, only a falling score moves the budget: an unsettled
    /// best move or a small share of the nodes for it (what close MultiPV lines look
    /// like) do not stretch it.
    #[test]
    fn several_lines_think_as_long_as_one_settled_or_not() {
        let tm =
            TimeManager::new(&clock(16_441, 1_000, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        assert_eq!(tm.soft_for_several_lines(0), tm.optimum);
        assert!(
            tm.soft(&troubled()) > tm.optimum,
            "a single line in trouble thinks longer"
        );
        assert!(
            tm.soft_for_several_lines(60) > tm.optimum,
            "a falling score still counts"
        );
        assert!(tm.soft_for_several_lines(60) <= tm.soft(&troubled()));
    }

    #[test]
    fn one_move_never_gambles_the_game() {
        // Sudden death: at most a quarter of the clock plus 1/25 of it.
        let tm = TimeManager::new(&clock(10_000, 0, None), 0, Policy::Adaptive, &DEFAULT).unwrap();
        assert!(tm.hard <= Duration::from_millis(2_900), "{tm:?}");
        // Last move before the time control: at most three quarters.
        let tm =
            TimeManager::new(&clock(10_000, 0, Some(1)), 0, Policy::Adaptive, &DEFAULT).unwrap();
        assert!(tm.hard <= Duration::from_millis(7_500), "{tm:?}");
    }

    #[test]
    fn without_increment_the_latency_of_future_moves_is_kept() {
        // 2+0: 40 moves x 5 ms stay in reserve, on top of overhead and safety.
        let tm = TimeManager::new(&clock(2_000, 0, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        let usable = 2_000 - 10 - SAFETY_MS - LATENCY_RESERVE_MOVES * MOVE_LATENCY_MS;
        assert!(tm.hard <= Duration::from_millis(usable), "{tm:?}");
        // Below the reserve: the least thinking time, not the rest of the clock.
        let tm = TimeManager::new(&clock(200, 0, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        assert_eq!(tm.hard, Duration::ZERO);
        // An increment that pays for the latency needs no reserve.
        let a = TimeManager::new(&clock(2_000, 10, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        let b = TimeManager::new(&clock(2_000, 0, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        assert!(a.hard > b.hard);
    }

    #[test]
    fn movetime_is_respected_minus_overhead() {
        let c = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        let tm = TimeManager::new(&c, 30, Policy::Adaptive, &DEFAULT).unwrap();
        assert_eq!(tm.hard(), Duration::from_millis(970));
        assert_eq!(tm.soft(&troubled()), Duration::from_millis(970));
    }

    #[test]
    fn spends_a_share_of_the_clock() {
        for policy in [Policy::Adaptive, Policy::Simple] {
            let tm = TimeManager::new(&clock(60_000, 0, None), 10, policy, &DEFAULT).unwrap();
            assert!(tm.optimum >= Duration::from_millis(1_000), "{tm:?}");
            assert!(tm.optimum <= Duration::from_millis(3_000), "{tm:?}");
        }
    }

    #[test]
    fn a_troubled_search_gets_more_time_than_a_calm_one() {
        let tm =
            TimeManager::new(&clock(60_000, 600, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        let (easy, hard) = (tm.soft(&calm()), tm.soft(&troubled()));
        assert!(easy < tm.optimum, "{easy:?} {tm:?}");
        assert!(hard > tm.optimum, "{hard:?} {tm:?}");
        // The simple rule ignores the search.
        let tm = TimeManager::new(&clock(60_000, 600, None), 10, Policy::Simple, &DEFAULT).unwrap();
        assert_eq!(tm.soft(&calm()), tm.soft(&troubled()));
    }

    #[test]
    fn answer_now_means_zero() {
        let mut tm =
            TimeManager::new(&clock(60_000, 0, None), 10, Policy::Adaptive, &DEFAULT).unwrap();
        tm.answer_now();
        assert_eq!(tm.hard(), Duration::ZERO);
        assert_eq!(tm.soft(&troubled()), Duration::ZERO);
    }
}
