//! The engine's state between commands: the position and the keys of the game before
//! it, the table, what the options chose (threads, tablebases, network), and the search
//! (or a `go perft` / `bench` job) running in its own thread. No text here: the UCI
//! layer parses commands into calls and turns `SearchEvent`s into lines.

use crate::nnue::Network;
use crate::position::Board;
use crate::search::threads::{Done, ThreadGroup, ThreadPool};
use crate::search::{
    Control, CurrentMove, Limits, Report, SearchConfig, SearchResult, Searcher, SharedContext,
    ThreadData,
};
use crate::tablebase::{Tablebases, TbConfig};
use crate::tt::TranspositionTable;
use shakmaty::Position;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// What a running search tells the outside world.
pub enum SearchEvent {
    Info(Report),
    /// The root move the main thread searches now (UCI `currmove`).
    CurrentMove(CurrentMove),
    BestMove(SearchResult),
}

/// Receives the events of a search, on the search thread.
pub type EventSink = Box<dyn FnMut(SearchEvent) + Send>;

/// A search or a job on its thread; `control` stops it, `done` says it has ended.
struct Running {
    control: Arc<Control>,
    done: Arc<Done>,
    /// False for `go infinite` and `go ponder`, which only `stop` (or `ponderhit`) ends.
    ends_by_itself: bool,
    /// A job's own thread (searches run on the pool's).
    job: Option<JoinHandle<()>>,
}

/// One search, as all its threads see it.
struct SearchJob {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    group: ThreadGroup,
    config: SearchConfig,
    limits: Limits,
    move_overhead_ms: u64,
    board: Board,
    game_keys: Vec<u64>,
    tablebases: Arc<Tablebases>,
}

impl SearchJob {
    /// Thread `id`'s search, in the thread's own data (owned by the pool).
    fn search(
        &self,
        id: usize,
        thread: &mut ThreadData,
        report: &mut dyn FnMut(&Report),
        announce: Option<&dyn Fn(CurrentMove)>,
    ) -> SearchResult {
        // Every search starts with fresh histories, as one thread's always did.
        thread.clear();
        let shared = SharedContext {
            tt: &self.tt,
            control: &self.control,
            group: Some(&self.group),
            tablebases: Some(&self.tablebases),
        };
        let mut searcher = Searcher::thread_of(
            shared,
            id,
            thread,
            self.config,
            self.limits.clone(),
            self.move_overhead_ms,
        );
        if let Some(announce) = announce {
            searcher.announce_current_moves(announce);
        }
        searcher.search(&self.board, &self.game_keys, report)
    }
}

/// Stops whatever the engine runs now, from any thread: the stdin reader raises the
/// flag through it as soon as `stop` arrives, so that the search does not wait for the
/// session thread to be scheduled first. The session still handles the `stop` line
/// itself (and waits for the search to end).
#[derive(Clone, Default)]
pub struct Stopper(Arc<Mutex<Option<Arc<Control>>>>);

impl Stopper {
    pub fn stop(&self) {
        if let Some(control) = &*self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            control.stop();
        }
    }

    fn set(&self, control: &Arc<Control>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(control));
    }
}

pub struct Engine {
    board: Board,
    /// Keys of the positions before `board` in the game (for repetitions).
    game_keys: Vec<u64>,
    tt: Arc<TranspositionTable>,
    /// Table size asked for but not yet applied (the search was running).
    pending_hash_mb: Option<usize>,
    pending_clear: bool,
    running: Option<Running>,
    /// The search threads (`Threads`); thread 0 is the main thread.
    pool: ThreadPool,
    /// A thread count asked for but not yet applied (the search was running).
    pending_threads: Option<usize>,
    /// The control of `running`, for other threads.
    stopper: Stopper,
    /// Old tables being given back to the OS (see `free_in_background`).
    freeing: Vec<JoinHandle<()>>,
    /// Syzygy tables and how to probe them; replaced whole, so that a search
    /// keeps the ones it started with.
    tablebases: Arc<Tablebases>,
    /// The network `EvalFile` loaded (`None`: the built-in one).
    network_file: Option<&'static Network>,
    /// `Use NNUE`.
    use_network: bool,
    /// Why the last `position` was rejected (`None`: `board` is the client's).
    position_error: Option<String>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(crate::tt::DEFAULT_MB)
    }
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        let tt = TranspositionTable::new(hash_mb)
            .or_else(|| TranspositionTable::new(1))
            .expect("a 1 MB table");
        Engine {
            board: Board::startpos(),
            game_keys: Vec::new(),
            tt: Arc::new(tt),
            pending_hash_mb: None,
            pending_clear: false,
            running: None,
            pool: ThreadPool::new(1),
            pending_threads: None,
            stopper: Stopper::default(),
            freeing: Vec::new(),
            tablebases: Arc::default(),
            network_file: None,
            use_network: crate::nnue::embedded().is_some(),
            position_error: None,
        }
    }

    /// The network that evaluates the next search (`None`: the hand-written evaluation).
    pub fn network(&self) -> Option<&'static Network> {
        if self.use_network {
            self.network_file.or_else(crate::nnue::embedded)
        } else {
            None
        }
    }

    /// Evaluate with a network (`EvalFile`'s or the built-in one) or by hand; from
    /// the next search on.
    pub fn use_network(&mut self, on: bool) {
        self.use_network = on;
    }

    /// The network of `EvalFile` (`None`: the built-in one), from the next search on.
    pub fn set_network_file(&mut self, network: Option<&'static Network>) {
        self.network_file = network;
    }

    /// The static evaluation of the current position, as the next search sees it.
    pub fn evaluate(&self) -> crate::score::Score {
        self.board.evaluated_by(self.network()).evaluate()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Sets the position: `board`, reached through the positions whose keys are
    /// `game_keys` (oldest first). The UCI layer reads them from the client's text.
    pub fn set_position(&mut self, board: Board, game_keys: Vec<u64>) {
        self.board = board;
        self.game_keys = game_keys;
        self.position_error = None;
    }

    /// A `position` command was rejected (`why`): there is no position until the
    /// next valid one (or `ucinewgame`), and a search refuses to start, so that no
    /// answer is ever given for a position the client did not set.
    pub fn reject_position(&mut self, why: String) {
        self.position_error = Some(why);
    }

    /// Why the last `position` was rejected, while no valid one has replaced it.
    pub fn position_error(&self) -> Option<&str> {
        self.position_error.as_deref()
    }

    /// True while a search or a job runs.
    pub fn is_busy(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.done.is_set())
    }

    /// Starts a search of the current position; the sink gets its info and,
    /// exactly once, its best move. A search still running is stopped first.
    pub fn go(
        &mut self,
        limits: Limits,
        config: SearchConfig,
        move_overhead_ms: u64,
        mut sink: EventSink,
    ) {
        // The GUI's clock runs from `go`: so does ours, whatever comes before the search.
        let control = Arc::new(Control::new(limits.ponder));
        let ends_by_itself = !limits.infinite && !limits.ponder;
        self.stop();
        self.apply_pending();
        self.tt.new_search();
        self.tablebases.reset_hits();
        let threads = self.pool.len();
        let job = Arc::new(SearchJob {
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&control),
            group: ThreadGroup::new(threads),
            config,
            limits,
            move_overhead_ms,
            board: self.board.evaluated_by(self.network()),
            game_keys: self.game_keys.clone(),
            tablebases: Arc::clone(&self.tablebases),
        });
        let helpers: Vec<Arc<Done>> = (1..threads)
            .map(|id| {
                let job = Arc::clone(&job);
                self.pool.run(
                    id,
                    Box::new(move |thread| {
                        job.search(id, thread, &mut |_| {}, None);
                    }),
                )
            })
            .collect();
        let done = self.pool.run(
            0,
            Box::new(move |thread| {
                let fallback = job.board.chess().legal_moves().first().copied();
                // The last line 1 shown, and whether it came after the `ponderhit`.
                let mut last_line: Option<(Report, bool)> = None;
                // A bug in the search must not cost the game: catch it and still move.
                // Lines and current moves both go to the sink, never at once.
                let events = std::cell::RefCell::new(&mut sink);
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    job.search(
                        0,
                        thread,
                        &mut |r| {
                            if r.multipv == 1 {
                                last_line = Some((r.clone(), !job.control.is_pondering()));
                            }
                            (events.borrow_mut())(SearchEvent::Info(r.clone()))
                        },
                        Some(&|c| (events.borrow_mut())(SearchEvent::CurrentMove(c))),
                    )
                }));
                let result = outcome.unwrap_or_else(|_| {
                    log::error!("search panicked; playing the first legal move");
                    *thread = ThreadData::default();
                    SearchResult {
                        best: fallback,
                        ponder: None,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                    }
                });
                // `go infinite` and `go ponder` end only on `stop` (or `ponderhit`).
                job.control.wait_until_released(job.limits.infinite);
                // A pondering search shows its line again after the `ponderhit` if it
                // showed none since: clients such as python-chess (lichess-bot) take a
                // move's score from the lines after their last command only.
                if job.limits.ponder
                    && let Some((line, false)) = last_line
                    && line.pv.first().copied() == result.best
                    && !job.control.is_pondering()
                {
                    sink(SearchEvent::Info(line));
                }
                // The helpers end with the main thread, before the best move is sent.
                job.group.end();
                for helper in &helpers {
                    helper.wait();
                }
                sink(SearchEvent::BestMove(result));
            }),
        );
        self.stopper.set(&control);
        self.running = Some(Running {
            control,
            done,
            ends_by_itself,
            job: None,
        });
    }

    /// Runs `job` on a thread of its own, as a search runs, so that `isready` is
    /// answered meanwhile and `stop`, `go` and `quit` end it: the job must return soon
    /// after `Control::is_stopped`. For `go perft` and `bench`, which can run for hours.
    /// A search still running is stopped first.
    pub fn run_job(&mut self, name: &str, job: impl FnOnce(&Control) + Send + 'static) {
        self.stop();
        let control = Arc::new(Control::new(false));
        let done = Arc::new(Done::default());
        let thread_control = Arc::clone(&control);
        let thread_done = Arc::clone(&done);
        let handle = std::thread::Builder::new()
            .name(name.into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                job(&thread_control);
                thread_done.set();
            })
            .expect("spawn job thread");
        self.stopper.set(&control);
        self.running = Some(Running {
            control,
            done,
            ends_by_itself: true,
            job: Some(handle),
        });
    }

    /// Waits until what runs has ended by itself (a search: sent its best move), as a
    /// client that waits for each answer does; a search that only `stop` ends
    /// (`go infinite`, `go ponder`) is left running.
    pub fn wait_until_idle(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.ends_by_itself) {
            let running = self.running.take().expect("checked above");
            match running.job {
                Some(handle) => {
                    if handle.join().is_err() {
                        log::error!("job thread ended abnormally");
                    }
                }
                None => running.done.wait(),
            }
        }
    }

    /// Stops the running search or job (if any) and waits until it has ended (a
    /// search: sent its best move).
    pub fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.control.stop();
            match running.job {
                Some(handle) => {
                    if handle.join().is_err() {
                        log::error!("job thread ended abnormally");
                    }
                }
                None => running.done.wait(),
            }
        }
    }

    /// A handle that stops what runs now (and whatever runs later) from another thread.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    pub fn ponderhit(&self) {
        if let Some(running) = &self.running {
            running.control.ponderhit();
        }
    }

    /// Sets the number of search threads now, or after the running search.
    pub fn set_threads(&mut self, threads: usize) {
        if self.is_busy() {
            self.pending_threads = Some(threads);
        } else {
            self.pool.resize(threads);
        }
    }

    /// Resizes the table now, or after the running search. Returns false if the
    /// memory could not be had (the old table stays).
    pub fn set_hash(&mut self, mb: usize) -> bool {
        if self.is_busy() {
            self.pending_hash_mb = Some(mb);
            return true;
        }
        self.resize(mb)
    }

    fn resize(&mut self, mb: usize) -> bool {
        let tt = TranspositionTable::new(mb).or_else(|| {
            // Perhaps old and new do not fit together: free the old one first.
            self.tt = Arc::new(TranspositionTable::new(1).expect("a 1 MB table"));
            TranspositionTable::new(mb)
        });
        match tt {
            Some(tt) => {
                let old = std::mem::replace(&mut self.tt, Arc::new(tt));
                self.free_in_background(old);
                true
            }
            None => {
                let old_mb = self.tt.size_mb().max(1);
                if let Some(tt) = TranspositionTable::new(old_mb) {
                    self.tt = Arc::new(tt);
                }
                false
            }
        }
    }

    /// Empties the table now, or after the running search. A fresh zeroed
    /// allocation instead of overwriting: the OS hands out zero pages lazily, so
    /// clearing costs about the same for 16 MB and for 16 GB.
    pub fn clear_hash(&mut self) {
        if self.is_busy() {
            self.pending_clear = true;
        } else {
            let mb = self.tt.size_mb().max(1);
            if !self.resize(mb) {
                self.tt.clear();
            }
        }
    }

    pub fn new_game(&mut self) {
        self.clear_hash();
        self.board = Board::startpos();
        self.game_keys.clear();
        self.position_error = None;
    }

    fn apply_pending(&mut self) {
        if let Some(threads) = self.pending_threads.take() {
            self.pool.resize(threads);
        }
        if let Some(mb) = self.pending_hash_mb.take()
            && !self.resize(mb)
        {
            log::warn!("could not allocate a {mb} MB table; keeping the old one");
        }
        if std::mem::take(&mut self.pending_clear) {
            self.clear_hash();
        }
    }

    /// Giving a large table back to the OS takes time (about 0.1 s for 4 GB that was
    /// used, and page faults wait meanwhile): a thread of its own does it, a segment at
    /// a time, so that the next search is neither delayed nor stalled.
    fn free_in_background(&mut self, tt: Arc<TranspositionTable>) {
        if tt.size_mb() < 64 {
            return; // cheap: dropped here
        }
        self.freeing.retain(|h| !h.is_finished());
        let spawned = std::thread::Builder::new()
            .name("free-table".into())
            .spawn(move || {
                if let Ok(tt) = Arc::try_unwrap(tt) {
                    tt.free_gradually();
                }
            });
        match spawned {
            Ok(handle) => self.freeing.push(handle),
            Err(e) => log::warn!("could not free the old table in the background: {e}"),
        }
    }

    /// `isready` while idle: finish the background work first, so that a search that
    /// follows has the machine to itself (a GUI asks `isready` after `ucinewgame`).
    /// While a search or a job runs, nothing is waited for.
    pub fn settle(&mut self) {
        if !self.is_busy() {
            for handle in self.freeing.drain(..) {
                let _ = handle.join();
            }
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Loads the Syzygy tables of `path` (`SyzygyPath`), now: loading only lists
    /// the directories. On error the previous tables stay.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<&Tablebases, String> {
        let config = self.tablebases.config();
        self.tablebases = Arc::new(Tablebases::load(path, config)?);
        Ok(&self.tablebases)
    }

    /// How the tables are probed from the next search on.
    pub fn set_syzygy_config(&mut self, config: TbConfig) {
        self.tablebases = Arc::new(self.tablebases.with_config(config));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejected_position_leaves_no_position_until_a_valid_one() {
        let mut e = Engine::new(1);
        assert_eq!(e.position_error(), None);
        e.reject_position("why".into());
        assert_eq!(e.position_error(), Some("why"));
        e.set_position(Board::startpos(), vec![]);
        assert_eq!(e.position_error(), None);
        e.reject_position("why".into());
        e.new_game();
        assert_eq!(e.position_error(), None);
    }
}
