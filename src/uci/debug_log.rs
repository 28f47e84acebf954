//! The `Debug Log File` option: the whole UCI conversation, both directions, with
//! timestamps, appended to a file, for a user chasing a problem between a GUI and Tabas.
//!
//! One line per protocol line, written whole and unbuffered (so a crash or a kill loses
//! nothing that was sent):
//!
//! ```text
//! 2025-01-31 12:34:56.789 >> go wtime 60000 btime 60000
//! 2025-01-31 12:34:56.801 << info depth 1 seldepth 1 multipv 1 score cp 40 …
//! ```
//!
//! The time is UTC, to the millisecond; `>>` marks a line read (GUI to engine), `<<` a line
//! written (engine to GUI), as in Stockfish's log and Tabas's test transcripts. Lines
//! starting `--` mark where a log was opened or closed and the end of input. Lines read
//! are recorded as they arrive, before they are acted on; lines written, just before
//! stdout gets them. So the file's order is the order of cause and effect: a line the GUI
//! sent in answer to one of ours always comes after it.
//!
//! The log is process-wide (like stdout, which every search thread writes to): `record`
//! is called from the stdin reader and from `uci::send`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Read from stdin: GUI to engine.
    In,
    /// Written to stdout: engine to GUI.
    Out,
    /// Not a protocol line: the log's own notes (opened, closed, end of input).
    Note,
}

struct Log {
    file: File,
    path: String,
}

static LOG: Mutex<Option<Log>> = Mutex::new(None);

/// The lock guards a file handle: a thread that panicked holding it leaves it usable.
fn lock() -> MutexGuard<'static, Option<Log>> {
    LOG.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts logging to `path` (appending; the file is created if need be), closing the log
/// that was open. If `path` cannot be opened, the log stays as it was and the error says
/// how it stays.
pub fn open(path: &str) -> Result<(), String> {
    let file = OpenOptions::new().create(true).append(true).open(path);
    let mut log = lock();
    let mut file = match file {
        Ok(f) => f,
        Err(e) => {
            let kept = match &*log {
                Some(old) => format!("still logging to '{}'", shown(&old.path)),
                None => "no log is written".to_string(),
            };
            return Err(format!(
                "cannot open the debug log file '{}' ({e}); {kept}",
                shown(path)
            ));
        }
    };
    if let Some(mut old) = log.take() {
        let note = format!("log continues in '{path}'");
        write_line(
            &mut old,
            &format_line(SystemTime::now(), Direction::Note, &note),
        );
    }
    let note = format!(
        "{} {} debug log opened",
        super::ENGINE_NAME,
        super::version()
    );
    let first = format_line(SystemTime::now(), Direction::Note, &note);
    if let Err(e) = file.write_all(first.as_bytes()) {
        log::warn!("debug log '{path}': {e}");
    }
    *log = Some(Log {
        file,
        path: path.to_string(),
    });
    Ok(())
}

/// A path as it may be echoed on stdout: one printable line.
fn shown(path: &str) -> String {
    crate::text::excerpt(path, 200)
}

/// Stops logging (nothing happens if no log is open).
pub fn close() {
    if let Some(mut old) = lock().take() {
        write_line(
            &mut old,
            &format_line(SystemTime::now(), Direction::Note, "debug log closed"),
        );
    }
}

/// Appends one line, if a log is open. `line` may end with its newline.
pub fn record(direction: Direction, line: &str) {
    let mut log = lock();
    if let Some(open) = log.as_mut() {
        // The time is read under the lock, so that times in the file never go back.
        let text = format_line(SystemTime::now(), direction, line);
        write_line(open, &text);
    }
}

fn write_line(log: &mut Log, text: &str) {
    // One write per line: the file is not buffered, so every line is on disk at once.
    if let Err(e) = log.file.write_all(text.as_bytes()) {
        log::warn!("debug log '{}': {e}", log.path);
    }
}

/// `<UTC time> <mark> <line>` and a newline; the line's own line ending is dropped.
pub fn format_line(time: SystemTime, direction: Direction, line: &str) -> String {
    let mark = match direction {
        Direction::In => ">>",
        Direction::Out => "<<",
        Direction::Note => "--",
    };
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let line = line.trim_end_matches(['\n', '\r']);
    format!("{} {mark} {line}\n", utc_timestamp(since_epoch))
}

/// `YYYY-MM-DD hh:mm:ss.mmm` (UTC) for a time since the Unix epoch.
pub fn utc_timestamp(since_epoch: Duration) -> String {
    let secs = since_epoch.as_secs();
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let of_day = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since_epoch.subsec_millis()
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: 400-year eras of 146,097 days, years starting in March).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64, millis: u64) -> String {
        utc_timestamp(Duration::from_secs(secs) + Duration::from_millis(millis))
    }

    #[test]
    fn timestamps_are_utc_dates_to_the_millisecond() {
        assert_eq!(at(0, 0), "1970-01-01 00:00:00.000");
        assert_eq!(at(951_782_400, 5), "2000-02-29 00:00:00.005");
        assert_eq!(at(951_868_799, 999), "2000-02-29 23:59:59.999");
        assert_eq!(at(1_709_251_199, 0), "2024-02-29 23:59:59.000");
        assert_eq!(at(1_735_689_600, 0), "2025-01-01 00:00:00.000");
        assert_eq!(at(4_107_542_400, 123), "2100-03-01 00:00:00.123");
    }

    #[test]
    fn lines_are_marked_by_direction_without_their_line_ending() {
        let t = UNIX_EPOCH + Duration::from_millis(1_500);
        assert_eq!(
            format_line(t, Direction::In, "go infinite\r\n"),
            "1970-01-01 00:00:01.500 >> go infinite\n"
        );
        assert_eq!(
            format_line(t, Direction::Out, "bestmove e2e4"),
            "1970-01-01 00:00:01.500 << bestmove e2e4\n"
        );
        assert_eq!(
            format_line(t, Direction::Note, ""),
            "1970-01-01 00:00:01.500 -- \n"
        );
    }
}
