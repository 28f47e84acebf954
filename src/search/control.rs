//! What the search shares with the UCI thread: the stop flag, the ponder state, and
//! when the search started.
//!
//! The search reads the flags as plain atomics. A search that is over but may not answer
//! yet (`go infinite`, `go ponder`) sleeps in `wait_until_released` and is woken by
//! `stop` or `ponderhit` at once, not by polling.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Shared between the search thread and the UCI thread: `stop` and `ponderhit`.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: Instant,
    /// Held while the flags are checked before sleeping and while a waker notifies, so
    /// that no wake-up falls between the check and the sleep.
    wake_lock: Mutex<()>,
    woken: Condvar,
}

impl Control {
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            started: Instant::now(),
            wake_lock: Mutex::new(()),
            woken: Condvar::new(),
        }
    }

    /// Raises the stop flag (from any thread, any number of times).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        self.wake();
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the search goes on, now under the time
    /// limits (see `elapsed`).
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Release);
        self.wake();
    }

    /// Blocks until `stop`, or, unless `infinite`, until the pondering ends: how a search
    /// of `go infinite` or `go ponder` that is over waits before it may answer.
    pub fn wait_until_released(&self, infinite: bool) {
        let mut guard = self.lock_wake();
        while !self.is_stopped() && (infinite || self.is_pondering()) {
            guard = self
                .woken
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn wake(&self) {
        drop(self.lock_wake());
        self.woken.notify_all();
    }

    /// The lock guards no data, so a thread that panicked holding it leaves nothing broken.
    fn lock_wake(&self) -> MutexGuard<'_, ()> {
        self.wake_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search started (`go`), and the time the limits are judged on,
    /// for `go ponder` too. After a ponder
    /// hit the search has been on this very position since `go ponder`, so it is judged
    /// on all the time it has had, as Stockfish and Ethereal judge it: a hit after a long
    /// ponder moves at once instead of thinking a whole move's time again. The GUI's clock
    /// started only at `ponderhit`, so every limit is reached sooner than by that clock,
    /// never later; the time a hit saves stays on the clock, and the time manager, which
    /// plans each move as a share of what is left, spends it on the moves that follow.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Far more than a wake-up takes, even on a loaded machine.
    const LONG: Duration = Duration::from_secs(10);

    /// Runs `wait_until_released` on a thread, does `action`, and says whether the
    /// waiter returned within `within` after it (and not before). Then stops it.
    fn released_by(
        control: &Arc<Control>,
        infinite: bool,
        action: impl FnOnce(&Control),
        within: Duration,
    ) -> bool {
        let waiter = Arc::clone(control);
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = std::thread::spawn(move || {
            waiter.wait_until_released(infinite);
            let _ = tx.send(());
        });
        // Usually asleep by now; if not, the flags are checked before it sleeps.
        std::thread::sleep(Duration::from_millis(20));
        let early = rx.try_recv().is_ok();
        action(control);
        let released = rx.recv_timeout(within).is_ok();
        control.stop();
        handle.join().unwrap();
        !early && released
    }

    #[test]
    fn stop_releases_a_waiting_infinite_search() {
        let control = Arc::new(Control::new(false));
        assert!(released_by(&control, true, |c| c.stop(), LONG));
    }

    #[test]
    fn ponderhit_releases_a_waiting_ponder_search_but_not_an_infinite_one() {
        let control = Arc::new(Control::new(true));
        assert!(released_by(&control, false, |c| c.ponderhit(), LONG));
        let control = Arc::new(Control::new(true));
        let short = Duration::from_millis(100);
        assert!(!released_by(&control, true, |c| c.ponderhit(), short));
    }

    #[test]
    fn nothing_to_wait_for_returns_at_once() {
        Control::new(false).wait_until_released(false);
        let stopped = Control::new(true);
        stopped.stop();
        stopped.wait_until_released(true);
    }
}
