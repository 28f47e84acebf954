//! `SyzygyPath`: the directories it names, and loading the tables in them.

use super::{EMPTY_PATH, Loaded, PATH_SEPARATOR, Tablebases, TbConfig};
use crate::text::excerpt;
use shakmaty_syzygy::Tablebase;
use std::io;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// The directories named by a `SyzygyPath` value, split at `separator`, blanks
/// trimmed, empty ones and repeats dropped. Empty or `<empty>`: none.
pub fn split_path(value: &str, separator: char) -> Vec<&str> {
    let value = value.trim();
    if value.eq_ignore_ascii_case(EMPTY_PATH) {
        return Vec::new();
    }
    let mut dirs: Vec<&str> = Vec::new();
    for dir in value.split(separator).map(str::trim) {
        if !dir.is_empty() && !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

impl Tablebases {
    /// Loads the tables of every directory in `path` (see `split_path`). An error,
    /// meant for a person, when a directory cannot be read or holds no table, or
    /// a table file has a size no table has; nothing is loaded then.
    pub fn load(path: &str, config: TbConfig) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        let dirs = split_path(path, PATH_SEPARATOR);
        for dir in &dirs {
            let shown = excerpt(dir, 80);
            let found = tables.add_directory(dir).map_err(|e| match e.kind() {
                io::ErrorKind::InvalidData => {
                    format!("SyzygyPath: a table in '{shown}' is corrupt or truncated ({e})")
                }
                _ => format!("SyzygyPath: cannot read the directory '{shown}': {e}"),
            })?;
            if found == 0 {
                return Err(format!(
                    "SyzygyPath: no Syzygy table (.rtbw, .rtbz) in '{shown}'"
                ));
            }
            files += found;
        }
        let directories = dirs.iter().map(|d| d.to_string()).collect();
        let loaded = Loaded::new(tables, directories, files);
        Ok(Tablebases::from_loaded(loaded, config))
    }

    /// The same tables, probed with other options (the tables are shared, not reloaded).
    pub fn with_config(&self, config: TbConfig) -> Tablebases {
        Tablebases {
            loaded: Arc::clone(&self.loaded),
            config,
            hits: AtomicU64::new(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{TempDir, tables_dir};
    use super::*;

    #[test]
    fn the_path_splits_into_directories() {
        assert!(split_path("", ':').is_empty());
        assert!(split_path("  ", ':').is_empty());
        assert!(split_path("<empty>", ':').is_empty());
        assert!(split_path(" <EMPTY> ", ':').is_empty());
        assert_eq!(split_path("/tb", ':'), ["/tb"]);
        assert_eq!(split_path("/tb/345:/tb/6", ':'), ["/tb/345", "/tb/6"]);
        assert_eq!(split_path(" /a : :/b: /a :", ':'), ["/a", "/b"]);
        assert_eq!(split_path("/my tables/x", ':'), ["/my tables/x"]);
        assert_eq!(
            split_path(r"C:\tb\345;D:\tb 6", ';'),
            [r"C:\tb\345", r"D:\tb 6"]
        );
        assert_eq!(split_path(r"C:\tb", ';'), [r"C:\tb"]);
    }

    #[test]
    fn the_separator_is_the_systems() {
        if cfg!(windows) {
            assert_eq!(PATH_SEPARATOR, ';');
        } else {
            assert_eq!(PATH_SEPARATOR, ':');
        }
    }

    #[test]
    fn a_bad_path_is_an_error() {
        let config = TbConfig::default();
        let missing = Tablebases::load("/nonexistent/tabas-syzygy", config);
        let e = missing.err().expect("a missing directory is an error");
        assert!(e.contains("/nonexistent/tabas-syzygy"), "{e}");
        // A directory without tables: this crate's sources.
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let e = Tablebases::load(src, config).err().expect("no tables");
        assert!(e.contains("no Syzygy table"), "{e}");
        // A file, not a directory.
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert!(Tablebases::load(file, config).is_err());
        // A table file of a size no table has.
        let truncated = TempDir::new("truncated");
        std::fs::write(truncated.0.join("KQvK.rtbw"), [0x71, 0xe8, 0x23, 0x5d]).unwrap();
        let e = Tablebases::load(truncated.path(), config)
            .err()
            .expect("corrupt");
        assert!(e.contains("corrupt or truncated"), "{e}");
        // One bad directory spoils the whole path.
        if let Some(dir) = tables_dir() {
            let path = format!("{}{PATH_SEPARATOR}/nonexistent", dir.display());
            assert!(Tablebases::load(&path, config).is_err());
        }
    }
}
