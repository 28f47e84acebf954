//! Benchmark, not a test of speed: how long from `stop` (or a clock running out)
//! to `bestmove`, over many searches in different states. It asserts only that every
//! `bestmove` comes and is legal; the latencies are printed, per state. The time is
//! measured here, on the other side of the pipes, as a GUI would see it.
//!
//! cargo test --release --test stop_latency -- --ignored --nocapture
//! (`TABAS_STOPS=N` sets the number of searches, default 2000: 1200 stops.)

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
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

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabas"))
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
    let mut engine = Engine::start();
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn check_legal(pos: &Chess, text: &str) {
    let m = UciMove::from_ascii(text.as_bytes())
        .unwrap_or_else(|_| panic!("bestmove '{text}' is not UCI"))
        .to_move(pos);
    assert!(m.is_ok(), "bestmove {text} is illegal");
}
