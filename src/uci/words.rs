//! What parsing a command and parsing an option's value share: the error a person
//! reads, and numbers. Below `command.rs` and `options.rs`, which both use it (so
//! that neither imports the other's parsing).

use crate::text::shorten;
use std::fmt;

/// A parse failure, worded for a person (printed as `info string error: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciError(pub String);

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T, UciError> {
    Err(UciError(msg.into()))
}

/// A whole number; too large values saturate (the caller clamps), non-numbers are errors.
pub fn parse_number(word: &str, what: &str) -> Result<i64, UciError> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!("{what}: '{}' is not a number", shorten(word)));
    }
    Ok(word.parse::<i64>().unwrap_or(if word.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}
