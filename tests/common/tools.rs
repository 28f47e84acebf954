//! The binary as a process run to its end (the command-line tools, `tabas datagen`,
//! `tune`, `train`, `wdl-fit`, …, and the engine's own command lines), and the folders
//! and self-play data they work on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
#[cfg(feature = "tools")]
use tabas::tools::datagen::selfplay::Settings;

/// `tabas ARGS…`, run to its end.
pub fn tabas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabas"))
        .args(args)
        .output()
        .expect("start tabas")
}

/// `tabas TOOL ARGS…`, run to its end.
pub fn tool(tool: &str, args: &[&str]) -> Output {
    tabas(&[&[tool], args].concat())
}

/// What a run wrote on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary path of this test process for `test`'s `name`, with nothing there
/// (what a previous run left is removed).
pub fn temp_dir(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabas-{test}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// `games` short self-play games (200 nodes a move, 1000 at most) written to `dir`
/// (by `src/tools/datagen/`, so with the cargo feature `tools` only).
#[cfg(feature = "tools")]
pub fn self_play(dir: &Path, games: u64, threads: usize, seed: u64) {
    let options = tabas::tools::datagen::Options {
        out: dir.to_path_buf(),
        games,
        threads,
        seed,
        settings: Settings {
            soft_nodes: 200,
            hard_nodes: 1000,
            chess960: false,
            keep_histories: false,
            managed_nodes: false,
        },
    };
    tabas::tools::datagen::generate(&options, "test", "test", false).expect("self-play games");
}

/// `tabas TOOL` refuses each of `cases` (arguments, what stderr must say) with exit
/// code 2 and nothing on stdout, never a panic; `--help` succeeds and mentions `help_mentions`.
pub fn assert_usage_errors(tool_name: &str, cases: &[(&[&str], &str)], help_mentions: &str) {
    for &(args, message) in cases {
        let o = tool(tool_name, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
        assert!(o.stdout.is_empty());
    }
    let help = tool(tool_name, &["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains(help_mentions));
}
