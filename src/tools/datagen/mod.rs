//! `tabas datagen`: self-play games for training the evaluation, from Tabas's own
//! search only (`tabas tune` reads them). `tabas dataset`: what a data folder holds.
//!
//! * `selfplay.rs`: one game (random opening, a node budget a move, adjudication);
//! * `format.rs`: the compact file format (games as moves and scores);
//! * the seeded generator behind the openings is the crate's `rng`.
//!
//! A run writes one file per thread, `games-NN.tdg`, and `manifest.txt` (the command,
//! the engine, the settings and the counts). Game `g` is played by thread `g mod T`
//! and depends only on the seed, `g` and the settings, so a run is reproducible, and
//! a run stopped at any point resumes where it stopped when started again with the
//! same command (the game in progress is lost, nothing else).

pub mod format;
pub mod selfplay;

use crate::args::whole;
use format::{GameRecord, GameResult, MAGIC};
use selfplay::Settings;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub const USAGE: &str =
    "usage: tabas datagen --out DIR [--games N] [--threads T] [--nodes N] [--hard-nodes N]
                    [--seed S] [--frc] [--keep-histories] [--fixed-nodes]
  --games N       games the folder should hold when done (default 1000)
  --threads T     games played at once (default 1)
  --nodes N       soft node limit a move (default 5000), managed as a clock's soft limit
                  is: scaled after each iteration, so a settled move stops sooner and an
                  unsettled one goes on
  --hard-nodes N  hard node limit a move (default 4 x --nodes)
  --seed S        the run's seed (default 1)
  --frc           start from random Chess960 positions
  --keep-histories  the search's histories live through a game (default: fresh each move)
  --fixed-nodes     no new iteration after --nodes nodes, whatever the search says (the
                    only soft limit of folders made before the managed one became the
                    default; --managed-nodes, the default, is still accepted)
  Run again with the same arguments to resume a stopped run.
       tabas dataset DIR [--dump N]   counts of a data folder; --dump prints N positions";

/// Stack of each datagen thread: as the engine's search threads have.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;
/// Table size for each datagen thread (MB): a game is a few hundred thousand nodes.
const DATAGEN_HASH_MB: usize = 16;
/// Seconds between two progress lines (and updates of the manifest's counts).
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// What `tabas datagen` was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub out: PathBuf,
    pub games: u64,
    pub threads: usize,
    pub seed: u64,
    pub settings: Settings,
}

/// Parses `tabas datagen` arguments (pure: no file is touched).
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut out = None;
    let mut games = 1000;
    let mut threads = 1;
    let mut seed = 1;
    let mut soft: u64 = 5000;
    let mut hard = None;
    let mut chess960 = false;
    let mut keep_histories = false;
    let mut managed_nodes = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--games" => games = whole(flag, value()?, 1..=1_000_000_000)?,
            "--threads" => threads = whole(flag, value()?, 1..=256)?,
            "--seed" => seed = whole(flag, value()?, 0..=u64::MAX)?,
            "--nodes" => soft = whole(flag, value()?, 1..=1_000_000_000)?,
            "--hard-nodes" => hard = Some(whole(flag, value()?, 1..=4_000_000_000)?),
            "--frc" => chess960 = true,
            "--keep-histories" => keep_histories = true,
            "--managed-nodes" | "--fixed-nodes" => {
                let managed = flag == "--managed-nodes";
                if managed_nodes == Some(!managed) {
                    return Err("--fixed-nodes and --managed-nodes contradict each other".into());
                }
                managed_nodes = Some(managed);
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let out = out.ok_or("--out DIR is required")?;
    let hard_nodes = hard.unwrap_or(soft.saturating_mul(crate::search::HARD_NODES_PER_SOFT));
    if hard_nodes < soft {
        return Err(format!(
            "--hard-nodes ({hard_nodes}) must be at least --nodes ({soft})"
        ));
    }
    Ok(Options {
        out,
        games,
        threads,
        seed,
        settings: Settings {
            soft_nodes: soft,
            hard_nodes,
            chess960,
            keep_histories,
            managed_nodes: managed_nodes.unwrap_or(true),
        },
    })
}

/// The settings a folder's data was made with: a resumed run must use the same.
fn settings_lines(o: &Options) -> Vec<String> {
    vec![
        format!("seed: {}", o.seed),
        format!("threads: {}", o.threads),
        format!("nodes: {}", o.settings.soft_nodes),
        format!("hard_nodes: {}", o.settings.hard_nodes),
        format!("chess960: {}", o.settings.chess960),
        histories_line(o.settings.keep_histories),
        soft_limit_line(o.settings.managed_nodes),
    ]
}

/// The manifest's line for `keep_histories`.
fn histories_line(keep: bool) -> String {
    let kind = if keep {
        "kept through a game"
    } else {
        "fresh each move"
    };
    format!("histories: {kind}")
}

/// The manifest's line for `managed_nodes`.
fn soft_limit_line(managed: bool) -> String {
    let kind = if managed { "managed" } else { "fixed" };
    format!("soft_limit: {kind}")
}

/// The settings lines that folders made before their option lack: such a folder was
/// made with the option off, so it agrees with these lines only.
fn lines_older_folders_lack() -> [String; 2] {
    [histories_line(false), soft_limit_line(false)]
}

/// Whether an existing manifest agrees with one settings line of this run.
fn manifest_agrees(old: &str, wanted: &str) -> bool {
    if old.lines().any(|l| l == wanted) {
        return true;
    }
    let key = |line: &str| line.split_once(':').map(|(k, _)| k.to_owned());
    lines_older_folders_lack().iter().any(|l| l == wanted)
        && !old.lines().any(|l| key(l) == key(wanted))
}

/// Games, positions and results of some data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl Counts {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.positions += g.plies.len() as u64;
        match g.result {
            GameResult::WhiteWon => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWon => self.black_wins += 1,
        }
    }

    fn shares(&self) -> String {
        let pct = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        format!(
            "White {:.1}% draw {:.1}% Black {:.1}%",
            pct(self.white_wins),
            pct(self.draws),
            pct(self.black_wins)
        )
    }
}

fn manifest_text(o: &Options, engine: &str, command: &str, counts: &Counts, done: bool) -> String {
    let mut lines = vec![
        "# Tabas self-play data: generated, not committed. Remake it with the command below."
            .to_string(),
        format!("command: {command}"),
        format!("engine: {engine}"),
        "format: TABASDG1 (src/tools/datagen/format.rs; scores from White's point of view)"
            .to_string(),
    ];
    lines.extend(settings_lines(o));
    lines.push(format!("games_wanted: {}", o.games));
    lines.push(format!("complete: {done}"));
    lines.push(format!("games: {}", counts.games));
    lines.push(format!("positions: {}", counts.positions));
    lines.push(format!("white_wins: {}", counts.white_wins));
    lines.push(format!("draws: {}", counts.draws));
    lines.push(format!("black_wins: {}", counts.black_wins));
    lines.join("\n") + "\n"
}

fn thread_file(dir: &Path, thread: usize) -> PathBuf {
    dir.join(format!("games-{thread:02}.tdg"))
}

/// Opens a thread's file for appending: created with the magic, or cut back to its
/// last complete game. Returns the file and the games it already holds.
fn open_thread_file(path: &Path) -> Result<(File, Vec<GameRecord>), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let existing = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(err(e)),
    };
    let mut games = Vec::new();
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    match existing {
        Some(bytes) if bytes.len() >= MAGIC.len() => {
            let contents = format::read(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            file.set_len(contents.complete_len as u64).map_err(err)?;
            games = contents.games;
        }
        _ => {
            file.set_len(0).map_err(err)?;
            file.write_all(MAGIC).map_err(err)?;
        }
    }
    let mut file = OpenOptions::new().append(true).open(path).map_err(err)?;
    file.flush().map_err(err)?;
    Ok((file, games))
}

/// Plays the games `options` asks for into its folder (resuming what is there),
/// printing progress to stderr when `progress`. `engine` and `command` go in the
/// manifest. Returns what the folder holds at the end.
pub fn generate(
    options: &Options,
    engine: &str,
    command: &str,
    progress: bool,
) -> Result<Counts, String> {
    let dir = &options.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let manifest = dir.join("manifest.txt");
    if let Ok(old) = std::fs::read_to_string(&manifest) {
        for wanted in settings_lines(options) {
            if !manifest_agrees(&old, &wanted) {
                return Err(format!(
                    "{} holds data made with other settings (this run: '{wanted}'); \
                     use the same arguments to resume, or another folder",
                    dir.display()
                ));
            }
        }
    }

    let mut files = Vec::new();
    let mut counts = Counts::default();
    for t in 0..options.threads {
        let (file, games) = open_thread_file(&thread_file(dir, t))?;
        for g in &games {
            counts.add(g);
        }
        files.push((file, games.len() as u64));
    }
    let write_manifest = |counts: &Counts, done: bool| {
        std::fs::write(
            &manifest,
            manifest_text(options, engine, command, counts, done),
        )
        .map_err(|e| format!("{}: {e}", manifest.display()))
    };
    write_manifest(&counts, false)?;

    let resumed = counts;
    let games_done = AtomicU64::new(counts.games);
    let positions = AtomicU64::new(counts.positions);
    let results = [
        AtomicU64::new(counts.black_wins),
        AtomicU64::new(counts.draws),
        AtomicU64::new(counts.white_wins),
    ];
    let running = AtomicUsize::new(options.threads);
    // Each game is counted once it is written.
    let tally = || Counts {
        games: games_done.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
        black_wins: results[0].load(Ordering::Relaxed),
        draws: results[1].load(Ordering::Relaxed),
        white_wins: results[2].load(Ordering::Relaxed),
    };
    let started = Instant::now();
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (t, (mut file, already)) in files.into_iter().enumerate() {
            let (games_done, positions, results, running) =
                (&games_done, &positions, &results, &running);
            // The search recurses a frame per ply, each with its move picker: the
            // engine's search threads' stack, not the default 2 MB.
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || -> Result<(), String> {
                    let _running = Finished(running);
                    let mut player =
                        selfplay::Player::new(DATAGEN_HASH_MB).ok_or("no memory for the table")?;
                    let mut index = t as u64 + already * options.threads as u64;
                    let mut buffer = Vec::new();
                    while index < options.games {
                        let game = player.play_game(options.seed, index, &options.settings);
                        buffer.clear();
                        game.encode(&mut buffer);
                        file.write_all(&buffer)
                            .and_then(|_| file.flush())
                            .map_err(|e| format!("writing game {index}: {e}"))?;
                        positions.fetch_add(game.plies.len() as u64, Ordering::Relaxed);
                        results[game.result as usize].fetch_add(1, Ordering::Relaxed);
                        games_done.fetch_add(1, Ordering::Relaxed);
                        index += options.threads as u64;
                    }
                    Ok(())
                });
            handles.push(spawned.map_err(|e| format!("cannot start a datagen thread: {e}"))?);
        }
        let mut last = Instant::now();
        while running.load(Ordering::Relaxed) > 0 {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= PROGRESS_EVERY {
                last = Instant::now();
                let now = tally();
                // Kept current, so that a run killed outright still describes its data
                // (never more than the files hold).
                if let Err(e) = write_manifest(&now, false) {
                    log::warn!("{e}");
                }
                if !progress {
                    continue;
                }
                let secs = started.elapsed().as_secs_f64();
                let rate = (now.positions - resumed.positions) as f64 / secs;
                eprintln!(
                    "datagen: {}/{} games, {} positions, {:.0} positions/s ({:.0} a thread), {}",
                    now.games,
                    options.games,
                    now.positions,
                    rate,
                    rate / options.threads as f64,
                    now.shares()
                );
            }
        }
        handles.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err("a thread panicked".to_string()))
        })
    });

    // Every thread has ended: the counters hold exactly what the files hold.
    let end = tally();
    write_manifest(&end, outcome.is_ok() && end.games >= options.games)?;
    outcome?;
    if progress {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "datagen: done, {} games, {} positions ({} new in {secs:.1} s, {:.0} positions/s a thread), {}",
            end.games,
            end.positions,
            end.positions - resumed.positions,
            (end.positions - resumed.positions) as f64 / secs / options.threads as f64,
            end.shares()
        );
    }
    Ok(end)
}

/// Lowers the count of running threads when a thread ends, however it ends.
struct Finished<'a>(&'a AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Every game of a data folder (all its `.tdg` files, in name order), or, for a
/// folder of data folders such as `../shared/data/selfplay`, of each of its
/// subfolders that holds `.tdg` files (in name order). A folder with neither is an
/// error, not an empty set: a mistyped path must not train on nothing.
pub fn read_folder(dir: &Path) -> Result<Vec<GameRecord>, String> {
    let entries = sorted_entries(dir)?;
    let files: Vec<&PathBuf> = entries.iter().filter(|p| is_data_file(p)).collect();
    if !files.is_empty() {
        return read_files(&files);
    }
    let mut games = Vec::new();
    let mut found = false;
    for sub in entries.iter().filter(|p| p.is_dir()) {
        let inner = sorted_entries(sub)?;
        let files: Vec<&PathBuf> = inner.iter().filter(|p| is_data_file(p)).collect();
        found |= !files.is_empty();
        games.extend(read_files(&files)?);
    }
    if !found {
        return Err(format!(
            "{}: no .tdg files here or in its subfolders",
            dir.display()
        ));
    }
    Ok(games)
}

fn is_data_file(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "tdg") && path.is_file()
}

/// The paths in `dir`, sorted by name.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    Ok(paths)
}

/// The games of `files`, in order.
fn read_files(files: &[&PathBuf]) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    for p in files {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        games.extend(
            format::read(&bytes)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .games,
        );
    }
    Ok(games)
}

/// `tabas datagen …`
pub fn run_cli(args: &[String]) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tabas datagen: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let bench = crate::bench::run(crate::bench::DEFAULT_DEPTH, Default::default(), &mut |_| {});
    let engine = format!("tabas {} (bench {bench})", crate::version());
    let command = format!("tabas datagen {}", args.join(" "));
    match generate(&options, &engine, &command, true) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tabas datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `tabas dataset DIR [--dump N]`
pub fn run_dataset_cli(args: &[String], out: &mut dyn FnMut(&str)) -> ExitCode {
    let (dir, dump) = match args {
        [dir] => (dir, 0),
        [dir, flag, n] if flag == "--dump" && n.parse::<usize>().is_ok() => {
            (dir, n.parse().unwrap_or(0))
        }
        _ => {
            eprintln!("tabas dataset: expected DIR [--dump N]\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let games = match read_folder(Path::new(dir)) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("tabas dataset: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut counts = Counts::default();
    let mut dumped = 0;
    for g in &games {
        counts.add(g);
        if dumped < dump {
            let samples = match g.samples() {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("tabas dataset: {e}");
                    return ExitCode::FAILURE;
                }
            };
            for s in samples.iter().take(dump - dumped) {
                let fen = shakmaty::fen::Fen::from_position(&s.pos, shakmaty::EnPassantMode::Legal);
                out(&format!(
                    "{fen} | {} | {} | {}",
                    s.white_score,
                    s.result.white_score(),
                    s.played
                        .to_uci(shakmaty::CastlingMode::from_chess960(g.chess960))
                ));
                dumped += 1;
            }
        }
    }
    out(&format!(
        "{} games, {} positions ({:.1} a game), {}",
        counts.games,
        counts.positions,
        counts.positions as f64 / counts.games.max(1) as f64,
        counts.shares()
    ));
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::words as args;

    #[test]
    fn options_parse_with_defaults_and_reject_nonsense() {
        let o = parse_options(&args("--out d --threads 2 --nodes 800")).unwrap();
        assert_eq!(o.out, PathBuf::from("d"));
        assert_eq!((o.games, o.threads, o.seed), (1000, 2, 1));
        assert_eq!(o.settings.soft_nodes, 800);
        assert_eq!(o.settings.hard_nodes, 3200);
        assert!(!o.settings.chess960);
        assert!(
            o.settings.managed_nodes,
            "the soft limit is managed by default"
        );
        assert!(
            parse_options(&args("--out d --frc"))
                .unwrap()
                .settings
                .chess960
        );
        for bad in [
            "",
            "--games 10",
            "--out d --threads 0",
            "--out d --nodes -5",
            "--out d --nodes 99999999999999999999999",
            "--out d --nodes 100 --hard-nodes 50",
            "--out d --what",
            "--out",
            "--out d --fixed-nodes --managed-nodes",
        ] {
            assert!(parse_options(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn later_settings_are_kept_in_the_manifest_and_older_folders_resume() {
        let keep = parse_options(&args("--out d --keep-histories")).unwrap();
        assert!(keep.settings.keep_histories);
        let fresh = parse_options(&args("--out d")).unwrap();
        assert!(!fresh.settings.keep_histories);
        // A manifest written before the option: fresh histories, so it resumes only
        // without the option.
        let before = "seed: 1\nthreads: 1\nnodes: 5000\nhard_nodes: 20000\nchess960: false\n";
        assert!(manifest_agrees(before, &histories_line(false)));
        assert!(!manifest_agrees(before, &histories_line(true)));
        let kept = format!("{before}{}\n", histories_line(true));
        assert!(manifest_agrees(&kept, &histories_line(true)));
        assert!(!manifest_agrees(&kept, &histories_line(false)));
        // The same for the managed soft limit, which came later still.
        assert!(manifest_agrees(&kept, &soft_limit_line(false)));
        assert!(!manifest_agrees(&kept, &soft_limit_line(true)));
        // Managed by default now, fixed on request; a folder made before either line
        // was fixed, so it resumes with --fixed-nodes only.
        let fixed = parse_options(&args("--out d --fixed-nodes")).unwrap();
        let managed = parse_options(&args("--out d --managed-nodes")).unwrap();
        assert!(managed.settings.managed_nodes && fresh.settings.managed_nodes);
        assert!(!fixed.settings.managed_nodes);
        assert!(manifest_agrees(
            before,
            &soft_limit_line(fixed.settings.managed_nodes)
        ));
        assert!(!manifest_agrees(
            before,
            &soft_limit_line(fresh.settings.managed_nodes)
        ));
        let managed_manifest = settings_lines(&managed).join("\n");
        assert!(!manifest_agrees(&managed_manifest, &soft_limit_line(false)));
        for o in [&keep, &fresh, &managed, &fixed] {
            for line in settings_lines(o) {
                assert!(manifest_agrees(&settings_lines(o).join("\n"), &line));
            }
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabas-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn options(dir: &Path, games: u64, threads: usize) -> Options {
        Options {
            out: dir.to_path_buf(),
            games,
            threads,
            seed: 3,
            settings: Settings {
                soft_nodes: 200,
                hard_nodes: 1000,
                chess960: false,
                keep_histories: false,
                managed_nodes: false,
            },
        }
    }

    #[test]
    fn a_run_is_reproducible_resumable_and_independent_of_threads() {
        let one = temp_dir("one");
        let counts = generate(&options(&one, 4, 1), "test", "test", false).unwrap();
        assert_eq!(counts.games, 4);
        assert!(counts.positions > 0);
        assert_eq!(
            counts.white_wins + counts.draws + counts.black_wins,
            counts.games
        );
        let reference = read_folder(&one).unwrap();

        // Two threads: the same games (game g on thread g mod 2).
        let two = temp_dir("two");
        generate(&options(&two, 4, 2), "test", "test", false).unwrap();
        let mut by_thread = read_folder(&two).unwrap();
        let (even, odd): (Vec<_>, Vec<_>) =
            by_thread.drain(..).enumerate().partition(|(i, _)| *i < 2);
        let interleaved: Vec<GameRecord> = even
            .into_iter()
            .zip(odd)
            .flat_map(|((_, a), (_, b))| [a, b])
            .collect();
        assert_eq!(interleaved, reference);

        // Stopped after 2 games with half a game written: resuming gives the same data.
        let resumed = temp_dir("resumed");
        generate(&options(&resumed, 2, 1), "test", "test", false).unwrap();
        let path = thread_file(&resumed, 0);
        let mut half = Vec::new();
        reference[2].encode(&mut half);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&half[..half.len() / 2]).unwrap();
        drop(f);
        generate(&options(&resumed, 4, 1), "test", "test", false).unwrap();
        assert_eq!(read_folder(&resumed).unwrap(), reference);
        assert_eq!(
            std::fs::read(thread_file(&resumed, 0)).unwrap(),
            std::fs::read(thread_file(&one, 0)).unwrap()
        );
        let manifest = std::fs::read_to_string(resumed.join("manifest.txt")).unwrap();
        assert!(manifest.contains("complete: true"), "{manifest}");
        assert!(manifest.contains(&format!("positions: {}", counts.positions)));

        // Other settings in the same folder: refused, nothing touched.
        let mut other = options(&resumed, 4, 1);
        other.seed = 4;
        assert!(generate(&other, "test", "test", false).is_err());
        assert_eq!(read_folder(&resumed).unwrap(), reference);

        for d in [one, two, resumed] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn a_folder_of_data_folders_reads_them_all_and_an_empty_one_is_an_error() {
        let parent = temp_dir("parent");
        let (a, b) = (parent.join("a"), parent.join("b"));
        generate(&options(&b, 1, 1), "test", "test", false).unwrap();
        let mut settings = options(&a, 2, 1);
        settings.seed = 5;
        generate(&settings, "test", "test", false).unwrap();
        std::fs::create_dir_all(parent.join("c-empty")).unwrap();
        let mut both = read_folder(&a).unwrap();
        both.extend(read_folder(&b).unwrap());
        assert_eq!(both.len(), 3);
        assert_eq!(read_folder(&parent).unwrap(), both, "a, then b");

        let e = read_folder(&parent.join("c-empty")).unwrap_err();
        assert!(e.contains("no .tdg files"), "{e}");
        let e = read_folder(&parent.join("missing")).unwrap_err();
        assert!(e.contains("missing"), "{e}");
        let _ = std::fs::remove_dir_all(parent);
    }
}
