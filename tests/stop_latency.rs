//! Benchmark, not a test of speed: how long from `stop` (or a clock running out)
//! to `bestmove`, over many searches in different states. It asserts only that every
//! `bestmove` comes and is legal; the latencies are printed, per state. The time is
//! measured here, on the other side of the pipes, as a GUI would see it.
//!
//! cargo test --release --test stop_latency -- --ignored --nocapture
//! (`TABAS_STOPS=N` sets the number of searches, default 2000: 1200 stops.)
//!
//! `stop_latency_with_busy_cores` is the same measure on a loaded machine: while it
//! waits, the client keeps every core but the search's busy with spinning threads, so
//! that each wake-up inside the engine has to win a core from a running thread (the
//! engine's search holds the last one). Only that test:
//!
//! cargo test --release --test stop_latency -- --ignored --nocapture busy
//! (`TABAS_BUSY_STOPS=N`: stops during `go infinite`, default 420; `TABAS_BUSY_THREADS=N`:
//! spinning threads, default the number of cores less one.)
//!
//! `TABAS_ENGINES=PATH[,PATH…]` measures other UCI engines instead of this build (an
//! older Tabas, Stockfish): the busy test takes them in turn, stop by stop, so that they
//! share whatever else the machine is doing; the other test measures the first.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Many captures: long quiescence searches.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r2n2/6k1/1pNBbb2/3p1p2/3P1P2/P4KP1/2R5/4N3 w - - 0 1",
    "8/8/1p6/p1p2k2/P1P5/1P3K2/8/8 b - - 0 1",
];

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// The engines to measure: `TABAS_ENGINES`, or this build.
fn engine_paths() -> Vec<String> {
    match std::env::var("TABAS_ENGINES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').map(str::to_string).collect(),
        _ => vec![env!("CARGO_BIN_EXE_tabas").to_string()],
    }
}

impl Engine {
    fn start(path: &str) -> Engine {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start tabas");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn bestmove(&mut self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .expect("bestmove within 10 s");
            if let Some(m) = line.strip_prefix("bestmove ") {
                return m.split_whitespace().next().unwrap().to_string();
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The states a search can be stopped in; each gets its own line of figures.
const STATES: [&str; 5] = [
    "stop right after go",
    "stop during a search (0.1-20 ms in)",
    "stop after Clear Hash / resize (no isready)",
    "movetime 20: past the deadline",
    "wtime 50 (no increment): past the deadline",
];

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn stop_to_bestmove_latency() {
    let mut engine = Engine::start(&engine_paths()[0]);
    engine.send("uci");
    // A large table, so that clearing and resizing have real memory to give back.
    engine.send("setoption name Hash value 1024");
    engine.send("isready");
    let mut latencies: Vec<Vec<Duration>> = vec![Vec::new(); STATES.len()];
    let delays_us = [100u64, 1_000, 5_000, 20_000];
    let rounds = std::env::var("TABAS_STOPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000usize);
    for i in 0..rounds {
        let fen = FENS[i % FENS.len()];
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        engine.send(&format!("position fen {fen}"));
        let state = (i / FENS.len()) % STATES.len();
        let (m, latency) = match state {
            0..=2 => {
                if state == 2 {
                    // Fill the table a little, then drop it and search on the new one.
                    engine.send("go movetime 30");
                    engine.bestmove();
                    engine.send(if i % 2 == 0 {
                        "setoption name Clear Hash"
                    } else {
                        "setoption name Hash value 1000"
                    });
                    engine.send(&format!("position fen {fen}"));
                }
                engine.send("go infinite");
                if state != 0 {
                    std::thread::sleep(Duration::from_micros(delays_us[i % delays_us.len()]));
                }
                let start = Instant::now();
                engine.send("stop");
                let m = engine.bestmove();
                (m, start.elapsed())
            }
            3 => {
                let start = Instant::now();
                engine.send("go movetime 20");
                let m = engine.bestmove();
                (m, start.elapsed().saturating_sub(Duration::from_millis(20)))
            }
            _ => {
                let start = Instant::now();
                engine.send("go wtime 50 btime 50");
                let m = engine.bestmove();
                (m, start.elapsed().saturating_sub(Duration::from_millis(50)))
            }
        };
        check_legal(&pos, &m);
        latencies[state].push(latency);
    }
    engine.send("quit");
    let _ = engine.child.wait();
    let mut stops: Vec<Duration> = latencies[..3].concat();
    for (name, values) in STATES
        .iter()
        .chain(std::iter::once(&"all stops"))
        .zip(latencies.iter_mut().chain(std::iter::once(&mut stops)))
    {
        values.sort();
        println!(
            "{name:45} n {:5}  p50 {:8.3} ms  p99 {:8.3} ms  max {:8.3} ms",
            values.len(),
            ms(percentile(values, 0.5)),
            ms(percentile(values, 0.99)),
            ms(*values.last().unwrap())
        );
    }
}

/// Threads that spin (no syscall, no sleep) until dropped: a core each, taken from
/// whoever else wants it.
struct Spinners {
    run: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Spinners {
    fn start(n: usize) -> Spinners {
        let run = Arc::new(AtomicBool::new(true));
        let threads = (0..n)
            .map(|_| {
                let run = Arc::clone(&run);
                std::thread::spawn(move || {
                    while run.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Spinners { run, threads }
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        self.run.store(false, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// splitmix64: reproducible delays without a dependency.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

const BUSY_STATES: [&str; 2] = [
    "stop during go infinite (0-200 ms in)",
    "stop after the search ended (go infinite depth 2)",
];

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn stop_latency_with_busy_cores() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let spinning = env_number("TABAS_BUSY_THREADS").unwrap_or(cores.saturating_sub(1).max(1));
    let stops = env_number("TABAS_BUSY_STOPS").unwrap_or(420);
    println!("{cores} cores; {spinning} spinning client threads while waiting");
    let paths = engine_paths();
    let mut engines: Vec<Engine> = paths.iter().map(|p| Engine::start(p)).collect();
    for engine in &mut engines {
        engine.send("uci");
        engine.send("isready");
    }
    // latencies[engine][state]
    let mut latencies = vec![vec![Vec::<Duration>::new(); BUSY_STATES.len()]; engines.len()];
    let mut seed: u64 = 0x0007_AB45;
    // One stop in four finds the search already over, waiting for `stop` as
    // `go infinite` must: the engine's thread is asleep and has to be woken.
    let rounds = stops + stops / 3;
    for i in 0..rounds {
        let fen = FENS[i % FENS.len()];
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let state = usize::from(i % 4 == 3);
        let delay = if state == 0 {
            Duration::from_micros(next_random(&mut seed) % 200_001)
        } else {
            Duration::from_micros(20_000 + next_random(&mut seed) % 20_001)
        };
        for (engine, latencies) in engines.iter_mut().zip(latencies.iter_mut()) {
            engine.send(&format!("position fen {fen}"));
            let spinners = Spinners::start(spinning);
            engine.send(if state == 0 {
                "go infinite"
            } else {
                "go infinite depth 2"
            });
            std::thread::sleep(delay);
            let start = Instant::now();
            engine.send("stop");
            let m = engine.bestmove();
            let latency = start.elapsed();
            drop(spinners);
            check_legal(&pos, &m);
            latencies[state].push(latency);
        }
    }
    for (path, (mut engine, latencies)) in paths.iter().zip(engines.into_iter().zip(latencies)) {
        engine.send("quit");
        let _ = engine.child.wait();
        println!("{path}");
        for (name, mut values) in BUSY_STATES.iter().zip(latencies) {
            values.sort();
            let over_1ms = values
                .iter()
                .filter(|d| **d > Duration::from_millis(1))
                .count();
            println!(
                "  {name:50} n {:4}  p10 {:6.3}  p25 {:6.3}  p50 {:6.3}  p90 {:6.3}  p99 {:7.3}  max {:7.3} ms  > 1 ms: {over_1ms}",
                values.len(),
                ms(percentile(&values, 0.1)),
                ms(percentile(&values, 0.25)),
                ms(percentile(&values, 0.5)),
                ms(percentile(&values, 0.9)),
                ms(percentile(&values, 0.99)),
                ms(*values.last().unwrap())
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn check_legal(pos: &Chess, text: &str) {
    let m = UciMove::from_ascii(text.as_bytes())
        .unwrap_or_else(|_| panic!("bestmove '{text}' is not UCI"))
        .to_move(pos);
    assert!(m.is_ok(), "bestmove {text} is illegal");
}
