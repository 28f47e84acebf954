//! Echoing user input back in error messages, safely.

/// How much of a garbled input an error message echoes back (characters).
pub const ECHO_MAX: usize = 40;

/// `s` as an error message echoes it: at most `ECHO_MAX` characters (see [`excerpt`]).
pub fn shorten(s: &str) -> String {
    excerpt(s, ECHO_MAX)
}

/// At most `max` characters of `s`, control characters escaped, so that an
/// error line built from garbage is always one short printable line.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in s.chars().take(max) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if s.chars().count() > max {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_cuts() {
        assert_eq!(excerpt("ab\u{0}c", 10), "ab\\u{0}c");
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("é", 3), "é");
    }
}
