//! Several threads searching one position (Lazy SMP), and the threads themselves.
//!
//! * `ThreadGroup`: what the threads of one search share besides the table and the
//!   stop flag: a node counter per thread (each on its own cache line) and the
//!   signal by which the main thread ends its helpers.
//! * `ThreadPool`: the search threads, kept alive from one `go` to the next, each
//!   owning its `ThreadData` (histories, killers, stack, PV table…), allocated by the
//!   thread itself when it starts and never moved: a task borrows it, so that no
//!   thread is spawned per search and no table allocated or copied; a `go` clears it
//!   in place (`ThreadData::clear`). What a `go` does allocate is small: the search's
//!   `Control` and job (with the group's node counters and a copy of the game's keys),
//!   and for each thread its task's box and `Done` flag.
//!
//! The helpers search the same root as the main thread and share its transposition
//! table; they skip some depths (`helper_skips`) so that they run ahead of the main
//! thread and fill the table with what it will need. Only the main thread reports,
//! watches the clock and gives the best move.

use super::ThreadData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// One thread's node count, alone on a cache line (no false sharing).
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

pub struct ThreadGroup {
    nodes: Box<[Counter]>,
    /// Raised by the main thread when the search is over: the helpers stop.
    over: AtomicBool,
}

impl ThreadGroup {
    pub fn new(threads: usize) -> ThreadGroup {
        ThreadGroup {
            nodes: (0..threads.max(1)).map(|_| Counter::default()).collect(),
            over: AtomicBool::new(false),
        }
    }

    /// Thread `id` has searched `nodes` nodes so far.
    #[inline]
    pub fn publish(&self, id: usize, nodes: u64) {
        self.nodes[id].0.store(nodes, Ordering::Relaxed);
    }

    /// Nodes of all threads, as last published.
    pub fn total(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }

    pub fn end(&self) {
        self.over.store(true, Ordering::Release);
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.over.load(Ordering::Acquire)
    }
}

/// Depth skipping for helper threads: helper `id` (1, 2, …) leaves out some
/// iterations, in a pattern of its own, so the helpers spread over the next depths
/// instead of all repeating the main thread's. (The pattern is the one Stockfish used
/// for years: blocks of 1 to 4 depths, each helper with its own phase.)
pub fn helper_skips(id: usize, depth: i32, root_ply: u32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if id == 0 {
        return false;
    }
    let i = (id - 1) % SIZE.len();
    ((depth + root_ply as i32 + PHASE[i]) / SIZE[i]) % 2 != 0
}

/// Work for one search thread: it borrows the thread's data (as the last task left
/// it; fresh after a task that panicked).
pub type Task = Box<dyn FnOnce(&mut ThreadData) + Send>;

/// Set when a task has finished (or panicked): `wait` returns.
#[derive(Default)]
pub struct Done {
    done: Mutex<bool>,
    cv: Condvar,
}

impl Done {
    pub fn set(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.cv.notify_all();
    }

    pub fn is_set(&self) -> bool {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn wait(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = self.cv.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}

struct Worker {
    tasks: mpsc::Sender<(Task, Arc<Done>)>,
    handle: JoinHandle<()>,
}

/// The search threads; thread 0 is the main thread.
pub struct ThreadPool {
    workers: Vec<Worker>,
}

impl ThreadPool {
    pub fn new(threads: usize) -> ThreadPool {
        let mut pool = ThreadPool {
            workers: Vec::new(),
        };
        pool.resize(threads);
        pool
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Starts or ends threads until there are `threads` (at least one). Must not be
    /// called while a task runs (the ended threads finish theirs first).
    pub fn resize(&mut self, threads: usize) {
        let threads = threads.max(1);
        while self.workers.len() > threads {
            let worker = self.workers.pop().expect("a worker");
            drop(worker.tasks);
            if worker.handle.join().is_err() {
                log::error!("search thread ended abnormally");
            }
        }
        while self.workers.len() < threads {
            let id = self.workers.len();
            let (tx, rx) = mpsc::channel::<(Task, Arc<Done>)>();
            let handle = std::thread::Builder::new()
                .name(if id == 0 {
                    "search".into()
                } else {
                    format!("search-{id}")
                })
                .stack_size(64 * 1024 * 1024)
                .spawn(move || worker_loop(rx))
                .expect("spawn search thread");
            self.workers.push(Worker { tasks: tx, handle });
        }
    }

    /// Runs `task` on thread `id`; the returned `Done` is set when it has finished.
    pub fn run(&self, id: usize, task: Task) -> Arc<Done> {
        let done = Arc::new(Done::default());
        if self.workers[id]
            .tasks
            .send((task, Arc::clone(&done)))
            .is_err()
        {
            log::error!("search thread {id} is gone");
            done.set();
        }
        done
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.resize(0);
        if let Some(worker) = self.workers.pop() {
            drop(worker.tasks);
            let _ = worker.handle.join();
        }
    }
}

fn worker_loop(tasks: mpsc::Receiver<(Task, Arc<Done>)>) {
    // Allocated by the thread that uses it, once.
    let mut data = Box::<ThreadData>::default();
    while let Ok((task, done)) = tasks.recv() {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| task(&mut data)));
        if outcome.is_err() {
            log::error!("a search task panicked; its thread starts afresh");
            *data = ThreadData::default();
        }
        done.set();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_add_up() {
        let g = ThreadGroup::new(3);
        g.publish(0, 10);
        g.publish(2, 5);
        assert_eq!(g.total(), 15);
        assert!(!g.is_over());
        g.end();
        assert!(g.is_over());
    }

    #[test]
    fn helpers_skip_in_different_patterns() {
        // The main thread never skips; two helpers do not skip the same depths.
        assert!((1..30).all(|d| !helper_skips(0, d, 0)));
        let a: Vec<bool> = (1..30).map(|d| helper_skips(1, d, 0)).collect();
        let b: Vec<bool> = (1..30).map(|d| helper_skips(2, d, 0)).collect();
        assert_ne!(a, b);
        assert!(a.iter().any(|&s| !s) && b.iter().any(|&s| !s));
    }

    #[test]
    fn a_task_that_panics_does_not_kill_its_thread() {
        let pool = ThreadPool::new(1);
        pool.run(0, Box::new(|_| panic!("on purpose"))).wait();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        pool.run(0, Box::new(move |_| flag.store(true, Ordering::Release)))
            .wait();
        assert!(ran.load(Ordering::Acquire));
    }
}
