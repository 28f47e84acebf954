//! What the search shares with the UCI thread: the stop flag, the ponder state, and
//! when the clock started.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Shared between the search thread and the UCI thread: `stop` and `ponderhit`.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: Instant,
    /// Microseconds after `started` at which the clock began (at `ponderhit` when pondering).
    clock_start_us: AtomicU64,
}

impl Control {
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            started: Instant::now(),
            clock_start_us: AtomicU64::new(0),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        let now = self.started.elapsed().as_micros() as u64;
        self.clock_start_us.store(now, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Time on our clock: since `go`, or since `ponderhit`.
    pub(super) fn clock_elapsed(&self) -> Duration {
        let start = Duration::from_micros(self.clock_start_us.load(Ordering::Acquire));
        self.started.elapsed().saturating_sub(start)
    }
}
