//! Benchmark, not a test of speed: how long from `stop` (or a clock running out)
//! to `bestmove`, over many searches in different states. It asserts only that every
//! `bestmove` comes and is legal; the latencies are printed.
//!
//! cargo test --release --test stop_latency -- --ignored --nocapture

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

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn stop_to_bestmove_latency() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.send("isready");
    let mut stops = Vec::new();
    let mut hard_limits = Vec::new();
    // Delays after `go` before `stop`: at once, early iterations, deep searches.
    let delays_us = [0u64, 100, 1_000, 5_000, 20_000];
    for i in 0..1_000 {
        let fen = FENS[i % FENS.len()];
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        engine.send(&format!("position fen {fen}"));
        if i % 5 == 4 {
            // The clock runs out: 20 ms of movetime, measured against the deadline.
            let start = Instant::now();
            engine.send("go movetime 20");
            let m = engine.bestmove();
            hard_limits.push(start.elapsed().saturating_sub(Duration::from_millis(20)));
            check_legal(&pos, &m);
            continue;
        }
        engine.send("go infinite");
        std::thread::sleep(Duration::from_micros(delays_us[i % delays_us.len()]));
        let start = Instant::now();
        engine.send("stop");
        let m = engine.bestmove();
        stops.push(start.elapsed());
        check_legal(&pos, &m);
    }
    engine.send("quit");
    let _ = engine.child.wait();
    stops.sort();
    hard_limits.sort();
    println!(
        "stop -> bestmove over {} stops: p50 {:?}, p99 {:?}, max {:?}",
        stops.len(),
        percentile(&stops, 0.5),
        percentile(&stops, 0.99),
        stops.last().unwrap()
    );
    println!(
        "movetime 20 overrun over {} searches: p50 {:?}, p99 {:?}, max {:?}",
        hard_limits.len(),
        percentile(&hard_limits, 0.5),
        percentile(&hard_limits, 0.99),
        hard_limits.last().unwrap()
    );
}

fn check_legal(pos: &Chess, text: &str) {
    let m = UciMove::from_ascii(text.as_bytes())
        .unwrap_or_else(|_| panic!("bestmove '{text}' is not UCI"))
        .to_move(pos);
    assert!(m.is_ok(), "bestmove {text} is illegal");
}
